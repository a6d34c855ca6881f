#include "core/analysis/plan.h"

#include "core/analysis/fit.h"
#include "core/base/translatable.h"
#include "core/base/units.h"
#include "core/model/layerkinds.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

constexpr int kTensorParallel[] = {1, 2, 4, 8};
constexpr int kPipelineParallel[] = {1, 2, 4, 8, 16, 32, 64};

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

/// Tensor parallelism stays inside a node and splits whole heads; a
/// pipeline has no more stages than layers.
bool layoutAllowed(const Scenario &base, int tp, int pp)
{
    return tp <= base.parallel.gpusPerNode && headsNotSplitBy(base.model, static_cast<std::uint64_t>(tp)) == 0
        && keyValueHeadsNotSplitBy(base.model, static_cast<std::uint64_t>(tp)) == 0
        && static_cast<std::uint64_t>(pp) <= base.model.layers;
}

std::vector<PlanOption> layoutsAt(const Scenario &base, const GpuSpec &gpu, int gpus, const PlanRequest &request)
{
    std::vector<PlanOption> found;
    const bool training = base.isTraining();
    for (int tp : kTensorParallel) {
        for (int pp : kPipelineParallel) {
            if (tp * pp > gpus || gpus % (tp * pp) != 0 || !layoutAllowed(base, tp, pp))
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
                        Scenario s = onServingCard(base, gpu);
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

namespace {

/// The KV formats a replica is tried with: the scenario's, and fp8 where
/// the engine takes it (each engine's cacheFormats) and the scenario's is
/// wider.
std::vector<std::optional<WeightFormat>> kvChoices(const Scenario &base, ServingEngine engine)
{
    std::vector<std::optional<WeightFormat>> choices = {base.kvDtype};
    const std::vector<WeightFormat> &taken = runtimeBehaviour(engine).cacheFormats;
    const bool wide = !base.kvDtype || elementBytes(*base.kvDtype) > elementBytes(WeightFormat::Fp8);
    if (wide && std::find(taken.begin(), taken.end(), WeightFormat::Fp8) != taken.end())
        choices.push_back(WeightFormat::Fp8);
    return choices;
}

Scenario replicaScenario(const Scenario &base, const GpuSpec &gpu, ServingEngine engine,
                         std::optional<WeightFormat> kv, int tp, int pp)
{
    Scenario s = onServingCard(base, gpu);
    s.gpuId = gpu.id;
    s.serving = engine;
    s.kvDtype = kv;
    if (kv != base.kvDtype)
        s.kvDtypeV.reset();
    s.gpus = tp * pp;
    s.parallel.tp = tp;
    s.parallel.pp = pp;
    s.parallel.ep = 1;
    // One GPU type, every layer on the GPUs: a mixed set, its split and
    // llama.cpp's layer count belong to the scenario's own layout.
    s.devices.clear();
    s.tensorSplit.clear();
    s.gpuLayers.reset();
    // A bf16 checkpoint on a card without bf16 is served in fp16, the same
    // bytes (vLLM's --dtype auto: vllm/config/model.py _resolve_auto_dtype
    // falls back to the platform's first supported dtype).
    if (s.effectiveWeights() == WeightFormat::Bf16 && !gpu.supportsBf16)
        s.weights = WeightFormat::Fp16;
    // Continuous batching runs what its pool holds, whatever the batch.
    if (runtimeBehaviour(engine).continuousBatching)
        s.batch = 1;
    return s;
}

Message seconds(const char *text, double value, double target)
{
    return {"ServingPlan", text, {formatDuration(value), formatDuration(target)}};
}

/// Why a replica cannot serve even one request within the targets.
Message unmetAlone(const ReplicaCapacity &capacity, const ReplicaModel &m, const ServingTargets &t)
{
    switch (capacity.limit) {
    case ServingLimit::Ttft:
        return seconds(QT_TRANSLATE_NOOP("ServingPlan", "a lone prompt's first token takes %1 (target %2)"),
                       capacity.load.ttftSeconds, t.ttftSeconds);
    case ServingLimit::Tpot:
        return seconds(QT_TRANSLATE_NOOP("ServingPlan", "one sequence's decode step takes %1 (target %2)"),
                       capacity.load.tpotSeconds, t.tpotSeconds);
    case ServingLimit::Concurrency:
        return {"ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "its KV cache holds no sequence of %1 tokens"),
                {groupDigits(m.scenario->contextTokens())}};
    default:
        return {"ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "the GPU has no compute or bandwidth figure"), {}};
    }
}

} // namespace

ServingPlanRequest servingPlanRequest(const Scenario &base, std::vector<std::string> gpuIds)
{
    ServingPlanRequest request;
    request.gpuIds = std::move(gpuIds);
    for (const RuntimeInfo &runtime : allRuntimes())
        if (runtime.behaviour.continuousBatching)
            request.engines.push_back(runtime.engine);
    const Workload &w = base.workload;
    request.targets = {w.requestRate, w.ttftTargetSeconds, w.tpotTargetSeconds};
    return request;
}

ServingPlan planServing(const Scenario &base, const Catalog &catalog, const ServingPlanRequest &request)
{
    ServingPlan plan;
    if (base.isTraining())
        return plan;
    const ServingTargets &t = request.targets;
    for (const std::string &id : request.gpuIds) {
        const GpuSpec *gpu = catalog.find(id);
        if (!gpu)
            continue;
        const double price = gpu->pricePerHour > 0 ? gpu->pricePerHour
                                                   : (id == base.gpuId ? base.workload.pricePerGpuHour : 0.0);
        for (ServingEngine engine : request.engines) {
            std::vector<ServingLayout> group;
            for (const std::optional<WeightFormat> &kv : kvChoices(base, engine)) {
                for (int tp : kTensorParallel) {
                    for (int pp : kPipelineParallel) {
                        if (tp * pp > std::min(request.maxGpusPerReplica, request.maxGpus) || !layoutAllowed(base, tp, pp))
                            continue;
                        ServingLayout l;
                        l.scenario = replicaScenario(base, *gpu, engine, kv, tp, pp);
                        const auto reject = [&plan, &l](Message reason) {
                            plan.rejected.push_back({std::move(l.scenario), std::move(reason)});
                        };
                        if (std::vector<Message> problems = scenarioProblems(l.scenario); !problems.empty()) {
                            reject(std::move(problems.front()));
                            continue;
                        }
                        // What the card cannot run (bf16 before Ampere, fp8 before
                        // Ada, an engine off its vendor) serves no one.
                        if (std::vector<Message> cannot = capabilityWarnings(l.scenario, *gpu); !cannot.empty()) {
                            reject(std::move(cannot.front()));
                            continue;
                        }
                        l.estimate = estimate(l.scenario);
                        if (!l.estimate.isValid()) {
                            reject(l.estimate.errors.front());
                            continue;
                        }
                        if (l.estimate.total > gpu->capacity()) {
                            reject({"ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "needs %1 per GPU; the card has %2"),
                                    {formatBytes(l.estimate.total), formatBytes(gpu->capacity())}});
                            continue;
                        }
                        const ReplicaModel m = ReplicaModel::of(l.scenario, l.estimate, *gpu);
                        l.capacity = replicaCapacity(m, t);
                        if (l.capacity.requestRate <= 0) {
                            reject(unmetAlone(l.capacity, m, t));
                            continue;
                        }
                        const int perReplica = tp * pp;
                        const double replicas = t.requestRate > 0 ? std::ceil(t.requestRate / l.capacity.requestRate) : 1.0;
                        if (replicas * perReplica > request.maxGpus) {
                            reject({"ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "needs %1 GPUs; the plan may use %2"),
                                    {groupDigits(static_cast<std::uint64_t>(std::min(replicas * perReplica, 1e18))),
                                     groupDigits(static_cast<std::uint64_t>(request.maxGpus))}});
                            continue;
                        }
                        l.replicas = static_cast<int>(replicas);
                        l.gpus = l.replicas * perReplica;
                        l.prefillSeconds = m.prefillSeconds;
                        l.maxRows = m.maxRows;
                        const double rate = t.requestRate > 0 ? t.requestRate / replicas : l.capacity.requestRate;
                        l.load = replicaLoad(m, rate);
                        // At the asked rate, GPU-hours follow the GPU count exactly.
                        const double tokensPerSecond = (t.requestRate > 0 ? t.requestRate : rate) * m.outputTokens;
                        l.gpuHoursPerMillionTokens = l.gpus / (tokensPerSecond * 3600.0) * 1e6;
                        l.pricePerGpuHour = price;
                        l.costPerHour = price * l.gpus;
                        l.costPerMillionTokens = price * l.gpuHoursPerMillionTokens;
                        group.push_back(std::move(l));
                    }
                }
            }
            // Equal GPU-hours: the smaller replica (less to go wrong), then
            // the faster tokens.
            std::sort(group.begin(), group.end(), [](const ServingLayout &a, const ServingLayout &b) {
                if (a.gpuHoursPerMillionTokens != b.gpuHoursPerMillionTokens)
                    return a.gpuHoursPerMillionTokens < b.gpuHoursPerMillionTokens;
                if (a.scenario.gpus != b.scenario.gpus)
                    return a.scenario.gpus < b.scenario.gpus;
                return a.load.tpotSeconds < b.load.tpotSeconds;
            });
            if (group.size() > request.perGroup)
                group.resize(request.perGroup);
            std::move(group.begin(), group.end(), std::back_inserter(plan.layouts));
        }
    }
    const bool priced = std::all_of(plan.layouts.begin(), plan.layouts.end(),
                                    [](const ServingLayout &l) { return l.pricePerGpuHour > 0; });
    std::stable_sort(plan.layouts.begin(), plan.layouts.end(), [priced](const ServingLayout &a, const ServingLayout &b) {
        return priced ? a.costPerMillionTokens < b.costPerMillionTokens
                      : a.gpuHoursPerMillionTokens < b.gpuHoursPerMillionTokens;
    });
    return plan;
}

} // namespace core
