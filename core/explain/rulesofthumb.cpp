#include "core/explain/rulesofthumb.h"

#include <algorithm>

namespace core {

namespace {

/// The scenario a rule speaks of, for this model, batch and context, on
/// one GPU without sharding (the rules know neither).
Bytes detailedTotal(const Scenario &scenario, Mode mode, Regime regime, std::optional<WeightFormat> weights)
{
    Scenario s = scenario;
    s.mode = mode;
    s.regime = regime;
    s.weights = weights;
    s.optimizer = Optimizer::AdamW;
    s.gpus = 1;
    s.zeroStage = 0;
    s.parallel = Parallelism{};
    return estimate(s).total;
}

/// What one sample saves for backward in the training scenario the
/// activation rule speaks of: this model, context and training setup (full
/// training when the scenario is inference), batch 1, on one GPU; the
/// activations where they are largest, at the end of the forward pass.
Bytes detailedActivationsPerSample(const Scenario &scenario)
{
    Scenario s = scenario;
    if (!s.isTraining())
        s.mode = Mode::Train;
    s.batch = 1;
    s.gpus = 1;
    s.zeroStage = 0;
    s.parallel = Parallelism{};
    Bytes largest;
    for (const PhaseTotal &phase : estimate(s).phases)
        largest = std::max(largest, phase.terms[static_cast<std::size_t>(TermId::Activations)]);
    return largest;
}

} // namespace

std::vector<rules::RuleCheck> compareRulesOfThumb(const Scenario &scenario)
{
    const Bytes fp16Inference = detailedTotal(scenario, Mode::Inference, scenario.regime, WeightFormat::Fp16);
    const Bytes mixedTraining = detailedTotal(scenario, Mode::Train, Regime::Mixed, std::nullopt);
    const Bytes fp32Training = detailedTotal(scenario, Mode::Train, Regime::Fp32, std::nullopt);
    const std::uint64_t n = countParameters(scenario.model).total;
    return {
        {"S1", "fp16_inference", "2 B x n", rules::fp16Inference(n), fp16Inference},
        {"S6", "mixed_adam", "16 B x n", rules::mixedPrecisionAdam(n), mixedTraining},
        {"S7", "practical_training", "20 B x n", rules::practicalTraining(n), mixedTraining},
        {"S9", "fp32_weights_x3", "3 x 4 B x n", rules::fp32WeightsTimes(n, 3), fp32Training},
        {"S9", "fp32_weights_x4", "4 x 4 B x n", rules::fp32WeightsTimes(n, 4), fp32Training},
        {"S13", "notes_activations", "(h + I) x s x L x 1 B",
         rules::notesActivationsPerSample(scenario.model, scenario.sequence, 1),
         detailedActivationsPerSample(scenario)},
    };
}

} // namespace core
