#pragma once

#include "core/analysis/performance.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"

#include <vector>

namespace core {

struct PlanRequest
{
    int minGpus = 1;
    int maxGpus = 1024;
    std::size_t limit = 10; ///< layouts returned
    bool allowOffload = true;
    /// Host memory a node offers for offloaded states: 2 TiB, as in an
    /// NVIDIA DGX H100 (DGX H100 datasheet).
    double hostBytesPerNode = 2.0 * 1024 * 1024 * 1024 * 1024;
};

/// One layout that fits, with its memory and speed.
struct PlanOption
{
    Scenario scenario; ///< the input with gpus, tp, pp, ZeRO, checkpointing and offload set
    Estimate estimate;
    Performance performance;
    double stepSeconds = 0; ///< Performance::stepSeconds (the sum of the step's parts) plus offload traffic
};

/// "Plan for me": the smallest GPU count of `gpu` at which some layout fits
/// (GPU counts in powers of two from minGpus), every layout that fits at
/// that count (tp, pp, ZeRO stage, checkpointing, offload), fastest first.
std::vector<PlanOption> planLayouts(const Scenario &base, const GpuSpec &gpu, const PlanRequest &request);

} // namespace core
