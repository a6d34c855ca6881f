#include "core/scenario/fields.h"

#include "core/base/translatable.h"
#include "core/base/units.h"
#include "core/scenario/inputspellings.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>

namespace core {

namespace {

// Accessors, written once per kind: `Path` is the member path inside the
// scenario (&Scenario::parallel, &Parallelism::tp), folded with .*

template <auto... Path>
FieldValue numberOf(const Scenario &s)
{
    return static_cast<double>((s.*....*Path));
}

template <auto... Path>
void setNumber(Scenario &s, const FieldValue &v)
{
    auto &member = (s.*....*Path);
    member = static_cast<std::remove_reference_t<decltype(member)>>(std::get<double>(v));
}

template <auto... Path>
FieldValue flagOf(const Scenario &s)
{
    return static_cast<bool>((s.*....*Path));
}

template <auto... Path>
void setFlag(Scenario &s, const FieldValue &v)
{
    (s.*....*Path) = std::get<bool>(v);
}

template <auto Id, auto... Path>
FieldValue choiceOf(const Scenario &s)
{
    return std::string(Id((s.*....*Path)));
}

template <auto Parse, auto... Path>
void setChoice(Scenario &s, const FieldValue &v)
{
    (s.*....*Path) = *Parse(std::get<std::string>(v));
}

/// An optional enum: unset stays unset.
template <auto Id, auto... Path>
FieldValue optionalChoiceOf(const Scenario &s)
{
    const auto &member = (s.*....*Path);
    return member ? FieldValue(std::string(Id(*member))) : FieldValue();
}

template <auto Parse, auto... Path>
void setOptionalChoice(Scenario &s, const FieldValue &v)
{
    auto &member = (s.*....*Path);
    if (std::holds_alternative<std::monostate>(v))
        member.reset();
    else
        member = *Parse(std::get<std::string>(v));
}

template <auto... Path>
FieldValue optionalNumberOf(const Scenario &s)
{
    const auto &member = (s.*....*Path);
    return member ? FieldValue(static_cast<double>(*member)) : FieldValue();
}

template <auto... Path>
void setOptionalNumber(Scenario &s, const FieldValue &v)
{
    auto &member = (s.*....*Path);
    if (std::holds_alternative<std::monostate>(v))
        member.reset();
    else
        member = std::get<double>(v);
}

const char *formatId(WeightFormat f) { return formatInfo(f).id; }
const char *optimizerId(Optimizer o) { return optimizerInfo(o).id; }
const char *stackId(TrainingStack s) { return stackInfo(s).id; }
std::optional<WeightFormat> parseKvFormat(const std::string &id)
{
    const auto f = parseFormat(id);
    return f && formatInfo(*f).usableForKvCache ? f : std::nullopt;
}

std::string targetsText(const std::vector<LinearSlot> &slots)
{
    std::string text;
    for (LinearSlot slot : slots)
        text += (text.empty() ? "" : ",") + std::string(linearSlotId(slot));
    return text;
}

/// "24,12": a split as llama.cpp's --tensor-split spells it.
std::string splitText(const std::vector<double> &split)
{
    std::ostringstream text;
    for (std::size_t i = 0; i < split.size(); ++i)
        text << (i ? "," : "") << split[i];
    return text.str();
}

/// "rtx-4090,rtx-3090": ids as the CLI and scenario files spell a list.
std::string idListText(const std::vector<std::string> &ids)
{
    std::string text;
    for (const std::string &id : ids)
        text += (text.empty() ? "" : ",") + id;
    return text;
}

/// The comma-separated ids of `text`, spaces around each dropped.
std::vector<std::string> splitIds(const std::string &text)
{
    std::vector<std::string> ids;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto first = item.find_first_not_of(" \t");
        ids.push_back(first == std::string::npos ? std::string() : item.substr(first, item.find_last_not_of(" \t") - first + 1));
    }
    if (!text.empty() && text.back() == ',')
        ids.emplace_back(); // "a,": an empty last id
    return ids;
}

/// Every comma-separated entry as a number; one that is not becomes NaN,
/// which validateScenario reports.
std::vector<double> parseSplit(const std::string &text)
{
    std::vector<double> split;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        split.push_back(parseDecimal(item).value_or(std::nan("")));
    return split;
}

std::vector<LinearSlot> parseTargets(const std::string &text)
{
    std::vector<LinearSlot> slots;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (const auto slot = parseLinearSlot(item))
            slots.push_back(*slot);
    return slots;
}

bool always(const Scenario &) { return true; }
bool multimodal(const Scenario &s) { return s.model.imageTokens > 0; }
bool hasMtp(const Scenario &s) { return s.model.mtpLayers > 0; }
bool training(const Scenario &s) { return s.isTraining(); }
bool inference(const Scenario &s) { return !s.isTraining(); }
bool adapters(const Scenario &s) { return s.mode == Mode::Lora || s.mode == Mode::Qlora; }
bool vllm(const Scenario &s) { return !s.isTraining() && s.serving == ServingEngine::Vllm; }
bool llamaCpp(const Scenario &s) { return !s.isTraining() && s.serving == ServingEngine::LlamaCpp; }
bool llamaCppMoe(const Scenario &s) { return llamaCpp(s) && s.model.moe.isMoe(); }
bool layerOffload(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->layerOffload != LayerOffload::None;
}
/// Weights in host memory that the GPUs read over the host link.
bool overHostLink(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    if (!runtime)
        return s.parallel.offload != Offload::None;
    return (runtime->offloadsWeightBytes && s.cpuOffloadGib > 0) || offloadsLayersToHost(s);
}
bool storedWeights(const Scenario &s) { return s.mode != Mode::Train; }
bool bitsandbytes(const Scenario &s) { return s.mode == Mode::Qlora && s.stack != TrainingStack::Torchtune; }
bool severalGpus(const Scenario &s) { return s.gpus > 1; }

template <typename Enum, std::size_t N>
std::vector<FieldChoice> choicesOf(const Spelling<Enum> (&table)[N])
{
    std::vector<FieldChoice> choices;
    for (const Spelling<Enum> &s : table)
        choices.push_back({s.id, s.label ? s.label : s.id});
    return choices;
}

template <typename Info, typename Label>
std::vector<FieldChoice> choicesOf(const std::vector<Info> &table, Label label)
{
    std::vector<FieldChoice> choices;
    for (const Info &info : table)
        choices.push_back({info.id, label(info)});
    return choices;
}

std::vector<FieldDescriptor> makeFields()
{
    using L = ScenarioLimits;
    using S = Scenario;
    const auto formats = choicesOf(allFormats(), [](const FormatInfo &f) { return f.id; });
    std::vector<FieldChoice> kvFormats;
    for (const FormatInfo &f : allFormats())
        if (f.usableForKvCache)
            kvFormats.push_back({f.id, f.id});
    const std::vector<FieldChoice> slots = choicesOf(kSlotSpellings);

    // Labels and help are English source text for Qt Linguist (context
    // "Field"); ids and flags are the file and CLI spellings.
    std::vector<FieldDescriptor> f = {
        {FieldId::Mode, "mode", "mode", "MODE", FieldKind::Choice, FieldGroup::Main, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Mode"), QT_TRANSLATE_NOOP("Field", "what the GPUs do"), nullptr,
         choicesOf(allModes(), [](const ModeInfo &m) { return m.label; }),
         choiceOf<modeId, &S::mode>, choiceOf<modeId, &S::mode>, setChoice<parseMode, &S::mode>, always},
        {FieldId::Weights, "weights", "weights", "FORMAT", FieldKind::Choice, FieldGroup::Main, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Precision"), QT_TRANSLATE_NOOP("Field", "weight format, by bits per weight"), QT_TRANSLATE_NOOP("Field", "the mode and the checkpoint"), formats,
         optionalChoiceOf<formatId, &S::weights>, [](const S &s) { return FieldValue(std::string(formatId(s.effectiveWeights()))); },
         setOptionalChoice<parseFormat, &S::weights>, storedWeights},
        {FieldId::GroupSize, "group_size", "group-size", "G", FieldKind::Integer, FieldGroup::Precision, 1,
         L::maxGroupSize, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Group size"), QT_TRANSLATE_NOOP("Field", "GPTQ/AWQ quantisation group size"), nullptr, {},
         numberOf<&S::groupSize>, numberOf<&S::groupSize>, setNumber<&S::groupSize>, storedWeights},
        {FieldId::QuantizeEmbeddings, "quantize_embeddings", "quantize-embeddings", nullptr, FieldKind::Flag,
         FieldGroup::Precision, 0, 0, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Quantise embeddings too"),
         QT_TRANSLATE_NOOP("Field", "quantise the embeddings and lm_head as well; libraries keep them at 16 bits"), nullptr, {},
         flagOf<&S::quantizeEmbeddings>, flagOf<&S::quantizeEmbeddings>, setFlag<&S::quantizeEmbeddings>, storedWeights},
        {FieldId::Regime, "regime", "regime", "REGIME", FieldKind::Choice, FieldGroup::Training, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Training regime"), QT_TRANSLATE_NOOP("Field", "which copies of the weights, gradients and optimizer states are kept, in which dtype"),
         nullptr, choicesOf(allRegimes(), [](const RegimeInfo &r) { return r.label; }),
         choiceOf<regimeId, &S::regime>, choiceOf<regimeId, &S::regime>, setChoice<parseRegime, &S::regime>, training},
        {FieldId::Optimizer, "optimizer", "optimizer", "NAME", FieldKind::Choice, FieldGroup::Main, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Optimizer"), QT_TRANSLATE_NOOP("Field", "optimizer, by the states it keeps per parameter"), nullptr,
         choicesOf(allOptimizers(), [](const OptimizerInfo &o) { return o.id; }),
         choiceOf<optimizerId, &S::optimizer>, choiceOf<optimizerId, &S::optimizer>, setChoice<parseOptimizer, &S::optimizer>,
         training},
        {FieldId::OptimizerImpl, "optimizer_impl", "optimizer-impl", "IMPL", FieldKind::Choice, FieldGroup::Training, 0,
         0, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Optimizer step"), QT_TRANSLATE_NOOP("Field", "the optimizer step's temporaries; foreach keeps one full-size copy"),
         nullptr,
         choicesOf(kOptimizerImplSpellings),
         choiceOf<optimizerImplId, &S::optimizerImpl>, [](const S &s) { return FieldValue(std::string(optimizerImplId(s.effectiveOptimizerImpl()))); },
         setChoice<parseOptimizerImpl, &S::optimizerImpl>, training},
        {FieldId::Batch, "batch", "batch", "N", FieldKind::Integer, FieldGroup::Main, 1, L::maxBatch, 1, 4096, 0, "",
         QT_TRANSLATE_NOOP("Field", "Batch size"), QT_TRANSLATE_NOOP("Field", "micro-batch per GPU"), nullptr, {}, numberOf<&S::batch>, numberOf<&S::batch>,
         setNumber<&S::batch>, always},
        {FieldId::Sequence, "sequence", "seq", "N", FieldKind::Integer, FieldGroup::Main, 1, L::maxSequence, 128,
         1u << 20, 0, QT_TRANSLATE_NOOP("Field", "tokens"), QT_TRANSLATE_NOOP("Field", "Sequence length"), QT_TRANSLATE_NOOP("Field", "sequence length / context in tokens"), nullptr, {},
         numberOf<&S::sequence>, numberOf<&S::sequence>, setNumber<&S::sequence>, always},
        {FieldId::Images, "images", "images", "N", FieldKind::Integer, FieldGroup::Input, 0, L::maxImages, 0, 0, 0,
         "", QT_TRANSLATE_NOOP("Field", "Images per sequence"),
         QT_TRANSLATE_NOOP("Field", "images in each sequence of a multimodal model; each adds the model's image tokens to the context"),
         nullptr, {}, numberOf<&S::images>, numberOf<&S::images>, setNumber<&S::images>, multimodal},
        {FieldId::GradAccum, "grad_accum", "grad-accum", "N", FieldKind::Integer, FieldGroup::Training, 1,
         L::maxGradAccum, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Gradient accumulation"), QT_TRANSLATE_NOOP("Field", "gradient accumulation steps"), nullptr, {},
         numberOf<&S::gradAccum>, numberOf<&S::gradAccum>, setNumber<&S::gradAccum>, training},
        {FieldId::Checkpointing, "checkpointing", "checkpointing", "KIND", FieldKind::Choice, FieldGroup::Training, 0, 0,
         0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Checkpointing"), QT_TRANSLATE_NOOP("Field", "activation checkpointing; selective recomputes attention"),
         QT_TRANSLATE_NOOP("Field", "the training stack"), choicesOf(kCheckpointingSpellings),
         optionalChoiceOf<checkpointingId, &S::checkpointing>,
         [](const S &s) { return FieldValue(std::string(checkpointingId(s.effectiveCheckpointing()))); },
         setOptionalChoice<parseCheckpointing, &S::checkpointing>, training},
        {FieldId::Stack, "stack", "stack", "STACK", FieldKind::Choice, FieldGroup::Training, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Training stack"),
         QT_TRANSLATE_NOOP("Field", "the software that runs the training; it decides adapter dtypes, the kbit upcast, defaults and saved tensors"),
         nullptr, choicesOf(allStacks(), [](const StackInfo &i) { return i.label; }), choiceOf<stackId, &S::stack>,
         choiceOf<stackId, &S::stack>, setChoice<parseStack, &S::stack>, training},
        {FieldId::Bitsandbytes, "bitsandbytes", "bnb", "VERSION", FieldKind::Choice, FieldGroup::Training, 0, 0, 0, 0, 0,
         "", QT_TRANSLATE_NOOP("Field", "bitsandbytes"), QT_TRANSLATE_NOOP("Field", "bitsandbytes up to 0.43.1 kept the input of every 4-bit layer for the backward pass"),
         nullptr,
         choicesOf(allBitsandbytesVersions(), [](const BitsandbytesInfo &b) { return b.label; }),
         choiceOf<bitsandbytesVersionId, &S::bitsandbytes>, choiceOf<bitsandbytesVersionId, &S::bitsandbytes>,
         setChoice<parseBitsandbytesVersion, &S::bitsandbytes>, bitsandbytes},
        {FieldId::Attention, "attention", "attention", "IMPL", FieldKind::Choice, FieldGroup::Precision, 0, 0, 0, 0, 0,
         "", QT_TRANSLATE_NOOP("Field", "Attention"), QT_TRANSLATE_NOOP("Field", "attention kernel; eager stores the s x s scores"), nullptr,
         choicesOf(kAttentionSpellings),
         choiceOf<attentionId, &S::attention>, choiceOf<attentionId, &S::attention>, setChoice<parseAttention, &S::attention>,
         always},
        {FieldId::LoraRank, "lora.rank", "lora-rank", "R", FieldKind::Integer, FieldGroup::Lora, 1, L::maxLoraRank, 0, 0,
         0, "", QT_TRANSLATE_NOOP("Field", "LoRA rank"), QT_TRANSLATE_NOOP("Field", "LoRA rank r"), nullptr, {}, numberOf<&S::lora, &LoraSettings::rank>,
         numberOf<&S::lora, &LoraSettings::rank>, setNumber<&S::lora, &LoraSettings::rank>, adapters},
        {FieldId::LoraAlpha, "lora.alpha", "lora-alpha", "A", FieldKind::Number, FieldGroup::Lora, 1e-6, 1e9, 0, 0, 1,
         "", QT_TRANSLATE_NOOP("Field", "LoRA alpha"), QT_TRANSLATE_NOOP("Field", "LoRA alpha (scales the update; no memory effect)"), nullptr, {},
         numberOf<&S::lora, &LoraSettings::alpha>, numberOf<&S::lora, &LoraSettings::alpha>,
         setNumber<&S::lora, &LoraSettings::alpha>, adapters},
        {FieldId::LoraTargets, "lora.targets", "lora-targets", "LIST", FieldKind::ChoiceSet, FieldGroup::Lora, 0, 0, 0,
         0, 0, "", QT_TRANSLATE_NOOP("Field", "LoRA targets"), QT_TRANSLATE_NOOP("Field", "the projections that get adapters: all, attention, or a list"), nullptr,
         slots, [](const S &s) { return FieldValue(targetsText(s.lora.targets)); },
         [](const S &s) { return FieldValue(targetsText(s.lora.targets)); },
         [](S &s, const FieldValue &v) { s.lora.targets = parseTargets(std::get<std::string>(v)); }, adapters},
        {FieldId::LoraDropout, "lora.dropout", "lora-dropout", "P", FieldKind::Number, FieldGroup::Lora, 0,
         L::maxLoraDropout, 0, 0, 2, "", QT_TRANSLATE_NOOP("Field", "LoRA dropout"),
         QT_TRANSLATE_NOOP("Field", "dropout on the adapters' input: each adapter then keeps its own copy of the input and a mask"),
         QT_TRANSLATE_NOOP("Field", "the training stack"), {}, optionalNumberOf<&S::lora, &LoraSettings::dropout>,
         [](const S &s) { return FieldValue(s.effectiveLoraDropout()); },
         setOptionalNumber<&S::lora, &LoraSettings::dropout>, adapters},
        {FieldId::KvDtype, "kv_dtype", "kv-dtype", "FORMAT", FieldKind::Choice, FieldGroup::Serving, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "KV cache format"), QT_TRANSLATE_NOOP("Field", "the KV cache's element format"), QT_TRANSLATE_NOOP("Field", "the activation dtype"), kvFormats,
         optionalChoiceOf<formatId, &S::kvDtype>, optionalChoiceOf<formatId, &S::kvDtype>,
         setOptionalChoice<parseKvFormat, &S::kvDtype>, inference},
        {FieldId::Logits, "logits", "logits", "MODE", FieldKind::Choice, FieldGroup::Precision, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Logits"), QT_TRANSLATE_NOOP("Field", "how the loss (or generate) sees the logits"), QT_TRANSLATE_NOOP("Field", "the training stack"),
         choicesOf(kLogitsSpellings),
         optionalChoiceOf<logitsId, &S::logits>, [](const S &s) { return FieldValue(std::string(logitsId(s.effectiveLogits()))); },
         setOptionalChoice<parseLogits, &S::logits>, always},
        {FieldId::GpuMemoryUtilization, "gpu_memory_utilization", "gpu-memory-utilization", "F", FieldKind::Number,
         FieldGroup::Serving, 0.01, 1, 0, 0, 2, "", QT_TRANSLATE_NOOP("Field", "Serving memory share"),
         QT_TRANSLATE_NOOP("Field", "vLLM gpu_memory_utilization: the share of each GPU that weights, activations and the KV cache may use "
            "together; the KV-cache budget is what remains"),
         nullptr, {}, numberOf<&S::gpuMemoryUtilization>, numberOf<&S::gpuMemoryUtilization>,
         setNumber<&S::gpuMemoryUtilization>, inference},
        {FieldId::ServingEngine, "serving.engine", "serving-engine", "ENGINE", FieldKind::Choice, FieldGroup::Serving, 0,
         0, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Serving engine"),
         QT_TRANSLATE_NOOP("Field", "generate() runs the scenario's batch; vLLM sizes its KV cache after profiling one forward of "
            "max_num_batched_tokens tokens and a sampler warm-up of max_num_seqs rows; llama.cpp keeps one KV stream per "
            "sequence and a compute buffer for one micro-batch"),
         nullptr, choicesOf(allRuntimes(), [](const RuntimeInfo &r) { return r.label; }),
         choiceOf<servingEngineId, &S::serving>, choiceOf<servingEngineId, &S::serving>,
         setChoice<parseServingEngine, &S::serving>, inference},
        {FieldId::MaxBatchedTokens, "serving.max_num_batched_tokens", "max-num-batched-tokens", "N", FieldKind::Integer,
         FieldGroup::Serving, 1, L::maxSequence, 0, 0, 0, QT_TRANSLATE_NOOP("Field", "tokens"), QT_TRANSLATE_NOOP("Field", "max_num_batched_tokens"),
         QT_TRANSLATE_NOOP("Field", "vLLM's token budget per step, profiled at start-up"), nullptr, {}, numberOf<&S::maxBatchedTokens>,
         numberOf<&S::maxBatchedTokens>, setNumber<&S::maxBatchedTokens>, vllm},
        {FieldId::MaxNumSeqs, "serving.max_num_seqs", "max-num-seqs", "N", FieldKind::Integer, FieldGroup::Serving, 1,
         L::maxBatch, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "max_num_seqs"), QT_TRANSLATE_NOOP("Field", "vLLM's concurrent sequences, the sampler warm-up's rows"),
         nullptr, {}, numberOf<&S::maxNumSeqs>, numberOf<&S::maxNumSeqs>, setNumber<&S::maxNumSeqs>, vllm},
        {FieldId::GpuLayers, "serving.gpu_layers", "gpu-layers", "N", FieldKind::Integer, FieldGroup::Serving, 0,
         static_cast<double>(ModelLimits::maxLayers) + 1, 0, 0, 0, QT_TRANSLATE_NOOP("Field", "layers"), QT_TRANSLATE_NOOP("Field", "GPU layers"),
         QT_TRANSLATE_NOOP("Field", "decoder layers on the GPUs, the rest in host memory; more than the model's layers also "
            "moves the output layer. llama.cpp -ngl: the last N layers, the rest run on the CPU. generate(): "
            "device_map with CPU offload, the first N layers; the rest are copied to the GPU as they run"),
         QT_TRANSLATE_NOOP("Field", "all layers and the output layer"), {}, optionalNumberOf<&S::gpuLayers>,
         [](const S &s) { return FieldValue(static_cast<double>(s.gpuLayers.value_or(s.model.layers + 1))); },
         setOptionalNumber<&S::gpuLayers>, layerOffload},
        {FieldId::Ubatch, "serving.ubatch", "ubatch", "N", FieldKind::Integer, FieldGroup::Serving, 1, L::maxSequence, 0,
         0, 0, QT_TRANSLATE_NOOP("Field", "tokens"), QT_TRANSLATE_NOOP("Field", "Micro-batch (n_ubatch)"),
         QT_TRANSLATE_NOOP("Field", "llama.cpp -ub: tokens one compute pass takes; the compute buffer is reserved for it"),
         nullptr, {}, numberOf<&S::ubatch>, numberOf<&S::ubatch>, setNumber<&S::ubatch>, llamaCpp},
        {FieldId::KvOnHost, "serving.kv_on_host", "no-kv-offload", nullptr, FieldKind::Flag, FieldGroup::Serving, 0, 0, 0,
         0, 0, "", QT_TRANSLATE_NOOP("Field", "KV cache in host memory"),
         QT_TRANSLATE_NOOP("Field", "llama.cpp --no-kv-offload: every layer's KV cache and attention stay on the CPU"), nullptr,
         {}, flagOf<&S::kvOnHost>, flagOf<&S::kvOnHost>, setFlag<&S::kvOnHost>, llamaCpp},
        {FieldId::CpuMoeLayers, "serving.cpu_moe_layers", "cpu-moe-layers", "N", FieldKind::Integer, FieldGroup::Serving,
         0, static_cast<double>(ModelLimits::maxLayers), 0, 0, 0, QT_TRANSLATE_NOOP("Field", "layers"),
         QT_TRANSLATE_NOOP("Field", "Experts on the CPU"),
         QT_TRANSLATE_NOOP("Field", "llama.cpp --n-cpu-moe: the routed experts of the first N layers stay in host memory and run "
            "on the CPU; attention, shared experts and the KV cache stay on the GPU"),
         nullptr, {}, numberOf<&S::cpuMoeLayers>, numberOf<&S::cpuMoeLayers>, setNumber<&S::cpuMoeLayers>, llamaCppMoe},
        {FieldId::TensorSplit, "serving.tensor_split", "tensor-split", "LIST", FieldKind::NumberList, FieldGroup::Serving, 0, 0,
         0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Tensor split"),
         QT_TRANSLATE_NOOP("Field", "llama.cpp --tensor-split: each GPU's share of the layers in split order, e.g. 24,12; empty: "
            "equal shares"),
         nullptr, {}, [](const S &s) { return FieldValue(splitText(s.tensorSplit)); },
         [](const S &s) { return FieldValue(splitText(s.tensorSplit)); },
         [](S &s, const FieldValue &v) { s.tensorSplit = parseSplit(std::get<std::string>(v)); }, llamaCpp},
        {FieldId::HostBandwidth, "serving.host_bandwidth_gb_per_s", "host-bandwidth-gbps", "B", FieldKind::Number,
         FieldGroup::Serving, 0.1, 1e5, 0, 0, 1, QT_TRANSLATE_NOOP("Field", "GB/s"), QT_TRANSLATE_NOOP("Field", "Host memory bandwidth"),
         QT_TRANSLATE_NOOP("Field", "what the CPU reads per second when llama.cpp runs layers or experts there, GB/s (89.6: "
            "dual-channel DDR5-5600)"),
         nullptr, {}, numberOf<&S::hostBandwidthGBps>, numberOf<&S::hostBandwidthGBps>, setNumber<&S::hostBandwidthGBps>,
         llamaCpp},
        {FieldId::CpuOffloadGib, "serving.cpu_offload_gib", "cpu-offload-gb", "GiB", FieldKind::Number, FieldGroup::Serving,
         0, 1e6, 0, 0, 1, QT_TRANSLATE_NOOP("Field", "GiB"), QT_TRANSLATE_NOOP("Field", "CPU offload"),
         QT_TRANSLATE_NOOP("Field", "vLLM --cpu-offload-gb: GiB of each GPU's decoder-layer weights kept in pinned host memory "
            "and read over the host link at every step"),
         nullptr, {}, numberOf<&S::cpuOffloadGib>, numberOf<&S::cpuOffloadGib>, setNumber<&S::cpuOffloadGib>, vllm},
        {FieldId::HostLink, "serving.host_link_gb_per_s", "host-link-gbps", "B", FieldKind::Number, FieldGroup::Serving,
         0.1, 1e5, 0, 0, 1, QT_TRANSLATE_NOOP("Field", "GB/s"), QT_TRANSLATE_NOOP("Field", "Host link bandwidth"),
         QT_TRANSLATE_NOOP("Field", "what crosses between host memory and a GPU per second, GB/s, for offloaded weights "
            "(the default: PCIe 4.0 x16 in practice)"),
         nullptr, {}, numberOf<&S::hostLinkGBps>, numberOf<&S::hostLinkGBps>, setNumber<&S::hostLinkGBps>, overHostLink},
        {FieldId::HostMemory, "serving.host_memory_gib", "host-memory", "GiB", FieldKind::Number, FieldGroup::Serving, 0,
         1e6, 0, 0, 0, QT_TRANSLATE_NOOP("Field", "GiB"), QT_TRANSLATE_NOOP("Field", "Host memory"),
         QT_TRANSLATE_NOOP("Field", "the machine's RAM in GiB, to check what stays beside the GPUs against (0: not checked)"),
         nullptr, {}, numberOf<&S::hostMemoryGib>, numberOf<&S::hostMemoryGib>, setNumber<&S::hostMemoryGib>, always},
        {FieldId::Beams, "beams", "beams", "N", FieldKind::Integer, FieldGroup::Input, 1, static_cast<double>(L::maxBeams), 0,
         0, 0, "", QT_TRANSLATE_NOOP("Field", "Beams or samples"),
         QT_TRANSLATE_NOOP("Field", "sequences generated from each prompt: beam search's beams or n > 1 samples; each keeps "
            "its own KV cache"),
         nullptr, {}, numberOf<&S::beams>, numberOf<&S::beams>, setNumber<&S::beams>, inference},
        {FieldId::LoadMtp, "serving.load_mtp", "load-mtp", nullptr, FieldKind::Flag, FieldGroup::Serving, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Load the MTP layers"),
         QT_TRANSLATE_NOOP("Field", "load the checkpoint's multi-token-prediction layers for speculative decoding (DeepSeek-V3, "
            "GLM-4.5); transformers skips them"),
         nullptr, {}, flagOf<&S::model, &ModelSpec::loadMtp>, flagOf<&S::model, &ModelSpec::loadMtp>,
         setFlag<&S::model, &ModelSpec::loadMtp>, hasMtp},
        {FieldId::DraftPreset, "draft.preset", "draft-preset", "ID", FieldKind::ModelPreset, FieldGroup::Serving, 0, 0, 0,
         0, 0, "", QT_TRANSLATE_NOOP("Field", "Draft model"),
         QT_TRANSLATE_NOOP("Field", "a smaller model that drafts tokens for speculative decoding: its weights and KV cache "
            "come on top (a preset id, see 'vramplanner-cli models'); empty: none"),
         nullptr, {}, [](const S &s) { return FieldValue(s.draft.presetId); },
         [](const S &s) { return FieldValue(s.draft.presetId); },
         [](S &s, const FieldValue &v) {
             // Another id drops the architecture until core::io::resolveDraft finds it.
             const std::string &id = std::get<std::string>(v);
             if (id != s.draft.presetId)
                 s.draft = DraftModel{id, std::nullopt};
         },
         inference},
        {FieldId::Gpus, "gpus", "gpus", "N", FieldKind::Integer, FieldGroup::Cluster, 1, L::maxGpus, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "GPUs"), QT_TRANSLATE_NOOP("Field", "GPUs in the run: tp x pp x data parallel"), nullptr, {}, numberOf<&S::gpus>, numberOf<&S::gpus>,
         setNumber<&S::gpus>, always},
        {FieldId::Devices, "devices", "devices", "IDS", FieldKind::TextList, FieldGroup::Cluster, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Mixed GPUs"),
         QT_TRANSLATE_NOOP("Field", "a mixed set of catalog GPUs in split order, e.g. rtx-4090,rtx-3090; sets the GPU count and "
            "fits each GPU against its own memory; empty: GPUs of one kind"),
         nullptr, {}, [](const S &s) { return FieldValue(idListText(s.devices)); },
         [](const S &s) { return FieldValue(idListText(s.devices)); },
         [](S &s, const FieldValue &v) {
             s.devices = splitIds(std::get<std::string>(v));
             if (!s.devices.empty())
                 s.gpus = static_cast<int>(std::min<std::size_t>(s.devices.size(), L::maxGpus));
         },
         always},
        {FieldId::Zero, "zero", "zero", "STAGE", FieldKind::Integer, FieldGroup::Cluster, 0, 3, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "ZeRO stage"), QT_TRANSLATE_NOOP("Field", "ZeRO / FSDP stage for training: what the data-parallel GPUs shard"), nullptr,
         {{"0", QT_TRANSLATE_NOOP("Field", "0 (data parallel)")}, {"1", QT_TRANSLATE_NOOP("Field", "1 (optimizer states)")}, {"2", QT_TRANSLATE_NOOP("Field", "2 (+ gradients)")},
          {"3", QT_TRANSLATE_NOOP("Field", "3 (+ weights, FSDP full shard)")}},
         numberOf<&S::zeroStage>, numberOf<&S::zeroStage>, setNumber<&S::zeroStage>, training},
        {FieldId::Tp, "parallel.tp", "tp", "N", FieldKind::Integer, FieldGroup::Cluster, 1, L::maxTp, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Tensor parallel"), QT_TRANSLATE_NOOP("Field", "tensor-parallel degree"), nullptr, {}, numberOf<&S::parallel, &Parallelism::tp>,
         numberOf<&S::parallel, &Parallelism::tp>, setNumber<&S::parallel, &Parallelism::tp>, always},
        {FieldId::Pp, "parallel.pp", "pp", "N", FieldKind::Integer, FieldGroup::Cluster, 1, L::maxPp, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Pipeline stages"), QT_TRANSLATE_NOOP("Field", "pipeline-parallel stages"), nullptr, {}, numberOf<&S::parallel, &Parallelism::pp>,
         numberOf<&S::parallel, &Parallelism::pp>, setNumber<&S::parallel, &Parallelism::pp>, always},
        {FieldId::Ep, "parallel.ep", "ep", "N", FieldKind::Integer, FieldGroup::Cluster, 1, L::maxEp, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Expert parallel"), QT_TRANSLATE_NOOP("Field", "expert-parallel degree for mixture-of-experts models"), nullptr, {},
         numberOf<&S::parallel, &Parallelism::ep>, numberOf<&S::parallel, &Parallelism::ep>,
         setNumber<&S::parallel, &Parallelism::ep>, always},
        {FieldId::SequenceParallel, "parallel.sp", "sp", nullptr, FieldKind::Flag, FieldGroup::Cluster, 0, 0, 0, 0, 0, "",
         QT_TRANSLATE_NOOP("Field", "Sequence parallel"), QT_TRANSLATE_NOOP("Field", "sequence parallelism (needs tensor parallel > 1)"), nullptr, {},
         flagOf<&S::parallel, &Parallelism::sequenceParallel>, flagOf<&S::parallel, &Parallelism::sequenceParallel>,
         setFlag<&S::parallel, &Parallelism::sequenceParallel>, training},
        {FieldId::Interleave, "parallel.interleave", "interleave", "V", FieldKind::Integer, FieldGroup::Cluster, 1,
         L::maxInterleave, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Interleaved stages"), QT_TRANSLATE_NOOP("Field", "virtual pipeline stages per GPU (1: plain 1F1B)"),
         nullptr, {}, numberOf<&S::parallel, &Parallelism::interleave>, numberOf<&S::parallel, &Parallelism::interleave>,
         setNumber<&S::parallel, &Parallelism::interleave>, training},
        {FieldId::Offload, "parallel.offload", "offload", "WHAT", FieldKind::Choice, FieldGroup::Cluster, 0, 0, 0, 0, 0,
         "", QT_TRANSLATE_NOOP("Field", "Offload"), QT_TRANSLATE_NOOP("Field", "what ZeRO-Offload / ZeRO-Infinity move to host memory"), nullptr,
         choicesOf(kOffloadSpellings),
         choiceOf<offloadId, &S::parallel, &Parallelism::offload>, choiceOf<offloadId, &S::parallel, &Parallelism::offload>,
         setChoice<parseOffload, &S::parallel, &Parallelism::offload>, training},
        {FieldId::GpusPerNode, "parallel.gpus_per_node", "gpus-per-node", "N", FieldKind::Integer, FieldGroup::Cluster, 1,
         L::maxGpusPerNode, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "GPUs per node"), QT_TRANSLATE_NOOP("Field", "GPUs per node"), nullptr, {},
         numberOf<&S::parallel, &Parallelism::gpusPerNode>, numberOf<&S::parallel, &Parallelism::gpusPerNode>,
         setNumber<&S::parallel, &Parallelism::gpusPerNode>, always},
        {FieldId::HybridShard, "parallel.hybrid_shard", "hybrid-shard", nullptr, FieldKind::Flag, FieldGroup::Cluster, 0,
         0, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Hybrid sharding"), QT_TRANSLATE_NOOP("Field", "shard ZeRO/FSDP states within a node, replicate across nodes"),
         nullptr, {}, flagOf<&S::parallel, &Parallelism::hybridShard>, flagOf<&S::parallel, &Parallelism::hybridShard>,
         setFlag<&S::parallel, &Parallelism::hybridShard>, training},
        {FieldId::Tokens, "workload.tokens", "tokens", "N", FieldKind::Integer, FieldGroup::Workload, 0, 1e16, 0, 0, 0,
         QT_TRANSLATE_NOOP("Field", "tokens"), QT_TRANSLATE_NOOP("Field", "Training tokens"), QT_TRANSLATE_NOOP("Field", "training token budget for time and cost (e.g. 1e9, 300B)"), nullptr,
         {}, numberOf<&S::workload, &Workload::trainingTokens>, numberOf<&S::workload, &Workload::trainingTokens>,
         setNumber<&S::workload, &Workload::trainingTokens>, training},
        {FieldId::Mfu, "workload.mfu", "mfu", "F", FieldKind::Number, FieldGroup::Workload, 0.001, 1, 0, 0, 2, "",
         QT_TRANSLATE_NOOP("Field", "MFU"), QT_TRANSLATE_NOOP("Field", "model FLOPs utilisation assumed for time"), nullptr, {}, numberOf<&S::workload, &Workload::mfu>,
         numberOf<&S::workload, &Workload::mfu>, setNumber<&S::workload, &Workload::mfu>, training},
        {FieldId::PricePerGpuHour, "workload.price_per_gpu_hour", "price-per-gpu-hour", "P", FieldKind::Number,
         FieldGroup::Workload, 0, 1e6, 0, 0, 2, "", QT_TRANSLATE_NOOP("Field", "Price per GPU-hour"), QT_TRANSLATE_NOOP("Field", "price per GPU-hour for cost (0: none)"),
         nullptr, {}, numberOf<&S::workload, &Workload::pricePerGpuHour>, numberOf<&S::workload, &Workload::pricePerGpuHour>,
         setNumber<&S::workload, &Workload::pricePerGpuHour>, always},
        {FieldId::RequestRate, "workload.request_rate", "request-rate", "R", FieldKind::Number, FieldGroup::Workload, 0,
         1e6, 0, 0, 2, QT_TRANSLATE_NOOP("Field", "requests/s"), QT_TRANSLATE_NOOP("Field", "Target request rate"),
         QT_TRANSLATE_NOOP("Field", "requests per second to serve: how many GPUs that takes (0: not asked)"), nullptr, {},
         numberOf<&S::workload, &Workload::requestRate>, numberOf<&S::workload, &Workload::requestRate>,
         setNumber<&S::workload, &Workload::requestRate>, inference},
        {FieldId::OutputTokens, "workload.output_tokens", "output-tokens", "N", FieldKind::Integer, FieldGroup::Workload, 1,
         L::maxSequence, 0, 0, 0, QT_TRANSLATE_NOOP("Field", "tokens"), QT_TRANSLATE_NOOP("Field", "Output tokens per request"),
         QT_TRANSLATE_NOOP("Field", "tokens each request generates; its prompt is the rest of the context"), nullptr, {},
         numberOf<&S::workload, &Workload::outputTokens>, numberOf<&S::workload, &Workload::outputTokens>,
         setNumber<&S::workload, &Workload::outputTokens>, inference},
        {FieldId::InterNodeGBps, "workload.inter_node_gb_per_s", "inter-node-gbps", "B", FieldKind::Number,
         FieldGroup::Workload, 0.001, 1e5, 0, 0, 1, QT_TRANSLATE_NOOP("Field", "GB/s"), QT_TRANSLATE_NOOP("Field", "Inter-node bandwidth"),
         QT_TRANSLATE_NOOP("Field", "per-GPU bandwidth between nodes, GB/s (50: 400 Gb/s InfiniBand)"), nullptr, {},
         numberOf<&S::workload, &Workload::interNodeGBps>, numberOf<&S::workload, &Workload::interNodeGBps>,
         setNumber<&S::workload, &Workload::interNodeGBps>, severalGpus},
        {FieldId::Gpu, "gpu", "gpu", "ID", FieldKind::Text, FieldGroup::Cluster, 0, 0, 0, 0, 0, "", QT_TRANSLATE_NOOP("Field", "Focus GPU"),
         QT_TRANSLATE_NOOP("Field", "the GPU to focus on: its fit, time and cost (see 'vramplanner-cli gpus')"), nullptr, {},
         [](const S &s) { return FieldValue(s.gpuId); }, [](const S &s) { return FieldValue(s.gpuId); },
         [](S &s, const FieldValue &v) { s.gpuId = std::get<std::string>(v); }, always},
        {FieldId::CudaOverheadMib, "cuda_overhead_mib", "cuda-overhead-mib", "N", FieldKind::Number, FieldGroup::Runtime,
         0, L::maxCudaOverheadMib, 0, 0, 0, QT_TRANSLATE_NOOP("Field", "MiB"), QT_TRANSLATE_NOOP("Field", "CUDA context"), QT_TRANSLATE_NOOP("Field", "CUDA context per GPU in MiB"),
         QT_TRANSLATE_NOOP("Field", "the module loading"), {}, optionalNumberOf<&S::cudaOverheadMib>,
         [](const S &s) { return FieldValue(s.effectiveCudaOverheadMib()); }, setOptionalNumber<&S::cudaOverheadMib>, always},
        {FieldId::CudaLoading, "cuda_loading", "cuda-loading", "KIND", FieldKind::Choice, FieldGroup::Runtime, 0, 0, 0, 0,
         0, "", QT_TRANSLATE_NOOP("Field", "CUDA module loading"), QT_TRANSLATE_NOOP("Field", "CUDA module loading; lazy since CUDA 11.7, eager before"), nullptr,
         choicesOf(kCudaLoadingSpellings),
         choiceOf<cudaLoadingId, &S::cudaLoading>, choiceOf<cudaLoadingId, &S::cudaLoading>,
         setChoice<parseCudaLoading, &S::cudaLoading>, always},
        {FieldId::ReservePercent, "reserve_percent", "reserve-percent", "P", FieldKind::Number, FieldGroup::Runtime, 0, 99,
         0, 0, 1, "%", QT_TRANSLATE_NOOP("Field", "Reserve margin"), QT_TRANSLATE_NOOP("Field", "allocator reserve / fragmentation margin, in % of tensor memory"),
         nullptr, {}, numberOf<&S::reservePercent>, numberOf<&S::reservePercent>, setNumber<&S::reservePercent>, always},
    };
    return f;
}

/// "1048576", "0.01", "1e+16" without trailing zeros: a range bound as typed.
std::string plain(double value)
{
    std::ostringstream out;
    out.precision(15);
    out << value;
    return out.str();
}

} // namespace

const std::vector<FieldDescriptor> &allFields()
{
    static const std::vector<FieldDescriptor> fields = makeFields();
    return fields;
}

const FieldDescriptor &field(FieldId id) { return allFields()[static_cast<std::size_t>(id)]; }

const FieldDescriptor *findFieldByKey(const std::string &key)
{
    for (const FieldDescriptor &f : allFields())
        if (key == f.key)
            return &f;
    return nullptr;
}

std::string choiceList(const FieldDescriptor &f, const char *separator)
{
    std::string list;
    for (const FieldChoice &c : f.choices)
        list += (list.empty() ? "" : separator) + std::string(c.id);
    return list;
}

std::string checkFieldValue(const FieldDescriptor &f, const FieldValue &value)
{
    if (std::holds_alternative<std::monostate>(value))
        return f.optional() ? "" : "has no default to return to";
    const auto outOfRange = [&f] {
        return "must be between " + plain(f.min) + " and " + plain(f.max) + (*f.unit ? " " + std::string(f.unit) : "");
    };
    const auto notAChoice = [&f](const std::string &id) { return "'" + id + "' is not one of " + choiceList(f); };
    const auto isChoice = [&f](const std::string &id) {
        for (const FieldChoice &c : f.choices)
            if (id == c.id)
                return true;
        return false;
    };
    switch (f.kind) {
    case FieldKind::Integer:
    case FieldKind::Number: {
        const double *v = std::get_if<double>(&value);
        if (!v || !std::isfinite(*v) || *v < f.min || *v > f.max)
            return outOfRange();
        if (f.kind == FieldKind::Integer && *v != std::floor(*v))
            return "must be a whole number";
        return "";
    }
    case FieldKind::Choice: {
        const std::string *id = std::get_if<std::string>(&value);
        return !id ? "expected one of " + choiceList(f) : (isChoice(*id) ? "" : notAChoice(*id));
    }
    case FieldKind::ChoiceSet: {
        const std::string *ids = std::get_if<std::string>(&value);
        if (!ids)
            return "expected a comma list of " + choiceList(f);
        std::istringstream in(*ids);
        std::string item;
        while (std::getline(in, item, ','))
            if (!isChoice(item))
                return notAChoice(item);
        return "";
    }
    case FieldKind::Flag:
        return std::holds_alternative<bool>(value) ? "" : "expected true or false";
    case FieldKind::Text:
        return std::holds_alternative<std::string>(value) ? "" : "expected text";
    case FieldKind::ModelPreset: {
        const std::string *id = std::get_if<std::string>(&value);
        if (!id)
            return "expected a model preset id (see 'vramplanner-cli models')";
        return id->find_first_of(" \t,") == std::string::npos ? "" : "'" + *id + "' is not a model preset id";
    }
    case FieldKind::TextList: {
        const std::string *list = std::get_if<std::string>(&value);
        if (!list)
            return "expected ids separated by commas, e.g. rtx-4090,rtx-3090";
        if (list->empty())
            return "";
        for (const std::string &id : splitIds(*list))
            if (id.empty() || id.find_first_of(" \t") != std::string::npos)
                return "'" + *list + "' is not a comma list of ids (e.g. rtx-4090,rtx-3090)";
        return "";
    }
    case FieldKind::NumberList: {
        const std::string *list = std::get_if<std::string>(&value);
        if (!list)
            return "expected positive numbers separated by commas, e.g. 24,12";
        std::istringstream in(*list);
        std::string item;
        while (std::getline(in, item, ','))
            if (const auto number = parseDecimal(item); !number || !(*number > 0) || !std::isfinite(*number))
                return "'" + item + "' is not a positive number (e.g. 24,12)";
        return "";
    }
    }
    return "";
}

std::optional<FieldValue> parseFieldValue(const FieldDescriptor &f, const std::string &text, std::string &error)
{
    if (f.optional() && text == "default")
        return FieldValue();
    FieldValue value;
    switch (f.kind) {
    case FieldKind::Integer: {
        // The spellings --params takes: 4096, 32k, 1e6, 1M, 4,096.
        const auto count = text == "0" ? std::optional<std::uint64_t>(0) : parseCount(text);
        if (!count || static_cast<double>(*count) < f.min || static_cast<double>(*count) > f.max) {
            error = "'" + text + "' is not an integer between " + plain(f.min) + " and " + plain(f.max);
            return std::nullopt;
        }
        value = static_cast<double>(*count);
        break;
    }
    case FieldKind::Number: {
        std::istringstream in(text);
        double number = 0;
        in >> number;
        // A size in GiB also takes a size with its unit: "64GB", "512 GiB".
        if ((!in || !in.eof()) && std::string(f.unit) == "GiB")
            if (const auto bytes = parseBytes(text)) {
                number = static_cast<double>(bytes->count()) / (1024.0 * 1024.0 * 1024.0);
                in.clear(std::ios::eofbit);
            }
        if (!in || !in.eof() || !std::isfinite(number) || number < f.min || number > f.max) {
            error = "'" + text + "' is not a number between " + plain(f.min) + " and " + plain(f.max);
            return std::nullopt;
        }
        value = number;
        break;
    }
    case FieldKind::ChoiceSet: {
        // "all" names every choice; "attention" the attention projections.
        if (text == "all")
            value = targetsText({LinearSlot::Q, LinearSlot::K, LinearSlot::V, LinearSlot::O, LinearSlot::Gate,
                                 LinearSlot::Up, LinearSlot::Down});
        else if (text == "attention")
            value = targetsText({LinearSlot::Q, LinearSlot::K, LinearSlot::V, LinearSlot::O});
        else
            value = text;
        break;
    }
    case FieldKind::Flag:
        value = text.empty() || text == "true" || text == "on";
        break;
    case FieldKind::Choice:
    case FieldKind::Text:
    case FieldKind::ModelPreset:
    case FieldKind::NumberList:
    case FieldKind::TextList:
        value = text;
        break;
    }
    error = checkFieldValue(f, value);
    if (!error.empty())
        return std::nullopt;
    return value;
}

std::string formatFieldValue(const FieldDescriptor &f, const FieldValue &value)
{
    if (std::holds_alternative<std::monostate>(value))
        return f.defaultFollows ? std::string("default (") + f.defaultFollows + ")" : "default";
    if (const bool *on = std::get_if<bool>(&value))
        return *on ? "on" : "off";
    if (const std::string *text = std::get_if<std::string>(&value))
        return text->empty() ? "none" : *text;
    const double v = std::get<double>(value);
    if (f.kind == FieldKind::Integer && v >= 0 && v < 1.8e19)
        return groupDigits(static_cast<std::uint64_t>(v));
    return formatFixed(v, f.decimals);
}

std::string describeDefault(const FieldDescriptor &f)
{
    if (!f.optional())
        return formatFieldValue(f, f.stored(Scenario{}));
    // The default as each mode sees it, grouped: "bf16 (inference, train,
    // lora), nf4-dq (qlora)"; then what it follows.
    std::vector<std::pair<std::string, std::string>> groups; // value, modes
    for (const ModeInfo &m : allModes()) {
        Scenario s;
        s.mode = m.mode;
        if (!f.applies(s))
            continue;
        const std::string text = formatFieldValue(f, f.effective(s));
        auto group = std::find_if(groups.begin(), groups.end(), [&text](const auto &g) { return g.first == text; });
        if (group == groups.end())
            groups.push_back({text, m.id});
        else
            group->second += std::string(", ") + m.id;
    }
    // A field of another engine applies in no mode of the default scenario.
    if (groups.empty() || (groups.size() == 1 && std::holds_alternative<std::monostate>(f.effective(Scenario{}))))
        return std::string("follows ") + f.defaultFollows;
    std::string text;
    for (const auto &[value, modes] : groups)
        text += (text.empty() ? "" : ", ") + value + (groups.size() > 1 ? " (" + modes + ")" : "");
    return text + "; follows " + f.defaultFollows;
}

bool isInRange(const FieldDescriptor &f, const Scenario &s)
{
    const FieldValue value = f.stored(s);
    const double *number = std::get_if<double>(&value);
    return !number || (*number >= f.min && *number <= f.max); // NaN compares false
}

std::vector<FieldId> changedFields(const Scenario &before, const Scenario &after)
{
    std::vector<FieldId> changed;
    for (const FieldDescriptor &f : allFields())
        if (f.stored(before) != f.stored(after))
            changed.push_back(f.id);
    return changed;
}

} // namespace core
