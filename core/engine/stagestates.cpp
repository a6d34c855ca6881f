#include "core/engine/stagestates.h"

#include "core/base/translatable.h"
#include "core/engine/preparedscenario.h"
#include "core/memory/draft.h"
#include "core/memory/formulatext.h"
#include "core/memory/hostoffload.h"
#include "core/memory/inference.h"
#include "core/memory/loadedweights.h"
#include "core/memory/logits.h"
#include "core/memory/overheads.h"
#include "core/memory/training.h"
#include "core/memory/trainingrun.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace core {

namespace {

/// A moment's terms end at the gather buffer: the overheads after it are
/// added to the moment (largerMoment).
constexpr std::size_t kTensorTerms = termIndex(TermId::GatherBuffer) + 1;

/// The tensors a moment holds, as the reserve's formula sums them: every
/// term (TermId order) left to right. `total` is the same sum in whole
/// bytes. Recorded, one product per term; on the hot path (a grid's six
/// moments per point) a sum below 2^53 bytes is the whole-byte sum itself,
/// every partial sum being an exact double, and a larger one is added as
/// the formula adds it (0 + x and 1 * x are exact): bit for bit the
/// recorded value either way.
Derived tensorBytes(const TermBytes &terms, Bytes total, FormulaStore *store)
{
    if (store) {
        Formula tensors(store);
        for (std::size_t i = 0; i < kTensorTerms; ++i)
            if (terms[i].count() > 0)
                tensors.product(termLabel(static_cast<TermId>(i)))
                    .times(text::termSymbol(static_cast<TermId>(i)), static_cast<double>(terms[i].count()));
        return tensors.derived();
    }
    constexpr std::uint64_t kExactDoubles = std::uint64_t(1) << 53;
    if (total.count() < kExactDoubles)
        return {static_cast<double>(total.count()), nullptr};
    double sum = 0;
    for (std::size_t i = 0; i < kTensorTerms; ++i)
        sum += static_cast<double>(terms[i].count());
    return {sum, nullptr};
}

/// The allocator's reserve at a moment holding `terms`, `tensors` bytes in
/// all. The caching allocator rounds blocks and keeps freed ones: reserved
/// exceeds allocated (PyTorch CUDA memory docs; ZeRO paper §III-B on
/// fragmentation). A planning margin, editable.
Quantity allocatorReserve(const Scenario &s, const TermBytes &terms, Bytes tensors, FormulaStore *store)
{
    namespace o = text::overheads;
    if (usesGgmlBuffers(s))
        return none(store, text::llamacpp::kWhyNoReserve);
    Formula reserve(store);
    reserve.product()
        .times(o::kTensorBytes, tensorBytes(terms, tensors, store))
        .times(o::kReserveShare, s.reservePercent / 100.0);
    return reserve.cite(o::kFromAllocator).bytes();
}

/// Values per scale: the checkpoint's stated group size (compressed-tensors
/// group_size) where its own format loads, else the scenario's.
int weightGroupSize(const Scenario &s)
{
    return s.loadsCheckpointFormat() && s.model.checkpointGroupSize > 0 ? s.model.checkpointGroupSize : s.groupSize;
}

/// The weight format replaces the layers' linear modules only (the
/// libraries that quantise nn.Linear, and a checkpoint's own fp8 or int8),
/// leaving embeddings, lm_head, norms and biases in the compute dtype;
/// plain fp8 and int8 choices quantise every parameter (the notes' figure).
bool quantizesLinearLayersOnly(const Scenario &s)
{
    const WeightFormat wf = s.effectiveWeights();
    const bool checkpointFp8OrInt8 = s.loadsCheckpointFormat() && (wf == WeightFormat::Fp8 || wf == WeightFormat::Int8);
    return (formatInfo(wf).keepsEmbeddingsUnquantized || checkpointFp8OrInt8) && !s.quantizeEmbeddings;
}

/// Of those, only the routed experts: gpt-oss ships them alone in MXFP4
/// (quantization_config modules_to_not_convert).
bool quantizesExpertsOnly(const Scenario &s)
{
    return s.effectiveWeights() == WeightFormat::Mxfp4 && s.model.moe.isMoe();
}

/// Some parameters as a weight format stores them: in the format, in the
/// checkpoint's second format, and unquantised.
struct WeightClasses
{
    double quantized = 0;
    double rest = 0;
    double unquantized = 0;
};

/// Which parameters a scenario's format stores: the scenario's switches,
/// decided once (weightClasses applies them to any sums).
struct WeightClassRule
{
    bool linearOnly = false;
    bool expertsOnly = false;
    bool lmHead = false;
    bool namedModules = false;
    std::optional<WeightFormat> restFormat;
};

WeightClassRule weightClassRule(const Scenario &s, const TrainingRun &run)
{
    WeightClassRule rule;
    // A checkpoint in its own format (fp8 and int8 too, which as plain
    // choices quantise everything) was written by a library that replaced
    // its linear layers: vLLM's Fp8Config.get_quant_method quantises
    // LinearBase and FusedMoE layers only, never the embedding or
    // ParallelLMHead (model_executor/layers/quantization/fp8.py), and
    // Qwen's and DeepSeek's fp8 releases keep both in bf16.
    // Quantisation libraries replace nn.Linear layers only; embeddings,
    // lm_head, norms and biases stay in the 16-bit compute dtype (fp32
    // after PEFT's kbit upcast; LitGPT's Fabric plugin quantises the
    // lm_head too). gpt-oss ships only its experts in MXFP4 (config
    // quantization_config, modules_to_not_convert).
    rule.linearOnly = quantizesLinearLayersOnly(s);
    rule.expertsOnly = quantizesExpertsOnly(s);
    rule.lmHead = run.lmHeadQuantized;
    // The checkpoint's quantisation config names the modules it
    // quantised (compressed-tensors ignore, ModelOpt exclude_modules), and
    // may ship the layers' other linear modules in a second format.
    const bool ownFormat = s.loadsCheckpointFormat();
    rule.namedModules = ownFormat && s.model.namesQuantizedModules();
    rule.restFormat = ownFormat ? parseFormat(s.model.checkpointRestFormat) : std::nullopt;
    return rule;
}

/// Bits per weight of the checkpoint's second format, at the scenario's
/// group size (the checkpoint's stated group size is its main format's).
double restFormatBits(const Scenario &s, const WeightClassRule &rule)
{
    return rule.restFormat ? formatBits(*rule.restFormat, s.groupSize, static_cast<double>(s.model.hidden)).total() : 0.0;
}

/// The one rule for which parameters the format stores, applied to `sums`
/// (the model's, or one placement's).
WeightClasses weightClasses(const WeightClassRule &rule, const FormatSums &sums)
{
    WeightClasses c;
    c.quantized = static_cast<double>(sums.total);
    if (rule.linearOnly)
        c.quantized = static_cast<double>(rule.expertsOnly ? sums.experts : sums.linear)
            + (rule.lmHead ? static_cast<double>(sums.lmHead) : 0.0);
    if (rule.namedModules)
        c.quantized = static_cast<double>(sums.checkpointQuantized);
    if (rule.restFormat)
        c.rest = static_cast<double>(sums.checkpointRestLinear);
    c.unquantized = static_cast<double>(sums.total) - c.quantized - c.rest;
    return c;
}

/// Splits the model's weight bytes into quantised and unquantised parts;
/// `run` says how a training stack stores the frozen base. Returns the
/// whole model's weight bytes, before any split.
Derived weightStorage(const Scenario &s, const ParameterCounts &pc, const TrainingRun &run,
                      const WeightClassRule &rule, EstimateDetails &d,
                      FormulaStore *store)
{
    namespace w = text::weights;
    const WeightFormat wf = s.effectiveWeights();
    d.weightBits = formatBits(wf, weightGroupSize(s), static_cast<double>(s.model.hidden));
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
        const WeightClasses classes = weightClasses(rule, pc);
        const double quantized = classes.quantized;
        const double rest = classes.rest;
        const double unquantized = classes.unquantized;
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
        if (rest > 0)
            bytes.product(w::kPartRestFormat)
                .times(w::kRestParams, rest)
                .times(w::kBitsPerWeight, restFormatBits(s, rule))
                .over(w::kBitsPerByte, 8.0)
                .note(w::kWhyRestFormat);
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

/// Amounts of each WeightPlacement: parameters, or weight bytes.
struct Placed
{
    std::array<double, kWeightPlacements> at{};
    double total = 0;

    double operator[](WeightPlacement p) const { return at[static_cast<std::size_t>(p)]; }
};

Placed placedParams(const ParameterCounts &pc)
{
    Placed placed;
    for (std::size_t i = 0; i < kWeightPlacements; ++i)
        placed.at[i] = static_cast<double>(pc.byPlacement[i].total);
    placed.total = static_cast<double>(pc.total);
    return placed;
}

/// The weight bytes of each placement, where a placement's bytes per
/// parameter differ from another's (a quantised format beside 16-bit
/// tables and norms): each by weightClasses, at the widths
/// weightStorage prices. Empty where every parameter costs the same (full
/// training, one dtype) or only the files' dtype totals are known.
std::optional<Placed> placedWeightBytes(const Scenario &s, const ParameterCounts &pc, const TrainingRun &run,
                                        const WeightClassRule &rule, const EstimateDetails &d)
{
    if (s.mode == Mode::Train || s.checkpointInUse() || pc.total == 0)
        return std::nullopt;
    const double quantizedBytes = d.weightBits.total() / 8.0;
    if (quantizedBytes == run.unquantizedBytes && !rule.restFormat)
        return std::nullopt; // one width for every parameter
    const double restBits = restFormatBits(s, rule);
    Placed bytes;
    bool uniform = true;
    const double perParam = d.weightBytesTotal / static_cast<double>(pc.total);
    for (std::size_t i = 0; i < kWeightPlacements; ++i) {
        const FormatSums &sums = pc.byPlacement[i];
        const WeightClasses c = weightClasses(rule, sums);
        bytes.at[i] = c.quantized * quantizedBytes + c.rest * restBits / 8.0 + c.unquantized * run.unquantizedBytes;
        if (sums.total > 0 && std::abs(bytes.at[i] / static_cast<double>(sums.total) - perParam) > 1e-9 * perParam)
            uniform = false;
    }
    bytes.total = d.weightBytesTotal;
    if (uniform)
        return std::nullopt;
    return bytes;
}

/// Bytes per parameter of the layers, the lm_head and the experts: from
/// each placement's bytes, or the model's mean where every parameter costs
/// the same.
WeightWidths weightWidths(const ParameterCounts &pc, const std::optional<Placed> &placed, double modelBytes)
{
    const double perParam = pc.total > 0 ? modelBytes / static_cast<double>(pc.total) : 0.0;
    if (!placed)
        return {perParam, perParam, perParam};
    const auto width = [perParam](double bytes, std::uint64_t params) {
        return params > 0 ? bytes / static_cast<double>(params) : perParam;
    };
    const Placed &p = *placed;
    const double endBytes = p[WeightPlacement::Embedding] + p[WeightPlacement::LmHead];
    return {width(p.total - endBytes, pc.total - std::min(pc.total, pc.embedding + pc.lmHead)),
            width(p[WeightPlacement::LmHead], pc.lmHead), width(p[WeightPlacement::Experts], pc.experts)};
}

/// The amounts that tensor parallelism does not split evenly (tpSplitOf):
/// the replicated ones, and each attention kind's key-value projections
/// where the ranks outnumber its heads (each head then lives on tp / heads
/// ranks: vLLM QKVParallelLinear num_kv_head_replicas).
struct TpParts
{
    struct KeyValue
    {
        double amount = 0;
        double heads = 1;
    };
    double replicated = 0;
    std::array<KeyValue, 2> keyValue{}; ///< the full-attention kind, the windowed kind

    double amount() const { return replicated + keyValue[0].amount + keyValue[1].amount; }
    double amountOnRank() const
    {
        return replicated + keyValue[0].amount / keyValue[0].heads + keyValue[1].amount / keyValue[1].heads;
    }
};

TpParts tpParts(const ModelSpec &m, const Placed &placed, int tp)
{
    TpParts parts;
    if (tp <= 1)
        return parts;
    parts.replicated = placed[WeightPlacement::Replicated];
    const auto headsFewerThanRanks = [tp](double amount, std::uint64_t heads) {
        return heads > 0 && static_cast<std::uint64_t>(tp) > heads
            ? TpParts::KeyValue{amount, static_cast<double>(heads)}
            : TpParts::KeyValue{};
    };
    parts.keyValue[0] = headsFewerThanRanks(placed[WeightPlacement::KeyValue], fullAttentionShape(m).kvHeads);
    parts.keyValue[1] = headsFewerThanRanks(placed[WeightPlacement::WindowedKeyValue], slidingAttentionShape(m).kvHeads);
    return parts;
}

/// The symbols a share is written in: of the parameters or of the weight bytes.
struct ShareSymbols
{
    const Symbol &share;
    const Symbol &here;
    const Symbol &layers;
    const Symbol &experts;
    const Symbol &embedding;
    const Symbol &lmHead;
    const Symbol &ends;
    const Symbol &replicated;
    const Symbol &keyValue;
    const Symbol &total;
    const char *why; ///< a note on what the share is of, or null
};

const ShareSymbols kParamSymbols{text::shared::kRankShare,       text::rank::kParamsHere,
                                 text::rank::kLayerParams,       text::rank::kExpertParams,
                                 text::rank::kEmbeddingParams,   text::shared::kLmHeadParams,
                                 text::rank::kEndParams,         text::rank::kReplicatedParams,
                                 text::rank::kKeyValueParams,    text::shared::kParams,
                                 nullptr};
const ShareSymbols kByteSymbols{text::shared::kWeightShare,     text::rank::kBytesHere,
                                text::rank::kLayerBytes,        text::rank::kExpertBytes,
                                text::rank::kEmbeddingBytes,    text::rank::kLmHeadBytes,
                                text::rank::kEndBytes,          text::rank::kReplicatedBytes,
                                text::rank::kKeyValueBytes,     text::shared::kModelWeights,
                                text::rank::kWhyShareOfBytes};

/// `placed` as tensor parallelism splits it: the parts it does not split
/// evenly, and the rest of the layers beside the routed experts.
struct TpSplitAmounts
{
    TpParts apart;
    double layers = 0;
};

TpSplitAmounts tpSplitAmounts(const ModelSpec &m, const Placed &placed, int tp)
{
    TpSplitAmounts split;
    split.apart = tpParts(m, placed, tp);
    split.layers = std::max(0.0, placed.total - placed[WeightPlacement::Embedding] - placed[WeightPlacement::LmHead]
                                     - placed[WeightPlacement::Experts] - split.apart.amount());
    return split;
}

/// This rank's share of `placed` (split by tensor parallelism as `split`
/// says): its layers' part over tp (its experts' over ep too), its stage's
/// embedding or lm_head, and the parts tensor parallelism does not split.
Derived shareOf(const Scenario &s, const RankShare &share, const Placed &placed, const TpSplitAmounts &split,
                const ShareSymbols &sym, FormulaStore *store)
{
    namespace r = text::rank;
    const auto pp = static_cast<std::uint64_t>(pipelineStages(s));
    const double embedding = placed[WeightPlacement::Embedding];
    const double lmHead = placed[WeightPlacement::LmHead];
    const double experts = placed[WeightPlacement::Experts];
    const TpParts &apart = split.apart;
    const double layers = split.layers;
    Formula here(store);
    here.product(r::kPartLayers).times(sym.layers, layers).timesUnlessOne(r::kLayerShare, share.layers);
    if (experts > 0)
        here.product(r::kPartExperts)
            .times(sym.experts, experts)
            .overUnlessOne(r::kEp, s.parallel.ep)
            .timesUnlessOne(r::kLayerShare, share.layers);
    if (pp > 1) {
        if (share.first && !share.last)
            here.product(r::kPartEmbedding).times(sym.embedding, embedding);
        else if (!share.lmHeadOnHost)
            here.product(r::kPartLmHead).times(sym.lmHead, lmHead);
    } else if (share.lmHeadOnHost) {
        here.product(text::offload::kPartEmbeddingOnly).times(sym.embedding, embedding);
    } else {
        here.product(r::kPartEnds).times(sym.ends, embedding + lmHead);
    }
    const double total = std::max(1.0, placed.total);
    Formula fraction(store);
    fraction.product().times(sym.here, here.derived()).over(sym.total, total).overUnlessOne(text::shared::kTp, share.tp);
    if (apart.replicated > 0)
        fraction.product(r::kPartReplicated)
            .times(sym.replicated, apart.replicated)
            .timesUnlessOne(r::kLayerShare, share.layers)
            .over(sym.total, total);
    for (const TpParts::KeyValue &kv : apart.keyValue)
        if (kv.amount > 0)
            fraction.product(r::kPartKeyValue)
                .times(sym.keyValue, kv.amount)
                .timesUnlessOne(r::kLayerShare, share.layers)
                .over(sym.total, total)
                .over(r::kKeyValueSplit, kv.heads);
    if (apart.amount() > 0)
        fraction.cite(r::kFromReplicated);
    if (sym.why)
        fraction.note(sym.why);
    return fraction.cite(r::kFromSplit).derived();
}

RankShare rankShare(const Scenario &s, const ParameterCounts &pc, const std::optional<Placed> &weightBytes, Stage stage,
                    FormulaStore *store)
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
    const Placed params = placedParams(pc);
    const TpSplitAmounts paramSplit = tpSplitAmounts(m, params, share.tp);
    share.params = shareOf(s, share, params, paramSplit, kParamSymbols, store);
    share.weights = weightBytes
        ? shareOf(s, share, *weightBytes, tpSplitAmounts(m, *weightBytes, share.tp), kByteSymbols, store)
        : share.params;
    share.weightSymbol = weightBytes ? &text::shared::kWeightShare : &text::shared::kRankShare;
    share.expertParamsHere = share.layers.value * params[WeightPlacement::Experts] / s.parallel.ep / share.tp;
    share.layerParamsHere = share.layers.value * (paramSplit.layers / share.tp + paramSplit.apart.amountOnRank())
        + share.expertParamsHere;
    return share;
}

/// The draft model's weight bytes, stored as the scenario's weight format says.
Derived draftWeights(const Scenario &s, FormulaStore *store)
{
    const Scenario draft = draftScenario(s);
    EstimateDetails scratch;
    const TrainingRun noRun;
    return weightStorage(draft, countParameters(draft.model), noRun, weightClassRule(draft, noRun), scratch, store);
}

/// Weights kept in host memory and run on the GPU (hostoffload.h): what
/// stays on this GPU, what the host holds and what crosses the host link
/// at every decode step. Layers and the lm_head are priced at their own
/// widths, as the rank's share is.
void addHostOffload(Formula &weights, const Scenario &s, const RankShare &share, EstimateDetails &d,
                    FormulaStore *record)
{
    namespace o = text::offload;
    const ParameterCounts &pc = d.params;
    const WeightWidths &widths = share.widths;
    if (share.lmHeadOnHost) {
        // accelerate: every step copies each offloaded module to the main
        // GPU; the larger of an average layer and the lm_head is there at once.
        const double hostBytes = deviceMapHostBytes(s, pc, widths);
        d.hostLinkBytes = hostBytes;
        const double layerParams = averageLayerParams(s.model, pc);
        const auto headParams = static_cast<double>(pc.lmHead);
        const bool layerLarger = layerParams * widths.layer >= headParams * widths.lmHead;
        if (share.first)
            weights.product(o::kPartRunning)
                .times(o::kModuleParams, layerLarger ? layerParams : headParams)
                .times(o::kBytesPerParam, layerLarger ? widths.layer : widths.lmHead)
                .note(o::kWhyOneModuleAtATime)
                .cite(o::kFromAccelerate);
        d.hostBytesPerGpu = hostBytes / std::max(1, s.gpus);
        d.hostTermsPerGpu[termIndex(TermId::Weights)] = Bytes::fromDouble(d.hostBytesPerGpu);
    } else if (runtimeBehaviour(s.serving).offloadsWeightBytes && s.cpuOffloadGib > 0) {
        // vLLM: each worker offloads its own layers; its kernels read them
        // over its own link, the routed experts only where tokens go.
        const double layerBytes = widths.layer * share.layerParamsHere;
        const Derived offloaded = vllmOffloadedBytes(s, layerBytes, record);
        weights.product(o::kPartOffloaded).times(o::kOffloaded, offloaded).times(o::kTakenAway, -1.0);
        const double hostBytes = offloaded.value;
        const double expertShare = layerBytes > 0 ? share.expertParamsHere * widths.experts / layerBytes : 0.0;
        d.hostLinkBytes = hostBytes;
        d.hostLinkExpertBytes = hostBytes * expertShare;
        d.expertBytesOnGpu -= d.hostLinkExpertBytes;
        d.hostBytesPerGpu = hostBytes;
        d.hostTermsPerGpu[termIndex(TermId::Weights)] = Bytes::fromDouble(d.hostBytesPerGpu);
    }
}

/// Training's model states and the workspaces that scale with the weights:
/// everything of a training stage but its tokens' activations and logits.
void prepareTraining(const Scenario &s, const PreparedScenario &prepared, StageStates &st, FormulaStore *record)
{
    namespace sh = text::shared;
    namespace gr = text::gradients;
    namespace ws = text::workspace;
    EstimateDetails &d = st.details;
    const TrainingRun &run = prepared.run();
    const bool lora = run.adapters;
    const RankShare &share = st.share;
    const int dp = share.dp;
    const Offload offload = s.parallel.offload;
    // Offloading parameters (ZeRO-Infinity) shards them like stage 3.
    const int stage = dp > 1 || offload == Offload::OptimizerAndParams
        ? (offload == Offload::OptimizerAndParams ? 3 : s.zeroStage)
        : 0;
    d.shardDegree = dp;
    d.layersOnGpu = share.layerCount;
    d.kbitUpcast = run.kbitUpcast;
    d.microBatchesInFlight = share.inFlight.value;
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

    MomentTerms &persistent = st.persistent;
    const bool paramsOffloaded = offload == Offload::OptimizerAndParams;
    const bool statesOffloaded = offload != Offload::None;
    if (paramsOffloaded) {
        persistent.set(TermId::Weights, none(record, text::weights::kWhyParamsOffloaded));
    } else {
        Formula weights(record);
        weights.product().times(sh::kModelWeights, st.modelWeights).timesUnlessOne(*share.weightSymbol, share.weights);
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
        // fp32 training (or PEFT's fp32 adapters) updates the weights
        // themselves; pure bf16 chooses to keep no copy.
        if (d.regime.masterWeights == 0)
            master.note(d.regime.weights >= 4 ? text::master::kWhyTrainedInFp32 : text::master::kWhyNoMaster);
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
        host[termIndex(TermId::MasterWeights)] = Bytes::fromDouble(rankTrainable * d.regime.masterWeights / dp);
        host[termIndex(TermId::Gradients)] = Bytes::fromDouble(rankTrainable * 4.0 / dp);
        host[termIndex(TermId::Optimizer)] = Bytes::fromDouble(d.optimizerBytesTotal * rankFraction.value / dp);
        host[termIndex(TermId::Weights)] =
            Bytes::fromDouble(paramsOffloaded ? d.weightBytesTotal * share.weights.value / dp : 0.0);
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
        Formula unit(record);
        unit.product()
            .times(sh::kLargestLayer, static_cast<double>(d.params.largestLayer))
            .times(text::gather::kGatheredBytes, gatheredBytes)
            .overUnlessOne(sh::kTp, share.tp)
            .cite(text::gather::kFromShardedLoad);
        st.loadUnit = unit.bytes();
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
    st.gradients = gradients;
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
    st.accumulated = s.gradAccum > 1 ? noted(record, gradients, gr::kWhyAccumulated) : Quantity{};
    st.startGradients = larger(st.accumulated, firstGradients);

    const LogitsMode logitsMode = s.effectiveLogits();
    const bool kept = run.stack.keepsLogitsInBackward;
    st.logitsBackward = logitsBytesPerElement(logitsMode, run.logitsBytes, true, kept, record);
    st.logitsForward = logitsBytesPerElement(logitsMode, run.logitsBytes, false, kept, record);
    d.logitsElementBytes = st.logitsBackward.value;
    d.lossSavedElementBytes = lossSavedBytesPerElement(logitsMode, run.logitsBytes);

    // torch.autocast caches the 16-bit cast of each fp32 leaf that requires
    // grad (ATen autocast_mode.cpp cached_cast); a frozen fp32 weight is cast
    // again by every op, and the matmul saves that cast for backward when its
    // input requires grad (derivatives.yaml mm: mat2 saved for self's
    // gradient). Quantised weights are never autocast.
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
            if (share.last && !s.model.encoderOnly)
                casts.product(ws::kPartFrozenHeadCast)
                    .times(ws::kCastBytes, 2.0)
                    .times(sh::kVocab, static_cast<double>(s.model.vocab))
                    .times(sh::kHidden, static_cast<double>(s.model.hidden))
                    .overUnlessOne(sh::kTp, share.tp);
        }
        st.autocast = casts.cite(ws::kFromAutocast).bytes();
        d.autocastBytes = casts.value();
    }
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
        st.dequant = layer.bytes();
        d.dequantBytes = layer.value();
        if (run.lmHeadQuantized && share.last) {
            const Formula head = dequantised(true);
            headDequant = head.bytes();
            d.headDequantBytes = head.value();
        }
    }
    st.headWorkspace = together(record, {st.autocast, headDequant});
    st.layerWorkspace = together(record, {st.autocast, st.dequant});

    Quantity stepWorkspace;
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
        // The step the stack's library releases choose, where the user left it.
        if (s.optimizerImpl == OptimizerImpl::Auto && run.stack.optimizerWhy)
            bytes.note(run.stack.optimizerWhy);
        stepWorkspace = bytes.bytes();
    }
    st.backwardEnd = persistent;
    st.backwardEnd.set(TermId::Gradients, gradients);
    st.step = st.backwardEnd;
    st.step.set(TermId::Workspace, stepWorkspace);
    st.stepPhase = optimizerStepPhase(s, st);
}

/// What a serving engine's weights hold beyond the tensors, on this rank:
/// the rotary cos/sin cache its attention builds
/// (RuntimeBehaviour::rotaryCache: vLLM, SGLang) and, where it measures
/// its weights by the free memory (measuresWeightsByFreeMemory: SGLang),
/// the caching allocator's segment tails.
void addLoadedWeightsExtras(Formula &weights, const Scenario &s, const std::vector<TensorGroup> &tensors,
                            StageStates &st, FormulaStore *record)
{
    namespace w = text::weights;
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    const double modelBytes = st.details.unquantizedBytes;
    Derived cache;
    if (runtime.rotaryCache)
        cache = rotaryCache(s.model, *runtime.rotaryCache == StateDtype::Fp32 ? 4.0 : modelBytes,
                            runtime.rotaryCacheSource, record);
    st.details.unreadWeightBytes = cache.value;
    if (runtime.measuresWeightsByFreeMemory) {
        // Each tensor at its format's value width and its scales as a
        // tensor after it, as the loader allocates them; 16-bit and fp32
        // weights at the unquantised width.
        const WeightFormat wf = s.effectiveWeights();
        RankTensors rank;
        rank.tp = st.share.tp;
        rank.ep = s.parallel.ep;
        rank.layers = st.share.layerCount;
        rank.first = st.share.first;
        rank.last = st.share.last;
        const FormatBits bits = formatBits(wf, weightGroupSize(s), static_cast<double>(s.model.hidden));
        rank.quantizedBytes = bits.data / 8.0;
        rank.scaleBytes = bits.overhead / 8.0;
        // Where the format covers every parameter, the rest in it too.
        rank.otherBytes = quantizesLinearLayersOnly(s) ? modelBytes : bits.data / 8.0;
        rank.quantizedTargets = s.loadsCheckpointFormat() ? s.model.checkpointQuantizedTargets : 0;
        rank.expertsOnly = quantizesExpertsOnly(s);
        rank.attentionBuffer = static_cast<std::uint64_t>(cache.value);
        const Derived tails = segmentTails(s.model, tensors, rank, record);
        weights.product(w::kPartSegmentTails).times(w::kSegmentTails, tails);
        st.details.unreadWeightBytes += tails.value;
    }
    if (cache.value > 0)
        weights.product(w::kPartRotaryCache).times(w::kRotaryCacheBytes, cache);
}

/// Inference's weights on this stage: its share of the model, what host
/// offload takes away or brings in, and a draft model beside the sampler.
void prepareInference(const Scenario &s, const std::vector<TensorGroup> &tensors, StageStates &st,
                      FormulaStore *record)
{
    namespace sh = text::shared;
    EstimateDetails &d = st.details;
    if (s.draftInUse())
        st.draftWeights = draftWeights(s, record);
    if (usesGgmlBuffers(s)) {
        // llama.cpp computes in f32 and caches f16 unless told otherwise;
        // its split, buffers and cache follow its layout (llamacpp.h).
        d.activationElementBytes = 4;
        // K and V may differ (-ctk, -ctv): their mean, for K and V of one width.
        const auto bytes = [](const std::optional<WeightFormat> &f) { return f ? elementBytes(*f) : 2.0; };
        d.kvElementBytes = (bytes(s.kvDtype) + bytes(s.valueCacheDtype())) / 2.0;
        return;
    }
    const double e = computeDtypeBytes(s);
    d.activationElementBytes = e;
    d.kvElementBytes = s.kvDtype ? cacheElementBytes(*s.kvDtype, s.model.headDim) : e;
    const RankShare &share = st.share;
    d.layersOnGpu = share.layerCount;
    // The draft runs beside the sampler: on the last pipeline stage.
    const bool draftHere = s.draftInUse() && share.last;
    Formula weights(record);
    weights.product(draftHere ? text::draft::kPartTarget : nullptr)
        .times(sh::kModelWeights, st.modelWeights)
        .timesUnlessOne(*share.weightSymbol, share.weights);
    // The routed experts this rank holds, at their own width.
    d.expertBytesOnGpu = share.expertParamsHere * share.widths.experts;
    addLoadedWeightsExtras(weights, s, tensors, st, record);
    addHostOffload(weights, s, share, d, record);
    // vLLM's KV offloading: each rank of the tp x pp group pins its share
    // of --kv-offloading-size in host memory (the native connector's
    // cpu_bytes_to_use / world size); the GPU's pool is unchanged.
    if (runtimeBehaviour(s.serving).offloadsKvBlocks && s.kvOffloadingGib > 0) {
        const double hostKv = s.kvOffloadingGib * 1024.0 * 1024.0 * 1024.0 / (share.tp * s.parallel.pp);
        d.hostTermsPerGpu[termIndex(TermId::KvCache)] = Bytes::fromDouble(hostKv);
        d.hostBytesPerGpu += hostKv;
    }
    if (draftHere)
        addDraftWeights(weights, s, st.draftWeights, share.tp);
    st.persistent.set(TermId::Weights, weights.bytes());
}

StageStates prepareStage(const Scenario &s, const PreparedScenario &prepared, const std::vector<TensorGroup> &tensors,
                         Stage stage, FormulaStore *record)
{
    StageStates st;
    st.stage = stage;
    EstimateDetails &d = st.details;
    d.params = prepared.params();
    d.cudaOverheadMib = s.effectiveCudaOverheadMib();
    d.stage = stage;
    // llama.cpp's layer split copies activations between GPUs itself.
    st.overheads = {cudaOverhead(s, record),
                    usesGgmlBuffers(s) ? none(record, text::llamacpp::kWhyNoNccl)
                                       : commBuffers(s, pipelineStages(s), record)};
    const TrainingRun noRun;
    const TrainingRun &run = s.isTraining() ? prepared.run() : noRun;
    d.regime = s.isTraining() ? run.trainable : regimeBytes(s.regime);
    const WeightClassRule rule = weightClassRule(s, run);
    st.modelWeights = weightStorage(s, d.params, run, rule, d, record);
    if (!usesGgmlBuffers(s)) {
        const std::optional<Placed> placed = placedWeightBytes(s, d.params, run, rule, d);
        st.share = rankShare(s, d.params, placed, stage, record);
        st.share.widths = weightWidths(d.params, placed, st.modelWeights.value);
    }
    if (s.isTraining())
        prepareTraining(s, prepared, st, record);
    else
        prepareInference(s, tensors, st, record);
    return st;
}

} // namespace

/// Inference without explicit tp/pp splits layers over `gpus` the way
/// device_map="auto" does: a pipeline without micro-batches.
int pipelineStages(const Scenario &s)
{
    if (!s.isTraining() && s.parallel.tp * s.parallel.pp == 1)
        return s.gpus;
    return s.parallel.pp;
}


std::vector<Stage> stagesToEstimate(const Scenario &s)
{
    if (!usesGgmlBuffers(s) && pipelineStages(s) > 1)
        return {Stage::First, Stage::Last};
    return {Stage::Only};
}

PhaseTotal largerMoment(Phase phase, const Scenario &s, const Overheads &overheads, FormulaRecord *record,
                        std::initializer_list<std::pair<const char *, const MomentTerms *>> moments)
{
    const MomentTerms *largest = nullptr;
    Bytes largestReserve;
    PhaseTotal best{phase, {}, Bytes(), ""};
    for (const auto &[moment, terms] : moments) {
        Bytes tensors;
        for (std::size_t i = 0; i < kTensorTerms; ++i)
            tensors += terms->bytes[i];
        assert(tensors == sumTerms(terms->bytes));
        const Quantity reserve = allocatorReserve(s, terms->bytes, tensors, record);
        const Bytes total = tensors + overheads.cuda.bytes + overheads.nccl.bytes + reserve.bytes;
        if (record) {
            TermFormulas how = terms->how;
            how[termIndex(TermId::CudaOverhead)] = overheads.cuda.how;
            how[termIndex(TermId::CommBuffers)] = overheads.nccl.how;
            how[termIndex(TermId::AllocatorReserve)] = reserve.how;
            record->addMoment(phase, moment, how);
        }
        if (largest && total <= best.total)
            continue;
        largest = terms;
        largestReserve = reserve.bytes;
        best.total = total;
        best.moment = moment;
    }
    if (largest) {
        best.terms = largest->bytes;
        best.terms[termIndex(TermId::CudaOverhead)] = overheads.cuda.bytes;
        best.terms[termIndex(TermId::CommBuffers)] = overheads.nccl.bytes;
        best.terms[termIndex(TermId::AllocatorReserve)] = largestReserve;
    }
    return best;
}

PhaseTotal optimizerStepPhase(const Scenario &s, const StageStates &st, FormulaRecord *record)
{
    return largerMoment(Phase::OptimizerStep, s, st.overheads, record,
                        {{QT_TRANSLATE_NOOP("Derivation", "optimizer step"), &st.step}});
}

std::vector<StageStates> prepareStages(const Scenario &s, const PreparedScenario &prepared,
                                       const std::vector<TensorGroup> &tensors, FormulaStore *store)
{
    std::vector<StageStates> stages;
    for (Stage stage : stagesToEstimate(s))
        stages.push_back(prepareStage(s, prepared, tensors, stage, store));
    return stages;
}

} // namespace core
