#pragma once

#include "core/base/message.h"
#include "core/analysis/fit.h"
#include "core/engine/estimate.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>

namespace core {

/// How a term's bytes came about, rendered from the operands the engine
/// used at the peak (per rank, after every split): the formula in symbols,
/// the same formula with this scenario's values, the result, where the
/// formula is from, which case applied, and what each symbol means.
/// Symbols that are sums of their own follow the formula after "; "
/// ("c = 2 [logits] + 4 [fp32 copy] + 4 [log-softmax]"), and each
/// substituted definition ends with its value ("= 10 B").
/// The texts are views into `text`, which the derivations rendered together
/// share (one allocation for a report's thirteen, not six each).
struct Derivation
{
    std::string_view formula;
    std::string_view substituted;
    std::string_view result;
    std::string_view source;
    std::string_view note;
    std::string_view legend;
    std::shared_ptr<const std::string> text;
};

/// Built on demand by running the estimate's stage again with a recorder
/// attached (never on the slider-to-repaint path unless asked for).
/// `estimate` must be `estimate(scenario)` (or one of its stages).
/// Words (meanings, parts, notes) in the reader's language with a
/// `translator`; symbols, numbers and source citations as they are.
Derivation explainTerm(const Scenario &scenario, const Estimate &estimate, TermId term, Translator translator = nullptr);

/// Every term's derivation from one recording, indexed by TermId (reports).
std::array<Derivation, kTermCount> explainTerms(const Scenario &scenario, const Estimate &estimate,
                                                Translator translator = nullptr);

/// The same for the estimate of `result`, rendered from the formulas it
/// kept (`Formulas::Recorded`) without running anything again; recorded
/// here when it kept none.
Derivation explainTerm(const EstimateWithFits &result, TermId term, Translator translator = nullptr);
std::array<Derivation, kTermCount> explainTerms(const EstimateWithFits &result, Translator translator = nullptr);

} // namespace core
