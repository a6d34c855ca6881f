#pragma once

#include <cstdint>

namespace core::deepspeed {

/// DeepSpeed's own model-state estimators, reproduced as a cross-check
/// (deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs
/// and stage3.py estimate_zero3_model_states_mem_needs, after PR #5099:
/// ZeRO-2 without offload is 2P + 18P/N). Bytes per GPU and per node (CPU).
struct Needs
{
    double gpuBytes = 0;
    double cpuBytes = 0;
};

enum class Zero3Offload { None, Optimizer, OptimizerAndParams };

constexpr double kAdditionalBufferFactor = 1.5;

Needs zero2(double params, int gpusPerNode, int nodes, bool cpuOffload);
Needs zero3(double params, double largestLayerParams, int gpusPerNode, int nodes, Zero3Offload offload, bool zeroInit);

} // namespace core::deepspeed
