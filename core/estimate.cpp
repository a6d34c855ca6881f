#include "core/estimate.h"

#include "core/activations.h"
#include "core/draft.h"
#include "core/formularecord.h"
#include "core/formulatext.h"
#include "core/hostoffload.h"
#include "core/inference.h"
#include "core/llamacpp.h"
#include "core/logits.h"
#include "core/overheads.h"
#include "core/preparedscenario.h"
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

bool usesLlamaCpp(const Scenario &s) { return !s.isTraining() && s.serving == ServingEngine::LlamaCpp; }

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

Bytes sumTerms(const TermBytes &terms)
{
    Bytes total;
    for (Bytes b : terms)
        total += b;
    return total;
}

/// One moment's per-GPU terms and, when the estimate is explained, the
/// formula that gave each (null where a term is not held).
struct MomentTerms
{
    TermBytes bytes{};
    TermFormulas how{};

    void set(TermId id, Quantity q)
    {
        bytes[idx(id)] = q.bytes;
        how[idx(id)] = q.how;
    }
};

/// Splits the model's weight bytes into quantised and unquantised parts;
/// `run` says how a training stack stores the frozen base. Returns the
/// whole model's weight bytes, before any split.
Derived weightStorage(const Scenario &s, const ParameterCounts &pc, const TrainingRun &run, EstimateDetails &d,
                      FormulaStore *store)
{
    namespace w = text::weights;
    const WeightFormat wf = s.effectiveWeights();
    d.weightBits = formatBits(wf, s.groupSize, static_cast<double>(s.model.hidden));
    Formula bytes(store);
    if (s.mode == Mode::Train) {
        // Full training keeps the regime's working copy of every parameter.
        d.weightBits = FormatBits{d.regime.weights * 8.0, 0, ""};
        bytes.product()
            .times(text::shared::kParams, static_cast<double>(pc.total))
            .times(w::kWeightBytes, d.regime.weights);
        bytes.cite(w::kFromZeroModelStates).cite(d.regime.source);
    } else if (const CheckpointWeights *files = s.checkpointInUse()) {
        // The bytes the loader reads, from the files' own tensor tables,
        // one product per dtype (the name as the file spells it).
        for (const DtypeTotal &t : files->loaded)
            bytes.product(t.dtype.c_str()).times(w::kCheckpointBytes, static_cast<double>(t.bytes));
        bytes.note(w::kWhyCheckpointBytes);
        if (files->skippedTensors > 0 && s.model.loadMtp)
            bytes.product(w::kPartMtp).times(w::kMtpBytes, static_cast<double>(files->skippedBytes));
        else if (files->skippedTensors > 0)
            bytes.note(w::kWhyMtpSkipped);
        bytes.cite(files->format == "gguf" ? w::kFromGgufTable : w::kFromSafetensorsTable);
        d.weightBits = FormatBits{pc.total ? bytes.value() * 8.0 / static_cast<double>(pc.total) : 0.0, 0, ""};
    } else {
        double quantized = static_cast<double>(pc.total);
        if (formatInfo(wf).keepsEmbeddingsUnquantized && !s.quantizeEmbeddings) {
            // Quantisation libraries replace nn.Linear layers only; embeddings,
            // lm_head, norms and biases stay in the 16-bit compute dtype (fp32
            // after PEFT's kbit upcast; LitGPT's Fabric plugin quantises the
            // lm_head too). gpt-oss ships only its experts in MXFP4 (config
            // quantization_config, modules_to_not_convert).
            const bool expertsOnly = wf == WeightFormat::Mxfp4 && s.model.moe.isMoe();
            quantized = static_cast<double>(expertsOnly ? pc.experts : pc.linear)
                + (run.lmHeadQuantized ? static_cast<double>(pc.lmHead) : 0.0);
        }
        const double unquantized = static_cast<double>(pc.total) - quantized;
        // Bits per weight: the value and, where the format has them, its
        // scales and zero-points.
        bytes.product(w::kPartQuantized).times(w::kQuantizedParams, quantized);
        if (d.weightBits.overhead > 0) {
            Formula bits(store);
            bits.product(w::kPartValueBits).times(w::kValueBits, d.weightBits.data);
            bits.product(d.weightBits.overheadWhat).times(w::kScaleBits, d.weightBits.overhead);
            bytes.times(w::kBitsPerWeight, bits.derived());
        } else {
            bytes.times(w::kBitsPerWeight, d.weightBits.data);
        }
        bytes.over(w::kBitsPerByte, 8.0);
        if (unquantized > 0)
            bytes.product(w::kPartUnquantized)
                .times(w::kUnquantizedParams, unquantized)
                .times(w::kUnquantizedBytes, run.unquantizedBytes);
        if (run.kbitUpcast)
            bytes.note(w::kWhyKbitUpcast);
        bytes.cite(formatInfo(wf).source);
    }
    d.unquantizedBytes = run.unquantizedBytes;
    d.weightBytesTotal = bytes.value();
    return bytes.derived();
}

/// What a moment adds to its tensors: the CUDA context and NCCL buffers
/// (the same at every moment) and the allocator's reserve.
struct Overheads
{
    Quantity cuda;
    Quantity nccl;
};

/// The allocator's reserve at a moment holding `terms`. The caching
/// allocator rounds blocks and keeps freed ones: reserved exceeds
/// allocated (PyTorch CUDA memory docs; ZeRO paper §III-B on
/// fragmentation). A planning margin, editable.
Quantity allocatorReserve(const Scenario &s, const TermBytes &terms, FormulaStore *store)
{
    namespace o = text::overheads;
    if (usesLlamaCpp(s))
        return none(store, text::llamacpp::kWhyNoReserve);
    // The tensors: every term up to the gather buffer (TermId order).
    Formula tensors(store);
    for (std::size_t i = 0; i <= idx(TermId::GatherBuffer); ++i)
        if (terms[i].count() > 0)
            tensors.product(kTermNames[i].label)
                .times(text::termSymbol(kTermNames[i].id), static_cast<double>(terms[i].count()));
    Formula reserve(store);
    reserve.product().times(o::kTensorBytes, tensors.derived()).times(o::kReserveShare, s.reservePercent / 100.0);
    return reserve.cite(o::kFromAllocator).bytes();
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
    Derived params;             ///< of all parameters
    Derived layers;             ///< of the decoder layers (adapters live there)
    std::uint64_t layerCount = 0; ///< decoder layers on this stage
    Derived inFlight{1};        ///< micro-batches whose activations are alive
    bool first = true;
    bool last = true;
    int tp = 1;
    int dp = 1;
    /// generate()'s CPU offload (hostoffload.h): layers in host memory that
    /// run here, their KV cache and activations with them; the lm_head
    /// among them.
    std::uint64_t hostLayersRunHere = 0;
    bool lmHeadOnHost = false;
};

/// Inference without explicit tp/pp splits layers over `gpus` the way
/// device_map="auto" does: a pipeline without micro-batches.
int pipelineStages(const Scenario &s)
{
    if (!s.isTraining() && s.parallel.tp * s.parallel.pp == 1)
        return s.gpus;
    return s.parallel.pp;
}

RankShare rankShare(const Scenario &s, const ParameterCounts &pc, Stage stage, FormulaStore *store)
{
    namespace r = text::rank;
    RankShare share;
    const ModelSpec &m = s.model;
    const auto pp = static_cast<std::uint64_t>(pipelineStages(s));
    share.tp = s.parallel.tp;
    share.dp = s.isTraining() ? s.shardDegree() : 1;
    share.first = stage != Stage::Last;
    share.last = stage != Stage::First;
    const std::uint64_t gpuLayers = deviceMapGpuLayers(s);
    share.layerCount = (gpuLayers + pp - 1) / pp;
    share.lmHeadOnHost = offloadsLayersToHost(s);
    share.hostLayersRunHere = share.first ? m.layers - gpuLayers : 0;
    Formula layers(store);
    layers.product()
        .times(text::shared::kLayersHere, static_cast<double>(share.layerCount))
        .over(r::kLayers, static_cast<double>(std::max<std::uint64_t>(1, m.layers)));
    if (share.lmHeadOnHost)
        layers.note(text::offload::kWhyDeviceMapOffload).cite(text::offload::kFromAccelerate);
    if (pp > 1)
        layers.note(s.isTraining() || s.parallel.pp > 1 ? r::kWhyPipeline : r::kWhyDeviceMap);
    share.layers = layers.derived();
    if (stage == Stage::First && s.isTraining()) {
        // 1F1B warm-up: the first stage holds p micro-batches; interleaving
        // adds (p-1)/(p*v) (Korthikanti et al. 2022 §4.2.3).
        const double p = static_cast<double>(pp);
        const double v = static_cast<double>(s.parallel.interleave);
        Formula inFlight(store);
        inFlight.product().times(r::kStages, p);
        if (v > 1)
            inFlight.times(r::kInterleaveWarmup, 1.0 + (p - 1.0) / (p * v));
        share.inFlight = inFlight.cite(r::kFromInFlight).derived();
    }
    const double ends = static_cast<double>(pc.embedding + pc.lmHead);
    const double experts = static_cast<double>(pc.experts);
    const double layerParams = std::max(0.0, static_cast<double>(pc.total) - ends - experts);
    Formula here(store);
    here.product(r::kPartLayers).times(r::kLayerParams, layerParams).timesUnlessOne(r::kLayerShare, share.layers);
    if (experts > 0)
        here.product(r::kPartExperts)
            .times(r::kExpertParams, experts)
            .overUnlessOne(r::kEp, s.parallel.ep)
            .timesUnlessOne(r::kLayerShare, share.layers);
    if (pp > 1) {
        if (stage == Stage::First)
            here.product(r::kPartEmbedding).times(r::kEmbeddingParams, static_cast<double>(pc.embedding));
        else if (!share.lmHeadOnHost)
            here.product(r::kPartLmHead).times(text::shared::kLmHeadParams, static_cast<double>(pc.lmHead));
    } else if (share.lmHeadOnHost) {
        here.product(text::offload::kPartEmbeddingOnly).times(r::kEmbeddingParams, static_cast<double>(pc.embedding));
    } else {
        here.product(r::kPartEnds).times(r::kEndParams, ends);
    }
    Formula params(store);
    params.product()
        .times(r::kParamsHere, here.derived())
        .over(text::shared::kParams, std::max(1.0, static_cast<double>(pc.total)))
        .overUnlessOne(text::shared::kTp, share.tp);
    share.params = params.cite(r::kFromSplit).derived();
    return share;
}

/// A training phase at two moments: at the head (the logits or their
/// gradients alive) and inside the last layer (its transients instead).
struct HeadAndLayer
{
    MomentTerms head;
    MomentTerms layer;
};

HeadAndLayer headAndLastLayer(MomentTerms terms, Quantity gradients, Quantity activations, Quantity logits,
                              Quantity headWorkspace, Quantity layerWorkspace)
{
    terms.set(TermId::Gradients, gradients);
    terms.set(TermId::Activations, activations);
    HeadAndLayer moments{terms, terms};
    moments.head.set(TermId::Logits, logits);
    moments.head.set(TermId::Workspace, headWorkspace);
    moments.layer.set(TermId::Workspace, layerWorkspace);
    return moments;
}

/// The largest of a phase's moments, overheads included; each moment is
/// recorded when the estimate is explained.
PhaseTotal largerMoment(Phase phase, const Scenario &s, const Overheads &overheads, FormulaRecord *record,
                        std::initializer_list<std::pair<const char *, const MomentTerms *>> moments)
{
    PhaseTotal best{phase, {}, Bytes(), ""};
    for (const auto &[moment, terms] : moments) {
        const Quantity reserve = allocatorReserve(s, terms->bytes, record);
        const Bytes total = sumTerms(terms->bytes) + overheads.cuda.bytes + overheads.nccl.bytes + reserve.bytes;
        if (record) {
            TermFormulas how = terms->how;
            how[idx(TermId::CudaOverhead)] = overheads.cuda.how;
            how[idx(TermId::CommBuffers)] = overheads.nccl.how;
            how[idx(TermId::AllocatorReserve)] = reserve.how;
            record->addMoment(phase, moment, how);
        }
        if (best.moment[0] != '\0' && total <= best.total)
            continue;
        best.terms = terms->bytes;
        best.terms[idx(TermId::CudaOverhead)] = overheads.cuda.bytes;
        best.terms[idx(TermId::CommBuffers)] = overheads.nccl.bytes;
        best.terms[idx(TermId::AllocatorReserve)] = reserve.bytes;
        best.total = total;
        best.moment = moment;
    }
    return best;
}

void estimateTraining(const Scenario &s, const PreparedScenario &prepared, Stage stageRole, const Derived &modelWeights,
                      const Overheads &overheads, Estimate &est, FormulaRecord *record)
{
    namespace sh = text::shared;
    namespace ac = text::activations;
    namespace gr = text::gradients;
    namespace ws = text::workspace;
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const TrainingRun &run = prepared.run();
    const bool lora = run.adapters;
    const RankShare share = rankShare(s, d.params, stageRole, record);
    const int dp = share.dp;
    const Offload offload = s.parallel.offload;
    // Offloading parameters (ZeRO-Infinity) shards them like stage 3.
    const int stage = dp > 1 || offload == Offload::OptimizerAndParams
        ? (offload == Offload::OptimizerAndParams ? 3 : s.zeroStage)
        : 0;
    d.shardDegree = dp;
    d.layersOnGpu = share.layerCount;
    d.kbitUpcast = run.kbitUpcast;
    // ZeRO stage k divides what it shards over the data-parallel ranks
    // (Rajbhandari et al. 2020 §V: 1 optimizer states, 2 gradients, 3 parameters).
    const auto shard = [dp, stage](Formula &f, int fromStage) -> Formula & {
        return stage >= fromStage ? f.overUnlessOne(sh::kDp, dp) : f;
    };

    const Derived &trainableParams = prepared.trainableParams();
    d.trainableParams = static_cast<std::uint64_t>(trainableParams.value);
    d.loraParams = lora ? d.trainableParams : 0;
    // Adapters live in the layers; full training follows the parameters.
    Derived rankFraction = share.params;
    if (lora) {
        Formula adapterShare(record);
        adapterShare.product().times(text::rank::kLayerShare, share.layers).overUnlessOne(sh::kTp, share.tp);
        rankFraction = adapterShare.derived();
    }
    const Symbol &rankSymbol = lora ? sh::kAdapterShare : sh::kRankShare;
    const double rankTrainable = trainableParams.value * rankFraction.value;
    // P_train x this rank's share: what every per-parameter state starts from.
    const auto perTrainable = [&](Formula &f, const Symbol &bytesSymbol, double bytes) -> Formula & {
        return f.product()
            .times(sh::kTrainableParams, trainableParams)
            .timesUnlessOne(rankSymbol, rankFraction)
            .times(bytesSymbol, bytes);
    };
    const Derived &optimizerStates = prepared.optimizerStates();
    d.optimizerBytesTotal = optimizerStates.value;

    MomentTerms persistent;
    const bool paramsOffloaded = offload == Offload::OptimizerAndParams;
    const bool statesOffloaded = offload != Offload::None;
    if (paramsOffloaded) {
        persistent.set(TermId::Weights, none(record, text::weights::kWhyParamsOffloaded));
    } else {
        Formula weights(record);
        weights.product().times(sh::kModelWeights, modelWeights).timesUnlessOne(sh::kRankShare, share.params);
        persistent.set(TermId::Weights, shard(weights, 3).bytes());
    }
    if (lora) {
        Formula adapters(record);
        perTrainable(adapters, text::weights::kWeightBytes, d.regime.weights).cite(text::lora::kFromLora);
        persistent.set(TermId::Lora, shard(adapters, 3).bytes());
    }
    // ZeRO-Offload keeps the fp32 master weights and optimizer states in
    // host memory and runs the step on the CPU (Ren et al. 2021 §4).
    if (!statesOffloaded) {
        Formula master(record);
        perTrainable(master, text::master::kMasterBytes, d.regime.masterWeights).cite(text::master::kFromMaster);
        if (d.regime.masterWeights == 0)
            master.note(text::master::kWhyNoMaster);
        persistent.set(TermId::MasterWeights, shard(master, 1).bytes());
        Formula optimizer(record);
        optimizer.product()
            .times(text::optimizer::kOptimizerStates, optimizerStates)
            .timesUnlessOne(rankSymbol, rankFraction);
        persistent.set(TermId::Optimizer, shard(optimizer, 1).bytes());
    } else {
        persistent.set(TermId::MasterWeights, none(record, sh::kWhyStatesOffloaded));
        persistent.set(TermId::Optimizer, none(record, sh::kWhyStatesOffloaded));
    }
    if (statesOffloaded) {
        // ZeRO-Offload keeps the fp32 master weights, fp32 gradients and the
        // optimizer states of this rank's shard in host memory (Ren et al.
        // 2021, ZeRO-Offload §4.1); ZeRO-Infinity the parameters too.
        TermBytes &host = d.hostTermsPerGpu;
        host[idx(TermId::MasterWeights)] = Bytes::fromDouble(rankTrainable * d.regime.masterWeights / dp);
        host[idx(TermId::Gradients)] = Bytes::fromDouble(rankTrainable * 4.0 / dp);
        host[idx(TermId::Optimizer)] = Bytes::fromDouble(d.optimizerBytesTotal * rankFraction.value / dp);
        host[idx(TermId::Weights)] = Bytes::fromDouble(paramsOffloaded ? d.weightBytesTotal * share.params.value / dp : 0.0);
        d.hostBytesPerGpu = static_cast<double>(sumTerms(host).count());
    }
    if (stage >= 3) {
        // DeepSpeed estimate_zero3_model_states_mem_needs: 4 x largest layer
        // parameters (16-bit parameters and gradients of the gathered layer).
        // A frozen base gathers its stored (quantised) bytes and has no
        // gradients: FSDP all-gathers the flat storage of the current and
        // the prefetched unit (bitsandbytes quant_storage makes 4-bit
        // weights shardable; bitsandbytes docs, fsdp_qlora.md).
        const double gatheredBytes = lora ? d.weightBits.total() / 8.0 : d.regime.weights;
        Formula gather(record);
        gather.product()
            .times(sh::kLargestLayer, static_cast<double>(d.params.largestLayer))
            .times(text::gather::kGatheredUnits, 2.0)
            .times(text::gather::kGatheredBytes, gatheredBytes)
            .overUnlessOne(sh::kTp, share.tp)
            .cite(text::gather::kFromGather);
        persistent.set(TermId::GatherBuffer, gather.bytes());
    } else {
        persistent.set(TermId::GatherBuffer, none(record, text::gather::kWhyNoGather));
    }

    Formula allGradients(record);
    perTrainable(allGradients, gr::kGradientBytes, d.regime.gradients).cite(d.regime.source);
    Quantity gradients = shard(allGradients, 2).bytes();
    if (statesOffloaded) {
        // Gradients stream to the host through a reduce bucket: DeepSpeed's
        // reduce_bucket_size default of 5e8 elements (DeepSpeed config docs).
        Formula bucket(record);
        bucket.product().times(gr::kReduceBucket, 5e8).times(text::weights::kWeightBytes, d.regime.weights);
        gradients = smaller(gradients, bucket.note(gr::kWhyReduceBucket).cite(gr::kFromReduceBucket).bytes());
    }
    // At the start of backward the first gradients (lm_head, last layer) exist.
    Formula first(record);
    if (lora) {
        first.product()
            .times(sh::kTrainableParams, trainableParams)
            .timesUnlessOne(rankSymbol, rankFraction)
            .over(sh::kLayersHere, std::max<double>(1.0, static_cast<double>(share.layerCount)))
            .note(gr::kWhyFirstAdapterGradients);
    } else {
        const std::uint64_t head = share.last ? d.params.lmHead : 0;
        const bool headFirst = head >= d.params.largestLayer;
        first.product()
            .times(headFirst ? sh::kLmHeadParams : sh::kLargestLayer,
                   static_cast<double>(headFirst ? head : d.params.largestLayer))
            .overUnlessOne(sh::kTp, share.tp)
            .note(headFirst ? gr::kWhyFirstHeadGradients : gr::kWhyFirstLayerGradients);
    }
    first.times(gr::kGradientBytes, d.regime.gradients).cite(d.regime.source);
    const Quantity firstGradients = smaller(gradients, shard(first, 2).bytes());
    const Quantity accumulated = s.gradAccum > 1 ? noted(record, gradients, gr::kWhyAccumulated) : Quantity{};

    const ActivationBreakdown act = trainingActivations(m, s, run.dtypes, prepared.activationRates(), record);
    d.activationElementBytes = run.dtypes.compute;
    d.activationPerTokenPerLayer = act.perTokenPerLayer.value;
    d.activationBytesPerLayer = act.perLayer.value;
    d.activationOutsideLayers = act.outsideFirst.value + act.outsideLast.value;
    d.recomputeLayerBytes = act.recomputePeak.value;
    d.microBatchesInFlight = share.inFlight.value;

    const bool hasHead = !m.encoderOnly && share.last;
    d.logitsTokens = hasHead ? s.batch * s.contextTokens() : 0;
    const LogitsMode logitsMode = s.effectiveLogits();
    const bool kept = run.stack.keepsLogitsInBackward;
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
    const Derived perElementBackward = logitsBytesPerElement(logitsMode, run.logitsBytes, true, kept, record);
    const Quantity logitsForward = logits(logitsBytesPerElement(logitsMode, run.logitsBytes, false, kept, record));
    const Quantity logitsBackward = logits(perElementBackward);
    d.logitsElementBytes = perElementBackward.value;
    d.lossSavedElementBytes = lossSavedBytesPerElement(logitsMode, run.logitsBytes);

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

    // torch.autocast caches the 16-bit cast of each fp32 leaf that requires
    // grad (ATen autocast_mode.cpp cached_cast); a frozen fp32 weight is cast
    // again by every op, and the matmul saves that cast for backward when its
    // input requires grad (derivatives.yaml mm: mat2 saved for self's
    // gradient). Quantised weights are never autocast.
    Quantity autocast;
    if (run.autocast) {
        Formula casts(record);
        if (!lora)
            casts.product(ws::kPartWeightCasts)
                .times(sh::kParams, static_cast<double>(d.params.total))
                .timesUnlessOne(sh::kRankShare, share.params)
                .times(ws::kAutocastCopies, d.regime.autocastCopies);
        else if (run.trainable.weights >= 4.0)
            casts.product(ws::kPartAdapterCasts)
                .times(sh::kTrainableParams, trainableParams)
                .timesUnlessOne(rankSymbol, rankFraction)
                .times(ws::kCastBytes, 2.0);
        if (lora && run.unquantizedBytes >= 4.0) {
            if (isFloatFormat(s.effectiveWeights()))
                casts.product(ws::kPartFrozenLinearCasts)
                    .times(ws::kCastBytes, 2.0)
                    .times(ws::kLinearParams, static_cast<double>(d.params.linear))
                    .timesUnlessOne(text::rank::kLayerShare, share.layers)
                    .overUnlessOne(sh::kTp, share.tp);
            if (share.last && !m.encoderOnly)
                casts.product(ws::kPartFrozenHeadCast)
                    .times(ws::kCastBytes, 2.0)
                    .times(sh::kVocab, static_cast<double>(m.vocab))
                    .times(sh::kHidden, static_cast<double>(m.hidden))
                    .overUnlessOne(sh::kTp, share.tp);
        }
        autocast = casts.cite(ws::kFromAutocast).bytes();
        d.autocastBytes = casts.value();
    }
    Quantity dequant;
    Quantity headDequant;
    const auto dequantised = [&](bool lmHead) {
        Formula bytes(record);
        bytes.product(lmHead ? ws::kPartHeadDequant : ws::kPartDequant)
            .times(ws::kDequantBytes, run.dequantBytesPerElement)
            .times(ws::kLargestMatrix, prepared.largestDequantizedMatrix(lmHead))
            .overUnlessOne(sh::kTp, share.tp)
            .cite(ws::kFromDequant);
        return bytes;
    };
    if (run.dequantBytesPerElement > 0) {
        const Formula layer = dequantised(false);
        dequant = layer.bytes();
        d.dequantBytes = layer.value();
        if (run.lmHeadQuantized && share.last) {
            const Formula head = dequantised(true);
            headDequant = head.bytes();
            d.headDequantBytes = head.value();
        }
    }

    // Forward: the end (every activation, the logits and the loss) or the
    // inside of the last layer (a dequantised weight of the frozen base).
    const Quantity headWorkspace = together(record, {autocast, headDequant});
    const HeadAndLayer forward = headAndLastLayer(persistent, accumulated, activations, logitsForward, headWorkspace,
                                                  together(record, {autocast, dequant}));
    est.phases.push_back(largerMoment(Phase::Forward, s, overheads, record,
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
    const Quantity startGrads = larger(accumulated, firstGradients);
    const HeadAndLayer backward =
        headAndLastLayer(persistent, startGrads, activations, logitsBackward, headWorkspace,
                         together(record, {autocast, dequant, layerBackward.cite(ws::kFromCheckpoint).bytes()}));
    MomentTerms backwardEnd = persistent;
    backwardEnd.set(TermId::Gradients, gradients);
    est.phases.push_back(largerMoment(Phase::Backward, s, overheads, record,
                                      {{QT_TRANSLATE_NOOP("Derivation", "loss backward"), &backward.head},
                                       {QT_TRANSLATE_NOOP("Derivation", "last layer's backward"), &backward.layer},
                                       {QT_TRANSLATE_NOOP("Derivation", "end of backward"), &backwardEnd}}));

    MomentTerms step = persistent;
    step.set(TermId::Gradients, gradients);
    if (!statesOffloaded) {
        const double temporary = optimizerStepTemporaryBytesPerParam(s.optimizer, s.effectiveOptimizerImpl(),
                                                                     d.regime.optimizerStateBytes);
        Formula bytes(record);
        if (temporary > 0)
            shard(perTrainable(bytes, ws::kStepTemporaryBytes, temporary), 1)
                .note(ws::kWhyForeachTemporary)
                .cite(ws::kFromOptimizerStep);
        else
            bytes.note(ws::kWhyNoStepTemporary);
        step.set(TermId::Workspace, bytes.bytes());
    }
    est.phases.push_back(largerMoment(Phase::OptimizerStep, s, overheads, record, {{QT_TRANSLATE_NOOP("Derivation", "optimizer step"), &step}}));
}

/// The draft model's weight bytes, stored as the scenario's weight format says.
Derived draftWeights(const Scenario &s, FormulaStore *store)
{
    const Scenario draft = draftScenario(s);
    EstimateDetails scratch;
    return weightStorage(draft, countParameters(draft.model), TrainingRun{}, scratch, store);
}

/// One GPU of a llama.cpp process: its layers' weights and KV cache, and
/// the compute buffer's peak, inside a layer or at the output layer.
void estimateLlamaCpp(const Scenario &s, int device, const Derived &modelWeights, const Overheads &overheads,
                      Estimate &est, FormulaRecord *record)
{
    namespace lc = text::llamacpp;
    EstimateDetails &d = est.details;
    const LlamaCppLayout layout = llamaCppLayout(s);
    const LlamaCppShare share = llamaCppShare(s, layout, device);
    d.device = device;
    d.layersOnGpu = share.layers;
    d.activationElementBytes = 4;
    d.kvElementBytes = s.kvDtype ? elementBytes(*s.kvDtype) : 2.0;
    const LlamaCppHost host = llamaCppHost(s, d.params, modelWeights.value, layout);
    const double perGpu = 1.0 / std::max(1, s.gpus);
    d.hostTermsPerGpu[idx(TermId::Weights)] = Bytes::fromDouble(host.weights * perGpu);
    d.hostTermsPerGpu[idx(TermId::KvCache)] = Bytes::fromDouble(host.kvCache * perGpu);
    d.hostTermsPerGpu[idx(TermId::Workspace)] = Bytes::fromDouble(host.compute * perGpu);
    d.hostTermsPerGpu[idx(TermId::Logits)] = Bytes::fromDouble(host.output * perGpu);
    d.hostBytesPerGpu = static_cast<double>(sumTerms(d.hostTermsPerGpu).count());
    d.hostWeightBytes = host.weights - host.input;
    d.hostExpertBytes = host.experts;
    d.hostKvBytes = host.kvCache;
    d.expertBytesOnGpu = llamaCppGpuExpertBytes(s, d.params, modelWeights.value, share);

    MomentTerms terms;
    Derived weights = llamaCppGpuWeights(s, d.params, modelWeights.value, share, record);
    std::optional<LlamaCppDraft> draft;
    if (s.draftInUse()) {
        draft = llamaCppDraft(s, draftWeights(s, record), device, record);
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
        head.set(TermId::Logits, none(record, lc::kWhyOutputOnHost));
    }
    est.phases.push_back(largerMoment(Phase::Inference, s, overheads, record,
                                      {{QT_TRANSLATE_NOOP("Derivation", "inside a layer"), &layer},
                                       {QT_TRANSLATE_NOOP("Derivation", "output layer"), &head}}));
}

/// Weights kept in host memory and run on the GPU (hostoffload.h): what
/// stays on this GPU, what the host holds and what crosses the host link
/// at every decode step. Parameters are priced at the model's bytes per
/// parameter, as the rank's share is.
void addHostOffload(Formula &weights, const Scenario &s, const RankShare &share, const Derived &modelWeights,
                    EstimateDetails &d, FormulaRecord *record)
{
    namespace o = text::offload;
    const ParameterCounts &pc = d.params;
    const double perParam = pc.total > 0 ? modelWeights.value / static_cast<double>(pc.total) : 0.0;
    if (share.lmHeadOnHost) {
        // accelerate: every step copies each offloaded module to the main GPU.
        const double hostBytes = deviceMapHostParams(s, pc) * perParam;
        d.hostLinkBytes = hostBytes;
        if (share.first)
            weights.product(o::kPartRunning)
                .times(o::kModuleParams, offloadedModuleParams(s.model, pc))
                .times(o::kBytesPerParam, perParam)
                .note(o::kWhyOneModuleAtATime)
                .cite(o::kFromAccelerate);
        d.hostBytesPerGpu = hostBytes / std::max(1, s.gpus);
        d.hostTermsPerGpu[idx(TermId::Weights)] = Bytes::fromDouble(d.hostBytesPerGpu);
    } else if (s.serving == ServingEngine::Vllm && s.cpuOffloadGib > 0) {
        // vLLM: each worker offloads its own layers; its kernels read them
        // over its own link, the routed experts only where tokens go.
        const double experts = static_cast<double>(pc.experts) / s.parallel.ep;
        const double dense = std::max(0.0, static_cast<double>(pc.total) - static_cast<double>(pc.embedding + pc.lmHead)
                                                - static_cast<double>(pc.experts));
        const double layerBytes = perParam * (dense + experts) * share.layers.value / share.tp;
        const Derived offloaded = vllmOffloadedBytes(s, layerBytes, record);
        weights.product(o::kPartOffloaded).times(o::kOffloaded, offloaded).times(o::kTakenAway, -1.0);
        const double hostBytes = offloaded.value;
        const double expertShare = dense + experts > 0 ? experts / (dense + experts) : 0.0;
        d.hostLinkBytes = hostBytes;
        d.hostLinkExpertBytes = hostBytes * expertShare;
        d.expertBytesOnGpu -= d.hostLinkExpertBytes;
        d.hostBytesPerGpu = hostBytes;
        d.hostTermsPerGpu[idx(TermId::Weights)] = Bytes::fromDouble(d.hostBytesPerGpu);
    }
}

void estimateInference(const Scenario &s, Stage stageRole, int device, const Derived &modelWeights,
                       const Overheads &overheads, Estimate &est, FormulaRecord *record)
{
    if (usesLlamaCpp(s)) {
        estimateLlamaCpp(s, device >= 0 ? device : (stageRole == Stage::Last ? s.gpus - 1 : 0), modelWeights,
                         overheads, est, record);
        return;
    }
    namespace sh = text::shared;
    EstimateDetails &d = est.details;
    const ModelSpec &m = s.model;
    const WeightFormat wf = s.effectiveWeights();
    const double e = isFloatFormat(wf) ? elementBytes(wf) : 2.0;
    d.activationElementBytes = e;
    const RankShare share = rankShare(s, d.params, stageRole, record);
    d.layersOnGpu = share.layerCount;

    MomentTerms terms;
    // The draft runs beside the sampler: on the last pipeline stage.
    const bool draftHere = s.draftInUse() && share.last;
    Formula weights(record);
    weights.product(draftHere ? text::draft::kPartTarget : nullptr)
        .times(sh::kModelWeights, modelWeights)
        .timesUnlessOne(sh::kRankShare, share.params);
    // The routed experts' share of the target's weights, by parameters.
    if (d.params.total > 0)
        d.expertBytesOnGpu = weights.value() * static_cast<double>(d.params.experts) / static_cast<double>(d.params.total);
    addHostOffload(weights, s, share, modelWeights, d, record);
    if (draftHere)
        addDraftWeights(weights, s, draftWeights(s, record), share.tp);
    terms.set(TermId::Weights, weights.bytes());
    d.kvElementBytes = s.kvDtype ? elementBytes(*s.kvDtype) : e;
    if (!m.encoderOnly) {
        // Offloaded layers run here and keep their cache here.
        const std::uint64_t cacheLayers = share.layerCount + share.hostLayersRunHere;
        const Derived values = cachedValuesPerLayerToken(m, s.serving, share.tp, record);
        const Derived cached = cachedLayerTokens(m, cacheLayers, s.contextTokens(), record);
        const double attentionHere = static_cast<double>(m.attentionLayers() * cacheLayers / std::max<std::uint64_t>(1, m.layers));
        d.kvBytesPerToken = attentionHere * values.value * d.kvElementBytes;
        Formula kv(record);
        kv.product(m.hasRecurrentState() ? text::kv::kPartAttentionCache : (draftHere ? text::draft::kPartTarget : nullptr))
            .times(text::kv::kCachedValues, values)
            .times(text::kv::kKvElementBytes, d.kvElementBytes)
            .times(text::kv::kCachedTokens, cached)
            .times(sh::kBatch, static_cast<double>(s.batch))
            .timesUnlessOne(sh::kBeams, static_cast<double>(s.beams));
        if (m.hasRecurrentState())
            kv.product(text::kv::kPartLinearState)
                .times(text::kv::kStatePerSequence,
                       linearStatePerSequence(m, s.serving, cacheLayers, share.tp, e, record))
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
    if (s.serving == ServingEngine::Vllm) {
        const VllmProfile profile = vllmProfile(m, s, e, record);
        d.workspaceBytes = profile.forward.value;
        d.samplerRows = hasHead ? profile.samplerRows : 0;
        forward.set(TermId::Workspace, {Bytes::fromDouble(profile.forward.value), profile.forward.how});
        head.set(TermId::Logits,
                 hasHead ? Quantity{Bytes::fromDouble(profile.sampler.value), profile.sampler.how} : noHead);
        est.phases.push_back(largerMoment(Phase::Inference, s, overheads, record,
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
        largerMoment(Phase::Inference, s, overheads, record, {{QT_TRANSLATE_NOOP("Derivation", "prefill"), &forward}, {QT_TRANSLATE_NOOP("Derivation", "logits"), &head}}));
}

/// One stage's estimate; the caller keeps the most loaded stage. With a
/// record, every formula the stage evaluates is kept in it. `device`:
/// llama.cpp's GPU of its layer split (-1: the stage's).
Estimate estimateStage(const Scenario &s, const PreparedScenario &prepared, Stage stage,
                       FormulaRecord *record = nullptr, int device = -1)
{
    Estimate est;
    est.phases.reserve(3);
    EstimateDetails &d = est.details;
    d.params = prepared.params();
    d.cudaOverheadMib = cudaOverheadMib(s);
    // llama.cpp's layer split copies activations between GPUs itself.
    const Overheads overheads{cudaOverhead(s, record), usesLlamaCpp(s)
                                                           ? none(record, text::llamacpp::kWhyNoNccl)
                                                           : ncclBuffers(s.gpus, record)};
    if (s.isTraining()) {
        d.regime = prepared.run().trainable;
        const Derived modelWeights = weightStorage(s, d.params, prepared.run(), d, record);
        estimateTraining(s, prepared, stage, modelWeights, overheads, est, record);
    } else {
        d.regime = regimeBytes(s.regime);
        const Derived modelWeights = weightStorage(s, d.params, TrainingRun{}, d, record);
        estimateInference(s, stage, device, modelWeights, overheads, est, record);
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

double hostBytesPerMachine(const Scenario &s, const Estimate &e)
{
    return e.details.hostBytesPerGpu * std::min(s.gpus, std::max(1, s.parallel.gpusPerNode));
}

double kvCacheBytesPerToken(const Scenario &s, double elementBytes)
{
    return static_cast<double>(s.model.attentionLayers())
        * cachedValuesPerLayerToken(s.model, s.serving, 1.0).value * elementBytes;
}

std::vector<Estimate> estimateStages(const Scenario &s)
{
    const PreparedScenario prepared(s);
    if (!prepared.errors(s).empty())
        return {estimate(s, prepared)};
    if (usesLlamaCpp(s) && s.gpus > 1) {
        std::vector<Estimate> devices;
        for (int device : llamaCppDevicesToEstimate(s))
            devices.push_back(estimateStage(s, prepared, Stage::Only, nullptr, device));
        return devices;
    }
    if (pipelineStages(s) > 1)
        return {estimateStage(s, prepared, Stage::First), estimateStage(s, prepared, Stage::Last)};
    return {estimateStage(s, prepared, Stage::Only)};
}

void recordFormulas(const Scenario &s, const Estimate &e, FormulaRecord &record)
{
    if (!e.isValid())
        return;
    const PreparedScenario prepared(s, &record);
    const std::string &name = e.details.stage;
    const Stage stage = name == "first" ? Stage::First : (name == "last" ? Stage::Last : Stage::Only);
    estimateStage(s, prepared, stage, &record, e.details.device);
}

Estimate estimate(const Scenario &s) { return estimate(s, PreparedScenario(s)); }

Estimate estimateNumbers(const Scenario &s, const PreparedScenario &prepared)
{
    Estimate est;
    est.errors = prepared.errors(s);
    if (!est.errors.empty())
        return est;
    if (usesLlamaCpp(s) && s.gpus > 1) {
        // The most loaded GPU of llama.cpp's split.
        bool first = true;
        for (int device : llamaCppDevicesToEstimate(s)) {
            Estimate one = estimateStage(s, prepared, Stage::Only, nullptr, device);
            if (first || one.total > est.total)
                est = std::move(one);
            first = false;
        }
    } else if (pipelineStages(s) > 1) {
        // The most loaded rank: the first stage (activations in flight,
        // embedding) or the last (lm_head, logits).
        Estimate first = estimateStage(s, prepared, Stage::First);
        Estimate last = estimateStage(s, prepared, Stage::Last);
        est = first.total >= last.total ? std::move(first) : std::move(last);
    } else {
        est = estimateStage(s, prepared, Stage::Only);
    }
    return est;
}

Estimate estimate(const Scenario &s, const PreparedScenario &prepared)
{
    Estimate est = estimateNumbers(s, prepared);
    if (!est.isValid())
        return est;
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
