#pragma once

#include "core/scenario/libraryversions.h"
#include "core/scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace core {

/// What one training stack does with a LoRA/QLoRA (and full) training run,
/// read from its source. Each flag cites the line it models in stack.cpp.
struct StackBehaviour
{
    /// Adapters are created in fp32 whatever the base dtype (PEFT's
    /// autocast_adapter_dtype); otherwise they take the model's dtype.
    bool fp32Adapters = false;
    /// QLoRA without sharding runs PEFT's prepare_model_for_kbit_training,
    /// which casts every non-quantised 16-bit parameter (embeddings,
    /// lm_head, norms) to fp32, and so the residual stream becomes fp32.
    bool kbitUpcastsToFp32 = false;
    /// The lm_head is quantised with the other linear layers (Fabric's
    /// BitsandbytesPrecision replaces every nn.Linear).
    bool quantizesLmHead = false;
    /// q, k and v are one fused linear layer with one adapter input
    /// (LitGPT's LoRAQKVLinear): one dropout for the three.
    bool fusedQkvAdapter = false;
    /// K and V are repeated to every query head before SDPA whatever the
    /// attention kernel (LitGPT repeat_interleave).
    bool repeatsKvAlways = false;
    /// The 4-bit base is torchao's NF4Tensor, not bitsandbytes: linear_nf4
    /// keeps only the weight whatever bitsandbytes' version, and
    /// get_original_weight dequantises through two int64 index tensors and
    /// three half-size intermediates (8 + 3 x 2 B per weight at bf16) where
    /// bitsandbytes' dequantize_4bit writes one 16-bit copy.
    bool torchaoNf4Base = false;
    /// PEFT's lora.Linear casts its input to the adapters' dtype even under
    /// autocast (_cast_input_dtype); its 4-bit and 8-bit layers (lora/bnb.py)
    /// cast only when autocast is off.
    bool adapterCastsInput = false;
    /// The training loop still holds the logits while the loss runs backward.
    bool keepsLogitsInBackward = false;
    /// Liger's RMSNorm and SwiGLU kernels: a norm keeps its input and a
    /// per-row rstd, the gated MLP keeps gate and up and recomputes the
    /// activation (liger_kernel ops/rms_norm.py, ops/swiglu.py).
    bool ligerNormAndSwiglu = false;
    /// The decoder layers run under torch.compile. AOTAutograd's min-cut
    /// partitioner (torch/_functorch/partitioners.py
    /// min_cut_rematerialization_partition) recomputes pointwise work in
    /// backward but keeps every tensor a matrix product or the attention
    /// kernel reads there (config.py ban_recompute_materialized_backward):
    /// a norm keeps its input (and a per-row rstd) instead of its fp32
    /// copy, the gated MLP its gate and up but not act(gate), as Liger's
    /// kernels do. Inductor fuses torchao's NF4 dequantisation into one
    /// kernel that writes only the 16-bit weight.
    bool compiledLayers = false;
    /// Compiling also compiles its chunked loss's per-chunk upcast and
    /// cross-entropy (torchtune training/_compile.py compile_loss).
    bool compileCoversChunkedLoss = false;
    /// Activation offloading hooks the model's whole forward, not only the
    /// layers' checkpoints: torchtune's OffloadActivations (training/
    /// _activation_offloading.py) moves every saved activation of 1 KiB or
    /// more to host memory except the output layer's, which a NoOpManager
    /// keeps on the GPU. Unsloth's checkpointer moves the layer inputs only.
    bool offloadsWholeForward = false;
    /// Unsloth's patched decoder (models/llama.py LlamaDecoderLayer_fast_
    /// forward): fast_rms_layernorm keeps each norm's input and rstd.
    bool unslothRmsNorm = false;
    /// Unsloth's patched LoRA (get_peft_model with lora_dropout 0 and no
    /// bias): its manual-autograd LoRA layers (kernels/fast_lora.py) save only their
    /// input X (LoRA_QKV, LoRA_W) and, for the MLP, X, gate and up
    /// (LoRA_MLP: save_for_backward(..., X, e, g)); x·A and the MLP
    /// product are recomputed in backward.
    bool unslothFusedLora = false;
    /// The adapters exist before the base's weights are loaded (the model
    /// is built with them, then the checkpoint loaded): LitGPT, torchtune.
    /// PEFT's get_peft_model comes after from_pretrained.
    bool adaptersBeforeLoad = false;
    double loraDropout = 0.0;        ///< the library's default
    Checkpointing checkpointing = Checkpointing::None; ///< the library's default for this mode
    LogitsMode logits = LogitsMode::Fp32;              ///< how its loss sees the logits
    OptimizerImpl optimizerImpl = OptimizerImpl::Auto; ///< its optimizer step's kernels
    /// Why that step, naming the releases it holds for (a Qt Linguist
    /// source text in context "Derivation"); nullptr where no release
    /// changed it.
    const char *optimizerWhy = nullptr;
};

struct StackInfo
{
    TrainingStack stack;
    const char *id;      ///< CLI and file spelling: "hf", "torchtune", "litgpt"
    const char *label;   ///< "Hugging Face Trainer + PEFT"
    const char *summary; ///< one line: what this stack turns on by default
    const char *source;
};

const std::vector<StackInfo> &allStacks();
const StackInfo &stackInfo(TrainingStack stack);
std::optional<TrainingStack> parseStack(const std::string &id);

struct BitsandbytesInfo
{
    BitsandbytesVersion version;
    const char *id;
    const char *label;
};
const std::vector<BitsandbytesInfo> &allBitsandbytesVersions();
std::optional<BitsandbytesVersion> parseBitsandbytesVersion(const std::string &id);
const char *bitsandbytesVersionId(BitsandbytesVersion version);

/// A default a library changed in a release: a row of the stack policy
/// table (library, version). From `since` on `after` holds, before it
/// `before`; where `alsoLibrary` is set, it too must run `alsoSince` or later.
enum class VersionRule {
    TrainerTorchAdamW,      ///< transformers: the Trainer's optim adamw_torch, not its own AdamW
    TrainerFusedAdamW,      ///< transformers with torch: the Trainer's optim adamw_torch_fused
    TorchForeachAdamW,      ///< torch: torch.optim.AdamW runs foreach on CUDA, not a loop
    PeftFp32Adapters,       ///< peft: get_peft_model upcasts the adapters to fp32
    LossUpcastsLogits,      ///< transformers: the loss upcasts the logits, the model returns them 16-bit
    BitsandbytesDropsInput, ///< bitsandbytes: a 4-bit layer no longer keeps its input for backward
    TorchtuneDeletesLogits, ///< torchtune: the recipe deletes the logits before loss.backward()
    VllmUtilization092,     ///< vLLM: gpu_memory_utilization defaults to 0.92, not 0.9
    VllmBudgetFromSnapshot, ///< vLLM V1: the KV budget takes what grew after the init snapshot, not the CUDA context
    VllmSnapshotAfterDistInit, ///< vLLM V1: the init snapshot follows the distributed start, its communicators in it
    VllmChunkedPrefill2048, ///< vLLM V0: chunked prefill's default step is 2,048 tokens, not 512
    VllmV1Engine,           ///< vLLM: the V1 engine's batch defaults, by the card
    VllmSeqsByCard,         ///< vLLM V1: 256 sequences on cards under 70 GiB, not 1,024 everywhere
    VllmA100SmallDefaults,  ///< vLLM V1: an A100 takes the small cards' defaults
    VllmTritonTopKTopP,     ///< vLLM: top-k and top-p in place by a Triton kernel, no sort
    VllmModelRunnerV2Dense, ///< vLLM: Model Runner V2 for dense models (a greedy sampler warm-up)
    VllmModelRunnerV2,      ///< vLLM: Model Runner V2 for every model, its CUDA graphs reserved
    VllmAllReduceRmsFusion, ///< vLLM: tensor parallelism on Hopper or Blackwell fuses all-reduce and RMSNorm in FlashInfer
    SglangMemoryClassTable, ///< SGLang: the default fraction by the card's memory, not by TP size
    SglangReservedFormula,  ///< SGLang: the default fraction from what it reserves, part by part
    SglangPrefillGraphs,    ///< SGLang: the prefill's CUDA graphs are on and reserved for
    SglangPrefillGraphsWithDraft, ///< SGLang: speculative decoding keeps the prefill's piecewise graphs
    SglangBreakableGraphs,  ///< SGLang: breakable prefill graphs, off for MLA, DeepSeek-V4 and multimodal models
    SglangStandaloneDraft,  ///< SGLang: a standalone draft model reserves 6 GiB, not the 2 GiB of any other
    SglangEagleReserve4Gib, ///< SGLang: EAGLE-family speculative decoding reserves 4 GiB, not 2
    SglangDraftInPool,      ///< SGLang: no speculative reserve in the fraction; the draft's cache is sized with the pool
    SglangVisionFraction,   ///< SGLang: a multimodal model's default fraction scales with its vision tower, not x 0.9
    TrtllmFloorBlocks,      ///< TensorRT-LLM: the pool's blocks rounded down, not up
    TrtllmAllReduce64Mib    ///< TensorRT-LLM: a 64 MiB all-reduce workspace at any TP, not 16 or 8 MB
};

struct VersionRuleInfo
{
    VersionRule rule;
    const char *id;     ///< JSON spelling: "trainer_fused_adamw"
    Library library;
    Version since;
    std::optional<Library> alsoLibrary;
    Version alsoSince;
    const char *before; ///< the default before the release, in words
    const char *after;  ///< the default from it on
    const char *source; ///< the change: PR, file
};
const std::vector<VersionRuleInfo> &allVersionRules();
/// The last bitsandbytes release whose 4-bit layers kept their input:
/// what `--bnb legacy` sets.
inline constexpr Version kLastBitsandbytesKeepingInputs{0, 43, 1};
const VersionRuleInfo &versionRuleInfo(VersionRule rule);
bool versionRuleHolds(const LibraryVersions &versions, VersionRule rule);

/// The behaviour of a stack for a mode, with the defaults of `versions`.
StackBehaviour stackBehaviour(TrainingStack stack, Mode mode, const LibraryVersions &versions = {});
/// The behaviour of the scenario's stack for its mode and versions.
StackBehaviour stackBehaviour(const Scenario &s);

/// A version rule the scenario's stack reads, and whether its versions
/// meet it: what the derivation and the JSON say of each default.
struct VersionRuleUse
{
    const VersionRuleInfo *rule;
    bool holds;
};
std::vector<VersionRuleUse> versionRulesUsed(const Scenario &s);

/// The rules SGLang's default mem_fraction_static follows, in the order
/// of its releases (core/memory/sglangpool.h).
inline constexpr VersionRule kSglangFractionRules[] = {
    VersionRule::SglangMemoryClassTable, VersionRule::SglangVisionFraction,   VersionRule::SglangStandaloneDraft,
    VersionRule::SglangReservedFormula,  VersionRule::SglangPrefillGraphs,    VersionRule::SglangEagleReserve4Gib,
    VersionRule::SglangPrefillGraphsWithDraft, VersionRule::SglangDraftInPool, VersionRule::SglangBreakableGraphs};

} // namespace core
