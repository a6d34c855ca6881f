#include "core/engine/estimate.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/engine/preparedscenario.h"
#include "core/engine/stagestates.h"
#include "core/memory/activations.h"
#include "core/memory/draft.h"
#include "core/memory/formularecord.h"
#include "core/memory/formulatext.h"
#include "core/memory/hostoffload.h"
#include "core/memory/inference.h"
#include "core/memory/llamacpp.h"
#include "core/memory/logits.h"
#include "core/memory/training.h"
#include "core/memory/overheads.h"
#include "core/memory/trainingrun.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

/// The GPUs of a llama.cpp split worth estimating: with equal shares the
/// first (the most layers) and the last (the output layer) bound the rest;
/// an uneven --tensor-split needs every one.
std::vector<int> llamaCppDevicesToEstimate(const Scenario &s)
{
    if (s.tensorSplit.empty())
        return {0, s.gpus - 1};
    std::vector<int> devices(static_cast<std::size_t>(s.gpus));
    for (int i = 0; i < s.gpus; ++i)
        devices[static_cast<std::size_t>(i)] = i;
    return devices;
}

/// A training phase at two moments: at the head (the logits or their
/// gradients alive) and inside the last layer (its transients instead).
struct HeadAndLayer
{
    MomentTerms head;
    MomentTerms layer;
};

HeadAndLayer headAndLastLayer(const MomentTerms &persistent, Quantity gradients, Quantity activations, Quantity logits,
                              Quantity headWorkspace, Quantity layerWorkspace)
{
    HeadAndLayer moments{persistent, persistent};
    for (MomentTerms *moment : {&moments.head, &moments.layer}) {
        moment->set(TermId::Gradients, gradients);
        moment->set(TermId::Activations, activations);
    }
    moments.head.set(TermId::Logits, logits);
    moments.head.set(TermId::Workspace, headWorkspace);
    moments.layer.set(TermId::Workspace, layerWorkspace);
    return moments;
}

/// A training stage at one point: its prepared model states and workspaces
/// with the tokens' activations and logits, at each moment of the forward,
/// the backward and the optimizer step.
void estimateTraining(const Scenario &s, const PreparedScenario &prepared, const StageStates &st, Estimate &est,
                      FormulaRecord *record)
{
    namespace sh = text::shared;
    namespace ac = text::activations;
    namespace ws = text::workspace;
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const TrainingRun &run = prepared.run();
    const RankShare &share = st.share;

    const ActivationBreakdown act = trainingActivations(m, s, run.dtypes, prepared.activationRates(), record);
    d.activationElementBytes = run.dtypes.compute;
    d.activationPerTokenPerLayer = act.perTokenPerLayer.value;
    d.activationBytesPerLayer = act.perLayer.value;
    d.activationOutsideLayers = act.outsideFirst.value + act.outsideLast.value;
    d.recomputeLayerBytes = act.recomputePeak.value;

    const bool hasHead = !m.encoderOnly && share.last;
    d.logitsTokens = hasHead ? s.batch * s.contextTokens() : 0;
    // Vocabulary-parallel output layer: each tensor-parallel rank holds V/t.
    const auto logits = [&](const Derived &perElement) {
        if (!hasHead)
            return none(record, m.encoderOnly ? text::logits::kWhyEncoderOnly : text::logits::kWhyHeadElsewhere);
        Formula bytes(record);
        bytes.product()
            .times(sh::kBatch, static_cast<double>(s.batch))
            .times(sh::kSequence, static_cast<double>(s.contextTokens()))
            .times(sh::kVocab, static_cast<double>(m.vocab))
            .overUnlessOne(sh::kTp, share.tp)
            .times(sh::kLogitsElementBytes, perElement);
        return bytes.bytes();
    };
    // Liger's fused linear cross-entropy: sized by the hidden width.
    const auto fusedLinear = [&](bool backward) -> Quantity {
        if (!hasHead)
            return logits(st.logitsForward);
        const Derived bytes = fusedLinearLossBytes(s.batch, s.contextTokens(), m.hidden, m.vocab, run.logitsBytes,
                                                   backward, !run.adapters, record);
        return {Bytes::fromDouble(bytes.value), bytes.how};
    };
    const bool fused = s.effectiveLogits() == LogitsMode::FusedLinear;
    const Quantity logitsForward = fused ? fusedLinear(false) : logits(st.logitsForward);
    const Quantity logitsBackward = fused ? fusedLinear(true) : logits(st.logitsBackward);

    Formula saved(record);
    saved.product(ac::kPartLayers)
        .times(sh::kLayersHere, static_cast<double>(share.layerCount))
        .times(ac::kKeptPerLayer, act.keptPerLayer)
        .timesUnlessOne(ac::kInFlight, share.inFlight);
    if (share.first && act.outsideFirst.value > 0)
        saved.product(ac::kPartEmbeddingSide)
            .times(ac::kEmbeddingSide, act.outsideFirst)
            .timesUnlessOne(ac::kInFlight, share.inFlight);
    if (share.last && act.outsideLast.value > 0)
        saved.product(ac::kPartHeadSide).times(ac::kHeadSide, act.outsideLast);
    const Quantity activations = saved.cite(ac::kFromKorthikanti).bytes();
    // Offloaded checkpoints: every layer's input waits in host memory, with
    // what the forward saved outside the layers where the offloading hooks
    // all of it (torchtune).
    if (act.hostPerLayer.value > 0) {
        const double outside =
            (share.first ? act.hostFirst.value * share.inFlight.value : 0.0) + (share.last ? act.hostLast.value : 0.0);
        d.hostTermsPerGpu[termIndex(TermId::Activations)] = Bytes::fromDouble(
            act.hostPerLayer.value * static_cast<double>(share.layerCount) * share.inFlight.value + outside);
        d.hostBytesPerGpu = static_cast<double>(sumTerms(d.hostTermsPerGpu).count());
    }

    // Forward: the end (every activation, the logits and the loss) or the
    // inside of the last layer (a dequantised weight of the frozen base).
    const HeadAndLayer forward = headAndLastLayer(st.persistent, st.accumulated, activations, logitsForward,
                                                  st.headWorkspace, st.layerWorkspace);
    est.phases.push_back(largerMoment(Phase::Forward, s, st.overheads, record,
                                      {{QT_TRANSLATE_NOOP("Derivation", "end of forward"), &forward.head}, {QT_TRANSLATE_NOOP("Derivation", "inside the last layer"), &forward.layer}}));

    // Backward: activations are freed layer by layer while gradients appear,
    // so the peak is the loss's backward (all activations, the logits'
    // gradients), the last layer's backward (its recomputed activations and
    // its gradients, a dequantised weight; the logits are gone), or the end
    // (all gradients, nothing saved any more).
    Formula layerBackward(record);
    if (act.recomputePeak.value > 0)
        layerBackward.product(ws::kPartRecomputedLayer).times(ws::kRecomputedLayer, act.recomputePeak);
    layerBackward.product(ws::kPartLayerGradients).times(ws::kLayerGradients, act.layerGradientPeak);
    const HeadAndLayer backward =
        headAndLastLayer(st.persistent, st.startGradients, activations, logitsBackward, st.headWorkspace,
                         together(record, {st.autocast, st.dequant, layerBackward.cite(ws::kFromCheckpoint).bytes()}));
    est.phases.push_back(largerMoment(Phase::Backward, s, st.overheads, record,
                                      {{QT_TRANSLATE_NOOP("Derivation", "loss backward"), &backward.head},
                                       {QT_TRANSLATE_NOOP("Derivation", "last layer's backward"), &backward.layer},
                                       {QT_TRANSLATE_NOOP("Derivation", "end of backward"), &st.backwardEnd}}));
    // The step holds no token's tensors: prepared, and evaluated again only
    // to record its moment.
    est.phases.push_back(record ? optimizerStepPhase(s, st, record) : st.stepPhase);

    // Loading: the weights in place so far (and the adapters, where the
    // stack builds them before loading), with what the loader holds beside
    // them.
    const auto loading = [&](TermId held, Quantity bytes, const char *moment) {
        MomentTerms load;
        const std::size_t w = termIndex(TermId::Weights);
        load.set(TermId::Weights, {st.persistent.bytes[w], st.persistent.how[w]});
        if (run.adapters && run.stack.adaptersBeforeLoad) {
            const std::size_t l = termIndex(TermId::Lora);
            load.set(TermId::Lora, {st.persistent.bytes[l], st.persistent.how[l]});
        }
        load.set(held, bytes);
        est.phases.push_back(largerMoment(Phase::Load, s, st.overheads, record, {{moment, &load}}));
    };
    // A base the stack quantises as it loads (bitsandbytes, torchao NF4; a
    // checkpoint stored quantised loads as it is): its last weight's 16-bit
    // copy. A sharded model (ZeRO-3, FSDP full shard): one unit gathered
    // whole; no gradient or optimizer state exists yet.
    const WeightFormat base = s.effectiveWeights();
    if (run.adapters && (isBitsandbytes4Bit(base) || base == WeightFormat::BnbInt8)) {
        const Derived transient = quantisedLoadTransient(m, run.lmHeadQuantized && share.last, record);
        loading(TermId::Workspace, {Bytes::fromDouble(transient.value), transient.how},
                QT_TRANSLATE_NOOP("Derivation", "loading the last weight"));
    } else if (st.loadUnit.bytes.count() > 0) {
        loading(TermId::GatherBuffer, st.loadUnit, QT_TRANSLATE_NOOP("Derivation", "gathering one unit"));
    }
}


/// One GPU of a llama.cpp process: its layers' weights and KV cache, and
/// the compute buffer's peak, inside a layer or at the output layer.
void estimateLlamaCpp(const Scenario &s, int device, const StageStates &st, Estimate &est, FormulaRecord *record)
{
    namespace lc = text::llamacpp;
    EstimateDetails &d = est.details;
    const LlamaCppLayout layout = llamaCppLayout(s);
    const LlamaCppShare share = llamaCppShare(s, layout, device);
    d.device = device;
    d.layersOnGpu = share.layers;
    d.llamaCppHost = llamaCppHost(s, d.params, st.modelWeights.value, layout);
    const LlamaCppHost &host = d.llamaCppHost;
    const double perGpu = 1.0 / std::max(1, s.gpus);
    d.hostTermsPerGpu[termIndex(TermId::Weights)] = Bytes::fromDouble(host.weights * perGpu);
    d.hostTermsPerGpu[termIndex(TermId::KvCache)] = Bytes::fromDouble(host.kvCache * perGpu);
    d.hostTermsPerGpu[termIndex(TermId::Workspace)] = Bytes::fromDouble(host.compute * perGpu);
    d.hostTermsPerGpu[termIndex(TermId::Logits)] = Bytes::fromDouble(host.output * perGpu);
    d.hostBytesPerGpu = static_cast<double>(sumTerms(d.hostTermsPerGpu).count());
    d.hostWeightBytes = host.weights - host.repacked - host.input; // a step reads each weight once: the copy or the mapping
    d.hostExpertBytes = host.experts;
    d.hostKvBytes = host.kvCache;
    d.expertBytesOnGpu = llamaCppGpuExpertBytes(s, d.params, st.modelWeights.value, share);

    MomentTerms terms;
    Derived weights = llamaCppGpuWeights(s, d.params, st.modelWeights.value, share, record);
    std::optional<LlamaCppDraft> draft;
    if (s.draftInUse()) {
        draft = llamaCppDraft(s, st.draftWeights, device, record);
        weights = llamaCppWithDraft(weights, draft->weights, nullptr, record);
    }
    terms.set(TermId::Weights, {Bytes::fromDouble(weights.value), weights.how});
    if (s.kvOnHost) {
        terms.set(TermId::KvCache, none(record, lc::kWhyKvOnHost));
    } else {
        Derived kv = llamaCppKvCache(s, layout, share.layers, record);
        if (draft)
            kv = llamaCppWithDraft(kv, draft->kvCache, text::draft::kWhyDraftF16Cache, record);
        terms.set(TermId::KvCache, {Bytes::fromDouble(kv.value), kv.how});
        d.kvBytesPerToken = static_cast<double>(layout.sequences) > 0 ? kv.value / static_cast<double>(layout.sequences * layout.cells) : 0.0;
    }
    MomentTerms layer = terms;
    MomentTerms head = terms;
    if (share.layers > 0) {
        const Derived compute = llamaCppLayerCompute(s, layout, record);
        d.workspaceBytes = compute.value;
        layer.set(TermId::Workspace, {Bytes::fromDouble(compute.value), compute.how});
    }
    if (share.output) {
        const Derived logits = llamaCppOutputCompute(s, layout, record);
        d.logitsTokens = layout.ubatch;
        head.set(TermId::Logits, {Bytes::fromDouble(logits.value), logits.how});
    } else {
        head.set(TermId::Logits, none(record, layout.outputOnGpu ? lc::kWhyOutputOnLastGpu : lc::kWhyOutputOnHost));
    }
    est.phases.push_back(largerMoment(Phase::Inference, s, st.overheads, record,
                                      {{QT_TRANSLATE_NOOP("Derivation", "inside a layer"), &layer},
                                       {QT_TRANSLATE_NOOP("Derivation", "output layer"), &head}}));
}

/// An inference stage at one point: its prepared weights with the KV cache
/// of the point's sequences and the peak of the forward or the logits.
void estimateInference(const Scenario &s, const StageStates &st, int device, Estimate &est, FormulaRecord *record)
{
    if (usesGgmlBuffers(s)) {
        estimateLlamaCpp(s, device >= 0 ? device : (st.stage == Stage::Last ? s.gpus - 1 : 0), st, est, record);
        return;
    }
    namespace sh = text::shared;
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const double e = d.activationElementBytes;
    const RankShare &share = st.share;
    MomentTerms terms = st.persistent;
    // The draft runs beside the sampler: on the last pipeline stage.
    const bool draftHere = s.draftInUse() && share.last;
    if (!m.encoderOnly) {
        // Offloaded layers run here and keep their cache here.
        const std::uint64_t cacheLayers = share.layerCount + share.hostLayersRunHere;
        Formula kv(record);
        const char *part = m.hasRecurrentState() ? text::kv::kPartAttentionCache
                                                 : (draftHere ? text::draft::kPartTarget : nullptr);
        d.kvBytesPerToken = addAttentionCache(kv, s, m, cacheLayers, share.tp, d.kvElementBytes,
                                              {part, &text::kv::kCachedValues, &text::kv::kCachedTokens}, record);
        if (m.hasRecurrentState())
            kv.product(text::kv::kPartLinearState)
                .times(text::kv::kStatePerSequence,
                       linearStatePerSequence(m, runtimeBehaviour(s.serving), cacheLayers, share.tp, e, record))
                .times(sh::kBatch, static_cast<double>(s.batch))
                .timesUnlessOne(sh::kBeams, static_cast<double>(s.beams));
        if (draftHere)
            d.kvBytesPerToken += addDraftKvCache(kv, s, share.tp, d.kvElementBytes, record);
        terms.set(TermId::KvCache, kv.bytes());
    } else {
        terms.set(TermId::KvCache, none(record, text::kv::kWhyEncoderOnly));
    }
    // The forward's intermediates are freed before the logits are taken,
    // so the peak is one moment or the other.
    MomentTerms forward = terms;
    MomentTerms head = terms;
    const bool hasHead = !m.encoderOnly && share.last;
    const Quantity noHead = hasHead
        ? Quantity {}
        : none(record, m.encoderOnly ? text::logits::kWhyEncoderOnly : text::logits::kWhyHeadElsewhere);
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if (runtime.profilesAtStartup) {
        const VllmProfile profile = vllmProfile(m, s, e, record);
        d.workspaceBytes = profile.forward.value;
        forward.set(TermId::Workspace, {Bytes::fromDouble(profile.forward.value), profile.forward.how});
        if (!runtime.profilesSampler) {
            // TensorRT-LLM's dummy requests each sample one token.
            forward.set(TermId::Logits, none(record, text::logits::kWhyOneTokenPerRequest));
            est.phases.push_back(largerMoment(Phase::Inference, s, st.overheads, record,
                                              {{QT_TRANSLATE_NOOP("Derivation", "profile forward"), &forward}}));
            return;
        }
        d.samplerRows = hasHead ? profile.samplerRows : 0;
        head.set(TermId::Logits,
                 hasHead ? Quantity{Bytes::fromDouble(profile.sampler.value), profile.sampler.how} : noHead);
        est.phases.push_back(largerMoment(Phase::Inference, s, st.overheads, record,
                                          {{QT_TRANSLATE_NOOP("Derivation", "profile forward"), &forward}, {QT_TRANSLATE_NOOP("Derivation", "sampler warm-up"), &head}}));
        return;
    }
    const Derived workspace = prefillWorkspace(m, s, e, record);
    d.workspaceBytes = workspace.value;
    forward.set(TermId::Workspace, {Bytes::fromDouble(workspace.value), workspace.how});
    const LogitsMode logits = s.effectiveLogits();
    const bool lastToken = logits == LogitsMode::LastToken;
    d.logitsTokens = !hasHead ? 0 : (lastToken ? s.generatedRows() : s.generatedRows() * s.contextTokens());
    const Derived perElement = logitsBytesPerElement(logits, e, false, false, record);
    d.logitsElementBytes = perElement.value;
    if (hasHead) {
        Formula bytes(record);
        bytes.product().times(sh::kBatch, static_cast<double>(s.batch)).timesUnlessOne(sh::kBeams, static_cast<double>(s.beams));
        if (!lastToken)
            bytes.times(sh::kSequence, static_cast<double>(s.contextTokens()));
        bytes.times(sh::kVocab, static_cast<double>(m.vocab))
            .times(sh::kLogitsElementBytes, perElement)
            .overUnlessOne(sh::kTp, share.tp);
        head.set(TermId::Logits, bytes.bytes());
    } else {
        head.set(TermId::Logits, noHead);
    }
    est.phases.push_back(
        largerMoment(Phase::Inference, s, st.overheads, record, {{QT_TRANSLATE_NOOP("Derivation", "prefill"), &forward}, {QT_TRANSLATE_NOOP("Derivation", "logits"), &head}}));
}

/// One stage's estimate at the scenario's point, into `est`, whose phases
/// are empty (its errors it leaves alone); the caller keeps the most loaded stage. With a record,
/// every formula the point evaluates is kept in it (the prepared states'
/// formulas are in it when `prepared` was made with it). `device`:
/// llama.cpp's GPU of its layer split (-1: the stage's).
void estimateStage(const Scenario &s, const PreparedScenario &prepared, const StageStates &st, Estimate &est,
                   FormulaRecord *record = nullptr, int device = -1)
{
    est.details = st.details;
    if (s.isTraining())
        estimateTraining(s, prepared, st, est, record);
    else
        estimateInference(s, st, device, est, record);
    const auto peak = std::max_element(est.phases.begin(), est.phases.end(),
                                       [](const PhaseTotal &a, const PhaseTotal &b) { return a.total < b.total; });
    est.terms = peak->terms;
    est.total = peak->total;
    est.peakPhase = peak->phase;
}

/// The same, as a new estimate.
Estimate stageEstimate(const Scenario &s, const PreparedScenario &prepared, const StageStates &st, int device = -1)
{
    Estimate est;
    estimateStage(s, prepared, st, est, nullptr, device);
    return est;
}

} // namespace

const char *stageId(Stage stage)
{
    static const Spelling<Stage> kStages[] = {{Stage::Only, "only"}, {Stage::First, "first"}, {Stage::Last, "last"}};
    return spell(kStages, stage);
}

double hostBytesPerMachine(const Scenario &s, const Estimate &e)
{
    return e.details.hostBytesPerGpu * std::min(s.gpus, std::max(1, s.parallel.gpusPerNode));
}

double kvCacheBytesPerToken(const Scenario &s, double elementBytes)
{
    Formula unrecorded;
    return addAttentionCache(unrecorded, s, s.model, s.model.layers, 1.0, elementBytes,
                             {nullptr, &text::kv::kCachedValues, &text::kv::kCachedTokens});
}

std::vector<Estimate> estimateStages(const Scenario &s) { return estimateStages(s, PreparedScenario(s)); }

Estimate estimateLlamaCppDevice(const Scenario &s, int device)
{
    const PreparedScenario prepared(s);
    if (!prepared.errors(s).empty() || !usesGgmlBuffers(s) || s.gpus <= 1)
        return estimate(s, prepared);
    return stageEstimate(s, prepared, prepared.stage(Stage::Only), device);
}

std::vector<Estimate> estimateStages(const Scenario &s, const PreparedScenario &prepared)
{
    if (!prepared.errors(s).empty())
        return {estimate(s, prepared)};
    std::vector<Estimate> stages;
    if (usesGgmlBuffers(s) && s.gpus > 1) {
        for (int device : llamaCppDevicesToEstimate(s))
            stages.push_back(stageEstimate(s, prepared, prepared.stage(Stage::Only), device));
        return stages;
    }
    for (const StageStates &st : prepared.stages())
        stages.push_back(stageEstimate(s, prepared, st));
    return stages;
}

namespace {

/// recordFormulas with the states of `prepared`, made with `record`: only
/// the point runs again.
void recordPoint(const Scenario &s, const PreparedScenario &prepared, const Estimate &e, FormulaRecord &record)
{
    Estimate scratch;
    estimateStage(s, prepared, prepared.stage(e.details.stage), scratch, &record, e.details.device);
}

} // namespace

void recordFormulas(const Scenario &s, const Estimate &e, FormulaRecord &record)
{
    if (e.isValid())
        recordPoint(s, PreparedScenario(s, &record), e, record);
}

const PhaseTotal *phaseHoldingMore(const Estimate &e, TermId id)
{
    const PhaseTotal *most = nullptr;
    for (const PhaseTotal &phase : e.phases)
        if (phase.terms[termIndex(id)] > (most ? most->terms[termIndex(id)] : e.term(id)))
            most = &phase;
    return most;
}

Estimate estimate(const Scenario &s) { return estimate(s, PreparedScenario(s)); }

Estimate estimateNumbers(const Scenario &s, const PreparedScenario &prepared)
{
    Estimate est;
    estimateNumbers(s, prepared, est);
    return est;
}

namespace {

/// estimateNumbers into `est`. With a record, and where one stage is all
/// there is to weigh, that stage's formulas are kept as it is estimated;
/// returns whether they were (else the caller records the peak stage after).
bool estimateInto(const Scenario &s, const PreparedScenario &prepared, Estimate &est, FormulaRecord *record)
{
    if (std::vector<Message> errors = prepared.errors(s); !errors.empty()) {
        est = Estimate();
        est.errors = std::move(errors);
        return false;
    }
    est.errors.clear();
    est.warnings.clear();
    est.phases.clear();
    if (usesGgmlBuffers(s) && s.gpus > 1) {
        // The most loaded GPU of llama.cpp's split.
        bool first = true;
        for (int device : llamaCppDevicesToEstimate(s)) {
            if (first) {
                estimateStage(s, prepared, prepared.stage(Stage::Only), est, nullptr, device);
                first = false;
            } else if (Estimate other = stageEstimate(s, prepared, prepared.stage(Stage::Only), device);
                       other.total > est.total) {
                est = std::move(other);
            }
        }
        return false;
    }
    if (prepared.stages().size() > 1) {
        // The most loaded rank: the first stage (activations in flight,
        // embedding) or the last (lm_head, logits).
        estimateStage(s, prepared, prepared.stage(Stage::First), est);
        if (Estimate last = stageEstimate(s, prepared, prepared.stage(Stage::Last)); last.total > est.total)
            est = std::move(last);
        return false;
    }
    estimateStage(s, prepared, prepared.stages().front(), est, record);
    return record != nullptr;
}

/// What the inputs warn of, beside the numbers.
void addInputWarnings(const Scenario &s, Estimate &est);

} // namespace

void estimateNumbers(const Scenario &s, const PreparedScenario &prepared, Estimate &est)
{
    estimateInto(s, prepared, est, nullptr);
}

Estimate estimate(const Scenario &s, const PreparedScenario &prepared)
{
    Estimate est;
    estimateInto(s, prepared, est, nullptr);
    if (est.isValid())
        addInputWarnings(s, est);
    return est;
}

Estimate estimate(const Scenario &s, const PreparedScenario &prepared, FormulaRecord &record)
{
    Estimate est;
    const bool recorded = estimateInto(s, prepared, est, &record);
    if (!est.isValid())
        return est;
    addInputWarnings(s, est);
    if (!recorded)
        recordPoint(s, prepared, est, record);
    return est;
}

namespace {

void addInputWarnings(const Scenario &s, Estimate &est)
{
    if (const double host = hostBytesPerMachine(s, est); s.hostMemoryGib > 0 && host > s.hostMemoryGib * 1024 * 1024 * 1024)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "host memory: %1 stays beside the GPUs of one machine, more "
                                                             "than its %2"),
                                {formatBytes(Bytes::fromDouble(host)), formatBytes(Bytes::fromDouble(s.hostMemoryGib * 1024 * 1024 * 1024))}});
    if (s.model.declaredParameters > 0)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "model: only the parameter count is known; layer shapes "
                                                             "(%1 layers, hidden %2) are a Llama-shaped guess for "
                                                             "activations and the KV cache"),
                                {std::to_string(s.model.layers), std::to_string(s.model.hidden)}});
    if (s.model.familyGuessed)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "model: model_type '%1' has no family rules here; it "
                                                             "was read as a Llama-style decoder (RMSNorm, gated MLP, "
                                                             "no biases, full attention in every layer) and every "
                                                             "number depends on that guess; assumed: %2"),
                                {s.model.family, s.model.defaultedKeys.empty() ? std::string("-") : joinWithCommas(s.model.defaultedKeys)}});
    if (s.model.shapeGuessed && !s.model.familyGuessed)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "model: part of this %1 config is not modelled yet and "
                                                             "was read as a guess; the numbers depend on it; "
                                                             "assumed: %2"),
                                {s.model.family, joinWithCommas(s.model.defaultedKeys)}});
    if (!s.model.ignoredKeys.empty())
        est.warnings.push_back({"Message", QT_TRANSLATE_NOOP("Message", "model: config keys not read: %1"),
                                {joinWithCommas(s.model.ignoredKeys)}});
    if (s.images > 0 && s.model.imageTokens > 0)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "images: %1 images of %2 tokens each make the context %3 tokens"),
                                {groupDigits(s.images), groupDigits(s.model.imageTokens), groupDigits(s.contextTokens())}});
    if (s.model.maxPositions > 0 && s.contextTokens() > s.model.maxPositions)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "sequence: %1 tokens exceed the model's context length of %2"),
                                {groupDigits(s.contextTokens()), groupDigits(s.model.maxPositions)}});
    if (s.model.encoderOnly && !s.isTraining())
        est.warnings.push_back({"Message", QT_TRANSLATE_NOOP("Message", "model: encoder-only, so there is no KV cache"), {}});
    if (!s.isTraining() && !s.model.compressRatios.empty() && !runtimeBehaviour(s.serving).compressedAttention)
        est.warnings.push_back({"Message",
                                QT_TRANSLATE_NOOP("Message", "serving: %1 has no compressed attention (DeepSeek-V4) at "
                                                             "the modelled version and loads no such model; its KV "
                                                             "cache here holds the windows only"),
                                {runtimeInfo(s.serving).name}});
    if (s.mode == Mode::Train && s.weights && *s.weights != WeightFormat::Bf16)
        est.warnings.push_back(
            {"Message",
             QT_TRANSLATE_NOOP("Message", "weights: full training stores weights as the regime says; the weight format is ignored"),
             {}});
    if (s.isTraining() && s.gpus > 1 && s.zeroStage == 0)
        est.warnings.push_back(
            {"Message",
             QT_TRANSLATE_NOOP("Message", "zero: stage 0 with several GPUs replicates everything (plain data parallel)"), {}});
}

} // namespace

} // namespace core