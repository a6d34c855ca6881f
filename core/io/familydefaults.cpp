#include "core/io/familydefaults.h"

namespace core::io {

namespace {

/// One class default: `key` takes `value` when the config omits it.
struct ClassDefault
{
    const char *key;
    Json value;
};

/// A config class and the defaults of the keys its published configs omit.
struct FamilyDefaults
{
    const char *textType; ///< the text model's model_type
    const char *parentType; ///< the multimodal config that nests it, or null
    const char *configClass;
    std::vector<ClassDefault> defaults;
};

const std::vector<FamilyDefaults> &families()
{
    static const std::vector<FamilyDefaults> table = {
        // Gemma3TextConfig.__init__ (transformers
        // src/transformers/models/gemma3/configuration_gemma3.py). Widths and
        // depth are left out on purpose: every release states them, and a
        // config without them should fail loudly, not become a 2304-wide model.
        {"gemma3_text", "gemma3", "Gemma3TextConfig",
         {{"vocab_size", 262208},
          {"num_attention_heads", 8},
          {"num_key_value_heads", 4},
          {"head_dim", 256},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", true},
          {"hidden_activation", "gelu_pytorch_tanh"},
          {"query_pre_attn_scalar", 256},
          {"sliding_window", 4096},
          {"sliding_window_pattern", 6},
          {"rope_theta", 1000000.0},
          {"rope_local_base_freq", 10000.0},
          {"attention_bias", false}}},
        // Llama4TextConfig (src/transformers/models/llama4/configuration_llama4.py).
        {"llama4_text", "llama4", "Llama4TextConfig",
         {{"vocab_size", 202048},
          {"num_attention_heads", 40},
          {"num_key_value_heads", 8},
          {"head_dim", 128},
          {"intermediate_size", 8192},
          {"intermediate_size_mlp", 16384},
          {"num_local_experts", 16},
          {"num_experts_per_tok", 1},
          {"interleave_moe_layer_step", 1},
          {"use_qk_norm", true},
          {"no_rope_layer_interval", 4},
          {"attention_chunk_size", 8192},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", false},
          {"attention_bias", false}}},
        // MistralConfig.__init__ (src/transformers/models/mistral/configuration_mistral.py);
        // head_dim defaults to hidden_size / num_attention_heads there, as
        // hfconfig already assumes.
        {"mistral", "mistral3", "MistralConfig",
         {{"vocab_size", 32000},
          {"num_key_value_heads", 8},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", false},
          {"sliding_window", 4096}}},
        // Qwen2_5_VLTextConfig.__init__
        // (src/transformers/models/qwen2_5_vl/configuration_qwen2_5_vl.py).
        {"qwen2_5_vl_text", "qwen2_5_vl", "Qwen2_5_VLTextConfig",
         {{"vocab_size", 152064},
          {"num_key_value_heads", 8},
          {"max_position_embeddings", 32768},
          {"tie_word_embeddings", false},
          {"use_sliding_window", false},
          {"sliding_window", 4096},
          {"max_window_layers", 80},
          {"rope_theta", 1000000.0}}},
        // JambaConfig (configuration_jamba.py @ 008f5c8c): 16 experts, 2 a
        // token, in every other layer (readJamba places them).
        {"jamba", nullptr, "JambaConfig", {{"num_experts", 16}, {"num_experts_per_tok", 2}}},
        // SeedOssConfig (configuration_seed_oss.py @ 008e5743): a head of
        // 128 whatever hidden_size / num_attention_heads is (5120 / 80 = 64
        // in the 36B), and dropout on attention and the residual branches.
        {"seed_oss", nullptr, "SeedOssConfig",
         {{"head_dim", 128}, {"attention_dropout", 0.1}, {"residual_dropout", 0.1}}},
        // Step3TextConfig (vLLM transformers_utils/configs/step3_vl.py):
        // a head of 256 whatever hidden_size / num_attention_heads is.
        {"step3_text", "step3_vl", "Step3TextConfig", {{"head_dim", 256}}},
        // AfmoeConfig (configuration_afmoe.py @ 053f59ef): depth and the
        // hidden and dense widths are left out, as for Gemma 3; layer_types
        // follows global_attn_every_n_layers where absent.
        {"afmoe", nullptr, "AfmoeConfig",
         {{"head_dim", 128},
          {"moe_intermediate_size", 1408},
          {"num_experts", 64},
          {"num_experts_per_tok", 6},
          {"num_shared_experts", 2},
          {"num_dense_layers", 1},
          {"sliding_window", 1024},
          {"global_attn_every_n_layers", 4},
          {"tie_word_embeddings", false}}},
        // Zamba2Config (configuration_zamba2.py @ 02f58079): depth and
        // hidden width are left out, as for Gemma 3.
        {"zamba2", nullptr, "Zamba2Config",
         {{"vocab_size", 32000},
          {"num_attention_heads", 32},
          {"max_position_embeddings", 4096}}},
        // NemotronHConfig: num_hidden_layers is a property, the length of
        // layers_block_type (Nemotron 3 Ultra's config has no such key);
        // deriveNemotronHLayers.
        {"nemotron_h", nullptr, "NemotronHConfig", {}},
    };
    return table;
}

const FamilyDefaults *findFamily(const std::string &modelType)
{
    for (const FamilyDefaults &f : families())
        if (modelType == f.textType || (f.parentType && modelType == f.parentType))
            return &f;
    return nullptr;
}

/// An explicit null is a statement (Mistral's `"sliding_window": null` means
/// no window), so only an absent key takes the default, as in Python.
bool omits(const Json &config, const char *key)
{
    return !config.contains(key);
}

/// A whole number in [1, max], or 0.
std::uint64_t positive(const Json &value, std::uint64_t max)
{
    if (!value.is_number_integer() || value.get<std::int64_t>() < 1 || value.get<std::uint64_t>() > max)
        return 0;
    return value.get<std::uint64_t>();
}

/// Configs that derive layer_types from a period: layer i slides unless
/// (i + 1) is a multiple of the value of `periodKey` (Gemma3TextConfig's
/// sliding_window_pattern, 5 local : 1 global for 6, modeling_gemma3.py
/// Gemma3DecoderLayer.is_sliding; AfmoeConfig's global_attn_every_n_layers).
void deriveLayerTypesFromPeriod(Json &config, const char *periodKey, const char *configClass,
                                std::vector<std::string> &assumed)
{
    if (!omits(config, "layer_types") || omits(config, "num_hidden_layers") || omits(config, periodKey))
        return;
    const std::uint64_t layers = positive(config.at("num_hidden_layers"), 100000);
    const std::uint64_t pattern = positive(config.at(periodKey), 100000);
    if (layers == 0 || pattern == 0)
        return;
    Json types = Json::array();
    std::uint64_t full = 0;
    for (std::uint64_t i = 0; i < layers; ++i) {
        const bool sliding = (i + 1) % pattern != 0;
        full += sliding ? 0 : 1;
        types.push_back(sliding ? "sliding_attention" : "full_attention");
    }
    config["layer_types"] = std::move(types);
    assumed.push_back("layer_types = " + std::to_string(layers - full) + " sliding, " + std::to_string(full)
                      + " full (every " + std::to_string(pattern) + "th layer full; " + configClass + " "
                      + periodKey + ")");
}

/// NemotronHConfig.num_hidden_layers returns len(layers_block_type); an
/// older config states it beside hybrid_override_pattern.
void deriveNemotronHLayers(Json &config, std::vector<std::string> &assumed)
{
    if (!omits(config, "num_hidden_layers"))
        return;
    for (const char *key : {"layers_block_type", "hybrid_override_pattern"}) {
        if (omits(config, key))
            continue;
        const Json &blocks = config.at(key);
        const std::size_t count = blocks.is_array() ? blocks.size()
            : blocks.is_string()                     ? blocks.get_ref<const std::string &>().size()
                                                     : 0;
        if (count == 0)
            return;
        config["num_hidden_layers"] = count;
        assumed.push_back("num_hidden_layers = " + std::to_string(count) + " (NemotronHConfig: the length of "
                          + key + ")");
        return;
    }
}

} // namespace

Json withFamilyDefaults(const Json &textConfig, const std::string &modelType, std::vector<std::string> &assumed)
{
    Json config = textConfig;
    const FamilyDefaults *family = findFamily(modelType);
    if (!family || !config.is_object())
        return config;
    for (const ClassDefault &d : family->defaults) {
        if (!omits(config, d.key))
            continue;
        config[d.key] = d.value;
        assumed.push_back(std::string(d.key) + " = " + d.value.dump() + " (" + family->configClass + " default)");
    }
    if (std::string(family->textType) == "gemma3_text")
        deriveLayerTypesFromPeriod(config, "sliding_window_pattern", family->configClass, assumed);
    else if (std::string(family->textType) == "afmoe")
        deriveLayerTypesFromPeriod(config, "global_attn_every_n_layers", family->configClass, assumed);
    else if (std::string(family->textType) == "nemotron_h")
        deriveNemotronHLayers(config, assumed);
    return config;
}

} // namespace core::io
