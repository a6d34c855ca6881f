#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace core {

enum class NormKind { LayerNorm, RmsNorm };

/// Bounds on an architecture's numbers that every reader (config.json,
/// GGUF metadata, scenario files) enforces, so that a lying file is refused
/// with a message before any size is computed from it.
struct ModelLimits
{
    static constexpr std::uint64_t maxWidth = 1ull << 24;      ///< hidden, heads, head_dim, intermediate: 16M
    static constexpr std::uint64_t maxLayers = 100000;
    static constexpr std::uint64_t maxVocab = 1ull << 26;
    static constexpr std::uint64_t maxPositions = 1ull << 32;  ///< context length, sliding window
};

/// Mixture-of-experts shape. `experts == 0` means a dense model.
struct MoeSpec
{
    int experts = 0;          ///< routed experts per MoE layer
    int expertsPerToken = 0;  ///< top-k routing
    /// Always-on experts, in units of one routed expert's width (DeepSeek's
    /// n_shared_experts; Qwen's shared_expert_intermediate_size / moe_intermediate_size).
    int sharedExperts = 0;
    std::uint64_t expertIntermediate = 0; ///< width of one expert's MLP
    /// Decoder layers whose MLP is dense instead of MoE: DeepSeek's
    /// `first_k_dense_replace`, or those Llama 4's `interleave_moe_layer_step`
    /// and Qwen's `decoder_sparse_step` skip.
    int denseLayers = 0;
    bool routerBias = false;
    bool expertBias = false;
    bool sharedExpertGate = false; ///< Qwen2-MoE/Qwen3-Next: sigmoid(Linear(h, 1)) scales the shared expert
    /// The MoE layers keep their dense MLP beside the experts, each branch
    /// with its own norms (Gemma 4 enable_moe_block: modeling_gemma4.py
    /// Gemma4TextDecoderLayer adds the router and experts to the MLP).
    bool withDenseMlp = false;
    /// The router scales its input and each expert's weight by learned
    /// vectors (Gemma4TextRouter scale [hidden] and per_expert_scale [experts]).
    bool routerScales = false;
    /// The routed experts work in a narrower latent width: fc1_latent_proj
    /// (hidden -> latent) before them and fc2_latent_proj after, each expert
    /// latent -> intermediate -> latent (Nemotron 3 Super and Ultra
    /// moe_latent_size: modeling_nemotron_h.py NemotronHMoE). 0: the hidden width.
    std::uint64_t latentWidth = 0;
    /// The latent is normed before its up-projection (Kimi K3
    /// latent_moe_use_norm: routed_expert_norm).
    bool latentNorm = false;

    bool isMoe() const { return experts > 0; }
};

/// The kinds of weight module a checkpoint's quantisation config can name
/// (compressed-tensors targets and ignore, ModelOpt exclude_modules), one bit
/// each; ModelSpec::checkpointQuantizedTargets holds those the shipped
/// format covers.
enum QuantTarget : unsigned {
    kQuantMixerIn = 1u << 0,  ///< token mixers' input projections: q/k/v, MLA latents, indexer, linear attention, Mamba in_proj
    kQuantMixerOut = 1u << 1, ///< o_proj, out_proj
    kQuantDenseMlp = 1u << 2,
    kQuantSharedExperts = 1u << 3,
    kQuantExperts = 1u << 4,
    kQuantRouter = 1u << 5,
    kQuantLmHead = 1u << 6,
    kQuantEmbedding = 1u << 7,
};

/// Which decoder layers a tensor group lives in. A layer has at most one
/// token mixer (softmax attention, linear attention or Mamba-2), or
/// attention and a Mamba-2 block both (ModelSpec::attendingMambaLayers),
/// and at most one MLP (dense or MoE).
enum class LayerScope {
    None,
    AllLayers,
    AttentionLayers,        ///< softmax attention (all of it, or the full-attention layers where the windowed have heads of their own)
    WindowedAttentionLayers, ///< sliding-window layers with heads of their own
    LinearLayers,
    MambaLayers,
    DenseLayers,
    MoeLayers
};

/// A kind of module that a checkpoint quantises in only some of the layers
/// of a scope that have it: NVIDIA's Nemotron 3 NVFP4 keeps the Mamba block
/// before each attention block, and every attention block, in bf16
/// (hf_quant_config.json exclude_modules lists them by layer).
struct PartialQuantization
{
    LayerScope scope = LayerScope::AllLayers;
    unsigned target = 0;               ///< one QuantTarget bit
    std::uint64_t quantizedLayers = 0; ///< of the scope's layers, those in the checkpoint's format

    bool operator==(const PartialQuantization &o) const
    {
        return scope == o.scope && target == o.target && quantizedLayers == o.quantizedLayers;
    }
};

/// A transformer's architecture, as far as memory depends on it. Filled from
/// a Hugging Face config.json (io/hfconfig), a preset (which is a config.json),
/// or the parameter-count heuristic (`modelFromParameterCount`). A new member
/// is also listed in core/tablegen/members.h (built-in tables) and in the
/// scenario file's field tables (io/scenarioio.cpp).
struct ModelSpec
{
    std::string name;
    std::string family; ///< HF `model_type`, or "heuristic"

    std::uint64_t hidden = 0;       ///< h
    std::uint64_t layers = 0;       ///< L
    std::uint64_t heads = 0;        ///< a
    std::uint64_t kvHeads = 0;      ///< GQA/MQA key-value heads (== heads for MHA)
    std::uint64_t headDim = 0;      ///< d (h / a unless the config says otherwise)
    std::uint64_t intermediate = 0; ///< dense MLP width
    std::uint64_t vocab = 0;        ///< V
    std::uint64_t learnedPositions = 0; ///< GPT-2/BERT absolute position table rows (0 for RoPE)
    std::uint64_t tokenTypes = 0;   ///< BERT segment embeddings
    std::uint64_t maxPositions = 0; ///< longest context the model supports (0 = unknown)

    bool gatedMlp = true;       ///< SwiGLU/GeGLU: three matrices instead of two
    bool tiedEmbeddings = false;
    NormKind norm = NormKind::RmsNorm;
    int normsPerLayer = 2;      ///< 1 for Falcon-7B/Phi-2 parallel blocks, 4 for Gemma 2
    bool finalNorm = true;
    bool embeddingNorm = false; ///< BERT's LayerNorm after the embeddings
    bool qkvBias = false;
    bool attnOutBias = false;
    bool mlpBias = false;
    bool lmHeadBias = false;
    bool qkNorm = false;        ///< Qwen3: RMSNorm over each head's q and k
    /// The q/k norms span the whole projection (heads x head_dim for q,
    /// kv_heads x head_dim for k) instead of one head: OLMo 3
    /// (modeling_olmo3.py Olmo3Attention: q_norm = RMSNorm(num_attention_heads
    /// * head_dim)) and MiniMax-M2 (modeling_minimax_m2.py MiniMaxM2Attention).
    bool qkNormWholeProjection = false;
    bool attentionSinks = false; ///< gpt-oss: one learned logit per head
    /// Only the sliding-window layers have sinks (MiMo-V2-Flash
    /// add_swa_attention_sink_bias without add_full_attention_sink_bias).
    bool sinksWindowedOnly = false;
    bool pooler = false;        ///< BERT pooler dense layer
    bool encoderOnly = false;   ///< BERT: no KV cache, no causal-LM head
    /// Every layer runs attention and MLP from the same normed input
    /// (GPT-J, Falcon-7B, Phi-2, GPT-NeoX with use_parallel_residual).
    bool parallelBlock = false;
    /// Learnable scalars of each MLP's activation: 2 for xIELU's alpha_p and
    /// alpha_n (transformers activations.py XIELUActivation, Apertus), 0
    /// for a fixed function.
    std::uint64_t mlpActivationParams = 0;

    MoeSpec moe;

    /// Multi-head latent attention (DeepSeek-V2, arXiv:2405.04434 §2.1.2):
    /// keys and values are rebuilt from a kv_lora_rank-wide latent, and the
    /// serving engines cache that latent plus one shared RoPE key of
    /// qk_rope_head_dim. `headDim` is then qk_nope_head_dim + qk_rope_head_dim.
    std::uint64_t kvLoraRank = 0;  ///< 0: not MLA
    /// Queries through a low rank of this width (MLA's q_lora_rank, and
    /// Step3's share_q_dim without MLA); 0: straight from q_proj
    /// (DeepSeek-V2-Lite).
    std::uint64_t qLoraRank = 0;
    std::uint64_t ropeHeadDim = 0; ///< qk_rope_head_dim
    /// The dimensions of a full-attention head that RoPE rotates where it
    /// rotates only part of it (partial_rotary_factor x head_dim, GPT-NeoX's
    /// rotary_pct, MiniMax's rotary_dim); 0: the whole head (MLA:
    /// ropeHeadDim).
    std::uint64_t rotaryDims = 0;
    /// The sliding-window layers' rotated dimensions where their RoPE is
    /// their own (Gemma 3's rope_local_base_freq; Gemma 4's and Laguna's
    /// rope_parameters.sliding_attention): engines keep a second cos/sin
    /// cache for them. 0: they share the full-attention layers' cache.
    std::uint64_t slidingRotaryDims = 0;
    /// The attention rotates no position into its queries and keys (NoPE:
    /// Nemotron-H, Granite 4.0 without position_embedding_type "rope";
    /// ALiBi: Falcon's alibi), so an engine builds no rotary cache.
    bool noRope = false;
    std::uint64_t valueHeadDim = 0; ///< v_head_dim
    /// DeepSeek Sparse Attention's lightning indexer in every MLA layer
    /// (DeepSeek-V3.2, GLM-5: index_n_heads, index_head_dim); 0: none.
    std::uint64_t indexHeads = 0;
    std::uint64_t indexHeadDim = 0;
    /// The MLA layers with an indexer of their own, where the others reuse
    /// an earlier one's top-k (GLM-5.2 indexer_types "shared"); 0: all.
    std::uint64_t indexerLayers = 0;
    /// The indexer is MiniMax Sparse Attention's, on grouped-query layers
    /// (MiniMax-M3: transformers modeling_minimax_m3_vl.py
    /// MiniMaxM3VLIndexer): q_proj and k_proj from the hidden state, a
    /// per-head q_norm and k_norm, one key head, whose keys every runtime
    /// caches unquantised beside the K/V cache (RuntimeBehaviour::msaIndexKeys).
    bool msaIndexer = false;

    /// Layers whose token mixer is linear attention with a fixed-size state
    /// instead of a growing cache: Gated DeltaNet (Yang et al. 2024,
    /// arXiv:2412.06464) as Qwen3-Next runs it (modeling_qwen3_next.py
    /// Qwen3NextGatedDeltaNet).
    std::uint64_t linearLayers = 0;
    std::uint64_t linearKeyHeads = 0;   ///< linear_num_key_heads
    std::uint64_t linearValueHeads = 0; ///< linear_num_value_heads
    std::uint64_t linearKeyDim = 0;     ///< linear_key_head_dim
    std::uint64_t linearValueDim = 0;   ///< linear_value_head_dim
    std::uint64_t linearConvKernel = 0; ///< linear_conv_kernel_dim
    /// Qwen3-Next: q_proj also yields a per-channel output gate (2x wide).
    bool gatedAttention = false;
    /// The linear-attention layers are MiniMax's lightning attention (vLLM
    /// minimax_text_01.py MiniMaxText01LinearAttention) instead of Gated
    /// DeltaNet: qkv_proj, output_gate, out_proj and a norm over heads x
    /// head_dim; one head_dim x head_dim state per head, no convolution.
    bool lightningAttention = false;
    /// The linear layers are LFM2's gated short convolutions (transformers
    /// modeling_lfm2.py Lfm2ShortConv): in_proj to B, C and x, a depthwise
    /// causal conv of linear_conv_kernel over the hidden width, out_proj;
    /// the state is the conv's last inputs.
    bool shortConv = false;
    /// The linear layers are Kimi Delta Attention (vLLM kimi_linear.py and
    /// kda.py; sglang KimiK3DeltaAttention): q, k, v projections each with a
    /// depthwise conv, a low-rank decay (f_a, f_b) with dt_bias and A_log, a
    /// beta projection, an output gate (full rank, or g_a and g_b), o_norm
    /// and o_proj; the recurrent state in fp32.
    bool kimiDeltaAttention = false;
    /// A softplus output gate from its own g_proj in every softmax layer,
    /// this many values per query head: Laguna's `gating` (transformers
    /// modular_laguna.py LagunaAttention; vLLM laguna.py): 1 per head, or
    /// head_dim per element. 0: none.
    std::uint64_t outputGatePerHead = 0;
    bool fullRankOutputGate = false;  ///< KDA use_full_rank_gate: g_proj instead of g_a, g_b
    /// Every layer mixes its residual from earlier blocks with learned
    /// queries (Kimi K3 attn_res_block_size: self_attention_res_norm and
    /// _proj, mlp_res_norm and _proj; output_attn_res_norm and _proj).
    bool blockAttentionResiduals = false;

    /// Layers whose token mixer is a Mamba-2 state-space block (Dao & Gu
    /// 2024, arXiv:2405.21060 §7) as Nemotron-H runs it
    /// (modeling_nemotron_h.py NemotronHMamba2Mixer): a fixed-size state per
    /// sequence, no token cache.
    std::uint64_t mambaLayers = 0;
    std::uint64_t mambaHeads = 0;      ///< mamba_num_heads
    std::uint64_t mambaHeadDim = 0;    ///< mamba_head_dim (P)
    std::uint64_t ssmState = 0;        ///< ssm_state_size (N)
    std::uint64_t ssmGroups = 0;       ///< n_groups: heads of a group share B and C
    std::uint64_t mambaConvKernel = 0; ///< conv_kernel
    bool mambaConvBias = false;        ///< use_conv_bias
    bool mambaProjBias = false;        ///< biases on in_proj and out_proj (use_bias, mamba_proj_bias)
    /// The gated RMSNorm over d_inner before out_proj (Falcon-H1 builds it
    /// only with mamba_rms_norm, which is off by default).
    bool mambaNorm = true;
    /// Of the Mamba layers, those that attend too: Falcon-H1's, every one,
    /// its Mamba-2 block and its softmax attention side by side on the same
    /// input (modeling_falcon_h1.py FalconH1DecoderLayer); Zamba2's hybrid
    /// layers, a shared attention block before the layer's own Mamba-2
    /// block (modeling_zamba2.py Zamba2HybridLayer). Each is an attention
    /// layer (a K/V cache) and a Mamba layer (a fixed state).
    std::uint64_t attendingMambaLayers = 0;
    /// Zamba2's shared transformer blocks (num_mem_blocks): the attention
    /// layers' attention and MLP exist this many times, the i-th attention
    /// layer running block i mod sharedBlocks (Zamba2Model's cycle over
    /// the blocks). The attention reads the hidden state joined to the
    /// input embeddings (2 x hidden: q, k and v take 2 x hidden, and the
    /// heads are 2 x hidden wide in all); each attention layer adds its own
    /// hidden x hidden `linear` after the block and a LoRA adapter of
    /// adapterRank on the block's gate_up (and on q, k and v where
    /// attentionAdapters).
    std::uint64_t sharedBlocks = 0;
    std::uint64_t adapterRank = 0;
    bool attentionAdapters = false;
    /// transformers builds this family's cache in its modelling file and
    /// preallocates the Mamba conv and SSM states there in the model's
    /// dtype (Zamba2HybridDynamicCache, modeling_zamba2.py @ 00511f5d),
    /// where the native Mamba cache keeps the scan's float32 state.
    bool ownStateCache = false;
    /// Mamba-1's selective scan (Gu & Dao 2023, arXiv:2312.00752 §3.2) as
    /// Jamba runs it: its dt rank (mamba_dt_rank), 0 for Mamba-2. In
    /// Mamba-2's terms each of its d_inner channels is a head of width 1
    /// (mambaHeads = d_inner, mambaHeadDim = 1) with no groups: B and C come
    /// from x_proj after the conv, so the conv runs over d_inner alone.
    std::uint64_t mambaTimeStepRank = 0;
    /// Bytes of an SSM state element where the serving engine takes its
    /// dtype from the config (vLLM's NemotronH hook reads
    /// mamba_ssm_cache_dtype; its Qwen3.5 hook reads mamba_ssm_dtype for the
    /// Gated DeltaNet state); 0: the model's dtype.
    std::uint64_t ssmStateBytes = 0;

    /// Single-purpose blocks (Nemotron-H's hybrid_override_pattern: each
    /// layer is a mixer or an MLP, never both): layers without an MLP, and
    /// layers without a token mixer. 0 for the usual mixer-plus-MLP layer.
    std::uint64_t layersWithoutMlp = 0;
    std::uint64_t layersWithoutMixer = 0;
    /// Of those, the layers whose mixer or MLP is one hidden x hidden linear
    /// instead (Llama-Nemotron's replace_with_linear: DeciLMLinearAttention,
    /// DeciLMLinearMLP); no cache.
    std::uint64_t mixersAsLinear = 0;
    std::uint64_t mlpsAsLinear = 0;
    /// Each block present (mixer or MLP, a linear one included) has its own
    /// norm and an absent block none, instead of normsPerLayer per layer
    /// (DeciLMDecoderLayer: input_layernorm and post_attention_layernorm
    /// only where their block is not a no_op).
    bool normPerBlock = false;
    /// The dense MLP layers' widths in layer order, where they differ from
    /// layer to layer (Llama-Nemotron's block_configs ffn_mult); empty:
    /// every dense MLP is `intermediate` wide.
    std::vector<std::uint64_t> mlpWidths;

    std::uint64_t slidingWindow = 0;  ///< tokens; 0 = full attention everywhere
    std::uint64_t slidingLayers = 0;  ///< how many layers use the window
    /// The windowed layers' own key-value heads and head sizes, where they
    /// differ from the full-attention layers' (`kvHeads`, `headDim`,
    /// `valueHeadDim`): Gemma 4 (head_dim for the local layers,
    /// global_head_dim and num_global_key_value_heads for the global ones),
    /// MiMo-V2-Flash (swa_num_key_value_heads, swa_head_dim, swa_v_head_dim).
    /// 0: the same as the full-attention layers.
    std::uint64_t slidingKvHeads = 0;
    std::uint64_t slidingHeadDim = 0;
    std::uint64_t slidingValueHeadDim = 0;
    /// The windowed layers' own query heads, where they differ from the
    /// full-attention layers' `heads`: Laguna's num_attention_heads_per_layer
    /// (48 in the full-attention layers, 64 or 72 in the sliding ones). 0:
    /// the same.
    std::uint64_t slidingHeads = 0;
    /// The full-attention layers project their values with k_proj (Gemma 4
    /// attention_k_eq_v): no v_proj; K and V are still cached apart, as V is
    /// taken before the key's norm and RoPE. (DeepSeek-V4's one latent per
    /// entry is its compressed attention's own: compressRatios.)
    bool keyIsValue = false;
    /// The last layers that reuse the keys and values of an earlier layer of
    /// their kind: no k_proj, v_proj or k_norm and no cache of their own
    /// (Gemma 4 num_kv_shared_layers; modeling_gemma4.py Gemma4TextAttention
    /// is_kv_shared_layer, cache_utils.py drops them from the cache).
    std::uint64_t kvSharedLayers = 0;
    /// Layers whose dense MLP is twice intermediate_size wide (Gemma 4
    /// use_double_wide_mlp: the kv-shared layers).
    std::uint64_t wideMlpLayers = 0;
    /// Per-layer inputs (Gemma 4 hidden_size_per_layer_input, P): a table of
    /// vocabulary x (layers x P) token embeddings, its projection from the
    /// hidden state, and per layer a gate (P x h) and a projection (h x P).
    /// 0: none.
    std::uint64_t perLayerInputWidth = 0;
    std::uint64_t perLayerInputVocab = 0; ///< vocab_size_per_layer_input
    /// Every decoder layer scales its output by a stored scalar (Gemma 4
    /// Gemma4TextDecoderLayer.layer_scalar, a buffer the checkpoint holds).
    bool layerScalars = false;
    /// The local layers attend within fixed chunks rather than a sliding
    /// window (Llama 4's attention_chunk_size); the cache holds the same.
    bool chunkedAttention = false;

    /// DeepSeek-V4's compressed attention (the repository's inference/model.py
    /// Attention, Compressor and Indexer; vLLM deepseek_v4.py): every layer
    /// keeps a window of raw entries and, where its ratio r > 0, one
    /// compressed entry per r tokens from a compressor (overlapping windows
    /// and a lightning indexer where r = 4). One ratio per layer, in layer
    /// order; empty for every other model.
    std::vector<std::uint64_t> compressRatios;
    /// Grouped low-rank output (o_groups, o_lora_rank): wo_a per group, then wo_b.
    std::uint64_t outputGroups = 0;
    std::uint64_t outputLoraRank = 0;
    /// Manifold-constrained hyper-connections (hc_mult): the residual stream is
    /// hc copies of the hidden state, mixed by learned fp32 maps around
    /// each block and before the head. 0: a plain residual.
    std::uint64_t hyperConnections = 0;
    /// The first layers route by a fixed token-to-expert table (num_hash_layers:
    /// gate.tid2eid, vocab x experts_per_token) instead of a router bias.
    std::uint64_t hashRoutedLayers = 0;

    /// Multi-token-prediction modules the checkpoint ships after the main
    /// layers (DeepSeek-V3 num_nextn_predict_layers). Transformers skips
    /// them on load (_keys_to_ignore_on_load_unexpected); counted only when
    /// `loadMtp` asks for speculative decoding with them.
    std::uint64_t mtpLayers = 0;
    bool loadMtp = false;
    /// An MTP layer's own shape where it is not the last main layer's
    /// (Step-3.5: a sliding-window layer with a dense MLP), and whether each
    /// module ships an output head of its own (vocab x hidden and a norm).
    bool mtpWindowed = false;
    bool mtpDenseMlp = false;
    bool mtpOwnHead = false;

    /// Image encoder and projector of a multimodal checkpoint, counted as one
    /// group, and the tokens one image adds to the language model's context.
    std::uint64_t visionParameters = 0;
    std::uint64_t imageTokens = 0;
    /// The vision_config's num_hidden_layers and hidden_size as the file
    /// writes them (0: absent or not a count), which SGLang's multimodal
    /// fraction reads (sglangpool.h: 24 and 1,024 where absent, as SGLang's
    /// getattr where the config class has no default of its own).
    std::uint64_t visionConfigLayers = 0;
    std::uint64_t visionConfigHidden = 0;
    /// Audio encoder and its projector (Gemma 4), counted as one group.
    std::uint64_t audioParameters = 0;

    double attentionDropout = 0.0;
    double hiddenDropout = 0.0;
    /// Eager attention computes softmax in fp32 and casts back (Llama-family
    /// modeling code: softmax(..., dtype=torch.float32)); GPT-2/BERT do not.
    bool softmaxInFp32 = true;
    /// I-wide tensors the MLP activation function saves for backward: 1 for
    /// fused kernels (F.gelu, F.silu), 4 for Python tanh-GELU ("gelu_new":
    /// pow input, tanh output and both product operands).
    int activationSavedTensors = 1;

    std::string torchDtype;   ///< checkpoint dtype from the config ("bfloat16"), may be empty
    /// The weight format the checkpoint ships, from its quantization_config
    /// (a WeightFormat id: "mxfp4" for gpt-oss's experts, "fp8", "gptq-4bit",
    /// "nf4-dq" ...); empty for plain 16/32-bit checkpoints.
    std::string checkpointFormat;
    /// Values per scale of `checkpointFormat` where the config states it
    /// (compressed-tensors group_size); 0: the scenario's group size.
    int checkpointGroupSize = 0;
    /// The QuantTarget bits the checkpoint's quantisation config puts in
    /// `checkpointFormat` (the rest stay in the checkpoint's dtype); 0 when
    /// the config says nothing per module (the format's own rule applies).
    std::uint64_t checkpointQuantizedTargets = 0;
    /// The kinds of module quantised in some layers of a scope but not all
    /// (not in checkpointQuantizedTargets); empty for most checkpoints.
    std::vector<PartialQuantization> checkpointPartialTargets;
    /// The checkpoint's config names the modules it quantised (in every
    /// layer or in some), so those, not the format's rule, are quantised.
    bool namesQuantizedModules() const { return checkpointQuantizedTargets != 0 || !checkpointPartialTargets.empty(); }
    /// The format the checkpoint ships its other linear modules in, where
    /// that is a second quantised one (DeepSeek-V4: block fp8 beside its
    /// MXFP4 experts); empty: the checkpoint's dtype.
    std::string checkpointRestFormat;
    /// The modules in `checkpointRestFormat`, where its config names them
    /// (a second config group's targets, ModelOpt's per-module FP8 beside
    /// NVFP4 experts: Nemotron 3 Super keeps its attention and most latent
    /// projections in bf16 between the two); 0 and empty: every other linear
    /// module of the layers.
    std::uint64_t checkpointRestTargets = 0;
    std::vector<PartialQuantization> checkpointRestPartialTargets;
    bool namesRestModules() const { return checkpointRestTargets != 0 || !checkpointRestPartialTargets.empty(); }

    /// When set, the model was described only by this parameter count; the
    /// architecture above is the documented heuristic's guess.
    std::uint64_t declaredParameters = 0;
    /// Heuristic shapes only: parameters of the declared count that no layer
    /// holds (counted as one vector so totals match exactly).
    std::uint64_t unplacedParameters = 0;

    /// Config keys absent from the file whose family default was used
    /// ("head_dim = 256 (Gemma3TextConfig default)"), and keys present that
    /// change nothing this planner models or that it cannot read.
    std::vector<std::string> defaultedKeys;
    std::vector<std::string> ignoredKeys;
    /// No family rules matched model_type: the architecture is the standard
    /// Llama-style reading of the keys, and every number depends on that guess.
    bool familyGuessed = false;
    /// The family has rules, but a part of this config is beyond what the
    /// planner models yet (per-layer widths, a latent MoE) and was read as
    /// a guess: those numbers depend on it too.
    bool shapeGuessed = false;

    /// Some number rests on a guess (the whole family, or a part of it).
    bool guessed() const { return familyGuessed || shapeGuessed; }
    std::uint64_t qWidth() const { return heads * headDim; }
    std::uint64_t kvWidth() const { return kvHeads * headDim; }
    /// Value head size of the softmax layers that are not latent attention.
    std::uint64_t valueDim() const { return valueHeadDim > 0 ? valueHeadDim : headDim; }
    bool isMla() const { return kvLoraRank > 0; }
    /// Layers with a token mixer of any kind.
    std::uint64_t mixerLayers() const { return layers - std::min(layers, layersWithoutMixer); }
    /// Layers with softmax attention (and so a key-value cache): the mixers
    /// that are neither linear attention nor Mamba (unless it runs beside
    /// the attention).
    std::uint64_t attentionLayers() const
    {
        const std::uint64_t recurrent = linearLayers + mambaLayers - std::min(mambaLayers, attendingMambaLayers);
        return mixerLayers() - std::min(mixerLayers(), recurrent);
    }
    /// Layers with an MLP, and of those the dense and the MoE ones.
    std::uint64_t mlpLayers() const { return layers - std::min(layers, layersWithoutMlp); }
    /// Layers with a dense MLP: those without experts, and the MoE layers
    /// too where they keep it (MoeSpec::withDenseMlp).
    std::uint64_t denseMlpLayers() const
    {
        return moe.isMoe() && !moe.withDenseMlp
            ? std::min<std::uint64_t>(mlpLayers(), static_cast<std::uint64_t>(moe.denseLayers))
            : mlpLayers();
    }
    std::uint64_t moeLayers() const
    {
        return moe.isMoe() ? mlpLayers() - std::min<std::uint64_t>(mlpLayers(), static_cast<std::uint64_t>(moe.denseLayers))
                           : 0;
    }
    /// Mamba-2's inner width (d_inner = heads x head_dim) and the width its
    /// causal conv runs over (x, B and C: d_inner + 2 x groups x N; Mamba-1
    /// has no groups and convolves x alone).
    std::uint64_t mambaInner() const { return mambaHeads * mambaHeadDim; }
    std::uint64_t mambaConvWidth() const { return mambaInner() + 2 * ssmGroups * ssmState; }
    /// Some layers keep a fixed-size state per sequence (linear attention or Mamba-2).
    bool hasRecurrentState() const { return linearLayers > 0 || mambaLayers > 0; }
    bool isMamba1() const { return mambaTimeStepRank > 0; }
    /// Width of the full-attention layers' output before o_proj.
    std::uint64_t attentionOutWidth() const { return heads * valueDim(); }
    bool hasDropout() const { return attentionDropout > 0.0 || hiddenDropout > 0.0; }
};

/// What a group of same-shaped tensors is, for quantisation and adapters.
enum class TensorRole {
    Embedding,    ///< token, position and segment tables
    LmHead,       ///< output projection (absent when tied)
    AttentionLinear,
    MlpLinear,
    ExpertLinear,
    Router,
    Norm,
    Bias,
    Other         ///< attention sinks, pooler
};

/// Which LoRA target a linear tensor group is.
enum class LinearSlot { None, Q, K, V, O, Gate, Up, Down };

/// `count` tensors of shape rows x cols (cols = 1 for vectors).
struct TensorGroup
{
    std::string name;
    TensorRole role;
    LinearSlot slot = LinearSlot::None;
    std::uint64_t rows = 0; ///< output features
    std::uint64_t cols = 1; ///< input features
    std::uint64_t count = 1;
    /// Active per token (MoE: experts_per_token of `experts` run; Zamba2's
    /// shared blocks: one run in each layer that holds one).
    std::uint64_t activeCount = 1;
    LayerScope scope = LayerScope::None;
    std::uint64_t layers = 0; ///< decoder layers the group spans (0 outside them)
    std::uint64_t elements() const;
    /// A token runs the group more often than it is stored: each tensor
    /// serves several of the `layers` (Zamba2's shared blocks), and a layer
    /// holds one of them whole.
    bool sharedAcrossLayers() const { return activeCount > count; }
    std::uint64_t activeElements() const;
};

/// Every weight tensor of the model, grouped by shape.
std::vector<TensorGroup> enumerateTensors(const ModelSpec &model);

/// Where tensor, pipeline and expert parallelism put a parameter: the
/// token tables (first stage, split over the vocabulary), lm_head (last
/// stage), routed experts (over ep x tp), whole on every tensor-parallel
/// rank (TpSplit::Replicated), key and value projections of the full and
/// of the windowed layers (TpSplit::KeyValueHeads), and the rest of the
/// layers (split over the ranks).
enum class WeightPlacement { Embedding, LmHead, Experts, Replicated, KeyValue, WindowedKeyValue, Layers };
inline constexpr std::size_t kWeightPlacements = 7;

/// The sums by which a weight format decides what it stores (see
/// weightClasses in the engine): of some parameters, all of them, the
/// quantisable linear weights, the routed experts' and lm_head's, and the
/// checkpoint's named modules and other linear modules.
struct FormatSums
{
    std::uint64_t total = 0;
    std::uint64_t linear = 0;
    std::uint64_t experts = 0;
    std::uint64_t lmHead = 0;
    std::uint64_t checkpointQuantized = 0;
    std::uint64_t checkpointRestLinear = 0;
};

/// Parameter counts by role, from `enumerateTensors`. Its FormatSums are
/// the model's: `linear` all Linear weight matrices in the layers
/// (quantisable), `experts` of those the routed experts'; and of the
/// modules ModelSpec::checkpointQuantizedTargets names (0 when it names
/// none) and of the rest format's (ModelSpec::checkpointRestFormat).
struct ParameterCounts : FormatSums
{
    /// Per token: less than total for MoE; more for Zamba2, whose shared
    /// blocks a token runs once in every layer that holds one.
    std::uint64_t active = 0;
    std::uint64_t embedding = 0;    ///< token, position and segment tables
    std::uint64_t small = 0;        ///< norms, biases, sinks: never quantised
    std::uint64_t largestLayer = 0; ///< the largest module ZeRO-3 gathers: a layer or one embedding table
    std::uint64_t vision = 0;       ///< image encoder and projector (multimodal checkpoints)
    std::uint64_t audio = 0;        ///< audio encoder and projector
    std::uint64_t mtp = 0;          ///< multi-token-prediction modules, when loaded
    /// The same sums for each WeightPlacement. Outside the embeddings, lm_head
    /// and routed experts: those every tensor-parallel rank holds whole, and
    /// the key and value projections of the full-attention layers and of
    /// the windowed layers with heads of their own
    /// (LayerScope::WindowedAttentionLayers).
    std::array<FormatSums, kWeightPlacements> byPlacement{};

    const FormatSums &at(WeightPlacement p) const { return byPlacement[static_cast<std::size_t>(p)]; }
};

/// How tensor parallelism splits a tensor group (vLLM's and SGLang's
/// linear layers; Megatron's likewise): over the ranks, not at all
/// (ReplicatedLinear routers, MLA's q_a_proj and kv_a_proj_with_mqa,
/// DeepSeek-V4's fused_wqa_wkv, the sparse-attention indexer, every norm),
/// or over at most as many ranks as there are key-value heads
/// (QKVParallelLinear: num_kv_head_replicas = tp / kv heads where tp is
/// larger).
enum class TpSplit { Ranks, Replicated, KeyValueHeads };
TpSplit tpSplitOf(const TensorGroup &group);

/// Which QuantTarget a tensor group is (0: none; norms, biases, convolutions,
/// the image encoder and MTP modules are never quantised here).
unsigned quantTargetOf(const TensorGroup &group);

ParameterCounts countParameters(const ModelSpec &model);
/// The same from tensors already enumerated (the estimate needs both).
ParameterCounts countParameters(const ModelSpec &model, const std::vector<TensorGroup> &tensors);

/// Parameters of the largest decoder layer: the largest token mixer plus the
/// larger MLP (MoE layers when the model has both); for single-purpose
/// blocks (no layer with both), the largest mixer or MLP alone.
std::uint64_t parametersPerLayer(const ModelSpec &model);
std::uint64_t parametersPerLayer(const ModelSpec &model, const std::vector<TensorGroup> &tensors);

/// The decoder layer an MTP module holds: the largest layer, or where no
/// layer has both a mixer and an MLP, one attention block and the larger
/// MLP block with their norms (Nemotron 3).
std::uint64_t mtpModuleLayer(const ModelSpec &model, const std::vector<TensorGroup> &tensors);

/// A Llama-shaped architecture for a bare parameter count. Heuristic:
/// width/depth ratio h/L = 128 as in LLaMA-7B/13B (Touvron et al. 2023,
/// Table 2), gated MLP with I = 8h/3 rounded up to 256 (ibid. §2.2), head
/// size 128, vocab 32,000, untied embeddings, and for h >= 8192 GQA with 8
/// key-value heads (Llama 2 70B). `parameters` stays the reported total.
ModelSpec modelFromParameterCount(std::uint64_t parameters);

} // namespace core
