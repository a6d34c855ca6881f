#pragma once

#include "core/base/message.h"
#include "core/base/units.h"
#include "core/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace core {

/// Every scenario input that is a plain value (the model is chosen apart:
/// a preset, a config.json or a parameter count). Order is display order.
enum class FieldId {
    Mode,
    Weights,
    GroupSize,
    QuantizeEmbeddings,
    Regime,
    Optimizer,
    OptimizerImpl,
    Batch,
    Sequence,
    Images,
    GradAccum,
    Checkpointing,
    Stack,
    Versions,
    TorchVersion, ///< after Versions, a shorthand over the set
    Bitsandbytes, ///< after Versions: the CLI and files apply fields in this order, a shorthand over the set
    Liger,
    Unsloth,
    Compile,
    Attention,
    LoraRank,
    LoraAlpha,
    LoraTargets,
    LoraDropout,
    KvDtype,
    KvDtypeV,
    KvSkipLayers,
    Logits,
    GpuMemoryUtilization,
    KvCacheMemory,
    CudaGraphMemory,
    MemFractionStatic,
    FreeGpuMemoryFraction,
    ServingEngine,
    EngineVersion,
    MaxBatchedTokens,
    MaxNumSeqs,
    GpuLayers,
    Ubatch,
    KvOnHost,
    CpuMoeLayers,
    CpuBuild,
    TensorSplit,
    HostBandwidth,
    CpuOffloadGib,
    KvOffloadingGib,
    HostLink,
    HostMemory,
    Beams,
    LoadMtp,
    DraftPreset,
    Gpus,
    Devices,
    Zero,
    Tp,
    Pp,
    Ep,
    SequenceParallel,
    Interleave,
    Offload,
    GpusPerNode,
    HybridShard,
    Tokens,
    Mfu,
    DecodeBandwidthShare,
    PricePerGpuHour,
    RequestRate,
    OutputTokens,
    TtftTarget,
    TpotTarget,
    InterNodeGBps,
    Gpu,
    CudaOverheadMib,
    CudaLoading,
    ReservePercent,
    Count
};

enum class FieldKind {
    Integer,   ///< a whole number in [min, max]
    Number,    ///< a real number in [min, max]
    Choice,    ///< one of `choices`, by id
    ChoiceSet, ///< a subset of `choices`: a comma list of ids
    Flag,      ///< on or off
    Text,      ///< free text (a catalog GPU id)
    NumberList, ///< comma-separated shares, zero or more, one above zero ("24,12", "0,1"); empty: none
    TextList,   ///< comma-separated ids ("rtx-4090,rtx-3090"); empty: none
    ModelPreset ///< a model preset's id (core/io/builtin.h); empty: none
};

/// Where the window shows a field and which inputs it belongs with.
enum class FieldGroup { Main, Input, Training, Lora, Precision, Serving, Cluster, Workload, Runtime };

/// A value as the front ends exchange it: unset (the default that follows
/// other inputs), a number (integers too), a flag, or an id / id list / text.
using FieldValue = std::variant<std::monostate, double, bool, std::string>;

struct FieldChoice
{
    const char *id;    ///< CLI and file spelling
    const char *label; ///< English display text, translated by the window (context "Field")
};

/// Another tool's spelling of a choice ("fp8_e4m3", vLLM's, for "fp8").
struct FieldAlias
{
    const char *spelling;
    const char *id; ///< the choice it names
};

/// One input, described once: validation, scenario files, the CLI parser
/// and its --help, and the window's widgets all read this.
struct FieldDescriptor
{
    FieldId id;
    const char *key;     ///< JSON path in scenario files: "batch", "lora.rank", "parallel.tp"
    const char *flag;    ///< CLI option without dashes: "seq"
    const char *metavar; ///< CLI value placeholder: "N"; nullptr for a flag
    FieldKind kind;
    FieldGroup group;
    double min = 0;      ///< Integer, Number: the accepted range, inclusive
    double max = 0;
    /// Integer, Number: the range a slider spans (log scale); 0 = no slider.
    double typicalMin = 0;
    double typicalMax = 0;
    int decimals = 0;    ///< Number: digits shown
    const char *unit = ""; ///< "tokens", "MiB", "%" (shown after the value)
    /// Integer: what its k and M suffixes mean ("8k" tokens of context are
    /// 8,192; "300B" training tokens are decimal).
    CountSuffixes countSuffixes = CountSuffixes::Decimal;
    const char *label;   ///< English, translatable (context "Field")
    const char *help;    ///< one line, English, translatable (context "Field")
    /// For optional fields: what the default follows, e.g. "the training stack".
    const char *defaultFollows = nullptr;
    /// A text field's example where its kind's own would mislead (English,
    /// translatable, context "Field"); nullptr: the kind's.
    const char *example = nullptr;
    std::vector<FieldChoice> choices; ///< Choice, ChoiceSet; Integer with named values (ZeRO stages)
    std::vector<FieldAlias> aliases;  ///< Choice: other spellings the CLI and files accept
    FieldValue (*stored)(const Scenario &);    ///< as stored; unset for an unset optional
    FieldValue (*effective)(const Scenario &); ///< the value the engine uses
    void (*assign)(Scenario &, const FieldValue &); ///< an already checked value; unset clears an optional
    bool (*applies)(const Scenario &);         ///< whether it changes this scenario's estimate
    /// What in this scenario overrides part of the value's meaning, or
    /// nullptr (English, translatable, context "Field"); shown beside it.
    const char *(*overriddenBy)(const Scenario &) = nullptr;
    /// Text: what is wrong with a value, nullopt when fine (a version list).
    std::optional<Message> (*checkText)(const std::string &) = nullptr;
    /// 0 means "not asked" (a request rate, a latency target, a price): a
    /// brief report leaves the input out at 0.
    bool zeroMeansNone = false;
    /// Another way to set a field's value (`--bnb legacy` for
    /// `--versions bitsandbytes=0.43.1`): read from files and the CLI,
    /// written only as that field.
    FieldId shorthandFor = FieldId::Count;

    bool optional() const { return defaultFollows != nullptr; }
    bool isShorthand() const { return shorthandFor != FieldId::Count; }
};

const std::vector<FieldDescriptor> &allFields();
const FieldDescriptor &field(FieldId id);
const FieldDescriptor *findFieldByKey(const std::string &key);

/// Reads `text` as the field's value (the CLI's spelling: counts like 32k or
/// 1e6 for integers, k binary where the field says so, comma lists for
/// sets, "default" for an optional);
/// nullopt with `problem` set ("'2.5' is not an integer between 1 and 1048576").
std::optional<FieldValue> parseFieldValue(const FieldDescriptor &f, const std::string &text,
                                          std::optional<Message> &problem);
/// A choice's id for `text`, which may be one of the field's aliases.
std::string canonicalChoice(const FieldDescriptor &f, const std::string &text);
/// The value checked against the field's range or choices; nullopt when fine.
std::optional<Message> checkFieldValue(const FieldDescriptor &f, const FieldValue &value);
/// "2,048", "nf4-dq", "on", "q,k,v": a value as text, for tables and help.
std::string formatFieldValue(const FieldDescriptor &f, const FieldValue &value);
/// "2048; qlora: nf4-dq": the default, by mode where it depends on it.
std::string describeDefault(const FieldDescriptor &f);
/// The choices' ids joined: "none, selective, full".
std::string choiceList(const FieldDescriptor &f, const char *separator = ", ");

/// Whether the number field `f` of `scenario` is unset or within [min, max]
/// (NaN is not).
bool isInRange(const FieldDescriptor &f, const Scenario &scenario);

/// Fields whose stored value differs between two scenarios.
std::vector<FieldId> changedFields(const Scenario &before, const Scenario &after);

} // namespace core
