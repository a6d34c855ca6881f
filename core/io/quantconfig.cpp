#include "core/io/quantconfig.h"

#include "core/model/formats.h"

#include <algorithm>
#include <map>

namespace core::io {

namespace {

/// bitsandbytes (transformers BitsAndBytesConfig): 8-bit LLM.int8(), or
/// 4-bit of bnb_4bit_quant_type (class default "fp4"), double-quantised
/// when bnb_4bit_use_double_quant.
std::string bitsandbytesFormat(JsonReader &quant)
{
    if (quant.boolean("load_in_8bit", false).value_or(false))
        return "bnb-int8";
    if (!quant.boolean("load_in_4bit", false).value_or(false))
        return "";
    const std::string type = quant.string("bnb_4bit_quant_type", false).value_or("fp4");
    if (type == "fp4")
        return "fp4";
    return quant.boolean("bnb_4bit_use_double_quant", false).value_or(false) ? "nf4-dq" : "nf4";
}

/// The strings of an array key (patterns, targets); non-strings are skipped.
std::vector<std::string> patternList(JsonReader &r, const char *key)
{
    std::vector<std::string> list;
    if (!r.has(key) || !r.json().at(key).is_array())
        return list;
    for (const Json &item : r.json().at(key))
        if (item.is_string())
            list.push_back(item.get<std::string>());
    return list;
}

/// One config group's weight scheme (compressed-tensors QuantizationArgs):
/// 4-bit integers with a scale per group (pack-quantized, symmetric: no
/// zero point), 4-bit floats with FP8 scales per 16 (NVFP4) or E8M0 scales
/// per 32 (MXFP4), 8-bit integers or floats.
std::string weightScheme(JsonReader &weights, int &groupSize)
{
    const auto bits = weights.uint("num_bits", 1, 64, false).value_or(0);
    const std::string type = weights.string("type", false).value_or("int");
    groupSize = static_cast<int>(weights.uint("group_size", 1, 1u << 20, false).value_or(0));
    if (type == "int" && bits == 4)
        return weights.boolean("symmetric", false).value_or(true) && groupSize > 0 ? "int4-group" : "gptq-4bit";
    if (type == "int" && bits == 8)
        return "int8";
    if (type == "float" && bits == 8)
        return "fp8";
    if (type == "float" && bits == 4)
        return groupSize == 16 ? "nvfp4" : "mxfp4";
    return "";
}

/// One config group: its weight scheme, group size and targets.
struct ConfigGroup
{
    std::string format;
    int groupSize = 0;
    std::vector<std::string> targets;
};

/// The bits a weight of `g`'s format stores, scales included.
double storedBits(const ConfigGroup &g)
{
    const std::optional<WeightFormat> f = parseFormat(g.format);
    return f ? formatBits(*f, g.groupSize, 0).total() : 64.0;
}

/// Of a checkpoint's weight schemes, the one of fewest stored bits is the
/// format of its modules, the next one the rest's (its own targets; the
/// modules of neither stay in the checkpoint's dtype); a third or more is
/// said in `warnings`, under `where`.
void pickFormats(std::vector<ConfigGroup> read, const std::string &where, CheckpointQuantization &q,
                 std::vector<std::string> &warnings)
{
    if (read.empty())
        return;
    std::stable_sort(read.begin(), read.end(),
                     [](const ConfigGroup &a, const ConfigGroup &b) { return storedBits(a) < storedBits(b); });
    q.format = read.front().format;
    q.groupSize = read.front().groupSize > 0 ? read.front().groupSize : q.groupSize;
    q.targets = std::move(read.front().targets);
    // A rest format only where the main scheme names its own modules; a
    // third or later scheme's modules are priced as the second's.
    if (read.size() > 1 && !q.targets.empty()) {
        q.restFormat = read[1].format;
        for (std::size_t i = 1; i < read.size(); ++i)
            q.restTargets.insert(q.restTargets.end(), read[i].targets.begin(), read[i].targets.end());
    }
    if (read.size() > 2)
        warnings.push_back(where + ": " + std::to_string(read.size())
                           + " weight schemes; the modules of the third and later are priced as the second's");
}

/// compressed-tensors (llm-compressor) and ModelOpt's MIXED_PRECISION export:
/// the ignore list, and the config groups. The group of fewest weight bits
/// gives the format and the targets (NVFP4 MLPs and experts in NVIDIA's
/// Qwen3.6 releases); a second group's format is the rest's (their FP8
/// attention and linear attention), and a third or more is said in `warnings`.
CheckpointQuantization compressedTensors(JsonReader &quant, std::vector<std::string> &warnings)
{
    CheckpointQuantization q;
    q.excluded = patternList(quant, "ignore");
    auto groups = quant.object("config_groups", false);
    if (!groups || !groups->json().is_object() || groups->json().empty())
        return q;
    std::vector<ConfigGroup> read;
    for (auto it = groups->json().begin(); it != groups->json().end(); ++it) {
        auto group = groups->object(it.key().c_str(), false);
        auto weights = group ? group->object("weights", false) : std::nullopt;
        if (!weights)
            continue;
        ConfigGroup g;
        g.format = weightScheme(*weights, g.groupSize);
        g.targets = patternList(*group, "targets");
        if (!g.format.empty())
            read.push_back(std::move(g));
    }
    pickFormats(std::move(read), groups->pointer(), q, warnings);
    q.listsModules = !q.excluded.empty() || !q.targets.empty();
    return q;
}

/// ModelOpt's quant_algo: NVFP4, FP8, MXFP8, or MIXED_PRECISION (the format of its
/// first config group, where the config has them).
std::string modelOptFormat(const std::string &algo)
{
    // W4A16_NVFP4 stores NVFP4 weights too (its activations stay 16-bit).
    if (algo == "NVFP4" || algo == "W4A16_NVFP4")
        return "nvfp4";
    if (algo == "FP8")
        return "fp8";
    if (algo == "MXFP8")
        return "mxfp8";
    return "";
}

/// ModelOpt's per-module MIXED_PRECISION export (quantized_layers: each
/// module's quant_algo, and group_size where it takes one; NVIDIA's
/// MiniMax-M3 NVFP4: NVFP4 experts beside MXFP8 attention, indexer, dense
/// MLPs and shared experts), read as config groups are. Modules of a
/// quant_algo this planner does not model are said once per algo.
void readQuantizedLayers(JsonReader &quant, CheckpointQuantization &q, std::vector<std::string> &warnings)
{
    auto layers = quant.object("quantized_layers", false);
    if (!layers || !layers->json().is_object())
        return;
    std::vector<ConfigGroup> read;
    std::map<std::string, std::pair<std::size_t, std::string>> unmodelled; // algo: count, first module
    for (auto it = layers->json().begin(); it != layers->json().end(); ++it) {
        const Json &entry = it.value();
        const auto algo = entry.is_object() && entry.contains("quant_algo") && entry.at("quant_algo").is_string()
            ? entry.at("quant_algo").get<std::string>()
            : std::string();
        const std::string format = modelOptFormat(algo);
        if (format.empty()) {
            auto &[count, first] = unmodelled[algo];
            if (count++ == 0)
                first = it.key();
            continue;
        }
        auto group = std::find_if(read.begin(), read.end(), [&](const ConfigGroup &g) { return g.format == format; });
        if (group == read.end()) {
            ConfigGroup g;
            g.format = format;
            if (entry.contains("group_size") && entry.at("group_size").is_number_unsigned())
                g.groupSize = static_cast<int>(std::min<std::uint64_t>(entry.at("group_size").get<std::uint64_t>(), 1u << 20));
            group = read.insert(read.end(), std::move(g));
        }
        group->targets.push_back(it.key());
    }
    for (const auto &[algo, seen] : unmodelled)
        warnings.push_back(layers->pointer() + ": quant_algo '" + algo + "' of " + std::to_string(seen.first)
            + " modules (" + seen.second
            + " the first) is not a format this planner models; they are taken in the checkpoint's dtype");
    pickFormats(std::move(read), layers->pointer(), q, warnings);
}

/// What a ModelOpt quantization object says beyond its quant_algo: the
/// per-module formats of a MIXED_PRECISION export without config groups
/// (where it has both, they agree and the groups are read) and the
/// excluded modules.
void readModelOptModules(JsonReader &quant, CheckpointQuantization &q, std::vector<std::string> &warnings)
{
    if (q.format.empty() && quant.has("quantized_layers"))
        readQuantizedLayers(quant, q, warnings);
    q.patterns = ModulePatterns::Glob;
    q.excluded = patternList(quant, "ignore");
    if (q.excluded.empty())
        q.excluded = patternList(quant, "exclude_modules");
    q.listsModules = !q.excluded.empty() || !q.targets.empty();
}

} // namespace

CheckpointQuantization readQuantizationConfig(JsonReader &quant, std::vector<std::string> &warnings)
{
    const std::string method = quant.string("quant_method", false).value_or("");
    CheckpointQuantization q;
    if (method == "bitsandbytes") {
        q.format = bitsandbytesFormat(quant);
    } else if (method == "gptq" || method == "awq") {
        q.format = quant.uint("bits", 1, 64, false).value_or(0) == 4 ? method + "-4bit" : "";
    } else if (method == "fp8" || method == "mxfp4") {
        // transformers' FineGrainedFP8Config and Mxfp4Config, and vLLM's
        // Fp8Config (ignored_layers, else modules_to_not_convert), keep
        // these modules in the checkpoint's dtype: Qwen's FP8 releases list
        // their linear attention and shared experts, gpt-oss its attention.
        q.format = method;
        // vLLM looks ignored_layers up by exact name (is_layer_skipped).
        const bool vllmList = quant.has("ignored_layers");
        q.patterns = vllmList ? ModulePatterns::CompressedTensors : ModulePatterns::Transformers;
        q.excluded = patternList(quant, vllmList ? "ignored_layers" : "modules_to_not_convert");
        q.listsModules = !q.excluded.empty();
        q.linearLayersOnly = true;
    } else if (method == "compressed-tensors") {
        q = compressedTensors(quant, warnings);
    } else if (method == "modelopt") {
        // ModelOpt's export into config.json: quant_algo with the exclusions
        // under "ignore" (older exports: exclude_modules); MIXED_PRECISION
        // names its schemes in config_groups, each with its modules
        // (targets), as compressed-tensors does, or module by module in
        // quantized_layers.
        const std::string algo = quant.string("quant_algo", false).value_or("");
        if (algo == "MIXED_PRECISION")
            q = compressedTensors(quant, warnings);
        else
            q.format = modelOptFormat(algo);
        q.groupSize = static_cast<int>(quant.uint("group_size", 1, 1u << 20, false).value_or(q.groupSize));
        readModelOptModules(quant, q, warnings);
    }
    if (q.format.empty())
        warnings.push_back(quant.pointer() + ": quant_method '" + method
                           + "' with these settings is not a format this planner models; the weights are taken "
                             "in the checkpoint's dtype");
    return q;
}

CheckpointQuantization readModelOptQuantConfig(JsonReader &file, std::vector<std::string> &warnings)
{
    CheckpointQuantization q;
    q.patterns = ModulePatterns::Glob;
    auto quantization = file.object("quantization", true);
    if (!quantization)
        return q;
    const std::string algo = quantization->string("quant_algo", false).value_or("");
    q.format = modelOptFormat(algo);
    q.groupSize = static_cast<int>(quantization->uint("group_size", 1, 1u << 20, false).value_or(0));
    readModelOptModules(*quantization, q, warnings);
    if (q.format.empty())
        warnings.push_back(quantization->pointer() + ": quant_algo '" + algo
                           + "' is not a format this planner models; the weights are taken in the checkpoint's "
                             "dtype");
    return q;
}

} // namespace core::io
