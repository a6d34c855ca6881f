#pragma once

#include "core/base/message.h"
#include "core/model/catalog.h"
#include "core/model/checkpoint.h"
#include "core/model/formats.h"
#include "core/model/modelspec.h"
#include "core/scenario/libraryversions.h"
#include "core/scenario/trainingchoices.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core {

enum class Mode { Inference, Train, Lora, Qlora };
/// `Offloaded`: full checkpointing whose layer inputs wait in host memory
/// (Unsloth's use_gradient_checkpointing="unsloth").
enum class Checkpointing { None, Selective, Full, Offloaded };
/// Every layer is run again in backward (full and offloaded checkpointing).
inline bool recomputesLayers(Checkpointing c) { return c == Checkpointing::Full || c == Checkpointing::Offloaded; }
enum class Attention { Eager, Sdpa, Flash };
/// How the loss sees the logits: the Hugging Face Trainer upcasts all b*s*V
/// logits to fp32; `Native` keeps them in the activation dtype (LitGPT);
/// `Chunked` upcasts a chunk at a time in eager mode (torchtune), which still
/// keeps every chunk's fp32 log-softmax; `Fused` is a fused or compiled loss
/// that keeps only the 16-bit logits and a log-sum-exp per row
/// (torch.compile'd torchtune loss); `LastToken` is what generate() computes
/// at prefill (logits_to_keep = 1).
/// `Fp32Shift`: the model itself returns fp32 logits and the loss shifts a
/// contiguous copy (transformers <= 4.45; torchtune before its chunked loss).
/// `FusedLinear`: the output layer and the loss run together a chunk of
/// tokens at a time and never hold the whole logits; the hidden states'
/// gradient is computed in the forward and kept (Liger's fused linear
/// cross-entropy).
enum class LogitsMode { Fp32, Fp32Shift, Native, Chunked, Fused, LastToken, FusedLinear };
/// CUDA module loading: lazy is the default since CUDA 11.7 / PyTorch 1.13.
enum class CudaLoading { Lazy, Eager };
/// The software that runs a training run; each keeps different tensors for
/// the same settings (what each does: core/scenario/stack.h).
enum class TrainingStack {
    Hf,        ///< Hugging Face Trainer + PEFT (+ bitsandbytes for QLoRA)
    Torchtune, ///< torchtune recipes (torchao NF4 for QLoRA)
    LitGpt,    ///< LitGPT finetune (Lightning Fabric, bitsandbytes for QLoRA)
    Loop       ///< a plain PyTorch loop over a transformers + PEFT model
};
/// What serves an inference scenario: Hugging Face generate() runs the
/// scenario's batch; vLLM sizes its KV pool after a profiling forward of
/// max_num_batched_tokens tokens and a sampler warm-up of max_num_seqs rows;
/// llama.cpp (llama-cli, llama-server) reserves one KV stream per parallel
/// sequence and a compute buffer for one micro-batch of n_ubatch tokens;
/// SGLang gives its pool mem_fraction_static of the free memory less the
/// weights; TensorRT-LLM free_gpu_memory_fraction of what its profile
/// leaves free (their policy rows in servingruntime.cpp).
enum class ServingEngine { Generate, Vllm, LlamaCpp, Sglang, Trtllm };
/// Speculative decoding's drafter (Scenario::speculativeDraft).
enum class SpeculativeDraft { None, Model, Mtp };
/// bitsandbytes up to 0.43.1 kept every 4-bit layer's input for backward
/// (MatMul4Bit ctx.tensors = (A, B)); 0.43.2 (July 2024) dropped it.
enum class BitsandbytesVersion { Current, Legacy };

/// What ZeRO-Offload / ZeRO-Infinity move to host memory.
enum class Offload {
    None,
    Optimizer,        ///< fp32 master weights, optimizer states and fp32 gradients (ZeRO-Offload)
    OptimizerAndParams ///< also the parameters, gathered a layer at a time (ZeRO-Infinity)
};

/// How the GPUs of one node reach each other, as NCCL's topology search
/// finds it: the number of channels and the chunk of its shared buffers
/// follow it (commBuffers, core/memory/overheads.h).
enum class GpuLink {
    Nvlink, ///< NVLink through NVSwitch (SXM boards)
    Pcie,   ///< PCIe, peer to peer under one switch
    NotCuda ///< another vendor's collective library (RCCL, HCCL)
};

/// What a serving engine reads of the GPU it starts on: vLLM's
/// EngineArgs.get_batch_defaults asks whether the device's total memory is
/// 70 GiB or more and whether its name says A100; the NCCL communicators
/// an engine creates before it measures follow the link. The defaults
/// describe an H100 SXM, the default focus GPU.
struct ServingCard
{
    bool atLeast70Gib = true;
    bool a100 = false;
    GpuLink link = GpuLink::Nvlink;
    /// Compute capability 9.0 or 10.x (Hopper, data-centre Blackwell):
    /// vLLM's FlashInfer all-reduce fusion runs there.
    bool hopperOrBlackwell = true;
};
/// That of a catalog GPU: its usable memory (what the driver reports as
/// total), its name, and its interconnect (an NVIDIA card whose
/// interconnect starts with NVLink, in any case, or names none, else PCIe;
/// a PCIe card's optional NVLink bridge joins a pair only), and its
/// compute capability.
ServingCard servingCardOf(const GpuSpec &gpu);

/// How the GPUs split the model: tp x pp x dp = GPUs (Megatron-LM's 3D
/// parallelism, Narayanan et al. 2021), with ZeRO/FSDP on the dp axis.
struct Parallelism
{
    int tp = 1;                    ///< tensor parallel degree
    int pp = 1;                    ///< pipeline stages
    int ep = 1;                    ///< expert parallel degree (MoE), within dp
    bool sequenceParallel = false; ///< Korthikanti et al. 2022 §4.2.2
    int interleave = 1;            ///< virtual stages per GPU (1 = plain 1F1B)
    Offload offload = Offload::None;
    int gpusPerNode = 8;
    /// FSDP HYBRID_SHARD / DeepSpeed ZeRO++ hpZ: shard within a node,
    /// replicate across nodes (PyTorch FSDP docs, ShardingStrategy).
    bool hybridShard = false;
};

/// A training run's length and price, and the links between nodes.
struct Workload
{
    double trainingTokens = 0;   ///< token budget; 0 = not asked
    double mfu = 0.4;            ///< model FLOPs utilisation assumed for time
    /// Share of the memory bandwidth a decode step achieves (memory
    /// bandwidth utilisation); 1 = the roofline.
    double decodeBandwidthShare = 1.0;
    double pricePerGpuHour = 0;  ///< 0 = no cost shown
    double interNodeGBps = 50;   ///< per GPU between nodes (400 Gb/s InfiniBand)
    /// Serving: requests per second to plan GPUs for; 0 = not asked.
    double requestRate = 0;
    /// Serving: tokens each request generates (its prompt is the rest of
    /// the context).
    std::uint64_t outputTokens = 256;
    /// Serving plan targets, means in seconds: time to first token and
    /// time per output token after it; 0 = none.
    double ttftTargetSeconds = 0;
    double tpotTargetSeconds = 0;
};

/// Where the model description came from, so it can be saved and reloaded.
struct ModelSource
{
    enum class Kind { Preset, ConfigFile, ParameterCount } kind = Kind::Preset;
    std::string presetId;      ///< Kind::Preset
    std::string configPath;    ///< Kind::ConfigFile
    std::uint64_t parameters = 0; ///< Kind::ParameterCount
};

/// A speculative-decoding draft model, chosen by preset id: it proposes
/// tokens that the target model checks (Leviathan et al. 2023,
/// arXiv:2211.17192; vLLM's draft_model method, llama.cpp -md,
/// transformers' generate(assistant_model=...)).
struct DraftModel
{
    std::string presetId; ///< empty: no draft
    /// The preset's architecture, filled in where presets are known
    /// (core::io::resolveDraft); unset for an id no preset has.
    std::optional<ModelSpec> model;

    bool isSet() const { return !presetId.empty(); }
};

/// LoRA adapter placement (Hu et al. 2021, arXiv:2106.09685 §4).
struct LoraSettings
{
    int rank = 16;
    double alpha = 32;
    /// Dropout on the adapter input; unset: the training stack's default.
    std::optional<double> dropout;
    /// Target slots; default: all linear projections of attention and MLP.
    std::vector<LinearSlot> targets = {LinearSlot::Q, LinearSlot::K, LinearSlot::V, LinearSlot::O,
                                       LinearSlot::Gate, LinearSlot::Up, LinearSlot::Down};
};

/// Every input of an estimate. A plain value: the GUI, the CLI and scenario
/// files all fill one of these and hand it to `estimate`.
struct Scenario
{
    ModelSource source;
    ModelSpec model;
    /// The weights on disk, when the model was read from its files.
    std::optional<CheckpointWeights> checkpoint;

    Mode mode = Mode::Inference;
    /// Unset: nf4-dq for QLoRA, the checkpoint's MXFP4 for gpt-oss, else bf16.
    std::optional<WeightFormat> weights;
    int groupSize = 128;
    bool quantizeEmbeddings = false; ///< override the library default of keeping them 16-bit
    Regime regime = Regime::Mixed;
    Optimizer optimizer = Optimizer::AdamW;
    OptimizerImpl optimizerImpl = OptimizerImpl::Auto;

    std::uint64_t batch = 1;
    std::uint64_t sequence = 2048;
    /// Images in each sequence (multimodal models): each adds the model's
    /// image tokens to the context.
    std::uint64_t images = 0;
    std::uint64_t gradAccum = 1;
    /// Unset: the training stack's default for the mode (full for QLoRA
    /// under Hugging Face and torchtune, none otherwise).
    std::optional<Checkpointing> checkpointing;
    TrainingStack stack = TrainingStack::Hf;
    /// The library releases it runs; unset ones are current (stack.h's
    /// version rules read them).
    LibraryVersions versions;
    Attention attention = Attention::Sdpa;
    LoraSettings lora;
    std::optional<WeightFormat> kvDtype; ///< unset: the activation dtype
    /// llama.cpp's V cache type (-ctv) where it differs from the K cache's
    /// (-ctk, kvDtype); unset: as kvDtype.
    std::optional<WeightFormat> kvDtypeV;
    std::optional<WeightFormat> valueCacheDtype() const { return kvDtypeV ? kvDtypeV : kvDtype; }
    /// vLLM's kv_cache_dtype_skip_layers: layers whose KV cache keeps the
    /// model's dtype, by index ("0") or attention type ("sliding_window").
    std::vector<std::string> kvSkipLayers;
    /// Liger kernels (the Trainer's use_liger_kernel=True): fused linear
    /// cross-entropy, RMSNorm and SwiGLU.
    bool liger = false;
    /// Unsloth (use_gradient_checkpointing="unsloth"): offloaded
    /// checkpointing by default.
    bool unsloth = false;
    /// torch.compile over the decoder layers (torchtune's compile: True):
    /// what a compiled layer saves, and torchtune's compiled loss chunk.
    bool compile = false;
    std::optional<LogitsMode> logits;    ///< unset: Fp32 for training, LastToken for inference
    /// The share of each GPU weights, activations and the KV cache may use
    /// together (vLLM's gpu_memory_utilization); unset: the release's
    /// default under vLLM (effectiveGpuMemoryUtilization), else 0.9.
    std::optional<double> gpuMemoryUtilization;
    double effectiveGpuMemoryUtilization() const;
    /// vLLM's kv_cache_memory_bytes, in GiB: the KV cache of each GPU set
    /// directly, gpu_memory_utilization ignored; unset: the budget.
    std::optional<double> kvCacheMemoryGib;
    /// vLLM's estimate of its CUDA graphs' memory, GiB a GPU, which it
    /// measures on the device at start-up and, from 0.21 on, takes from the
    /// KV budget (gpu_worker.py determine_available_memory); unset: not
    /// planned (no formula of the inputs gives it).
    std::optional<double> cudaGraphMemoryGib;
    /// SGLang's --mem-fraction-static: the share of the memory free before
    /// the weights load that weights and the KV pool take; unset: SGLang's
    /// own rule for each GPU (sglangDefaultMemFraction).
    std::optional<double> memFractionStatic;
    /// TensorRT-LLM's KvCacheConfig.free_gpu_memory_fraction: the share of
    /// the memory left free after the weights and the profiled forward that
    /// the KV pool takes; unset: 0.9 (effectiveFreeGpuMemoryFraction).
    std::optional<double> freeGpuMemoryFraction;
    double effectiveFreeGpuMemoryFraction() const { return freeGpuMemoryFraction.value_or(0.9); }
    ServingEngine serving = ServingEngine::Generate;
    /// The tokens of the forward a serving engine profiles at start-up
    /// (vLLM max_num_batched_tokens, TensorRT-LLM max_num_tokens); unset:
    /// the engine's default for its release and card (servingBatchDefaults).
    std::optional<std::uint64_t> maxBatchedTokens;
    std::uint64_t effectiveMaxBatchedTokens() const;
    /// The sequences it runs at once (vLLM max_num_seqs, TensorRT-LLM
    /// max_batch_size); unset: the engine's default, as above.
    std::optional<std::uint64_t> maxNumSeqs;
    std::uint64_t effectiveMaxNumSeqs() const;
    /// The GPU the serving engine starts on, as far as its defaults read
    /// it. Not an input: a fit sets it from its GPU (onServingCard); left
    /// alone it is the default focus GPU's (an H100 SXM).
    ServingCard servingCard;
    /// Decoder layers on the GPUs, the rest in host memory; more than the
    /// model's layers also puts the output layer there. llama.cpp -ngl
    /// keeps the last ones; generate()'s device_map with CPU offload the
    /// first ones (hostoffload.h). Unset: all of them and the output layer
    /// (llama.cpp's 999, device_map without offload).
    std::optional<std::uint64_t> gpuLayers;
    /// llama.cpp -ub: tokens of the micro-batch its compute buffer is
    /// reserved for (common_params default 512).
    std::uint64_t ubatch = 512;
    /// llama.cpp --no-kv-offload: keep every layer's KV cache in host memory.
    bool kvOnHost = false;
    /// llama.cpp --n-cpu-moe N: the routed experts of the first N layers
    /// stay in host memory and run on the CPU.
    std::uint64_t cpuMoeLayers = 0;
    /// The CPU llama.cpp's host layers run on: which weights its backend
    /// copies into repacked buffers.
    CpuBuild cpuBuild = CpuBuild::Avx2;
    /// Host memory bandwidth for the layers and experts llama.cpp runs on
    /// the CPU, GB/s: dual-channel DDR5-5600's peak, 2 x 8 B x 5600 MT/s
    /// (JEDEC JESD79-5 data rate over a 64-bit channel).
    double hostBandwidthGBps = 89.6;
    /// vLLM --cpu-offload-gb: GiB of each worker's decoder-layer weights kept
    /// in pinned host memory, which its kernels read over the host link
    /// (UVAOffloader); 0 = none.
    double cpuOffloadGib = 0;
    /// vLLM --kv-offloading-size: GiB of pinned host memory for KV blocks
    /// offloaded from the GPUs, in total over the tensor- and
    /// pipeline-parallel ranks; 0 = none.
    double kvOffloadingGib = 0;
    /// Host-to-GPU link, GB/s, for weights that live in host memory and run
    /// on the GPU (accelerate's CPU offload, vLLM --cpu-offload-gb,
    /// ZeRO-Offload's transfers): 25, the practical rate of PCIe 4.0 x16,
    /// whose raw rate is 16 GT/s x 16 lanes x 128/130 / 8 = 31.5 GB/s each
    /// way (PCI-SIG PCIe 4.0 base specification).
    double hostLinkGBps = 25;
    /// Host RAM to check the host side against, GiB; 0 = not checked.
    double hostMemoryGib = 0;
    /// llama.cpp --tensor-split: each GPU's share of the layers, in split
    /// order (any scale: "24,12"); empty: equal shares, as llama.cpp splits
    /// GPUs of equal free memory. A mixed set of GPUs (`vramplanner-cli
    /// --devices`) fills it with their memory.
    std::vector<double> tensorSplit;
    /// Sequences generated from each prompt: beam search's beams
    /// (generate(num_beams=N)) or parallel samples (vLLM SamplingParams.n,
    /// generate(num_return_sequences=N)). Each is a row of the batch with a
    /// KV cache of its own.
    std::uint64_t beams = 1;
    /// Speculative decoding's draft model (inference only; training ignores it).
    DraftModel draft;

    int gpus = 1;
    /// A mixed set of GPUs by catalog id, in split order (`--devices
    /// rtx-4090,rtx-3090`); its size is `gpus`. Empty: `gpus` GPUs of one
    /// kind. Each device fits against its own memory (core/analysis/deviceset.h).
    std::vector<std::string> devices;
    int zeroStage = 0;
    Parallelism parallel;
    Workload workload;
    std::string gpuId;                   ///< selected GPU (serving budget, focus); may be empty

    std::optional<double> cudaOverheadMib; ///< unset: from `cudaLoading`
    CudaLoading cudaLoading = CudaLoading::Lazy;
    double reservePercent = 5.0;

    bool isTraining() const { return mode != Mode::Inference; }
    /// Data-parallel degree: GPUs / (tp x pp).
    int dataParallel() const { return std::max(1, gpus / std::max(1, parallel.tp * parallel.pp)); }
    /// How many ways ZeRO/FSDP shard: the data-parallel degree, or with
    /// hybrid sharding the data-parallel ranks inside one node.
    int shardDegree() const
    {
        const int dp = dataParallel();
        if (!parallel.hybridShard)
            return dp;
        return std::max(1, std::min(dp, parallel.gpusPerNode / std::max(1, parallel.tp * parallel.pp)));
    }
    /// Rows the inference batch runs: each prompt's beams or samples.
    std::uint64_t generatedRows() const { return isTraining() ? batch : batch * beams; }
    /// The draft model that this scenario runs beside the target: inference
    /// with a resolved draft; null otherwise.
    const ModelSpec *draftInUse() const { return isTraining() || !draft.model ? nullptr : &*draft.model; }
    /// What drafts tokens for speculative decoding: a draft model, the
    /// checkpoint's MTP layers (--load-mtp), or nothing.
    SpeculativeDraft speculativeDraft() const
    {
        if (draftInUse())
            return SpeculativeDraft::Model;
        return !isTraining() && model.loadMtp && model.mtpLayers > 0 ? SpeculativeDraft::Mtp : SpeculativeDraft::None;
    }
    /// Tokens each sequence holds: the text's and every image's.
    std::uint64_t contextTokens() const { return sequence + images * model.imageTokens; }
    /// The checkpoint whose bytes are the weights term: inference with no
    /// weight format chosen over the files' own.
    const CheckpointWeights *checkpointInUse() const;
    WeightFormat effectiveWeights() const;
    /// The checkpoint's own quantisation is what loads: it states one, no
    /// --weights overrides it, and the mode keeps the stored weights
    /// (inference, LoRA).
    bool loadsCheckpointFormat() const;
    LogitsMode effectiveLogits() const;
    Checkpointing effectiveCheckpointing() const;
    OptimizerImpl effectiveOptimizerImpl() const;
    /// CUDA context plus the libraries' first-use allocations, MiB per GPU,
    /// where the scenario does not set it. Lazy module loading (default
    /// since CUDA 11.7 / PyTorch 1.13, PyTorch PR #86509): the context
    /// measured 287,047,680 B for a small tensor; with cuBLAS/cuDNN handles
    /// and workspaces loaded on first use we plan 512 MiB. Eager loading
    /// (older stacks): 1343 MiB measured on a V100 by the Hugging Face
    /// "Model training anatomy" doc (seed fact S11).
    double effectiveCudaOverheadMib() const;
    /// The GPU the time, cost and serving figures are for when none is
    /// chosen: an H100, the common case (see focusGpu()).
    static constexpr const char *kDefaultFocusGpu = "h100-sxm5-80gb";
    double effectiveLoraDropout() const;
};

/// The GPU the time, cost and serving figures are for: the scenario's
/// chosen one, else Scenario::kDefaultFocusGpu (also where the chosen id is
/// not in `catalog`). Null only for a catalog without the default. Every
/// front end and report asks here, so they name the same GPU.
const GpuSpec *focusGpu(const Scenario &s, const Catalog &catalog);

/// The scenario as its serving engine starts on `gpu`: the engine's
/// defaults that follow the card (servingBatchDefaults) and the
/// communicators that follow its link (commBuffers) read that card.
Scenario onServingCard(Scenario s, const GpuSpec &gpu);

struct ModeInfo { Mode mode; const char *id; const char *label; };
const std::vector<ModeInfo> &allModes();
std::optional<Mode> parseMode(const std::string &id);
const char *modeId(Mode mode);

std::optional<Checkpointing> parseCheckpointing(const std::string &id);
const char *checkpointingId(Checkpointing value);
std::optional<Attention> parseAttention(const std::string &id);
const char *attentionId(Attention value);
std::optional<LogitsMode> parseLogits(const std::string &id);
const char *logitsId(LogitsMode value);
std::optional<LinearSlot> parseLinearSlot(const std::string &id);
const char *linearSlotId(LinearSlot slot);
const char *cudaLoadingId(CudaLoading value);
std::optional<Offload> parseOffload(const std::string &id);
const char *offloadId(Offload value);
std::optional<CudaLoading> parseCudaLoading(const std::string &id);
std::optional<ServingEngine> parseServingEngine(const std::string &id);
const char *servingEngineId(ServingEngine value);

/// Limits every front end enforces on numeric inputs (absurd values are
/// rejected with a message, not silently clamped).
struct ScenarioLimits
{
    static constexpr std::uint64_t maxBatch = 1u << 20;
    static constexpr std::uint64_t maxSequence = 1u << 24;
    static constexpr std::uint64_t maxGradAccum = 1u << 16;
    static constexpr std::uint64_t maxImages = 4096;
    static constexpr std::uint64_t maxBeams = 1024;
    static constexpr int maxGpus = 1 << 16;
    static constexpr std::uint64_t maxParameters = 100'000'000'000'000ull; ///< 100T
    static constexpr int maxLoraRank = 65536;
    static constexpr int maxGroupSize = 1 << 20;
    static constexpr double maxCudaOverheadMib = 1 << 20;
    static constexpr int maxTp = 512;
    static constexpr int maxPp = 1024;
    static constexpr int maxEp = 4096;
    static constexpr int maxInterleave = 64;
    static constexpr int maxGpusPerNode = 1024;
    static constexpr double maxLoraDropout = 0.95;
};

/// Problems with a scenario's values, each naming the field (its file
/// spelling) and with an id Qt Linguist translates; empty when valid.
std::vector<Message> scenarioProblems(const Scenario &scenario);
/// scenarioProblems in English, as the CLI, the files and the reports say them.
std::vector<std::string> validateScenario(const Scenario &scenario);
/// The first of validateScenario's checks that read the batch or the
/// sequence besides their ranges to fail, as its message; null when all
/// pass. A prepared scenario (sweeps, grids, searches) repeats only these
/// and the two ranges at each point, so every such check belongs here.
const char *pointCheckFailure(const Scenario &scenario);

/// The layers vLLM's kv_cache_dtype_skip_layers names: distinct indices
/// below the model's layer count, and whether every windowed layer is
/// named ("sliding_window"). `problem` names the first entry that is
/// neither.
struct KvSkipLayers
{
    std::uint64_t indexed = 0;
    bool slidingWindow = false;
};
KvSkipLayers kvSkipLayers(const Scenario &s, std::optional<Message> *problem = nullptr);

} // namespace core
