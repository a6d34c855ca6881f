#include "core/io/ggufmodel.h"

#include "core/base/units.h"
#include "core/model/layerkinds.h"

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <set>

namespace core::io {

namespace {

// Key and tensor names from llama.cpp src/llama-arch.cpp (LLM_KV_NAMES,
// LLM_TENSOR_NAMES, LLM_ARCH_NAMES); defaults and per-architecture rules
// from src/llama-model.cpp and src/llama-hparams.cpp (ggml-org/llama.cpp,
// 2026).

/// The token mixers besides grouped-query attention that a file's layers
/// may hold, as bits: an architecture's own, and those an `<arch>.` key
/// implies.
enum MixerBits : unsigned {
    kGqaOnly = 0,
    kMla = 1u << 0,          ///< multi-head latent attention (deepseek2)
    kGatedDeltaNet = 1u << 1, ///< Gated DeltaNet between attention layers (qwen3next)
    kMamba2 = 1u << 2,       ///< Mamba-2 blocks between attention and MLP blocks (nemotron_h)
    kMamba2Beside = 1u << 3, ///< a Mamba-2 block beside every layer's attention (falcon-h1)
};

/// What an architecture's llama.cpp graph does that its metadata does not
/// say.
struct ArchRules
{
    const char *arch;      ///< general.architecture
    const char *modelType; ///< the Hugging Face model_type it is converted from
    NormKind norm;
    bool parallelBlock; ///< attention and MLP read the same normed input
    bool fusedGateUp;   ///< ffn_up holds the gate and up projections (2I rows)
    /// llama_hparams::set_swa_pattern(n): layer il uses the sliding window
    /// when n == 0 or il % n < n - 1 (so 1: no layer, 0: every layer).
    std::uint32_t swaPeriod;
    unsigned mixer; ///< a MixerBits value: kGqaOnly for the standard decoder
    /// attn_gate is a sigmoid gate on the attention output (readOutputGate).
    bool outputGate = false;
    /// head_count and head_count_kv may differ between the full and the
    /// sliding layers (ArchKeys::countByKind).
    bool headsPerLayerKind = false;
};

const ArchRules kArchs[] = {
    // arch        model_type     norm                 parallel fused  swa period
    {"llama",      "llama",       NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    {"qwen2",      "qwen2",       NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    {"qwen2moe",   "qwen2_moe",   NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    {"qwen3",      "qwen3",       NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    {"qwen3moe",   "qwen3_moe",   NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    {"gemma",      "gemma",       NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    {"gemma2",     "gemma2",      NormKind::RmsNorm,   false,   false, 2, kGqaOnly}, // local, global, ...
    {"gemma3",     "gemma3_text", NormKind::RmsNorm,   false,   false, 6, kGqaOnly}, // five local, one global
    // Phi-3's window covers every layer (HF modeling_phi3.py; its config
    // has no layer_types); gate and up share ffn_up.
    {"phi3",       "phi3",        NormKind::RmsNorm,   false,   true,  0, kGqaOnly},
    {"gpt-oss",    "gpt_oss",     NormKind::RmsNorm,   false,   false, 2, kGqaOnly}, // HF config layer_types alternate
    // Cohere: one LayerNorm without bias feeds attention and MLP in parallel.
    {"command-r",  "cohere",      NormKind::LayerNorm, true,    false, 1, kGqaOnly},
    {"cohere2",    "cohere2",     NormKind::LayerNorm, true,    false, 4, kGqaOnly}, // three local, one global
    // OLMo 2, and OLMo 3 which convert_hf_to_gguf.py writes as olmo2:
    // load_hparams LLM_ARCH_OLMO2 sets set_swa_pattern(4) when the file has
    // a sliding window (three local, one global).
    {"olmo2",      "olmo2",       NormKind::RmsNorm,   false,   false, 4, kGqaOnly},
    {"minimax-m2", "minimax_m2",  NormKind::RmsNorm,   false,   false, 1, kGqaOnly},
    // DeepSeek-V2/V3 and their MLA descendants (load_tensors LLM_ARCH_DEEPSEEK2).
    {"deepseek2",  "deepseek_v2", NormKind::RmsNorm,   false,   false, 1, kMla},
    {"qwen3next",  "qwen3_next",  NormKind::RmsNorm,   false,   false, 1, kGatedDeltaNet},
    {"nemotron_h", "nemotron_h",  NormKind::RmsNorm,   false,   false, 1, kMamba2},
    {"nemotron_h_moe", "nemotron_h", NormKind::RmsNorm, false,  false, 1, kMamba2},
    {"falcon-h1",  "falcon_h1",   NormKind::RmsNorm,   false,   false, 1, kMamba2Beside},
    // Arcee's Trinity (llama_model_afmoe: set_swa_pattern(4), three local
    // layers to one global; attn_gate gates each query element's output).
    {"afmoe",      "afmoe",       NormKind::RmsNorm,   false,   false, 4, kGqaOnly, true},
    // Step-3.5 (convert_hf_to_gguf Step35Model; llama.cpp src/models/step35.cpp
    // @ 08b88611): the file flags each sliding layer (sliding_window_pattern)
    // and gives the query heads of each layer, 64 full and 96 sliding;
    // attn_gate gates each head's output.
    {"step35",     "step3p5",     NormKind::RmsNorm,   false,   false, 1, kGqaOnly, true, true},
};

/// `<arch>.` keys of structure ModelSpec has no field for, unless the
/// architecture's mixer is one of `readBy`. A key present with a value
/// above `above` refuses the file.
struct Unsupported
{
    const char *key;
    std::uint64_t above;
    const char *what;
    unsigned readBy; ///< MixerBits whose reader takes this key
};

const Unsupported kUnsupported[] = {
    {"attention.kv_lora_rank", 0, "multi-head latent attention (a compressed KV cache)", kMla},
    {"attention.q_lora_rank", 0, "multi-head latent attention (low-rank queries)", kMla},
    {"attention.key_length_mla", 0, "multi-head latent attention", kMla},
    {"ssm.state_size", 0, "state-space (Mamba) layers", kGatedDeltaNet | kMamba2 | kMamba2Beside},
    {"ssm.inner_size", 0, "state-space (Mamba) layers", kGatedDeltaNet | kMamba2 | kMamba2Beside},
    {"wkv.head_size", 0, "RWKV time-mixing layers", kGqaOnly},
    {"kda.head_dim", 0, "delta-rule linear attention layers", kGqaOnly},
    {"full_attention_interval", 0, "linear-attention layers between the full-attention ones", kGatedDeltaNet},
    {"attention.recurrent_layers", 0, "recurrent layers", kGqaOnly},
    {"shortconv.l_cache", 0, "short-convolution layers", kGqaOnly},
    {"decoder_block_count", 0, "an encoder-decoder stack", kGqaOnly},
    {"attention.shared_kv_layers", 0, "layers that reuse another layer's KV cache", kGqaOnly},
    {"embedding_length_per_layer_input", 0, "per-layer input embeddings", kGqaOnly},
    {"nextn_predict_layers", 0, "multi-token-prediction layers inside block_count", kGqaOnly},
    {"interleave_moe_layer_step", 1, "MoE layers interleaved with dense ones", kGqaOnly},
    {"moe_every_n_layers", 1, "MoE layers interleaved with dense ones", kGqaOnly},
    {"moe_latent_size", 0, "experts that run in a latent width", kGqaOnly},
};

constexpr std::uint64_t kMaxDim = ModelLimits::maxWidth;
constexpr std::uint64_t kMaxLayers = ModelLimits::maxLayers;
constexpr std::uint64_t kMaxVocab = ModelLimits::maxVocab;

/// Tensors outside the layers that the model counts.
const char *const kModelTensors[] = {"token_embd.weight", "output_norm.weight", "output_norm.bias", "output.weight",
                                     "position_embd.weight", "token_types.weight"};
/// Layer tensors (`blk.N.` + these) that the model counts.
const char *const kLayerTensors[] = {
    "attn_norm.weight", "attn_norm.bias", "ffn_norm.weight", "ffn_norm.bias",
    "post_attention_norm.weight", "post_ffw_norm.weight",
    "attn_q.weight", "attn_q.bias", "attn_k.weight", "attn_k.bias", "attn_v.weight", "attn_v.bias",
    "attn_qkv.weight", "attn_qkv.bias", "attn_output.weight", "attn_output.bias",
    "attn_q_norm.weight", "attn_k_norm.weight", "attn_sinks.weight",
    "ffn_gate.weight", "ffn_gate.bias", "ffn_up.weight", "ffn_up.bias", "ffn_down.weight", "ffn_down.bias",
    "ffn_gate_inp.weight", "ffn_gate_inp.bias",
    "ffn_gate_exps.weight", "ffn_gate_exps.bias", "ffn_up_exps.weight", "ffn_up_exps.bias",
    "ffn_down_exps.weight", "ffn_down_exps.bias", "ffn_gate_up_exps.weight",
    "ffn_gate_shexp.weight", "ffn_up_shexp.weight", "ffn_down_shexp.weight", "ffn_gate_inp_shexp.weight",
    "exp_probs_b.bias",
    // Multi-head latent attention (llama-arch.cpp LLM_ARCH_DEEPSEEK2).
    "attn_q_a.weight", "attn_q_a_norm.weight", "attn_q_b.weight", "attn_kv_a_mqa.weight", "attn_kv_a_norm.weight",
    "attn_kv_b.weight", "attn_k_b.weight", "attn_v_b.weight",
    // Gated DeltaNet and Mamba-2 (LLM_ARCH_QWEN3NEXT, LLM_ARCH_NEMOTRON_H).
    "ssm_in.weight", "ssm_conv1d.weight", "ssm_conv1d.bias", "ssm_dt.bias", "ssm_a", "ssm_d", "ssm_ba.weight",
    "ssm_norm.weight", "ssm_out.weight",
};
/// The norms a layer applies to its residual stream.
const char *const kLayerNorms[] = {"attn_norm.weight", "ffn_norm.weight", "post_attention_norm.weight",
                                   "post_ffw_norm.weight"};

/// "blk.12.attn_q.weight" -> {12, "attn_q.weight"}.
std::optional<std::pair<std::uint64_t, std::string>> layerTensor(const std::string &name)
{
    if (name.rfind("blk.", 0) != 0)
        return std::nullopt;
    const std::size_t dot = name.find('.', 4);
    if (dot == std::string::npos || dot == 4
        || !std::all_of(name.begin() + 4, name.begin() + static_cast<std::ptrdiff_t>(dot),
                        [](char c) { return c >= '0' && c <= '9'; })
        || dot - 4 > 9)
        return std::nullopt;
    return std::make_pair(std::stoull(name.substr(4, dot - 4)), name.substr(dot + 1));
}

/// The tensors by name and the layer tensors by their name within a layer.
struct Tensors
{
    std::map<std::string, const StoredTensor *> byName;
    std::map<std::string, std::vector<const StoredTensor *>> byRole; ///< "attn_q.weight" -> every layer's
    std::set<std::string> inFirstLayer;

    explicit Tensors(const WeightInventory &inventory)
    {
        for (const StoredTensor &t : inventory.tensors) {
            byName.emplace(t.name, &t);
            if (const auto layer = layerTensor(t.name)) {
                byRole[layer->second].push_back(&t);
                if (layer->first == 0)
                    inFirstLayer.insert(layer->second);
            }
        }
    }

    const StoredTensor *find(const std::string &name) const
    {
        const auto found = byName.find(name);
        return found == byName.end() ? nullptr : found->second;
    }
    bool hasRole(const std::string &role) const { return byRole.count(role) != 0; }
    /// How many layers have `role`.
    std::uint64_t countOf(const std::string &role) const
    {
        const auto found = byRole.find(role);
        return found == byRole.end() ? 0 : found->second.size();
    }
    const StoredTensor *anyOf(const std::string &role) const
    {
        const auto found = byRole.find(role);
        return found == byRole.end() ? nullptr : found->second.front();
    }
};

/// The `<arch>.*` keys, each marked as read when it is looked up.
class ArchKeys
{
public:
    ArchKeys(const std::map<std::string, GgufValue> &metadata, std::string arch, std::vector<std::string> &errors)
        : m_metadata(metadata), m_prefix(std::move(arch) + "."), m_errors(errors)
    {
    }

    std::string key(const std::string &name) const { return m_prefix + name; }

    const GgufValue *find(const std::string &name)
    {
        m_read.insert(key(name));
        const auto found = m_metadata.find(key(name));
        return found == m_metadata.end() ? nullptr : &found->second;
    }

    /// A count in [min, max]. With `layers`, a per-layer array of that many
    /// equal entries reads as the entry (llama.cpp get_key_or_arr); entries
    /// that differ are an error, as ModelSpec has one value for every layer.
    std::optional<std::uint64_t> count(const std::string &name, std::uint64_t min, std::uint64_t max, bool required,
                                       std::uint64_t layers = 0)
    {
        const GgufValue *v = find(name);
        if (!v) {
            if (required)
                m_errors.push_back(key(name) + ": missing");
            return std::nullopt;
        }
        std::optional<std::uint64_t> value = v->count();
        if (v->isArray() && layers > 0) {
            if (v->numbers.size() != v->length) {
                m_errors.push_back(key(name) + ": expected a number per layer; this array's entries are not kept");
                return std::nullopt;
            }
            if (v->length != layers) {
                m_errors.push_back(key(name) + ": has " + std::to_string(v->length) + " entries for "
                                   + std::to_string(layers) + " layers");
                return std::nullopt;
            }
            const auto [low, high] = std::minmax_element(
                v->numbers.begin(), v->numbers.end(),
                [](const GgufNumber &a, const GgufNumber &b) { return a.count() < b.count(); });
            if (!low->count() || low->count() != high->count()) {
                m_errors.push_back(key(name) + ": differs between layers (" + describe(*low) + " to " + describe(*high)
                                   + "); ModelSpec has one value for every layer");
                return std::nullopt;
            }
            value = low->count();
        }
        if (!value || *value < min || *value > max) {
            m_errors.push_back(key(name) + ": expected an integer between " + std::to_string(min) + " and "
                               + std::to_string(max));
            return std::nullopt;
        }
        return value;
    }

    /// A count that the full-attention and the sliding layers may each give
    /// their own (step35 writes head_count and head_count_kv per layer, 64
    /// and 96 query heads, beside attention.sliding_window_pattern's flag
    /// per layer: convert_hf_to_gguf Step35Model): the full layers' value
    /// and the sliding layers', where the architecture's rules allow it
    /// (`perKind`). Otherwise as count(), both the same.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> countByKind(const std::string &name, std::uint64_t min,
                                                                        std::uint64_t max, bool required,
                                                                        std::uint64_t layers, bool perKind)
    {
        const GgufValue *v = find(name);
        const GgufValue *pattern = perKind ? find("attention.sliding_window_pattern") : nullptr;
        const auto perLayerArray = [layers](const GgufValue *a) {
            return a && a->isArray() && a->length == layers && a->numbers.size() == layers;
        };
        if (perLayerArray(v) && perLayerArray(pattern)) {
            std::optional<std::uint64_t> kinds[2]; // full, sliding
            bool uniform = true;
            for (std::uint64_t il = 0; il < layers && uniform; ++il) {
                const auto value = v->numbers[il].count();
                std::optional<std::uint64_t> &kind = kinds[pattern->numbers[il].count() == 1u ? 1 : 0];
                uniform = value && *value >= min && *value <= max && (!kind || *kind == *value);
                kind = value;
            }
            if (uniform && (kinds[0] || kinds[1]))
                return std::pair{kinds[0].value_or(*kinds[1]), kinds[1].value_or(*kinds[0])};
        }
        const auto one = count(name, min, max, required, layers);
        if (!one)
            return std::nullopt;
        return std::pair{*one, *one};
    }

    /// A count per layer in [0, max]: a per-layer array of `layers` entries
    /// as it is, a single value repeated (llama.cpp get_key_or_arr).
    /// Hybrid files mark a layer's kind with zeros (llama-model.cpp
    /// LLM_ARCH_NEMOTRON_H: head_count_kv and feed_forward_length 0 for a
    /// recurrent layer).
    std::optional<std::vector<std::uint64_t>> perLayer(const std::string &name, std::uint64_t max,
                                                       std::uint64_t layers)
    {
        const GgufValue *v = find(name);
        if (!v) {
            m_errors.push_back(key(name) + ": missing");
            return std::nullopt;
        }
        if (!v->isArray()) {
            const auto value = v->count();
            if (!value || *value > max) {
                m_errors.push_back(key(name) + ": expected an integer between 0 and " + std::to_string(max));
                return std::nullopt;
            }
            return std::vector<std::uint64_t>(layers, *value);
        }
        if (v->numbers.size() != v->length || v->length != layers) {
            m_errors.push_back(key(name) + ": expected " + std::to_string(layers) + " numbers, one per layer");
            return std::nullopt;
        }
        std::vector<std::uint64_t> values;
        for (const GgufNumber &n : v->numbers) {
            const auto value = n.count();
            if (!value || *value > max) {
                m_errors.push_back(key(name) + ": entry " + std::to_string(values.size())
                                   + " is not an integer between 0 and " + std::to_string(max));
                return std::nullopt;
            }
            values.push_back(*value);
        }
        return values;
    }

    /// Every `<arch>.*` key present but never looked up.
    std::vector<std::string> unread() const
    {
        std::vector<std::string> keys;
        for (auto it = m_metadata.lower_bound(m_prefix); it != m_metadata.end() && it->first.rfind(m_prefix, 0) == 0;
             ++it)
            if (m_read.count(it->first) == 0)
                keys.push_back(it->first);
        return keys;
    }

private:
    static std::string describe(const GgufNumber &n)
    {
        const auto c = n.count();
        return c ? std::to_string(*c) : std::string("not a count");
    }

    const std::map<std::string, GgufValue> &m_metadata;
    std::string m_prefix;
    std::vector<std::string> &m_errors;
    std::set<std::string> m_read;
};

std::string joined(const std::vector<std::string> &items)
{
    std::string all;
    for (const std::string &item : items)
        all += (all.empty() ? "" : ", ") + item;
    return all;
}

/// Layers that slide: the file's own pattern when it has one (a period, or
/// a flag per layer), else the architecture's.
std::uint64_t slidingLayers(ArchKeys &keys, std::uint32_t period, std::uint64_t layers)
{
    if (const GgufValue *pattern = keys.find("attention.sliding_window_pattern")) {
        if (pattern->isArray())
            return static_cast<std::uint64_t>(std::count_if(pattern->numbers.begin(), pattern->numbers.end(),
                                                            [](const GgufNumber &n) { return n.count() == 1u; }));
        if (const auto p = pattern->count())
            period = static_cast<std::uint32_t>(std::min<std::uint64_t>(*p, layers + 1));
    }
    if (period == 0)
        return layers;
    std::uint64_t sliding = 0;
    for (std::uint64_t il = 0; il < layers; ++il)
        sliding += il % period < period - 1 ? 1 : 0;
    return sliding;
}

/// Refuses what ModelSpec cannot describe, naming the architecture.
void refuseUnsupported(ArchKeys &keys, const std::string &arch, unsigned mixer, std::vector<std::string> &errors)
{
    std::set<std::string> named;
    for (const Unsupported &u : kUnsupported) {
        if ((u.readBy & mixer) != 0)
            continue;
        const GgufValue *v = keys.find(u.key);
        if (!v)
            continue;
        const auto value = v->count();
        if (value && *value <= u.above)
            continue;
        if (named.insert(u.what).second)
            errors.push_back(keys.key(u.key) + ": " + arch + " has " + u.what
                             + ", which ModelSpec cannot describe yet; no model is made rather than a wrong one");
    }
}

void readMoe(ArchKeys &keys, const Tensors &tensors, ModelSpec &m, std::vector<std::string> &errors,
             std::vector<std::string> &assumed)
{
    const auto experts = keys.count("expert_count", 0, 1u << 16, false);
    if (!experts || *experts == 0)
        return;
    m.moe.experts = static_cast<int>(*experts);
    m.moe.expertsPerToken = static_cast<int>(keys.count("expert_used_count", 1, *experts, true).value_or(1));
    m.moe.denseLayers = static_cast<int>(keys.count("leading_dense_block_count", 0, m.layers, false).value_or(0));
    if (const auto width = keys.count("expert_feed_forward_length", 1, kMaxDim, false)) {
        m.moe.expertIntermediate = *width;
    } else if (m.intermediate == 0) {
        errors.push_back(keys.key("expert_feed_forward_length") + ": missing, and no feed_forward_length to take");
        return;
    } else {
        m.moe.expertIntermediate = m.intermediate;
        assumed.push_back("assumed: each expert is " + std::to_string(m.intermediate) + " wide (feed_forward_length); "
                          + keys.key("expert_feed_forward_length") + " is missing");
    }
    // A shared expert's width is counted in routed-expert widths.
    const auto sharedCount = keys.count("expert_shared_count", 0, 1024, false);
    const auto sharedWidth = keys.count("expert_shared_feed_forward_length", 1, kMaxDim, false);
    if (!tensors.hasRole("ffn_up_shexp.weight")) {
        m.moe.sharedExperts = static_cast<int>(sharedCount.value_or(0));
        return;
    }
    // The shared expert's width is what its tensors hold; expert_shared_count
    // may count it otherwise (Nemotron 3 Nano: one shared expert twice the
    // routed width, convert_hf_to_gguf.py NemotronHModel).
    const StoredTensor *up = tensors.anyOf("ffn_up_shexp.weight");
    const std::uint64_t width = sharedWidth.value_or(up->shape.empty() ? 0 : up->shape.front());
    const std::uint64_t unit = m.moe.expertIntermediate;
    if (width == 0 || width % unit != 0) {
        errors.push_back(keys.key("expert_shared_feed_forward_length") + ": the shared expert's width "
                         + std::to_string(width) + " is not a whole number of experts of " + std::to_string(unit)
                         + ", which is how ModelSpec sizes shared experts");
        return;
    }
    m.moe.sharedExperts = static_cast<int>(width / unit);
    if (sharedCount.value_or(1) != width / unit)
        assumed.push_back("assumed: the shared expert of width " + std::to_string(width) + " counts as "
                          + std::to_string(m.moe.sharedExperts) + " experts of " + std::to_string(unit)
                          + (sharedCount ? " (" + keys.key("expert_shared_count") + " says "
                                               + std::to_string(*sharedCount) + ")"
                                         : std::string()));
}

/// The vocabulary: token_embd's rows, else `<arch>.vocab_size`, else the
/// tokenizer's token list.
std::uint64_t vocabulary(ArchKeys &keys, const Tensors &tensors, const WeightInventory &inventory, std::uint64_t hidden,
                         std::vector<std::string> &errors, std::vector<std::string> &assumed)
{
    const auto declared = keys.count("vocab_size", 1, kMaxVocab, false);
    if (const StoredTensor *embed = tensors.find("token_embd.weight")) {
        if (embed->shape.size() != 2 || embed->shape[1] != hidden || embed->shape[0] == 0 || embed->shape[0] > kMaxVocab)
            errors.push_back("token_embd.weight: expected [vocab, " + std::to_string(hidden) + "]");
        else if (declared && *declared != embed->shape[0])
            errors.push_back(keys.key("vocab_size") + ": is " + std::to_string(*declared) + "; token_embd.weight has "
                             + std::to_string(embed->shape[0]) + " rows");
        return embed->shape.empty() ? 0 : embed->shape[0];
    }
    if (declared)
        return *declared;
    const auto tokens = inventory.metadata.find("tokenizer.ggml.tokens");
    if (tokens == inventory.metadata.end() || !tokens->second.isArray() || tokens->second.length == 0
        || tokens->second.length > kMaxVocab) {
        errors.push_back("token_embd.weight: missing, and neither " + keys.key("vocab_size")
                         + " nor tokenizer.ggml.tokens gives the vocabulary");
        return 0;
    }
    assumed.push_back("assumed: the vocabulary is tokenizer.ggml.tokens' " + std::to_string(tokens->second.length)
                      + " entries; the file has no token_embd.weight");
    return tokens->second.length;
}

/// The structure the tensors show: biases, norms, sinks, gates.
void readLayerTensors(const Tensors &tensors, const ArchRules &rules, bool knownArch, ModelSpec &m,
                      std::vector<std::string> &assumed)
{
    const auto any = [&tensors](std::initializer_list<const char *> roles) {
        return std::any_of(roles.begin(), roles.end(), [&tensors](const char *r) { return tensors.hasRole(r); });
    };
    m.qkvBias = any({"attn_q.bias", "attn_k.bias", "attn_v.bias", "attn_qkv.bias"});
    m.attnOutBias = any({"attn_output.bias"});
    m.mlpBias = any({"ffn_up.bias", "ffn_down.bias", "ffn_gate.bias"});
    m.qkNorm = any({"attn_q_norm.weight"});
    m.attentionSinks = any({"attn_sinks.weight"});
    m.gatedMlp = rules.fusedGateUp || any({"ffn_gate.weight", "ffn_gate_exps.weight", "ffn_gate_up_exps.weight"});
    // exp_probs_b: the sigmoid router's e_score_correction_bias (llama-model.cpp
    // LLM_ARCH_DEEPSEEK2, MINIMAX_M2, NEMOTRON_H_MOE).
    m.moe.routerBias = any({"ffn_gate_inp.bias", "exp_probs_b.bias"});
    m.moe.sharedExpertGate = any({"ffn_gate_inp_shexp.weight"}); // qwen2moe, qwen3next: {n_embd}
    m.mambaConvBias = any({"ssm_conv1d.bias"});
    m.mambaNorm = any({"ssm_norm.weight"}); // falcon-h1: only with mamba_rms_norm
    m.moe.expertBias = any({"ffn_up_exps.bias", "ffn_gate_exps.bias", "ffn_down_exps.bias"});
    for (const char *role : {"ffn_up_exps.weight", "ffn_gate_up_exps.weight"})
        if (const StoredTensor *t = tensors.anyOf(role))
            m.checkpointFormat = t->dtype == "MXFP4" ? "mxfp4" : "";
    m.normsPerLayer = static_cast<int>(std::count_if(std::begin(kLayerNorms), std::end(kLayerNorms),
                                                     [&tensors](const char *n) { return tensors.inFirstLayer.count(n); }));
    m.finalNorm = tensors.find("output_norm.weight") != nullptr;
    const bool normBias = tensors.inFirstLayer.count("attn_norm.bias") != 0;
    m.norm = knownArch || !normBias ? rules.norm : NormKind::LayerNorm;
    if (!knownArch && normBias)
        assumed.push_back("assumed: LayerNorm, as blk.0.attn_norm has a bias");
    if (m.norm == NormKind::LayerNorm && !normBias)
        assumed.push_back("assumed: the LayerNorms, which have no bias here, each count one (ModelSpec's LayerNorm "
                          "has a weight and a bias)");
    if (const StoredTensor *t = tensors.find("position_embd.weight"))
        m.learnedPositions = t->shape.empty() ? 0 : t->shape.front();
    if (const StoredTensor *t = tensors.find("token_types.weight"))
        m.tokenTypes = t->shape.empty() ? 0 : t->shape.front();
    m.tiedEmbeddings = tensors.find("output.weight") == nullptr;
}

/// Tensors the model does not count, by pattern ("blk.*.ffn_gate_inp_shexp.weight").
std::vector<std::string> uncountedTensors(const WeightInventory &inventory, const ArchRules &rules)
{
    std::map<std::string, std::uint64_t> patterns;
    for (const StoredTensor &t : inventory.tensors) {
        const auto layer = layerTensor(t.name);
        const bool counted =
            layer ? (rules.outputGate && layer->second == "attn_gate.weight")
                    || std::find_if(std::begin(kLayerTensors), std::end(kLayerTensors),
                                    [&layer](const char *n) { return layer->second == n; })
                        != std::end(kLayerTensors)
                  : std::find_if(std::begin(kModelTensors), std::end(kModelTensors),
                                 [&t](const char *n) { return t.name == n; })
                        != std::end(kModelTensors);
        if (!counted)
            patterns[layer ? "blk.*." + layer->second : t.name] += 1;
    }
    std::vector<std::string> items;
    for (const auto &[pattern, n] : patterns)
        items.push_back(pattern + (n > 1 ? " (" + std::to_string(n) + " tensors)" : ""));
    return items;
}

/// What the readers of one file's layers share.
struct Reading
{
    ArchKeys &keys;
    const Tensors &tensors;
    ModelSpec &m;
    std::vector<std::string> &errors;
    std::vector<std::string> &assumed;
    const ArchRules &rules;
};

/// Grouped-query attention in every layer (llama.cpp's defaults: as many KV
/// heads as heads, heads of h / a) and one MLP width.
void readGqa(Reading &r)
{
    ModelSpec &m = r.m;
    const auto kvHeads = r.keys.countByKind("attention.head_count_kv", 1, kMaxDim, false, m.layers,
                                                r.rules.headsPerLayerKind);
    m.kvHeads = kvHeads ? kvHeads->first : m.heads;
    m.slidingKvHeads = kvHeads && kvHeads->second != kvHeads->first ? kvHeads->second : 0;
    m.headDim = r.keys.count("attention.key_length", 1, kMaxDim, false).value_or(m.hidden / m.heads);
    if (const auto valueWidth = r.keys.count("attention.value_length", 1, kMaxDim, false);
        valueWidth && *valueWidth != m.headDim)
        r.errors.push_back(r.keys.key("attention.value_length") + ": " + std::to_string(*valueWidth)
                           + " differs from the key heads' " + std::to_string(m.headDim)
                           + "; ModelSpec has one head width");
    m.intermediate = r.keys.count("feed_forward_length", 0, kMaxDim, false, m.layers).value_or(0);
}

/// An error unless `value` is `expected`.
void expectEqual(Reading &r, const std::string &name, std::uint64_t value, std::uint64_t expected, const std::string &why)
{
    if (value != expected)
        r.errors.push_back(r.keys.key(name) + ": is " + std::to_string(value) + "; expected " + std::to_string(expected)
                           + " (" + why + ")");
}

/// Multi-head latent attention as llama.cpp loads deepseek2
/// (llama-model.cpp load_hparams / load_tensors LLM_ARCH_DEEPSEEK2). Files
/// with key_length_mla and value_length_mla (convert_hf_to_gguf.py
/// DeepseekV2Model since 2025) store MLA as one KV head of the latent:
/// head_count_kv 1, key_length kv_lora_rank + rope, value_length
/// kv_lora_rank, and attn_kv_b split into attn_k_b and attn_v_b (the same
/// elements). Older files give the decompressed heads: head_count_kv =
/// heads, key_length nope + rope, value_length v_head_dim.
void readMla(Reading &r)
{
    ModelSpec &m = r.m;
    ArchKeys &keys = r.keys;
    m.kvLoraRank = keys.count("attention.kv_lora_rank", 1, kMaxDim, true).value_or(0);
    // 0 or absent: queries straight from attn_q (DeepSeek-V2-Lite).
    m.qLoraRank = keys.count("attention.q_lora_rank", 0, kMaxDim, false).value_or(0);
    m.ropeHeadDim = keys.count("rope.dimension_count", 1, kMaxDim, true).value_or(0);
    const auto keyLength = keys.count("attention.key_length", 1, kMaxDim, true);
    const auto valueLength = keys.count("attention.value_length", 1, kMaxDim, true);
    const auto keyMla = keys.count("attention.key_length_mla", 1, kMaxDim, false);
    const auto valueMla = keys.count("attention.value_length_mla", 1, kMaxDim, false);
    const auto kvHeads = keys.count("attention.head_count_kv", 1, m.heads, false, m.layers);
    m.intermediate = keys.count("feed_forward_length", 0, kMaxDim, false, m.layers).value_or(0);
    if (!r.errors.empty())
        return;
    if (keyMla.has_value() != valueMla.has_value()) {
        r.errors.push_back(keys.key(keyMla ? "attention.value_length_mla" : "attention.key_length_mla")
                           + ": missing; llama.cpp needs both MLA head widths");
        return;
    }
    const bool latentCache = keyMla.has_value();
    m.headDim = latentCache ? *keyMla : *keyLength;       // qk_nope_head_dim + qk_rope_head_dim
    m.valueHeadDim = latentCache ? *valueMla : *valueLength; // v_head_dim
    m.kvHeads = m.heads; // keys and values are rebuilt per head (ModelSpec's MLA)
    if (latentCache) {
        expectEqual(r, "attention.key_length", *keyLength, m.kvLoraRank + m.ropeHeadDim, "kv_lora_rank + rope");
        expectEqual(r, "attention.value_length", *valueLength, m.kvLoraRank, "kv_lora_rank");
        expectEqual(r, "attention.head_count_kv", kvHeads.value_or(1), 1, "one latent KV head");
    } else {
        expectEqual(r, "attention.head_count_kv", kvHeads.value_or(m.heads), m.heads, "decompressed MLA heads");
    }
    if (m.headDim <= m.ropeHeadDim)
        r.errors.push_back(keys.key(latentCache ? "attention.key_length_mla" : "attention.key_length")
                           + ": must exceed " + keys.key("rope.dimension_count") + " (the heads' RoPE part)");
    if ((m.qLoraRank > 0) != r.tensors.hasRole("attn_q_a.weight") && !r.tensors.byRole.empty())
        r.errors.push_back(keys.key("attention.q_lora_rank") + ": " + std::to_string(m.qLoraRank)
                           + (m.qLoraRank > 0 ? ", but the layers have no attn_q_a" : ", but the layers have attn_q_a"));
}

/// Qwen3-Next's Gated DeltaNet layers as llama.cpp loads qwen3next
/// (load_tensors LLM_ARCH_QWEN3NEXT): key and value heads both
/// ssm.state_size wide, ssm.group_count key heads, ssm.time_step_rank value
/// heads (ssm.inner_size of them together), a conv of ssm.conv_kernel;
/// every full_attention_interval-th layer (default 4, the value llama.cpp
/// used before it read the key) is gated attention, its attn_q twice wide.
void readGatedDeltaNet(Reading &r)
{
    readGqa(r);
    ModelSpec &m = r.m;
    ArchKeys &keys = r.keys;
    m.gatedAttention = true;
    m.linearConvKernel = keys.count("ssm.conv_kernel", 1, 1024, true).value_or(0);
    const std::uint64_t state = keys.count("ssm.state_size", 1, kMaxDim, true).value_or(0);
    m.linearKeyDim = m.linearValueDim = state;
    m.linearKeyHeads = keys.count("ssm.group_count", 1, kMaxDim, true).value_or(0);
    m.linearValueHeads = keys.count("ssm.time_step_rank", 1, kMaxDim, true).value_or(0);
    const auto inner = keys.count("ssm.inner_size", 1, kMaxDim, true);
    const std::uint64_t interval = keys.count("full_attention_interval", 1, kMaxLayers, false).value_or(4);
    if (!r.errors.empty())
        return;
    expectEqual(r, "ssm.inner_size", *inner, state * m.linearValueHeads, "state_size x time_step_rank");
    m.linearLayers = m.layers - m.layers / interval; // layer il is linear when (il + 1) % interval != 0
    const auto ssmIn = r.tensors.byRole.find("ssm_in.weight");
    if (ssmIn != r.tensors.byRole.end() && ssmIn->second.size() != m.linearLayers)
        r.errors.push_back(keys.key("full_attention_interval") + ": " + std::to_string(interval) + " makes "
                           + std::to_string(m.linearLayers) + " linear-attention layers; the file has "
                           + std::to_string(ssmIn->second.size()) + " ssm_in tensors");
}

/// The one nonzero value of per-layer entries (0 when all are 0); an error
/// when they differ, as ModelSpec has one value for every layer of a kind.
std::uint64_t sameNonZero(Reading &r, const std::string &name, const std::vector<std::uint64_t> &values)
{
    std::set<std::uint64_t> nonZero(values.begin(), values.end());
    nonZero.erase(0);
    if (nonZero.size() > 1)
        r.errors.push_back(r.keys.key(name) + ": differs between layers (" + std::to_string(*nonZero.begin()) + " to "
                           + std::to_string(*nonZero.rbegin()) + "); ModelSpec has one value for every layer");
    return nonZero.empty() ? 0 : *nonZero.begin();
}

/// A Mamba-2 block's keys as llama.cpp reads them for nemotron_h and
/// falcon-h1: ssm.inner_size (d_inner), ssm.time_step_rank heads,
/// ssm.state_size, ssm.group_count, ssm.conv_kernel. False (and an error)
/// where they are missing or do not divide.
bool readMamba2Keys(Reading &r)
{
    ModelSpec &m = r.m;
    ArchKeys &keys = r.keys;
    const auto inner = keys.count("ssm.inner_size", 1, kMaxDim, true);
    m.mambaHeads = keys.count("ssm.time_step_rank", 1, kMaxDim, true).value_or(0);
    m.ssmState = keys.count("ssm.state_size", 1, kMaxDim, true).value_or(0);
    m.ssmGroups = keys.count("ssm.group_count", 1, kMaxDim, true).value_or(0);
    m.mambaConvKernel = keys.count("ssm.conv_kernel", 1, 1024, true).value_or(0);
    if (!r.errors.empty())
        return false;
    if (*inner % m.mambaHeads != 0 || m.mambaHeads % m.ssmGroups != 0) {
        r.errors.push_back(keys.key("ssm.time_step_rank") + ": " + std::to_string(m.mambaHeads)
                           + " heads must divide ssm.inner_size and be divided by ssm.group_count");
        return false;
    }
    m.mambaHeadDim = *inner / m.mambaHeads;
    return true;
}

/// Nemotron-H's single-purpose blocks as llama.cpp loads nemotron_h and
/// nemotron_h_moe (load_hparams / load_tensors LLM_ARCH_NEMOTRON_H): a
/// layer with head_count_kv 0 and feed_forward_length 0 is Mamba-2, one
/// with feed_forward_length 0 attention, any other an MLP, MoE whenever the
/// file has experts.
void readMamba2Hybrid(Reading &r)
{
    ModelSpec &m = r.m;
    ArchKeys &keys = r.keys;
    const auto kv = keys.perLayer("attention.head_count_kv", m.heads, m.layers);
    const auto ff = keys.perLayer("feed_forward_length", kMaxDim, m.layers);
    m.headDim = keys.count("attention.key_length", 1, kMaxDim, false).value_or(m.hidden / m.heads);
    if (const auto valueWidth = keys.count("attention.value_length", 1, kMaxDim, false))
        expectEqual(r, "attention.value_length", *valueWidth, m.headDim, "ModelSpec has one head width");
    if (!readMamba2Keys(r))
        return;
    std::uint64_t attention = 0, mlp = 0;
    for (std::uint64_t il = 0; il < m.layers; ++il) {
        m.mambaLayers += (*kv)[il] == 0 && (*ff)[il] == 0 ? 1 : 0;
        attention += (*kv)[il] != 0 && (*ff)[il] == 0 ? 1 : 0;
        mlp += (*ff)[il] != 0 ? 1 : 0;
    }
    m.layersWithoutMlp = m.mambaLayers + attention;
    m.layersWithoutMixer = mlp;
    m.kvHeads = sameNonZero(r, "attention.head_count_kv", *kv);
    m.intermediate = sameNonZero(r, "feed_forward_length", *ff);
    if (m.kvHeads == 0)
        m.kvHeads = m.heads; // no attention layer: nothing reads it
}

/// Falcon-H1 as llama.cpp loads falcon-h1 (llama-model.cpp
/// llama_model_falcon_h1: load_arch_hparams marks every layer recurrent,
/// load_arch_tensors gives every layer attention, a Mamba-2 block and an
/// MLP; the graph adds the attention's and the Mamba block's outputs).
void readMamba2BesideAttention(Reading &r)
{
    readGqa(r);
    if (!readMamba2Keys(r))
        return;
    r.m.mambaLayers = r.m.layers;
    r.m.attendingMambaLayers = r.m.layers;
}

/// The token mixers of an architecture's layers.
void readMixers(Reading &r, unsigned mixer)
{
    if (mixer & kMla)
        readMla(r);
    else if (mixer & kGatedDeltaNet)
        readGatedDeltaNet(r);
    else if (mixer & kMamba2)
        readMamba2Hybrid(r);
    else if (mixer & kMamba2Beside)
        readMamba2BesideAttention(r);
    else
        readGqa(r);
}

/// attn_gate, where the architecture's rules make it a sigmoid gate on the
/// attention output before attn_output: its rows one a query element
/// (afmoe) or one a head (step35), of the layer's own heads. A gate that
/// only some attention layers have is not modelled: left uncounted, and
/// said so. Read once the sliding layers' heads are known.
void readOutputGate(Reading &r)
{
    const StoredTensor *gate = r.tensors.anyOf("attn_gate.weight");
    if (!r.rules.outputGate || !gate || gate->elements == 0)
        return;
    const ModelSpec &m = r.m;
    const std::uint64_t gated = r.tensors.countOf("attn_gate.weight");
    if (gated != m.attentionLayers()) {
        r.assumed.push_back("ignored: attn_gate in " + std::to_string(gated) + " of the "
                            + std::to_string(m.attentionLayers())
                            + " attention layers (a gate only some layers have is not modelled)");
        return;
    }
    const std::uint64_t rows = gate->elements / m.hidden;
    const std::uint64_t slidingHeads = slidingAttentionShape(m).queryHeads;
    const std::uint64_t heads = rows % m.heads == 0 ? m.heads : slidingHeads;
    if (rows * m.hidden != gate->elements || rows % heads != 0)
        r.errors.push_back(gate->name + ": " + std::to_string(gate->elements) + " elements are no whole gates for "
                           + std::to_string(m.heads) + " (or " + std::to_string(slidingHeads) + ") heads over "
                           + std::to_string(m.hidden));
    r.m.outputGatePerHead = rows / heads;
}

/// attn_q_norm one head wide (Qwen3, Gemma 3) or over the whole projection:
/// OLMo 2/3 (load_tensors LLM_ARCH_OLMO2: {n_embd}) and MiniMax-M2
/// (LLM_ARCH_MINIMAX_M2: {n_embd_head_k * n_head}).
void readQkNormWidth(Reading &r)
{
    const StoredTensor *q = r.tensors.anyOf("attn_q_norm.weight");
    if (!q || q->shape.empty())
        return;
    const std::uint64_t width = q->elements;
    ModelSpec &m = r.m;
    if (width == m.qWidth() && m.heads > 1)
        m.qkNormWholeProjection = true;
    else if (width != m.headDim)
        r.errors.push_back(q->name + ": " + std::to_string(width) + " wide; expected one head ("
                           + std::to_string(m.headDim) + ") or every head (" + std::to_string(m.qWidth()) + ")");
}

const ArchRules *findArch(const std::string &arch)
{
    for (const ArchRules &r : kArchs)
        if (arch == r.arch)
            return &r;
    return nullptr;
}

/// The planner's weight format of a GGUF's general.file_type (llama.cpp
/// include/llama.h enum llama_ftype: the type most tensors are in); empty
/// for the types that have no format here (Q4_K_S, the IQ types, ...),
/// whose bytes the tensor table gives all the same.
std::string formatOfFileType(const std::map<std::string, GgufValue> &metadata)
{
    static const std::pair<std::uint64_t, const char *> kFileTypes[] = {
        {0, "fp32"},         {1, "fp16"},         {2, "gguf-q4_0"},    {7, "gguf-q8_0"},
        {10, "gguf-q2_k"},   {12, "gguf-q3_k_m"}, {15, "gguf-q4_k_m"}, {17, "gguf-q5_k_m"},
        {18, "gguf-q6_k"},   {32, "bf16"},        {38, "mxfp4"},
    };
    const auto type = metadata.find("general.file_type");
    if (type == metadata.end() || !type->second.count())
        return "";
    for (const auto &[id, format] : kFileTypes)
        if (*type->second.count() == id)
            return format;
    return "";
}

} // namespace

LoadResult<ModelSpec> modelFromGguf(const WeightInventory &inventory)
{
    LoadResult<ModelSpec> result;
    std::vector<std::string> &errors = result.errors;
    std::vector<std::string> assumed;
    const auto archValue = inventory.metadata.find("general.architecture");
    if (archValue == inventory.metadata.end() || archValue->second.type != GgufValue::Type::String
        || archValue->second.text.empty()) {
        errors.push_back("general.architecture: missing or not a string");
        return result;
    }
    const std::string arch = archValue->second.text;
    ArchKeys keys(inventory.metadata, arch, errors);
    const ArchRules *known = findArch(arch);
    refuseUnsupported(keys, arch, known ? known->mixer : kGqaOnly, errors);
    if (!errors.empty())
        return result;
    const ArchRules generic = {"", "", NormKind::RmsNorm, false, false, 1, kGqaOnly};
    const ArchRules &rules = known ? *known : generic;
    if (!known)
        assumed.push_back("assumed: '" + arch
                          + "' has no rules here; read as a sequential decoder with the standard keys and its "
                            "tensors' structure");

    const Tensors tensors(inventory);
    ModelSpec m;
    const auto name = inventory.metadata.find("general.name");
    m.name = name != inventory.metadata.end() && !name->second.text.empty()
                 ? name->second.text
                 : std::filesystem::path(inventory.path).stem().string();
    m.family = known ? rules.modelType : arch;
    m.layers = keys.count("block_count", 1, kMaxLayers, true).value_or(0);
    m.hidden = keys.count("embedding_length", 1, kMaxDim, true).value_or(0);
    if (m.layers == 0 || m.hidden == 0)
        return result;
    const auto heads = keys.countByKind("attention.head_count", 1, kMaxDim, true, m.layers, rules.headsPerLayerKind);
    if (!heads)
        return result;
    m.heads = heads->first;
    const std::uint64_t slidingHeads = heads->second;
    m.maxPositions = keys.count("context_length", 1, ModelLimits::maxPositions, false).value_or(0);
    Reading reading{keys, tensors, m, errors, assumed, rules};
    readMixers(reading, rules.mixer);
    if (!errors.empty())
        return result;
    readMoe(keys, tensors, m, errors, assumed);
    const bool hasDenseLayers = !m.moe.isMoe() || m.moe.denseLayers > 0;
    if (hasDenseLayers && m.intermediate == 0)
        errors.push_back(keys.key("feed_forward_length") + ": missing or 0; the dense layers need their width");
    m.vocab = vocabulary(keys, tensors, inventory, m.hidden, errors, assumed);
    readLayerTensors(tensors, rules, known != nullptr, m, assumed);
    if (m.checkpointFormat.empty())
        m.checkpointFormat = formatOfFileType(inventory.metadata);
    readQkNormWidth(reading);
    m.parallelBlock = rules.parallelBlock;
    if (const auto window = keys.count("attention.sliding_window", 0, ModelLimits::maxPositions, false); window && *window > 0) {
        if (!known && !keys.find("attention.sliding_window_pattern"))
            assumed.push_back("assumed: every layer uses the sliding window of " + std::to_string(*window) + " tokens");
        const std::uint64_t sliding = slidingLayers(keys, known ? rules.swaPeriod : 0, m.layers);
        if (sliding == 0) {
            assumed.push_back("assumed: no layer uses " + keys.key("attention.sliding_window") + " (llama.cpp's " + arch
                              + " graph has no sliding-window layers)");
        } else {
            m.slidingWindow = *window;
            m.slidingLayers = sliding;
            m.slidingHeads = slidingHeads != m.heads ? slidingHeads : 0;
        }
    }
    readOutputGate(reading);
    if (m.kvHeads == 0 || m.heads % m.kvHeads != 0)
        errors.push_back(keys.key("attention.head_count_kv") + ": must divide " + keys.key("attention.head_count"));
    const AttentionShape windowed = slidingAttentionShape(m);
    if (m.slidingLayers > 0 && windowed.queryHeads % windowed.kvHeads != 0)
        errors.push_back(keys.key("attention.head_count_kv") + ": the sliding layers' must divide their "
                         + keys.key("attention.head_count"));

    if (!errors.empty())
        return result;
    result.warnings = std::move(assumed);
    if (const auto unread = keys.unread(); !unread.empty())
        result.warnings.push_back("ignored: " + joined(unread) + " (not part of the memory model)");
    if (const auto uncounted = uncountedTensors(inventory, rules); !uncounted.empty())
        result.warnings.push_back("ignored: tensors " + joined(uncounted) + " (the model does not count them)");
    result.value = std::move(m);
    return result;
}

} // namespace core::io
