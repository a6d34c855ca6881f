#include "core/analysis/fit.h"

#include "core/analysis/deviceset.h"
#include "core/analysis/monotoneprobe.h"
#include "core/base/translatable.h"
#include "core/engine/preparedscenario.h"
#include "core/memory/formularecord.h"
#include "core/memory/overheads.h"
#include "core/memory/sglangpool.h"
#include "core/memory/trtllmpool.h"
#include "core/scenario/fields.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>

namespace core {

Scenario onGpus(const Scenario &scenario, int gpus)
{
    Scenario s = scenario;
    s.gpus = gpus;
    if (s.isTraining() && gpus > 1)
        s.zeroStage = 3;
    return s;
}

std::vector<Message> capabilityWarnings(const Scenario &s, const GpuSpec &gpu)
{
    std::vector<Message> warnings;
    const WeightFormat wf = s.effectiveWeights();
    const bool usesBf16 = wf == WeightFormat::Bf16 || (s.isTraining() && s.regime != Regime::Fp32 && s.regime != Regime::Amp)
        || (s.kvDtype && *s.kvDtype == WeightFormat::Bf16);
    if (usesBf16 && !gpu.supportsBf16)
        warnings.push_back({"Message", QT_TRANSLATE_NOOP("Message", "bf16 is not supported on %1 (needs Ampere or later); use fp16"),
                            {gpu.architecture}});
    if (s.attention == Attention::Flash && !gpu.supportsFlashAttention2)
        warnings.push_back({"Message",
                            QT_TRANSLATE_NOOP("Message", "FlashAttention-2 needs Ampere or later; %1 runs SDPA or eager attention"),
                            {gpu.name}});
    const bool usesFp8 = wf == WeightFormat::Fp8
        || (s.kvDtype
            && (*s.kvDtype == WeightFormat::Fp8 || *s.kvDtype == WeightFormat::Fp8PerTokenHead
                || *s.kvDtype == WeightFormat::TurboquantK8V4));
    if (usesFp8 && !gpu.supportsFp8)
        warnings.push_back({"Message",
                            QT_TRANSLATE_NOOP("Message", "fp8 needs Ada or Hopper (compute capability 8.9+); %1 lacks it"),
                            {gpu.name}});
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    if (runtime && runtime->cudaOnly && !gpu.runsCuda())
        warnings.push_back({"Message", QT_TRANSLATE_NOOP("Message", "%1 runs on NVIDIA GPUs only; %2 is not one"),
                            {runtimeInfo(s.serving).name, gpu.name}});
    else if (runtime && runtime->minComputeCapability > 0 && !gpu.computeCapability.empty()
             && std::strtod(gpu.computeCapability.c_str(), nullptr) < runtime->minComputeCapability)
        warnings.push_back({"Message",
                            QT_TRANSLATE_NOOP("Message", "%1 is built for compute capability %2 and later; %3 is %4"),
                            {runtimeInfo(s.serving).name, formatFixed(runtime->minComputeCapability, 1), gpu.name,
                             gpu.computeCapability}});
    // An NVFP4 KV cache runs on data-centre Blackwell only: vLLM's on
    // FlashInfer's trtllm-gen attention, built for SM100
    // (vllm/v1/attention/backends/flashinfer.py), TensorRT-LLM's on its
    // FP4 attention kernels for the same GPUs.
    if (s.kvDtype && *s.kvDtype == WeightFormat::Nvfp4 && !gpu.isDataCentreBlackwell())
        warnings.push_back({"Message",
                            QT_TRANSLATE_NOOP("Message", "an NVFP4 KV cache needs a data-centre Blackwell GPU (compute "
                                                         "capability 10.x); %1 is not one"),
                            {gpu.name}});
    return warnings;
}

std::optional<Message> newCapabilityWarning(const Scenario &variant, const Scenario &own, const GpuSpec &gpu)
{
    const std::vector<Message> owned = capabilityWarnings(own, gpu);
    for (const Message &w : capabilityWarnings(variant, gpu))
        if (std::none_of(owned.begin(), owned.end(), [&w](const Message &o) { return o.text == w.text; }))
            return w;
    return std::nullopt;
}

ProfiledNonTorch profiledNonTorch(const Scenario &s, const Estimate &e)
{
    const Bytes comm = e.term(TermId::CommBuffers);
    if (!vllmProfilesTheBudget(s) || !versionRuleHolds(s.versions, VersionRule::VllmBudgetFromSnapshot))
        return {e.term(TermId::CudaOverhead) + comm, "cuda_overhead + comm_buffers"};
    // What grew outside torch after vLLM's init snapshot, as its logs print
    // it ("non-torch memory", "non_torch_memory takes"), at TP 1 and 2:
    // 0.16 GiB (vLLM PR 12126), 0.20 (PR 14447, two RTX 3090s), 0.25 (0.19.0
    // on an H100, tests/data/logs), 0.27 (0.27.1 on an RTX 4090: consumed
    // 15.54 less the weights' 15.27), 0.28 (issue 15039), 0.30 (issue 15815,
    // two L40S); the median taken. vLLM's code names no figure.
    constexpr double kGrowthGib = 0.26;
    static const std::string terms = formatFixed(kGrowthGib, 2) + " GiB of non-torch growth + comm_buffers";
    static const std::string growthOnly = formatFixed(kGrowthGib, 2) + " GiB of non-torch growth";
    // From 0.11 the snapshot follows the distributed start: a pipeline's
    // communicators are in it, and only the TP group's own communicator
    // (the profile's first collective creates it) and its fusion
    // workspace, comm_buffers, grow after it.
    if (versionRuleHolds(s.versions, VersionRule::VllmSnapshotAfterDistInit) && s.parallel.tp <= 1)
        return {Bytes::gib(kGrowthGib), growthOnly.c_str()};
    return {comm + Bytes::gib(kGrowthGib), terms.c_str()};
}

std::uint64_t kvTokenBudget(const Scenario &s, const Estimate &e, const GpuSpec &gpu)
{
    const Bytes capacity = gpu.capacity();
    if (e.details.kvBytesPerToken <= 0)
        return 0;
    // vLLM's kv_cache_memory_bytes (gpu_worker.py determine_available_memory:
    // "skipped memory profiling"): the pool as given.
    if (s.kvCacheMemoryGib && runtimeBehaviour(s.serving).takesKvCacheSize)
        return static_cast<std::uint64_t>(*s.kvCacheMemoryGib * 1024.0 * 1024.0 * 1024.0 / e.details.kvBytesPerToken);
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if (runtime.kvPool == KvPool::ShareOfFreeBeforeWeights) {
        // SGLang measures the free memory after torch.distributed's start
        // (the CUDA context and NCCL's buffers in use) and before the weights.
        const double capacityBytes = static_cast<double>(capacity.count());
        const double freeBefore =
            capacityBytes - static_cast<double>((e.term(TermId::CudaOverhead) + e.term(TermId::CommBuffers)).count());
        const double fraction = sglangMemFraction(s, gpu);
        const double weights = static_cast<double>(e.term(TermId::Weights).count());
        return sglangPoolTokens(sglangPoolBytes(freeBefore, freeBefore - weights, fraction), e.details.kvBytesPerToken);
    }
    const double used = static_cast<double>(
        (e.term(TermId::Weights) + profiledNonTorch(s, e).bytes + e.term(TermId::Workspace) + e.term(TermId::Logits))
            .count());
    // TensorRT-LLM: the fraction of what the profile left free; the
    // temporary pool it profiled with is in its peak and added back.
    if (runtime.kvPool == KvPool::ShareOfFreeAfterProfile)
        return trtllmPoolTokens(
            trtllmPoolBytes(static_cast<double>(capacity.count()), used, 0.0, s.effectiveFreeGpuMemoryFraction()),
            e.details.kvBytesPerToken, runtime.poolBlockTokens, poolRoundsUp(s));
    double budget = static_cast<double>(capacity.count()) * s.effectiveGpuMemoryUtilization();
    // vLLM 0.21 and later take their CUDA-graph estimate from the budget
    // (none on ROCm: profile_cudagraph_memory runs on CUDA only; none on
    // Model Runner V2 before 0.29, whose profile_cudagraph_memory returned 0).
    const bool graphsUnreserved = vllmModelRunnerV2(s) && !versionRuleHolds(s.versions, VersionRule::VllmModelRunnerV2);
    if (runtime.takesCudaGraphEstimate && s.cudaGraphMemoryGib && gpu.runsCuda() && !graphsUnreserved
        && versionRuleHolds(s.versions, VersionRule::VllmUtilization092))
        budget -= *s.cudaGraphMemoryGib * 1024.0 * 1024.0 * 1024.0;
    if (budget <= used)
        return 0;
    return static_cast<std::uint64_t>((budget - used) / e.details.kvBytesPerToken);
}


Estimate estimateVariant(const EstimateWithFits &result, const Scenario &variant)
{
    return result.prepared ? estimate(variant, *result.prepared) : estimate(variant);
}

std::vector<Estimate> estimateStages(const EstimateWithFits &result)
{
    if (!result.prepared)
        return {result.estimate};
    return estimateStages(result.scenario, *result.prepared);
}

std::pair<const Scenario &, const Estimate &> EstimateWithFits::onCard(const GpuSpec &gpu) const
{
    for (const OnCard &other : otherCards)
        if (sameEstimateOn(other.scenario, gpu))
            return {other.scenario, other.estimate};
    return {scenario, estimate};
}

namespace {

/// The estimate of `asGiven` (its card set) and its fits against the
/// catalog GPUs `asked` accepts.
EstimateWithFits fitsOnCard(const Scenario &asGiven, const Catalog &catalog,
                            const std::function<bool(const GpuSpec &)> &asked, Formulas formulas)
{
    EstimateWithFits result;
    result.scenario = withDeviceSplit(asGiven, catalog);
    const Scenario &scenario = result.scenario;
    for (const std::string &id : scenario.devices)
        if (!catalog.find(id))
            result.estimate.errors.push_back(
                Message{"Message", QT_TRANSLATE_NOOP("Message", "'%1' is not a catalog GPU (see 'vramplanner-cli gpus')"),
                        {id}}
                    .about(field(FieldId::Devices).key));
    if (!result.estimate.isValid())
        return result;
    // The estimate and the batch and sequence probes share what the other
    // inputs make; recorded, its formulas are the derivations' start.
    std::shared_ptr<FormulaRecord> record = formulas == Formulas::Recorded ? std::make_shared<FormulaRecord>() : nullptr;
    result.prepared = std::make_shared<const PreparedScenario>(scenario, record.get());
    const PreparedScenario &prepared = *result.prepared;
    result.formulas = record; // the prepared formulas point into it
    result.estimate = record ? estimate(scenario, prepared, *record) : estimate(scenario, prepared);
    if (!result.estimate.isValid())
        return result;
    result.deviceSet = fitDeviceSet(scenario, catalog);

    Estimate scratch;
    Scenario point = scenario;
    // vLLM's --max-model-len auto: one request's KV cache by its context.
    MonotoneProbe kvByContext([&](std::uint64_t context) {
        point.batch = 1;
        point.sequence = context;
        return estimate(point, prepared).term(TermId::KvCache);
    });
    MonotoneProbe byBatch([&](std::uint64_t batch) {
        point.batch = batch;
        point.sequence = scenario.sequence;
        return totalOf(point, prepared, scratch);
    });
    MonotoneProbe bySequence([&](std::uint64_t sequence) {
        point.batch = scenario.batch;
        point.sequence = sequence;
        return totalOf(point, prepared, scratch);
    });
    // "How many layers on the GPU": --gpu-layers from 0 to L + 1, probed
    // one up so that 0 layers is a point of the search.
    const RuntimeBehaviour *runtime = servingBehaviour(scenario);
    const bool layerOffload = runtime && scenario.devices.empty()
        && (runtime->layerOffload == LayerOffload::GpuLayers
            || (runtime->layerOffload == LayerOffload::DeviceMap && scenario.parallel.tp * scenario.parallel.pp == 1));
    MonotoneProbe byGpuLayersPlusOne([&scenario](std::uint64_t layersPlusOne) {
        Scenario s = scenario;
        s.gpuLayers = layersPlusOne - 1;
        return totalOf(s);
    });
    // "How many of this GPU": split the layers (inference) or shard fully
    // with ZeRO-3 / FSDP full-shard (training).
    MonotoneProbe byGpus([&scenario](std::uint64_t gpus) { return totalOf(onGpus(scenario, static_cast<int>(gpus))); });
    std::map<int, Estimate> layouts; // per GPU count, for the layout bars

    for (const GpuSpec &gpu : catalog.gpus) {
        if (!asked(gpu))
            continue;
        GpuFit fit;
        fit.gpuId = gpu.id;
        fit.gpu = gpu;
        fit.capacity = gpu.capacity();
        const Bytes total = result.estimate.total;
        fit.fits = total <= fit.capacity;
        fit.headroom = fit.capacity - total; // clamped at zero
        // A saturated total stays saturated: the shortfall is "exceeds" too.
        fit.shortfall = fit.fits ? Bytes() : total.isSaturated() ? total : total - fit.capacity;
        fit.gpusNeeded = fit.fits && scenario.gpus == 1
            ? 1
            : static_cast<int>(byGpus.smallestFitting(fit.capacity, static_cast<std::uint64_t>(ScenarioLimits::maxGpus)));
        fit.maxBatch = byBatch.largestFitting(fit.capacity, ScenarioLimits::maxBatch);
        // Capped at the context length the model supports, where known.
        const std::uint64_t sequenceLimit = scenario.model.maxPositions > 0
            ? std::min<std::uint64_t>(scenario.model.maxPositions, ScenarioLimits::maxSequence)
            : ScenarioLimits::maxSequence;
        fit.maxSequence = bySequence.largestFitting(fit.capacity, sequenceLimit);
        if (!scenario.isTraining() && !scenario.model.encoderOnly) {
            fit.hasKvTokens = true;
            fit.kvTokens = kvTokenBudget(scenario, result.estimate, gpu);
            fit.concurrentSequences = fit.kvTokens / scenario.sequence;
            if (runtime && runtime->fitsContextToPool) {
                fit.hasAutoContext = true;
                fit.autoContext = kvByContext.largestFitting(
                    Bytes::fromDouble(static_cast<double>(fit.kvTokens) * result.estimate.details.kvBytesPerToken),
                    sequenceLimit);
            }
        }
        if (layerOffload) {
            // A scenario with every layer on the GPU that fits needs no search.
            fit.hasGpuLayers = true;
            fit.maxGpuLayers = fit.fits && !scenario.gpuLayers
                ? static_cast<long long>(scenario.model.layers) + 1
                : static_cast<long long>(byGpuLayersPlusOne.largestFitting(fit.capacity, scenario.model.layers + 2)) - 1;
        }
        fit.warnings = capabilityWarnings(scenario, gpu);
        // SGLang stops at start-up when the weights leave its pool nothing
        // ("Not enough memory. Please try to increase --mem-fraction-static").
        if (fit.hasKvTokens && fit.kvTokens == 0
            && runtimeBehaviour(scenario.serving).kvPool == KvPool::ShareOfFreeBeforeWeights)
            fit.warnings.push_back(
                {"Message",
                 QT_TRANSLATE_NOOP("Message", "SGLang would not start on %1: at mem_fraction_static %2 the weights leave "
                                              "nothing for its KV pool"),
                 {gpu.name, formatFixed(sglangMemFraction(scenario, gpu), 3)}});
        fit.layoutGpus = fit.fits || fit.gpusNeeded == 0 ? scenario.gpus : fit.gpusNeeded;
        if (fit.layoutGpus == scenario.gpus) {
            fit.layoutTerms = result.estimate.terms;
            fit.layoutTotal = result.estimate.total;
        } else {
            auto it = layouts.find(fit.layoutGpus);
            if (it == layouts.end())
                it = layouts.emplace(fit.layoutGpus, estimate(onGpus(scenario, fit.layoutGpus))).first;
            fit.layoutTerms = it->second.terms;
            fit.layoutTotal = it->second.total;
        }
        result.fits.push_back(std::move(fit));
    }
    return result;
}

} // namespace

EstimateWithFits estimateWithFits(const Scenario &scenario, const Catalog &catalog,
                                  const std::vector<std::string> &gpuIds, Formulas formulas)
{
    const auto isAsked = [&gpuIds](const GpuSpec &gpu) {
        return gpuIds.empty() || std::find(gpuIds.begin(), gpuIds.end(), gpu.id) != gpuIds.end();
    };
    // The estimate is the focus GPU's; where the engine's defaults (vLLM's
    // batch defaults) or its communicators (SGLang's, by link) follow the
    // card, each other kind of card is fitted with its own estimate.
    const GpuSpec *alone = scenario.gpuId.empty() && gpuIds.size() == 1 ? catalog.find(gpuIds.front()) : nullptr;
    const GpuSpec *focus = alone ? alone : focusGpu(scenario, catalog);
    const Scenario onFocus = focus ? onServingCard(scenario, *focus) : scenario;
    if (!estimateFollowsTheCard(onFocus))
        return fitsOnCard(onFocus, catalog, isAsked, formulas);
    const auto onSameEstimate = [&](const Scenario &like) {
        return [&](const GpuSpec &gpu) { return isAsked(gpu) && sameEstimateOn(like, gpu); };
    };
    EstimateWithFits result = fitsOnCard(onFocus, catalog, onSameEstimate(onFocus), formulas);
    if (!result.estimate.isValid())
        return result;
    // One estimate for each other kind of card asked about.
    std::vector<Scenario> others;
    for (const GpuSpec &gpu : catalog.gpus)
        if (isAsked(gpu) && !sameEstimateOn(onFocus, gpu)
            && std::none_of(others.begin(), others.end(), [&](const Scenario &o) { return sameEstimateOn(o, gpu); }))
            others.push_back(onServingCard(onFocus, gpu));
    for (const Scenario &onCard : others) {
        EstimateWithFits other = fitsOnCard(onCard, catalog, onSameEstimate(onCard), Formulas::Skipped);
        std::move(other.fits.begin(), other.fits.end(), std::back_inserter(result.fits));
        // On one GPU SGLang connects nothing: the card's estimate is the
        // focus GPU's, and only its searches over more GPUs were its own.
        if (totalFollowsTheCard(onCard))
            result.otherCards.push_back({std::move(other.scenario), std::move(other.estimate)});
    }
    // In the catalog's order, as asked.
    const auto position = [&catalog](const GpuFit &fit) {
        return std::find_if(catalog.gpus.begin(), catalog.gpus.end(), [&fit](const GpuSpec &g) { return g.id == fit.gpuId; })
            - catalog.gpus.begin();
    };
    std::stable_sort(result.fits.begin(), result.fits.end(),
                     [&](const GpuFit &a, const GpuFit &b) { return position(a) < position(b); });
    return result;
}

namespace {

long long signedHeadroom(bool fits, Bytes headroom, Bytes shortfall)
{
    constexpr std::uint64_t limit = 1ull << 62;
    return fits ? static_cast<long long>(std::min(headroom.count(), limit))
                : -static_cast<long long>(std::min(shortfall.count(), limit));
}

} // namespace

long long GpuFit::headroomBytes() const { return signedHeadroom(fits, headroom, shortfall); }

long long DeviceFit::headroomBytes() const { return signedHeadroom(fits, headroom, shortfall); }

namespace {

std::string headroomText(bool fits, Bytes headroom, Bytes shortfall, ByteUnit unit, int decimals)
{
    if (fits)
        return formatBytes(headroom, unit, decimals);
    if (shortfall.isSaturated())
        return formatBytes(shortfall, unit, decimals); // "exceeds"
    return "-" + formatBytes(shortfall, unit, decimals);
}

} // namespace

std::string formatHeadroom(const GpuFit &fit, ByteUnit unit, int decimals)
{
    return headroomText(fit.fits, fit.headroom, fit.shortfall, unit, decimals);
}

std::string formatHeadroom(const DeviceFit &device, ByteUnit unit, int decimals)
{
    return headroomText(device.fits, device.headroom, device.shortfall, unit, decimals);
}

} // namespace core
