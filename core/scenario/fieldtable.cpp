// The field table: every input described once, a property a line.

#include "core/scenario/fields.h"

#include "core/base/translatable.h"
#include "core/scenario/fieldtext.h"
#include "core/scenario/inputspellings.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
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
/// vLLM's --kv-cache-dtype spellings (vllm/config/cache.py CacheDType,
/// 002f10e) of the formats the planner names otherwise: the fp8 variants
/// are one byte a value alike, nvfp4_4over6 is NVFP4's layout.
const std::vector<FieldAlias> kVllmKvSpellings = {
    {"float16", "fp16"}, {"bfloat16", "bf16"}, {"float32", "fp32"}, {"fp8_e4m3", "fp8"}, {"fp8_e5m2", "fp8"},
    {"fp8_inc", "fp8"}, {"fp8_per_token_head", "fp8-per-token-head"}, {"int8_per_token_head", "int8-per-token-head"},
    {"int4_per_token_head", "int4-per-token-head"}, {"nvfp4_4over6", "nvfp4"}, {"turboquant_k8v4", "turboquant-k8v4"},
    {"turboquant_4bit_nc", "turboquant-4bit-nc"}, {"turboquant_k3v4_nc", "turboquant-k3v4-nc"},
    {"turboquant_3bit_nc", "turboquant-3bit-nc"},
};

std::optional<WeightFormat> parseKvFormat(const std::string &id)
{
    const auto f = parseFormat(id);
    return f && formatInfo(*f).usableForKvCache ? f : std::nullopt;
}

bool always(const Scenario &) { return true; }
bool multimodal(const Scenario &s) { return s.model.imageTokens > 0; }
bool hasMtp(const Scenario &s) { return s.model.mtpLayers > 0; }
bool training(const Scenario &s) { return s.isTraining(); }
bool inference(const Scenario &s) { return !s.isTraining(); }
bool adapters(const Scenario &s) { return s.mode == Mode::Lora || s.mode == Mode::Qlora; }
bool vllm(const Scenario &s) { return !s.isTraining() && s.serving == ServingEngine::Vllm; }
bool llamaCpp(const Scenario &s) { return !s.isTraining() && s.serving == ServingEngine::LlamaCpp; }
bool kvPoolIs(const Scenario &s, KvPool pool)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->kvPool == pool;
}
/// SGLang-like: a pool of mem_fraction_static of the free memory.
bool poolOfFreeMemory(const Scenario &s) { return kvPoolIs(s, KvPool::ShareOfFreeBeforeWeights); }
/// TensorRT-LLM-like: a pool of free_gpu_memory_fraction of what is left free.
bool poolOfFreeAfterProfile(const Scenario &s) { return kvPoolIs(s, KvPool::ShareOfFreeAfterProfile); }
/// An engine that profiles a forward at start-up and batches continuously.
bool profilesAtStartup(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->profilesAtStartup;
}
bool engineReleases(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->releases;
}
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
/// A stack that keeps LoRA adapters in fp32 (PEFT autocast_adapter_dtype)
/// makes no 16-bit copy and no master copy of them, whatever the regime.
const char *regimeOverride(const Scenario &s)
{
    return adapters(s) && stackBehaviour(s).fp32Adapters
        ? QT_TRANSLATE_NOOP("Field",
              "the stack keeps the adapters in fp32, with no master copy; the regime only chooses whether autocast runs")
        : nullptr;
}

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

/// One field written one property a line: where it lives and shows, its
/// CLI spelling, its kind with its range or choices, its words, how the
/// scenario holds it and when it matters.
class Field
{
public:
    Field(FieldId id, const char *key, FieldGroup group)
        : m_field{id, key, nullptr, nullptr, FieldKind::Integer, group, 0, 0, 0, 0, 0, "", CountSuffixes::Decimal,
                  nullptr, nullptr, nullptr, nullptr, {}, {}, nullptr, nullptr, nullptr, nullptr}
    {
    }
    operator FieldDescriptor() const { return m_field; }

    /// The CLI option without dashes and its value's placeholder (none for
    /// an on/off field).
    Field &cli(const char *flag, const char *metavar = nullptr)
    {
        m_field.flag = flag;
        m_field.metavar = metavar;
        return *this;
    }

    Field &integer(double min, double max) { return range(FieldKind::Integer, min, max); }
    /// Tokens of a context: k and M are binary, as context lengths are written.
    Field &tokenCount() { return set(m_field.countSuffixes, CountSuffixes::Binary); }
    Field &zeroMeansNone() { return set(m_field.zeroMeansNone, true); }
    Field &number(double min, double max, int decimals)
    {
        m_field.decimals = decimals;
        return range(FieldKind::Number, min, max);
    }
    /// An integer's named values (ZeRO stages).
    Field &namedValues(std::vector<FieldChoice> choices) { return withChoices(m_field.kind, std::move(choices)); }
    Field &example(const char *text)
    {
        m_field.example = text;
        return *this;
    }
    Field &aliases(std::vector<FieldAlias> spellings)
    {
        m_field.aliases = std::move(spellings);
        return *this;
    }
    Field &oneOf(std::vector<FieldChoice> choices) { return withChoices(FieldKind::Choice, std::move(choices)); }
    Field &someOf(std::vector<FieldChoice> choices) { return withChoices(FieldKind::ChoiceSet, std::move(choices)); }
    Field &onOff() { return kind(FieldKind::Flag); }
    Field &text() { return kind(FieldKind::Text); }
    Field &numberList() { return kind(FieldKind::NumberList); }
    Field &textList() { return kind(FieldKind::TextList); }
    Field &modelPreset() { return kind(FieldKind::ModelPreset); }
    /// The range a slider spans (log scale).
    Field &slider(double from, double to)
    {
        m_field.typicalMin = from;
        m_field.typicalMax = to;
        return *this;
    }

    Field &unit(const char *unit) { return set(m_field.unit, unit); }
    Field &label(const char *label) { return set(m_field.label, label); }
    Field &help(const char *help) { return set(m_field.help, help); }
    /// Makes the field optional: unset, its value follows `what`.
    Field &defaultFollows(const char *what) { return set(m_field.defaultFollows, what); }

    /// A number at the member path `Path` (&Scenario::parallel, &Parallelism::tp).
    template <auto... Path>
    Field &numberIn() { return accessors(numberOf<Path...>, setNumber<Path...>); }
    template <auto... Path>
    Field &optionalNumberIn() { return accessors(optionalNumberOf<Path...>, setOptionalNumber<Path...>); }
    template <auto... Path>
    Field &flagIn() { return accessors(flagOf<Path...>, setFlag<Path...>); }
    /// An enum at `Path`, spelt by `Id` and read back by `Parse`.
    template <auto Id, auto Parse, auto... Path>
    Field &choiceIn() { return accessors(choiceOf<Id, Path...>, setChoice<Parse, Path...>); }
    template <auto Id, auto Parse, auto... Path>
    Field &optionalChoiceIn() { return accessors(optionalChoiceOf<Id, Path...>, setOptionalChoice<Parse, Path...>); }
    /// A comma list of ids held as the list at `Member`.
    template <auto Member>
    Field &idListIn()
    {
        return textList().accessors([](const Scenario &s) { return FieldValue(idListText(s.*Member)); },
                                    [](Scenario &s, const FieldValue &v) { s.*Member = splitIds(std::get<std::string>(v)); });
    }
    /// How the scenario holds the value: read as stored (and as the engine
    /// uses it, unless `effective` says otherwise) and assigned.
    Field &accessors(FieldValue (*stored)(const Scenario &), void (*assign)(Scenario &, const FieldValue &))
    {
        m_field.stored = stored;
        m_field.effective = stored;
        m_field.assign = assign;
        return *this;
    }
    /// The value the engine uses, where it is not the stored one.
    Field &effective(FieldValue (*effective)(const Scenario &)) { return set(m_field.effective, effective); }

    Field &appliesWhen(bool (*applies)(const Scenario &)) { return set(m_field.applies, applies); }
    Field &checkedBy(std::optional<Message> (*check)(const std::string &)) { return set(m_field.checkText, check); }
    Field &shorthandFor(FieldId field) { return set(m_field.shorthandFor, field); }
    Field &overriddenWhen(const char *(*by)(const Scenario &)) { return set(m_field.overriddenBy, by); }

private:
    template <typename Member, typename Value>
    Field &set(Member &member, Value value)
    {
        member = value;
        return *this;
    }
    Field &kind(FieldKind kind) { return set(m_field.kind, kind); }
    Field &range(FieldKind kind, double min, double max)
    {
        m_field.min = min;
        m_field.max = max;
        return this->kind(kind);
    }
    Field &withChoices(FieldKind kind, std::vector<FieldChoice> choices)
    {
        m_field.choices = std::move(choices);
        return this->kind(kind);
    }

    FieldDescriptor m_field;
};

std::vector<FieldDescriptor> makeFields()
{
    using L = ScenarioLimits;
    using S = Scenario;
    std::vector<FieldChoice> formats;
    std::vector<FieldChoice> kvFormats;
    for (const FormatInfo &f : allFormats()) {
        if (!f.cacheOnly && !f.checkpointOnly)
            formats.push_back({f.id, f.id});
        if (f.usableForKvCache)
            kvFormats.push_back({f.id, f.id});
    }
    const std::vector<FieldChoice> slots = choicesOf(kSlotSpellings);

    // Labels and help are English source text for Qt Linguist (context
    // "Field"); ids and flags are the file and CLI spellings.
    std::vector<FieldDescriptor> f = {
        Field(FieldId::Mode, "mode", FieldGroup::Main)
            .cli("mode", "MODE")
            .oneOf(choicesOf(allModes(), [](const ModeInfo &m) { return m.label; }))
            .label(QT_TRANSLATE_NOOP("Field", "Mode"))
            .help(QT_TRANSLATE_NOOP("Field", "what the GPUs do"))
            .choiceIn<modeId, parseMode, &S::mode>()
            .appliesWhen(always),
        Field(FieldId::Weights, "weights", FieldGroup::Main)
            .cli("weights", "FORMAT")
            .oneOf(formats)
            .label(QT_TRANSLATE_NOOP("Field", "Precision"))
            .help(QT_TRANSLATE_NOOP("Field", "weight format, by bits per weight"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the mode and the checkpoint"))
            .optionalChoiceIn<formatId, parseWeightFormat, &S::weights>()
            .effective([](const S &s) { return FieldValue(std::string(formatId(s.effectiveWeights()))); })
            .appliesWhen(storedWeights),
        Field(FieldId::GroupSize, "group_size", FieldGroup::Precision)
            .cli("group-size", "G")
            .integer(1, L::maxGroupSize)
            .label(QT_TRANSLATE_NOOP("Field", "Group size"))
            .help(QT_TRANSLATE_NOOP("Field", "GPTQ/AWQ quantisation group size"))
            .numberIn<&S::groupSize>()
            .appliesWhen(storedWeights),
        Field(FieldId::QuantizeEmbeddings, "quantize_embeddings", FieldGroup::Precision)
            .cli("quantize-embeddings")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "Quantise embeddings too"))
            .help(QT_TRANSLATE_NOOP("Field",
                "quantise the embeddings and lm_head as well; libraries keep them at 16 bits"))
            .flagIn<&S::quantizeEmbeddings>()
            .appliesWhen(storedWeights),
        Field(FieldId::Regime, "regime", FieldGroup::Training)
            .cli("regime", "REGIME")
            .oneOf(choicesOf(allRegimes(), [](const RegimeInfo &r) { return r.label; }))
            .label(QT_TRANSLATE_NOOP("Field", "Training regime"))
            .help(QT_TRANSLATE_NOOP("Field",
                "which copies of the weights, gradients and optimizer states are kept, in which dtype"))
            .choiceIn<regimeId, parseRegime, &S::regime>()
            .appliesWhen(training)
            .overriddenWhen(regimeOverride),
        Field(FieldId::Optimizer, "optimizer", FieldGroup::Main)
            .cli("optimizer", "NAME")
            .oneOf(choicesOf(allOptimizers(), [](const OptimizerInfo &o) { return o.id; }))
            .label(QT_TRANSLATE_NOOP("Field", "Optimizer"))
            .help(QT_TRANSLATE_NOOP("Field", "optimizer, by the states it keeps per parameter"))
            .choiceIn<optimizerId, parseOptimizer, &S::optimizer>()
            .appliesWhen(training),
        Field(FieldId::OptimizerImpl, "optimizer_impl", FieldGroup::Training)
            .cli("optimizer-impl", "IMPL")
            .oneOf(choicesOf(kOptimizerImplSpellings))
            .label(QT_TRANSLATE_NOOP("Field", "Optimizer step"))
            .help(QT_TRANSLATE_NOOP("Field", "the optimizer step's temporaries; foreach keeps one full-size copy"))
            .choiceIn<optimizerImplId, parseOptimizerImpl, &S::optimizerImpl>()
            .effective([](const S &s) { return FieldValue(std::string(optimizerImplId(s.effectiveOptimizerImpl()))); })
            .appliesWhen(training),
        Field(FieldId::Batch, "batch", FieldGroup::Main)
            .cli("batch", "N")
            .integer(1, L::maxBatch)
            .slider(1, 4096)
            .label(QT_TRANSLATE_NOOP("Field", "Batch size"))
            .help(QT_TRANSLATE_NOOP("Field", "micro-batch per GPU"))
            .numberIn<&S::batch>()
            .appliesWhen(always),
        Field(FieldId::Sequence, "sequence", FieldGroup::Main)
            .cli("seq", "N")
            .integer(1, L::maxSequence)
            .tokenCount()
            .slider(128, 1u << 20)
            .unit(QT_TRANSLATE_NOOP("Field", "tokens"))
            .label(QT_TRANSLATE_NOOP("Field", "Sequence length"))
            .help(QT_TRANSLATE_NOOP("Field", "sequence length / context in tokens"))
            .numberIn<&S::sequence>()
            .appliesWhen(always),
        Field(FieldId::Images, "images", FieldGroup::Input)
            .cli("images", "N")
            .integer(0, L::maxImages)
            .label(QT_TRANSLATE_NOOP("Field", "Images per sequence"))
            .help(QT_TRANSLATE_NOOP("Field",
                "images in each sequence of a multimodal model; each adds the model's image tokens to the context"))
            .numberIn<&S::images>()
            .appliesWhen(multimodal),
        Field(FieldId::GradAccum, "grad_accum", FieldGroup::Training)
            .cli("grad-accum", "N")
            .integer(1, L::maxGradAccum)
            .label(QT_TRANSLATE_NOOP("Field", "Gradient accumulation"))
            .help(QT_TRANSLATE_NOOP("Field", "gradient accumulation steps"))
            .numberIn<&S::gradAccum>()
            .appliesWhen(training),
        Field(FieldId::Checkpointing, "checkpointing", FieldGroup::Training)
            .cli("checkpointing", "KIND")
            .oneOf(choicesOf(kCheckpointingSpellings))
            .label(QT_TRANSLATE_NOOP("Field", "Checkpointing"))
            .help(QT_TRANSLATE_NOOP("Field", "activation checkpointing; selective recomputes attention"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the training stack"))
            .optionalChoiceIn<checkpointingId, parseCheckpointing, &S::checkpointing>()
            .effective([](const S &s) { return FieldValue(std::string(checkpointingId(s.effectiveCheckpointing()))); })
            .appliesWhen(training),
        Field(FieldId::Stack, "stack", FieldGroup::Training)
            .cli("stack", "STACK")
            .oneOf(choicesOf(allStacks(), [](const StackInfo &i) { return i.label; }))
            .label(QT_TRANSLATE_NOOP("Field", "Training stack"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the software that runs the training; it decides adapter dtypes, the kbit upcast, defaults and "
                "saved tensors"))
            .choiceIn<stackId, parseStack, &S::stack>()
            .appliesWhen(training),
        Field(FieldId::Versions, "versions", FieldGroup::Training)
            .cli("versions", "LIB=X.Y,...")
            .text()
            .label(QT_TRANSLATE_NOOP("Field", "Library versions"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the releases the run uses, e.g. transformers=4.44,torch=2.3 (transformers, peft, accelerate, "
                "bitsandbytes, torch, torchtune, litgpt, vllm, sglang); each sets the defaults its library had then; unset: "
                "current releases"))
            .accessors([](const S &s) { return FieldValue(libraryVersionsText(s.versions)); },
                [](S &s, const FieldValue &v) {
                    std::optional<Message> problem;
                    if (const auto parsed = parseLibraryVersions(std::get<std::string>(v), problem))
                        s.versions = *parsed;
                })
            .checkedBy([](const std::string &text) {
                std::optional<Message> problem;
                parseLibraryVersions(text, problem);
                return problem;
            })
            .appliesWhen([](const S &s) { return training(s) || engineReleases(s); }),
        Field(FieldId::TorchVersion, "torch_version", FieldGroup::Training)
            .cli("torch-version", "X.Y")
            .text()
            .label(QT_TRANSLATE_NOOP("Field", "PyTorch version"))
            .help(QT_TRANSLATE_NOOP("Field", "the PyTorch release, e.g. 2.3: --versions torch=2.3"))
            .accessors(
                [](const S &s) {
                    const auto &v = s.versions.of(Library::Torch);
                    return FieldValue(v ? versionText(*v) : std::string());
                },
                [](S &s, const FieldValue &v) {
                    const std::string &text = std::get<std::string>(v);
                    s.versions.set(Library::Torch, text.empty() || text == "current" ? std::nullopt : parseVersion(text));
                })
            .checkedBy([](const std::string &text) { return releaseProblem(text, "2.3"); })
            .shorthandFor(FieldId::Versions)
            .appliesWhen(training),
        Field(FieldId::Bitsandbytes, "bitsandbytes", FieldGroup::Training)
            .cli("bnb", "VERSION")
            .oneOf(choicesOf(allBitsandbytesVersions(), [](const BitsandbytesInfo &b) { return b.label; }))
            .label(QT_TRANSLATE_NOOP("Field", "bitsandbytes"))
            .help(QT_TRANSLATE_NOOP("Field",
                "bitsandbytes up to 0.43.1 kept the input of every 4-bit layer for the backward pass; legacy is "
                "--versions bitsandbytes=0.43.1"))
            .accessors(
                [](const S &s) {
                    return FieldValue(std::string(bitsandbytesVersionId(
                        versionRuleHolds(s.versions, VersionRule::BitsandbytesDropsInput) ? BitsandbytesVersion::Current
                                                                                          : BitsandbytesVersion::Legacy)));
                },
                [](S &s, const FieldValue &v) {
                    const bool legacy = parseBitsandbytesVersion(std::get<std::string>(v)) == BitsandbytesVersion::Legacy;
                    if (legacy != !versionRuleHolds(s.versions, VersionRule::BitsandbytesDropsInput))
                        s.versions.set(Library::Bitsandbytes, legacy ? std::optional(kLastBitsandbytesKeepingInputs)
                                                                     : std::nullopt);
                })
            .shorthandFor(FieldId::Versions)
            .appliesWhen(bitsandbytes),
        Field(FieldId::Liger, "liger", FieldGroup::Training)
            .cli("liger")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "Liger kernels"))
            .help(QT_TRANSLATE_NOOP("Field",
                "use_liger_kernel=True: the output layer and the loss fused in chunks (--logits fused-linear), "
                "RMSNorm keeping its input only, SwiGLU recomputing the activation"))
            .flagIn<&S::liger>()
            .appliesWhen(training),
        Field(FieldId::Unsloth, "unsloth", FieldGroup::Training)
            .cli("unsloth")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "Unsloth"))
            .help(QT_TRANSLATE_NOOP("Field",
                "use_gradient_checkpointing=\"unsloth\": each layer's input waits in host memory "
                "(--checkpointing offloaded); with LoRA dropout 0 its own LoRA layers keep only their input "
                "(the MLP also gate and up) and its RMSNorm only its input"))
            .flagIn<&S::unsloth>()
            .appliesWhen(adapters),
        Field(FieldId::Compile, "compile", FieldGroup::Training)
            .cli("compile")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "torch.compile"))
            .help(QT_TRANSLATE_NOOP("Field",
                "compiled layers recompute their pointwise work in backward: each norm keeps its input, not an fp32 "
                "copy, the gated MLP its gate and up, not act(gate); NF4 weights dequantise in one kernel; torchtune "
                "also compiles its loss chunk"))
            .flagIn<&S::compile>()
            .appliesWhen(training),
        Field(FieldId::Attention, "attention", FieldGroup::Precision)
            .cli("attention", "IMPL")
            .oneOf(choicesOf(kAttentionSpellings))
            .label(QT_TRANSLATE_NOOP("Field", "Attention"))
            .help(QT_TRANSLATE_NOOP("Field", "attention kernel; eager stores the s x s scores"))
            .choiceIn<attentionId, parseAttention, &S::attention>()
            .appliesWhen(always),
        Field(FieldId::LoraRank, "lora.rank", FieldGroup::Lora)
            .cli("lora-rank", "R")
            .integer(1, L::maxLoraRank)
            .label(QT_TRANSLATE_NOOP("Field", "LoRA rank"))
            .help(QT_TRANSLATE_NOOP("Field", "LoRA rank r"))
            .numberIn<&S::lora, &LoraSettings::rank>()
            .appliesWhen(adapters),
        Field(FieldId::LoraAlpha, "lora.alpha", FieldGroup::Lora)
            .cli("lora-alpha", "A")
            .number(1e-6, 1e9, 1)
            .label(QT_TRANSLATE_NOOP("Field", "LoRA alpha"))
            .help(QT_TRANSLATE_NOOP("Field", "LoRA alpha (scales the update; no memory effect)"))
            .numberIn<&S::lora, &LoraSettings::alpha>()
            .appliesWhen(adapters),
        Field(FieldId::LoraTargets, "lora.targets", FieldGroup::Lora)
            .cli("lora-targets", "LIST")
            .someOf(slots)
            .label(QT_TRANSLATE_NOOP("Field", "LoRA targets"))
            .help(QT_TRANSLATE_NOOP("Field", "the projections that get adapters: all, attention, or a list"))
            .accessors([](const S &s) { return FieldValue(targetsText(s.lora.targets)); },
                [](S &s, const FieldValue &v) { s.lora.targets = parseTargets(std::get<std::string>(v)); })
            .appliesWhen(adapters),
        Field(FieldId::LoraDropout, "lora.dropout", FieldGroup::Lora)
            .cli("lora-dropout", "P")
            .number(0, L::maxLoraDropout, 2)
            .label(QT_TRANSLATE_NOOP("Field", "LoRA dropout"))
            .help(QT_TRANSLATE_NOOP("Field",
                "dropout on the adapters' input: each adapter then keeps its own copy of the input and a mask"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the training stack"))
            .optionalNumberIn<&S::lora, &LoraSettings::dropout>()
            .effective([](const S &s) { return FieldValue(s.effectiveLoraDropout()); })
            .appliesWhen(adapters),
        Field(FieldId::KvDtype, "kv_dtype", FieldGroup::Serving)
            .cli("kv-dtype", "FORMAT")
            .oneOf(kvFormats)
            .aliases(kVllmKvSpellings)
            .label(QT_TRANSLATE_NOOP("Field", "KV cache format"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the KV cache's element format (llama.cpp: -ctk, and -ctv unless the V cache format is set)"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the activation dtype"))
            .optionalChoiceIn<formatId, parseKvFormat, &S::kvDtype>()
            .appliesWhen(inference),
        Field(FieldId::KvDtypeV, "kv_dtype_v", FieldGroup::Serving)
            .cli("kv-dtype-v", "FORMAT")
            .oneOf(kvFormats)
            .aliases(kVllmKvSpellings)
            .label(QT_TRANSLATE_NOOP("Field", "V cache format"))
            .help(QT_TRANSLATE_NOOP("Field",
                "llama.cpp -ctv: the V cache's element format where it differs from the K cache's (-ctk, the KV "
                "cache format); a quantised V cache needs flash attention"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the KV cache format"))
            .optionalChoiceIn<formatId, parseKvFormat, &S::kvDtypeV>()
            .effective([](const S &s) {
                const auto v = s.valueCacheDtype();
                return FieldValue(std::string(v ? formatId(*v) : formatId(WeightFormat::Fp16)));
            })
            .appliesWhen(llamaCpp),
        Field(FieldId::KvSkipLayers, "kv_skip_layers", FieldGroup::Serving)
            .cli("kv-skip-layers", "LIST")
            .idListIn<&S::kvSkipLayers>()
            .example(QT_TRANSLATE_NOOP("Field", "e.g. 0,1,47 or sliding_window"))
            .label(QT_TRANSLATE_NOOP("Field", "Layers with an unquantised KV cache"))
            .help(QT_TRANSLATE_NOOP("Field",
                "vLLM --kv-cache-dtype-skip-layers: layers whose KV cache keeps the model's dtype while the others "
                "use the KV cache format, by index (0,1,47) or sliding_window for every windowed layer; empty: none"))
            .appliesWhen(vllm),
        Field(FieldId::Logits, "logits", FieldGroup::Precision)
            .cli("logits", "MODE")
            .oneOf(choicesOf(kLogitsSpellings))
            .label(QT_TRANSLATE_NOOP("Field", "Logits"))
            .help(QT_TRANSLATE_NOOP("Field", "how the loss (or generate) sees the logits"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the training stack"))
            .optionalChoiceIn<logitsId, parseLogits, &S::logits>()
            .effective([](const S &s) { return FieldValue(std::string(logitsId(s.effectiveLogits()))); })
            .appliesWhen(always),
        Field(FieldId::GpuMemoryUtilization, "gpu_memory_utilization", FieldGroup::Serving)
            .cli("gpu-memory-utilization", "F")
            .number(0.01, 1, 2)
            .label(QT_TRANSLATE_NOOP("Field", "Serving memory share"))
            .help(QT_TRANSLATE_NOOP("Field",
                "vLLM gpu_memory_utilization: the share of each GPU that weights, activations and the KV cache "
                "may use together; the KV-cache budget is what remains"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the vLLM release (0.92 from 0.21, 0.9 before and elsewhere)"))
            .optionalNumberIn<&S::gpuMemoryUtilization>()
            .effective([](const S &s) { return FieldValue(s.effectiveGpuMemoryUtilization()); })
            .appliesWhen([](const S &s) { return kvPoolIs(s, KvPool::ShareOfCard); }),
        Field(FieldId::KvCacheMemory, "serving.kv_cache_memory_gib", FieldGroup::Serving)
            .cli("kv-cache-memory", "GiB")
            .number(0.01, 1e5, 2)
            .unit(QT_TRANSLATE_NOOP("Field", "GiB"))
            .label(QT_TRANSLATE_NOOP("Field", "KV cache size"))
            .help(QT_TRANSLATE_NOOP("Field",
                "vLLM --kv-cache-memory-bytes: each GPU's KV cache set directly, in GiB; the serving memory share "
                "is then ignored"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the serving memory share"))
            .optionalNumberIn<&S::kvCacheMemoryGib>()
            .appliesWhen([](const S &s) {
                const RuntimeBehaviour *runtime = servingBehaviour(s);
                return runtime && runtime->takesKvCacheSize;
            }),
        Field(FieldId::CudaGraphMemory, "serving.cuda_graph_memory_gib", FieldGroup::Serving)
            .cli("cuda-graph-memory", "GiB")
            .number(0, 1e4, 2)
            .unit(QT_TRANSLATE_NOOP("Field", "GiB"))
            .label(QT_TRANSLATE_NOOP("Field", "CUDA-graph estimate"))
            .help(QT_TRANSLATE_NOOP("Field",
                "vLLM 0.21 and later: the CUDA-graph memory vLLM estimates on the GPU at start-up and takes from "
                "the KV cache (its log: 'Estimated CUDA graph memory: X GiB total'), in GiB; unset, not planned"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "not planned"))
            .optionalNumberIn<&S::cudaGraphMemoryGib>()
            .appliesWhen([](const S &s) {
                const RuntimeBehaviour *runtime = servingBehaviour(s);
                return runtime && runtime->takesCudaGraphEstimate && !s.kvCacheMemoryGib;
            }),
        Field(FieldId::MemFractionStatic, "serving.mem_fraction_static", FieldGroup::Serving)
            .cli("mem-fraction-static", "F")
            .number(0.01, 0.99, 3)
            .label(QT_TRANSLATE_NOOP("Field", "SGLang memory fraction"))
            .help(QT_TRANSLATE_NOOP("Field",
                "SGLang --mem-fraction-static: the share of the memory free before the weights load that the "
                "weights and the KV pool take; the rest is left for activations and CUDA graphs"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "SGLang's rule for each GPU"))
            .optionalNumberIn<&S::memFractionStatic>()
            .appliesWhen(poolOfFreeMemory),
        Field(FieldId::FreeGpuMemoryFraction, "serving.free_gpu_memory_fraction", FieldGroup::Serving)
            .cli("free-gpu-memory-fraction", "F")
            .number(0.01, 1, 3)
            .label(QT_TRANSLATE_NOOP("Field", "TensorRT-LLM KV share of free memory"))
            .help(QT_TRANSLATE_NOOP("Field",
                "TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction: the share of the memory left free after the "
                "weights and the profiled forward that the KV pool takes"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "TensorRT-LLM's KvCacheConfig"))
            .optionalNumberIn<&S::freeGpuMemoryFraction>()
            .effective([](const S &s) { return FieldValue(s.effectiveFreeGpuMemoryFraction()); })
            .appliesWhen(poolOfFreeAfterProfile),
        Field(FieldId::ServingEngine, "serving.engine", FieldGroup::Serving)
            .cli("serving-engine", "ENGINE")
            .oneOf(choicesOf(allRuntimes(), [](const RuntimeInfo &r) { return r.label; }))
            .label(QT_TRANSLATE_NOOP("Field", "Serving engine"))
            .help(QT_TRANSLATE_NOOP("Field",
                "generate() runs the scenario's batch; vLLM sizes its KV cache after profiling one forward of "
                "max_num_batched_tokens tokens and a sampler warm-up of max_num_seqs rows; llama.cpp keeps one KV "
                "stream per sequence and a compute buffer for one micro-batch; SGLang gives its token pool "
                "mem_fraction_static of the free memory, less the weights; TensorRT-LLM gives its KV pool "
                "free_gpu_memory_fraction of what its profiled forward leaves free"))
            .choiceIn<servingEngineId, parseServingEngine, &S::serving>()
            .appliesWhen(inference),
        // After the engine: a release is the chosen engine's.
        Field(FieldId::EngineVersion, "engine_version", FieldGroup::Serving)
            .cli("engine-version", "X.Y")
            .text()
            .label(QT_TRANSLATE_NOOP("Field", "Engine version"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the serving engine's release, e.g. 0.8: --versions vllm=0.8 under vLLM; it sets the defaults the "
                "engine had then (vLLM's gpu_memory_utilization, 0.9 before 0.21, its batch defaults and KV "
                "formats; SGLang's mem_fraction_static rule; TensorRT-LLM's block rounding and all-reduce "
                "workspace)"))
            .accessors(
                [](const S &s) {
                    const auto library = runtimeBehaviour(s.serving).releases;
                    const auto &v = library ? s.versions.of(*library) : std::optional<Version>();
                    return FieldValue(v ? versionText(*v) : std::string());
                },
                [](S &s, const FieldValue &v) {
                    const std::string &text = std::get<std::string>(v);
                    if (const auto library = runtimeBehaviour(s.serving).releases)
                        s.versions.set(*library, text.empty() || text == "current" ? std::nullopt : parseVersion(text));
                })
            .checkedBy([](const std::string &text) { return releaseProblem(text, "0.8"); })
            .shorthandFor(FieldId::Versions)
            .appliesWhen(engineReleases),
        Field(FieldId::MaxBatchedTokens, "serving.max_num_batched_tokens", FieldGroup::Serving)
            .cli("max-num-batched-tokens", "N")
            .integer(1, L::maxSequence)
            .tokenCount()
            .unit(QT_TRANSLATE_NOOP("Field", "tokens"))
            .label(QT_TRANSLATE_NOOP("Field", "Tokens per step"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the tokens of one step, profiled at start-up: vLLM --max-num-batched-tokens, TensorRT-LLM "
                "--max_num_tokens"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the serving engine, its release and the GPU"))
            .optionalNumberIn<&S::maxBatchedTokens>()
            .effective([](const S &s) { return FieldValue(static_cast<double>(s.effectiveMaxBatchedTokens())); })
            .appliesWhen(profilesAtStartup),
        Field(FieldId::MaxNumSeqs, "serving.max_num_seqs", FieldGroup::Serving)
            .cli("max-num-seqs", "N")
            .integer(1, L::maxBatch)
            .label(QT_TRANSLATE_NOOP("Field", "Sequences at once"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the sequences decoded together: vLLM --max-num-seqs (also the sampler warm-up's rows), "
                "TensorRT-LLM --max_batch_size"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the serving engine, its release and the GPU"))
            .optionalNumberIn<&S::maxNumSeqs>()
            .effective([](const S &s) { return FieldValue(static_cast<double>(s.effectiveMaxNumSeqs())); })
            .appliesWhen(profilesAtStartup),
        Field(FieldId::GpuLayers, "serving.gpu_layers", FieldGroup::Serving)
            .cli("gpu-layers", "N")
            .integer(0, static_cast<double>(ModelLimits::maxLayers) + 1)
            .unit(QT_TRANSLATE_NOOP("Field", "layers"))
            .label(QT_TRANSLATE_NOOP("Field", "GPU layers"))
            .help(QT_TRANSLATE_NOOP("Field",
                "layers on the GPUs, the rest in host memory. llama.cpp -ngl: the output layer first, then the "
                "last N - 1 decoder layers; the rest run on the CPU. generate(): device_map with CPU offload, the "
                "first N decoder layers, more than the model's also the output layer; the rest are copied to the "
                "GPU as they run"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "all layers and the output layer"))
            .optionalNumberIn<&S::gpuLayers>()
            .effective(
                [](const S &s) { return FieldValue(static_cast<double>(s.gpuLayers.value_or(s.model.layers + 1))); })
            .appliesWhen(layerOffload),
        Field(FieldId::Ubatch, "serving.ubatch", FieldGroup::Serving)
            .cli("ubatch", "N")
            .integer(1, L::maxSequence)
            .tokenCount()
            .unit(QT_TRANSLATE_NOOP("Field", "tokens"))
            .label(QT_TRANSLATE_NOOP("Field", "Micro-batch (n_ubatch)"))
            .help(QT_TRANSLATE_NOOP("Field",
                "llama.cpp -ub: tokens one compute pass takes; the compute buffer is reserved for it"))
            .numberIn<&S::ubatch>()
            .appliesWhen(llamaCpp),
        Field(FieldId::KvOnHost, "serving.kv_on_host", FieldGroup::Serving)
            .cli("no-kv-offload")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "KV cache in host memory"))
            .help(QT_TRANSLATE_NOOP("Field",
                "llama.cpp --no-kv-offload: every layer's KV cache and attention stay on the CPU"))
            .flagIn<&S::kvOnHost>()
            .appliesWhen(llamaCpp),
        Field(FieldId::CpuMoeLayers, "serving.cpu_moe_layers", FieldGroup::Serving)
            .cli("cpu-moe-layers", "N")
            .integer(0, static_cast<double>(ModelLimits::maxLayers))
            .unit(QT_TRANSLATE_NOOP("Field", "layers"))
            .label(QT_TRANSLATE_NOOP("Field", "Experts on the CPU"))
            .help(QT_TRANSLATE_NOOP("Field",
                "llama.cpp --n-cpu-moe: the routed experts of the first N layers stay in host memory and run on "
                "the CPU; attention, shared experts and the KV cache stay on the GPU"))
            .numberIn<&S::cpuMoeLayers>()
            .appliesWhen(llamaCppMoe),
        Field(FieldId::CpuBuild, "serving.cpu_build", FieldGroup::Serving)
            .cli("cpu-build", "CPU")
            .oneOf(choicesOf(allCpuBuilds(), [](const CpuBuildInfo &b) { return b.label; }))
            .label(QT_TRANSLATE_NOOP("Field", "Host CPU"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the CPU that runs llama.cpp's host layers: its backend copies the weights it has faster kernels "
                "for into a second buffer (CPU_REPACK, AMX) beside the mapped file"))
            .choiceIn<cpuBuildId, parseCpuBuild, &S::cpuBuild>()
            .appliesWhen(llamaCpp),
        Field(FieldId::TensorSplit, "serving.tensor_split", FieldGroup::Serving)
            .cli("tensor-split", "LIST")
            .numberList()
            .label(QT_TRANSLATE_NOOP("Field", "Tensor split"))
            .help(QT_TRANSLATE_NOOP("Field",
                "llama.cpp --tensor-split: each GPU's share of the layers in split order, e.g. 24,12, or 0,1 "
                "for none on the first; empty: equal shares"))
            .accessors([](const S &s) { return FieldValue(splitText(s.tensorSplit)); },
                [](S &s, const FieldValue &v) { s.tensorSplit = parseSplit(std::get<std::string>(v)); })
            .appliesWhen(llamaCpp),
        Field(FieldId::HostBandwidth, "serving.host_bandwidth_gb_per_s", FieldGroup::Serving)
            .cli("host-bandwidth-gbps", "B")
            .number(0.1, 1e5, 1)
            .unit(QT_TRANSLATE_NOOP("Field", "GB/s"))
            .label(QT_TRANSLATE_NOOP("Field", "Host memory bandwidth"))
            .help(QT_TRANSLATE_NOOP("Field",
                "what the CPU reads per second when llama.cpp runs layers or experts there, GB/s (89.6: "
                "dual-channel DDR5-5600)"))
            .numberIn<&S::hostBandwidthGBps>()
            .appliesWhen(llamaCpp),
        Field(FieldId::CpuOffloadGib, "serving.cpu_offload_gib", FieldGroup::Serving)
            .cli("cpu-offload-gb", "GiB")
            .number(0, 1e6, 1)
            .unit(QT_TRANSLATE_NOOP("Field", "GiB"))
            .label(QT_TRANSLATE_NOOP("Field", "CPU offload"))
            .help(QT_TRANSLATE_NOOP("Field",
                "vLLM --cpu-offload-gb: GiB of each GPU's decoder-layer weights kept in pinned host memory and "
                "read over the host link at every step"))
            .numberIn<&S::cpuOffloadGib>()
            .appliesWhen(vllm),
        Field(FieldId::KvOffloadingGib, "serving.kv_offloading_gib", FieldGroup::Serving)
            .cli("kv-offloading-size", "GiB")
            .number(0, 1e6, 1)
            .unit(QT_TRANSLATE_NOOP("Field", "GiB"))
            .label(QT_TRANSLATE_NOOP("Field", "KV offloading"))
            .help(QT_TRANSLATE_NOOP("Field",
                "vLLM --kv-offloading-size: GiB of pinned host memory for KV blocks moved off the GPUs, in total "
                "over the tensor- and pipeline-parallel ranks (each takes its share); the GPUs' KV pool is "
                "unchanged"))
            .numberIn<&S::kvOffloadingGib>()
            .appliesWhen([](const S &s) {
                const RuntimeBehaviour *runtime = servingBehaviour(s);
                return runtime && runtime->offloadsKvBlocks;
            }),
        Field(FieldId::HostLink, "serving.host_link_gb_per_s", FieldGroup::Serving)
            .cli("host-link-gbps", "B")
            .number(0.1, 1e5, 1)
            .unit(QT_TRANSLATE_NOOP("Field", "GB/s"))
            .label(QT_TRANSLATE_NOOP("Field", "Host link bandwidth"))
            .help(QT_TRANSLATE_NOOP("Field",
                "what crosses between host memory and a GPU per second, GB/s, for offloaded weights (the default: "
                "PCIe 4.0 x16 in practice)"))
            .numberIn<&S::hostLinkGBps>()
            .appliesWhen(overHostLink),
        Field(FieldId::HostMemory, "serving.host_memory_gib", FieldGroup::Serving)
            .cli("host-memory", "GiB")
            .number(0, 1e6, 0)
            .unit(QT_TRANSLATE_NOOP("Field", "GiB"))
            .label(QT_TRANSLATE_NOOP("Field", "Host memory"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the machine's RAM in GiB, to check what stays beside the GPUs against (0: not checked)"))
            .numberIn<&S::hostMemoryGib>()
            .appliesWhen(always),
        Field(FieldId::Beams, "beams", FieldGroup::Input)
            .cli("beams", "N")
            .integer(1, static_cast<double>(L::maxBeams))
            .label(QT_TRANSLATE_NOOP("Field", "Beams or samples"))
            .help(QT_TRANSLATE_NOOP("Field",
                "sequences generated from each prompt: beam search's beams or n > 1 samples; each keeps its own "
                "KV cache"))
            .numberIn<&S::beams>()
            .appliesWhen(inference),
        Field(FieldId::LoadMtp, "serving.load_mtp", FieldGroup::Serving)
            .cli("load-mtp")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "Load the MTP layers"))
            .help(QT_TRANSLATE_NOOP("Field",
                "load the checkpoint's multi-token-prediction layers for speculative decoding (DeepSeek-V3, "
                "GLM-4.5); transformers skips them"))
            .flagIn<&S::model, &ModelSpec::loadMtp>()
            .appliesWhen(hasMtp),
        Field(FieldId::DraftPreset, "draft.preset", FieldGroup::Serving)
            .cli("draft-preset", "ID")
            .modelPreset()
            .label(QT_TRANSLATE_NOOP("Field", "Draft model"))
            .help(QT_TRANSLATE_NOOP("Field",
                "a smaller model that drafts tokens for speculative decoding: its weights and KV cache come on "
                "top (a preset id, see 'vramplanner-cli models'); empty: none"))
            .accessors([](const S &s) { return FieldValue(s.draft.presetId); },
                [](S &s, const FieldValue &v) {
                    // Another id drops the architecture until core::io::resolveDraft finds it.
                    const std::string &id = std::get<std::string>(v);
                    if (id != s.draft.presetId)
                        s.draft = DraftModel{id, std::nullopt};
                })
            .appliesWhen(inference),
        Field(FieldId::Gpus, "gpus", FieldGroup::Cluster)
            .cli("gpus", "N")
            .integer(1, L::maxGpus)
            .label(QT_TRANSLATE_NOOP("Field", "GPUs"))
            .help(QT_TRANSLATE_NOOP("Field", "GPUs in the run: tp x pp x data parallel"))
            .numberIn<&S::gpus>()
            .appliesWhen(always),
        Field(FieldId::Devices, "devices", FieldGroup::Cluster)
            .cli("devices", "IDS")
            .textList()
            .label(QT_TRANSLATE_NOOP("Field", "Mixed GPUs"))
            .help(QT_TRANSLATE_NOOP("Field",
                "a mixed set of catalog GPUs in split order, e.g. rtx-4090,rtx-3090; sets the GPU count and fits "
                "each GPU against its own memory; empty: GPUs of one kind"))
            .accessors([](const S &s) { return FieldValue(idListText(s.devices)); },
                [](S &s, const FieldValue &v) {
                    s.devices = splitIds(std::get<std::string>(v));
                    if (!s.devices.empty())
                        s.gpus = static_cast<int>(std::min<std::size_t>(s.devices.size(), L::maxGpus));
                })
            .appliesWhen(always),
        Field(FieldId::Zero, "zero", FieldGroup::Cluster)
            .cli("zero", "STAGE")
            .integer(0, 3)
            .namedValues({{"0", QT_TRANSLATE_NOOP("Field", "0 (data parallel)")},
                          {"1", QT_TRANSLATE_NOOP("Field", "1 (optimizer states)")},
                          {"2", QT_TRANSLATE_NOOP("Field", "2 (+ gradients)")},
                          {"3", QT_TRANSLATE_NOOP("Field", "3 (+ weights, FSDP full shard)")}})
            .label(QT_TRANSLATE_NOOP("Field", "ZeRO stage"))
            .help(QT_TRANSLATE_NOOP("Field", "ZeRO / FSDP stage for training: what the data-parallel GPUs shard"))
            .numberIn<&S::zeroStage>()
            .appliesWhen(training),
        Field(FieldId::Tp, "parallel.tp", FieldGroup::Cluster)
            .cli("tp", "N")
            .integer(1, L::maxTp)
            .label(QT_TRANSLATE_NOOP("Field", "Tensor parallel"))
            .help(QT_TRANSLATE_NOOP("Field", "tensor-parallel degree"))
            .numberIn<&S::parallel, &Parallelism::tp>()
            .appliesWhen(always),
        Field(FieldId::Pp, "parallel.pp", FieldGroup::Cluster)
            .cli("pp", "N")
            .integer(1, L::maxPp)
            .label(QT_TRANSLATE_NOOP("Field", "Pipeline stages"))
            .help(QT_TRANSLATE_NOOP("Field", "pipeline-parallel stages"))
            .numberIn<&S::parallel, &Parallelism::pp>()
            .appliesWhen(always),
        Field(FieldId::Ep, "parallel.ep", FieldGroup::Cluster)
            .cli("ep", "N")
            .integer(1, L::maxEp)
            .label(QT_TRANSLATE_NOOP("Field", "Expert parallel"))
            .help(QT_TRANSLATE_NOOP("Field", "expert-parallel degree for mixture-of-experts models"))
            .numberIn<&S::parallel, &Parallelism::ep>()
            .appliesWhen(always),
        Field(FieldId::SequenceParallel, "parallel.sp", FieldGroup::Cluster)
            .cli("sp")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "Sequence parallel"))
            .help(QT_TRANSLATE_NOOP("Field", "sequence parallelism (needs tensor parallel > 1)"))
            .flagIn<&S::parallel, &Parallelism::sequenceParallel>()
            .appliesWhen(training),
        Field(FieldId::Interleave, "parallel.interleave", FieldGroup::Cluster)
            .cli("interleave", "V")
            .integer(1, L::maxInterleave)
            .label(QT_TRANSLATE_NOOP("Field", "Interleaved stages"))
            .help(QT_TRANSLATE_NOOP("Field", "virtual pipeline stages per GPU (1: plain 1F1B)"))
            .numberIn<&S::parallel, &Parallelism::interleave>()
            .appliesWhen(training),
        Field(FieldId::Offload, "parallel.offload", FieldGroup::Cluster)
            .cli("offload", "WHAT")
            .oneOf(choicesOf(kOffloadSpellings))
            .label(QT_TRANSLATE_NOOP("Field", "Offload"))
            .help(QT_TRANSLATE_NOOP("Field", "what ZeRO-Offload / ZeRO-Infinity move to host memory"))
            .choiceIn<offloadId, parseOffload, &S::parallel, &Parallelism::offload>()
            .appliesWhen(training),
        Field(FieldId::GpusPerNode, "parallel.gpus_per_node", FieldGroup::Cluster)
            .cli("gpus-per-node", "N")
            .integer(1, L::maxGpusPerNode)
            .label(QT_TRANSLATE_NOOP("Field", "GPUs per node"))
            .help(QT_TRANSLATE_NOOP("Field", "GPUs per node"))
            .numberIn<&S::parallel, &Parallelism::gpusPerNode>()
            .appliesWhen(always),
        Field(FieldId::HybridShard, "parallel.hybrid_shard", FieldGroup::Cluster)
            .cli("hybrid-shard")
            .onOff()
            .label(QT_TRANSLATE_NOOP("Field", "Hybrid sharding"))
            .help(QT_TRANSLATE_NOOP("Field", "shard ZeRO/FSDP states within a node, replicate across nodes"))
            .flagIn<&S::parallel, &Parallelism::hybridShard>()
            .appliesWhen(training),
        Field(FieldId::Tokens, "workload.tokens", FieldGroup::Workload)
            .cli("tokens", "N")
            .integer(0, 1e16)
            .unit(QT_TRANSLATE_NOOP("Field", "tokens"))
            .zeroMeansNone()
            .label(QT_TRANSLATE_NOOP("Field", "Training tokens"))
            .help(QT_TRANSLATE_NOOP("Field", "training token budget for time and cost (e.g. 1e9, 300B)"))
            .numberIn<&S::workload, &Workload::trainingTokens>()
            .appliesWhen(training),
        Field(FieldId::Mfu, "workload.mfu", FieldGroup::Workload)
            .cli("mfu", "F")
            .number(0.001, 1, 2)
            .label(QT_TRANSLATE_NOOP("Field", "MFU"))
            .help(QT_TRANSLATE_NOOP("Field", "model FLOPs utilisation assumed for time: training steps, a prompt's prefill"))
            .numberIn<&S::workload, &Workload::mfu>()
            .appliesWhen(always),
        Field(FieldId::DecodeBandwidthShare, "workload.decode_bandwidth_share", FieldGroup::Workload)
            .cli("decode-bandwidth-share", "F")
            .number(0.05, 1, 2)
            .label(QT_TRANSLATE_NOOP("Field", "Decode bandwidth share"))
            .help(QT_TRANSLATE_NOOP("Field",
                "share of the memory bandwidth a decode step achieves (1: the roofline, a ceiling; published "
                "engine runs reach 0.37-0.87 at one sequence, see the README's time error table)"))
            .numberIn<&S::workload, &Workload::decodeBandwidthShare>()
            .appliesWhen(inference),
        Field(FieldId::PricePerGpuHour, "workload.price_per_gpu_hour", FieldGroup::Workload)
            .cli("price-per-gpu-hour", "P")
            .number(0, 1e6, 2)
            .zeroMeansNone()
            .label(QT_TRANSLATE_NOOP("Field", "Price per GPU-hour"))
            .help(QT_TRANSLATE_NOOP("Field", "price per GPU-hour for cost (0: none)"))
            .numberIn<&S::workload, &Workload::pricePerGpuHour>()
            .appliesWhen(always),
        Field(FieldId::RequestRate, "workload.request_rate", FieldGroup::Workload)
            .cli("request-rate", "R")
            .number(0, 1e6, 2)
            .unit(QT_TRANSLATE_NOOP("Field", "requests/s"))
            .zeroMeansNone()
            .label(QT_TRANSLATE_NOOP("Field", "Target request rate"))
            .help(QT_TRANSLATE_NOOP("Field", "requests per second to serve: how many GPUs that takes (0: not asked)"))
            .numberIn<&S::workload, &Workload::requestRate>()
            .appliesWhen(inference),
        Field(FieldId::OutputTokens, "workload.output_tokens", FieldGroup::Workload)
            .cli("output-tokens", "N")
            .integer(1, L::maxSequence)
            .tokenCount()
            .unit(QT_TRANSLATE_NOOP("Field", "tokens"))
            .label(QT_TRANSLATE_NOOP("Field", "Output tokens per request"))
            .help(QT_TRANSLATE_NOOP("Field", "tokens each request generates; its prompt is the rest of the context"))
            .numberIn<&S::workload, &Workload::outputTokens>()
            .appliesWhen(inference),
        Field(FieldId::TtftTarget, "workload.ttft_target_s", FieldGroup::Workload)
            .cli("ttft", "SECONDS")
            .number(0, 3600, 3)
            .unit(QT_TRANSLATE_NOOP("Field", "s"))
            .zeroMeansNone()
            .label(QT_TRANSLATE_NOOP("Field", "Time to first token target"))
            .help(QT_TRANSLATE_NOOP("Field", "mean seconds to a request's first token that the serving plan (Deploy, Plan for Me) must meet (0: none)"))
            .numberIn<&S::workload, &Workload::ttftTargetSeconds>()
            .appliesWhen(inference),
        Field(FieldId::TpotTarget, "workload.tpot_target_s", FieldGroup::Workload)
            .cli("tpot", "SECONDS")
            .number(0, 60, 4)
            .unit(QT_TRANSLATE_NOOP("Field", "s"))
            .zeroMeansNone()
            .label(QT_TRANSLATE_NOOP("Field", "Time per output token target"))
            .help(QT_TRANSLATE_NOOP("Field", "mean seconds between a request's output tokens that the serving plan (Deploy, Plan for Me) must meet (0: none)"))
            .numberIn<&S::workload, &Workload::tpotTargetSeconds>()
            .appliesWhen(inference),
        Field(FieldId::InterNodeGBps, "workload.inter_node_gb_per_s", FieldGroup::Workload)
            .cli("inter-node-gbps", "B")
            .number(0.001, 1e5, 1)
            .unit(QT_TRANSLATE_NOOP("Field", "GB/s"))
            .label(QT_TRANSLATE_NOOP("Field", "Inter-node bandwidth"))
            .help(QT_TRANSLATE_NOOP("Field", "per-GPU bandwidth between nodes, GB/s (50: 400 Gb/s InfiniBand)"))
            .numberIn<&S::workload, &Workload::interNodeGBps>()
            .appliesWhen(severalGpus),
        Field(FieldId::Gpu, "gpu", FieldGroup::Cluster)
            .cli("gpu", "ID")
            .text()
            .label(QT_TRANSLATE_NOOP("Field", "Focus GPU"))
            .help(QT_TRANSLATE_NOOP("Field",
                "the GPU to focus on: its fit, time and cost (see 'vramplanner-cli gpus')"))
            .accessors([](const S &s) { return FieldValue(s.gpuId); },
                [](S &s, const FieldValue &v) { s.gpuId = std::get<std::string>(v); })
            .appliesWhen(always),
        Field(FieldId::CudaOverheadMib, "cuda_overhead_mib", FieldGroup::Runtime)
            .cli("cuda-overhead-mib", "N")
            .number(0, L::maxCudaOverheadMib, 0)
            .unit(QT_TRANSLATE_NOOP("Field", "MiB"))
            .label(QT_TRANSLATE_NOOP("Field", "CUDA context"))
            .help(QT_TRANSLATE_NOOP("Field", "CUDA context per GPU in MiB"))
            .defaultFollows(QT_TRANSLATE_NOOP("Field", "the module loading"))
            .optionalNumberIn<&S::cudaOverheadMib>()
            .effective([](const S &s) { return FieldValue(s.effectiveCudaOverheadMib()); })
            .appliesWhen(always),
        Field(FieldId::CudaLoading, "cuda_loading", FieldGroup::Runtime)
            .cli("cuda-loading", "KIND")
            .oneOf(choicesOf(kCudaLoadingSpellings))
            .label(QT_TRANSLATE_NOOP("Field", "CUDA module loading"))
            .help(QT_TRANSLATE_NOOP("Field", "CUDA module loading; lazy since CUDA 11.7, eager before"))
            .choiceIn<cudaLoadingId, parseCudaLoading, &S::cudaLoading>()
            .appliesWhen(always),
        Field(FieldId::ReservePercent, "reserve_percent", FieldGroup::Runtime)
            .cli("reserve-percent", "P")
            .number(0, 99, 1)
            .unit("%")
            .label(QT_TRANSLATE_NOOP("Field", "Reserve margin"))
            .help(QT_TRANSLATE_NOOP("Field", "allocator reserve / fragmentation margin, in % of tensor memory"))
            .numberIn<&S::reservePercent>()
            .appliesWhen(always),
    };
    return f;
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

} // namespace core
