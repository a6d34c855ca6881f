#include "core/analysis/performance.h"

#include "core/analysis/fit.h"
#include "core/analysis/steptime.h"
#include "core/analysis/utilization.h"
#include "core/memory/sglangpool.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

double activeParams(const Scenario &s)
{
    return static_cast<double>(countParameters(s.model).active);
}

/// Requests per second one replica serves, each a prefill of its prompt then
/// `outputTokens` decode steps shared with the other rows. Under
/// iteration-level scheduling (Yu et al. 2022, Orca §3.1; vLLM's scheduler)
/// a prefill holds the whole GPU while it runs (compute bound), and each
/// decode step advances every running row by one token (bandwidth bound), so
/// a request costs prefill + beams x output x step / rows of GPU time.
double requestsPerSecond(const Scenario &s, const Estimate &e, const GpuSpec &gpu, std::uint64_t rows,
                         double prefillTokensPerSecond)
{
    if (rows == 0 || prefillTokensPerSecond <= 0)
        return 0.0;
    // Whole prompts' beams decode together.
    const double running = static_cast<double>(std::max<std::uint64_t>(1, rows / s.beams) * s.beams);
    const double step = decodeStepSeconds(s, e, gpu, running);
    if (step <= 0)
        return 0.0;
    const double output = static_cast<double>(std::min(s.workload.outputTokens, s.contextTokens()));
    const double perRequest = promptTokens(s) / prefillTokensPerSecond + static_cast<double>(s.beams) * output * step / running;
    return 1.0 / perRequest;
}

/// Share of the routed experts' weights one decode step reads: the experts
/// at least one of `rows` rows routes to, 1 - (1 - k/E)^rows if each token
/// picks its top-k uniformly and independently (an assumption: real routers
/// are skewed, which only lowers the share).
double expertsTouched(const Scenario &s, double rows)
{
    const MoeSpec &moe = s.model.moe;
    if (!moe.isMoe())
        return 1.0;
    const double picked = std::min(1.0, static_cast<double>(moe.expertsPerToken) / static_cast<double>(moe.experts));
    return 1.0 - std::pow(1.0 - picked, std::max(1.0, rows));
}

} // namespace

double promptTokens(const Scenario &s)
{
    const std::uint64_t context = s.contextTokens();
    return std::max(1.0, static_cast<double>(context - std::min(s.workload.outputTokens, context)));
}

double decodeStepSeconds(const Scenario &s, const Estimate &e, const GpuSpec &gpu, double rows)
{
    const EstimateDetails &d = e.details;
    const int pp = std::max(1, s.parallel.pp);
    const bool layerSplit = runtimeBehaviour(s.serving).splitsLayersByMemory;
    // A pipeline's stages each run up to pp micro-batches a round, reading
    // their weights for each (llama.cpp's layer split runs one batch
    // through its GPUs in turn, below).
    // While the rows fill fewer micro-batches than stages, a round is a
    // row's pass through every stage, its KV read at each.
    const double microBatches = layerSplit ? 1.0 : std::min<double>(pp, std::max(1.0, rows));
    const double stages = layerSplit ? 1.0 : pp;
    const double untouched = 1.0 - expertsTouched(s, rows / microBatches);
    const double kvShare = rows / static_cast<double>(std::max<std::uint64_t>(1, s.generatedRows()));
    const double weightBytes =
        static_cast<double>(e.term(TermId::Weights).count()) - d.unreadWeightBytes - d.expertBytesOnGpu * untouched;
    const double gpuBytes = (weightBytes + static_cast<double>(e.term(TermId::KvCache).count()) * kvShare / microBatches) * stages;
    if (gpu.bandwidthGBps <= 0 || gpuBytes <= 0)
        return 0.0;
    double seconds = gpuBytes / (gpu.bandwidthGBps * 1e9 * s.workload.decodeBandwidthShare);
    // Offloaded weights cross the host link first (accelerate copies each
    // module before it runs; vLLM's kernels read host memory over it).
    seconds += (d.hostLinkBytes - d.hostLinkExpertBytes * untouched) * stages / (s.hostLinkGBps * 1e9);
    if (layerSplit) {
        seconds *= static_cast<double>(std::max(1, s.gpus));
        const double hostBytes = d.hostWeightBytes - d.hostExpertBytes * untouched + d.hostKvBytes * kvShare;
        seconds += hostBytes / (s.hostBandwidthGBps * 1e9);
    }
    return seconds;
}

std::uint64_t servingRows(const Scenario &s, const Estimate &e, const GpuSpec &gpu)
{
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if (!runtime.continuousBatching)
        return s.generatedRows();
    const std::uint64_t pool = kvTokenBudget(s, e, gpu);
    const std::uint64_t byKv = pool / std::max<std::uint64_t>(1, s.contextTokens());
    // SGLang's context_len is the model's unless --context-length says otherwise.
    const std::uint64_t limit = runtime.kvPool == KvPool::ShareOfFreeBeforeWeights
        ? sglangMaxRunningRequests(pool, s.model.maxPositions > 0 ? s.model.maxPositions : s.contextTokens())
        : s.effectiveMaxNumSeqs();
    return std::min(limit, byKv);
}

double trainingFlopsPerToken(const Scenario &s)
{
    const double forward = modelFlopsPerToken(activeParams(s), attentionFlopsPerToken(s), FlopsWork::ForwardOnly);
    // Backward costs twice the forward; full recompute adds one forward.
    return forward * (s.checkpointing && recomputesLayers(*s.checkpointing) ? 4.0 : 3.0);
}

Precision computePrecisionFor(const Scenario &s, const GpuSpec &gpu)
{
    const WeightFormat wf = s.effectiveWeights();
    const bool fp32 = s.isTraining() ? s.regime == Regime::Fp32 : wf == WeightFormat::Fp32;
    if (fp32)
        return Precision::Fp32;
    if (!s.isTraining() && wf == WeightFormat::Fp8 && gpu.peak.fp8)
        return Precision::Fp8;
    return gpu.supportsBf16 && gpu.peak.bf16 ? Precision::Bf16 : Precision::Fp16;
}

double peakTflopsFor(const Scenario &s, const GpuSpec &gpu)
{
    const Precision precision = computePrecisionFor(s, gpu);
    // A GPU without a 16-bit tensor figure runs 16-bit at its fp32 rate.
    const double fallback = precision == Precision::Fp16 ? gpu.peak.fp32.value_or(0) : 0.0;
    return gpu.peak.at(precision).value_or(fallback);
}

Performance performance(const Scenario &s, const Estimate &e, const GpuSpec &gpu)
{
    Performance perf;
    perf.peakTflops = peakTflopsFor(s, gpu);
    const double achieved = perf.peakTflops * 1e12 * s.workload.mfu; // FLOP/s per GPU
    // NVLink/PCIe figures are quoted both directions; a ring uses one.
    perf.intraNodeGBps = std::max(1.0, gpu.interconnectGBps / 2.0);
    perf.interNodeGBps = s.workload.interNodeGBps;
    const int tp = s.parallel.tp;
    const int dp = s.dataParallel();
    const bool multiNode = s.gpus > s.parallel.gpusPerNode;

    if (!s.isTraining()) {
        // Each step decodes one token of every sequence. Tensor-parallel
        // ranks read their shares at once, so the step is one rank's read
        // of its share (the estimate's terms are per rank).
        if (const double seconds = decodeStepSeconds(s, e, gpu, static_cast<double>(s.generatedRows())); seconds > 0)
            perf.decodeTokensPerSecond = static_cast<double>(s.generatedRows()) / seconds;
        // One prompt's prefill runs on its tensor-parallel group; pipeline
        // stages take it one after another and replicas serve other prompts.
        const double prefillFlops = modelFlopsPerToken(activeParams(s), attentionFlopsPerToken(s), FlopsWork::ForwardOnly);
        if (achieved > 0)
            perf.prefillTokensPerSecond = achieved * tp / prefillFlops;
        // Serving: the first token waits for its prompt's prefill; then every
        // step adds one token to each sequence; the GPUs' hours buy the
        // batch's tokens.
        if (perf.prefillTokensPerSecond > 0)
            perf.ttftSeconds = static_cast<double>(s.contextTokens()) / perf.prefillTokensPerSecond;
        perf.decodeTokensPerSecondPerSequence = perf.decodeTokensPerSecond / static_cast<double>(std::max<std::uint64_t>(1, s.generatedRows()));
        if (perf.decodeTokensPerSecond > 0 && s.workload.pricePerGpuHour > 0)
            perf.costPerMillionTokens = s.workload.pricePerGpuHour * s.gpus / (perf.decodeTokensPerSecond * 3600.0) * 1e6;
        perf.servingRows = servingRows(s, e, gpu);
        perf.requestsPerSecond = requestsPerSecond(s, e, gpu, perf.servingRows, perf.prefillTokensPerSecond);
        // Replicas of the scenario's GPUs, each serving its share.
        if (s.workload.requestRate > 0 && perf.requestsPerSecond > 0)
            perf.gpusForRequestRate = static_cast<int>(std::min<double>(
                ScenarioLimits::maxGpus, std::ceil(s.workload.requestRate / perf.requestsPerSecond) * s.gpus));
        return perf;
    }

    perf.flopsPerToken = hardwareFlopsPerToken(s);
    perf.tokensPerStep = static_cast<double>(s.batch) * static_cast<double>(s.contextTokens())
        * static_cast<double>(s.gradAccum) * dp;
    const StepTraffic traffic = stepTraffic(s, e);
    perf.dataParallelBytes = traffic.dataParallel;
    perf.tensorParallelBytes = traffic.tensorParallel;
    perf.pipelineBytes = traffic.pipeline;
    // TP stays inside a node (Megatron-LM's placement); DP and PP cross
    // nodes when the job spans several.
    const double crossGBps = multiNode ? perf.interNodeGBps : perf.intraNodeGBps;
    perf.step = stepTime(s, e, {achieved, perf.intraNodeGBps * 1e9, crossGBps * 1e9});
    perf.stepComputeSeconds = perf.step.computing();
    perf.stepCommSeconds = perf.step.communicating();
    perf.stepSeconds = perf.step.total();
    perf.communicationBound = perf.stepCommSeconds > perf.stepComputeSeconds;

    if (s.workload.trainingTokens > 0 && perf.tokensPerStep > 0) {
        const double steps = s.workload.trainingTokens / perf.tokensPerStep;
        perf.trainingSeconds = steps * perf.stepSeconds;
        perf.gpuHours = perf.trainingSeconds / 3600.0 * s.gpus;
        perf.cost = perf.gpuHours * s.workload.pricePerGpuHour;
    }
    return perf;
}

double modelFlopsUtilizationPercent(const Scenario &s, double tokensPerSecondPerGpu, double peakTflops)
{
    Scenario noRecompute = s;
    noRecompute.checkpointing = Checkpointing::None;
    return mfuPercent(tokensPerSecondPerGpu, trainingFlopsPerToken(noRecompute), peakTflops);
}

double hardwareFlopsUtilizationPercent(const Scenario &s, double tokensPerSecondPerGpu, double peakTflops)
{
    return mfuPercent(tokensPerSecondPerGpu, trainingFlopsPerToken(s), peakTflops);
}

} // namespace core
