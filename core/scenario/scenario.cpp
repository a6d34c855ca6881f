#include "core/scenario/scenario.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/base/units.h"
#include "core/model/layerkinds.h"
#include "core/scenario/fields.h"
#include "core/scenario/inputspellings.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

namespace core {

namespace {

/// "fp16, bf16, fp8": the spellings of a runtime's KV cache formats.
std::string cacheFormatList(const std::vector<WeightFormat> &formats)
{
    std::string list;
    for (WeightFormat f : formats)
        list += (list.empty() ? "" : ", ") + std::string(formatInfo(f).id);
    return list;
}

} // namespace

const CheckpointWeights *Scenario::checkpointInUse() const
{
    return checkpoint && !weights && mode == Mode::Inference ? &*checkpoint : nullptr;
}

bool Scenario::loadsCheckpointFormat() const
{
    // A quantised checkpoint (gpt-oss's MXFP4 experts, DeepSeek-V3's fp8,
    // a GPTQ upload) loads as it ships unless told otherwise; full training
    // keeps its own copy, QLoRA quantises with bitsandbytes.
    return !weights && mode != Mode::Train && mode != Mode::Qlora && parseFormat(model.checkpointFormat).has_value();
}

WeightFormat Scenario::effectiveWeights() const
{
    if (weights)
        return *weights;
    if (mode == Mode::Qlora)
        return WeightFormat::Nf4Dq;
    if (loadsCheckpointFormat())
        return *parseFormat(model.checkpointFormat);
    return WeightFormat::Bf16;
}

LogitsMode Scenario::effectiveLogits() const
{
    if (logits)
        return *logits;
    return isTraining() ? stackBehaviour(*this).logits : LogitsMode::LastToken;
}

double Scenario::effectiveCudaOverheadMib() const
{
    if (cudaOverheadMib)
        return *cudaOverheadMib;
    return cudaLoading == CudaLoading::Lazy ? 512.0 : 1343.0;
}

Checkpointing Scenario::effectiveCheckpointing() const
{
    if (!isTraining())
        return Checkpointing::None;
    return checkpointing.value_or(stackBehaviour(*this).checkpointing);
}

OptimizerImpl Scenario::effectiveOptimizerImpl() const
{
    return optimizerImpl != OptimizerImpl::Auto ? optimizerImpl : stackBehaviour(*this).optimizerImpl;
}

double Scenario::effectiveGpuMemoryUtilization() const
{
    if (gpuMemoryUtilization)
        return *gpuMemoryUtilization;
    // vLLM raised its default with CUDA-graph profiling (v0.21.0).
    return runtimeBehaviour(serving).utilizationFollowsRelease
            && versionRuleHolds(versions, VersionRule::VllmUtilization092)
        ? 0.92
        : 0.9;
}

std::uint64_t Scenario::effectiveMaxNumSeqs() const
{
    return batchOn(*this, servingCard).maxNumSeqs;
}

std::uint64_t Scenario::effectiveMaxBatchedTokens() const
{
    return batchOn(*this, servingCard).maxBatchedTokens;
}

ServingCard servingCardOf(const GpuSpec &gpu)
{
    ServingCard card;
    card.atLeast70Gib = gpu.capacity() >= Bytes::gib(70);
    std::string name = gpu.name;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    card.a100 = name.find("a100") != std::string::npos;
    std::string link = gpu.interconnect;
    std::transform(link.begin(), link.end(), link.begin(), [](unsigned char c) { return std::tolower(c); });
    // A card that names no interconnect (a user's entry, a card sized from
    // a log) keeps NVLink's larger communicators: a fit must hold.
    card.link = !gpu.runsCuda()                        ? GpuLink::NotCuda
        : link.empty() || link.rfind("nvlink", 0) == 0 ? GpuLink::Nvlink
                                                       : GpuLink::Pcie;
    card.hopperOrBlackwell = gpu.isHopper() || gpu.isDataCentreBlackwell();
    return card;
}

Scenario onServingCard(Scenario s, const GpuSpec &gpu)
{
    s.servingCard = servingCardOf(gpu);
    return s;
}

double Scenario::effectiveLoraDropout() const
{
    return lora.dropout.value_or(stackBehaviour(*this).loraDropout);
}

const GpuSpec *focusGpu(const Scenario &s, const Catalog &catalog)
{
    const GpuSpec *chosen = s.gpuId.empty() ? nullptr : catalog.find(s.gpuId);
    return chosen ? chosen : catalog.find(Scenario::kDefaultFocusGpu);
}

const std::vector<ModeInfo> &allModes()
{
    static const std::vector<ModeInfo> modes = {
        {Mode::Inference, "inference", QT_TRANSLATE_NOOP("Field", "Inference")},
        {Mode::Train, "train", QT_TRANSLATE_NOOP("Field", "Full training")},
        {Mode::Lora, "lora", QT_TRANSLATE_NOOP("Field", "LoRA")},
        {Mode::Qlora, "qlora", QT_TRANSLATE_NOOP("Field", "QLoRA")},
    };
    return modes;
}

std::optional<Mode> parseMode(const std::string &id)
{
    return parseById(allModes(), &ModeInfo::mode, id);
}

const char *modeId(Mode mode)
{
    return findByValue(allModes(), &ModeInfo::mode, mode).id;
}

std::optional<Checkpointing> parseCheckpointing(const std::string &id) { return parseSpelling(kCheckpointingSpellings, id); }
const char *checkpointingId(Checkpointing value) { return spell(kCheckpointingSpellings, value); }
std::optional<Attention> parseAttention(const std::string &id) { return parseSpelling(kAttentionSpellings, id); }
const char *attentionId(Attention value) { return spell(kAttentionSpellings, value); }
std::optional<LogitsMode> parseLogits(const std::string &id) { return parseSpelling(kLogitsSpellings, id); }
const char *logitsId(LogitsMode value) { return spell(kLogitsSpellings, value); }
std::optional<LinearSlot> parseLinearSlot(const std::string &id) { return parseSpelling(kSlotSpellings, id); }
const char *linearSlotId(LinearSlot slot) { return spell(kSlotSpellings, slot); }
const char *cudaLoadingId(CudaLoading value) { return spell(kCudaLoadingSpellings, value); }
std::optional<CudaLoading> parseCudaLoading(const std::string &id) { return parseSpelling(kCudaLoadingSpellings, id); }
std::optional<Offload> parseOffload(const std::string &id) { return parseSpelling(kOffloadSpellings, id); }
std::optional<ServingEngine> parseServingEngine(const std::string &id)
{
    return parseById(allRuntimes(), &RuntimeInfo::engine, id);
}
const char *servingEngineId(ServingEngine value) { return runtimeInfo(value).id; }
const char *offloadId(Offload value) { return spell(kOffloadSpellings, value); }

const char *pointCheckFailure(const Scenario &s)
{
    // transformers' assisted generation raises "assisted generate is only
    // supported for batch_size = 1" and for num_return_sequences > 1
    // (generation/utils.py, generate()).
    if (s.draftInUse() && runtimeBehaviour(s.serving).draftRunsOneRow && (s.batch != 1 || s.beams != 1))
        return QT_TRANSLATE_NOOP("Message", "draft.preset: Hugging Face assisted generation runs one sequence: batch 1 and beams 1");
    return nullptr;
}

std::vector<Message> scenarioProblems(const Scenario &s)
{
    std::vector<Message> problems;
    // Messages are texts, with their arguments built only for a failed
    // check (this runs on every estimate; see BENCHMARKS.md).
    const auto check = [&problems](bool ok, const char *text) {
        if (!ok)
            problems.push_back({"Message", text, {}});
    };
    const auto checkWith = [&problems](bool ok, const char *text, auto &&args) {
        if (!ok)
            problems.push_back({"Message", text, args()});
    };
    // Each number's range, from its descriptor. Choices are typed enums and
    // always one of their values; a GPU id is checked against a catalog.
    for (const FieldDescriptor &f : allFields()) {
        if (f.kind != FieldKind::Integer && f.kind != FieldKind::Number)
            continue;
        if (isInRange(f, s))
            continue; // the common case, with no message built
        if (std::optional<Message> problem = checkFieldValue(f, f.stored(s)))
            problems.push_back(std::move(*problem).about(f.key));
    }
    const auto formatId = [](WeightFormat f) { return std::vector<std::string>{formatInfo(f).id}; };
    checkWith(!s.kvDtype || formatInfo(*s.kvDtype).usableForKvCache,
              QT_TRANSLATE_NOOP("Message", "kv_dtype: %1 is not a KV cache format"), [&] { return formatId(*s.kvDtype); });
    checkWith(!s.kvDtypeV || formatInfo(*s.kvDtypeV).usableForKvCache,
              QT_TRANSLATE_NOOP("Message", "kv_dtype_v: %1 is not a KV cache format"),
              [&] { return formatId(*s.kvDtypeV); });
    checkWith(!s.weights || !formatInfo(*s.weights).cacheOnly,
              QT_TRANSLATE_NOOP("Message", "weights: %1 is a KV cache format"), [&] { return formatId(*s.weights); });
    checkWith(!s.weights || !formatInfo(*s.weights).checkpointOnly,
              QT_TRANSLATE_NOOP("Message", "weights: %1 is named only by a checkpoint's quantisation config, for "
                                           "some of its modules"),
              [&] { return formatId(*s.weights); });
    if (!problems.empty())
        return problems; // the checks below combine fields (and divide by tp, pp, ep)
    const Parallelism &p = s.parallel;
    checkWith(s.gpus % (p.tp * p.pp) == 0, QT_TRANSLATE_NOOP("Message", "gpus: must be a multiple of tp x pp (%1)"),
              [&p] { return std::vector<std::string>{std::to_string(p.tp * p.pp)}; });
    check(!p.sequenceParallel || p.tp > 1, QT_TRANSLATE_NOOP("Message", "sp: sequence parallelism needs tp > 1"));
    check(s.dataParallel() % p.ep == 0,
          QT_TRANSLATE_NOOP("Message", "ep: must divide the data-parallel degree (gpus / (tp x pp))"));
    const ModelSpec &m = s.model;
    check(m.hidden > 0 && m.layers > 0 && m.heads > 0 && m.kvHeads > 0 && m.headDim > 0 && m.vocab > 0,
          QT_TRANSLATE_NOOP("Message",
                            "model: hidden size, layers, heads, head size and vocabulary must all be positive"));
    check(m.kvHeads <= m.heads, QT_TRANSLATE_NOOP("Message", "model: key-value heads cannot exceed attention heads"));
    const std::uint64_t unsplit = m.heads == 0 ? 0 : headsNotSplitBy(m, static_cast<std::uint64_t>(p.tp));
    checkWith(unsplit == 0, QT_TRANSLATE_NOOP("Message", "tp: must divide the attention heads (%1)"),
              [unsplit] { return std::vector<std::string>{std::to_string(unsplit)}; });
    const std::uint64_t unevenKv = m.heads == 0 ? 0 : keyValueHeadsNotSplitBy(m, static_cast<std::uint64_t>(p.tp));
    checkWith(unevenKv == 0,
              QT_TRANSLATE_NOOP("Message", "tp: must divide the key-value heads (%1) or be a multiple of them"),
              [unevenKv] { return std::vector<std::string>{std::to_string(unevenKv)}; });
    check(!m.moe.isMoe() || m.moe.experts % p.ep == 0, QT_TRANSLATE_NOOP("Message", "ep: must divide the experts"));
    check(m.moe.isMoe() || p.ep == 1,
          QT_TRANSLATE_NOOP("Message", "ep: expert parallelism needs a mixture-of-experts model"));
    check(!(s.isTraining() && s.effectiveLogits() == LogitsMode::LastToken),
          QT_TRANSLATE_NOOP("Message", "logits: 'last' applies to inference only"));
    // Each engine takes its own KV formats (its policy row); the V cache's
    // own format is llama.cpp's -ctv, read nowhere else.
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    if (runtime)
        for (const auto &[key, format] : {std::pair{"kv_dtype", s.kvDtype},
                                          std::pair{"kv_dtype_v", runtime->ggmlBuffers ? s.kvDtypeV : std::nullopt}})
            checkWith(!format || std::find(runtime->cacheFormats.begin(), runtime->cacheFormats.end(), *format)
                          != runtime->cacheFormats.end(),
                      QT_TRANSLATE_NOOP("Message", "%1: %2 does not take %3 (it takes %4)"), [&, k = key, f = format] {
                          return std::vector<std::string>{k, runtimeInfo(s.serving).name, formatInfo(*f).id,
                                                          cacheFormatList(runtime->cacheFormats)};
                      });
    // A format the engine's release does not take yet (--engine-version).
    if (runtime && runtime->releases && s.kvDtype)
        if (const auto &version = s.versions.of(*runtime->releases))
            for (const RuntimeBehaviour::CacheFormatRelease &r : runtime->cacheFormatReleases)
                checkWith(!(r.format == *s.kvDtype && *version < r.since),
                          QT_TRANSLATE_NOOP("Message", "kv_dtype: %1 %2 does not take %3 (it came with %4)"), [&] {
                              return std::vector<std::string>{runtimeInfo(s.serving).name, versionText(*version),
                                                              formatInfo(r.format).id, r.source};
                          });
    checkWith(!(runtime && !runtime->loadsGguf && isGgufFormat(s.effectiveWeights())),
              QT_TRANSLATE_NOOP("Message", "weights: %1 does not load GGUF files"),
              [&s] { return std::vector<std::string>{runtimeInfo(s.serving).name}; });
    // vLLM's per-token-head and TurboQuant formats live in its attention
    // backends with K and V heads, not its MLA backends.
    checkWith(!(s.kvDtype && formatInfo(*s.kvDtype).cacheOnly && m.isMla()),
              QT_TRANSLATE_NOOP("Message", "kv_dtype: %1 needs K and V heads, not MLA's latent"),
              [&] { return formatId(*s.kvDtype); });
    // A quantised V cache needs flash attention in llama.cpp (llama-context.cpp,
    // llama.cpp 0.4.0: "quantized V cache was requested, but this requires
    // Flash Attention"); a quantised K cache does not.
    const auto ggufType = [](const std::optional<WeightFormat> &f) { return f && isGgufFormat(*f); };
    check(!(runtime && runtime->ggmlBuffers && ggufType(s.valueCacheDtype()) && s.attention == Attention::Eager),
          QT_TRANSLATE_NOOP("Message", "kv_dtype_v: llama.cpp needs flash attention for a quantised V cache "
                                       "(attention flash or sdpa)"));
    check(!(runtime && runtime->splitsLayersByMemory) || p.tp == 1,
          QT_TRANSLATE_NOOP("Message", "tp: llama.cpp splits layers over GPUs (gpus), not tensors"));
    // generate()'s CPU offload is accelerate's device_map, a layer split.
    const bool deviceMapOffload = runtime && runtime->layerOffload == LayerOffload::DeviceMap && s.gpuLayers
        && *s.gpuLayers <= m.layers;
    check(!deviceMapOffload || p.tp * p.pp == 1,
          QT_TRANSLATE_NOOP("Message", "serving.gpu_layers: generate() offloads layers through device_map, which "
                                       "splits layers over the GPUs: no tp or pp"));
    check(s.isTraining() || s.effectiveLogits() != LogitsMode::FusedLinear,
          QT_TRANSLATE_NOOP("Message", "logits: fused-linear fuses a training loss with the output layer; "
                                       "inference computes its logits"));
    std::optional<Message> skipProblem;
    kvSkipLayers(s, &skipProblem);
    if (skipProblem)
        problems.push_back(std::move(*skipProblem).about(field(FieldId::KvSkipLayers).key));
    // The shares' rule is the field's own (a NumberList); here, one per GPU.
    const FieldDescriptor &split = field(FieldId::TensorSplit);
    if (std::optional<Message> shares = checkFieldValue(split, split.stored(s)))
        problems.push_back(std::move(*shares).about(split.key));
    checkWith(s.tensorSplit.empty() || s.tensorSplit.size() == static_cast<std::size_t>(s.gpus),
              QT_TRANSLATE_NOOP("Message", "serving.tensor_split: expected %1 shares, one per GPU, e.g. 24,12 or 0,1"),
              [&s] { return std::vector<std::string>{std::to_string(s.gpus)}; });
    checkWith(s.devices.empty() || s.devices.size() == static_cast<std::size_t>(s.gpus),
              QT_TRANSLATE_NOOP("Message", "devices: %1 GPUs listed, but gpus is %2"), [&s] {
                  return std::vector<std::string>{std::to_string(s.devices.size()), std::to_string(s.gpus)};
              });
    checkWith(!s.draft.isSet() || s.draft.model,
              QT_TRANSLATE_NOOP("Message", "draft.preset: '%1' is not a model preset (see 'vramplanner-cli models')"),
              [&s] { return std::vector<std::string>{s.draft.presetId}; });
    if (const char *failure = pointCheckFailure(s))
        problems.push_back({"Message", failure, {}});
    // vLLM shards the draft over the target's tensor-parallel ranks.
    const std::uint64_t draftUnsplit =
        s.draftInUse() ? headsNotSplitBy(*s.draft.model, static_cast<std::uint64_t>(p.tp)) : 0;
    checkWith(draftUnsplit == 0, QT_TRANSLATE_NOOP("Message", "tp: must divide the draft model's attention heads (%1)"),
              [draftUnsplit] { return std::vector<std::string>{std::to_string(draftUnsplit)}; });
    return problems;
}

std::vector<std::string> validateScenario(const Scenario &s)
{
    std::vector<std::string> errors;
    for (const Message &problem : scenarioProblems(s))
        errors.push_back(render(problem));
    return errors;
}

KvSkipLayers kvSkipLayers(const Scenario &s, std::optional<Message> *problem)
{
    KvSkipLayers skip;
    std::vector<std::uint64_t> seen;
    for (const std::string &entry : s.kvSkipLayers) {
        if (entry == "sliding_window") {
            skip.slidingWindow = true;
            continue;
        }
        const bool digits = !entry.empty() && entry.size() <= 9
            && std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; });
        const std::uint64_t index = digits ? std::stoull(entry) : 0;
        if (!digits || index >= s.model.layers) {
            if (problem && !*problem)
                *problem = Message{"Message",
                                   QT_TRANSLATE_NOOP("Message", "'%1' is neither a layer index below %2 nor sliding_window"),
                                   {entry, std::to_string(s.model.layers)}};
            continue;
        }
        if (std::find(seen.begin(), seen.end(), index) == seen.end())
            seen.push_back(index);
    }
    skip.indexed = seen.size();
    return skip;
}

} // namespace core
