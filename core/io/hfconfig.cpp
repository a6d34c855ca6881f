#include "core/io/hfconfig.h"

#include "core/base/units.h"
#include "core/io/audioconfig.h"
#include "core/io/configkeys.h"
#include "core/io/familydefaults.h"
#include "core/io/jsonreader.h"
#include "core/io/quantconfig.h"
#include "core/io/visionconfig.h"
#include "core/model/layerkinds.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <map>

namespace core::io {

namespace {

constexpr std::uint64_t kMaxDim = ModelLimits::maxWidth;
constexpr std::uint64_t kMaxLayers = ModelLimits::maxLayers;
constexpr std::uint64_t kMaxVocab = ModelLimits::maxVocab;

void readMla(ConfigKeys &k, ModelSpec &m);
void readHybrid(ConfigKeys &k, ModelSpec &m);
void readQwen35(ConfigKeys &k, ModelSpec &m);
void readNemotronH(ConfigKeys &k, ModelSpec &m);
void readChunked(ConfigKeys &k, ModelSpec &m);
void readMiniMaxM2(ConfigKeys &k, ModelSpec &m);
void readMiniMaxM3(ConfigKeys &k, ModelSpec &m);
void readNas(ConfigKeys &k, ModelSpec &m);
void readGemma4(ConfigKeys &k, ModelSpec &m);
void readMiMoV2(ConfigKeys &k, ModelSpec &m);
void readDeepSeekV4(ConfigKeys &k, ModelSpec &m);
void readMiniMaxM1(ConfigKeys &k, ModelSpec &m);
void readLfm2(ConfigKeys &k, ModelSpec &m);
void readKimiLinear(ConfigKeys &k, ModelSpec &m);
void readSmolLm3(ConfigKeys &k, ModelSpec &m);
void readHunyuan(ConfigKeys &k, ModelSpec &m);
void readErnie(ConfigKeys &k, ModelSpec &m);
void readErnieMoe(ConfigKeys &k, ModelSpec &m);
void readBailing(ConfigKeys &k, ModelSpec &m);
void readLaguna(ConfigKeys &k, ModelSpec &m);
void readRotaryDims(ConfigKeys &k, ModelSpec &m);
void readGraniteHybrid(ConfigKeys &k, ModelSpec &m);
void readJamba(ConfigKeys &k, ModelSpec &m);
void readFalconH1(ConfigKeys &k, ModelSpec &m);
void readBamba(ConfigKeys &k, ModelSpec &m);
void readStep3Text(ConfigKeys &k, ModelSpec &m);
void readAfmoe(ConfigKeys &k, ModelSpec &m);
void readStep3p5(ConfigKeys &k, ModelSpec &m);
void readZamba2(ConfigKeys &k, ModelSpec &m);

/// What a family's modeling code does that its config.json does not say.
/// Defaults come from each family's `configuration_*.py` and `modeling_*.py`
/// in Hugging Face transformers; `extra` reads what only that family has.
struct FamilyTraits
{
    const char *modelType;
    const char *configClass; ///< named where a class default is used
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
    void (*extra)(ConfigKeys &, ModelSpec &);
};

const FamilyTraits kFamilies[] = {
    // type, class, tie, norm, norms/layer, gated, qkvB, oB, mlpB, pos, fp32 softmax, qk norm, extra
    {"llama", "LlamaConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"mistral", "MistralConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"mixtral", "MixtralConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"qwen2", "Qwen2Config", false, NormKind::RmsNorm, 2, true, true, false, false, false, true, false, nullptr},
    // MiMo-7B (vLLM mimo.py MiMoForCausalLM, a Qwen2Model; the repository's
    // modeling_mimo.py): Qwen2's decoder and num_nextn_predict_layers MTP
    // layers (mimo_mtp.py: token and hidden norms, input_proj 2h -> h, one
    // Qwen2 decoder layer, a final norm), counted on request.
    {"mimo", "MiMoConfig", false, NormKind::RmsNorm, 2, true, true, false, false, false, true, false, nullptr},
    {"qwen3", "Qwen3Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, nullptr},
    {"qwen3_moe", "Qwen3MoeConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, nullptr},
    // modeling_qwen3_next.py: gated attention with q/k norms, Gated DeltaNet
    // layers, a gated shared expert.
    {"qwen3_next", "Qwen3NextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true,
     readHybrid},
    // modeling_qwen3_5.py: Qwen3-Next's gated attention and Gated DeltaNet
    // (in_proj_qkv + in_proj_z and in_proj_b + in_proj_a hold what
    // in_proj_qkvz and in_proj_ba hold) with a dense MLP in every layer.
    {"qwen3_5_text", "Qwen3_5TextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true,
     readQwen35},
    // modular_qwen3_5_moe.py: Qwen3.5's hybrid layers with Qwen3-Next's
    // experts and gated shared expert in every layer (no dense MLP).
    {"qwen3_5_moe_text", "Qwen3_5MoeTextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true,
     true, readQwen35},
    // modeling_smollm3.py: Llama's decoder; RoPE is left out in every
    // no_rope_layer_interval-th layer, which still caches K and V (NoPE
    // changes no memory). SmolLM3Config defaults tie_word_embeddings True.
    // Hunyuan-A13B (its repository's configuration_hunyuan.py HunYuanConfig,
    // auto_map; vLLM hunyuan_v1.py HunYuanMoEV1ForCausalLM): Llama's
    // decoder with per-head q/k norms (use_qk_norm), experts and a shared
    // MLP in every layer (readHunyuan).
    {"hunyuan", "HunYuanConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readHunyuan},
    {"smollm3", "SmolLM3Config", true, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readSmolLm3},
    // Laguna (readLaguna): Qwen3-MoE's layers with per-head q/k norms, an
    // output gate and query heads per layer kind.
    {"laguna", "LagunaConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, readLaguna},
    {"gemma", "GemmaConfig", true, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"gemma2", "Gemma2Config", true, NormKind::RmsNorm, 4, true, false, false, false, false, true, false, nullptr},
    // modeling_gemma3.py Gemma3DecoderLayer: four norms, q_norm and k_norm.
    {"gemma3_text", "Gemma3TextConfig", true, NormKind::RmsNorm, 4, true, false, false, false, false, true, true,
     nullptr},
    // modeling_gemma4.py Gemma4TextDecoderLayer: four norms, q_norm and
    // k_norm per head (v_norm has no weight); the rest in readGemma4.
    {"gemma4_text", "Gemma4TextConfig", true, NormKind::RmsNorm, 4, true, false, false, false, false, true, true,
     readGemma4},
    // modeling_gemma4_unified.py (Gemma 4 12B): Gemma 4's decoder layer
    // without per-layer inputs or experts.
    {"gemma4_unified_text", "Gemma4UnifiedTextConfig", true, NormKind::RmsNorm, 4, true, false, false, false, false,
     true, true, readGemma4},
    // modeling_llama4.py: the q/k norm is a weightless L2 norm; local layers
    // attend within chunks.
    {"llama4_text", "Llama4TextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readChunked},
    {"phi", "PhiConfig", false, NormKind::LayerNorm, 1, false, true, true, true, false, true, false, nullptr},
    {"phi3", "Phi3Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"gpt2", "GPT2Config", true, NormKind::LayerNorm, 2, false, true, true, true, true, false, false, nullptr},
    {"gpt_neox", "GPTNeoXConfig", false, NormKind::LayerNorm, 2, false, true, true, true, false, true, false, nullptr},
    {"falcon", "FalconConfig", true, NormKind::LayerNorm, 2, false, false, false, false, false, false, false, nullptr},
    {"bert", "BertConfig", true, NormKind::LayerNorm, 2, false, true, true, true, true, false, false, nullptr},
    {"baichuan", "BaichuanConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"gpt_bigcode", "GPTBigCodeConfig", true, NormKind::LayerNorm, 2, false, true, true, true, true, true, false,
     nullptr},
    {"gpt_oss", "GptOssConfig", false, NormKind::RmsNorm, 2, true, true, true, false, false, true, false, nullptr},
    {"deepseek", "DeepseekConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, nullptr},
    {"deepseek_v2", "DeepseekV2Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMla},
    {"deepseek_v3", "DeepseekV3Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMla},
    // DeepSeek Sparse Attention (configuration_deepseek_v32.py,
    // configuration_glm_moe_dsa.py): DeepSeek-V3's MLA and experts with a
    // lightning indexer in every layer (readMla).
    {"deepseek_v32", "DeepseekV32Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMla},
    {"glm_moe_dsa", "GlmMoeDsaConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMla},
    // DeepSeek-V4 (readDeepSeekV4): compressed attention, hyper-connections,
    // every layer MoE.
    {"deepseek_v4", "DeepseekV4Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readDeepSeekV4},
    // Kimi K2 ships DeepSeek-V3's architecture (config auto_map:
    // DeepseekV3ForCausalLM) under its own model_type.
    {"kimi_k2", "DeepseekV3Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMla},
    // modeling_glm4_moe.py: q/k/v biases follow attention_bias, o_proj has
    // none; DeepSeek-V3's router with e_score_correction_bias.
    {"glm4_moe", "Glm4MoeConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     nullptr},
    // Llama-Nemotron (DeciLM, the repository's configuration_decilm.py):
    // Llama's decoder with a shape per layer in block_configs (readNas).
    {"nemotron-nas", "DeciLMConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readNas},
    // modeling_nemotron_h.py: each block is one mixer (Mamba-2, attention,
    // MoE or MLP) after one RMSNorm; the MLPs and experts are not gated
    // (up_proj, relu2, down_proj).
    {"nemotron_h", "NemotronHConfig", false, NormKind::RmsNorm, 1, false, false, false, false, false, true, false,
     readNemotronH},
    // modeling_olmo3.py Olmo3DecoderLayer: post_attention_layernorm and
    // post_feedforward_layernorm only (no input norm); q_norm/k_norm over the
    // whole projection (readFamilyQuirks).
    {"olmo3", "Olmo3Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, nullptr},
    // modeling_olmo2.py Olmo2DecoderLayer and Olmo2Attention: OLMo 3's
    // decoder (the same two post-norms, q_norm/k_norm over the whole
    // projection) with full attention in every layer.
    {"olmo2", "Olmo2Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, nullptr},
    // modeling_olmoe.py OlmoeDecoderLayer and OlmoeAttention: two pre-norms,
    // q_norm/k_norm over the whole projection, every layer MoE with
    // intermediate_size-wide experts and no shared expert.
    {"olmoe", "OlmoeConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, nullptr},
    // Granite 4.0 (configuration_granitemoehybrid.py,
    // modular_granitemoehybrid.py GraniteMoeHybridDecoderLayer): in each
    // layer Bamba's Mamba-2 mixer or attention, two norms, the shared MLP
    // and, where num_local_experts > 0, experts (readGraniteHybrid).
    {"granitemoehybrid", "GraniteMoeHybridConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true,
     false, readGraniteHybrid},
    // Jamba (configuration_jamba.py, modeling_jamba.py @ 008f5c8c): in each
    // layer attention without RoPE or Mamba-1, two norms, and experts or a
    // dense MLP, each by its own period and offset (readJamba).
    {"jamba", "JambaConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, readJamba},
    // Falcon-H1 (readFalconH1): attention and a Mamba-2 block side by side
    // in every layer, input_layernorm and pre_ff_layernorm around them.
    // Step3's text model (readStep3Text): one key-value head, low-rank
    // queries, MoE in the layers moe_layers_enum lists. vLLM never ties its
    // lm_head.
    {"step3_text", "Step3TextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readStep3Text},
    // Step-3.5 and Step-3.7's text model (readStep3p5): per-head q/k
    // norms, sliding layers with heads of their own, a head-wise output
    // gate, experts with a shared MLP and a router bias.
    {"step3p5", "Step3p7TextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true,
     readStep3p5},
    // Zamba2 (readZamba2): a Mamba-2 block in every layer, and in its
    // hybrid layers a shared attention block before it; one norm a layer.
    {"zamba2", "Zamba2Config", true, NormKind::RmsNorm, 1, true, false, false, false, false, true, false, readZamba2},
    // Bamba (readBamba): attention where attn_layer_indices says, Mamba-2
    // elsewhere, a gated MLP in every layer.
    {"bamba", "BambaConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false, readBamba},
    {"falcon_h1", "FalconH1Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readFalconH1},
    // dots.llm1 (modular_dots1.py @ 008e5743): Qwen3's attention with
    // per-head q/k norms and DeepSeek-V3's MoE after first_k_dense_replace
    // dense layers (shared experts n_shared_experts x moe_intermediate_size
    // wide; DeepseekV3TopkRouter's e_score_correction_bias in every MoE layer).
    {"dots1", "Dots1Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, nullptr},
    // Seed-OSS (modular_seed_oss.py @ 052b1dcd, configuration_seed_oss.py
    // @ 008e5743): Llama's decoder whose q/k/v biases follow attention_bias
    // (class default true) and o_proj's attention_out_bias (default false).
    {"seed_oss", "SeedOssConfig", false, NormKind::RmsNorm, 2, true, true, false, false, false, true, false, nullptr},
    // Command R7B / Command A (modular_cohere2.py @ 008e5743): Cohere's
    // parallel block (one CohereLayerNorm, a weight without a bias, before
    // attention and MLP together), three sliding layers to one global by
    // sliding_window_pattern, tied embeddings by default.
    {"cohere2", "Cohere2Config", true, NormKind::RmsNorm, 1, true, false, false, false, false, true, false, nullptr},
    // Apertus (modular_apertus.py @ 008e5743): Llama's attention with
    // per-head q/k norms, an ungated MLP (up_proj, down_proj) whose xIELU
    // activation learns two scalars.
    {"apertus", "ApertusConfig", false, NormKind::RmsNorm, 2, false, false, false, false, false, true, true, nullptr},
    // AFM-4.5B (modular_arcee.py @ 031734d9): Llama's decoder with
    // Nemotron's ungated MLP (up_proj, relu2, down_proj).
    {"arcee", "ArceeConfig", false, NormKind::RmsNorm, 2, false, false, false, false, false, true, false, nullptr},
    // ERNIE 4.5 (transformers modular_ernie4_5.py @ 016bc8ef): Llama's
    // decoder whose q/k/v/o and MLP projections take a bias when use_bias
    // (readErnie); Ernie4_5Config defaults tie_word_embeddings True.
    {"ernie4_5", "Ernie4_5Config", true, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readErnie},
    // ERNIE 4.5 MoE (modular_ernie4_5_moe.py @ 01187e21): the same
    // attention, experts with shared experts and a correction bias in the
    // layers its moe_layer_* keys place (readErnieMoe).
    {"ernie4_5_moe", "Ernie4_5_MoeConfig", true, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readErnieMoe},
    // Ling 2.0 (BailingMoeV2: inclusionAI/Ling-V2 models/modeling_bailing_moe_v2.py
    // @ efee9bb7, which the checkpoints' auto_map names; vLLM bailing_moe.py):
    // one fused query_key_value projection, per-head q/k norms, DeepSeek-style
    // experts after first_k_dense_replace dense layers (readBailing).
    {"bailing_moe", "BailingMoeV2Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readBailing},
    // Arcee's Trinity (AFMoE: transformers modeling_afmoe.py @ 0205eec1,
    // vLLM afmoe.py @ v0.20.1): four norms a layer, per-head q/k norms, an
    // output gate per element, dense leading layers, then experts with
    // shared experts and an expert_bias (readAfmoe).
    {"afmoe", "AfmoeConfig", false, NormKind::RmsNorm, 4, true, false, false, false, false, true, true, readAfmoe},
    // modeling_exaone4.py: the same two post-norms as OLMo; q_norm/k_norm
    // per head (RMSNorm(head_dim)); no biases.
    {"exaone4", "Exaone4Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, true,
     nullptr},
    // modeling_minimax_m2.py: Mixtral's decoder with q/k norms over the whole
    // projection and a sigmoid router with e_score_correction_bias.
    {"minimax_m2", "MiniMaxM2Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMiniMaxM2},
    // MiniMax-M3 (transformers modeling_minimax_m3_vl.py @ 0291279d,
    // MiniMaxM3VLTextModel): per-head q/k norms, dense leading layers,
    // experts with a shared expert and a sigmoid router with
    // e_score_correction_bias, MiniMax Sparse Attention's indexer in its
    // sparse layers (readMiniMaxM3).
    {"minimax_m3_vl_text", "MiniMaxM3VLTextConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false,
     true, true, readMiniMaxM3},
    // Kimi Linear and Kimi K3 (the repository's modeling_kimi_linear.py,
    // auto_map; vLLM kimi_linear.py, sglang kimi_k3): Kimi Delta Attention
    // and MLA layers, DeepSeek-V3's experts (readKimiLinear).
    {"kimi_linear", "KimiLinearConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readKimiLinear},
    // LFM2 (modeling_lfm2.py): short-convolution and attention layers
    // (readLfm2), per-head q/k norms, the final norm named embedding_norm.
    {"lfm2", "Lfm2Config", true, NormKind::RmsNorm, 2, true, false, false, false, false, true, true, readLfm2},
    // MiniMax-M1 (the repository's modeling_minimax_m1.py; vLLM registers it
    // as minimax_text_01.py MiniMaxText01ForCausalLM): lightning and softmax
    // attention layers, Mixtral-style experts (readMiniMaxM1).
    {"minimax_m1", "MiniMaxM1Config", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
     readMiniMaxM1},
    // MiMo-V2-Flash (transformers modular_mimo_v2_flash.py; vLLM
    // mimo_v2_flash.py MiMoV2Attention): Llama-style layers without q/k
    // norms, sliding-window layers with heads and sinks of their own, a
    // sigmoid router with e_score_correction_bias (readMiMoV2).
    {"mimo_v2_flash", "MiMoV2FlashConfig", false, NormKind::RmsNorm, 2, true, false, false, false, false, true,
     false, readMiMoV2},
};

/// Multimodal checkpoints keep the language model under `text_config`;
/// its model_type when the nested config omits it.
struct NestedText
{
    const char *modelType;
    const char *textType;
};

const NestedText kNestedText[] = {
    {"gemma3", "gemma3_text"},   // configuration_gemma3.py Gemma3Config
    {"llama4", "llama4_text"},   // configuration_llama4.py Llama4Config
    {"mistral3", "mistral"},     // configuration_mistral3.py: text_config defaults to MistralConfig
    {"qwen2_5_vl", "qwen2_5_vl_text"},
    {"qwen3_vl_moe", "qwen3_vl_moe_text"}, // configuration_qwen3_vl_moe.py Qwen3VLMoeConfig
    {"qwen3_5", "qwen3_5_text"},           // configuration_qwen3_5.py Qwen3_5Config
    {"qwen3_5_moe", "qwen3_5_moe_text"},   // configuration_qwen3_5_moe.py Qwen3_5MoeConfig
    {"qwen3_vl", "qwen3_vl_text"},         // configuration_qwen3_vl.py Qwen3VLConfig
    {"gemma4", "gemma4_text"},             // configuration_gemma4.py Gemma4Config
    {"gemma4_unified", "gemma4_unified_text"},
    {"lfm2_vl", "lfm2"},                   // configuration_lfm2_vl.py Lfm2VlConfig
    // Kimi K2.5 (its repository's configuration_kimi_k25.py, auto_map):
    // Kimi K2's decoder under text_config, with a MoonViT image encoder.
    {"kimi_k25", "kimi_k2"},
    // configuration_minimax_m3_vl.py MiniMaxM3VLConfig rebuilds whatever
    // text_config names as MiniMaxM3VLTextConfig.
    {"minimax_m3_vl", "minimax_m3_vl_text"},
    // vLLM transformers_utils/configs/step3_vl.py Step3VLConfig.
    {"step3_vl", "step3_text"},
    // transformers configuration_step3p7.py Step3p7Config: a step3p5 text_config.
    {"step3p7", "step3p5"},
};

/// Text models that are another family's decoder under a new model_type.
struct Alias
{
    const char *modelType;
    const char *family;
};

const Alias kAliases[] = {
    {"RefinedWeb", "falcon"},
    {"RefinedWebModel", "falcon"},
    // Qwen2.5-VL's language model is Qwen2's decoder (modeling_qwen2_5_vl.py
    // Qwen2_5_VLTextModel); older configs keep its keys at the top level.
    {"qwen2_5_vl_text", "qwen2"},
    {"qwen2_5_vl", "qwen2"},
    // Qwen3-VL-MoE's language model is Qwen3-MoE's decoder with per-head q/k
    // norms (modeling_qwen3_vl_moe.py Qwen3VLMoeTextAttention, Qwen3VLMoeTextDecoderLayer).
    // Its text_config omits tie_word_embeddings; the top level says false,
    // and the checkpoint ships lm_head.weight, so the top-level fallback in
    // parseHfConfig is right and the text class default (True in
    // transformers 5) must not be applied.
    {"qwen3_vl_moe_text", "qwen3_moe"},
    // Qwen3-VL's dense language model is Qwen3's decoder with per-head q/k
    // norms (modeling_qwen3_vl.py Qwen3VLTextAttention); tie_word_embeddings
    // as for the MoE model above.
    {"qwen3_vl_text", "qwen3"},
    // EXAONE 4.5's language model (modular_exaone4_5.py, transformers
    // 0117d5f7: Exaone4_5_Config remaps exaone4_5_text to exaone4).
    {"exaone4_5_text", "exaone4"},
    // SGLang's DeepSeek-V4 FP8 checkpoints name DeepSeek's reference code.
    {"deepseek_ref", "deepseek_v4"},
    // Ministral 3 (modular_ministral3.py, transformers 00b364c7): Mistral's
    // decoder; its queries are scaled by a position term (llama_4_scaling
    // in rope_parameters), which has no weights. vLLM registers
    // Ministral3ForCausalLM as its MistralForCausalLM.
    {"ministral3", "mistral"},
};

const FamilyTraits *findFamily(const std::string &type)
{
    std::string t = type;
    for (const Alias &a : kAliases)
        if (t == a.modelType)
            t = a.family;
    for (const FamilyTraits &f : kFamilies)
        if (t == f.modelType)
            return &f;
    return nullptr;
}

std::string activationName(ConfigKeys &k)
{
    for (const char *key : {"hidden_act", "hidden_activation", "activation_function"})
        if (auto v = k.reader().string(key, false))
            return *v;
    return "";
}

/// Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): every key is in
/// the published configs; DeepseekV3Config's defaults are V3's own values.
void readMla(ConfigKeys &k, ModelSpec &m)
{
    m.kvLoraRank = k.uint("kv_lora_rank", 1, kMaxDim, 512);
    // DeepSeek-V2-Lite sets q_lora_rank null: queries come from q_proj.
    m.qLoraRank = k.reader().has("q_lora_rank") ? k.uint("q_lora_rank", 1, kMaxDim, 1536) : 0;
    m.ropeHeadDim = k.uint("qk_rope_head_dim", 1, kMaxDim, 64);
    const std::uint64_t nope = k.uint("qk_nope_head_dim", 0, kMaxDim, 128);
    m.valueHeadDim = k.uint("v_head_dim", 1, kMaxDim, 128);
    m.headDim = nope + m.ropeHeadDim; // qk_head_dim
    // GLM-5 also writes qk_head_dim (the same sum) and head_dim, which
    // GlmMoeDsaConfig sets to qk_rope_head_dim for the rotary embedding.
    if (k.firstUint({"qk_head_dim"}, 1, kMaxDim).value_or(m.headDim) != m.headDim)
        k.reader().error("qk_head_dim", "differs from qk_nope_head_dim + qk_rope_head_dim");
    k.firstUint({"head_dim"}, 1, kMaxDim);
    m.kvHeads = m.heads;             // keys and values are rebuilt per head
    // DeepseekV3TopkRouter registers e_score_correction_bias (noaux_tc);
    // DeepSeek-V2's greedy routers have none.
    m.moe.routerBias = k.reader().string("topk_method", false).value_or("") == "noaux_tc";
    m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0);
    // DeepSeek-V3.2 and GLM-5: every layer's sparse attention has an indexer.
    if (k.reader().has("index_n_heads") || k.reader().has("index_head_dim")) {
        m.indexHeads = k.firstUint({"index_n_heads"}, 1, kMaxDim, true).value_or(0);
        m.indexHeadDim = k.firstUint({"index_head_dim"}, 1, kMaxDim, true).value_or(0);
        // GLM-5.2's indexer_types: a "shared" layer reuses the top-k of the
        // previous "full" one and has no indexer of its own (nor its keys).
        const std::vector<std::string> types = k.reader().strings("indexer_types", kMaxLayers);
        if (!types.empty() && types.size() != m.layers)
            k.reader().error("indexer_types", "has " + std::to_string(types.size()) + " entries for "
                                                  + std::to_string(m.layers) + " layers");
        for (const std::string &t : types)
            if (t != "full" && t != "shared")
                k.reader().error("indexer_types", "'" + t + "' is not full or shared");
        const auto full = static_cast<std::uint64_t>(std::count(types.begin(), types.end(), "full"));
        m.indexerLayers = full < types.size() ? full : 0;
    }
}

/// Shared experts given as one MLP width (Qwen's
/// shared_expert_intermediate_size, Nemotron-H's
/// moe_shared_expert_intermediate_size), in units of a routed expert's width.
void setSharedExpertWidth(ConfigKeys &k, ModelSpec &m, const char *key, std::uint64_t width)
{
    m.moe.sharedExperts = m.moe.expertIntermediate > 0 ? static_cast<int>(width / m.moe.expertIntermediate) : 0;
    if (m.moe.expertIntermediate == 0 || width % m.moe.expertIntermediate != 0)
        k.reader().error(key, "is not a multiple of a routed expert's width");
}

/// Qwen3-Next: which layers are Gated DeltaNet (layer_types, or every
/// layer but each full_attention_interval-th: configuration_qwen3_next.py).
void readHybrid(ConfigKeys &k, ModelSpec &m)
{
    m.gatedAttention = true;
    m.linearKeyHeads = k.uint("linear_num_key_heads", 1, kMaxDim, 16);
    m.linearValueHeads = k.uint("linear_num_value_heads", 1, kMaxDim, 32);
    m.linearKeyDim = k.uint("linear_key_head_dim", 1, kMaxDim, 128);
    m.linearValueDim = k.uint("linear_value_head_dim", 1, kMaxDim, 128);
    m.linearConvKernel = k.uint("linear_conv_kernel_dim", 1, 1024, 4);
    // configuration_qwen3_next.py writes layer_types from the interval only
    // when the config lists none; a config with both must agree.
    const bool listed = k.reader().has("layer_types");
    if (!listed || k.reader().has("full_attention_interval")) {
        const std::uint64_t interval = k.uint("full_attention_interval", 1, kMaxLayers, 4);
        const std::uint64_t linear = m.layers - m.layers / interval;
        if (!listed)
            m.linearLayers = linear;
        else if (m.linearLayers != linear)
            k.reader().error("full_attention_interval", "disagrees with layer_types");
    }
    // readMoe read shared_expert_intermediate_size; the shared expert is gated.
    m.moe.sharedExpertGate = m.moe.sharedExperts > 0;
}

/// Bytes of a recurrent-state element for the dtype a config names for the
/// serving engine's state cache; 0 for "auto" (the model's dtype).
std::uint64_t stateElementBytes(ConfigKeys &k, const char *key, const std::string &dtype)
{
    if (dtype == "float32")
        return 4;
    if (dtype == "float16" || dtype == "bfloat16")
        return 2;
    if (dtype != "auto")
        k.reader().error(key, "'" + dtype + "' is not float32, float16, bfloat16 or auto");
    return 0;
}

/// Qwen3.5 (modular_qwen3_5.py, dense; modular_qwen3_5_moe.py, MoE):
/// Qwen3-Next's hybrid layout and mixers (readHybrid), with a dense MLP or
/// experts (readMoe) in every layer. attn_output_gate switches the
/// output gate's half of q_proj (vLLM Qwen3NextAttention reads it; the
/// transformers class always builds it). mtp_num_hidden_layers MTP modules
/// ship as mtp.* (ignored on load: Qwen3_5ForCausalLM
/// _keys_to_ignore_on_load_unexpected) and are counted only on request.
/// vLLM keeps the Gated DeltaNet state in the config's mamba_ssm_dtype
/// (Qwen3_5ForConditionalGenerationConfig sets mamba_ssm_cache_dtype from
/// it); absent, the model's dtype.
void readQwen35(ConfigKeys &k, ModelSpec &m)
{
    readHybrid(k, m);
    JsonReader &r = k.reader();
    m.gatedAttention = r.boolean("attn_output_gate", false).value_or(true);
    m.mtpLayers = k.firstUint({"mtp_num_hidden_layers"}, 0, 1024).value_or(0);
    if (r.boolean("mtp_use_dedicated_embeddings", false).value_or(false))
        r.error("mtp_use_dedicated_embeddings", "true (an MTP embedding table of its own) is not modelled");
    if (r.has("mamba_ssm_dtype"))
        m.ssmStateBytes = stateElementBytes(k, "mamba_ssm_dtype", r.string("mamba_ssm_dtype", true).value_or(""));
    // Qwen3_5TextConfig deletes mlp_only_layers (no MoE); the released
    // dense configs still carry an empty list.
    if (!m.moe.isMoe() && !k.uints("mlp_only_layers", m.layers).empty())
        r.error("mlp_only_layers", "lists layers, but Qwen3.5 dense models have no MoE layers");
}

/// Nemotron-H's block kinds, by hybrid_override_pattern character and by
/// the names layers_block_type uses (configuration_nemotron_h.py
/// _pattern_to_list; older configs: modeling_nemotron_h.py MIXER_TYPES).
enum class NemotronBlock { Mamba, Attention, Moe, Mlp };

struct NemotronBlockName
{
    char pattern;
    const char *name;
    const char *olderName;
    NemotronBlock kind;
    LayerBlocks scopes; ///< the tensor groups' scopes of such a layer
};

const NemotronBlockName kNemotronBlocks[] = {
    {'M', "linear_attention", "mamba", NemotronBlock::Mamba, {LayerScope::MambaLayers, LayerScope::None}},
    {'*', "full_attention", "attention", NemotronBlock::Attention, {LayerScope::AttentionLayers, LayerScope::None}},
    {'E', "moe", "moe", NemotronBlock::Moe, {LayerScope::None, LayerScope::MoeLayers}},
    {'-', "mlp", "mlp", NemotronBlock::Mlp, {LayerScope::None, LayerScope::DenseLayers}},
};

/// The block kind of each layer the config lists, or nothing (with an error).
std::optional<std::vector<const NemotronBlockName *>> nemotronBlocks(JsonReader &r)
{
    const char *key = "hybrid_override_pattern";
    std::vector<std::string> names;
    if (r.has(key)) {
        for (char c : r.string(key, true).value_or(""))
            names.emplace_back(1, c);
    } else {
        key = r.has("layers_block_type") ? "layers_block_type" : "layer_types";
        names = r.strings(key, kMaxLayers);
    }
    if (names.empty()) {
        r.error(key, "missing; expected the block kinds of the layers");
        return std::nullopt;
    }
    std::vector<const NemotronBlockName *> blocks;
    for (const std::string &n : names) {
        const auto match = std::find_if(std::begin(kNemotronBlocks), std::end(kNemotronBlocks), [&](const auto &b) {
            return n == std::string(1, b.pattern) || n == b.name || n == b.olderName;
        });
        if (match == std::end(kNemotronBlocks)) {
            r.error(key, "'" + n + "' is not a Nemotron-H block kind (M, *, E, -)");
            return std::nullopt;
        }
        blocks.push_back(match);
    }
    return blocks;
}

/// How many blocks of each kind the config lists, or nothing (with an error).
std::optional<std::array<std::uint64_t, 4>> countNemotronBlocks(ConfigKeys &k)
{
    const auto blocks = nemotronBlocks(k.reader());
    if (!blocks)
        return std::nullopt;
    std::array<std::uint64_t, 4> count = {};
    for (const NemotronBlockName *b : *blocks)
        ++count[static_cast<std::size_t>(b->kind)];
    return count;
}

/// Each layer's mixers and MLP where the config lists its blocks one per
/// layer (Nemotron-H: one mixer or one MLP per block) or every layer holds
/// two mixers (Falcon-H1); empty otherwise.
std::vector<LayerBlocks> layerLayout(JsonReader &r, const ModelSpec &m)
{
    std::vector<LayerBlocks> layout;
    if (m.attendingMambaLayers == m.layers) // Falcon-H1: attention, a Mamba block beside it and an MLP in every layer
        return std::vector<LayerBlocks>(
            m.layers, LayerBlocks{LayerScope::AttentionLayers, LayerScope::DenseLayers, LayerScope::MambaLayers});
    if (m.family != "nemotron_h")
        return layout;
    std::vector<std::string> ignored;
    JsonReader quiet(r.json(), r.pointer(), ignored);
    const auto blocks = nemotronBlocks(quiet);
    if (!blocks || blocks->size() != m.layers)
        return layout;
    for (const NemotronBlockName *b : *blocks)
        layout.push_back(b->scopes);
    return layout;
}

/// Nemotron-H (modeling_nemotron_h.py): the blocks of each kind, the
/// Mamba-2 mixer's shape (NemotronHMamba2Mixer), the SSM cache dtype vLLM
/// takes from the config, and the MoE's shared expert and router bias
/// (NemotronHMoE, NemotronHTopkRouter). Defaults: NemotronHConfig.
void readNemotronH(ConfigKeys &k, ModelSpec &m)
{
    // NemotronHAttention rotates nothing (modeling_nemotron_h.py, vLLM
    // nemotron_h.py: no rotary_emb): Mamba-2 carries the positions.
    m.noRope = true;
    const auto count = countNemotronBlocks(k);
    if (!count)
        return;
    const auto of = [&](NemotronBlock kind) { return (*count)[static_cast<std::size_t>(kind)]; };
    const std::uint64_t blocks = of(NemotronBlock::Mamba) + of(NemotronBlock::Attention) + of(NemotronBlock::Moe)
        + of(NemotronBlock::Mlp);
    if (blocks != m.layers)
        k.reader().error("hybrid_override_pattern", "has " + std::to_string(blocks) + " blocks for "
                                                        + std::to_string(m.layers) + " layers");
    m.mambaLayers = of(NemotronBlock::Mamba);
    m.layersWithoutMlp = of(NemotronBlock::Mamba) + of(NemotronBlock::Attention);
    m.layersWithoutMixer = of(NemotronBlock::Moe) + of(NemotronBlock::Mlp);
    m.moe.denseLayers = static_cast<int>(of(NemotronBlock::Mlp));
    if (of(NemotronBlock::Moe) > 0 && !m.moe.isMoe())
        k.reader().error("n_routed_experts", "missing; the pattern has MoE blocks");

    // Older configs spell these mamba_n_groups, mamba_d_conv, mamba_conv_bias
    // (NemotronHConfig.__post_init__ renames them).
    m.mambaHeads = k.uint("mamba_num_heads", 1, kMaxDim, 128);
    m.mambaHeadDim = k.uint("mamba_head_dim", 1, kMaxDim, 64);
    m.ssmState = k.uint("ssm_state_size", 1, kMaxDim, 128);
    m.ssmGroups = k.firstUintOr({"n_groups", "mamba_n_groups"}, 1, kMaxDim, 8, "NemotronHConfig default");
    m.mambaConvKernel = k.firstUintOr({"conv_kernel", "mamba_d_conv"}, 1, 1024, 4, "NemotronHConfig default");
    m.mambaConvBias = k.reader().boolean("use_conv_bias", false).value_or(
        k.reader().boolean("mamba_conv_bias", false).value_or(true));
    if (m.mambaHeads % m.ssmGroups != 0)
        k.reader().error("n_groups", "must divide mamba_num_heads");
    m.mambaProjBias = k.reader().boolean("use_bias", false).value_or(false); // NemotronHMamba2Mixer in_proj, out_proj

    // vLLM's NemotronHForCausalLMConfig.update_mamba_ssm_cache_dtype takes the
    // SSM state's dtype from the config (float32 by default); "auto" keeps
    // the model's dtype.
    m.ssmStateBytes = stateElementBytes(k, "mamba_ssm_cache_dtype", k.string("mamba_ssm_cache_dtype", "float32"));

    // Nemotron 3 Super and Ultra run their routed experts in a latent width
    // (NemotronHMoE: fc1_latent_proj, the experts, fc2_latent_proj); the
    // router and the shared expert see the hidden state.
    m.moe.latentWidth = k.firstUint({"moe_latent_size"}, 1, kMaxDim).value_or(0);
    // Nemotron 3's MTP module: one attention and one MoE block (vLLM
    // nemotron_h_mtp.py), counted on request.
    m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0);
    if (m.mtpLayers > 0) {
        JsonReader &r = k.reader();
        const char *key = r.has("mtp_hybrid_override_pattern") ? "mtp_hybrid_override_pattern" : "mtp_layers_block_type";
        std::string pattern;
        if (r.has(key) && r.json().at(key).is_string())
            pattern = r.string(key, true).value_or("");
        else
            for (const std::string &block : r.strings(key, 16))
                pattern += block == "attention" ? "*" : block == "moe" ? "E" : "?";
        if (pattern != "*E")
            r.error(key, "an MTP module other than one attention and one MoE block is not modelled");
    }
    if (m.moe.isMoe()) {
        // NemotronHMoE: one shared expert moe_shared_expert_intermediate_size
        // wide; NemotronHTopkRouter registers e_score_correction_bias.
        setSharedExpertWidth(k, m, "moe_shared_expert_intermediate_size",
                             k.uint("moe_shared_expert_intermediate_size", 1, kMaxDim, 7688));
        m.moe.routerBias = true;
    }
}

/// Llama 4: local layers attend within attention_chunk_size tokens; the
/// others (no_rope_layers 0: NoPE) attend globally. Default: every fourth
/// layer global (configuration_llama4.py no_rope_layer_interval = 4).
void readChunked(ConfigKeys &k, ModelSpec &m)
{
    m.chunkedAttention = true;
    m.slidingWindow = k.uint("attention_chunk_size", 1, ModelLimits::maxPositions, 8192);
    if (k.reader().has("layer_types"))
        return;
    const std::vector<std::uint64_t> rope = k.uints("no_rope_layers", m.layers);
    if (!rope.empty()) {
        m.slidingLayers = static_cast<std::uint64_t>(std::count(rope.begin(), rope.end(), 1u));
    } else {
        const std::uint64_t interval = k.uint("no_rope_layer_interval", 1, kMaxLayers, 4);
        m.slidingLayers = m.layers - m.layers / interval;
    }
}

/// Hunyuan (vLLM hunyuan_v1.py): attention_head_dim heads with, where
/// use_qk_norm, per-head RMSNorms of q and k after RoPE; with
/// use_mixed_mlp_moe a shared MLP of intermediate_size x num_shared_expert
/// beside the experts (HunYuanSparseMoeBlock.shared_mlp); an absent or
/// false use_cla keeps every layer's own KV (cross-layer attention with
/// cla_share_factor is not modelled), as an absent use_mla keeps plain
/// attention. The classification head and the ViT its config can switch
/// on are refused where on.
void readHunyuan(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.qkNorm = r.boolean("use_qk_norm", false).value_or(false);
    if (const auto headDim = k.firstUint({"attention_head_dim"}, 1, kMaxDim)) {
        m.headDim = *headDim;
        m.valueHeadDim = *headDim;
    }
    if (r.boolean("use_cla", false).value_or(false))
        r.error("use_cla", "true (cross-layer attention shares K and V between layers) is not modelled");
    k.firstUint({"cla_share_factor"}, 1, kMaxLayers);
    if (r.boolean("use_mla", false).value_or(false))
        r.error("use_mla", "true (latent attention in Hunyuan) is not modelled");
    if (k.firstUint({"moe_layer_num_skipped"}, 0, kMaxLayers).value_or(0) > 0)
        r.error("moe_layer_num_skipped", "dense layers before the experts are not modelled for Hunyuan");
    if (r.string("norm_type", false).value_or("rms") != "rms")
        r.error("norm_type", "only \"rms\" (RMSNorm) is modelled for Hunyuan");
    if (k.firstUint({"org_vocab_size"}, 1, kMaxDim).value_or(m.vocab) != m.vocab)
        r.error("org_vocab_size", "differs from vocab_size, which is not modelled");
    // The classification head (add_classification_head with class_num,
    // pool_type, dense_list, skip_cls_token) and the optional ViT (vit_type,
    // vit_path, vit_* and anyres_*) exist only when switched on.
    if (r.boolean("add_classification_head", false).value_or(false))
        r.error("add_classification_head", "true (a classification head) is not modelled");
    for (const char *key : {"class_num", "pool_type", "dense_list", "skip_cls_token"})
        r.has(key);
    if (r.has("vit_type") && !r.json().at("vit_type").is_null())
        r.error("vit_type", "names a vision encoder, which is not modelled for Hunyuan");
    for (const char *key : {"vit_path", "vit_add_patchemb_bias", "vit_input_resolution", "vit_mapping_type",
                            "vit_norm_type", "vit_patch", "vit_remove_prenorm", "vit_token", "vit_used_rms_norm",
                            "anyres_pooling_size", "anyres_vit_max_image_size", "anyres_vit_two_views"})
        r.has(key);
    if (m.moe.isMoe() && r.boolean("use_mixed_mlp_moe", false).value_or(false)) {
        const std::uint64_t shared = k.firstLayerUint({"num_shared_expert"}, m.layers, 0, 1024).value_or(1);
        setSharedExpertWidth(k, m, "num_shared_expert", m.intermediate * shared);
    }
}

/// ERNIE 4.5: use_bias gives every attention and MLP projection a bias
/// (Ernie4_5Attention, Ernie4_5MLP); the lm_head has none.
void readErnie(ConfigKeys &k, ModelSpec &m)
{
    const bool bias = k.reader().boolean("use_bias", false).value_or(false);
    m.qkvBias = m.qkvBias || bias;
    m.attnOutBias = m.attnOutBias || bias;
    m.mlpBias = m.mlpBias || bias;
}

/// ERNIE 4.5 MoE (Ernie4_5_MoeDecoderLayer): layer i holds experts when
/// (i + 1) % moe_layer_interval == 0 and moe_layer_start_index <= i <=
/// moe_layer_end_index (-1: the last layer), else intermediate_size's MLP.
/// Each MoE block has moe_num_experts experts of moe_intermediate_size,
/// one shared MLP moe_num_shared_experts times as wide, an fp32 router and
/// Ernie4_5_MoeStatics' e_score_correction_bias whatever moe_use_aux_free
/// says. Defaults: Ernie4_5_MoeConfig.__init__ (configuration_ernie4_5_moe.py
/// @ 001f85b3). moe_capacity and moe_gate belong to Baidu's own code and
/// change no weights.
void readErnieMoe(ConfigKeys &k, ModelSpec &m)
{
    readErnie(k, m);
    JsonReader &r = k.reader();
    const std::uint64_t L = m.layers;
    const std::uint64_t experts = k.uint("moe_num_experts", 1, 1u << 16, 64);
    m.moe.experts = static_cast<int>(experts);
    m.moe.expertsPerToken = static_cast<int>(k.uint("moe_k", 1, experts, std::min<std::uint64_t>(6, experts)));
    m.moe.expertIntermediate = k.uint("moe_intermediate_size", 1, kMaxDim, 1536);
    m.moe.sharedExperts = static_cast<int>(k.uint("moe_num_shared_experts", 0, 1024, 2));
    m.moe.routerBias = true;
    const std::uint64_t start = k.uint("moe_layer_start_index", 0, kMaxLayers, 1);
    const std::uint64_t interval = k.uint("moe_layer_interval", 1, kMaxLayers, 1);
    std::uint64_t end = L - 1;
    if (r.has("moe_layer_end_index") && !(r.json().at("moe_layer_end_index") == -1))
        end = k.uint("moe_layer_end_index", 0, kMaxLayers, L - 1);
    std::uint64_t moeLayers = 0;
    for (std::uint64_t i = start; i <= std::min(end, L - 1); ++i)
        if ((i + 1) % interval == 0)
            ++moeLayers;
    m.moe.denseLayers = static_cast<int>(L - moeLayers);
    for (const char *key : {"moe_capacity", "moe_gate", "moe_use_aux_free", "_attn_implementation"})
        r.has(key);
}

/// Ling 2.0 (BailingMoeV2Attention, BailingMoeV2SparseMoeBlock): the bias
/// of query_key_value follows use_qkv_bias and that of the output
/// projection (dense) use_bias; use_qk_norm adds per-head q/k norms; the
/// MoE layers hold one shared MLP num_shared_experts experts wide and the
/// gate's expert_bias buffer, which moe_router_enable_expert_bias turns on
/// in every published config (the experts' count, width and dense lead:
/// readMoe). moe_shared_expert_intermediate_size repeats that width for
/// Megatron and is not read by the modelling code; embedding_dropout and
/// output_dropout are 0 in every published config and not modelled.
void readBailing(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.qkvBias = r.boolean("use_qkv_bias", false).value_or(false);
    m.attnOutBias = r.boolean("use_bias", false).value_or(false);
    m.qkNorm = r.boolean("use_qk_norm", false).value_or(false);
    m.moe.sharedExperts += static_cast<int>(k.firstUint({"num_shared_experts"}, 0, 1024).value_or(0));
    m.moe.routerBias = m.moe.isMoe() && r.boolean("moe_router_enable_expert_bias", false).value_or(false);
    r.boolean("use_rmsnorm", false);
    for (const char *key : {"moe_shared_expert_intermediate_size", "embedding_dropout", "output_dropout",
                            "score_function"})
        r.has(key);
    // Ling 1 (BailingMoeForCausalLM, inclusionAI/Ling models/
    // modeling_bailing_moe.py @ 5ccaeae): norm_softmax is read nowhere there;
    // norm_head renormalises the output layer's weight in place once in
    // inference (compute_logit) and keeps a normalised copy in training,
    // which is not planned.
    r.boolean("norm_head", false);
    r.boolean("norm_softmax", false);
}

/// Laguna (transformers modular_laguna.py @ 631151d4, LagunaAttention,
/// LagunaTopKRouter, LagunaSparseMoeBlock; vLLM laguna.py @ 038481da):
/// Qwen3-MoE's decoder whose attention has per-head q/k norms, a softplus
/// output gate from its own g_proj and, in num_attention_heads_per_layer,
/// query heads per layer (the full-attention layers 48, the sliding ones
/// 64 or 72; the key-value heads the same everywhere); mlp_layer_types
/// names the dense layers (readMoe); every MoE layer has one shared expert
/// shared_expert_intermediate_size wide, ungated, and the router's
/// e_score_correction_bias. vLLM sizes g_proj by `gating` (true or
/// "per-head": one value a head; another string: one per element);
/// swa_attention_sink_enabled gives the sliding layers a sink per head.
/// gating_types repeats gating per layer and no loader reads it;
/// moe_routed_scaling_factor, moe_router_logit_softcapping and
/// moe_apply_router_weight_on_input change no memory.
void readLaguna(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.outputGatePerHead = 1; // LagunaConfig: gating = True
    if (r.has("gating")) {
        const Json &gating = r.json().at("gating");
        const std::string kind = gating.is_string() ? gating.get<std::string>() : "";
        if (gating.is_boolean())
            m.outputGatePerHead = gating.get<bool>() ? 1 : 0;
        else if (kind == "per-element" || kind == "per_element" || kind == "elementwise")
            m.outputGatePerHead = m.headDim;
        else if (kind.empty() || kind == "none")
            m.outputGatePerHead = gating.is_string() ? 0 : 1;
        else if (kind != "per-head" && kind != "per_head")
            k.assume("gating", "'" + kind + "' read as one gate a head",
                     "transformers' LagunaAttention builds g_proj one value a head whatever gating says");
        if (!gating.is_boolean() && !gating.is_string())
            r.error("gating", "expected true, false, \"per-head\" or \"per-element\"");
    }
    m.moe.routerBias = m.moe.isMoe();
    m.attentionSinks = m.sinksWindowedOnly = r.boolean("swa_attention_sink_enabled", false).value_or(false);
    for (const char *key : {"gating_types", "moe_routed_scaling_factor", "moe_router_logit_softcapping",
                            "moe_apply_router_weight_on_input", "norm_topk_prob"})
        r.has(key);
    const std::vector<std::uint64_t> heads = k.uints("num_attention_heads_per_layer", m.layers);
    if (heads.empty())
        return;
    if (heads.size() != m.layers) {
        r.error("num_attention_heads_per_layer", "has " + std::to_string(heads.size()) + " entries for "
                                                     + std::to_string(m.layers) + " layers");
        return;
    }
    // The heads of each kind, by layer_types (all full attention where absent).
    const std::vector<std::string> types = r.strings("layer_types", kMaxLayers);
    std::uint64_t full = 0, sliding = 0;
    bool uneven = false;
    for (std::uint64_t i = 0; i < m.layers; ++i) {
        std::uint64_t &kind = i < types.size() && types[i] == "sliding_attention" ? sliding : full;
        if (heads[i] == 0 || heads[i] % m.kvHeads != 0)
            r.error("num_attention_heads_per_layer", "holds " + std::to_string(heads[i])
                                                         + " heads, not a multiple of the "
                                                         + std::to_string(m.kvHeads) + " key-value heads");
        uneven = uneven || (kind != 0 && kind != heads[i]);
        kind = std::max(kind, heads[i]);
    }
    if (uneven) {
        k.assume("num_attention_heads_per_layer", "each layer kind read with its most heads",
                 "layers of one kind with different head counts are not modelled");
        m.shapeGuessed = true;
    }
    if (full > 0)
        m.heads = full;
    if (sliding > 0 && sliding != m.heads)
        m.slidingHeads = sliding;
}

/// SmolLM3 (configuration_smollm3.py): no_rope_layers (one flag a layer, 0
/// where RoPE is left out) or, without it, no_rope_layer_interval places
/// the NoPE layers. They change no shape and no cache: read for their
/// length only.
void readSmolLm3(ConfigKeys &k, ModelSpec &m)
{
    const std::vector<std::uint64_t> rope = k.uints("no_rope_layers", m.layers);
    if (!rope.empty() && rope.size() != m.layers)
        k.reader().error("no_rope_layers", "has " + std::to_string(rope.size()) + " entries for "
                                               + std::to_string(m.layers) + " layers");
    k.uint("no_rope_layer_interval", 1, kMaxLayers, 4);
}

/// The Mamba-2 mixer as Bamba's config spells it (BambaConfig, and the
/// classes that took its keys: GraniteMoeHybridConfig, FalconH1Config):
/// mamba_n_heads heads of mamba_d_head ("auto": their share of `inner`, the
/// mixer's d_inner), mamba_d_state, mamba_n_groups, mamba_d_conv and the
/// conv's bias; mamba_chunk_size is the scan's (no weights).
void readBambaMixer(ConfigKeys &k, ModelSpec &m, std::uint64_t inner)
{
    JsonReader &r = k.reader();
    m.mambaHeads = k.uint("mamba_n_heads", 1, kMaxDim, 128);
    if (r.has("mamba_d_head") && r.json().at("mamba_d_head").is_string()) {
        if (r.string("mamba_d_head", true).value_or("") != "auto")
            r.error("mamba_d_head", "is a string other than \"auto\"");
        m.mambaHeadDim = inner / m.mambaHeads;
    } else {
        m.mambaHeadDim = k.uint("mamba_d_head", 1, kMaxDim, inner / m.mambaHeads);
    }
    if (m.mambaHeadDim * m.mambaHeads != inner)
        r.error("mamba_n_heads", std::to_string(m.mambaHeads) + " heads of " + std::to_string(m.mambaHeadDim)
                                     + " (mamba_d_head) do not make the Mamba block's inner width, "
                                     + std::to_string(inner));
    m.ssmState = k.uint("mamba_d_state", 1, kMaxDim, 256);
    m.ssmGroups = k.uint("mamba_n_groups", 1, kMaxDim, 1);
    if (m.mambaHeads % m.ssmGroups != 0)
        r.error("mamba_n_groups", "must divide mamba_n_heads");
    m.mambaConvKernel = k.uint("mamba_d_conv", 1, 1024, 4);
    m.mambaConvBias = r.boolean("mamba_conv_bias", false).value_or(true);
    k.uint("mamba_chunk_size", 1, ModelLimits::maxPositions, 256);
}

/// Bamba's own mixer (BambaMixer, and Granite 4.0's, which is Bamba's):
/// d_inner = mamba_expand x hidden_size, mamba_proj_bias on in_proj and
/// out_proj.
void readBambaExpandedMixer(ConfigKeys &k, ModelSpec &m)
{
    readBambaMixer(k, m, k.uint("mamba_expand", 1, 64, 2) * m.hidden);
    m.mambaProjBias = k.reader().boolean("mamba_proj_bias", false).value_or(false);
}

/// Granite 4.0 (transformers configuration_granitemoehybrid.py and
/// modular_granitemoehybrid.py). Without layer_types every layer is Mamba
/// (layers_block_type). The Mamba-2 mixer is Bamba's (BambaMixer: in_proj to
/// the gate, x, B, C and dt; conv1d; dt_bias, A_log, D; a gated norm;
/// out_proj), d_inner = mamba_expand x hidden_size. Every layer keeps the
/// shared MLP (GraniteMoeSharedMLP: input_linear to 2 x
/// shared_intermediate_size, output_linear back); with num_local_experts >
/// 0 (class default 8, top 2) the MoE layers add intermediate_size-wide
/// experts and a router.
void readGraniteHybrid(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    if (!r.has("layer_types") && !r.has("layers_block_type"))
        m.mambaLayers = m.layers;
    readBambaExpandedMixer(k, m);
    // GraniteMoeHybridConfig: "rope", else (None, "nope") no positional
    // encoding at all.
    m.noRope = r.string("position_embedding_type", false).value_or("") != "rope";
    r.string("init_method", false);
    r.string("normalization_function", false);
    // The experts: readMoe took intermediate_size as their width where
    // num_local_experts is set; the class default is 8 experts, top 2.
    if (!r.has("num_local_experts")) {
        m.moe.experts = static_cast<int>(k.uint("num_local_experts", 0, 1u << 16, 8));
        m.moe.expertsPerToken = static_cast<int>(k.uint("num_experts_per_tok", 1, 1u << 16, 2));
        m.moe.expertIntermediate = m.intermediate;
    } else if (!m.moe.isMoe()) {
        k.firstUint({"num_experts_per_tok"}, 0, 1u << 16); // top-k of no experts (Granite 4.0 350M: 0)
    }
    m.intermediate = k.uint("shared_intermediate_size", 1, kMaxDim, 1024);
    m.moe.withDenseMlp = m.moe.isMoe();
}

/// How many distinct layers `indices` (the config's `key`) name; an index
/// past the last layer is an error.
std::uint64_t layersNamed(JsonReader &r, const char *key, const std::vector<std::uint64_t> &indices,
                          std::uint64_t layers)
{
    std::vector<bool> named(layers, false);
    for (const std::uint64_t i : indices) {
        if (i >= layers) {
            r.error(key, "names layer " + std::to_string(i) + ", past the last of " + std::to_string(layers)
                             + " (they count from 0)");
            return 0;
        }
        named[i] = true;
    }
    return static_cast<std::uint64_t>(std::count(named.begin(), named.end(), true));
}

/// Bamba (transformers configuration_bamba.py @ 001f85b3, modeling_bamba.py;
/// vLLM bamba.py v0.19.1): the layers attn_layer_indices names attend (none
/// where it is absent, unless the file spells the kinds out in
/// layer_types), the others run Bamba's Mamba-2 mixer; every layer has a
/// gated MLP. BambaConfig sets attention_bias and mlp_bias to False
/// whatever the file says.
void readBamba(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    if (r.has("attn_layer_indices")) {
        m.mambaLayers = m.layers - layersNamed(r, "attn_layer_indices", k.uints("attn_layer_indices", m.layers), m.layers);
    } else if (!r.has("layer_types")) {
        m.mambaLayers = m.layers; // layers_block_type: Mamba wherever no index says attention
    }
    readBambaExpandedMixer(k, m);
    m.qkvBias = m.attnOutBias = m.mlpBias = false;
    r.has("z_loss_coefficient");
}

/// Step's key-value heads: num_attention_groups (Step3 and Step-3.5 write
/// no num_key_value_heads; vLLM step3_text.py, step3p5.py), or for
/// Step-3.5 num_key_value_heads, transformers' name for it
/// (Step3p7TextConfig; vLLM's Step3TextConfig has no such alias).
std::uint64_t readAttentionGroups(ConfigKeys &k, std::uint64_t heads, std::uint64_t classDefault, bool transformersName)
{
    k.decidedElsewhere("num_key_value_heads");
    const std::uint64_t groups = transformersName
        ? k.firstUintOr({"num_attention_groups", "num_key_value_heads"}, 1, heads, classDefault, nullptr)
        : k.uint("num_attention_groups", 1, heads, classDefault);
    if (heads % groups != 0)
        k.reader().error("num_attention_groups", "must divide num_attention_heads");
    return groups;
}

/// The class defaults of Step's expert keys.
struct StepExpertDefaults
{
    std::uint64_t experts;
    std::uint64_t topK;
    std::uint64_t width;
    std::uint64_t sharedWidth;
    std::uint64_t firstMoeLayer; ///< MoE from this layer on where moe_layers_enum is absent
};

/// Step's experts: moe_num_experts of moe_intermediate_size (moe_top_k a
/// token) and a share_expert_dim-wide shared MLP in the layers
/// moe_layers_enum lists, a comma-separated string; the other layers run a
/// dense MLP of intermediate_size.
void readStepExperts(ConfigKeys &k, ModelSpec &m, const StepExpertDefaults &d)
{
    JsonReader &r = k.reader();
    // Step's spelling first, then transformers' name for it; a default is the class's.
    const std::uint64_t experts =
        k.firstUintOr({"moe_num_experts", "n_routed_experts"}, 1, 1u << 16, d.experts, nullptr);
    m.moe.experts = static_cast<int>(experts);
    m.moe.expertsPerToken =
        static_cast<int>(k.firstUintOr({"moe_top_k", "num_experts_per_tok"}, 1, experts, d.topK, nullptr));
    m.moe.expertIntermediate = k.uint("moe_intermediate_size", 1, kMaxDim, d.width);
    const std::uint64_t shared =
        k.firstUintOr({"share_expert_dim", "share_expert_dims"}, 1, kMaxDim, d.sharedWidth, nullptr);
    setSharedExpertWidth(k, m, "share_expert_dim", shared);
    r.has("norm_expert_weight");
    std::uint64_t moeLayers = m.layers - std::min(m.layers, d.firstMoeLayer);
    if (r.has("mlp_layer_types") && !r.has("moe_layers_enum")) {
        moeLayers = m.moeLayers(); // transformers' own spelling, read by readMoe
    } else if (r.has("moe_layers_enum")) {
        // Its indices as a comma-separated string; an item that is no
        // number names no layer (the layer count, which is refused).
        std::vector<std::uint64_t> indices;
        const std::string list = r.string("moe_layers_enum", true).value_or("");
        for (std::size_t at = 0; at < list.size() && indices.size() <= m.layers;) {
            const std::size_t comma = std::min(list.find(',', at), list.size());
            const std::string item = list.substr(at, comma - at);
            const bool number = !item.empty() && item.size() < 10
                && std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
            indices.push_back(number ? std::stoull(item) : m.layers);
            at = comma + 1;
        }
        moeLayers = layersNamed(r, "moe_layers_enum", indices, m.layers);
    }
    m.moe.denseLayers = static_cast<int>(m.layers - moeLayers);
}

/// Step3's text model (vLLM step3_text.py and
/// transformers_utils/configs/step3_vl.py Step3TextConfig, v0.20.1): every
/// layer attends with num_attention_groups key-value heads (vLLM accepts
/// one only) of head_dim, its queries through a share_q_dim-wide low rank
/// (qkv_proj's q part, inter_norm, wq); Step's experts (readStepExperts,
/// a router without bias; without moe_layers_enum every layer but the
/// first). The context is max_position_embedding (singular), else
/// max_seq_len.
void readStep3Text(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.kvHeads = readAttentionGroups(k, m.heads, 1, false);
    m.qLoraRank = k.uint("share_q_dim", 1, kMaxDim, 2048);
    const auto context = k.firstUint({"max_position_embedding", "max_seq_len"}, 1, ModelLimits::maxPositions);
    r.has("max_seq_len"); // the same context, spelt twice
    if (m.maxPositions == 0)
        m.maxPositions = context.value_or(0);
    readStepExperts(k, m, {48, 3, 5120, 5120, 1});
}

/// Step-3.5, and Step-3.7's text model (vLLM step3p5.py and
/// step3p5_mtp.py @ v0.20.1; transformers configuration_step3p7.py
/// Step3p7TextConfig @ 09c24c15, whose defaults and spellings these are):
/// num_attention_groups key-value heads; the sliding layers take
/// num_sliding_attention_heads, or the heads, groups and head_dim of
/// attention_other_setting where its attention_type is sliding_attention;
/// g_proj gates each head's output (use_head_wise_attn_gate in vLLM; the
/// transformers class always builds it); Step's experts (readStepExperts;
/// MoE from layer 3 without moe_layers_enum) with an fp32 router bias
/// (use_moe_router_bias, which vLLM requires). The checkpoint's
/// num_nextn_predict_layers MTP layers each attend in the window with a
/// dense MLP (step3p5_mtp.py builds them as layer num_hidden_layers, which
/// layer_types marks sliding and moe_layers_enum leaves dense) and keep a
/// head of their own (SharedHead: a norm and vocab x hidden).
void readStep3p5(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.kvHeads = readAttentionGroups(k, m.heads, 8, true);
    const std::string impl = k.string("att_impl_type", "GQA");
    if (impl != "GQA")
        r.error("att_impl_type", "'" + impl + "' is not an attention vLLM's Step-3.5 builds (GQA only)");
    if (const auto sliding = k.firstUint({"num_sliding_attention_heads"}, 1, kMaxDim)) {
        m.slidingHeads = *sliding != m.heads ? *sliding : 0;
        if (*sliding % m.kvHeads != 0)
            r.error("num_sliding_attention_heads", "must be a multiple of the key-value heads");
    } else if (auto other = r.object("attention_other_setting", false)) {
        // A key it leaves out keeps the main layers' value.
        const std::string kind = other->string("attention_type", false).value_or("");
        const std::uint64_t heads = other->uint("num_attention_heads", 1, kMaxDim, false).value_or(m.heads);
        const std::uint64_t groups = other->uint("num_attention_groups", 1, heads, false).value_or(m.kvHeads);
        const std::uint64_t headDim = other->uint("head_dim", 1, kMaxDim, false).value_or(m.headDim);
        if (heads % groups != 0)
            other->error("num_attention_groups", "must divide num_attention_heads");
        if (kind == "sliding_attention") {
            m.slidingHeads = heads != m.heads ? heads : 0;
            m.slidingKvHeads = groups != m.kvHeads ? groups : 0;
            m.slidingHeadDim = headDim != m.headDim ? headDim : 0;
        } else if (kind != "full_attention") {
            r.error("attention_other_setting", "names attention_type '" + kind
                                                   + "'; expected sliding_attention or full_attention");
        }
    }
    m.outputGatePerHead = r.boolean("use_head_wise_attn_gate", false).value_or(true) ? 1 : 0;
    readStepExperts(k, m, {288, 8, 1280, 1280, 3});
    m.moe.routerBias = r.boolean("use_moe_router_bias", false).value_or(true);
    // Per-layer RoPE (bases, rotated share, which layers): no weights; the
    // routing and clamping keys change none either.
    for (const char *key : {"partial_rotary_factors", "use_rope_layers", "yarn_only_types", "swiglu_limits",
                            "swiglu_limits_shared", "need_fp32_gate", "moe_router_activation",
                            "moe_router_scaling_factor", "use_moe", "moe_every_n_layer", "moe_layer_offset",
                            "max_seq_len", "num_attention_heads_per_layer", "mtp_mlp_layer_types"})
        r.has(key);
    // The MTP layer's kind: layer_types' entry after the main layers
    // (transformers keeps it as mtp_layer_types when it cuts the list);
    // without either, the published layout's (vLLM and SGLang build it as
    // layer num_hidden_layers, which the published list marks sliding).
    const std::vector<std::string> types = r.strings("layer_types", kMaxLayers);
    const std::vector<std::string> mtpTypes = r.strings("mtp_layer_types", kMaxLayers);
    const std::string mtpType = types.size() > m.layers ? types[m.layers]
        : !mtpTypes.empty()                             ? mtpTypes.front()
        : m.slidingLayers > 0                           ? "sliding_attention"
                                                        : "full_attention";
    m.mtpWindowed = m.mtpLayers > 0 && mtpType == "sliding_attention";
    m.mtpDenseMlp = m.mtpLayers > 0;
    m.mtpOwnHead = m.mtpLayers > 0;
}

/// Zamba2 (transformers configuration_zamba2.py and modeling_zamba2.py @
/// 00511f5d; vLLM zamba2.py @ v0.20.1): every layer runs a Mamba-2 block
/// (d_inner = mamba_expand x hidden_size in n_mamba_heads heads,
/// mamba_headdim is recomputed so; the conv always with a bias;
/// add_bias_linear on in_proj, out_proj and the MLP), each after its own
/// norm. The "hybrid" layers of layers_block_type (layer_types in newer
/// files, whose "linear_attention" is a Mamba layer) first run one of
/// num_mem_blocks shared transformer blocks (readZamba2's descriptor:
/// ModelSpec::sharedBlocks): attention with num_attention_heads heads of
/// 2 x hidden_size / num_attention_heads over the hidden state joined to
/// the input embeddings, then a gated GELU MLP of intermediate_size
/// (4 x hidden_size when absent), with adapter_rank LoRA adapters; RoPE
/// only with use_mem_rope. transformers keeps the states in its own
/// Zamba2HybridDynamicCache, in the model's dtype.
void readZamba2(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    const char *typesKey = r.has("layers_block_type") ? "layers_block_type" : "layer_types";
    const std::vector<std::string> types = r.strings(typesKey, kMaxLayers);
    std::uint64_t hybrid = 0;
    if (types.empty()) {
        // Zamba2Config's default list is the 2.7B's: nine hybrid layers in 54.
        k.assume("layers_block_type", "the Zamba2-2.7B layout (Zamba2Config default)", "no layer list");
        hybrid = 9;
        if (m.layers != 54)
            r.error("layers_block_type", "missing; Zamba2Config's default lists 54 layers, the config "
                                             + std::to_string(m.layers));
    } else if (types.size() != m.layers) {
        r.error(typesKey, "has " + std::to_string(types.size()) + " entries for " + std::to_string(m.layers)
                              + " layers");
    }
    std::uint64_t unnamed = 0;
    for (std::size_t i = 0; i < std::min<std::size_t>(types.size(), m.layers); ++i) {
        hybrid += types[i] == "hybrid" ? 1 : 0;
        unnamed += types[i] != "hybrid" && types[i] != "mamba" && types[i] != "linear_attention" ? 1 : 0;
    }
    if (unnamed > 0)
        k.assume(typesKey, std::to_string(unnamed) + " layers of another kind read as Mamba layers",
                 "Zamba2Model builds a Mamba layer for every entry but \"hybrid\"");
    m.mambaLayers = m.layers;
    m.attendingMambaLayers = hybrid;
    m.layersWithoutMlp = m.layers - hybrid;
    m.sharedBlocks = k.uint("num_mem_blocks", 1, kMaxLayers, 1);
    m.adapterRank = k.uint("adapter_rank", 1, kMaxDim, 128);
    m.attentionAdapters = r.boolean("use_shared_attention_adapter", false).value_or(false);
    r.boolean("use_shared_mlp_adapter", false); // Zamba2MLP builds its adapters either way
    // attention_head_dim = 2 x hidden_size / num_attention_heads, whatever
    // the file says (Zamba2Config.__init__ sets it).
    k.decidedElsewhere("head_dim");
    m.headDim = 2 * m.hidden / m.heads;
    if (m.headDim * m.heads != 2 * m.hidden)
        r.error("num_attention_heads", "must divide twice hidden_size (Zamba2's attention width)");
    if (m.intermediate == 0)
        m.intermediate =
            k.firstUintOr({"intermediate_size"}, 1, kMaxDim, 4 * m.hidden, "Zamba2Config: 4 x hidden_size");
    const bool bias = r.boolean("add_bias_linear", false).value_or(false);
    m.mambaProjBias = m.mlpBias = bias;
    m.qkvBias = m.attnOutBias = false;
    const std::uint64_t inner = k.uint("mamba_expand", 1, 64, 2) * m.hidden;
    m.mambaHeads = k.uint("n_mamba_heads", 1, kMaxDim, 8);
    m.mambaHeadDim = inner / m.mambaHeads;
    if (m.mambaHeadDim * m.mambaHeads != inner)
        r.error("n_mamba_heads", "must divide the Mamba block's inner width, " + std::to_string(inner));
    m.ssmState = k.uint("mamba_d_state", 1, kMaxDim, 64);
    m.ssmGroups = k.uint("mamba_ngroups", 1, kMaxDim, 1);
    if (m.mambaHeads % m.ssmGroups != 0)
        r.error("mamba_ngroups", "must divide n_mamba_heads");
    m.mambaConvKernel = k.uint("mamba_d_conv", 1, 1024, 4);
    m.mambaConvBias = true;
    m.ownStateCache = true; // Zamba2HybridDynamicCache
    // The shared attention rotates its keys only with use_mem_rope.
    m.noRope = !r.boolean("use_mem_rope", false).value_or(false);
    if (r.boolean("use_long_context", false).value_or(false))
        m.maxPositions = 16384; // Zamba2Config: use_long_context sets max_position_embeddings
    for (const char *key : {"use_conv_bias", "mamba_headdim", "use_mem_eff_path", "kv_channels",
                            "num_query_groups", "attention_hidden_size", "attention_head_dim", "head_dim",
                            "hybrid_layer_ids", "ffn_hidden_size"})
        r.has(key);
}

/// AFMoE (modeling_afmoe.py AfmoeAttention, AfmoeMoE): gate_proj, as
/// wide as the queries, gates the attention output before o_proj
/// (o_proj(attn x sigmoid(gate_proj(x)))) in every layer; the first
/// num_dense_layers layers run a dense MLP and the rest experts, with
/// num_shared_experts x moe_intermediate_size wide shared experts and an
/// fp32 expert_bias beside the router. The routing keys change no weight.
void readAfmoe(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.outputGatePerHead = m.headDim;
    // Present whether or not the file writes them (familydefaults.cpp).
    const std::uint64_t dense = r.uint("num_dense_layers", 0, kMaxLayers, true).value_or(0);
    m.moe.denseLayers = static_cast<int>(std::min(m.layers, dense));
    m.moe.sharedExperts = static_cast<int>(r.uint("num_shared_experts", 0, 1024, true).value_or(0));
    m.moe.routerBias = m.moe.isMoe();
    r.uint("global_attn_every_n_layers", 1, kMaxLayers, true);
    for (const char *key : {"route_scale", "route_norm", "score_func", "n_group", "topk_group", "num_expert_groups",
                            "num_limited_groups", "mup_enabled", "load_balance_coeff", "score_before_experts",
                            "use_grouped_mm"})
        r.has(key);
}

/// Falcon-H1 (transformers configuration_falcon_h1.py and
/// modular_falcon_h1.py @ 00511f5d; vLLM falcon_h1.py v0.19.1): every layer
/// runs Llama's attention and Bamba's Mamba-2 mixer side by side on the same
/// normed input (FalconH1DecoderLayer), then Llama's MLP. The mixer's
/// d_inner is mamba_d_ssm (class default 1024; null: mamba_expand x
/// hidden_size); its gated norm is built only with mamba_rms_norm (off by
/// default); in_proj's bias is mamba_proj_bias, out_proj's projectors_bias.
/// The muP multipliers scale activations (mup_vector is an unsaved buffer);
/// attn_layer_indices and mamba_use_mlp are keys of TII's earlier code that
/// transformers and vLLM do not read: every layer is built the same.
void readFalconH1(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.mambaLayers = m.layers;
    m.attendingMambaLayers = m.mambaLayers;
    // An explicit null (JSON's None) is FalconH1Config's "derive it" from
    // mamba_expand, which counts only then; an absent key takes the class
    // default.
    const bool fromExpand = !r.has("mamba_d_ssm") && r.json().contains("mamba_d_ssm");
    r.has("mamba_expand");
    readBambaMixer(k, m, fromExpand ? k.uint("mamba_expand", 1, 64, 2) * m.hidden
                                    : k.uint("mamba_d_ssm", 1, kMaxDim, 1024));
    m.mambaNorm = r.boolean("mamba_rms_norm", false).value_or(false);
    const bool inBias = r.boolean("mamba_proj_bias", false).value_or(false);
    const bool outBias = r.boolean("projectors_bias", false).value_or(false);
    m.mambaProjBias = inBias || outBias;
    if (inBias != outBias) {
        k.assume("projectors_bias", "in_proj and out_proj both read with a bias",
                 "the planner gives the Mamba block's two projections one bias switch");
        m.shapeGuessed = true;
    }
    for (const char *key : {"mamba_norm_before_gate", "mamba_use_mlp", "mlp_expansion_factor", "attn_layer_indices",
                            "attention_in_multiplier", "attention_out_multiplier", "key_multiplier",
                            "lm_head_multiplier", "mlp_multipliers", "ssm_multipliers", "ssm_in_multiplier",
                            "ssm_out_multiplier"})
        r.has(key);
}

/// Jamba (transformers configuration_jamba.py and modeling_jamba.py @
/// 008f5c8c; vLLM jamba.py v0.19.1). Layer i attends when i %
/// attn_layer_period == attn_layer_offset and runs a Mamba-1 mixer
/// otherwise (layers_block_type); its feed-forward is num_experts
/// intermediate_size-wide experts behind a bias-free router when i %
/// expert_layer_period == expert_layer_offset and num_experts > 1
/// (layers_num_experts), a dense MLP otherwise. JambaAttention has no
/// rotary embedding. mamba_dt_rank "auto" is ceil(hidden_size / 16).
void readJamba(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    const std::uint64_t attentionPeriod = k.uint("attn_layer_period", 1, kMaxLayers, 8);
    const std::uint64_t attentionOffset = k.uint("attn_layer_offset", 0, kMaxLayers, 4);
    const std::uint64_t expertPeriod = k.uint("expert_layer_period", 1, kMaxLayers, 2);
    const std::uint64_t expertOffset = k.uint("expert_layer_offset", 0, kMaxLayers, 1);
    if (attentionOffset >= attentionPeriod)
        r.error("attn_layer_offset", "must be smaller than attn_layer_period (JambaConfig._check_supported_offset)");
    if (expertOffset >= expertPeriod)
        r.error("expert_layer_offset", "must be smaller than expert_layer_period (JambaConfig._check_supported_offset)");
    std::uint64_t attentionLayers = 0;
    std::uint64_t expertLayers = 0;
    for (std::uint64_t i = 0; i < m.layers; ++i) {
        attentionLayers += i % attentionPeriod == attentionOffset;
        expertLayers += i % expertPeriod == expertOffset;
    }
    m.mambaLayers = m.layers - attentionLayers;
    m.noRope = true;

    const std::uint64_t expand = k.uint("mamba_expand", 1, 64, 2);
    const std::uint64_t inner = expand * m.hidden;
    m.mambaHeads = inner; // Mamba-1 in Mamba-2's terms: heads of width 1, no groups
    m.mambaHeadDim = 1;
    m.ssmGroups = 0;
    m.ssmState = k.uint("mamba_d_state", 1, kMaxDim, 16);
    m.mambaConvKernel = k.uint("mamba_d_conv", 1, 1024, 4);
    m.mambaConvBias = r.boolean("mamba_conv_bias", false).value_or(true);
    const std::uint64_t autoRank = (m.hidden + 15) / 16;
    if (r.has("mamba_dt_rank") && r.json().at("mamba_dt_rank").is_string()) {
        if (r.string("mamba_dt_rank", true).value_or("") != "auto")
            r.error("mamba_dt_rank", "is a string other than \"auto\"");
        m.mambaTimeStepRank = autoRank;
    } else {
        m.mambaTimeStepRank = k.uint("mamba_dt_rank", 1, kMaxDim, autoRank);
    }
    m.mambaProjBias = r.boolean("mamba_proj_bias", false).value_or(false); // JambaMambaMixer in_proj, out_proj
    r.boolean("use_mamba_kernels", false);

    // readMoe read the experts (JambaConfig's 16, top 2, where the file
    // omits them: familydefaults).
    if (m.moe.experts <= 1 || expertLayers == 0) {
        m.moe = {};
        return;
    }
    m.moe.expertIntermediate = m.intermediate; // JambaMoE: config.intermediate_size
    m.moe.denseLayers = static_cast<int>(m.layers - expertLayers);
}

/// MiniMax-M2. Transformers' modeling_minimax_m2.py builds q/k norms over
/// the whole projection and e_score_correction_bias unconditionally (hence
/// the defaults when the switches are absent); the other keys belong to the
/// publisher's remote code that the config's auto_map names. Read here: q/k
/// norms over the whole projection when qk_norm_type is "per_layer", the
/// routing bias (use_routing_bias), full attention in every layer
/// (attn_type_list 1; 0 would be MiniMax-01's lightning attention), and
/// use_mtp / num_mtp_modules multi-token-prediction modules, which the
/// published checkpoint does not list and which are counted only on request,
/// each as one DeepSeek-V3-shaped module per transformer layer.
void readMiniMaxM2(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.qkNorm = r.boolean("use_qk_norm", false).value_or(true);
    m.qkNormWholeProjection = m.qkNorm && r.string("qk_norm_type", false).value_or("per_layer") == "per_layer";
    m.moe.routerBias = r.boolean("use_routing_bias", false).value_or(true);
    const std::vector<std::uint64_t> kinds = k.uints("attn_type_list", m.layers);
    if (std::find(kinds.begin(), kinds.end(), 0u) != kinds.end())
        r.error("attn_type_list", "names lightning-attention layers (0), which this planner does not model");
    if (k.firstUint({"shared_intermediate_size"}, 0, kMaxDim).value_or(0) > 0)
        r.error("shared_intermediate_size", "a MiniMax shared expert is not modelled");
    if (r.boolean("use_mtp", false).value_or(false))
        m.mtpLayers = k.firstUint({"num_mtp_modules"}, 0, 1024).value_or(0)
                      * k.firstUint({"mtp_transformer_layers"}, 1, 1024).value_or(1);
}

/// MiniMax-M3 (transformers modeling_minimax_m3_vl.py @ 0291279d and
/// configuration_minimax_m3_vl.py @ 01a05aad): the shared expert is
/// shared_intermediate_size x n_shared_experts wide (MiniMaxM3VLSparseMoeBlock);
/// sparse_attention_config's sparse_attention_freq names the layers whose
/// attention has a MiniMaxM3VLIndexer of sparse_num_index_heads query heads
/// of sparse_index_dim (it has no value path: the released checkpoint
/// disables it in every sparse layer). The checkpoint ships no MTP weights
/// (num_mtp_modules is "ignored at inference"; NVIDIA Megatron-Bridge's
/// MiniMax-M3 verification card: no mtp.* tensors).
void readMiniMaxM3(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.qkNorm = r.boolean("use_qk_norm", false).value_or(true);
    // MiniMax-M2's spelling: "per_layer" norms the whole projection.
    m.qkNormWholeProjection = m.qkNorm && r.string("qk_norm_type", false).value_or("per_head") == "per_layer";
    r.boolean("use_gemma_norm", false); // x (1 + w): the same weights
    if (r.boolean("attention_output_gate", false).value_or(false))
        k.assume("attention_output_gate", "read as false", "MiniMaxM3VLAttention builds no output gate");
    m.moe.routerBias = r.boolean("use_routing_bias", false).value_or(true);
    // MiniMaxM3VLTextConfig: shared_intermediate_size 3072, n_shared_experts 1.
    const std::uint64_t shared = k.firstUint({"shared_intermediate_size"}, 0, kMaxDim).value_or(3072);
    const std::uint64_t count = r.has("n_shared_experts") ? static_cast<std::uint64_t>(m.moe.sharedExperts) : 1;
    if (m.moe.isMoe() && shared * count > 0)
        setSharedExpertWidth(k, m, "shared_intermediate_size", shared * count);
    else
        m.moe.sharedExperts = 0;
    k.firstUint({"num_mtp_modules"}, 0, 1024);
    m.mtpLayers = 0;
    auto sparse = r.object("sparse_attention_config", false);
    if (!sparse || !sparse->boolean("use_sparse_attention", false).value_or(true))
        return;
    m.msaIndexer = true;
    m.indexHeads = sparse->uint("sparse_num_index_heads", 1, kMaxDim, true).value_or(0);
    m.indexHeadDim = sparse->uint("sparse_index_dim", 1, kMaxDim, true).value_or(0);
    if (!sparse->has("sparse_attention_freq")) {
        sparse->error("sparse_attention_freq", "missing; expected one 0 or 1 for each layer");
        return;
    }
    ConfigKeys lists(*sparse, nullptr);
    const std::vector<std::uint64_t> freq = lists.uints("sparse_attention_freq", kMaxLayers);
    if (freq.size() != m.layers) {
        sparse->error("sparse_attention_freq", "has " + std::to_string(freq.size()) + " entries for "
                                                   + std::to_string(m.layers) + " layers");
        return;
    }
    const auto sparseLayers = static_cast<std::uint64_t>(std::count_if(freq.begin(), freq.end(), [](std::uint64_t f) { return f != 0; }));
    m.indexerLayers = sparseLayers < m.layers ? sparseLayers : 0;
    if (sparseLayers == 0)
        m.indexHeads = 0;
    const std::vector<std::uint64_t> noValue = lists.uints("sparse_disable_index_value", kMaxLayers);
    for (std::size_t i = 0; i < freq.size() && i < noValue.size(); ++i)
        if (freq[i] != 0 && noValue[i] == 0) {
            k.assume("sparse_attention_config", "the index value path of layer " + std::to_string(i) + " left out",
                     "MiniMaxM3VLIndexer has no value projection");
            break;
        }
}

/// Llama-Nemotron's block_configs, layer by layer (the repository's
/// modeling_decilm.py DeciLMDecoderLayer; vLLM nemotron_nas.py): attention
/// no_op (nothing, not even its norm), replace_with_linear (its norm and one
/// h x h linear), or num_attention_heads / n_heads_in_group key-value heads;
/// the MLP no_op, replace_with_linear, or gated and
/// _ffn_mult_to_intermediate_size wide: int(2 x round(ffn_mult, 6) x h / 3)
/// rounded up to a multiple of 256. Layers whose attention has another
/// number of key-value heads than the most common are read with it, and
/// the reading is marked as a guess.
void readNas(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    if (!r.has("block_configs") || !r.json().at("block_configs").is_array()) {
        r.error("block_configs", "missing; expected one entry per layer");
        return;
    }
    const Json &blocks = r.json().at("block_configs");
    if (blocks.size() != m.layers) {
        r.error("block_configs", "has " + std::to_string(blocks.size()) + " entries for " + std::to_string(m.layers)
                                     + " layers");
        return;
    }
    std::map<std::uint64_t, std::uint64_t> widths;
    std::map<std::uint64_t, std::uint64_t> groups;
    const auto flag = [](const Json &part, const char *key) {
        return part.is_object() && part.contains(key) && part.at(key).is_boolean() && part.at(key).get<bool>();
    };
    m.layersWithoutMixer = m.layersWithoutMlp = m.mixersAsLinear = m.mlpsAsLinear = 0;
    m.mlpWidths.clear();
    for (const Json &block : blocks) {
        const Json &attention = block.is_object() && block.contains("attention") ? block.at("attention") : Json();
        const Json &ffn = block.is_object() && block.contains("ffn") ? block.at("ffn") : Json();
        if (flag(attention, "no_op") || flag(attention, "replace_with_linear")) {
            ++m.layersWithoutMixer;
            m.mixersAsLinear += flag(attention, "replace_with_linear") ? 1 : 0;
        } else if (attention.is_object() && attention.contains("n_heads_in_group")
                   && attention.at("n_heads_in_group").is_number_unsigned()) {
            ++groups[attention.at("n_heads_in_group").get<std::uint64_t>()];
        }
        if (flag(ffn, "no_op") || flag(ffn, "replace_with_linear")) {
            ++m.layersWithoutMlp;
            m.mlpsAsLinear += flag(ffn, "replace_with_linear") ? 1 : 0;
        } else if (ffn.is_object() && ffn.contains("ffn_mult") && ffn.at("ffn_mult").is_number()) {
            const double mult = std::round(ffn.at("ffn_mult").get<double>() * 1e6) / 1e6; // FFNConfig: round(, 6)
            if (!(mult > 0 && mult < 1024)) {
                r.error("block_configs", "holds an ffn_mult outside (0, 1024)");
                return;
            }
            const auto inner = static_cast<std::uint64_t>(2.0 * mult * static_cast<double>(m.hidden) / 3.0);
            m.mlpWidths.push_back((inner + 255) / 256 * 256);
            ++widths[m.mlpWidths.back()];
        } else {
            r.error("block_configs", "holds an ffn that is neither no_op, replace_with_linear nor ffn_mult");
            return;
        }
    }
    const auto mostCommon = [](const std::map<std::uint64_t, std::uint64_t> &counts) {
        return std::max_element(counts.begin(), counts.end(),
                                [](const auto &a, const auto &b) { return a.second < b.second; });
    };
    if (!widths.empty())
        m.intermediate = mostCommon(widths)->first;
    if (widths.size() < 2)
        m.mlpWidths.clear();
    if (!groups.empty() && mostCommon(groups)->first > 0 && m.heads % mostCommon(groups)->first == 0)
        m.kvHeads = m.heads / mostCommon(groups)->first;
    m.normPerBlock = true;
    // The top-level num_key_value_heads and intermediate_size are null:
    // block_configs decides them.
    k.decidedElsewhere("num_key_value_heads");
    k.decidedElsewhere("intermediate_size");
    m.shapeGuessed = groups.size() > 1;
    if (m.shapeGuessed)
        k.assume("block_configs", std::to_string(groups.size()) + " attention shapes read as the most common ("
                                      + std::to_string(m.kvHeads) + " key-value heads)",
                 "a key-value head count per layer is not modelled yet");
}

/// Gemma 4 (configuration_gemma4.py Gemma4TextConfig.__post_init__ and
/// modeling_gemma4.py, transformers c49429ed): sliding layers have head_dim
/// and num_key_value_heads; full-attention layers global_head_dim (default
/// 512) and, where attention_k_eq_v, num_global_key_value_heads with no
/// v_proj (K and V are both still cached: V is taken from k_proj before
/// the norms). The last num_kv_shared_layers reuse the keys and values of
/// an earlier layer (no k_proj, v_proj, k_norm or cache); with
/// use_double_wide_mlp their MLP is twice as wide. Per-layer inputs when
/// hidden_size_per_layer_input is set (Gemma4TextConfig default 256, null
/// or 0: none; the 12B's Gemma4UnifiedTextConfig has none), with their
/// per-layer norm. enable_moe_block adds the router (with its scales) and
/// experts to every layer's dense MLP, and three norms. Each layer stores
/// its layer_scalar.
void readGemma4(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    const bool unified = m.family == "gemma4_unified_text";
    if (!r.has("layer_types")) {
        // Every sixth layer global, and the last one always (__post_init__).
        m.slidingLayers = 0;
        for (std::uint64_t i = 0; i + 1 < m.layers; ++i)
            m.slidingLayers += (i + 1) % 6 != 0 ? 1 : 0;
    }
    m.layerScalars = true;
    m.slidingKvHeads = m.kvHeads;
    m.slidingHeadDim = m.headDim;
    m.headDim = k.uint("global_head_dim", 1, kMaxDim, 512);
    m.keyIsValue = r.boolean("attention_k_eq_v", false).value_or(false);
    if (m.keyIsValue && r.has("num_global_key_value_heads"))
        m.kvHeads = k.firstUint({"num_global_key_value_heads"}, 1, m.heads).value_or(m.kvHeads);
    m.kvSharedLayers = std::min(m.layers, k.firstUint({"num_kv_shared_layers"}, 0, kMaxLayers).value_or(0));
    if (r.boolean("use_double_wide_mlp", false).value_or(false))
        m.wideMlpLayers = m.kvSharedLayers;
    // A null hidden_size_per_layer_input switches the inputs off; only an
    // absent key takes the class default.
    const char *ple = "hidden_size_per_layer_input";
    const bool pleNull = r.json().contains(ple) && r.json().at(ple).is_null();
    m.perLayerInputWidth = unified || pleNull ? 0 : k.uint(ple, 0, kMaxDim, 256);
    if (unified && k.firstUint({ple}, 0, kMaxDim).value_or(0) > 0)
        r.error(ple, "is set, but the 12B's unified model has no per-layer inputs");
    const auto pleVocab = k.firstUint({"vocab_size_per_layer_input"}, 1, kMaxVocab);
    if (m.perLayerInputWidth > 0) {
        m.perLayerInputVocab = pleVocab ? *pleVocab : k.uint("vocab_size_per_layer_input", 1, kMaxVocab, 262144);
        m.normsPerLayer += 1; // post_per_layer_input_norm
    }
    if (!r.boolean("enable_moe_block", false).value_or(false)) {
        m.moe = MoeSpec{};
    } else if (m.moe.isMoe()) {
        m.moe.withDenseMlp = true;
        m.moe.routerScales = true;
        m.normsPerLayer += 3; // post_feedforward_layernorm_1 and _2, pre_feedforward_layernorm_2
    } else {
        r.error("num_experts", "missing; enable_moe_block needs the experts");
    }
}

/// MiMo-V2-Flash: hybrid_layer_pattern names the sliding-window layers (1)
/// and the full-attention ones (0) (vLLM is_compressed_softmax_layer); the
/// sliding layers have their own key-value heads and head sizes
/// (swa_num_key_value_heads, swa_head_dim, swa_v_head_dim) and, with
/// add_swa_attention_sink_bias, one sink per head; v_head_dim is narrower
/// than head_dim in both kinds (o_proj reads heads x v_head_dim). The
/// sliding window is sliding_window_size (vLLM and SGLang read it).
void readMiMoV2(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    const std::vector<std::uint64_t> pattern = k.uints("hybrid_layer_pattern", m.layers);
    if (pattern.size() != m.layers)
        r.error("hybrid_layer_pattern", "has " + std::to_string(pattern.size()) + " entries for "
                                            + std::to_string(m.layers) + " layers");
    if (std::any_of(pattern.begin(), pattern.end(), [](std::uint64_t v) { return v > 1; }))
        r.error("hybrid_layer_pattern", "expected 0 (full attention) or 1 (sliding window) for each layer");
    m.slidingLayers = static_cast<std::uint64_t>(std::count(pattern.begin(), pattern.end(), 1u));
    m.slidingWindow = k.firstUint({"sliding_window_size", "sliding_window"}, 1, ModelLimits::maxPositions, true)
                          .value_or(0);
    // attention_chunk_size repeats the window; neither engine reads it.
    k.firstUint({"attention_chunk_size"}, 1, ModelLimits::maxPositions);
    m.valueHeadDim = k.uint("v_head_dim", 1, kMaxDim, m.headDim);
    m.slidingKvHeads = k.uint("swa_num_key_value_heads", 1, m.heads, m.kvHeads);
    m.slidingHeadDim = k.uint("swa_head_dim", 1, kMaxDim, m.headDim);
    m.slidingValueHeadDim = k.uint("swa_v_head_dim", 1, kMaxDim, m.valueHeadDim);
    const std::uint64_t swaHeads = k.uint("swa_num_attention_heads", 1, kMaxDim, m.heads);
    m.slidingHeads = swaHeads != m.heads ? swaHeads : 0;
    if (swaHeads % m.slidingKvHeads != 0)
        r.error("swa_num_attention_heads", "must be a multiple of swa_num_key_value_heads");
    const bool swaSinks = r.boolean("add_swa_attention_sink_bias", false).value_or(false);
    const bool fullSinks = r.boolean("add_full_attention_sink_bias", false).value_or(false);
    m.attentionSinks = swaSinks || fullSinks;
    m.sinksWindowedOnly = swaSinks && !fullSinks;
    if (fullSinks && !swaSinks)
        r.error("add_full_attention_sink_bias", "without add_swa_attention_sink_bias is not modelled");
    m.moe.routerBias = r.string("topk_method", false).value_or("") == "noaux_tc";
}

/// DeepSeek-V4 (the checkpoint's inference/model.py, the reference code;
/// transformers configuration_deepseek_v4.py 015c0781; vLLM deepseek_v4.py):
/// queries through q_lora_rank, one head_dim-wide latent as key and value
/// (num_key_value_heads 1), a sink per head, o_groups x o_lora_rank grouped
/// output; compress_ratios per layer (the list also holds the MTP layers'
/// ratios after the main ones, which transformers cuts off), the indexer
/// (index_n_heads, index_head_dim) in the ratio-4 layers; hc_mult
/// hyper-connections; num_hash_layers hash-routed first layers; every
/// layer MoE with a noaux_tc router bias; num_nextn_predict_layers MTP
/// modules (counted on request).
void readDeepSeekV4(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.qLoraRank = k.uint("q_lora_rank", 1, kMaxDim, 1024);
    m.ropeHeadDim = k.uint("qk_rope_head_dim", 1, kMaxDim, 64);
    // transformers' DeepseekV4Config also writes the rest of the head.
    const std::uint64_t nope = m.headDim - std::min(m.headDim, m.ropeHeadDim);
    if (k.firstUint({"qk_nope_head_dim"}, 0, kMaxDim).value_or(nope) != nope)
        r.error("qk_nope_head_dim", "must be head_dim less qk_rope_head_dim");
    m.outputGroups = k.uint("o_groups", 1, kMaxDim, 8);
    m.outputLoraRank = k.uint("o_lora_rank", 1, kMaxDim, 1024);
    m.hyperConnections = k.uint("hc_mult", 1, 64, 4);
    m.hashRoutedLayers = std::min(m.layers, k.firstUint({"num_hash_layers"}, 0, kMaxLayers).value_or(0));
    m.indexHeads = k.uint("index_n_heads", 1, kMaxDim, 64);
    m.indexHeadDim = k.uint("index_head_dim", 1, kMaxDim, 128);
    m.attentionSinks = true;
    m.moe.routerBias = r.string("topk_method", false).value_or("noaux_tc") == "noaux_tc";
    std::vector<std::uint64_t> ratios = k.uints("compress_ratios", kMaxLayers);
    if (ratios.size() < m.layers) {
        r.error("compress_ratios", "has " + std::to_string(ratios.size()) + " entries for " + std::to_string(m.layers)
                                       + " layers");
        return;
    }
    ratios.resize(m.layers);
    if (std::any_of(ratios.begin(), ratios.end(), [](std::uint64_t v) { return v > ModelLimits::maxPositions; }))
        r.error("compress_ratios", "holds a ratio above " + std::to_string(ModelLimits::maxPositions));
    if (distinctRatios(ratios) > kMaxCacheGroups)
        r.error("compress_ratios", "holds more than " + std::to_string(kMaxCacheGroups) + " different ratios");
    m.compressRatios = ratios;
    // One MTP module per num_nextn_predict_layers, counted on request.
    m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0);
    if (m.heads % m.outputGroups != 0)
        r.error("o_groups", "must divide num_attention_heads");
}

/// MiniMax-M1: attn_type_list names each layer's attention, 0 lightning
/// (linear) and 1 softmax (vLLM MiniMaxText01Model); the lightning layers
/// run every head (num_attention_heads x head_dim) with no key-value
/// grouping; the experts are intermediate_size wide. A shared MLP
/// (shared_intermediate_size) is not modelled and refused.
void readMiniMaxM1(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    const std::vector<std::uint64_t> kinds = k.uints("attn_type_list", m.layers);
    if (!kinds.empty() && kinds.size() != m.layers)
        r.error("attn_type_list", "has " + std::to_string(kinds.size()) + " entries for " + std::to_string(m.layers)
                                      + " layers");
    if (!kinds.empty())
        m.linearLayers = static_cast<std::uint64_t>(std::count(kinds.begin(), kinds.end(), 0u));
    m.lightningAttention = true;
    m.linearKeyHeads = m.linearValueHeads = m.heads;
    m.linearKeyDim = m.linearValueDim = m.headDim;
    m.linearConvKernel = 0;
    if (k.firstUint({"shared_intermediate_size"}, 0, kMaxDim).value_or(0) > 0)
        r.error("shared_intermediate_size", "a MiniMax shared MLP is not modelled");
    r.string("shared_moe_mode", false); // only with a shared MLP
}

/// LFM2 (configuration_lfm2.py, modeling_lfm2.py at transformers
/// 0096ba4f): layer_types "conv" layers are gated short convolutions of
/// conv_L_cache (default 3); with block_auto_adjust_ff_dim the MLP is
/// int(2 x block_ff_dim / 3) x block_ffn_dim_multiplier, rounded up to
/// block_multiple_of (Lfm2MLP), not intermediate_size; tie_embedding
/// (default True) ties the head. Older configs list the attention layers
/// in full_attn_idxs instead of layer_types.
void readLfm2(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.shortConv = true;
    m.linearConvKernel = k.uint("conv_L_cache", 1, 1024, 3);
    if (r.boolean("conv_bias", false).value_or(false))
        r.error("conv_bias", "true (biases on the short convolution) is not modelled");
    const std::uint64_t ff = k.firstUint({"block_ff_dim"}, 1, kMaxDim).value_or(m.intermediate);
    if (r.boolean("block_auto_adjust_ff_dim", false).value_or(false)) {
        const double multiplier = r.number("block_ffn_dim_multiplier", 0.01, 100, false).value_or(1.0);
        const std::uint64_t multiple = k.uint("block_multiple_of", 1, kMaxDim, 256);
        const auto width = static_cast<std::uint64_t>(static_cast<double>(2 * ff / 3) * multiplier);
        m.intermediate = (width + multiple - 1) / multiple * multiple;
    } else {
        m.intermediate = ff;
    }
    m.tiedEmbeddings = r.boolean("tie_embedding", false).value_or(m.tiedEmbeddings);
    m.gatedMlp = r.boolean("block_use_swiglu", false).value_or(true);
    // Configs written before layer_types name the attention layers in
    // full_attn_idxs, and every other layer is a convolution
    // (Lfm2Config.__init__: "full_attention" if i in full_attn_idxs else
    // "conv"; every layer attends where neither key is given).
    if (!r.has("layer_types") && r.has("full_attn_idxs")) {
        std::vector<std::uint64_t> attention = k.uints("full_attn_idxs", m.layers);
        std::sort(attention.begin(), attention.end());
        attention.erase(std::unique(attention.begin(), attention.end()), attention.end());
        if (!attention.empty() && attention.back() >= m.layers)
            r.error("full_attn_idxs", "names layer " + std::to_string(attention.back()) + " of "
                                          + std::to_string(m.layers) + " layers");
        else
            m.linearLayers = m.layers - attention.size();
    }
    for (const char *key : {"block_dim", "conv_dim", "conv_dim_out"})
        if (k.firstUint({key}, 1, kMaxDim).value_or(m.hidden) != m.hidden)
            r.error(key, "differs from hidden_size, which is not modelled");
}

/// Kimi Linear / Kimi K3: linear_attn_config names the Kimi Delta Attention
/// layers (kda_layers, 1-based: vLLM and sglang KimiLinearConfig.is_kda_layer)
/// with num_heads heads of head_dim, a short conv of short_conv_kernel_size
/// and, with use_full_rank_gate, a full-rank output gate; the other layers
/// are MLA (readMla) with, where mla_use_output_gate, a gate over their
/// output. num_shared_experts experts' width is one shared MLP (sglang
/// KimiK3MoE); routed_expert_hidden_size is a latent MoE with
/// routed_expert_norm (latent_moe_use_norm); attn_res_block_size adds the
/// block attention residuals' norms and pseudo-queries. The stored A_log
/// is padded past num_heads in Kimi K3; it is counted at num_heads.
void readKimiLinear(ConfigKeys &k, ModelSpec &m)
{
    readMla(k, m);
    JsonReader &r = k.reader();
    std::optional<JsonReader> linear = r.object("linear_attn_config", true);
    if (!linear)
        return;
    std::vector<std::uint64_t> kda;
    if (linear->has("kda_layers") && linear->json().at("kda_layers").is_array())
        for (const Json &v : linear->json().at("kda_layers"))
            if (v.is_number_unsigned() && v.get<std::uint64_t>() >= 1 && v.get<std::uint64_t>() <= m.layers)
                kda.push_back(v.get<std::uint64_t>());
    std::vector<std::uint64_t> distinct = kda;
    std::sort(distinct.begin(), distinct.end());
    const bool repeated = std::unique(distinct.begin(), distinct.end()) != distinct.end();
    if (kda.empty() || kda.size() != linear->json().at("kda_layers").size() || repeated) {
        linear->error("kda_layers", "expected the distinct 1-based numbers (1 to " + std::to_string(m.layers)
                                        + ") of the Kimi Delta Attention layers");
        return;
    }
    m.linearLayers = kda.size();
    m.kimiDeltaAttention = true;
    m.linearKeyHeads = m.linearValueHeads = linear->uint("num_heads", 1, kMaxDim, true).value_or(1);
    m.linearKeyDim = m.linearValueDim = linear->uint("head_dim", 1, kMaxDim, true).value_or(1);
    m.linearConvKernel = linear->uint("short_conv_kernel_size", 1, 1024, false).value_or(4);
    m.fullRankOutputGate = linear->boolean("use_full_rank_gate", false).value_or(false);
    m.gatedAttention = r.boolean("mla_use_output_gate", false).value_or(false);
    r.boolean("mla_use_nope", false); // NoPE: the RoPE part is still projected and cached
    m.moe.sharedExperts += static_cast<int>(k.firstUint({"num_shared_experts"}, 0, 1024).value_or(0));
    m.moe.latentWidth = k.firstUint({"routed_expert_hidden_size"}, 1, kMaxDim).value_or(0);
    m.moe.latentNorm = m.moe.latentWidth > 0 && r.boolean("latent_moe_use_norm", false).value_or(false);
    m.blockAttentionResiduals = k.firstUint({"attn_res_block_size"}, 1, kMaxLayers).has_value();
}

/// Routed experts; which layers are MoE (DeepSeek first_k_dense_replace and
/// moe_layer_freq, Qwen decoder_sparse_step and mlp_only_layers, Llama 4
/// interleave_moe_layer_step: layer i is MoE when (i + 1) % step == 0).
void readMoe(ConfigKeys &k, ModelSpec &m)
{
    const auto experts = k.firstUint({"num_local_experts", "num_experts", "n_routed_experts"}, 0, 1u << 16);
    if (!experts || *experts == 0)
        return;
    // A config that spells the count twice (GLM-5.2 NVFP4) must agree with itself.
    for (const char *key : {"num_experts", "n_routed_experts"})
        if (k.firstUint({key}, 0, 1u << 16).value_or(*experts) != *experts)
            k.reader().error(key, "disagrees with the config's other expert count");
    m.moe.experts = static_cast<int>(*experts);
    // Hunyuan writes moe_topk, moe_intermediate_size and num_shared_expert
    // as one entry per layer.
    m.moe.expertsPerToken = static_cast<int>(
        k.firstLayerUint({"num_experts_per_tok", "experts_per_token", "num_experts_per_token", "top_k_experts",
                          "moe_topk"},
                         m.layers, 1, *experts, true)
            .value_or(1));
    // Llama 4's experts and shared expert are intermediate_size wide, its
    // dense layers intermediate_size_mlp; MiniMax-M3's dense layers
    // dense_intermediate_size (MiniMaxM3VLDenseMLP).
    // A config that names the experts' width itself keeps it.
    const bool expertWidthKey = k.reader().has("moe_intermediate_size") || k.reader().has("expert_intermediate_size");
    const char *denseWidth = k.reader().has("intermediate_size_mlp")                    ? "intermediate_size_mlp"
        : k.reader().has("dense_intermediate_size") && !expertWidthKey ? "dense_intermediate_size"
                                                                       : nullptr;
    if (denseWidth) {
        m.moe.expertIntermediate = m.intermediate;
        m.intermediate = k.uint(denseWidth, 1, kMaxDim, m.intermediate);
        if (std::string(denseWidth) == "intermediate_size_mlp")
            m.moe.sharedExperts = 1; // Llama4TextMoe.shared_expert
    } else if (m.intermediate > 0) {
        const auto width = k.firstLayerUint({"moe_intermediate_size", "expert_intermediate_size"}, m.layers, 1, kMaxDim);
        m.moe.expertIntermediate = width ? *width
                                         : k.firstUintOr({"moe_intermediate_size"}, 1, kMaxDim, m.intermediate,
                                                         "intermediate_size: experts as wide as the MLP");
    } else {
        m.moe.expertIntermediate =
            k.firstUint({"moe_intermediate_size", "expert_intermediate_size"}, 1, kMaxDim, true).value_or(0);
    }
    // The layout keys below exist only in the families that use them; an
    // absent one means the plain layout (every layer MoE), not a default.
    m.moe.sharedExperts += static_cast<int>(k.firstUint({"n_shared_experts"}, 0, 1024).value_or(0));
    // Qwen's spelling, as one MLP's width (Qwen3-Coder writes 0: none).
    if (const std::uint64_t shared = k.firstUint({"shared_expert_intermediate_size"}, 0, kMaxDim).value_or(0))
        setSharedExpertWidth(k, m, "shared_expert_intermediate_size", shared);

    const std::uint64_t L = m.layers;
    const std::optional<std::uint64_t> firstDenseKey = k.firstUint({"first_k_dense_replace"}, 0, kMaxLayers);
    const std::uint64_t firstDense = std::min(L, firstDenseKey.value_or(0));
    // moe_layer_freq is a period (DeepSeek: layer i >= first_k_dense_replace
    // is MoE when i % freq == 0) or, in MiniMax-M3 and MiMo-V2-Flash, one
    // 0/1 entry per layer (their modeling code: moe_layer_freq[layer_idx]).
    const bool freqPerLayer = k.reader().has("moe_layer_freq") && k.reader().json().at("moe_layer_freq").is_array();
    const std::vector<std::uint64_t> moePerLayer = freqPerLayer ? k.uints("moe_layer_freq", L) : std::vector<std::uint64_t>{};
    if (freqPerLayer && moePerLayer.size() != L)
        k.reader().error("moe_layer_freq", "has " + std::to_string(moePerLayer.size()) + " entries for "
                                               + std::to_string(L) + " layers");
    const std::uint64_t freq = freqPerLayer ? 1 : k.firstUint({"moe_layer_freq"}, 1, kMaxLayers).value_or(1);
    const std::optional<std::uint64_t> stepKey =
        k.firstUint({"interleave_moe_layer_step", "decoder_sparse_step"}, 1, kMaxLayers);
    const std::uint64_t step = stepKey.value_or(1);
    const std::vector<std::uint64_t> mlpOnly = k.uints("mlp_only_layers", L);
    // The file spells the layout the older way (then mlp_layer_types below
    // must agree with it).
    const bool olderLayout =
        firstDenseKey || k.reader().has("moe_layer_freq") || stepKey || k.reader().has("mlp_only_layers");
    std::uint64_t moeLayers = 0;
    for (std::uint64_t i = firstDense; i < L; ++i) {
        const bool listedDense = i < moePerLayer.size() && moePerLayer[i] == 0;
        if (!listedDense && i % freq == 0 && (i + 1) % step == 0
            && std::find(mlpOnly.begin(), mlpOnly.end(), i) == mlpOnly.end())
            ++moeLayers;
    }
    m.moe.denseLayers = static_cast<int>(L - moeLayers);
    // transformers 5 writes the layout out as mlp_layer_types: "dense" or
    // "sparse" per layer. Where the file also spells it the older way
    // (GLM-5.2, Laguna S 2.1) the two must agree; alone (Laguna XS.2,
    // whose LagunaConfig has no other layout key) it decides.
    const std::vector<std::string> types = k.reader().strings("mlp_layer_types", kMaxLayers);
    if (types.empty())
        return;
    const auto sparse = static_cast<std::uint64_t>(std::count(types.begin(), types.end(), "sparse"));
    if (types.size() != L || sparse + static_cast<std::uint64_t>(std::count(types.begin(), types.end(), "dense")) != L)
        k.reader().error("mlp_layer_types", "expected one 'dense' or 'sparse' for each of the " + std::to_string(L)
                                                + " layers");
    else if (!olderLayout)
        m.moe.denseLayers = static_cast<int>(L - sparse);
    else if (sparse != moeLayers)
        k.reader().error("mlp_layer_types", "names " + std::to_string(sparse) + " MoE layers, the other keys "
                                                + std::to_string(moeLayers));
}

/// The part of a full-attention head RoPE rotates (transformers
/// modeling_rope_utils.py: int(head_dim x partial_rotary_factor), read at
/// the top of the text config or in its rope_parameters, for layer kinds
/// under rope_parameters.full_attention; GPT-NeoX's rotary_pct; MiniMax's
/// rotary_dim, which wins where both are written). 0 for the whole head.
/// And the sliding layers' own: rope_parameters.sliding_attention (its
/// partial factor, else the whole head) or Gemma 3's rope_local_base_freq.
void readRotaryDims(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    if (const auto dims = k.firstUint({"rotary_dim"}, 1, kMaxDim)) {
        r.number("partial_rotary_factor", 0.0, 1.0, false);
        m.rotaryDims = std::min(*dims, m.headDim);
        return;
    }
    std::optional<double> factor = r.number("partial_rotary_factor", 0.0, 1.0, false);
    if (!factor)
        factor = r.number("rotary_pct", 0.0, 1.0, false);
    std::optional<double> slidingFactor;
    if (r.has("rope_parameters") && r.json().at("rope_parameters").is_object()) {
        if (auto rope = r.object("rope_parameters", false)) {
            const auto kindFactor = [&](const char *kind, std::optional<double> &out, bool present) {
                if (rope->has(kind) && rope->json().at(kind).is_object())
                    if (auto params = rope->object(kind, false)) {
                        out = params->number("partial_rotary_factor", 0.0, 1.0, false);
                        if (!out && present)
                            out = 1.0;
                    }
            };
            if (!factor)
                factor = rope->number("partial_rotary_factor", 0.0, 1.0, false);
            if (!factor)
                kindFactor("full_attention", factor, false);
            kindFactor("sliding_attention", slidingFactor, true);
        }
    }
    // The sliding layers' own RoPE: a second cache of their head's width
    // (or its rotated part).
    if (r.number("rope_local_base_freq", 0.0, 1e300, false))
        slidingFactor = 1.0; // Gemma 3: the local layers' own base, the whole head
    if (m.slidingLayers > 0) {
        const std::uint64_t slidingHead = m.slidingHeadDim > 0 ? m.slidingHeadDim : m.headDim;
        if (slidingFactor)
            m.slidingRotaryDims = static_cast<std::uint64_t>(static_cast<double>(slidingHead) * *slidingFactor);
    }
    // A factor that leaves nothing rotated is NoPE.
    if (factor && *factor < 1.0) {
        m.rotaryDims = static_cast<std::uint64_t>(static_cast<double>(m.headDim) * *factor);
        m.noRope = m.noRope || m.rotaryDims == 0;
    }
}

/// Per-layer attention kinds from `layer_types` (transformers >= 4.53
/// writes it for every family with mixed layers).
void readLayerTypes(ConfigKeys &k, ModelSpec &m)
{
    const std::vector<std::string> types = k.reader().strings("layer_types", kMaxLayers);
    if (types.empty())
        return;
    // Step-3.5 also lists its MTP layers after the main ones (vLLM's
    // Step3p5Config and transformers' Step3p7TextConfig cut the list to
    // num_hidden_layers).
    const bool cutToLayers = m.family == "step3p5";
    if (types.size() < m.layers || (types.size() > m.layers && !cutToLayers))
        k.reader().error("layer_types", "has " + std::to_string(types.size()) + " entries for "
                                            + std::to_string(m.layers) + " layers");
    m.slidingLayers = 0;
    m.linearLayers = 0;
    // transformers' configuration_utils.py ALLOWED_LAYER_TYPES names more
    // kinds than these; one this planner does not model yet is read as full
    // attention (the largest cache of any kind) and said so, not refused.
    std::map<std::string, std::uint64_t> unmodelled;
    const std::size_t mainLayers = std::min<std::size_t>(types.size(), m.layers);
    for (auto it = types.begin(); it != types.begin() + static_cast<std::ptrdiff_t>(mainLayers); ++it) {
        const std::string &t = *it;
        if (t == "sliding_attention" || t == "chunked_attention")
            ++m.slidingLayers;
        else if (t == "linear_attention" || (t == "conv" && m.family == "lfm2"))
            ++m.linearLayers; // LFM2's short convolutions: readLfm2
        else if (t == "mamba" && (m.family == "granitemoehybrid" || m.family == "bamba"))
            ++m.mambaLayers; // Bamba's mixer: readGraniteHybrid, readBamba
        // "attention" is the legacy spelling (remap_legacy_layer_types);
        // DeepSeek-V3.2's sparse attention caches what MLA caches.
        // MiniMax-M3's sparse layers keep every token's K and V too.
        // Falcon-H1's "hybrid" layers attend beside their Mamba block
        // (readFalconH1 counts the Mamba blocks).
        else if (t != "full_attention" && t != "attention" && t != "deepseek_sparse_attention"
                 && t != "minimax_m3_sparse" && !(t == "hybrid" && m.family == "falcon_h1"))
            ++unmodelled[t];
    }
    for (const auto &[kind, count] : unmodelled)
        k.assume("layer_types", std::to_string(count) + " '" + kind + "' layers read as full attention",
                 "a layer kind this planner does not model");
}

/// Sliding-window layers: Gemma 2 alternates, Gemma 3 and Cohere2 keep one
/// global layer in sliding_window_pattern (layer i slides unless (i + 1) %
/// pattern == 0; Gemma3TextConfig's default 6, Cohere2Config's 4),
/// Mistral-style configs slide everywhere.
void readSlidingWindow(ConfigKeys &k, const std::string &type, ModelSpec &m)
{
    if (m.chunkedAttention)
        return;
    if (type == "dots1") {
        // Dots1Config.__post_init__: layer i slides when sliding_window is
        // set and i >= max_window_layers (default 62); use_sliding_window
        // is not its key.
        k.reader().boolean("use_sliding_window", false);
        const auto window = k.firstUint({"sliding_window"}, 1, ModelLimits::maxPositions);
        if (!window || k.reader().has("layer_types"))
            return;
        m.slidingWindow = *window;
        m.slidingLayers = m.layers - std::min(m.layers, k.uint("max_window_layers", 0, kMaxLayers, 62));
        return;
    }
    if (k.reader().has("use_sliding_window") && !k.reader().boolean("use_sliding_window", false).value_or(false)) {
        k.firstUint({"sliding_window"}, 1, ModelLimits::maxPositions); // read, and unused
        return; // Qwen2/Qwen3 ship a window they do not use
    }
    const bool gemma3 = type == "gemma3_text";
    const bool patterned = gemma3 || type == "cohere2";
    const auto window = patterned ? std::optional(k.uint("sliding_window", 1, ModelLimits::maxPositions, 4096))
                                  : k.firstUint({"sliding_window"}, 1, ModelLimits::maxPositions);
    if (!window)
        return;
    m.slidingWindow = *window;
    if (k.reader().has("layer_types") || k.reader().has("hybrid_layer_pattern"))
        return;
    if (type == "gemma2") {
        m.slidingLayers = (m.layers + 1) / 2; // even layers slide (modeling_gemma2.py)
    } else if (patterned) {
        const std::uint64_t pattern = k.uint("sliding_window_pattern", 1, kMaxLayers, gemma3 ? 6 : 4);
        m.slidingLayers = m.layers - m.layers / pattern;
    } else {
        m.slidingLayers = m.layers;
    }
}

/// Family-specific switches that are not a table column.
void readFamilyQuirks(ConfigKeys &k, const std::string &ftype, ModelSpec &m)
{
    JsonReader &r = k.reader();
    const bool falconNew = r.boolean("new_decoder_architecture", false).value_or(false);
    if (ftype == "falcon") {
        // modeling_falcon.py: one LayerNorm for parallel attention unless the
        // new decoder architecture (ln_attn + ln_mlp); `bias` switches every
        // linear bias.
        const bool parallel = r.boolean("parallel_attn", false).value_or(true);
        m.normsPerLayer = falconNew ? 2 : (parallel ? 1 : 2);
        m.parallelBlock = parallel;
        const bool bias = r.boolean("bias", false).value_or(false);
        m.qkvBias = m.attnOutBias = m.mlpBias = bias;
        // FalconConfig.rotary is `not alibi`.
        m.noRope = r.boolean("alibi", false).value_or(false);
    } else if (ftype == "phi") {
        m.parallelBlock = true;
        m.lmHeadBias = true;
    } else if (ftype == "gpt_neox") {
        m.parallelBlock = r.boolean("use_parallel_residual", false).value_or(true);
        m.qkvBias = m.attnOutBias = r.boolean("attention_bias", false).value_or(true);
    } else if (ftype == "bert") {
        m.tokenTypes = k.uint("type_vocab_size", 0, 1u << 20, 2);
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
    } else if (ftype == "olmo3" || ftype == "olmo2" || ftype == "olmoe") {
        // Olmo3Attention, Olmo2Attention, OlmoeAttention: RMSNorm(num_heads * head_dim)
        m.qkNormWholeProjection = true;
    } else if (ftype == "exaone4") {
        // EXAONE 4.5 ships one MTP layer (vLLM exaone4_5_mtp.py: fc 2h -> h,
        // two pre-fc norms, one Exaone4DecoderLayer, a norm; the embedding
        // and head shared: mtp_share_layers), counted on request.
        m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0);
        k.firstUint({"_num_mtp_layers"}, 0, 1024);
        r.boolean("mtp_share_layers", false);
    } else if (ftype == "mimo") {
        m.attnOutBias = false; // Qwen2Attention: attention_bias switches q/k/v only
        m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0);
    } else if (ftype == "qwen3_next") {
        // The checkpoints ship mtp.* (one full-attention decoder layer, fc
        // 2h -> h and three norms) that no config key declares; vLLM
        // qwen3_next_mtp.py builds num_nextn_predict_layers of them, 1 when
        // absent. Counted on request.
        m.mtpLayers = k.firstUintOr({"num_nextn_predict_layers"}, 0, 1024, 1,
                                    "vLLM qwen3_next_mtp.py: one MTP layer when the config names none");
    } else if (ftype == "seed_oss") {
        m.qkvBias = r.boolean("attention_bias", false).value_or(true);
        m.attnOutBias = r.boolean("attention_out_bias", false).value_or(false);
    } else if (ftype == "cohere2") {
        m.parallelBlock = true; // Cohere2DecoderLayer: residual + attention + MLP of one normed input
        m.headDim = m.hidden / std::max<std::uint64_t>(1, m.heads); // Cohere2Config.__post_init__ sets it so
        r.string("position_embedding_type", false); // "rope_gptj": RoPE on interleaved pairs, no weights
    } else if (ftype == "apertus") {
        // ApertusMLP: ACT2CLS["xielu"], XIELUActivation's alpha_p and alpha_n.
        m.mlpActivationParams = activationName(k) == "xielu" ? 2 : 0;
        m.mlpBias = false; // ApertusMLP builds up_proj and down_proj with bias=False whatever mlp_bias says
    } else if (ftype == "dots1") {
        m.moe.routerBias = true; // DeepseekV3TopkRouter registers e_score_correction_bias
    } else if (ftype == "step3p5") {
        m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0); // readStep3p5
    } else if (ftype == "glm4_moe") {
        m.attnOutBias = false;
        m.qkNorm = r.boolean("use_qk_norm", false).value_or(false);
        m.moe.routerBias = true;
        m.mtpLayers = k.firstUint({"num_nextn_predict_layers"}, 0, 1024).value_or(0);
    }
}

void readDropoutAndActivation(ConfigKeys &k, ModelSpec &m)
{
    JsonReader &r = k.reader();
    m.attentionDropout = r.number("attention_dropout", 0, 1, false)
                             .value_or(r.number("attn_pdrop", 0, 1, false)
                                           .value_or(r.number("attention_probs_dropout_prob", 0, 1, false).value_or(0)));
    m.hiddenDropout = r.number("hidden_dropout", 0, 1, false)
                          .value_or(r.number("resid_pdrop", 0, 1, false)
                                        .value_or(r.number("hidden_dropout_prob", 0, 1, false)
                                                      .value_or(r.number("residual_dropout", 0, 1, false).value_or(0))));
    // Python tanh-GELU saves four I-wide tensors; fused kernels save one.
    const std::string act = activationName(k);
    m.activationSavedTensors = (act == "gelu_new" || act == "gelu_fast") ? 4 : 1;
}

/// The language model of a config: the object itself, or its text_config.
/// Sparse configs are completed with the family's class defaults first
/// (familydefaults.cpp), each recorded in `defaulted`.
struct TextPart
{
    Json json;
    std::string pointer;
    std::string modelType;
    std::vector<std::string> defaulted;
};

TextPart textPart(JsonReader &top, const std::string &topType)
{
    TextPart part;
    if (!top.has("text_config") || !top.json().at("text_config").is_object()) {
        part.modelType = topType;
        part.json = withFamilyDefaults(top.json(), topType, part.defaulted);
        return part;
    }
    const Json &text = top.json().at("text_config");
    if (text.contains("model_type") && text.at("model_type").is_string())
        part.modelType = text.at("model_type").get<std::string>();
    if (part.modelType.empty())
        for (const NestedText &n : kNestedText)
            if (topType == n.modelType)
                part.modelType = n.textType;
    part.pointer = "/text_config";
    part.json = withFamilyDefaults(text, part.modelType.empty() ? topType : part.modelType, part.defaulted);
    return part;
}

/// The checkpoint's own format on the model, once its shape is read (which
/// modules the config names depends on the layers and experts).
void applyQuantization(const CheckpointQuantization &q, const std::vector<LayerBlocks> &layout, ModelSpec &m,
                       std::vector<std::string> &warnings)
{
    m.checkpointFormat = q.format;
    m.checkpointRestFormat = q.restFormat;
    m.checkpointGroupSize = q.format.empty() ? 0 : q.groupSize;
    QuantizedModules modules = quantizedModules(q, m, layout);
    // transformers' FineGrainedFP8 and Mxfp4 and vLLM's Fp8Config replace
    // linear layers only, never the embedding or the output head
    // (ParallelLMHead); gpt-oss's MXFP4 is its experts' format alone.
    if (q.linearLayersOnly) {
        const unsigned kept = q.format == "mxfp4" ? static_cast<unsigned>(kQuantExperts)
                                                  : ~static_cast<unsigned>(kQuantLmHead | kQuantEmbedding);
        modules.targets &= kept;
        modules.partial.erase(std::remove_if(modules.partial.begin(), modules.partial.end(),
                                             [kept](const PartialQuantization &p) { return (p.target & kept) == 0; }),
                              modules.partial.end());
    }
    m.checkpointQuantizedTargets = modules.targets;
    m.checkpointPartialTargets = modules.partial;
    if (!q.restFormat.empty() && !q.restTargets.empty()) {
        CheckpointQuantization rest = q;
        rest.format = q.restFormat;
        rest.targets = q.restTargets;
        rest.listsModules = true;
        const QuantizedModules restModules = quantizedModules(rest, m, layout);
        m.checkpointRestTargets = restModules.targets;
        m.checkpointRestPartialTargets = restModules.partial;
        if (!m.namesRestModules())
            warnings.push_back("quantization_config: no module this planner knows matches the targets of its "
                               + q.restFormat + " scheme; every other linear module of the layers is priced in it");
    }
    if (!q.targets.empty() && !m.namesQuantizedModules())
        warnings.push_back("quantization_config: no module this planner knows matches the targets of its "
                           + q.format + " scheme; priced by the format's own rule");
    // A list that keeps every module out of the format leaves the
    // checkpoint in its dtype.
    if (q.linearLayersOnly && q.listsModules && !m.namesQuantizedModules()) {
        warnings.push_back("quantization_config: its list of modules to leave keeps every module out of " + q.format
                           + "; the weights are taken in the checkpoint's dtype");
        m.checkpointFormat.clear();
        m.checkpointGroupSize = 0;
    }
}

} // namespace

LoadResult<ModelSpec> parseHfConfig(const std::string &text, const std::string &name,
                                    const CheckpointQuantization *besideConfig)
{
    LoadResult<ModelSpec> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected a config.json object");
        return result;
    }
    JsonReader top(*json, "", result.errors);
    const std::string topType = top.string("model_type", false).value_or("");
    const TextPart part = textPart(top, topType);
    JsonReader r(part.json, part.pointer, result.errors);
    const FamilyTraits *family = findFamily(part.modelType);
    const FamilyTraits generic = {"", "", false, NormKind::RmsNorm, 2, true, false, false, false, false, true, false,
                                  nullptr};
    ConfigKeys k(r, family ? family->configClass : nullptr);

    ModelSpec m;
    m.name = name;
    m.family = part.modelType.empty() ? "unknown" : part.modelType;
    m.familyGuessed = family == nullptr;
    if (!family)
        family = &generic;
    m.hidden = k.firstUint({"hidden_size", "n_embd", "d_model"}, 1, kMaxDim, true).value_or(0);
    m.layers = k.firstUint({"num_hidden_layers", "n_layer", "num_layers"}, 1, kMaxLayers, true).value_or(0);
    m.heads = k.firstUint({"num_attention_heads", "n_head"}, 1, kMaxDim, true).value_or(0);
    m.vocab = k.firstUint({"vocab_size", "padded_vocab_size"}, 1, kMaxVocab, true).value_or(0);
    const std::string ftype = family->modelType;
    const bool defaultWideMlp = ftype == "gpt2" || ftype == "gpt_bigcode" || ftype == "falcon";
    // Required only where a dense MLP uses it (checked once the layout is
    // read): an all-MoE model (Qwen3.5 MoE, DeepSeek-V4) has none.
    m.intermediate = k.firstUint({"intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim"}, 1, kMaxDim, false)
                         .value_or(defaultWideMlp ? 4 * m.hidden : 0); // GPT-2/Falcon default: 4h
    if (m.heads == 0 || m.hidden == 0 || m.layers == 0)
        return result;

    // Key-value heads: GQA key, Falcon's num_kv_heads, or multi_query (MQA).
    m.kvHeads = k.firstUintOr({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, 1, m.heads, m.heads,
                              "num_attention_heads: multi-head attention");
    if (r.boolean("multi_query", false).value_or(false) && !r.boolean("new_decoder_architecture", false).value_or(false))
        m.kvHeads = 1;
    // MLA families derive it from qk_nope_head_dim + qk_rope_head_dim.
    const bool mla = family->extra == readMla || family->extra == readKimiLinear;
    m.headDim = m.heads > 0 && !mla
        // NemotronHConfig spells it attention_head_dim.
        ? k.firstUintOr({"head_dim", "attention_head_dim"}, 1, kMaxDim, m.hidden / m.heads,
                        "hidden_size / num_attention_heads")
        : 0;

    m.tiedEmbeddings = r.boolean("tie_word_embeddings", false).value_or(
        top.boolean("tie_word_embeddings", false).value_or(family->tieDefault));
    m.norm = family->norm;
    m.normsPerLayer = family->normsPerLayer;
    m.gatedMlp = family->gatedMlp;
    // Qwen3-MoE configs also write qkv_bias.
    const bool attentionBias = r.boolean("attention_bias", false).value_or(false);
    const bool qkvBiasKey = r.boolean("qkv_bias", false).value_or(false);
    m.qkvBias = family->qkvBias || attentionBias || qkvBiasKey;
    m.attnOutBias = family->outBias || attentionBias;
    m.mlpBias = family->mlpBias || r.boolean("mlp_bias", false).value_or(false);
    m.qkNorm = family->qkNorm;
    m.softmaxInFp32 = family->softmaxInFp32;
    m.maxPositions =
        k.firstUint({"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}, 1, ModelLimits::maxPositions)
            .value_or(0);
    if (family->learnedPositions) {
        m.learnedPositions = m.maxPositions;
        if (m.learnedPositions == 0 || m.learnedPositions > ModelLimits::maxWidth)
            r.error("max_position_embeddings", "missing or too large; this family learns one embedding per position");
    }

    readFamilyQuirks(k, ftype, m);
    readMoe(k, m);
    // Nemotron-H's layer_types name block kinds, not attention kinds: readNemotronH reads them.
    if (family->extra != readNemotronH && family->extra != readZamba2)
        readLayerTypes(k, m);
    if (family->extra)
        family->extra(k, m);
    readSlidingWindow(k, ftype, m);
    readRotaryDims(k, m);
    readDropoutAndActivation(k, m);
    m.torchDtype = r.string("torch_dtype", false).value_or(
        r.string("dtype", false).value_or(top.string("torch_dtype", false).value_or(top.string("dtype", false).value_or(""))));
    // Kimi K2.5 keeps its quantization_config inside text_config.
    std::optional<CheckpointQuantization> quantization;
    if (auto quant = top.has("quantization_config") ? top.object("quantization_config", false)
                                                     : r.object("quantization_config", false))
        quantization = readQuantizationConfig(*quant, result.warnings);
    if (const auto vision = readVisionTower(top, topType, m.hidden, result.warnings)) {
        m.visionParameters = vision->parameters;
        m.imageTokens = vision->tokensPerImage;
        // As written, for SGLang's multimodal fraction (getattr with its
        // own defaults where absent).
        // A key only SGLang reads never refuses the file: a bad one is absent.
        if (auto v = top.object("vision_config", false)) {
            const auto asWritten = [&v](const char *key, std::uint64_t max) -> std::uint64_t {
                const Json &object = v->json();
                const auto found = object.find(key);
                if (found == object.end() || !found->is_number_unsigned())
                    return 0;
                const auto value = found->get<std::uint64_t>();
                return value <= max ? value : 0;
            };
            m.visionConfigLayers = asWritten("num_hidden_layers", ModelLimits::maxLayers);
            m.visionConfigHidden = asWritten("hidden_size", ModelLimits::maxWidth);
        }
    }
    if (const auto audio = readAudioEncoder(top, topType, m.hidden, result.warnings))
        m.audioParameters = *audio;

    if (m.intermediate == 0 && m.denseMlpLayers() > 0)
        r.error("intermediate_size", "missing; expected the MLP width of the model's "
                                         + std::to_string(m.denseMlpLayers()) + " dense MLP layers");
    if (m.qWidth() == 0 || m.kvHeads == 0 || m.heads % m.kvHeads != 0)
        r.error("num_key_value_heads", "must divide num_attention_heads");
    if (m.linearLayers > m.layers)
        r.error("layer_types", "names more linear-attention layers than there are layers");
    if ((!quantization || quantization->format.empty()) && besideConfig)
        quantization = *besideConfig;
    if (quantization)
        applyQuantization(*quantization, layerLayout(r, m), m, result.warnings);
    // DeepSeek-V4's expert_dtype "fp4": the routed experts ship in MXFP4
    // (inference/convert.py: two e2m1 values a byte, an e8m0 scale per 32)
    // beside the block-fp8 rest of the layers' linear modules.
    // NVIDIA's NVFP4 re-release keeps the key and names its experts'
    // format in quantization_config's moe_quant_algo (ModelOpt MIXED_PRECISION).
    if (r.string("expert_dtype", false).value_or("") == "fp4" && m.checkpointFormat == "fp8") {
        std::optional<JsonReader> quant = top.object("quantization_config", false);
        const bool nvfp4 = quant && quant->string("moe_quant_algo", false).value_or("") == "NVFP4";
        m.checkpointFormat = nvfp4 ? "nvfp4" : "mxfp4";
        m.checkpointGroupSize = 0;
        m.checkpointQuantizedTargets = kQuantExperts;
        m.checkpointRestFormat = "fp8";
    }
    m.defaultedKeys = part.defaulted;
    m.defaultedKeys.insert(m.defaultedKeys.end(), k.defaulted().begin(), k.defaulted().end());
    m.ignoredKeys = k.ignored();
    if (result.errors.empty())
        result.value = std::move(m);
    return result;
}

LoadResult<CheckpointQuantization> readModelOptQuantFile(const std::string &text)
{
    LoadResult<CheckpointQuantization> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected an hf_quant_config.json object");
        return result;
    }
    JsonReader file(*json, "", result.errors);
    CheckpointQuantization q = readModelOptQuantConfig(file, result.warnings);
    if (result.errors.empty())
        result.value = std::move(q);
    return result;
}

} // namespace core::io
