#pragma once

#include "core/memory/formula.h"
#include "core/memory/terms.h"

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

} // namespace core
