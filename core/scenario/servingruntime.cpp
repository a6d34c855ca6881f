#include "core/scenario/servingruntime.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/scenario/stack.h"

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
constexpr const char *kDraftFromTrtllm =
    "TensorRT-LLM tensorrt_llm/_torch/pyexecutor/_util.py KvCacheCreator._get_kv_size_per_token (the draft's "
    "layers add their own cost per token to the target's pool)";
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
    // in float32 (kept so by the native Mamba cache), unless the family's
    // own cache preallocates it (Zamba2); the lightning-attention state
    // stays in the model's dtype.
    b.deltaRuleState = StateDtype::Fp32;
    b.lightningState = StateDtype::Model;
    b.ssmState = StateDtype::ScanOrOwnCache;
    // modeling_jamba.py HybridMambaAttentionDynamicCache (@ 008f5c8c)
    // allocates Mamba-1's conv and SSM states in the model's dtype.
    b.selectiveScanState = StateDtype::Model;
    b.layerOffload = LayerOffload::DeviceMap;
    // cache_utils.py DynamicIndexedLayer (DYNAMIC_LAYER_TYPE_MAPPING
    // "deepseek_sparse_attention"; modeling_deepseek_v32.py @ 01f8fa55
    // Indexer: update_indexer of the k_norm output, one head of
    // index_head_dim, concatenated, never evicted); DeepSeek-V4's CSA
    // layers keep one compressed entry per 4 tokens the same way.
    b.dsaIndexKeys = IndexerKeys::ModelDtype;
    // The plain formats: a DynamicCache in the model's dtype, or the
    // teaching figures of a quantised cache (cache_utils.py QuantizedCache).
    b.cacheFormats = {WeightFormat::Fp32, WeightFormat::Fp16, WeightFormat::Bf16,
                      WeightFormat::Fp8,  WeightFormat::Int8, WeightFormat::Int4};
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
    b.dsaIndexKeys = IndexerKeys::Fp8Scaled;
    b.fp8DsMlaEntries = true;
    b.rotaryCache = StateDtype::Model;
    b.rotaryCacheSource = "vLLM model_executor/layers/rotary_embedding (v0.10.0; rotary_embedding/base.py at "
                          "v0.19.1): cos_sin_cache in the model's dtype, one per rotary shape (get_rope's cache)";
    b.fusesAllReduceRms = true;
    // mamba2_state_shape / short_conv_state_shape / gated_delta_net_state_shape:
    // conv_kernel - 1 inputs.
    b.convInputs = ConvInputs::KernelMinusOne;
    // mamba_ssm_cache_dtype, which Qwen3.5 takes from mamba_ssm_dtype and
    // Nemotron-H from mamba_ssm_cache_dtype (ssmStateBytes), else the
    // model's; linear_attention_state_dtype is the model's.
    b.deltaRuleState = StateDtype::ConfigOrModel;
    b.lightningState = StateDtype::Model;
    b.ssmState = StateDtype::ConfigOrModel;
    b.selectiveScanState = StateDtype::ConfigOrModel; // mamba1_state_dtype: the same rule
    b.replicatesSsmGroups = true;
    b.profilesAtStartup = true;
    b.profileSource = "vllm v1 gpu_model_runner.py profile_run (_dummy_run; attention skipped while profiling)";
    b.profilesSampler = true;
    b.continuousBatching = true;
    // EngineArgs get_batch_defaults: by release and card (servingBatchDefaults).
    b.batchDefaultsFollowCard = true;
    b.offloadsWeightBytes = true;
    b.offloadsKvBlocks = true;
    b.skipsKvQuantisationPerLayer = true;
    // vllm/config/cache.py CacheDType (002f10e): auto (the model's dtype),
    // float16, bfloat16, the fp8 spellings, the per-token-head formats,
    // nvfp4 and TurboQuant's four presets.
    b.cacheFormats = {WeightFormat::Fp32,             WeightFormat::Fp16,
                      WeightFormat::Bf16,             WeightFormat::Fp8,
                      WeightFormat::Fp8PerTokenHead,  WeightFormat::Int8PerTokenHead,
                      WeightFormat::Int4PerTokenHead, WeightFormat::Nvfp4,
                      WeightFormat::TurboquantK8V4,   WeightFormat::Turboquant4BitNc,
                      WeightFormat::TurboquantK3V4Nc, WeightFormat::Turboquant3BitNc};
    // The first release whose CacheDType takes each (read at the tags of
    // vLLM's releases; int4_per_token_head from its release notes). nvfp4
    // was a spelling from 0.20.0 that no attention backend took until
    // FlashInfer's (PR 40177, 0.21.0).
    b.cacheFormatReleases = {
        {WeightFormat::Fp8, {0, 3, 0}, "vLLM PR 2279, v0.3.0 (fp8_e5m2; fp8 and fp8_e4m3 from 0.4.1 and 0.4.3)"},
        {WeightFormat::Fp8PerTokenHead, {0, 20, 0}, "vLLM PR 38378, v0.20.0"},
        {WeightFormat::Int8PerTokenHead, {0, 20, 0}, "vLLM PR 38378, v0.20.0"},
        {WeightFormat::Int4PerTokenHead, {0, 25, 0}, "vLLM PR 40835, v0.25.0 (release notes)"},
        {WeightFormat::Nvfp4, {0, 21, 0}, "vLLM PR 40177, v0.21.0 (the first attention backend to take it)"},
        {WeightFormat::TurboquantK8V4, {0, 20, 0}, "vLLM PR 38479, v0.20.0"},
        {WeightFormat::Turboquant4BitNc, {0, 20, 0}, "vLLM PR 38479, v0.20.0"},
        {WeightFormat::TurboquantK3V4Nc, {0, 20, 0}, "vLLM PR 38479, v0.20.0"},
        {WeightFormat::Turboquant3BitNc, {0, 20, 0}, "vLLM PR 38479, v0.20.0"},
    };
    b.takesKvCacheSize = true;
    b.takesCudaGraphEstimate = true;
    b.fitsContextToPool = true;
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
    b.profilesSampler = false;
    b.kvPool = KvPool::ShareOfFreeBeforeWeights;
    // vLLM's options SGLang does not have: weights in host memory and
    // per-layer KV formats; DeepSeek-V4's entries are sized by SGLang's own
    // configurator (not modelled). The recurrent-state and indexer rules
    // below stay vLLM's: SGLang's Mamba and DSA pools were not read.
    b.offloadsWeightBytes = false;
    b.offloadsKvBlocks = false;
    b.skipsKvQuantisationPerLayer = false;
    b.takesKvCacheSize = false;
    b.takesCudaGraphEstimate = false;
    b.fitsContextToPool = false;
    // Its default mem_fraction_static follows the release (kSglangFractionRules).
    b.releases = Library::Sglang;
    b.utilizationFollowsRelease = false;
    b.fp8DsMlaEntries = false;
    // server_args.py --kv-cache-dtype: auto (the model's fp32, fp16 or
    // bf16), bf16 and the fp8 spellings.
    b.cacheFormats = {WeightFormat::Fp32, WeightFormat::Fp16, WeightFormat::Bf16, WeightFormat::Fp8};
    b.cacheFormatReleases.clear();
    b.batchDefaultsFollowCard = false;
    b.eagerNcclCommunicators = true;
    b.measuresWeightsByFreeMemory = true;
    b.fusesAllReduceRms = false;
    b.rotaryCache = StateDtype::Fp32;
    b.rotaryCacheSource = "SGLang layers/rotary_embedding.py RotaryEmbedding._compute_cos_sin_cache, kept in fp32 on "
                          "CUDA, one per rotary shape (v0.4.9.post2 eb118d8; rotary_embedding/base.py at main 8905cbd)";
    b.draftSource = kDraftFromSglang;
    return b;
}

/// TensorRT-LLM's PyTorch backend (KvCacheCreator): a profiled forward of
/// max_num_tokens, then free_gpu_memory_fraction of what is left free, in
/// blocks of 32 tokens; MLA keeps the latent and the RoPE key
/// (resource_manager.py get_cache_size_per_token: kv_factor 1).
RuntimeBehaviour trtllmBehaviour()
{
    // Its recurrent-state and DSA indexer rules stay vLLM's (TensorRT-LLM's
    // Mamba and DSA caches were not read).
    RuntimeBehaviour b = vllmBehaviour();
    b.kvPool = KvPool::ShareOfFreeAfterProfile;
    b.rotaryCache.reset(); // its RoPE buffers were not read
    b.fusesAllReduceRms = false;
    b.poolBlockTokens = 32;
    // Dummy context requests of max_num_tokens tokens in all, through the
    // model's own layers (the intermediates of vLLM's profile forward).
    b.profileSource = "TensorRT-LLM _torch/pyexecutor/_util.py KvCacheCreator.configure_kv_cache_capacity "
                      "(_create_dummy_context_requests: max_num_tokens tokens, max_tokens 1)";
    // Its dummy context requests sample one token each.
    b.profilesSampler = false;
    // llm_args.py BaseLlmArgs.max_batch_size.
    b.defaultMaxSeqs = 2048;
    b.batchDefaultsFollowCard = false;
    // allreduce_helper.py (2026): 64 MiB a rank, for the IPC buffers (1x)
    // and the Lamport buffers (3x), per rank of the group.
    b.allReduceWorkspaceMib = 64;
    b.cudaOnly = true;
    // Supported hardware (nvidia.github.io/TensorRT-LLM/supported-hardware.html:
    // Blackwell, Hopper, Ada Lovelace, Ampere; the 0.18 support matrix:
    // SM80 and later, others "limited to community support").
    b.minComputeCapability = 8.0;
    // Its checkpoints are Hugging Face or ModelOpt safetensors; no loader
    // reads GGUF (the quantization support matrix lists FP8, NVFP4,
    // W4A16 AWQ/GPTQ, W8A8 SmoothQuant and INT8 weight-only formats).
    b.loadsGguf = false;
    // KvCacheConfig.dtype: auto (the checkpoint's, the model's fp32, fp16
    // or bf16), fp8 or nvfp4.
    b.cacheFormats = {WeightFormat::Fp32, WeightFormat::Fp16, WeightFormat::Bf16, WeightFormat::Fp8,
                      WeightFormat::Nvfp4};
    b.cacheFormatReleases.clear();
    // vLLM's options TensorRT-LLM does not have.
    b.offloadsWeightBytes = false;
    b.offloadsKvBlocks = false;
    b.skipsKvQuantisationPerLayer = false;
    b.takesKvCacheSize = false;
    b.takesCudaGraphEstimate = false;
    b.fitsContextToPool = false;
    // Its pool's rounding and all-reduce workspace follow the release.
    b.releases = Library::Trtllm;
    b.utilizationFollowsRelease = false;
    b.fp8DsMlaEntries = false;
    b.draftSource = kDraftFromTrtllm;
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
    b.selectiveScanState = StateDtype::Fp32;
    // src/models/minimax-m3.cpp (PR 24908): the index keys' cache is f32.
    b.msaIndexKeys = IndexerKeys::Fp32;
    b.ggmlBuffers = true;
    b.fitsItselfAtLoad = true;
    b.splitsLayersByMemory = true;
    b.layerOffload = LayerOffload::GpuLayers;
    // common/arg.cpp kv_cache_types (the f32, f16 and bf16 caches, and the
    // two GGUF block types the planner sizes).
    b.cacheFormats = {WeightFormat::Fp32, WeightFormat::Fp16, WeightFormat::Bf16, WeightFormat::GgufQ8_0,
                      WeightFormat::GgufQ4_0};
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
        {ServingEngine::Trtllm, "trtllm", "TensorRT-LLM",
         QT_TRANSLATE_NOOP("Field", "TensorRT-LLM (KV pool of the free memory)"),
         "TensorRT-LLM PyTorch backend, tensorrt_llm/_torch/pyexecutor/_util.py KvCacheCreator "
         "(configure_kv_cache_capacity, _cal_max_memory; 1.1.0rc3 logs and main at 0004396), resource_manager.py "
         "KVCacheManager.calculate_max_num_blocks and get_cache_size_per_token, llmapi/llm_args.py KvCacheConfig",
         trtllmBehaviour()},
    };
    return runtimes;
}

const RuntimeInfo &runtimeInfo(ServingEngine engine)
{
    return findByValue(allRuntimes(), &RuntimeInfo::engine, engine);
}

bool vllmModelRunnerV2(const Scenario &s)
{
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if (runtime.releases != Library::Vllm || !runtime.profilesSampler)
        return false;
    if (s.speculativeDraft() == SpeculativeDraft::Model || (s.parallel.sequenceParallel && s.parallel.tp > 1))
        return false;
    if (versionRuleHolds(s.versions, VersionRule::VllmModelRunnerV2))
        return true;
    const ModelSpec &m = s.model;
    return versionRuleHolds(s.versions, VersionRule::VllmModelRunnerV2Dense) && !m.moe.isMoe()
        && m.linearLayers == 0 && m.mambaLayers == 0;
}

bool allReduceFusionFollowsTheCard(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    // vLLM turns the fusion off with a pipeline (issue 35426) and with data
    // parallelism (issue 34458): config/vllm.py enable_allreduce_rms_fusion
    // at v0.19.1. The planner's expert parallelism spans data-parallel ranks
    // (vLLM's --data-parallel-size with --enable-expert-parallel).
    return runtime && runtime->fusesAllReduceRms && s.parallel.pp == 1 && s.parallel.ep == 1
        && versionRuleHolds(s.versions, VersionRule::VllmAllReduceRmsFusion);
}

bool fusesAllReduceOnItsCard(const Scenario &s)
{
    const int tp = s.parallel.tp;
    return allReduceFusionFollowsTheCard(s) && (tp == 2 || tp == 4 || tp == 8) && s.servingCard.hopperOrBlackwell;
}

const char *ownEstimateWhy(const Scenario &onCard, const Scenario &focus)
{
    const ServingCard &card = onCard.servingCard;
    const bool otherBatch = !(batchOn(onCard, card) == batchOn(focus, focus.servingCard));
    if (defaultsFollowTheCard(onCard) && otherBatch)
        return servingBatchDefaults(onCard).why;
    if (communicatorsFollowTheLink(onCard) && card.link != focus.servingCard.link) {
        switch (card.link) {
        case GpuLink::Nvlink:
            return QT_TRANSLATE_NOOP("Derivation", "the engine's NCCL communicators over NVLink and NVSwitch");
        case GpuLink::Pcie:
            return QT_TRANSLATE_NOOP("Derivation", "the engine's NCCL communicators over PCIe");
        case GpuLink::NotCuda:
            break;
        }
        return QT_TRANSLATE_NOOP("Derivation", "another vendor's collective library, sized by NCCL_BUFFSIZE's rule");
    }
    if (allReduceFusionFollowsTheCard(onCard) && card.hopperOrBlackwell != focus.servingCard.hopperOrBlackwell)
        return card.hopperOrBlackwell
            ? QT_TRANSLATE_NOOP("Derivation", "vLLM's all-reduce fusion workspace (compute capability 9.0 or 10.x)")
            : QT_TRANSLATE_NOOP("Derivation", "no all-reduce fusion on this card (vLLM fuses on compute capability 9.0 or 10.x)");
    return servingBatchDefaults(onCard).why;
}

BatchDefaults servingBatchDefaults(const Scenario &s, const ServingCard &card)
{
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if (!runtime.batchDefaultsFollowCard)
        return {runtime.defaultMaxSeqs, runtime.defaultBatchedTokens,
                QT_TRANSLATE_NOOP("Derivation", "the engine's defaults (TensorRT-LLM: max_num_tokens 8,192, "
                                                "max_batch_size 2,048)")};
    const LibraryVersions &v = s.versions;
    if (!versionRuleHolds(v, VersionRule::VllmV1Engine)) {
        const char *v0 = QT_TRANSLATE_NOOP("Derivation", "vLLM V0's defaults (before 0.8): 256 sequences; "
                                                         "max(max_model_len, 2,048) tokens a step, or with chunked "
                                                         "prefill (max_model_len over 32,768) 512, 2,048 from 0.7");
        const std::uint64_t maxModelLen = s.model.maxPositions > 0 ? s.model.maxPositions : s.contextTokens();
        if (maxModelLen > 32768)
            return {256, versionRuleHolds(v, VersionRule::VllmChunkedPrefill2048) ? 2048u : 512u, v0};
        return {256, std::max<std::uint64_t>(maxModelLen, 2048), v0};
    }
    const bool large = card.atLeast70Gib && !(card.a100 && versionRuleHolds(v, VersionRule::VllmA100SmallDefaults));
    if (!versionRuleHolds(v, VersionRule::VllmSeqsByCard))
        return {1024, large ? 8192u : 2048u,
                QT_TRANSLATE_NOOP("Derivation", "vllm serve's defaults in 0.8.0 to 0.8.3: 1,024 sequences on every "
                                                "card; 8,192 tokens a step on a card of 70 GiB or more, else 2,048")};
    if (large)
        return {1024, 8192,
                QT_TRANSLATE_NOOP("Derivation", "vllm serve's defaults on a card of 70 GiB or more (an A100 excepted "
                                                "from 0.9): 8,192 tokens a step, 1,024 sequences")};
    return {256, 2048,
            QT_TRANSLATE_NOOP("Derivation", "vllm serve's defaults on a card under 70 GiB or an A100: 2,048 tokens a "
                                            "step, 256 sequences")};
}

Batch batchOn(const Scenario &s, const ServingCard &card)
{
    const BatchDefaults defaults = servingBatchDefaults(s, card);
    const std::uint64_t tokens = s.maxBatchedTokens.value_or(defaults.maxBatchedTokens);
    if (s.maxNumSeqs)
        return {*s.maxNumSeqs, tokens};
    const bool capped = runtimeBehaviour(s.serving).batchDefaultsFollowCard;
    return {capped ? std::min(defaults.maxNumSeqs, tokens) : defaults.maxNumSeqs, tokens};
}

double allReduceWorkspaceMib(const Scenario &s)
{
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if (runtime.allReduceWorkspaceMib <= 0 || versionRuleHolds(s.versions, VersionRule::TrtllmAllReduce64Mib))
        return runtime.allReduceWorkspaceMib;
    return (s.parallel.tp <= 2 ? 16e6 : 8e6) / (1024.0 * 1024.0);
}

bool poolRoundsUp(const Scenario &s)
{
    return runtimeBehaviour(s.serving).releases == Library::Trtllm
        && !versionRuleHolds(s.versions, VersionRule::TrtllmFloorBlocks);
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
