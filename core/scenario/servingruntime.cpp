#include "core/scenario/servingruntime.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"

namespace core {

namespace {

// Why a derivation's runtime-specific figure is what it is (context
// "Derivation", as the rules' own notes), and where each runtime's
// speculative decoding is read from.
constexpr const char *kWhyHfConvWindow = QT_TRANSLATE_NOOP("Derivation", "Hugging Face keeps the last conv_kernel convolution inputs");
constexpr const char *kWhyVllmConvWindow = QT_TRANSLATE_NOOP("Derivation", "vLLM and llama.cpp keep the last kernel - 1 convolution inputs");
constexpr const char *kWhyFp32Ssm = QT_TRANSLATE_NOOP("Derivation", "Hugging Face keeps the SSM state in fp32 (the Mamba-2 scan returns its final state so)");
constexpr const char *kWhyFp32Recurrent = QT_TRANSLATE_NOOP("Derivation", "Hugging Face keeps the recurrent state in fp32 (the delta-rule kernels return it so)");
constexpr const char *kWhyLlamaCppF32State = QT_TRANSLATE_NOOP("Derivation", "llama.cpp keeps the recurrent and convolution states in f32 (llama_memory_recurrent type_r = type_s = GGML_TYPE_F32)");
constexpr const char *kDraftFromGenerate =
    "transformers generation/utils.py generate(assistant_model=...) and candidate_generator.py "
    "AssistedCandidateGenerator (the assistant keeps its own past_key_values for the same sequence)";
constexpr const char *kDraftFromVllm =
    "vLLM vllm/config/speculative.py SpeculativeConfig (draft_tensor_parallel_size: unset, the target's "
    "tensor_parallel_size); vllm/v1/spec_decode/draft_model.py DraftModelProposer; vllm/v1/worker/gpu_model_runner.py "
    "get_kv_cache_spec (every attention layer in the forward context, the drafter's too, shares the KV blocks)";
constexpr const char *kDraftFromSglang =
    "sglang python/sglang/srt/model_executor/pool_configurator.py (EAGLE/STANDALONE: the draft's layers share "
    "the target's token pool, cell x (1 + draft_layers / layers))";
constexpr const char *kDraftFromLlamaCpp =
    "llama.cpp tools/server/server.cpp load_model (params_dft: -md, n_gpu_layers from -ngld, n_ctx = -cd or "
    "llama_n_ctx_seq, n_parallel 1, cache types from -ctkd/-ctvd) and init (one draft context per slot); "
    "common/arg.cpp -md, -ngld, -cd; common/common.h common_params_speculative (cache_type_k/v f16)";

/// transformers generate() with its DynamicCache and the hybrid caches of
/// the linear-attention families.
RuntimeBehaviour generateBehaviour()
{
    RuntimeBehaviour b;
    // DeepseekV3Attention rebuilds every head's key and value from the
    // latent (kv_b_proj) and caches them.
    b.mla = MlaCacheLayout::RebuiltHeads;
    // Mamba-2 (update_conv_state), Gated DeltaNet (F.pad(mixed_qkv,
    // (conv_kernel_size - seq_len, 0))) and LFM2 (conv_L_cache) pad the
    // conv cache to the kernel's width.
    b.convInputs = ConvInputs::Kernel;
    b.convStateInEveryLayer = true;
    // The delta-rule kernels and the Mamba-2 scan return their final state
    // in float32; the lightning-attention state stays in the model's dtype.
    b.deltaRuleState = StateDtype::Fp32;
    b.lightningState = StateDtype::Model;
    b.ssmState = StateDtype::Fp32;
    b.layerOffload = LayerOffload::DeviceMap;
    b.draftRunsOneRow = true;
    b.draftSource = kDraftFromGenerate;
    b.whyConvInputs = kWhyHfConvWindow;
    b.whySsmState = kWhyFp32Ssm;
    b.whyDeltaRuleState = kWhyFp32Recurrent;
    return b;
}

/// vLLM's v1 engine: MLAAttentionSpec, MambaStateShapeCalculator and the
/// DSA indexer cache.
RuntimeBehaviour vllmBehaviour()
{
    RuntimeBehaviour b;
    b.mla = MlaCacheLayout::Latent;
    b.keepsIndexerKeys = true;
    b.fp8DsMlaEntries = true;
    // mamba2_state_shape / short_conv_state_shape / gated_delta_net_state_shape:
    // conv_kernel - 1 inputs.
    b.convInputs = ConvInputs::KernelMinusOne;
    // mamba_ssm_cache_dtype, which Qwen3.5 takes from mamba_ssm_dtype and
    // Nemotron-H from mamba_ssm_cache_dtype (ssmStateBytes), else the
    // model's; linear_attention_state_dtype is the model's.
    b.deltaRuleState = StateDtype::ConfigOrModel;
    b.lightningState = StateDtype::Model;
    b.ssmState = StateDtype::ConfigOrModel;
    b.replicatesSsmGroups = true;
    b.profilesAtStartup = true;
    b.continuousBatching = true;
    b.offloadsWeightBytes = true;
    b.skipsKvQuantisationPerLayer = true;
    b.takesKvCacheSize = true;
    b.releases = Library::Vllm;
    b.utilizationFollowsRelease = true;
    b.draftSource = kDraftFromVllm;
    b.whyConvInputs = kWhyVllmConvWindow;
    return b;
}

/// SGLang's token pool (pool_configurator.py DefaultPoolConfigurator: MLA
/// keeps kv_lora_rank + qk_rope_head_dim a token and layer) and its
/// continuous batching.
RuntimeBehaviour sglangBehaviour()
{
    RuntimeBehaviour b = vllmBehaviour();
    b.mla = MlaCacheLayout::Latent;
    b.profilesAtStartup = false;
    b.poolOfFreeMemory = true;
    // vLLM's options SGLang does not have: weights in host memory and
    // per-layer KV formats; DeepSeek-V4's entries are sized by SGLang's own
    // configurator (not modelled). The recurrent-state and indexer rules
    // below stay vLLM's: SGLang's Mamba and DSA pools were not read.
    b.offloadsWeightBytes = false;
    b.skipsKvQuantisationPerLayer = false;
    b.takesKvCacheSize = false;
    b.releases = std::nullopt;
    b.utilizationFollowsRelease = false;
    b.fp8DsMlaEntries = false;
    b.draftSource = kDraftFromSglang;
    return b;
}

/// llama.cpp's llama_kv_cache and llama_memory_recurrent.
RuntimeBehaviour llamaCppBehaviour()
{
    RuntimeBehaviour b;
    // llama-model.cpp (ec98e2002) keeps K = kv_lora_rank + n_rot and
    // V = kv_lora_rank for MLA.
    b.mla = MlaCacheLayout::LatentKeyAndValue;
    // No DeepSeek-V4 architecture at the modelled commit.
    b.compressedAttention = false;
    // llama_hparams::n_embd_r: (d_conv - 1) inputs.
    b.convInputs = ConvInputs::KernelMinusOne;
    // llama_memory_recurrent type_r = type_s = GGML_TYPE_F32.
    b.deltaRuleState = StateDtype::Fp32;
    b.lightningState = StateDtype::Fp32;
    b.ssmState = StateDtype::Fp32;
    b.ggmlBuffers = true;
    b.fitsItselfAtLoad = true;
    b.splitsLayersByMemory = true;
    b.layerOffload = LayerOffload::GpuLayers;
    b.ggufCacheTypes = true;
    b.draftCacheF16 = true;
    b.draftSource = kDraftFromLlamaCpp;
    b.whyConvInputs = kWhyVllmConvWindow;
    b.whySsmState = kWhyLlamaCppF32State;
    return b;
}

} // namespace

const std::vector<RuntimeInfo> &allRuntimes()
{
    static const std::vector<RuntimeInfo> runtimes = {
        {ServingEngine::Generate, "hf", "transformers generate()", QT_TRANSLATE_NOOP("Field", "Transformers generate()"),
         "transformers generation/utils.py generate, cache_utils.py DynamicCache; models/deepseek_v3, qwen3_next, "
         "nemotron_h, lfm2 modeling files",
         generateBehaviour()},
        {ServingEngine::Vllm, "vllm", "vLLM", QT_TRANSLATE_NOOP("Field", "vLLM (start-up profile)"),
         "vllm v1/kv_cache_interface.py MLAAttentionSpec; model_executor/layers/mamba/mamba_utils.py "
         "MambaStateShapeCalculator, MambaStateDtypeCalculator; models/deepseek_v2.py DeepseekV32IndexerCache",
         vllmBehaviour()},
        {ServingEngine::LlamaCpp, "llamacpp", "llama.cpp", QT_TRANSLATE_NOOP("Field", "llama.cpp (llama-server, llama-cli)"),
         "llama.cpp ec98e2002 src/llama-kv-cache.cpp, llama-memory-recurrent.cpp, llama-hparams.cpp n_embd_r",
         llamaCppBehaviour()},
        {ServingEngine::Sglang, "sglang", "SGLang", QT_TRANSLATE_NOOP("Field", "SGLang (token pool of mem_fraction_static)"),
         "sglang release/v0.5.15 (0b3bb0c) python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py "
         "_profile_available_bytes, pool_configurator.py DefaultPoolConfigurator; server_args.py "
         "_handle_gpu_memory_settings",
         sglangBehaviour()},
    };
    return runtimes;
}

const RuntimeInfo &runtimeInfo(ServingEngine engine)
{
    return findByValue(allRuntimes(), &RuntimeInfo::engine, engine);
}

std::optional<ServingEngine> runtimeForCheckpoint(const CheckpointWeights &checkpoint)
{
    if (checkpoint.format != "gguf")
        return std::nullopt;
    for (const RuntimeInfo &runtime : allRuntimes())
        if (runtime.behaviour.ggmlBuffers)
            return runtime.engine;
    return std::nullopt;
}

} // namespace core
