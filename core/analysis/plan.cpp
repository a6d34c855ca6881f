#include "core/analysis/plan.h"

#include <algorithm>

namespace core {

namespace {

/// Offloaded optimizer steps move 16-bit gradients to the host and
/// parameters back over PCIe each step (Ren et al. 2021, ZeRO-Offload §4.2),
/// at the scenario's host link rate.
double offloadSeconds(const Scenario &s, const Estimate &e)
{
    if (s.parallel.offload == Offload::None)
        return 0;
    const double rankParams = static_cast<double>(e.details.trainableParams)
        / (s.parallel.tp * s.parallel.pp * std::max(1, s.shardDegree()));
    return 2.0 * rankParams * e.details.regime.weights / (s.hostLinkGBps * 1e9);
}

std::vector<PlanOption> layoutsAt(const Scenario &base, const GpuSpec &gpu, int gpus, const PlanRequest &request)
{
    std::vector<PlanOption> found;
    const bool training = base.isTraining();
    const std::uint64_t heads = base.model.heads;
    for (int tp : {1, 2, 4, 8}) {
        if (tp > gpus || tp > base.parallel.gpusPerNode || heads % static_cast<std::uint64_t>(tp) != 0)
            continue;
        for (int pp : {1, 2, 4, 8, 16, 32, 64}) {
            if (tp * pp > gpus || gpus % (tp * pp) != 0 || static_cast<std::uint64_t>(pp) > base.model.layers)
                continue;
            const int dp = gpus / (tp * pp);
            for (int zero : {0, 1, 2, 3}) {
                if (!training && zero > 0)
                    break;
                if (dp == 1 && zero > 0)
                    break;
                for (Checkpointing ckpt : {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full}) {
                    if (!training && ckpt != Checkpointing::None)
                        break;
                    // Selective recompute only drops eager attention's scores.
                    if (ckpt == Checkpointing::Selective && base.attention != Attention::Eager)
                        continue;
                    for (Offload offload : {Offload::None, Offload::Optimizer, Offload::OptimizerAndParams}) {
                        if ((!training || !request.allowOffload) && offload != Offload::None)
                            break;
                        Scenario s = base;
                        s.gpus = gpus;
                        s.parallel.tp = tp;
                        s.parallel.pp = pp;
                        s.parallel.sequenceParallel = tp > 1;
                        s.parallel.ep = 1;
                        // Offloading parameters is ZeRO-3 (ZeRO-Infinity).
                        if (offload == Offload::OptimizerAndParams && zero < 3 && dp > 1)
                            continue;
                        s.zeroStage = offload == Offload::OptimizerAndParams ? 3 : zero;
                        s.checkpointing = training ? ckpt : base.checkpointing;
                        s.parallel.offload = offload;
                        Estimate e = estimate(s);
                        if (!e.isValid() || e.total > gpu.capacity())
                            continue;
                        const double gpusOnNode = std::min(gpus, s.parallel.gpusPerNode);
                        if (e.details.hostBytesPerGpu * gpusOnNode > request.hostBytesPerNode)
                            continue;
                        Performance perf = performance(s, e, gpu);
                        // The whole step (bubble and exposed communication
                        // included), then the offloaded states' traffic.
                        const double step = perf.stepSeconds + offloadSeconds(s, e);
                        found.push_back({std::move(s), std::move(e), perf, step});
                    }
                }
            }
        }
    }
    return found;
}

} // namespace

std::vector<PlanOption> planLayouts(const Scenario &base, const GpuSpec &gpu, const PlanRequest &request)
{
    for (int gpus = std::max(1, request.minGpus); gpus <= request.maxGpus; gpus *= 2) {
        std::vector<PlanOption> found = layoutsAt(base, gpu, gpus, request);
        if (found.empty())
            continue;
        const bool training = base.isTraining();
        std::sort(found.begin(), found.end(), [training](const PlanOption &a, const PlanOption &b) {
            // Training: fastest step first; inference: least memory first.
            return training ? a.stepSeconds < b.stepSeconds : a.estimate.total < b.estimate.total;
        });
        if (found.size() > request.limit)
            found.resize(request.limit);
        return found;
    }
    return {};
}

} // namespace core
