#include "core/rulesofthumb.h"

namespace core {

std::vector<rules::RuleCheck> compareRulesOfThumb(const Scenario &scenario)
{
    Scenario single = scenario;
    single.gpus = 1;
    const Bytes detailed = estimate(single).total;
    const std::uint64_t n = countParameters(scenario.model).total;
    return {
        {"S1", "fp16_inference", "2 B x n", rules::fp16Inference(n), detailed},
        {"S6", "mixed_adam", "16 B x n", rules::mixedPrecisionAdam(n), detailed},
        {"S7", "practical_training", "20 B x n", rules::practicalTraining(n), detailed},
        {"S9", "fp32_weights_x3", "3 x 4 B x n", rules::fp32WeightsTimes(n, 3), detailed},
        {"S9", "fp32_weights_x4", "4 x 4 B x n", rules::fp32WeightsTimes(n, 4), detailed},
    };
}

} // namespace core
