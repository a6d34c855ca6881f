#pragma once

#include "core/base/units.h"
#include "core/engine/estimate.h"
#include "core/model/modelspec.h"

#include <cstdint>
#include <vector>

namespace core {

/// The seed notes' quick rules, kept beside the detailed model for teaching
/// (seed-facts S1, S6, S7, S9, S13). `n` is the parameter count.
namespace rules {

/// S1: an fp16 model needs ~2 bytes per parameter: "7B -> ~14 GB".
inline Bytes fp16Inference(std::uint64_t n) { return Bytes::fromCount(saturatingMul(n, 2)); }
/// S6: mixed-precision Adam keeps 2 + 2 + 12 = 16 bytes per parameter.
inline Bytes mixedPrecisionAdam(std::uint64_t n) { return Bytes::fromCount(saturatingMul(n, 16)); }
/// S7: ~20 bytes per parameter as the practical minimum for full training.
inline Bytes practicalTraining(std::uint64_t n) { return Bytes::fromCount(saturatingMul(n, 20)); }
/// S9: "3-4 x the fp32 weights": 12 to 16 bytes per parameter.
inline Bytes fp32WeightsTimes(std::uint64_t n, int multiple)
{
    return Bytes::fromCount(saturatingMul(saturatingMul(n, 4), static_cast<std::uint64_t>(multiple)));
}
/// S13: activations per sample ~ (hidden + intermediate) x context x layers
/// x bytes per element (1 at int8). Far below what a layer really saves
/// (Korthikanti et al. 2022); shown only to compare.
inline Bytes notesActivationsPerSample(const ModelSpec &m, std::uint64_t context, std::uint64_t bytesPerElement)
{
    return Bytes::fromCount(saturatingMul(
        saturatingMul(saturatingMul(m.hidden + m.intermediate, context), m.layers), bytesPerElement));
}

/// One quick rule set against the detailed estimate of the current scenario.
struct RuleCheck
{
    const char *seedFact; ///< "S1", "S6", "S7", "S9", "S13"
    const char *id;       ///< "fp16_inference", "mixed_adam", ...
    const char *formula;  ///< "2 B x n"
    Bytes rule;
    Bytes detailed;       ///< the detailed figure it is compared with
    double differencePercent() const
    {
        return detailed.count() ? 100.0 * (static_cast<double>(rule.count()) - static_cast<double>(detailed.count()))
                / static_cast<double>(detailed.count())
                                : 0.0;
    }
};

} // namespace rules

/// The seed notes' rules of thumb, each next to the detailed figure of the
/// scenario it speaks of (the total of fp16 inference, or of mixed-precision
/// or fp32 AdamW training; the activations of one training sample) for this
/// model, batch and context, on one GPU: the rules know no sharding.
std::vector<rules::RuleCheck> compareRulesOfThumb(const Scenario &scenario);

} // namespace core
