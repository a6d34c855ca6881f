#pragma once

#include "core/model/checkpoint.h"
#include "core/scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace core {

/// What a serving runtime keeps for one token of multi-head latent attention.
enum class MlaCacheLayout {
    RebuiltHeads,      ///< every head's rebuilt key and value (transformers' DeepseekV3Attention)
    Latent,            ///< the latent and the shared RoPE key, once (vLLM MLAAttentionSpec)
    LatentKeyAndValue, ///< K = latent + RoPE key, V = the latent again (llama.cpp)
};

/// How many of a causal convolution's last inputs a runtime keeps per
/// sequence (Mamba-2, Gated DeltaNet and LFM2 short convolutions alike).
enum class ConvInputs {
    Kernel,          ///< the kernel's width: the cache is padded to the kernel (transformers)
    KernelMinusOne,  ///< the inputs the next step still needs (vLLM, llama.cpp)
};

/// The dtype a runtime keeps a recurrent state in.
enum class StateDtype {
    Fp32,          ///< float32 whatever the model's dtype
    Model,         ///< the model's dtype
    ConfigOrModel, ///< the dtype the config's mamba_ssm_(cache_)dtype names, else the model's
    /// float32 as the scan returns it, or the model's dtype where the
    /// family's own cache preallocates the state (ModelSpec::ownStateCache)
    ScanOrOwnCache,
};

/// How a runtime keeps a sparse-attention indexer's keys.
enum class IndexerKeys {
    NotKept,    ///< not kept (or not modelled)
    Fp8Scaled,  ///< index_head_dim fp8 values and an fp32 scale per 128
    ModelDtype, ///< index_head_dim values in the model's dtype
    Fp32,       ///< index_head_dim f32 values
};

/// How a runtime keeps layers in host memory when they do not fit.
enum class LayerOffload {
    None,      ///< it does not (vLLM offloads bytes instead: --cpu-offload-gb)
    DeviceMap, ///< accelerate's device_map: layers on the CPU, copied in to run (one GPU, no tp or pp)
    GpuLayers, ///< llama.cpp --gpu-layers: the rest run on the CPU
};

/// How a runtime sizes its KV pool at start-up.
enum class KvPool {
    /// A share of each card (gpu_memory_utilization) less weights, the
    /// profiled activations and what the runtime holds besides (vLLM
    /// gpu_worker.py determine_available_memory).
    ShareOfCard,
    /// mem_fraction_static of the memory free before the weights load,
    /// less the weights (SGLang model_runner_kv_cache_mixin.py
    /// _profile_available_bytes).
    ShareOfFreeBeforeWeights,
    /// free_gpu_memory_fraction of what the weights and the profiled
    /// forward leave free (TensorRT-LLM _torch/pyexecutor/_util.py
    /// KvCacheCreator._cal_max_memory), in whole blocks.
    ShareOfFreeAfterProfile,
};

/// What one serving runtime does with a model's cache and state, read from
/// its source at the version named in `RuntimeInfo::source`. Every KV and
/// state rule reads these rows; no rule tests the runtime itself. Each
/// member cites the code it models.
struct RuntimeBehaviour
{
    MlaCacheLayout mla = MlaCacheLayout::RebuiltHeads;
    /// How the DSA indexer's own key cache (DeepSeek-V3.2, GLM-5,
    /// DeepSeek-V4's ratio-4 layers) is kept beside the KV cache: fp8 with
    /// scales (vLLM DeepseekV32IndexerCache), in the model's dtype
    /// (transformers DynamicIndexedLayer), or not modelled.
    IndexerKeys dsaIndexKeys = IndexerKeys::NotKept;
    /// DeepSeek-V4's entries are stored as fp8_ds_mla whatever the KV dtype
    /// (vLLM deepseek_v4_attention.py head_bytes), DeepSeek Sparse
    /// Attention's (DeepSeek-V3.2) unless the KV format is bf16.
    bool fp8DsMlaEntries = false;
    /// DeepSeek-V4's compressed attention is implemented; where it is not,
    /// the runtime loads no such model.
    bool compressedAttention = true;
    ConvInputs convInputs = ConvInputs::KernelMinusOne;
    /// LFM2's short-convolution cache has a slot in every layer, attention
    /// layers included (transformers Lfm2HybridConvCache).
    bool convStateInEveryLayer = false;
    StateDtype deltaRuleState = StateDtype::Fp32;   ///< Gated DeltaNet's recurrent state
    StateDtype lightningState = StateDtype::Model;  ///< MiniMax's lightning-attention state
    StateDtype ssmState = StateDtype::Fp32;         ///< Mamba-2's SSM state
    /// Mamba-1's SSM state (ModelSpec::isMamba1): transformers' Jamba cache
    /// keeps it in the model's dtype where its Mamba-2 scan returns fp32.
    StateDtype selectiveScanState = StateDtype::Model;
    /// MiniMax Sparse Attention's indexer keys (ModelSpec::msaIndexer):
    /// the model's dtype in transformers (MiniMaxM3VLSparseCacheLayer),
    /// vLLM (indexer_kv_dtype bf16), SGLang (index_k_pool in the model's
    /// dtype) and TensorRT-LLM (bf16 beside an fp8 cache); f32 in llama.cpp.
    IndexerKeys msaIndexKeys = IndexerKeys::ModelDtype;
    /// Where Mamba-2's groups do not divide over the tensor-parallel ranks,
    /// each rank keeps a copy of one (vLLM extra_groups_for_head_shards).
    bool replicatesSsmGroups = false;
    /// Sizes its KV cache after profiling one forward of
    /// max_num_batched_tokens tokens and a sampler warm-up (vLLM
    /// gpu_model_runner.py profile_run), instead of running the scenario's batch.
    bool profilesAtStartup = false;
    const char *profileSource = nullptr; ///< where its start-up profile is read from
    /// Decodes as many sequences as its KV budget holds, up to max_num_seqs
    /// (vLLM's scheduler), instead of the scenario's rows; every worker
    /// gets the smallest worker's KV cache (vLLM determine_available_memory).
    bool continuousBatching = false;
    KvPool kvPool = KvPool::ShareOfCard;
    /// Tokens per KV block where the pool is counted in whole blocks
    /// (TensorRT-LLM KvCacheConfig.tokens_per_block); 1: in tokens.
    std::uint64_t poolBlockTokens = 1;
    /// Its start-up profile runs the sampler on max_num_seqs rows after the
    /// forward (vLLM _dummy_sampler_run); TensorRT-LLM's dummy requests
    /// sample one token each.
    bool profilesSampler = false;
    /// The sequences it runs at once and the tokens its start-up profile
    /// runs when the scenario leaves them unset (TensorRT-LLM
    /// max_batch_size and max_num_tokens); vLLM's follow its release and
    /// the card (servingBatchDefaults).
    std::uint64_t defaultMaxSeqs = 256;
    std::uint64_t defaultBatchedTokens = 8192;
    bool batchDefaultsFollowCard = false;
    /// Runs on NVIDIA's CUDA GPUs only (TensorRT-LLM).
    bool cudaOnly = false;
    /// The oldest CUDA compute capability its releases are built and tested
    /// for; 0: no floor.
    double minComputeCapability = 0;
    /// Loads a GGUF file's quantised weights (llama.cpp; vLLM's and
    /// SGLang's GGUF loaders; transformers' gguf_file).
    bool loadsGguf = true;
    /// MiB of its own all-reduce workspace per tensor-parallel rank in its
    /// current release, each GPU holding four times that per rank of its
    /// group beside NCCL (TensorRT-LLM allreduce_helper.py); 0: none beyond
    /// NCCL. allReduceWorkspaceMib(scenario) gives the scenario's release's.
    double allReduceWorkspaceMib = 0;
    /// Creates its tensor- and pipeline-parallel NCCL communicators, and
    /// its custom all-reduce buffers, before it measures the free memory
    /// its pool is a share of, with NCCL_CUMEM_ENABLE=0 so that NCCL
    /// connects every channel's ring and tree at once (SGLang:
    /// entrypoints/engine.py _set_envs_and_config, parallel_state.py
    /// GroupCoordinator with pynccl's warm-up all_reduce, v0.4.9.post2
    /// eb118d8 and main 8905cbd). Its comm_buffers are those communicators
    /// (commBuffers, core/memory/overheads.h), not NCCL_BUFFSIZE's rule of thumb.
    bool eagerNcclCommunicators = false;
    /// Measures what its weights took from the driver's free memory after
    /// torch.cuda.empty_cache() (SGLang model_runner.py load_model with
    /// get_available_gpu_memory), so its weights hold the tails of the
    /// caching allocator's segments they leave.
    bool measuresWeightsByFreeMemory = false;
    /// Fuses each tensor-parallel all-reduce with the next RMSNorm in
    /// FlashInfer's kernels where its release does it by default
    /// (VersionRule::VllmAllReduceRmsFusion: vLLM from 0.17, with PP 1, on
    /// compute capability 9.0 or 10.x): a workspace beside NCCL's buffers.
    bool fusesAllReduceRms = false;
    /// The rotary cos/sin cache its attention builds beside the weights,
    /// max_position_embeddings x the rotated dimensions, in fp32 (SGLang's
    /// rotary_embedding.py keeps it so on CUDA, v0.4.9.post2 eb118d8 and
    /// main 8905cbd) or the model's dtype (vLLM rotary_embedding/base.py,
    /// v0.10.0 and v0.19.1); nullopt where none is kept (transformers
    /// computes cos and sin each forward) or it was not read.
    std::optional<StateDtype> rotaryCache;
    const char *rotaryCacheSource = nullptr; ///< where that cache is read from
    /// With --max-model-len auto, chooses the longest context one request's
    /// KV cache fits in the pool (vLLM kv_cache_utils.py
    /// _estimate_max_model_len_from_groups: a binary search up to the
    /// model's length, PR 29431).
    bool fitsContextToPool = false;
    /// Takes the KV cache's size per GPU as given instead of a share of the
    /// card (vLLM kv_cache_memory_bytes, PR 21489).
    bool takesKvCacheSize = false;
    /// Takes its own estimate of CUDA-graph memory from the KV budget where
    /// its release does (vLLM from 0.21, version rule vllm_utilization_092:
    /// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on by default).
    bool takesCudaGraphEstimate = false;
    /// The library of the set of versions whose releases set this
    /// engine's defaults (--engine-version); nullopt: none modelled yet.
    std::optional<Library> releases;
    /// Its default gpu_memory_utilization follows its release (vLLM 0.92
    /// from 0.21, version rule vllm_utilization_092); else 0.9.
    bool utilizationFollowsRelease = false;
    /// Sizes memory as ggml buffers of a GGUF file: model, context and
    /// compute buffers per device (llama.cpp, core/memory/llamacpp.h),
    /// not as torch allocations.
    bool ggmlBuffers = false;
    /// Chooses its own context and offload at load when the user left them
    /// unset (llama-server --fit, on by default since llama.cpp PR 16653:
    /// common/fit.cpp common_params_fit_impl).
    bool fitsItselfAtLoad = false;
    /// Splits whole layers over the GPUs by their free memory and runs
    /// them one after another (llama.cpp --split-mode layer), not tensors.
    bool splitsLayersByMemory = false;
    LayerOffload layerOffload = LayerOffload::None;
    /// Keeps a given number of weight bytes per GPU in host memory and
    /// reads them over the host link (vLLM --cpu-offload-gb).
    bool offloadsWeightBytes = false;
    /// Keeps offloaded KV blocks in pinned host memory, the given GiB over
    /// the ranks (vLLM kv_offloading_size, the native connector's
    /// cpu_bytes_to_use / (tp x pp) a rank).
    bool offloadsKvBlocks = false;
    /// Keeps the KV cache of chosen layers in the model's dtype while the
    /// others use the KV cache format (vLLM kv_cache_dtype_skip_layers,
    /// vllm/config/cache.py).
    bool skipsKvQuantisationPerLayer = false;
    /// The KV cache formats it takes (its --kv-cache-dtype, llama.cpp's
    /// --cache-type-k/-v), cited where each runtime's row sets them.
    std::vector<WeightFormat> cacheFormats;
    /// Those of them that came in a later release of its `releases`
    /// library than the oldest one modelled: before `since` the release
    /// refuses the format.
    struct CacheFormatRelease
    {
        WeightFormat format;
        Version since;
        const char *source;
    };
    std::vector<CacheFormatRelease> cacheFormatReleases;
    /// Speculative decoding runs one sequence only (transformers' assisted
    /// generation: batch_size 1, num_return_sequences 1).
    bool draftRunsOneRow = false;
    /// The draft's cache is f16 whatever the target's (llama.cpp
    /// common_params_speculative cache_type_k/v).
    bool draftCacheF16 = false;
    const char *draftSource = nullptr; ///< where its speculative decoding is read from
    /// Derivation notes, one per behaviour that differs between runtimes.
    const char *whyConvInputs = nullptr;
    const char *whySsmState = nullptr;      ///< why an fp32 SSM state
    const char *whyDeltaRuleState = nullptr; ///< nullptr where the note would repeat the dtype
};

struct RuntimeInfo
{
    ServingEngine engine;
    const char *id;     ///< CLI and file spelling: "hf", "vllm", "llamacpp"
    const char *name;   ///< the project's own name: "transformers generate()", "vLLM", "llama.cpp"
    const char *label;  ///< the window's choice, a Qt Linguist source text in context "Field"
    const char *source; ///< the code the behaviour was read from
    RuntimeBehaviour behaviour;
};

const std::vector<RuntimeInfo> &allRuntimes();
const RuntimeInfo &runtimeInfo(ServingEngine engine);
inline const RuntimeBehaviour &runtimeBehaviour(ServingEngine engine) { return runtimeInfo(engine).behaviour; }

/// The behaviour of the scenario's serving runtime; nullptr when it trains.
inline const RuntimeBehaviour *servingBehaviour(const Scenario &s)
{
    return s.isTraining() ? nullptr : &runtimeBehaviour(s.serving);
}

/// The runtime a checkpoint's files imply: a GGUF file is run by the
/// runtime that sizes ggml buffers (llama.cpp); none for the others, which
/// every runtime loads.
std::optional<ServingEngine> runtimeForCheckpoint(const CheckpointWeights &checkpoint);

/// Inference whose runtime sizes ggml buffers (llama.cpp's own layer split
/// and compute buffers).
inline bool usesGgmlBuffers(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->ggmlBuffers;
}

/// Inference whose runtime splits whole layers over the GPUs by their free
/// memory (llama.cpp --split-mode layer).
inline bool splitsLayersByMemory(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->splitsLayersByMemory;
}

/// A serving engine's max_num_seqs and max_num_batched_tokens when the
/// scenario leaves them unset.
struct BatchDefaults
{
    std::uint64_t maxNumSeqs;
    std::uint64_t maxBatchedTokens;
    const char *why; ///< where they come from, for the derivation ("Derivation")
};
/// Those of the scenario's engine, release and card. vLLM's are
/// `vllm serve`'s (EngineArgs get_batch_defaults, usage context
/// OPENAI_API_SERVER): from 0.8.0 (V1, PR 13726) a card of 70 GiB or more
/// runs 1,024 sequences and profiles 8,192 tokens, a smaller one 256 and
/// 2,048 (1,024 sequences on every card until PR 16158, 0.8.4); from 0.9.0
/// an A100 counts as small (PR 17885). Before 0.8.0 (V0, SchedulerConfig)
/// 256 sequences and max(max_model_len, 2,048) tokens, or with chunked
/// prefill, which a context over 32,768 turned on, 512 (2,048 from 0.7.0).
BatchDefaults servingBatchDefaults(const Scenario &s, const ServingCard &card);

/// Those on the scenario's own card (Scenario::servingCard).
inline BatchDefaults servingBatchDefaults(const Scenario &s) { return servingBatchDefaults(s, s.servingCard); }

/// Whether vLLM runs the scenario on its Model Runner V2 (vllm/config/vllm.py
/// VllmConfig.use_v2_model_runner, read at a main commit of 2026-08-04,
/// 4f819f80, and after PR 53183): every model from 0.29, dense ones
/// (no experts, no linear-attention or Mamba layers) from 0.25; never with
/// a draft model (its speculative methods are eagle, eagle3, mtp, dflash and
/// dspark) or sequence parallelism over tp > 1
/// (_get_v2_model_runner_unsupported_features).
bool vllmModelRunnerV2(const Scenario &s);

/// The sequences and the tokens a step the scenario's engine runs on
/// `card`: its settings, else the defaults there; vLLM caps a max_num_seqs
/// it defaulted at max_num_batched_tokens (engine/arg_utils.py).
struct Batch
{
    std::uint64_t maxNumSeqs;
    std::uint64_t maxBatchedTokens;
    bool operator==(const Batch &o) const { return maxNumSeqs == o.maxNumSeqs && maxBatchedTokens == o.maxBatchedTokens; }
};
Batch batchOn(const Scenario &s, const ServingCard &card);

/// Inference whose engine's defaults, as the scenario leaves them, read
/// the card it starts on (Scenario::servingCard): each kind of card needs
/// its own estimate.
inline bool defaultsFollowTheCard(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->batchDefaultsFollowCard && (!s.maxNumSeqs || !s.maxBatchedTokens);
}
/// vLLM sizes its pool as a share of the card less what it profiled (not
/// kv_cache_memory_bytes): its releases from 0.9.2 subtract only the
/// non-torch memory grown after their init snapshot
/// (VersionRule::VllmBudgetFromSnapshot reads the release).
inline bool vllmProfilesTheBudget(const Scenario &s)
{
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    return runtime.kvPool == KvPool::ShareOfCard && runtime.releases == Library::Vllm && !s.kvCacheMemoryGib;
}
/// Inference whose engine connects NCCL communicators whose size follows
/// the card's link (RuntimeBehaviour::eagerNcclCommunicators); on one GPU
/// too, as what would fit searches more.
inline bool communicatorsFollowTheLink(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->eagerNcclCommunicators;
}
/// An engine and release that fuse all-reduce and RMSNorm where the card
/// can (RuntimeBehaviour::fusesAllReduceRms and its version rule), without
/// a pipeline or expert parallelism over data-parallel ranks: its workspace
/// follows the card at any TP the scenario or a search for more GPUs runs.
bool allReduceFusionFollowsTheCard(const Scenario &s);
/// Whether the scenario, on its serving card, holds that workspace: TP 2,
/// 4 or 8 (vLLM's flashinfer_max_size has no other world size) on compute
/// capability 9.0 or 10.x.
bool fusesAllReduceOnItsCard(const Scenario &s);
/// Each kind of card needs its own estimate: the engine's defaults, its
/// communicators (at least in the searches that try more GPUs) or its
/// all-reduce fusion follow the card.
inline bool estimateFollowsTheCard(const Scenario &s)
{
    return defaultsFollowTheCard(s) || communicatorsFollowTheLink(s) || allReduceFusionFollowsTheCard(s);
}
/// The scenario's own total differs by the kind of card: the engine's
/// defaults or its all-reduce fusion follow it, or its communicators do
/// over more than one GPU.
inline bool totalFollowsTheCard(const Scenario &s)
{
    return defaultsFollowTheCard(s) || (allReduceFusionFollowsTheCard(s) && s.parallel.tp > 1)
        || (communicatorsFollowTheLink(s) && s.gpus > 1);
}
/// Why a card of another kind is fitted on its own estimate (`onCard`:
/// the scenario as it runs there), beside the focus card's (`focus`): the
/// first that differs of the engine's batch defaults on it, its
/// communicators over that card's link and its all-reduce fusion
/// ("Derivation" context).
const char *ownEstimateWhy(const Scenario &onCard, const Scenario &focus);
/// Whether `gpu` runs the scenario's engine as the scenario's own card
/// does, with the same batch and, where they follow the link, the same
/// communicators: such cards share an estimate.
inline bool sameEstimateOn(const Scenario &s, const GpuSpec &gpu)
{
    const ServingCard card = servingCardOf(gpu);
    if (communicatorsFollowTheLink(s) && card.link != s.servingCard.link)
        return false;
    if (allReduceFusionFollowsTheCard(s) && card.hopperOrBlackwell != s.servingCard.hopperOrBlackwell)
        return false;
    return batchOn(s, card) == batchOn(s, s.servingCard);
}
/// Whether `gpu` holds the same total as the scenario's own card: cards
/// that share an estimate, and on one GPU every card whose engine only
/// connects communicators (totalFollowsTheCard).
inline bool sameTotalOn(const Scenario &s, const GpuSpec &gpu)
{
    return !totalFollowsTheCard(s) || sameEstimateOn(s, gpu);
}

/// MiB of the engine's own all-reduce workspace per rank of the TP group
/// in the scenario's release: TensorRT-LLM's 64 MiB from 1.2.0rc5 (PR
/// 9145), before it max_workspace_size_auto's 16 MB at TP 2 and 8 MB from
/// TP 4 (decimal megabytes); 0 where the engine has none.
double allReduceWorkspaceMib(const Scenario &s);
/// Whether the engine rounds its KV pool up to whole blocks (TensorRT-LLM
/// before 1.2.0rc5, math.ceil) rather than down.
bool poolRoundsUp(const Scenario &s);

/// Inference whose runtime keeps layers N..L-1 in host memory and runs them
/// on the GPU (accelerate's device_map, core/memory/hostoffload.h):
/// --gpu-layers N at most the model's layers.
inline bool offloadsLayersToHost(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->layerOffload == LayerOffload::DeviceMap && s.gpuLayers && *s.gpuLayers <= s.model.layers;
}

} // namespace core
