#pragma once

#include "core/estimate.h"
#include "core/formula.h"

#include <array>
#include <string>
#include <vector>

namespace core {

/// How each term was computed at one moment; null where the term is not held.
using TermFormulas = std::array<const TermFormula *, kTermCount>;

/// What explaining an estimate records: every formula the engine evaluated,
/// and for each moment of each phase which formula gave each term.
class FormulaRecord : public FormulaStore
{
public:
    void addMoment(Phase phase, const char *moment, const TermFormulas &how)
    {
        m_moments.push_back({phase, moment, how});
    }
    /// The formula of `term` at `moment` of `phase`; null where the term is
    /// not held then, or the moment was not recorded.
    const TermFormula *find(Phase phase, const std::string &moment, TermId term) const
    {
        for (const Moment &m : m_moments)
            if (m.phase == phase && moment == m.moment)
                return m.how[static_cast<std::size_t>(term)];
        return nullptr;
    }

private:
    struct Moment
    {
        Phase phase;
        const char *moment;
        TermFormulas how;
    };
    std::vector<Moment> m_moments;
};

/// Runs the pipeline stage that `estimate` describes again, with `record`
/// attached: the same computation, its operands kept. `estimate` must be
/// `estimate(scenario)` or one of `estimateStages(scenario)`.
void recordFormulas(const Scenario &scenario, const Estimate &estimate, FormulaRecord &record);

} // namespace core
