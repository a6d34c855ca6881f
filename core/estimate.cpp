#include "core/estimate.h"

#include "core/activations.h"
#include "core/inference.h"
#include "core/logits.h"
#include "core/overheads.h"
#include "core/trainingrun.h"
#include "core/translatable.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

struct TermName
{
    TermId id;
    const char *key;
    const char *label;
};

const TermName kTermNames[] = {
    {TermId::Weights, "weights", QT_TRANSLATE_NOOP("Terms", "Weights")},
    {TermId::Lora, "lora", QT_TRANSLATE_NOOP("Terms", "LoRA adapters")},
    {TermId::MasterWeights, "master_weights", QT_TRANSLATE_NOOP("Terms", "Master weights")},
    {TermId::Gradients, "gradients", QT_TRANSLATE_NOOP("Terms", "Gradients")},
    {TermId::Optimizer, "optimizer", QT_TRANSLATE_NOOP("Terms", "Optimizer states")},
    {TermId::Activations, "activations", QT_TRANSLATE_NOOP("Terms", "Activations")},
    {TermId::Logits, "logits", QT_TRANSLATE_NOOP("Terms", "Logits and loss")},
    {TermId::KvCache, "kv_cache", QT_TRANSLATE_NOOP("Terms", "KV cache")},
    {TermId::Workspace, "workspace", QT_TRANSLATE_NOOP("Terms", "Workspace")},
    {TermId::GatherBuffer, "gather_buffer", QT_TRANSLATE_NOOP("Terms", "ZeRO-3 gather buffer")},
    {TermId::CommBuffers, "comm_buffers", QT_TRANSLATE_NOOP("Terms", "NCCL buffers")},
    {TermId::CudaOverhead, "cuda_overhead", QT_TRANSLATE_NOOP("Terms", "CUDA context")},
    {TermId::AllocatorReserve, "allocator_reserve", QT_TRANSLATE_NOOP("Terms", "Allocator reserve")},
};

constexpr std::size_t idx(TermId id) { return static_cast<std::size_t>(id); }

Bytes sumTerms(const TermBytes &terms)
{
    Bytes total;
    for (Bytes b : terms)
        total += b;
    return total;
}

/// Splits the model's weight bytes into quantised and unquantised parts;
/// `run` says how a training stack stores the frozen base.
void weightStorage(const Scenario &s, const ParameterCounts &pc, const TrainingRun &run, EstimateDetails &d)
{
    const WeightFormat wf = s.effectiveWeights();
    d.weightBits = formatBits(wf, s.groupSize, static_cast<double>(s.model.hidden));
    if (s.mode == Mode::Train) {
        // Full training keeps the regime's working copy of every parameter.
        d.quantizedParams = static_cast<double>(pc.total);
        d.unquantizedParams = 0;
        d.weightBits = FormatBits{d.regime.weights * 8.0, 0, ""};
    } else if (formatInfo(wf).keepsEmbeddingsUnquantized && !s.quantizeEmbeddings) {
        // Quantisation libraries replace nn.Linear layers only; embeddings,
        // lm_head, norms and biases stay in the 16-bit compute dtype (fp32
        // after PEFT's kbit upcast; LitGPT's Fabric plugin quantises the
        // lm_head too). gpt-oss ships only its experts in MXFP4 (config
        // quantization_config, modules_to_not_convert).
        const bool expertsOnly = wf == WeightFormat::Mxfp4 && s.model.moe.isMoe();
        d.quantizedParams = static_cast<double>(expertsOnly ? pc.experts : pc.linear)
            + (run.lmHeadQuantized ? static_cast<double>(pc.lmHead) : 0.0);
        d.unquantizedParams = static_cast<double>(pc.total) - d.quantizedParams;
    } else {
        d.quantizedParams = static_cast<double>(pc.total);
        d.unquantizedParams = 0;
    }
    d.unquantizedBytes = run.unquantizedBytes;
    d.weightBytesTotal = d.quantizedParams * d.weightBits.total() / 8.0 + d.unquantizedParams * d.unquantizedBytes;
}

/// LoRA A (r x in) and B (out x r) for every targeted projection.
std::vector<TensorGroup> loraTensors(const Scenario &s, const std::vector<TensorGroup> &tensors)
{
    std::vector<TensorGroup> adapters;
    const auto r = static_cast<std::uint64_t>(s.lora.rank);
    for (const TensorGroup &g : tensors) {
        if (g.slot == LinearSlot::None
            || std::find(s.lora.targets.begin(), s.lora.targets.end(), g.slot) == s.lora.targets.end())
            continue;
        TensorGroup a = g;
        a.name = g.name + ".lora_A";
        a.rows = r;
        TensorGroup b = g;
        b.name = g.name + ".lora_B";
        b.cols = r;
        adapters.push_back(a);
        adapters.push_back(b);
    }
    return adapters;
}

void addOverheads(const Scenario &s, EstimateDetails &d, TermBytes &terms)
{
    d.cudaOverheadMib = cudaOverheadMib(s);
    terms[idx(TermId::CudaOverhead)] = Bytes::mib(d.cudaOverheadMib);
    terms[idx(TermId::CommBuffers)] = Bytes::mib(ncclBufferMib(s.gpus));
    Bytes tensors;
    for (TermId id : {TermId::Weights, TermId::Lora, TermId::MasterWeights, TermId::Gradients, TermId::Optimizer,
                      TermId::Activations, TermId::Logits, TermId::KvCache, TermId::Workspace, TermId::GatherBuffer})
        tensors += terms[idx(id)];
    // The caching allocator rounds blocks and keeps freed ones: reserved
    // exceeds allocated (PyTorch CUDA memory docs; ZeRO paper §III-B on
    // fragmentation). A planning margin, editable.
    terms[idx(TermId::AllocatorReserve)] = tensors.scaled(s.reservePercent / 100.0);
}

PhaseTotal makePhase(Phase phase, const Scenario &s, EstimateDetails &d, TermBytes terms)
{
    addOverheads(s, d, terms);
    return PhaseTotal{phase, terms, sumTerms(terms)};
}

/// Which pipeline stage an estimate describes. The first stage keeps the
/// activations of `pp` micro-batches in flight (1F1B) and the embedding;
/// the last stage keeps the lm_head and the logits (Narayanan et al. 2021,
/// §2.2; Korthikanti et al. 2022 §4.2.3).
enum class Stage { Only, First, Last };

/// This rank's share of the model under tensor, pipeline and expert
/// parallelism (Shoeybi et al. 2019 §3; Narayanan et al. 2021 §2).
struct RankShare
{
    double paramFraction = 1;   ///< of all parameters
    double layerFraction = 1;   ///< of the decoder layers (adapters live there)
    std::uint64_t layers = 0;   ///< decoder layers on this stage
    double inFlight = 1;        ///< micro-batches whose activations are alive
    bool first = true;
    bool last = true;
    int tp = 1;
    int dp = 1;
};

/// Inference without explicit tp/pp splits layers over `gpus` the way
/// device_map="auto" does: a pipeline without micro-batches.
int pipelineStages(const Scenario &s)
{
    if (!s.isTraining() && s.parallel.tp * s.parallel.pp == 1)
        return s.gpus;
    return s.parallel.pp;
}

RankShare rankShare(const Scenario &s, const ParameterCounts &pc, Stage stage)
{
    RankShare r;
    const ModelSpec &m = s.model;
    const auto pp = static_cast<std::uint64_t>(pipelineStages(s));
    r.tp = s.parallel.tp;
    r.dp = s.isTraining() ? s.shardDegree() : 1;
    r.first = stage != Stage::Last;
    r.last = stage != Stage::First;
    r.layers = (m.layers + pp - 1) / pp;
    r.layerFraction = static_cast<double>(r.layers) / static_cast<double>(std::max<std::uint64_t>(1, m.layers));
    if (stage == Stage::First && s.isTraining()) {
        // 1F1B warm-up: the first stage holds p micro-batches; interleaving
        // adds (p-1)/(p*v) (Korthikanti et al. 2022 §4.2.3).
        const double p = static_cast<double>(pp);
        const double v = static_cast<double>(s.parallel.interleave);
        r.inFlight = p * (v > 1 ? 1.0 + (p - 1.0) / (p * v) : 1.0);
    }
    const double ends = static_cast<double>(pc.embedding + pc.lmHead);
    const double experts = static_cast<double>(pc.experts);
    const double layerParams = std::max(0.0, static_cast<double>(pc.total) - ends - experts);
    double endsHere = ends;
    if (pp > 1)
        endsHere = stage == Stage::First ? static_cast<double>(pc.embedding) : static_cast<double>(pc.lmHead);
    const double here = (layerParams + experts / s.parallel.ep) * r.layerFraction + endsHere;
    r.paramFraction = here / std::max(1.0, static_cast<double>(pc.total)) / static_cast<double>(r.tp);
    return r;
}

/// The largest weight matrix a dequantisation materialises at once on this
/// rank: a layer's biggest projection, or the lm_head where it is quantised.
double largestQuantizedMatrix(const std::vector<TensorGroup> &tensors, bool lmHeadQuantized, int tp)
{
    double largest = 0;
    for (const TensorGroup &g : tensors) {
        const bool layerLinear = g.role == TensorRole::AttentionLinear || g.role == TensorRole::MlpLinear
            || g.role == TensorRole::ExpertLinear;
        if (layerLinear || (lmHeadQuantized && g.role == TensorRole::LmHead))
            largest = std::max(largest, static_cast<double>(g.rows) * static_cast<double>(g.cols));
    }
    return largest / tp;
}

/// A training phase at two moments: at the head (the logits or their
/// gradients alive) and inside the last layer (its transients instead).
struct HeadAndLayer
{
    TermBytes head;
    TermBytes layer;
};

HeadAndLayer headAndLastLayer(TermBytes terms, Bytes gradients, Bytes activations, Bytes logits, Bytes headWorkspace,
                              Bytes layerWorkspace)
{
    terms[idx(TermId::Gradients)] = gradients;
    terms[idx(TermId::Activations)] = activations;
    HeadAndLayer moments{terms, terms};
    moments.head[idx(TermId::Logits)] = logits;
    moments.head[idx(TermId::Workspace)] = headWorkspace;
    moments.layer[idx(TermId::Workspace)] = layerWorkspace;
    return moments;
}

/// The largest of a phase's moments, overheads included.
PhaseTotal largerMoment(Phase phase, const Scenario &s, EstimateDetails &d,
                        std::initializer_list<std::pair<const char *, TermBytes>> moments)
{
    PhaseTotal best{phase, {}, Bytes(), ""};
    for (const auto &[moment, terms] : moments) {
        PhaseTotal candidate = makePhase(phase, s, d, terms);
        candidate.moment = moment;
        if (best.moment[0] == '\0' || best.total < candidate.total)
            best = candidate;
    }
    return best;
}

void estimateTraining(const Scenario &s, const std::vector<TensorGroup> &tensors, const TrainingRun &run, Stage stageRole,
                      Estimate &est)
{
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const bool lora = run.adapters;
    const RankShare share = rankShare(s, d.params, stageRole);
    const int dp = share.dp;
    const Offload offload = s.parallel.offload;
    // Offloading parameters (ZeRO-Infinity) shards them like stage 3.
    const int stage = dp > 1 || offload == Offload::OptimizerAndParams
        ? (offload == Offload::OptimizerAndParams ? 3 : s.zeroStage)
        : 0;
    d.shardDegree = dp;
    d.layersOnGpu = share.layers;
    d.kbitUpcast = run.kbitUpcast;
    auto shard = [dp](double bytes, bool divided) { return Bytes::fromDouble(divided ? bytes / dp : bytes); };

    std::vector<TensorGroup> trainable = lora ? loraTensors(s, tensors) : tensors;
    double trainableParams = 0;
    for (const TensorGroup &g : trainable)
        trainableParams += static_cast<double>(g.elements());
    d.trainableParams = static_cast<std::uint64_t>(trainableParams);
    d.loraParams = lora ? d.trainableParams : 0;
    // Adapters live in the layers; full training follows the parameters.
    const double rankFraction = lora ? share.layerFraction / share.tp : share.paramFraction;
    const double rankTrainable = trainableParams * rankFraction;
    d.optimizerBytesTotal = optimizerStateBytes(s.optimizer, d.regime, trainable);

    TermBytes persistent{};
    const bool paramsOffloaded = offload == Offload::OptimizerAndParams;
    const bool statesOffloaded = offload != Offload::None;
    persistent[idx(TermId::Weights)] = paramsOffloaded ? Bytes() : shard(d.weightBytesTotal * share.paramFraction, stage >= 3);
    if (lora)
        persistent[idx(TermId::Lora)] = shard(rankTrainable * d.regime.weights, stage >= 3);
    // ZeRO-Offload keeps the fp32 master weights and optimizer states in
    // host memory and runs the step on the CPU (Ren et al. 2021 §4).
    if (!statesOffloaded) {
        persistent[idx(TermId::MasterWeights)] = shard(rankTrainable * d.regime.masterWeights, stage >= 1);
        persistent[idx(TermId::Optimizer)] = shard(d.optimizerBytesTotal * rankFraction, stage >= 1);
    }
    d.hostBytesPerGpu = statesOffloaded
        ? (rankTrainable * (d.regime.masterWeights + 4.0) + d.optimizerBytesTotal * rankFraction) / dp
            + (paramsOffloaded ? d.weightBytesTotal * share.paramFraction / dp : 0.0)
        : 0.0;
    if (stage >= 3) {
        // DeepSpeed estimate_zero3_model_states_mem_needs: 4 x largest layer
        // parameters (16-bit parameters and gradients of the gathered layer).
        // A frozen base gathers its stored (quantised) bytes and has no
        // gradients: FSDP all-gathers the flat storage of the current and
        // the prefetched unit (bitsandbytes quant_storage makes 4-bit
        // weights shardable; bitsandbytes docs, fsdp_qlora.md).
        d.gatherBytesPerParam = lora ? d.weightBits.total() / 8.0 : d.regime.weights;
        persistent[idx(TermId::GatherBuffer)] = Bytes::fromDouble(
            static_cast<double>(d.params.largestLayer) * 2.0 * d.gatherBytesPerParam / share.tp);
    }

    Bytes gradients = shard(rankTrainable * d.regime.gradients, stage >= 2);
    if (statesOffloaded) {
        // Gradients stream to the host through a reduce bucket: DeepSpeed's
        // reduce_bucket_size default of 5e8 elements (DeepSpeed config docs).
        gradients = std::min(gradients, Bytes::fromDouble(5e8 * d.regime.weights));
    }
    // At the start of backward the first gradients (lm_head, last layer) exist.
    const double firstGradParams =
        lora ? rankTrainable / std::max<double>(1.0, static_cast<double>(share.layers))
             : static_cast<double>(std::max(share.last ? d.params.lmHead : 0, d.params.largestLayer)) / share.tp;
    const Bytes firstGradients = std::min(gradients, shard(firstGradParams * d.regime.gradients, stage >= 2));
    const Bytes accumulated = s.gradAccum > 1 ? gradients : Bytes();

    const ActivationBreakdown act = trainingActivations(m, s, run.trainability, run.dtypes);
    const double e = run.dtypes.compute;
    d.activationElementBytes = e;
    d.residualBytes = run.dtypes.residual;
    d.activationPerTokenPerLayer = act.perTokenPerLayer;
    d.activationScoresPerLayer = act.scoresPerLayer;
    d.activationBytesPerLayer = act.perLayer;
    d.activationOutsideLayers = act.outsideLayers;
    d.recomputeLayerBytes = act.recomputePeak;
    d.layerGradientBytes = act.layerGradientPeak;
    d.microBatchesInFlight = share.inFlight;

    const LogitsMode logits = s.effectiveLogits();
    d.logitsTokens = m.encoderOnly || !share.last ? 0 : s.batch * s.sequence;
    // Vocabulary-parallel output layer: each tensor-parallel rank holds V/t.
    const double logitElements =
        static_cast<double>(d.logitsTokens) * static_cast<double>(m.vocab) / static_cast<double>(share.tp);
    const bool kept = run.stack.keepsLogitsInBackward;
    const Bytes logitsForward =
        Bytes::fromDouble(logitElements * logitsBytesPerElement(logits, run.logitsBytes, false, kept));
    const Bytes logitsBackward =
        Bytes::fromDouble(logitElements * logitsBytesPerElement(logits, run.logitsBytes, true, kept));
    d.logitsElementBytes = logitsBytesPerElement(logits, run.logitsBytes, true, kept);
    d.lossSavedElementBytes = lossSavedBytesPerElement(logits, run.logitsBytes);

    const double saved = (static_cast<double>(share.layers) * act.keptPerLayer + (share.first ? act.outsideFirst : 0.0))
            * share.inFlight
        + (share.last ? act.outsideLast : 0.0);
    const Bytes activations = Bytes::fromDouble(saved);

    // torch.autocast caches the 16-bit cast of each fp32 leaf that requires
    // grad (ATen autocast_mode.cpp cached_cast); a frozen fp32 weight is cast
    // again by every op, and the matmul saves that cast for backward when its
    // input requires grad (derivatives.yaml mm: mat2 saved for self's
    // gradient). Quantised weights are never autocast.
    double autocastBytes = 0;
    if (run.autocast) {
        autocastBytes = lora ? rankTrainable * (run.trainable.weights >= 4.0 ? 2.0 : 0.0)
                             : static_cast<double>(d.params.total) * share.paramFraction * d.regime.autocastCopies;
        if (lora && run.unquantizedBytes >= 4.0) {
            const bool linearsFp32 = isFloatFormat(s.effectiveWeights());
            const double frozenFp32 = (linearsFp32 ? static_cast<double>(d.params.linear) * share.layerFraction : 0.0)
                + (share.last && !m.encoderOnly ? static_cast<double>(m.vocab * m.hidden) : 0.0);
            autocastBytes += 2.0 * frozenFp32 / share.tp;
        }
    }
    d.autocastBytes = autocastBytes;
    d.dequantBytes = run.dequantBytesPerElement * largestQuantizedMatrix(tensors, false, share.tp);
    d.headDequantBytes = run.lmHeadQuantized && share.last
        ? run.dequantBytesPerElement * largestQuantizedMatrix(tensors, true, share.tp)
        : 0.0;
    const double headDequant = d.headDequantBytes;
    const Bytes autocast = Bytes::fromDouble(autocastBytes);
    const Bytes dequant = Bytes::fromDouble(d.dequantBytes);

    // Forward: the end (every activation, the logits and the loss) or the
    // inside of the last layer (a dequantised weight of the frozen base).
    const Bytes headWorkspace = autocast + Bytes::fromDouble(headDequant);
    const HeadAndLayer forward = headAndLastLayer(persistent, accumulated, activations, logitsForward, headWorkspace,
                                                  autocast + dequant);
    est.phases.push_back(largerMoment(Phase::Forward, s, d,
                                      {{"end of forward", forward.head}, {"inside the last layer", forward.layer}}));

    // Backward: activations are freed layer by layer while gradients appear,
    // so the peak is the loss's backward (all activations, the logits'
    // gradients), the last layer's backward (its recomputed activations and
    // its gradients, a dequantised weight; the logits are gone), or the end
    // (all gradients, nothing saved any more).
    const Bytes startGrads = std::max(accumulated, firstGradients);
    const HeadAndLayer backward =
        headAndLastLayer(persistent, startGrads, activations, logitsBackward, headWorkspace,
                         autocast + dequant + Bytes::fromDouble(act.recomputePeak + act.layerGradientPeak));
    TermBytes backwardEnd = persistent;
    backwardEnd[idx(TermId::Gradients)] = gradients;
    est.phases.push_back(largerMoment(
        Phase::Backward, s, d,
        {{"loss backward", backward.head}, {"last layer's backward", backward.layer}, {"end of backward", backwardEnd}}));

    TermBytes step = persistent;
    step[idx(TermId::Gradients)] = gradients;
    if (!statesOffloaded)
        step[idx(TermId::Workspace)] = shard(
            rankTrainable
                * optimizerStepTemporaryBytesPerParam(s.optimizer, s.effectiveOptimizerImpl(), d.regime.optimizerStateBytes),
            stage >= 1);
    d.optimizerStepBytes = static_cast<double>(step[idx(TermId::Workspace)].count());
    est.phases.push_back(largerMoment(Phase::OptimizerStep, s, d, {{"optimizer step", step}}));
}

void estimateInference(const Scenario &s, Stage stageRole, Estimate &est)
{
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const WeightFormat wf = s.effectiveWeights();
    const double e = isFloatFormat(wf) ? elementBytes(wf) : 2.0;
    d.activationElementBytes = e;
    const RankShare share = rankShare(s, d.params, stageRole);
    d.layersOnGpu = share.layers;

    TermBytes terms{};
    terms[idx(TermId::Weights)] = Bytes::fromDouble(d.weightBytesTotal * share.paramFraction);
    d.kvElementBytes = s.kvDtype ? elementBytes(*s.kvDtype) : e;
    if (!m.encoderOnly) {
        // Tensor parallelism splits the key-value heads; with fewer heads
        // than ranks each rank keeps a copy of one (vLLM, Megatron-LM).
        const double kvHeadsHere = std::max(1.0, std::ceil(static_cast<double>(m.kvHeads) / share.tp));
        d.kvCachedTokens = cachedLayerTokens(m, share.layers, s.sequence);
        d.kvBytesPerToken = 2.0 * static_cast<double>(share.layers) * kvHeadsHere * static_cast<double>(m.headDim)
            * d.kvElementBytes;
        // 2 (K and V) x kv_heads x head_dim x bytes, per cached layer-token.
        const double perLayerToken = 2.0 * kvHeadsHere * static_cast<double>(m.headDim) * d.kvElementBytes;
        terms[idx(TermId::KvCache)] = Bytes::fromDouble(
            perLayerToken * static_cast<double>(d.kvCachedTokens) * static_cast<double>(s.batch));
    }
    // The forward's intermediates are freed before the logits are taken,
    // so the peak is one moment or the other.
    TermBytes forward = terms;
    TermBytes head = terms;
    const bool hasHead = !m.encoderOnly && share.last;
    if (s.serving == ServingEngine::Vllm) {
        const VllmProfile profile = vllmProfile(m, s, e);
        d.workspaceBytes = profile.forwardBytes;
        d.samplerRows = hasHead ? profile.samplerRows : 0;
        forward[idx(TermId::Workspace)] = Bytes::fromDouble(d.workspaceBytes);
        head[idx(TermId::Logits)] = Bytes::fromDouble(hasHead ? profile.samplerBytes : 0.0);
        est.phases.push_back(largerMoment(Phase::Inference, s, d,
                                          {{"profile forward", forward}, {"sampler warm-up", head}}));
        return;
    }
    d.workspaceBytes = prefillWorkspaceBytes(m, s, e) / share.tp;
    forward[idx(TermId::Workspace)] = Bytes::fromDouble(d.workspaceBytes);
    const LogitsMode logits = s.effectiveLogits();
    d.logitsTokens = !hasHead ? 0 : (logits == LogitsMode::LastToken ? s.batch : s.batch * s.sequence);
    d.logitsElementBytes = logitsBytesPerElement(logits, e, false, false);
    head[idx(TermId::Logits)] = Bytes::fromDouble(static_cast<double>(d.logitsTokens) * static_cast<double>(m.vocab)
                                                  * d.logitsElementBytes / share.tp);
    est.phases.push_back(largerMoment(Phase::Inference, s, d, {{"prefill", forward}, {"logits", head}}));
}

/// One stage's estimate; the caller keeps the most loaded stage.
Estimate estimateStage(const Scenario &s, const std::vector<TensorGroup> &tensors, const ParameterCounts &params,
                       Stage stage)
{
    Estimate est;
    EstimateDetails &d = est.details;
    d.params = params;
    if (s.isTraining()) {
        const TrainingRun run = trainingRun(s);
        d.regime = run.trainable;
        weightStorage(s, d.params, run, d);
        estimateTraining(s, tensors, run, stage, est);
    } else {
        d.regime = regimeBytes(s.regime);
        weightStorage(s, d.params, TrainingRun{}, d);
        estimateInference(s, stage, est);
    }
    const auto peak = std::max_element(est.phases.begin(), est.phases.end(),
                                       [](const PhaseTotal &a, const PhaseTotal &b) { return a.total < b.total; });
    est.terms = peak->terms;
    est.total = peak->total;
    est.peakPhase = peak->phase;
    est.details.stage = stage == Stage::Only ? "only" : (stage == Stage::First ? "first" : "last");
    return est;
}

} // namespace

const char *termId(TermId id) { return kTermNames[idx(id)].key; }
const char *termLabel(TermId id) { return kTermNames[idx(id)].label; }

std::optional<TermId> parseTermId(const std::string &id)
{
    for (TermId t : allTerms())
        if (id == termId(t))
            return t;
    return std::nullopt;
}

const std::array<TermId, kTermCount> &allTerms()
{
    static const std::array<TermId, kTermCount> terms = [] {
        std::array<TermId, kTermCount> all{};
        for (std::size_t i = 0; i < kTermCount; ++i)
            all[i] = static_cast<TermId>(i);
        return all;
    }();
    return terms;
}

const char *phaseId(Phase phase)
{
    switch (phase) {
    case Phase::Forward:
        return "forward";
    case Phase::Backward:
        return "backward";
    case Phase::OptimizerStep:
        return "optimizer_step";
    case Phase::Inference:
        return "inference";
    }
    return "inference";
}

double kvCacheBytesPerToken(const ModelSpec &m, double elementBytes)
{
    // Pope et al. 2022 §3.1: K and V per layer, kv_heads x head_dim each.
    return 2.0 * static_cast<double>(m.layers) * static_cast<double>(m.kvWidth()) * elementBytes;
}

std::vector<Estimate> estimateStages(const Scenario &s)
{
    if (!validateScenario(s).empty())
        return {estimate(s)};
    const std::vector<TensorGroup> tensors = enumerateTensors(s.model);
    const ParameterCounts params = countParameters(s.model, tensors);
    if (pipelineStages(s) > 1)
        return {estimateStage(s, tensors, params, Stage::First), estimateStage(s, tensors, params, Stage::Last)};
    return {estimateStage(s, tensors, params, Stage::Only)};
}

Estimate estimate(const Scenario &s)
{
    Estimate est;
    est.errors = validateScenario(s);
    if (!est.errors.empty())
        return est;
    const std::vector<TensorGroup> tensors = enumerateTensors(s.model);
    const ParameterCounts params = countParameters(s.model, tensors);
    if (pipelineStages(s) > 1) {
        // The most loaded rank: the first stage (activations in flight,
        // embedding) or the last (lm_head, logits).
        Estimate first = estimateStage(s, tensors, params, Stage::First);
        Estimate last = estimateStage(s, tensors, params, Stage::Last);
        est = first.total >= last.total ? std::move(first) : std::move(last);
    } else {
        est = estimateStage(s, tensors, params, Stage::Only);
    }

    if (s.model.declaredParameters > 0)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "model: only the parameter count is known; layer shapes "
                                                             "(%1 layers, hidden %2) are a Llama-shaped guess for "
                                                             "activations and the KV cache"),
                                {std::to_string(s.model.layers), std::to_string(s.model.hidden)}});
    if (s.model.maxPositions > 0 && s.sequence > s.model.maxPositions)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "sequence: %1 tokens exceed the model's context length of %2"),
                                {groupDigits(s.sequence), groupDigits(s.model.maxPositions)}});
    if (s.model.encoderOnly && !s.isTraining())
        est.warnings.push_back({"Message", QT_TRANSLATE_NOOP("Message", "model: encoder-only, so there is no KV cache"), {}});
    if (s.mode == Mode::Train && s.weights && *s.weights != WeightFormat::Bf16)
        est.warnings.push_back(
            {"Message",
             QT_TRANSLATE_NOOP("Message", "weights: full training stores weights as the regime says; the weight format is ignored"),
             {}});
    if (s.isTraining() && s.gpus > 1 && s.zeroStage == 0)
        est.warnings.push_back(
            {"Message",
             QT_TRANSLATE_NOOP("Message", "zero: stage 0 with several GPUs replicates everything (plain data parallel)"), {}});
    return est;
}

} // namespace core
