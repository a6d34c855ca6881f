#include "core/estimate.h"

#include "core/activations.h"
#include "core/inference.h"
#include "core/overheads.h"

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
    {TermId::Weights, "weights", "Weights"},
    {TermId::Lora, "lora", "LoRA adapters"},
    {TermId::MasterWeights, "master_weights", "Master weights"},
    {TermId::Gradients, "gradients", "Gradients"},
    {TermId::Optimizer, "optimizer", "Optimizer states"},
    {TermId::Activations, "activations", "Activations"},
    {TermId::Logits, "logits", "Logits and loss"},
    {TermId::KvCache, "kv_cache", "KV cache"},
    {TermId::Workspace, "workspace", "Workspace"},
    {TermId::GatherBuffer, "gather_buffer", "ZeRO-3 gather buffer"},
    {TermId::CommBuffers, "comm_buffers", "NCCL buffers"},
    {TermId::CudaOverhead, "cuda_overhead", "CUDA context"},
    {TermId::AllocatorReserve, "allocator_reserve", "Allocator reserve"},
};

constexpr std::size_t idx(TermId id) { return static_cast<std::size_t>(id); }

Bytes sumTerms(const TermBytes &terms)
{
    Bytes total;
    for (Bytes b : terms)
        total += b;
    return total;
}

/// Splits the model's weight bytes into quantised and 16-bit parts.
void weightStorage(const Scenario &s, const ParameterCounts &pc, EstimateDetails &d)
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
        // lm_head, norms and biases stay in the 16-bit compute dtype. gpt-oss
        // ships only its experts in MXFP4 (config quantization_config,
        // modules_to_not_convert).
        const bool expertsOnly = wf == WeightFormat::Mxfp4 && s.model.moe.isMoe();
        d.quantizedParams = static_cast<double>(expertsOnly ? pc.experts : pc.linear);
        d.unquantizedParams = static_cast<double>(pc.total) - d.quantizedParams;
    } else {
        d.quantizedParams = static_cast<double>(pc.total);
        d.unquantizedParams = 0;
    }
    d.weightBytesTotal = d.quantizedParams * d.weightBits.total() / 8.0 + d.unquantizedParams * 2.0;
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

double logitsBytesPerElement(LogitsMode mode, double e, bool backward)
{
    constexpr double chunks = 8; // torchtune CEWithChunkedOutputLoss num_output_chunks
    switch (mode) {
    case LogitsMode::Fp32:
        // Hugging Face ForCausalLMLoss: logits.float() then cross_entropy.
        // Forward: 16-bit logits + fp32 copy + fp32 log-softmax output.
        // Backward start: 16-bit logits + saved log-softmax + fp32 gradient
        // in and out of log_softmax_backward.
        return backward ? e + 12.0 : e + 8.0;
    case LogitsMode::Native:
        return backward ? 4.0 * e : 2.0 * e;
    case LogitsMode::Chunked:
        return backward ? e + 12.0 / chunks : e + 8.0 / chunks;
    case LogitsMode::LastToken:
        return e + 4.0;
    }
    return e;
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

void estimateTraining(const Scenario &s, const std::vector<TensorGroup> &tensors, Estimate &est)
{
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const bool lora = s.mode != Mode::Train;
    const int N = s.gpus;
    const int stage = N > 1 ? s.zeroStage : 0;
    d.shardDegree = N;
    auto shard = [N](double bytes, bool divided) { return Bytes::fromDouble(divided ? bytes / N : bytes); };

    std::vector<TensorGroup> trainable = lora ? loraTensors(s, tensors) : tensors;
    double trainableParams = 0;
    for (const TensorGroup &g : trainable)
        trainableParams += static_cast<double>(g.elements());
    d.trainableParams = static_cast<std::uint64_t>(trainableParams);
    d.loraParams = lora ? d.trainableParams : 0;

    TermBytes persistent{};
    persistent[idx(TermId::Weights)] = shard(d.weightBytesTotal, stage >= 3);
    if (lora)
        persistent[idx(TermId::Lora)] = shard(trainableParams * d.regime.weights, stage >= 3);
    persistent[idx(TermId::MasterWeights)] = shard(trainableParams * d.regime.masterWeights, stage >= 1);
    d.optimizerBytesTotal = optimizerStateBytes(s.optimizer, d.regime, trainable);
    persistent[idx(TermId::Optimizer)] = shard(d.optimizerBytesTotal, stage >= 1);
    if (stage >= 3) {
        // DeepSpeed estimate_zero3_model_states_mem_needs: 4 x largest layer
        // parameters (16-bit parameters and gradients of the gathered layer).
        persistent[idx(TermId::GatherBuffer)] =
            Bytes::fromDouble(static_cast<double>(d.params.largestLayer) * 2.0 * d.regime.weights);
    }

    const Bytes gradients = shard(trainableParams * d.regime.gradients, stage >= 2);
    // At the start of backward the first gradients (lm_head, last layer) exist.
    const double firstGradParams =
        lora ? trainableParams / std::max<double>(1.0, static_cast<double>(m.layers))
             : static_cast<double>(std::max(d.params.lmHead, d.params.largestLayer));
    const Bytes firstGradients = std::min(gradients, shard(firstGradParams * d.regime.gradients, stage >= 2));
    const Bytes accumulated = s.gradAccum > 1 ? gradients : Bytes();

    Trainability t;
    t.fullModel = !lora;
    t.loraRank = s.lora.rank;
    for (LinearSlot slot : s.lora.targets)
        t.loraSlots |= 1u << static_cast<unsigned>(slot);
    const double e = d.regime.activationBytes;
    const double r = (s.regime == Regime::Amp || s.regime == Regime::Fp32) ? 4.0 : e;
    const ActivationBreakdown act = trainingActivations(m, s, t, e, r);
    d.activationElementBytes = e;
    d.activationPerTokenPerLayer = act.perTokenPerLayer;
    d.activationScoresPerLayer = act.scoresPerLayer;
    d.activationBytesPerLayer = act.perLayer;
    d.activationOutsideLayers = act.outsideLayers;
    d.recomputeLayerBytes = act.recomputePeak;

    const LogitsMode logits = s.effectiveLogits();
    d.logitsTokens = m.encoderOnly ? 0 : s.batch * s.sequence;
    const double logitElements = static_cast<double>(d.logitsTokens) * static_cast<double>(m.vocab);
    const Bytes logitsForward = Bytes::fromDouble(logitElements * logitsBytesPerElement(logits, e, false));
    const Bytes logitsBackward = Bytes::fromDouble(logitElements * logitsBytesPerElement(logits, e, true));
    d.logitsElementBytes = logitsBytesPerElement(logits, e, true);
    d.lossSavedElementBytes = logits == LogitsMode::Native ? e : 4.0;

    const Bytes activations = Bytes::fromDouble(act.saved);
    const Bytes autocast = Bytes::fromDouble(static_cast<double>(d.params.total) * d.regime.autocastCopies);
    const Bytes recompute = Bytes::fromDouble(act.recomputePeak);

    TermBytes forward = persistent;
    forward[idx(TermId::Gradients)] = accumulated;
    forward[idx(TermId::Activations)] = activations;
    forward[idx(TermId::Logits)] = logitsForward;
    forward[idx(TermId::Workspace)] = autocast;
    est.phases.push_back(makePhase(Phase::Forward, s, d, forward));

    // Backward: activations are freed layer by layer while gradients appear,
    // so the peak is at one end: all activations plus the loss gradient and
    // the first gradients, or all gradients once activations are gone.
    TermBytes backward = persistent;
    backward[idx(TermId::Workspace)] = autocast + recompute;
    const Bytes startGrads = std::max(accumulated, firstGradients);
    if (activations + logitsBackward + startGrads >= gradients) {
        backward[idx(TermId::Gradients)] = startGrads;
        backward[idx(TermId::Activations)] = activations;
        backward[idx(TermId::Logits)] = logitsBackward;
    } else {
        backward[idx(TermId::Gradients)] = gradients;
    }
    est.phases.push_back(makePhase(Phase::Backward, s, d, backward));

    TermBytes step = persistent;
    step[idx(TermId::Gradients)] = gradients;
    step[idx(TermId::Workspace)] =
        shard(trainableParams * optimizerStepTemporaryBytesPerParam(s.optimizer, s.optimizerImpl, d.regime), stage >= 1);
    est.phases.push_back(makePhase(Phase::OptimizerStep, s, d, step));
}

void estimateInference(const Scenario &s, Estimate &est)
{
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const int N = s.gpus;
    const WeightFormat wf = s.effectiveWeights();
    const double e = isFloatFormat(wf) ? elementBytes(wf) : 2.0;
    d.activationElementBytes = e;

    // device_map="auto" places whole layers: the most loaded GPU holds
    // ceil(L/N) layers plus the larger of the embedding and the lm_head.
    const std::uint64_t L = m.layers;
    const std::uint64_t layersHere = N > 1 ? (L + static_cast<std::uint64_t>(N) - 1) / static_cast<std::uint64_t>(N) : L;
    d.layersOnGpu = layersHere;
    double weights = d.weightBytesTotal;
    if (N > 1) {
        const double bytesPerParam = d.weightBytesTotal / std::max(1.0, static_cast<double>(d.params.total));
        const double ends = static_cast<double>(d.params.embedding + d.params.lmHead);
        const double layerParams = (static_cast<double>(d.params.total) - ends) / static_cast<double>(L);
        weights = (layerParams * static_cast<double>(layersHere)
                   + static_cast<double>(std::max(d.params.embedding, d.params.lmHead)))
            * bytesPerParam;
    }

    TermBytes terms{};
    terms[idx(TermId::Weights)] = Bytes::fromDouble(weights);
    d.kvElementBytes = s.kvDtype ? elementBytes(*s.kvDtype) : e;
    if (!m.encoderOnly) {
        d.kvCachedTokens = cachedLayerTokens(m, layersHere, s.sequence);
        d.kvBytesPerToken = kvCacheBytesPerToken(m, d.kvElementBytes) * static_cast<double>(layersHere)
            / static_cast<double>(L);
        // 2 (K and V) x kv_heads x head_dim x bytes, per cached layer-token.
        const double perLayerToken = 2.0 * static_cast<double>(m.kvWidth()) * d.kvElementBytes;
        terms[idx(TermId::KvCache)] = Bytes::fromDouble(
            perLayerToken * static_cast<double>(d.kvCachedTokens) * static_cast<double>(s.batch));
    }
    d.workspaceBytes = prefillWorkspaceBytes(m, s, e);
    terms[idx(TermId::Workspace)] = Bytes::fromDouble(d.workspaceBytes);
    const LogitsMode logits = s.effectiveLogits();
    d.logitsTokens = m.encoderOnly ? 0 : (logits == LogitsMode::LastToken ? s.batch : s.batch * s.sequence);
    d.logitsElementBytes = logitsBytesPerElement(logits, e, false);
    terms[idx(TermId::Logits)] = Bytes::fromDouble(static_cast<double>(d.logitsTokens) * static_cast<double>(m.vocab)
                                                   * d.logitsElementBytes);
    est.phases.push_back(makePhase(Phase::Inference, s, d, terms));
}

} // namespace

const char *termId(TermId id) { return kTermNames[idx(id)].key; }
const char *termLabel(TermId id) { return kTermNames[idx(id)].label; }

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

Estimate estimate(const Scenario &s)
{
    Estimate est;
    est.errors = validateScenario(s);
    if (!est.errors.empty())
        return est;
    EstimateDetails &d = est.details;
    const std::vector<TensorGroup> tensors = enumerateTensors(s.model);
    d.params = countParameters(s.model);
    d.regime = regimeBytes(s.regime);
    weightStorage(s, d.params, d);

    if (s.isTraining())
        estimateTraining(s, tensors, est);
    else
        estimateInference(s, est);

    const auto peak = std::max_element(est.phases.begin(), est.phases.end(),
                                       [](const PhaseTotal &a, const PhaseTotal &b) { return a.total < b.total; });
    est.terms = peak->terms;
    est.total = peak->total;
    est.peakPhase = peak->phase;

    if (s.model.declaredParameters > 0)
        est.warnings.push_back("model: only the parameter count is known; layer shapes (" + std::to_string(s.model.layers)
                               + " layers, hidden " + std::to_string(s.model.hidden)
                               + ") are a Llama-shaped guess for activations and the KV cache");
    if (s.model.maxPositions > 0 && s.sequence > s.model.maxPositions)
        est.warnings.push_back("sequence: " + std::to_string(s.sequence) + " tokens exceed the model's context length of "
                               + std::to_string(s.model.maxPositions));
    if (s.model.encoderOnly && !s.isTraining())
        est.warnings.push_back("model: encoder-only, so there is no KV cache");
    if (s.mode == Mode::Train && s.weights && *s.weights != WeightFormat::Bf16)
        est.warnings.push_back("weights: full training stores weights as the regime says; --weights is ignored");
    if (s.isTraining() && s.gpus > 1 && s.zeroStage == 0)
        est.warnings.push_back("zero: stage 0 with several GPUs replicates everything (plain data parallel)");
    return est;
}

} // namespace core
