#include "core/io/hfconfig.h"

#include "core/io/jsonreader.h"

#include <algorithm>
#include <initializer_list>

namespace core::io {

namespace {

/// What a family's modeling code does that its config.json does not say.
/// Defaults come from each family's `configuration_*.py` and `modeling_*.py`
/// in Hugging Face transformers.
struct FamilyTraits
{
    const char *modelType;
    bool tieDefault;
    NormKind norm;
    int normsPerLayer;
    bool gatedMlp;
    bool qkvBias;        ///< unconditional (Qwen2 q/k/v biases have no config key)
    bool outBias;
    bool mlpBias;
    bool learnedPositions;
    bool softmaxInFp32;
    bool qkNorm;
};

const FamilyTraits kFamilies[] = {
    //            type      tie    norm               n  gated  qkvB   oB     mlpB   pos    fp32sm qkN
    {"llama",       false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
    {"mistral",     false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
    {"mixtral",     false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
    {"qwen2",       false, NormKind::RmsNorm,   2, true,  true,  false, false, false, true,  false},
    {"qwen3",       false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  true},
    {"gemma",       true,  NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
    {"gemma2",      true,  NormKind::RmsNorm,   4, true,  false, false, false, false, true,  false},
    {"phi",         false, NormKind::LayerNorm, 1, false, true,  true,  true,  false, true,  false},
    {"phi3",        false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
    {"gpt2",        true,  NormKind::LayerNorm, 2, false, true,  true,  true,  true,  false, false},
    {"gpt_neox",    false, NormKind::LayerNorm, 2, false, true,  true,  true,  false, true,  false},
    {"falcon",      true,  NormKind::LayerNorm, 2, false, false, false, false, false, false, false},
    {"bert",        true,  NormKind::LayerNorm, 2, false, true,  true,  true,  true,  false, false},
    {"baichuan",    false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
    {"gpt_bigcode", true,  NormKind::LayerNorm, 2, false, true,  true,  true,  true,  true,  false},
    {"gpt_oss",     false, NormKind::RmsNorm,   2, true,  true,  true,  false, false, true,  false},
    {"deepseek",    false, NormKind::RmsNorm,   2, true,  false, false, false, false, true,  false},
};

const FamilyTraits *findFamily(const std::string &type)
{
    std::string t = type;
    if (t == "RefinedWeb" || t == "RefinedWebModel")
        t = "falcon";
    for (const FamilyTraits &f : kFamilies)
        if (t == f.modelType)
            return &f;
    return nullptr;
}

constexpr std::uint64_t kMaxDim = 1ull << 24;    // widths: 16M
constexpr std::uint64_t kMaxLayers = 100000;
constexpr std::uint64_t kMaxVocab = 1ull << 26;

/// The first of `keys` present; errors name the first spelling.
std::optional<std::uint64_t> firstUint(JsonReader &r, std::initializer_list<const char *> keys, std::uint64_t min,
                                       std::uint64_t max, bool required)
{
    for (const char *key : keys)
        if (r.has(key))
            return r.uint(key, min, max, false);
    if (required)
        r.error(*keys.begin(), "missing; expected an integer (also looked for "
                                   + std::to_string(keys.size() - 1) + " other spellings)");
    return std::nullopt;
}

std::string activationName(JsonReader &r)
{
    for (const char *key : {"hidden_act", "hidden_activation", "activation_function"})
        if (auto v = r.string(key, false))
            return *v;
    return "";
}

void readMoe(JsonReader &r, ModelSpec &m)
{
    const auto experts = firstUint(r, {"num_local_experts", "num_experts", "n_routed_experts"}, 0, 1u << 16, false);
    if (!experts || *experts == 0)
        return;
    m.moe.experts = static_cast<int>(*experts);
    m.moe.expertsPerToken = static_cast<int>(
        firstUint(r, {"num_experts_per_tok", "experts_per_token", "num_experts_per_token"}, 1, *experts, true).value_or(1));
    m.moe.expertIntermediate = firstUint(r, {"moe_intermediate_size"}, 1, kMaxDim, false).value_or(m.intermediate);
    m.moe.sharedExperts = static_cast<int>(firstUint(r, {"n_shared_experts"}, 0, 1024, false).value_or(0));
    m.moe.firstDenseLayers = static_cast<int>(firstUint(r, {"first_k_dense_replace"}, 0, kMaxLayers, false).value_or(0));
}

void readSlidingWindow(JsonReader &r, const std::string &type, ModelSpec &m)
{
    if (r.has("use_sliding_window") && !r.boolean("use_sliding_window", false).value_or(false))
        return; // Qwen2/Qwen3 ship a window they do not use
    const auto window = firstUint(r, {"sliding_window"}, 1, 1ull << 32, false);
    if (!window)
        return;
    m.slidingWindow = *window;
    if (r.has("layer_types") && r.json().at("layer_types").is_array()) {
        const auto &types = r.json().at("layer_types");
        m.slidingLayers = static_cast<std::uint64_t>(
            std::count(types.begin(), types.end(), Json("sliding_attention")));
    } else if (type == "gemma2") {
        m.slidingLayers = (m.layers + 1) / 2; // even layers slide (modeling_gemma2.py)
    } else {
        m.slidingLayers = m.layers;
    }
}

} // namespace

const std::vector<std::string> &knownModelTypes()
{
    static const std::vector<std::string> types = [] {
        std::vector<std::string> all;
        for (const FamilyTraits &f : kFamilies)
            all.emplace_back(f.modelType);
        return all;
    }();
    return types;
}

LoadResult<ModelSpec> parseHfConfig(const std::string &text, const std::string &name)
{
    LoadResult<ModelSpec> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected a config.json object");
        return result;
    }
    JsonReader r(*json, "", result.errors);
    const std::string type = r.string("model_type", false).value_or("");
    const FamilyTraits *family = findFamily(type);
    FamilyTraits generic = {"", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false};
    if (!family) {
        result.warnings.push_back(type.empty() ? "/model_type: missing; reading the standard Llama-style keys"
                                               : "/model_type: '" + type
                                                     + "' has no family rules here; reading the standard Llama-style keys");
        family = &generic;
    }

    ModelSpec m;
    m.name = name;
    m.family = type.empty() ? "unknown" : type;
    m.hidden = firstUint(r, {"hidden_size", "n_embd", "d_model"}, 1, kMaxDim, true).value_or(0);
    m.layers = firstUint(r, {"num_hidden_layers", "n_layer", "num_layers"}, 1, kMaxLayers, true).value_or(0);
    m.heads = firstUint(r, {"num_attention_heads", "n_head"}, 1, kMaxDim, true).value_or(0);
    m.vocab = firstUint(r, {"vocab_size", "padded_vocab_size"}, 1, kMaxVocab, true).value_or(0);
    const std::string ftype = family->modelType;
    const bool defaultWideMlp = ftype == "gpt2" || ftype == "gpt_bigcode" || ftype == "falcon";
    m.intermediate = firstUint(r, {"intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim"}, 1, kMaxDim,
                               !defaultWideMlp)
                         .value_or(4 * m.hidden); // GPT-2/Falcon default: 4h
    if (m.heads == 0 || m.hidden == 0)
        return result;

    // Key-value heads: GQA key, Falcon's num_kv_heads, or multi_query (MQA).
    m.kvHeads = firstUint(r, {"num_key_value_heads", "num_kv_heads", "n_head_kv"}, 1, m.heads, false).value_or(m.heads);
    const bool falconNew = r.boolean("new_decoder_architecture", false).value_or(false);
    if (r.boolean("multi_query", false).value_or(false) && !falconNew)
        m.kvHeads = 1;
    m.headDim = firstUint(r, {"head_dim"}, 1, kMaxDim, false).value_or(m.hidden / m.heads);

    m.tiedEmbeddings = r.boolean("tie_word_embeddings", false).value_or(family->tieDefault);
    m.norm = family->norm;
    m.normsPerLayer = family->normsPerLayer;
    m.gatedMlp = family->gatedMlp;
    const bool attentionBias = r.boolean("attention_bias", false).value_or(false);
    m.qkvBias = family->qkvBias || attentionBias;
    m.attnOutBias = family->outBias || attentionBias;
    m.mlpBias = family->mlpBias || r.boolean("mlp_bias", false).value_or(false);
    m.qkNorm = family->qkNorm;
    m.softmaxInFp32 = family->softmaxInFp32;
    m.maxPositions =
        firstUint(r, {"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}, 1, 1ull << 32, false)
            .value_or(0);
    if (family->learnedPositions) {
        m.learnedPositions = m.maxPositions;
        if (m.learnedPositions == 0 || m.learnedPositions > (1ull << 24))
            r.error("max_position_embeddings", "missing or too large; this family learns one embedding per position");
    }

    if (ftype == "falcon") {
        // modeling_falcon.py: one LayerNorm for parallel attention unless the
        // new decoder architecture (ln_attn + ln_mlp); `bias` switches every
        // linear bias.
        const bool parallel = r.boolean("parallel_attn", false).value_or(true);
        m.normsPerLayer = falconNew ? 2 : (parallel ? 1 : 2);
        m.parallelBlock = parallel;
        const bool bias = r.boolean("bias", false).value_or(false);
        m.qkvBias = m.attnOutBias = m.mlpBias = bias;
    } else if (ftype == "phi") {
        m.parallelBlock = true;
        m.lmHeadBias = true;
    } else if (ftype == "gpt_neox") {
        m.parallelBlock = r.boolean("use_parallel_residual", false).value_or(true);
        m.qkvBias = m.attnOutBias = r.boolean("attention_bias", false).value_or(true);
    } else if (ftype == "bert") {
        m.tokenTypes = firstUint(r, {"type_vocab_size"}, 0, 1u << 20, false).value_or(2);
        m.embeddingNorm = true;
        m.finalNorm = false;
        m.pooler = true;
        m.encoderOnly = true;
        m.tiedEmbeddings = true;
    } else if (ftype == "gpt_bigcode") {
        m.softmaxInFp32 = r.boolean("attention_softmax_in_fp32", false).value_or(true);
    } else if (ftype == "gpt_oss") {
        m.attentionSinks = true;
        m.moe.routerBias = true;
        m.moe.expertBias = true;
    }

    readMoe(r, m);
    readSlidingWindow(r, ftype, m);

    m.attentionDropout = r.number("attention_dropout", 0, 1, false)
                             .value_or(r.number("attn_pdrop", 0, 1, false)
                                           .value_or(r.number("attention_probs_dropout_prob", 0, 1, false).value_or(0)));
    m.hiddenDropout = r.number("hidden_dropout", 0, 1, false)
                          .value_or(r.number("resid_pdrop", 0, 1, false)
                                        .value_or(r.number("hidden_dropout_prob", 0, 1, false).value_or(0)));
    // Python tanh-GELU saves four I-wide tensors; fused kernels save one.
    const std::string act = activationName(r);
    m.activationSavedTensors = (act == "gelu_new" || act == "gelu_fast") ? 4 : 1;
    m.torchDtype = r.string("torch_dtype", false).value_or(r.string("dtype", false).value_or(""));
    if (auto quant = r.object("quantization_config", false))
        m.expertsMxfp4 = quant->string("quant_method", false).value_or("") == "mxfp4";

    if (m.qWidth() == 0 || m.kvHeads == 0 || m.heads % m.kvHeads != 0)
        r.error("num_key_value_heads", "must divide num_attention_heads");
    if (result.errors.empty())
        result.value = std::move(m);
    return result;
}

} // namespace core::io
