#pragma once

#include "core/estimate.h"

#include <string>

namespace core {

/// How a term's bytes came about: the formula in symbols, the same formula
/// with this scenario's values, the result, and where the formula is from.
struct Derivation
{
    std::string formula;
    std::string substituted;
    std::string result;
    std::string source;
};

/// Built on demand from the estimate's recorded details (never on the
/// slider-to-repaint path unless asked for).
Derivation explainTerm(const Scenario &scenario, const Estimate &estimate, TermId term);

} // namespace core
