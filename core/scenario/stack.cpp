#include "core/scenario/stack.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/scenario/servingruntime.h"

namespace core {

const std::vector<StackInfo> &allStacks()
{
    static const std::vector<StackInfo> stacks = {
        {TrainingStack::Hf, "hf", "Hugging Face Trainer + PEFT",
         "fp32 adapters; QLoRA: prepare_model_for_kbit_training (fp32 non-quantised weights, gradient "
         "checkpointing on); fp32 loss over all logits; fused AdamW",
         "peft utils/other.py prepare_model_for_kbit_training; peft tuners autocast_adapter_dtype (>= 0.12); "
         "transformers loss_utils.ForCausalLMLoss; TrainingArguments optim adamw_torch_fused (>= 4.54)"},
        {TrainingStack::Torchtune, "torchtune", "torchtune recipes",
         "adapters in the model dtype; torchao NF4 base; activation checkpointing on; chunked fp32 loss; "
         "fused AdamW",
         "torchtune modules/peft/lora.py LoRALinear; torchao NF4Tensor linear_nf4; recipes/configs "
         "*_lora/_qlora_single_device.yaml (enable_activation_checkpointing: True, fused: True); "
         "modules/loss LinearCrossEntropyLoss (8 chunks, .float() per chunk)"},
        {TrainingStack::LitGpt, "litgpt", "LitGPT finetune",
         "adapters in the model dtype; bitsandbytes 4-bit for every linear layer incl. lm_head; LoRA dropout "
         "0.05 on one fused qkv input; no checkpointing on one GPU; loss without upcast",
         "litgpt finetune/lora.py setup (lora_dropout=0.05); litgpt/lora.py LoRAQKVLinear; Lightning Fabric "
         "BitsandbytesPrecision (replaces every torch.nn.Linear); litgpt/utils.py chunked_cross_entropy"},
        {TrainingStack::Loop, "loop", "Plain PyTorch loop (transformers + PEFT)",
         "out = model(**batch, labels=labels); out.loss.backward(); optimizer.step(): the model's output and "
         "the loss's fp32 logits alive through backward; PEFT defaults as the Trainer's; torch.optim.AdamW",
         "transformers modeling_llama.py LlamaForCausalLM.forward (loss_function on labels); loss_utils.py "
         "ForCausalLMLoss; peft get_peft_model, prepare_model_for_kbit_training; torch.optim.AdamW"},
    };
    return stacks;
}

const StackInfo &stackInfo(TrainingStack stack)
{
    return findByValue(allStacks(), &StackInfo::stack, stack);
}

std::optional<TrainingStack> parseStack(const std::string &id)
{
    return parseById(allStacks(), &StackInfo::stack, id);
}

const std::vector<BitsandbytesInfo> &allBitsandbytesVersions()
{
    static const std::vector<BitsandbytesInfo> versions = {
        {BitsandbytesVersion::Current, "current", QT_TRANSLATE_NOOP("Field", "0.43.2 or later")},
        {BitsandbytesVersion::Legacy, "legacy", QT_TRANSLATE_NOOP("Field", "0.43.1 or earlier (keeps each 4-bit layer's input)")},
    };
    return versions;
}

std::optional<BitsandbytesVersion> parseBitsandbytesVersion(const std::string &id)
{
    return parseById(allBitsandbytesVersions(), &BitsandbytesInfo::version, id);
}

const char *bitsandbytesVersionId(BitsandbytesVersion version)
{
    return findByValue(allBitsandbytesVersions(), &BitsandbytesInfo::version, version).id;
}

const std::vector<VersionRuleInfo> &allVersionRules()
{
    static const std::vector<VersionRuleInfo> rules = {
        {VersionRule::TrainerTorchAdamW, "trainer_torch_adamw", Library::Transformers, {4, 32, 0}, std::nullopt, {},
         "the Trainer's own AdamW (optim adamw_hf), one parameter at a time",
         "torch.optim.AdamW (optim adamw_torch)",
         "transformers PR 25109 (training_args.py default_optim = \"adamw_torch\")"},
        {VersionRule::TrainerFusedAdamW, "trainer_fused_adamw", Library::Transformers, {4, 54, 0}, Library::Torch,
         {2, 8, 0}, "torch.optim.AdamW (optim adamw_torch)", "fused AdamW (optim adamw_torch_fused)",
         "transformers PR 37358, merged July 2025, so 4.54 (training_args.py: adamw_torch_fused if "
         "is_torch_greater_or_equal_than_2_8); torch.optim.AdamW itself never defaults to fused"},
        {VersionRule::TorchForeachAdamW, "torch_foreach_adamw", Library::Torch, {2, 0, 0}, std::nullopt, {},
         "one parameter at a time (foreach off)", "foreach on CUDA: one full-size temporary in the step",
         "torch PR 92306 and 95415 (optim/optimizer.py _default_to_fused_or_foreach, use_fused=False for AdamW)"},
        {VersionRule::PeftFp32Adapters, "peft_fp32_adapters", Library::Peft, {0, 12, 0}, std::nullopt, {},
         "adapters in the base weight's dtype (lora/layer.py update_layer: self.to(weight.device, "
         "dtype=weight.dtype)), fp32 over a 4-bit base stored as uint8",
         "adapters upcast to fp32 (get_peft_model autocast_adapter_dtype=True)",
         "peft PR 1706, v0.12.0 (tuners/tuners_utils.py _cast_adapter_dtype)"},
        {VersionRule::LossUpcastsLogits, "loss_upcasts_logits", Library::Transformers, {4, 46, 0}, std::nullopt, {},
         "the model returns fp32 logits (logits = logits.float()) and the loss shifts a copy",
         "the loss upcasts the 16-bit logits", "transformers PR 34191 and 34147, 4.46 (loss/loss_utils.py "
         "ForCausalLMLoss: logits = logits.float())"},
        {VersionRule::BitsandbytesDropsInput, "bitsandbytes_drops_input", Library::Bitsandbytes, {0, 43, 2},
         std::nullopt, {}, "every 4-bit layer keeps its input for backward (MatMul4Bit ctx.tensors = (A, B))",
         "a frozen 4-bit layer keeps no input", "bitsandbytes 0.43.2 autograd/_functions.py MatMul4Bit"},
        {VersionRule::TorchtuneDeletesLogits, "torchtune_deletes_logits", Library::Torchtune, {0, 3, 0}, std::nullopt,
         {}, "the recipe keeps `logits` as a local through loss.backward()",
         "the recipe deletes the logits before loss.backward()",
         "torchtune PR 1235, v0.3.0 (recipes/*_single_device.py _loss_step: del logits)"},
        {VersionRule::VllmUtilization092, "vllm_utilization_092", Library::Vllm, {0, 21, 0}, std::nullopt, {},
         "gpu_memory_utilization 0.9; a CUDA-graph estimate, where measured, left in the KV budget",
         "gpu_memory_utilization 0.92; the CUDA-graph estimate taken from the KV budget",
         "vLLM PR 38284, v0.21.0 (vllm/config/cache.py CacheConfig.gpu_memory_utilization)"},
        {VersionRule::VllmBudgetFromSnapshot, "vllm_budget_from_snapshot", Library::Vllm, {0, 9, 2}, std::nullopt, {},
         "V1's KV budget subtracts everything the card holds beyond torch's tensors, the CUDA context included "
         "(gpu_worker.py: total - free after the profile; V0's 0.6.5-0.7 releases, which also left the context "
         "out, PR 10511, are read this way too)",
         "the KV budget subtracts only what the load and profile added after the worker's init snapshot: not the "
         "CUDA context, which was there before it",
         "vLLM PR 19312, v0.9.2 (V1 reuses memory_profiling from the init snapshot; vLLM issue 21348 dates 0.9.2's "
         "larger KV cache to it); v1/worker/gpu_worker.py init_device and determine_available_memory at 35d5cda1"},
        {VersionRule::VllmSnapshotAfterDistInit, "vllm_snapshot_after_dist_init", Library::Vllm, {0, 11, 0},
         std::nullopt, {},
         "the init snapshot comes before the distributed start: the communicators it creates (pynccl's, the "
         "custom all-reduce) count as the profile's growth",
         "the init snapshot follows the distributed start: only the TP group's own communicator, which the "
         "profile's first collective creates, and its all-reduce fusion workspace grow after it; a pipeline's "
         "communicators do not",
         "vLLM PR 25359, v0.11.0 (v1/worker/gpu_worker.py init_device: init_worker_distributed_environment "
         "before MemorySnapshot(); after it at v0.10.2)"},
        {VersionRule::VllmChunkedPrefill2048, "vllm_chunked_prefill_2048", Library::Vllm, {0, 7, 0}, std::nullopt, {},
         "V0 with chunked prefill (a context over 32,768 turns it on): 512 tokens a step",
         "V0 with chunked prefill: 2,048 tokens a step",
         "vLLM v0.7.0 (vllm/config.py SchedulerConfig.__post_init__; 512 at v0.6.0 and v0.6.4)"},
        {VersionRule::VllmV1Engine, "vllm_v1_engine", Library::Vllm, {0, 8, 0}, std::nullopt, {},
         "V0: 256 sequences, max(max_model_len, 2,048) tokens a step (chunked prefill: above)",
         "V1, vllm serve: a card of 70 GiB or more profiles 8,192 tokens, a smaller one 2,048",
         "vLLM PR 13726, v0.8.0 (engine/arg_utils.py _set_default_args_v1)"},
        {VersionRule::VllmSeqsByCard, "vllm_seqs_by_card", Library::Vllm, {0, 8, 4}, std::nullopt, {},
         "V1 runs 1,024 sequences on every card",
         "1,024 sequences on a card of 70 GiB or more, 256 on a smaller one",
         "vLLM PR 16158, v0.8.4 (engine/arg_utils.py)"},
        {VersionRule::VllmA100SmallDefaults, "vllm_a100_small_defaults", Library::Vllm, {0, 9, 0}, std::nullopt, {},
         "an A100 80GB takes the large cards' 8,192 tokens and 1,024 sequences",
         "an A100 takes the small cards' 2,048 tokens and 256 sequences",
         "vLLM PR 17885, v0.9.0 (engine/arg_utils.py: \"a100\" not in device_name)"},
        {VersionRule::VllmTritonTopKTopP, "vllm_triton_top_k_top_p", Library::Vllm, {0, 17, 0}, std::nullopt, {},
         "the sampler warm-up sorts the logits for top-k and top-p: e + 26 B a row and vocabulary entry",
         "top-k and top-p in place by a Triton kernel, no sort: e + 12 B a row and vocabulary entry",
         "vLLM PR 33538, v0.17.0 (v1/sample/ops/topk_topp_triton.py; topk_topp_sampler.py apply_top_k_top_p)"},
        {VersionRule::VllmModelRunnerV2Dense, "vllm_model_runner_v2_dense", Library::Vllm, {0, 25, 0}, std::nullopt,
         {},
         "V1's model runner: the sampler warm-up runs top-k and top-p on every row",
         "Model Runner V2 for dense models: the sampler warm-up is greedy, the logits only, and no CUDA-graph "
         "memory is reserved",
         "vLLM PR 44443, v0.25.0 (\"MRv2 is now the default for all dense models\"; vllm/config/vllm.py "
         "_is_default_v2_model_runner_model; v1/worker/gpu/model_runner.py _dummy_sampler_run); Qwen3 dense from "
         "0.22 and Llama and Mistral dense from 0.23 are read as from 0.25"},
        {VersionRule::VllmModelRunnerV2, "vllm_model_runner_v2", Library::Vllm, {0, 29, 0}, std::nullopt, {},
         "Model Runner V2 for dense models only, no CUDA-graph memory reserved",
         "Model Runner V2 for every model, its CUDA-graph memory reserved as V1's is",
         "vLLM PR 53183 (\"Model Runner V2 now default for all models\") and PR 53306 (\"Reserve CUDA graph "
         "memory\"), v0.29.0 (release notes)"},
        {VersionRule::VllmAllReduceRmsFusion, "vllm_allreduce_rms_fusion", Library::Vllm, {0, 17, 0}, std::nullopt, {},
         "no all-reduce fusion unless asked for (-O2's fuse_allreduce_rms: False)",
         "-O2 fuses all-reduce and RMSNorm with FlashInfer where TP > 1, PP = 1 and DP = 1 on compute capability 9.0 "
         "or 10.x: its workspace, created in the profile, is three buffers each rounded up to the multicast "
         "granularity",
         "vLLM v0.17.0 config/vllm.py enable_allreduce_rms_fusion (v0.16.0: False); FlashInfer trtllm_ar.py and "
         "mnnvl.py SymmDeviceMemory (v0.6.6)"},
        {VersionRule::SglangMemoryClassTable, "sglang_memory_class_table", Library::Sglang, {0, 4, 7}, std::nullopt, {},
         "mem_fraction_static by TP size: 0.88, 0.87 from 2, 0.85 from 4, 0.81 from 8, 0.79 from 16 GPUs; over "
         "80 GiB, the card less 13 GiB (v0.4.6)",
         "the card less what its memory class reserves: 2.8 GiB + 0.1 GiB a GPU under 35 GiB, 9.5 + 0.5 a GPU "
         "under 90 GiB, 12 + 0.5 a GPU under 160 GiB, 32 GiB above",
         "SGLang PR 7054, v0.4.7.post1 (python/sglang/srt/server_args.py; release numbers here have no .post, so "
         "0.4.7 is taken as 0.4.7.post1, though 0.4.7 itself kept the TP table)"},
        {VersionRule::SglangReservedFormula, "sglang_reserved_formula", Library::Sglang, {0, 5, 3}, std::nullopt, {},
         "the memory-class table",
         "512 MiB + 1.5 MiB per chunked-prefill token + 2 MiB per decode-graph slot + 1 GiB per 8 GPUs, at least "
         "10 GiB over 60 GiB",
         "SGLang PR 10975 and 11076, v0.5.3 (server_args.py _handle_gpu_memory_settings)"},
        {VersionRule::SglangPrefillGraphs, "sglang_prefill_graphs", Library::Sglang, {0, 5, 10}, std::nullopt, {},
         "the prefill runs eagerly (piecewise CUDA graphs opt-in): nothing reserved for them",
         "piecewise prefill graphs by default: 8 MiB per captured size, 1.5 GiB for MLA; none for multimodal "
         "models, Qwen3-Next and DeepSeek-V4, with a pipeline, for a GGUF file or on cards that do not run CUDA",
         "SGLang PR 16331 (March 2026), v0.5.10 (server_args.py; 0.5.10 and 0.5.12 inferred from main, 0.5.11 and "
         "0.5.13 read at their branch points)"},
        {VersionRule::SglangPrefillGraphsWithDraft, "sglang_prefill_graphs_with_draft", Library::Sglang, {0, 5, 11},
         std::nullopt, {}, "speculative decoding turns the prefill's piecewise graphs off: nothing reserved for them",
         "speculative decoding keeps the prefill's piecewise graphs and their reserve",
         "SGLang PR 22128 (2026-04-16), v0.5.11 (server_args.py _handle_piecewise_cuda_graph; read at the 0.5.11 "
         "branch point 88bb5dffe; 0.5.10 was cut from its rc0 of early April)"},
        {VersionRule::SglangBreakableGraphs, "sglang_breakable_graphs", Library::Sglang, {0, 5, 15}, std::nullopt,
         {}, "piecewise prefill graphs, MLA's 1.5 GiB included",
         "breakable prefill graphs on CUDA cards, off for MLA, DeepSeek-V4 and multimodal models: nothing reserved "
         "for those; a pipeline or a GGUF file keeps them",
         "SGLang PR 29458, v0.5.15 (cuda_graph_config.py; release/v0.5.15 0b3bb0c)"},
        {VersionRule::SglangStandaloneDraft, "sglang_standalone_draft", Library::Sglang, {0, 5, 2}, std::nullopt, {},
         "from 0.4.7.post1, speculative decoding of any kind reserves 2 GiB more",
         "a standalone draft model reserves 6 GiB more, EAGLE-family drafts (MTP) 2 GiB",
         "SGLang PR 10090, v0.5.2 (server_args.py _handle_gpu_memory_settings)"},
        {VersionRule::SglangEagleReserve4Gib, "sglang_eagle_reserve_4gib", Library::Sglang, {0, 5, 10}, std::nullopt,
         {}, "EAGLE-family drafts (MTP) reserve 2 GiB more", "EAGLE-family drafts (MTP) reserve 4 GiB more",
         "SGLang PR 19418 (February 2026), v0.5.10 (server_args.py; read at the 0.5.11 and 0.5.13 branch "
         "points, 0.5.10 inferred)"},
        {VersionRule::SglangDraftInPool, "sglang_draft_in_pool", Library::Sglang, {0, 5, 14}, std::nullopt, {},
         "the fraction reserves for the draft model and its graphs",
         "nothing reserved for speculative decoding in the fraction: the draft's cache is sized with the pool",
         "SGLang PR 23862 (June 2026), v0.5.14 (server_args.py; release cut 7e6587c94)"},
        {VersionRule::SglangVisionFraction, "sglang_vision_fraction", Library::Sglang, {0, 4, 9}, std::nullopt, {},
         "a multimodal model's fraction x 0.9, a fraction the user set included",
         "a multimodal model's default fraction x 0.95 x (1 - 0.1 (layers x hidden^2 of its vision_config / (24 x "
         "1,024^2) - 1)), the last clamped to 0.8..1.05; a fraction the user set unchanged",
         "SGLang PR 6881, v0.4.9.post3 (server_args.py adjust_mem_fraction_for_vlm; release numbers here have no "
         ".post, so 0.4.9 is taken as 0.4.9.post3, though 0.4.9 to 0.4.9.post2 applied x 0.9 to the default only)"},
        {VersionRule::TrtllmFloorBlocks, "trtllm_floor_blocks", Library::Trtllm, {1, 2, 0}, std::nullopt, {},
         "the pool's blocks rounded up (math.ceil): one block more than the budget at most",
         "the pool's blocks rounded down: never more than the budget",
         "TensorRT-LLM PR 9093, 1.2.0rc5 (_torch/pyexecutor/resource_manager.py calculate_max_num_blocks: "
         "int(max_tokens // tokens_per_block)); placed between the 1.2.0rc4 and rc5 pins of "
         "tensorrt_llm_backend, the finals inferred from their branch points; release candidates are read as "
         "their release"},
        {VersionRule::TrtllmAllReduce64Mib, "trtllm_allreduce_64mib", Library::Trtllm, {1, 2, 0}, std::nullopt, {},
         "the all-reduce fusion workspace is 16 MB a rank at TP 2, 8 MB from TP 4 (max_workspace_size_auto)",
         "the all-reduce fusion workspace is 64 MiB a rank at any TP",
         "TensorRT-LLM PR 9145, 1.2.0rc5 (allocate_allreduce_fusion_workspace: 4 x size x tp a GPU; placed as "
         "the rule above)"},
    };
    return rules;
}

const VersionRuleInfo &versionRuleInfo(VersionRule rule)
{
    // The table lists the rules in the enum's order (tst_stacks checks):
    // the estimate reads them several times a point.
    return allVersionRules()[static_cast<std::size_t>(rule)];
}

bool versionRuleHolds(const LibraryVersions &versions, VersionRule rule)
{
    if (versions.allCurrent())
        return true;
    const VersionRuleInfo &r = versionRuleInfo(rule);
    return versions.atLeast(r.library, r.since) && (!r.alsoLibrary || versions.atLeast(*r.alsoLibrary, r.alsoSince));
}

namespace {

/// torch.optim.AdamW's default step on CUDA for these versions.
void torchAdamW(StackBehaviour &b, const LibraryVersions &v)
{
    const bool foreach = versionRuleHolds(v, VersionRule::TorchForeachAdamW);
    b.optimizerImpl = foreach ? OptimizerImpl::Foreach : OptimizerImpl::Loop;
    b.optimizerWhy = foreach
        ? QT_TRANSLATE_NOOP("Derivation", "torch.optim.AdamW's default on CUDA is foreach (PyTorch 2.0 or later)")
        : QT_TRANSLATE_NOOP("Derivation", "torch.optim.AdamW's default is a loop over the parameters (PyTorch before 2.0)");
}

/// The Trainer's default optim: its own AdamW, then torch's, then torch's
/// fused kernel.
void trainerAdamW(StackBehaviour &b, const LibraryVersions &v)
{
    if (!versionRuleHolds(v, VersionRule::TrainerTorchAdamW)) {
        b.optimizerImpl = OptimizerImpl::Loop;
        b.optimizerWhy = QT_TRANSLATE_NOOP(
            "Derivation", "the Trainer's default optim is adamw_hf, its own AdamW a parameter at a time (transformers before 4.32)");
    } else if (versionRuleHolds(v, VersionRule::TrainerFusedAdamW)) {
        b.optimizerImpl = OptimizerImpl::Fused;
        b.optimizerWhy = QT_TRANSLATE_NOOP(
            "Derivation", "the Trainer's default optim is adamw_torch_fused (transformers 4.54 or later with PyTorch 2.8 or later)");
    } else {
        torchAdamW(b, v);
        b.optimizerWhy = b.optimizerImpl == OptimizerImpl::Foreach
            ? QT_TRANSLATE_NOOP("Derivation", "the Trainer's default optim is adamw_torch, torch.optim.AdamW, foreach on CUDA "
                                              "(transformers 4.32 to 4.53, or PyTorch 2.0 to 2.7)")
            : QT_TRANSLATE_NOOP("Derivation", "the Trainer's default optim is adamw_torch, torch.optim.AdamW, a loop over the "
                                              "parameters (PyTorch before 2.0)");
    }
}

/// What a transformers + PEFT model does the same under the Trainer and a
/// plain loop: PEFT's adapters and prepare_model_for_kbit_training, and the
/// loss its forward computes from `labels`.
void transformersAndPeft(StackBehaviour &b, Mode mode, const LibraryVersions &v)
{
    // get_peft_model(..., autocast_adapter_dtype=True) upcasts fp16/bf16
    // adapter weights to fp32 (peft tuners_utils _cast_adapter_dtype);
    // before it they took the base weight's dtype, which for a 4-bit
    // bitsandbytes base is its uint8 storage: fp32 adapters all the same.
    b.fp32Adapters = versionRuleHolds(v, VersionRule::PeftFp32Adapters) || mode == Mode::Qlora;
    b.adapterCastsInput = true;
    // prepare_model_for_kbit_training: "cast all non INT8 parameters to
    // fp32"; use_gradient_checkpointing=True by default.
    b.kbitUpcastsToFp32 = mode == Mode::Qlora;
    b.checkpointing = mode == Mode::Qlora ? Checkpointing::Full : Checkpointing::None;
    // ForCausalLMLoss: logits = logits.float() over every position; before
    // it the model's forward returned fp32 logits and shifted a copy.
    b.logits = versionRuleHolds(v, VersionRule::LossUpcastsLogits) ? LogitsMode::Fp32 : LogitsMode::Fp32Shift;
    // LoraConfig(lora_dropout=0.0): nn.Identity.
    b.loraDropout = 0.0;
}

} // namespace

StackBehaviour stackBehaviour(const Scenario &s)
{
    StackBehaviour b = stackBehaviour(s.stack, s.mode, s.versions);
    // use_liger_kernel=True (transformers Trainer, TRL) patches the model
    // with Liger's fused linear cross-entropy, RMSNorm and SwiGLU.
    if (s.liger) {
        b.logits = LogitsMode::FusedLinear;
        b.ligerNormAndSwiglu = true;
    }
    // Unsloth's FastLanguageModel.get_peft_model(use_gradient_checkpointing=
    // "unsloth"), its documented setting: layer inputs offloaded to the CPU.
    // Its get_peft_model patches the layers only with lora_dropout 0
    // (models/llama.py: "Dropout = 0 is supported for fast patching").
    if (s.unsloth && (s.mode == Mode::Lora || s.mode == Mode::Qlora)) {
        b.checkpointing = Checkpointing::Offloaded;
        b.unslothRmsNorm = true;
        // effectiveLoraDropout() would ask this function again.
        b.unslothFusedLora = s.lora.dropout.value_or(b.loraDropout) == 0.0;
    }
    // torchtune's compile: True compiles each decoder layer
    // (training/_compile.py compile_model) and, with the chunked loss, its
    // per-chunk upcast and cross-entropy (compile_loss:
    // loss.compute_cross_entropy = torch.compile(...)).
    if (s.compile) {
        b.compiledLayers = true;
        if (b.compileCoversChunkedLoss && b.logits == LogitsMode::Chunked)
            b.logits = LogitsMode::Fused;
    }
    return b;
}

StackBehaviour stackBehaviour(TrainingStack stack, Mode mode, const LibraryVersions &versions)
{
    StackBehaviour b;
    switch (stack) {
    case TrainingStack::Hf:
        transformersAndPeft(b, mode, versions);
        trainerAdamW(b, versions);
        // Trainer.training_step: compute_loss returns the loss only, so the
        // model outputs (the logits) are freed before accelerator.backward.
        b.keepsLogitsInBackward = false;
        break;
    case TrainingStack::Loop:
        transformersAndPeft(b, mode, versions);
        // optimizer = torch.optim.AdamW(model.parameters()): its default step.
        torchAdamW(b, versions);
        // `out` (its logits) stays a local across out.loss.backward().
        b.keepsLogitsInBackward = true;
        break;
    case TrainingStack::Torchtune:
        // Every *_lora / *_qlora / *_full_single_device config sets
        // enable_activation_checkpointing: True and optimizer fused: True.
        b.checkpointing = Checkpointing::Full;
        b.logits = LogitsMode::Chunked;
        b.optimizerImpl = OptimizerImpl::Fused;
        b.torchaoNf4Base = true;
        // enable_activation_offloading: get_act_offloading_ctx_manager wraps
        // the model's forward; the output layer is excepted.
        b.offloadsWholeForward = true;
        // compile_loss compiles CEWithChunkedOutputLoss.compute_cross_entropy.
        b.compileCoversChunkedLoss = true;
        // lora_finetune_single_device.py _setup_model: the model, adapters
        // included, is built on the device, then load_state_dict.
        b.adaptersBeforeLoad = true;
        // Recipes before 0.3.0 kept `logits` as a local across
        // loss.backward(); _loss_step has deleted them since.
        b.keepsLogitsInBackward = !versionRuleHolds(versions, VersionRule::TorchtuneDeletesLogits);
        b.loraDropout = 0.0; // configs: lora_dropout: 0.0 (nn.Identity)
        break;
    case TrainingStack::LitGpt:
        // Fabric's BitsandbytesPrecision swaps torch.nn.Linear for
        // Linear4bit with an empty ignore_modules: lm_head too.
        b.quantizesLmHead = mode == Mode::Qlora;
        b.fusedQkvAdapter = true;
        // finetune/lora.py: fabric.init_module builds GPT with its LoRA
        // layers, then load_checkpoint.
        b.adaptersBeforeLoad = true;
        // CausalSelfAttention: k.repeat_interleave(q_per_kv) before SDPA.
        b.repeatsKvAlways = true;
        // Single-device fits use strategy "auto": no activation checkpointing.
        b.checkpointing = Checkpointing::None;
        // model(lm_head_chunk_size=128) keeps every chunk; cross_entropy on
        // each chunk without .float().
        b.logits = LogitsMode::Native;
        // torch.optim.AdamW (bnb PagedAdamW for QLoRA): foreach by default on CUDA.
        torchAdamW(b, versions);
        b.loraDropout = 0.05;
        // finetune/lora.py fit(): `logits` stays a local across fabric.backward.
        b.keepsLogitsInBackward = true;
        break;
    }
    return b;
}

namespace {

/// The serving engine's rules a scenario reads: the defaults it leaves unset.
std::vector<VersionRule> servingRulesUsed(const Scenario &s)
{
    std::vector<VersionRule> rules;
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    if ((runtime.utilizationFollowsRelease && !s.gpuMemoryUtilization)
        || (runtime.takesCudaGraphEstimate && s.cudaGraphMemoryGib))
        rules.push_back(VersionRule::VllmUtilization092);
    if (vllmProfilesTheBudget(s)) {
        rules.push_back(VersionRule::VllmBudgetFromSnapshot);
        // It decides only where no TP group grows a communicator.
        if (s.gpus > 1 && s.parallel.tp <= 1)
            rules.push_back(VersionRule::VllmSnapshotAfterDistInit);
    }
    // Where the card and the TP degree would fuse, the release decides.
    Scenario anyRelease = s;
    anyRelease.versions = {};
    if (runtime.fusesAllReduceRms && fusesAllReduceOnItsCard(anyRelease))
        rules.push_back(VersionRule::VllmAllReduceRmsFusion);
    // vLLM's sampler warm-up and its model runner.
    if (runtime.profilesSampler && runtime.releases == Library::Vllm) {
        rules.push_back(VersionRule::VllmTritonTopKTopP);
        rules.push_back(VersionRule::VllmModelRunnerV2Dense);
        rules.push_back(VersionRule::VllmModelRunnerV2);
    }
    // vLLM's batch defaults where the scenario leaves them to it (the A100
    // rule for every card: the GPUs fitted may include one).
    if (defaultsFollowTheCard(s)) {
        rules.push_back(VersionRule::VllmV1Engine);
        if (!versionRuleHolds(s.versions, VersionRule::VllmV1Engine))
            rules.push_back(VersionRule::VllmChunkedPrefill2048);
        else {
            rules.push_back(VersionRule::VllmSeqsByCard);
            rules.push_back(VersionRule::VllmA100SmallDefaults);
        }
    }
    if (runtime.releases == Library::Trtllm) {
        rules.push_back(VersionRule::TrtllmFloorBlocks);
        if (s.parallel.tp > 1)
            rules.push_back(VersionRule::TrtllmAllReduce64Mib);
    }
    if (runtime.kvPool != KvPool::ShareOfFreeBeforeWeights)
        return rules;
    // The draft's and the vision tower's rules where the scenario has one;
    // before 0.4.9.post3 a multimodal model's set fraction was scaled too.
    const bool drafts = s.speculativeDraft() != SpeculativeDraft::None;
    const bool multimodal = s.model.imageTokens > 0;
    for (VersionRule rule : kSglangFractionRules) {
        const bool draftRule = rule == VersionRule::SglangStandaloneDraft || rule == VersionRule::SglangEagleReserve4Gib
            || rule == VersionRule::SglangDraftInPool || rule == VersionRule::SglangPrefillGraphsWithDraft;
        const bool visionRule = rule == VersionRule::SglangVisionFraction;
        if ((draftRule && !drafts) || (visionRule && !multimodal) || (s.memFractionStatic && !visionRule))
            continue;
        rules.push_back(rule);
    }
    return rules;
}

/// The training stack's rules.
std::vector<VersionRule> trainingRulesUsed(const Scenario &s)
{
    std::vector<VersionRule> rules;
    switch (s.stack) {
    case TrainingStack::Hf:
        rules = {VersionRule::TrainerTorchAdamW, VersionRule::TrainerFusedAdamW, VersionRule::TorchForeachAdamW};
        break;
    case TrainingStack::Loop:
    case TrainingStack::LitGpt:
        rules = {VersionRule::TorchForeachAdamW};
        break;
    case TrainingStack::Torchtune:
        rules = {VersionRule::TorchtuneDeletesLogits};
        break;
    }
    if (s.stack == TrainingStack::Hf || s.stack == TrainingStack::Loop) {
        rules.push_back(VersionRule::LossUpcastsLogits);
        if (s.mode == Mode::Lora)
            rules.push_back(VersionRule::PeftFp32Adapters);
    }
    if (s.stack != TrainingStack::Torchtune && isBitsandbytes4Bit(s.effectiveWeights()))
        rules.push_back(VersionRule::BitsandbytesDropsInput);
    return rules;
}

} // namespace

std::vector<VersionRuleUse> versionRulesUsed(const Scenario &s)
{
    const std::vector<VersionRule> rules = s.isTraining() ? trainingRulesUsed(s) : servingRulesUsed(s);
    std::vector<VersionRuleUse> used;
    for (VersionRule rule : rules)
        used.push_back({&versionRuleInfo(rule), versionRuleHolds(s.versions, rule)});
    return used;
}

} // namespace core
