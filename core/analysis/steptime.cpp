#include "core/analysis/steptime.h"

#include "core/analysis/utilization.h"
#include "core/base/translatable.h"
#include "core/base/units.h"
#include "core/model/layerkinds.h"

#include <algorithm>
#include <numeric>

namespace core {

namespace {

/// PyTorch DDP's default gradient bucket, bucket_cap_mb = 25 (MiB; Li et
/// al. 2020 "PyTorch Distributed", VLDB, §3.2.3 and the DDP docs).
constexpr double kDdpBucketBytes = 25.0 * 1024 * 1024;

double modelFlops(const Scenario &s)
{
    return modelFlopsPerToken(static_cast<double>(countParameters(s.model).active), attentionFlopsPerToken(s),
                              FlopsWork::Training);
}

double microBatches(const Scenario &s)
{
    return static_cast<double>(std::max<std::uint64_t>(1, s.gradAccum));
}

/// Tokens of one step over all data-parallel replicas: b x s x m x d.
double tokensPerStep(const Scenario &s)
{
    return static_cast<double>(s.batch) * static_cast<double>(s.contextTokens()) * microBatches(s) * s.dataParallel();
}

/// Seconds one GPU spends on `flopsPerToken` for every token of the step,
/// the work spread evenly over all GPUs.
double flopSeconds(const Scenario &s, double flopsPerToken, const StepLinks &links)
{
    if (links.achievedFlops <= 0 || s.gpus <= 0)
        return 0.0;
    return flopsPerToken * tokensPerStep(s) / (links.achievedFlops * s.gpus);
}

/// A ring collective moves (n-1)/n of its buffer per GPU per phase
/// (Patarasuk & Yuan 2009); 0 on one rank.
double ringShare(int ranks)
{
    return ranks > 1 ? static_cast<double>(ranks - 1) / ranks : 0.0;
}

/// One micro-batch's activation b x s x h at the activation element size.
double activationBytes(const Scenario &s, const Estimate &e)
{
    return static_cast<double>(s.batch) * static_cast<double>(s.contextTokens()) * static_cast<double>(s.model.hidden)
        * e.details.activationElementBytes;
}

/// One replica's share of the gradients (or of the 16-bit parameters): the
/// trainable parameters over tp x pp at the regime's element size.
double rankGradientBytes(const Scenario &s, const Estimate &e)
{
    return static_cast<double>(e.details.trainableParams) / (s.parallel.tp * s.parallel.pp) * e.details.regime.weights;
}

/// ZeRO-3 all-gathers the parameters before each forward and each backward
/// (Rajbhandari et al. 2020 §7.2.2) and frees them after use, so every
/// micro-batch gathers again (as FSDP with reshard_after_forward): 2m.
double zero3Gathers(const Scenario &s)
{
    return s.zeroStage >= 3 ? 2.0 * microBatches(s) : 0.0;
}

/// Gradient reduction volumes in units of the replica's gradients, once
/// per step (accumulation defers it to the last micro-batch, Li et al.
/// 2020 §3.2.4): plain DP all-reduces, 2 x (reduce-scatter + all-gather);
/// ZeRO-1/2/3 reduce-scatter, 1 x (Rajbhandari et al. 2020 §7.1).
double gradientReductionVolumes(const Scenario &s)
{
    return s.zeroStage >= 1 ? 1.0 : 2.0;
}

/// ZeRO-1/2 all-gather the updated parameters after the optimizer step,
/// 1 x (Rajbhandari et al. 2020 §7.1: 2Ψ in all with the reduce-scatter).
double postStepGathers(const Scenario &s)
{
    return s.zeroStage == 1 || s.zeroStage == 2 ? 1.0 : 0.0;
}

/// Tensor-parallel collectives per layer per micro-batch: two all-reduces
/// in forward and two in backward (Shoeybi et al. 2019 §3); with sequence
/// parallelism an all-gather and a reduce-scatter replace each, the same
/// volume (Korthikanti et al. 2022 §4.2.2). A fully recomputed forward runs
/// its two again.
double tensorParallelCollectivesPerLayer(const Scenario &s)
{
    return recomputesLayers(s.effectiveCheckpointing()) ? 6.0 : 4.0;
}

/// Seconds of the reduction that backward does not hide. DDP starts a
/// bucket's all-reduce as soon as its gradients are ready, so backward
/// hides all but the last bucket (Li et al. 2020 §3.2.3) as long as the
/// links keep up; what the last micro-batch's backward (4N of 6N, plus
/// any recompute, which runs inside backward) cannot cover shows too.
double exposedReductionSeconds(double reductionSeconds, double lastBucketSeconds, double backwardSeconds)
{
    return std::max(lastBucketSeconds, reductionSeconds - backwardSeconds);
}

double dataParallelExposedSeconds(const Scenario &s, const Estimate &e, const StepTime &t, const StepLinks &links)
{
    const int dp = s.dataParallel();
    if (dp <= 1 || links.crossBytesPerSecond <= 0)
        return 0.0;
    const double grads = rankGradientBytes(s, e);
    const double perByte = gradientReductionVolumes(s) * ringShare(dp) / links.crossBytesPerSecond;
    const double backward = (t[StepPart::Compute] * 2.0 / 3.0 + t[StepPart::Recompute]) / microBatches(s);
    const double reduction = exposedReductionSeconds(grads * perByte, std::min(grads, kDdpBucketBytes) * perByte, backward);
    // The post-step all-gather has no compute left to hide behind.
    return reduction + postStepGathers(s) * grads * ringShare(dp) / links.crossBytesPerSecond;
}

/// ZeRO-3 prefetches the next layers' parameters while the current ones
/// compute (DeepSpeed stage3_prefetch_bucket_size, FSDP forward/backward
/// prefetch), so a pass shows only its first layer's gather, unless the
/// gathers outlast the compute.
double zero3ExposedSeconds(const Scenario &s, const Estimate &e, const StepTime &t, const StepLinks &links)
{
    const int dp = s.dataParallel();
    if (zero3Gathers(s) == 0 || dp <= 1 || links.crossBytesPerSecond <= 0)
        return 0.0;
    const double gathers = zero3Gathers(s) * rankGradientBytes(s, e) * ringShare(dp) / links.crossBytesPerSecond;
    const double layers = static_cast<double>(std::max<std::uint64_t>(1, e.details.layersOnGpu));
    return std::max(gathers / layers, gathers - t.computing());
}

/// Idle share of a pipeline of p stages over m micro-batches: (p-1)/m of
/// the ideal time for 1F1B (Narayanan et al. 2021 §2.2.1), (p-1)/(v m) with
/// v interleaved model chunks per GPU (§2.2.2). The ideal time is a stage's
/// forward and backward of every micro-batch, its TP collectives included.
double bubbleFraction(const Scenario &s)
{
    const int pp = s.parallel.pp;
    if (pp <= 1)
        return 0.0;
    const double v = static_cast<double>(std::max(1, s.parallel.interleave));
    return static_cast<double>(pp - 1) / (v * microBatches(s));
}

} // namespace

double attentionFlopsPerToken(const Scenario &s)
{
    const ModelSpec &m = s.model;
    const double sequence = static_cast<double>(s.contextTokens());
    const auto kindFlops = [sequence](const LayerKind &k) {
        if (k.mixer != MixerKind::FullAttention && k.mixer != MixerKind::SlidingWindow)
            return 0.0;
        double span = k.mixer == MixerKind::FullAttention ? sequence : std::min(sequence, static_cast<double>(k.window));
        if (k.compressRatio > 0)
            span += sequence / static_cast<double>(k.compressRatio);
        return attentionTrainingFlopsPerToken(static_cast<double>(k.layers),
                                              static_cast<double>(k.attention.queryHeads * k.attention.headDim), span);
    };
    double flops = 0.0;
    if (!m.compressRatios.empty()) {
        for (const LayerKind &k : describeLayers(m))
            flops += kindFlops(k);
        return flops;
    }
    return kindFlops(attentionKind(m, MixerKind::FullAttention)) + kindFlops(attentionKind(m, MixerKind::SlidingWindow));
}

const std::array<StepPart, kStepPartCount> &allStepParts()
{
    static const std::array<StepPart, kStepPartCount> parts{
        StepPart::Compute,        StepPart::Recompute,           StepPart::PipelineBubble, StepPart::TensorParallel,
        StepPart::DataParallelExposed, StepPart::Zero3Gathers, StepPart::PipelineP2p};
    return parts;
}

const char *stepPartId(StepPart part)
{
    switch (part) {
    case StepPart::Compute: return "compute";
    case StepPart::Recompute: return "recompute";
    case StepPart::PipelineBubble: return "pipeline_bubble";
    case StepPart::TensorParallel: return "tensor_parallel";
    case StepPart::DataParallelExposed: return "data_parallel_exposed";
    case StepPart::Zero3Gathers: return "zero3_gathers";
    case StepPart::PipelineP2p: return "pipeline_p2p";
    }
    return "";
}

double StepTime::total() const
{
    return std::accumulate(seconds.begin(), seconds.end(), 0.0);
}

double StepTime::computing() const
{
    return (*this)[StepPart::Compute] + (*this)[StepPart::Recompute];
}

double StepTime::communicating() const
{
    return (*this)[StepPart::TensorParallel] + (*this)[StepPart::DataParallelExposed] + (*this)[StepPart::Zero3Gathers]
        + (*this)[StepPart::PipelineP2p];
}

const char *stepPartLabel(StepPart part)
{
    switch (part) {
    case StepPart::Compute: return QT_TRANSLATE_NOOP("StepPart", "compute");
    case StepPart::Recompute: return QT_TRANSLATE_NOOP("StepPart", "recompute");
    case StepPart::PipelineBubble: return QT_TRANSLATE_NOOP("StepPart", "pipeline bubble");
    case StepPart::TensorParallel: return QT_TRANSLATE_NOOP("StepPart", "tensor parallel");
    case StepPart::DataParallelExposed: return QT_TRANSLATE_NOOP("StepPart", "data parallel, not overlapped");
    case StepPart::Zero3Gathers: return QT_TRANSLATE_NOOP("StepPart", "ZeRO-3 gathers");
    case StepPart::PipelineP2p: return QT_TRANSLATE_NOOP("StepPart", "pipeline transfers");
    }
    return "";
}

std::string describeStepParts(const StepTime &step, int decimals, Translator translator)
{
    std::string text;
    for (StepPart part : allStepParts())
        text += (text.empty() ? "" : ", ") + translate(translator, "StepPart", stepPartLabel(part)) + " "
            + formatFixed(step[part], decimals) + " s";
    return text;
}

double recomputeFlopsPerToken(const Scenario &s)
{
    switch (s.effectiveCheckpointing()) {
    case Checkpointing::Full:
    case Checkpointing::Offloaded: return modelFlops(s) / 3.0;
    case Checkpointing::Selective: return attentionFlopsPerToken(s);
    case Checkpointing::None: break;
    }
    return 0.0;
}

double hardwareFlopsPerToken(const Scenario &s)
{
    return modelFlops(s) + recomputeFlopsPerToken(s);
}

StepTraffic stepTraffic(const Scenario &s, const Estimate &e)
{
    StepTraffic traffic;
    const int tp = s.parallel.tp;
    const double grads = rankGradientBytes(s, e);
    traffic.dataParallel = (gradientReductionVolumes(s) + postStepGathers(s) + zero3Gathers(s)) * grads * ringShare(s.dataParallel());
    // A ring all-reduce moves 2(t-1)/t of the buffer per GPU.
    const double act = activationBytes(s, e);
    if (tp > 1)
        traffic.tensorParallel = tensorParallelCollectivesPerLayer(s) * act * 2.0 * ringShare(tp)
            * static_cast<double>(e.details.layersOnGpu) * microBatches(s);
    // Each micro-batch's activations forward and gradients back, once per
    // model chunk (v x with interleaving, Narayanan et al. 2021 §2.2.2);
    // each TP rank sends 1/t of it (scatter/gather, §4.1).
    if (s.parallel.pp > 1)
        traffic.pipeline = 2.0 * act / tp * microBatches(s) * std::max(1, s.parallel.interleave);
    return traffic;
}

StepTime stepTime(const Scenario &s, const Estimate &e, const StepLinks &links)
{
    StepTime t;
    t[StepPart::Compute] = flopSeconds(s, modelFlops(s), links);
    t[StepPart::Recompute] = flopSeconds(s, recomputeFlopsPerToken(s), links);
    const StepTraffic traffic = stepTraffic(s, e);
    // Megatron-LM's TP collectives block the next matmul; pipeline sends
    // and receives block the stage (no overlap assumed for either).
    if (links.intraNodeBytesPerSecond > 0)
        t[StepPart::TensorParallel] = traffic.tensorParallel / links.intraNodeBytesPerSecond;
    if (links.crossBytesPerSecond > 0)
        t[StepPart::PipelineP2p] = traffic.pipeline / links.crossBytesPerSecond;
    t[StepPart::PipelineBubble] = bubbleFraction(s) * (t.computing() + t[StepPart::TensorParallel]);
    t[StepPart::DataParallelExposed] = dataParallelExposedSeconds(s, e, t, links);
    t[StepPart::Zero3Gathers] = zero3ExposedSeconds(s, e, t, links);
    return t;
}

} // namespace core
