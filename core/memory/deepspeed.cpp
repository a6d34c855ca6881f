#include "core/memory/deepspeed.h"

#include <algorithm>
#include <cmath>

namespace core::deepspeed {

Needs zero2(double params, int gpusPerNode, int nodes, bool cpuOffload)
{
    const double totalGpus = static_cast<double>(gpusPerNode) * nodes;
    if (cpuOffload)
        return {2.0 * params, params * std::max(4.0 * totalGpus, 16.0) * kAdditionalBufferFactor};
    // 2 = params_16bit; 18 = 2_grads_16bit + 4_grads_32bit + 4_params_32bit + 8_optimizer_states_32bit
    return {2.0 * params + std::floor(18.0 * params / totalGpus), params * 4.0 * gpusPerNode * kAdditionalBufferFactor};
}

Needs zero3(double params, double largestLayerParams, int gpusPerNode, int nodes, Zero3Offload offload, bool zeroInit)
{
    const double totalGpus = static_cast<double>(gpusPerNode) * nodes;
    const double gpusFactor = 1.0 / nodes;
    const double largestLayerMemory = 4.0 * largestLayerParams;
    const double b = kAdditionalBufferFactor;
    switch (offload) {
    case Zero3Offload::OptimizerAndParams:
        return {largestLayerMemory, zeroInit ? params * 18.0 * gpusFactor * b
                                             : params * std::max(4.0 * gpusPerNode, 18.0 * gpusFactor) * b};
    case Zero3Offload::Optimizer:
        return {largestLayerMemory + std::floor(2.0 * params / totalGpus),
                zeroInit ? params * 16.0 * gpusFactor * b : params * std::max(4.0 * gpusPerNode, 16.0 * gpusFactor) * b};
    case Zero3Offload::None:
        break;
    }
    return {largestLayerMemory + std::floor(18.0 * params / totalGpus),
            zeroInit ? largestLayerParams * 4.0 * gpusPerNode * b : params * 4.0 * gpusPerNode * b};
}

} // namespace core::deepspeed
