#include "core/io/configkeys.h"

#include "core/base/units.h"

#include <algorithm>

namespace core::io {

namespace {

/// Keys that change no memory this planner models: identifiers, token ids,
/// numerics of norms and RoPE, router loss weights and routing rules,
/// output switches. Anything else left unread is reported.
const char *const kNoMemoryEffect[] = {
    "_name_or_path", "architectures", "auto_map", "model_type", "transformers_version", "torch_dtype", "dtype",
    "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "decoder_start_token_id", "initializer_range",
    "initializer_factor", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "layernorm_epsilon", "norm_epsilon", "rope_theta",
    "rope_scaling", "rope_parameters", "rope_interleave", "rotary_emb_base",
    "use_cache", "pretraining_tp", "attn_logit_softcapping", "final_logit_softcapping", "query_pre_attn_scalar",
    "router_aux_loss_coef", "output_router_logits", "router_z_loss_coef", "router_jitter_noise", "norm_topk_prob",
    "routed_scaling_factor", "n_group", "topk_group", "scoring_func", "aux_loss_alpha", "seq_aux", "ep_size",
    "use_return_dict", "output_attentions", "output_hidden_states", "return_dict", "torchscript", "id2label",
    "label2id", "task_specific_params", "problem_type", "max_window_layers", "classifier_dropout", "use_bfloat16",
    "attention_multiplier", "embedding_multiplier", "logits_scaling", "residual_multiplier", "quantization_config",
    "image_token_index", "image_token_id", "boi_token_index", "eoi_token_index", "video_token_id",
    "vision_start_token_id", "vision_end_token_id", "vision_token_id", "tokenizer_class", "cache_implementation",
    "hidden_act", "hidden_activation", "activation_function", "attention_dropout", "hidden_dropout", "resid_pdrop",
    "embd_pdrop", "attn_pdrop", "attention_probs_dropout_prob", "hidden_dropout_prob", "use_qk_norm",
    "attn_temperature_tuning", "floor_scale", "attn_scale", "router_dtype", "original_max_position_embeddings",
    "sliding_window_pattern", "topk_method", "moe_router_enable_expert_bias",
    // Nemotron-H keys that modeling_nemotron_h.py reads for numerics or not at
    // all: NemotronHMamba2Mixer takes d_inner as mamba_num_heads x
    // mamba_head_dim (not expand x hidden_size) and its in_proj/out_proj bias
    // from use_bias (not mamba_proj_bias); NemotronHBlock keeps the residual
    // in the norm's dtype whatever residual_in_fp32 says.
    "expand", "mamba_proj_bias", "residual_in_fp32", "mamba_hidden_act", "mlp_hidden_act", "time_step_min",
    "time_step_max", "time_step_floor", "time_step_limit", "time_step_rank", "use_mamba_kernels", "num_logits_to_keep",
    "rescale_prenorm_residual", "norm_eps",
    // Nemotron 3: the Mamba-2 scan's chunk length and whether the shared
    // expert overlaps the routed ones in time (no weights, no cache).
    "chunk_size", "moe_shared_expert_overlap",
    // gpt-oss: keys of OpenAI's reference ModelConfig (openai/gpt-oss
    // gpt_oss/torch/model.py) that the Hub file keeps: the clamp of the SwiGLU
    // inputs, the context before YaRN (rope_scaling repeats it), and a second
    // spelling of num_experts_per_tok, which is read first (hfconfig readMoe).
    "swiglu_limit", "initial_context_length", "experts_per_token",
    // Gemma 4: a copy of the layer pattern that layer_types spells out, an
    // output-precision switch, and the attention mask's direction for
    // image tokens. MiMo-V2-Flash: the value scaling before attention and
    // the sliding layers' RoPE base (no weights).
    "_sliding_window_pattern", "stream_and_decode_in_f32", "use_bidirectional_attention",
    "attention_use_bidirectional", "attention_value_scale", "swa_rope_theta",
    // DeepSeek Sparse Attention: how many tokens the indexer selects and its
    // RoPE layout (compute, not memory: the indexer's cache holds every token).
    "index_topk", "indexer_rope_interleave", "index_share_for_mtp_iteration", "index_skip_topk_offset",
    "index_topk_freq",
    // The router's compute dtype (its few weights are priced with the rest).
    "moe_router_dtype",
    // Qwen3.5/3.6: the gated attention's activation (no weights).
    "output_gate_type",
    // Qwen2-derived configs (MiMo-7B): multimodal RoPE off or on (no weights).
    "use_mrope",
    // EXAONE 4.5: the MTP loss weight in training (no memory).
    "mtp_loss_scaling_factor",
    // Hunyuan (configuration_hunyuan.py): its special-token ids, the
    // training-time token dropping of its router, the group-limited routing
    // switch, RoPE's on/off and xDRoPE variant (no weights), and the media
    // placeholders' count and the original vocabulary (read against
    // vocab_size in readHunyuan).
    "eod_token_id", "im_start_id", "im_end_id", "im_newline_id", "mask_init_id", "pad_id", "text_start_id",
    "text_end_id", "video_start_id", "video_end_id", "moe_drop_tokens", "moe_random_routing_dropped_token",
    "group_limited_greedy", "use_rotary_pos_emb", "position_embedding_xdrope", "num_media_embeds",
    // DeepSeek-V4: the hyper-connections' Sinkhorn iterations and epsilon,
    // the compressed layers' RoPE base and, in transformers' config, their
    // RoPE parameters (no weights).
    "hc_sinkhorn_iters", "hc_eps", "compress_rope_theta", "compress_rope_parameters",
    // MiniMax-M1: post-norm and the DeepNorm-style residual scales (no weights).
    "postnorm", "layernorm_full_attention_alpha", "layernorm_full_attention_beta",
    "layernorm_linear_attention_alpha", "layernorm_linear_attention_beta", "layernorm_mlp_alpha",
    "layernorm_mlp_beta",
    // LFM2: initialisation switches, the norm epsilon, the head count's
    // second spelling, whether RoPE is used.
    "block_mlp_init_scale", "block_out_init_scale", "block_use_xavier_init", "conv_use_xavier_init",
    "block_norm_eps", "num_heads", "use_pos_enc",
    // PretrainedConfig's generation and pipeline attributes, which
    // transformers 4.x wrote into every config (Kimi K3's among them).
    "add_cross_attention", "chunk_size_feed_forward", "diversity_penalty", "do_sample", "early_stopping",
    "encoder_no_repeat_ngram_size", "is_decoder", "is_encoder_decoder", "length_penalty", "max_length",
    "min_length", "no_repeat_ngram_size", "num_beam_groups", "num_beams", "num_return_sequences", "output_scores",
    "pruned_heads", "remove_invalid_values", "repetition_penalty", "return_dict_in_generate", "temperature",
    "tf_legacy_loss", "tie_encoder_decoder", "top_k", "top_p", "typical_p", "bad_words_ids",
    "begin_suppress_tokens", "cross_attention_hidden_size", "exponential_decay_length_penalty", "finetuning_task",
    "forced_bos_token_id", "forced_eos_token_id", "prefix", "suppress_tokens",
    // MiniMax-M3: the SwiGLU-OAI gate's sigmoid gain (no weights).
    "swiglu_alpha",
    // Kimi K3: SiTU's two activation constants, routing switches.
    "activation_situ_beta", "activation_situ_linear_beta", "moe_renormalize", "moe_router_activation_func",
    "num_expert_group", "use_grouped_topk",
    // Cohere2: the logits' scale (no weights) and the switches of Cohere's
    // own training config, which transformers' Cohere2Config drops (its
    // decoder is always gated and parallel; tie_word_embeddings decides the
    // head; modular_cohere2.py @ 008e5743).
    "logit_scale", "layer_switch", "order_of_interleaved_layers", "use_embedding_sharing", "use_gated_activation",
    "use_parallel_block", "use_parallel_embedding",
    // Apertus: switches of swiss-ai's configuration_apertus.py that
    // transformers' ApertusConfig drops (its attention always has q/k norms,
    // its layers always pre-norms).
    "qk_norm", "post_norm",
};

} // namespace

ConfigKeys::ConfigKeys(JsonReader &reader, const char *configClass) : m_reader(reader), m_class(configClass)
{
    m_reader.trackKeys(m_seen);
}

std::optional<std::uint64_t> ConfigKeys::firstUint(std::initializer_list<const char *> keys, std::uint64_t min,
                                                   std::uint64_t max, bool required)
{
    for (const char *key : keys)
        if (m_reader.has(key))
            return m_reader.uint(key, min, max, false);
    if (required)
        m_reader.error(*keys.begin(), "missing; expected an integer (also looked for "
                                          + std::to_string(keys.size() - 1) + " other spellings)");
    return std::nullopt;
}

std::optional<std::uint64_t> ConfigKeys::firstLayerUint(std::initializer_list<const char *> keys, std::uint64_t layers,
                                                        std::uint64_t min, std::uint64_t max, bool required)
{
    for (const char *key : keys) {
        if (!m_reader.has(key))
            continue;
        if (!m_reader.json().at(key).is_array())
            return m_reader.uint(key, min, max, false);
        const std::vector<std::uint64_t> values = uints(key, layers);
        if (values.empty() || values.size() != layers) {
            m_reader.error(key, "has " + std::to_string(values.size()) + " entries for " + std::to_string(layers)
                                    + " layers");
            return std::nullopt;
        }
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (values[i] < min || values[i] > max) {
                m_reader.error(key, "entry " + std::to_string(i) + " is " + std::to_string(values[i])
                                        + "; expected " + std::to_string(min) + " to " + std::to_string(max));
                return std::nullopt;
            }
            if (values[i] != values.front()) {
                m_reader.error(key, "differs between layers (" + std::to_string(values.front()) + " in layer 0, "
                                        + std::to_string(values[i]) + " in layer " + std::to_string(i)
                                        + "), which is not modelled");
                return std::nullopt;
            }
        }
        return values.front();
    }
    return firstUint(keys, min, max, required);
}

std::uint64_t ConfigKeys::uint(const char *key, std::uint64_t min, std::uint64_t max, std::uint64_t classDefault)
{
    if (m_reader.has(key))
        return m_reader.uint(key, min, max, false).value_or(classDefault);
    recordDefault(key, std::to_string(classDefault), nullptr);
    return classDefault;
}

std::uint64_t ConfigKeys::firstUintOr(std::initializer_list<const char *> keys, std::uint64_t min, std::uint64_t max,
                                      std::uint64_t fallback, const char *rule)
{
    if (auto v = firstUint(keys, min, max))
        return *v;
    recordDefault(*keys.begin(), std::to_string(fallback), rule);
    return fallback;
}

std::string ConfigKeys::string(const char *key, const char *classDefault)
{
    if (m_reader.has(key))
        return m_reader.string(key, false).value_or(classDefault);
    recordDefault(key, classDefault, nullptr);
    return classDefault;
}

std::vector<std::uint64_t> ConfigKeys::uints(const char *key, std::size_t maxCount)
{
    std::vector<std::uint64_t> values;
    if (!m_reader.has(key))
        return values;
    const Json &v = m_reader.json().at(key);
    if (!v.is_array() || v.size() > maxCount) {
        m_reader.error(key, "expected an array of at most " + std::to_string(maxCount) + " integers");
        return values;
    }
    for (const Json &item : v) {
        if (!item.is_number_integer() || item.get<std::int64_t>() < 0) {
            m_reader.error(key, "expected non-negative integers");
            return {};
        }
        values.push_back(item.get<std::uint64_t>());
    }
    return values;
}

std::vector<std::string> ConfigKeys::ignored() const
{
    std::vector<std::string> keys;
    if (!m_reader.json().is_object())
        return keys;
    for (auto it = m_reader.json().begin(); it != m_reader.json().end(); ++it) {
        const std::string &key = it.key();
        const bool harmless = std::any_of(std::begin(kNoMemoryEffect), std::end(kNoMemoryEffect),
                                          [&](const char *k) { return key == k; });
        if (!harmless && !m_seen.count(key) && !it.value().is_null())
            keys.push_back(key);
    }
    return keys;
}

void ConfigKeys::recordDefault(const char *key, const std::string &value, const char *rule)
{
    std::string why = rule ? std::string(rule)
                           : (m_class ? std::string(m_class) + " default" : std::string("guessed: no family rules"));
    m_defaulted.push_back(std::string(key) + " = " + value + " (" + why + ")");
}

void ConfigKeys::decidedElsewhere(const char *key)
{
    const std::string prefix = std::string(key) + " = ";
    m_defaulted.erase(std::remove_if(m_defaulted.begin(), m_defaulted.end(),
                                     [&](const std::string &d) { return d.rfind(prefix, 0) == 0; }),
                      m_defaulted.end());
}

void ConfigKeys::assume(const char *key, const std::string &what, const char *why)
{
    m_defaulted.push_back(std::string(key) + ": " + what + " (" + why + ")");
}

} // namespace core::io
