#include "core/servingruntime.h"

#include "core/formulatext.h"
#include "core/lookup.h"

namespace core {

namespace {

namespace kv = text::kv;

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
    b.draftSource = text::draft::kFromGenerate;
    b.whyConvInputs = kv::kWhyHfConvWindow;
    b.whySsmState = kv::kWhyFp32Ssm;
    b.whyDeltaRuleState = kv::kWhyFp32Recurrent;
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
    b.draftSource = text::draft::kFromVllm;
    b.whyConvInputs = kv::kWhyVllmConvWindow;
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
    b.splitsLayersByMemory = true;
    b.layerOffload = LayerOffload::GpuLayers;
    b.ggufCacheTypes = true;
    b.draftCacheF16 = true;
    b.draftSource = text::draft::kFromLlamaCpp;
    b.whyConvInputs = kv::kWhyVllmConvWindow;
    b.whySsmState = kv::kWhyLlamaCppF32State;
    return b;
}

} // namespace

const std::vector<RuntimeInfo> &allRuntimes()
{
    static const std::vector<RuntimeInfo> runtimes = {
        {ServingEngine::Generate, "hf", "transformers generate()",
         "transformers generation/utils.py generate, cache_utils.py DynamicCache; models/deepseek_v3, qwen3_next, "
         "nemotron_h, lfm2 modeling files",
         generateBehaviour()},
        {ServingEngine::Vllm, "vllm", "vLLM",
         "vllm v1/kv_cache_interface.py MLAAttentionSpec; model_executor/layers/mamba/mamba_utils.py "
         "MambaStateShapeCalculator, MambaStateDtypeCalculator; models/deepseek_v2.py DeepseekV32IndexerCache",
         vllmBehaviour()},
        {ServingEngine::LlamaCpp, "llamacpp", "llama.cpp",
         "llama.cpp ec98e2002 src/llama-kv-cache.cpp, llama-memory-recurrent.cpp, llama-hparams.cpp n_embd_r",
         llamaCppBehaviour()},
    };
    return runtimes;
}

const RuntimeInfo &runtimeInfo(ServingEngine engine)
{
    return findByValue(allRuntimes(), &RuntimeInfo::engine, engine);
}

} // namespace core
