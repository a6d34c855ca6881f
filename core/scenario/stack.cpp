#include "core/scenario/stack.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"

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

StackBehaviour stackBehaviour(TrainingStack stack, Mode mode)
{
    StackBehaviour b;
    switch (stack) {
    case TrainingStack::Hf:
        // get_peft_model(..., autocast_adapter_dtype=True) upcasts fp16/bf16
        // adapter weights to fp32 (peft tuners_utils _cast_adapter_dtype).
        b.fp32Adapters = true;
        b.adapterCastsInput = true;
        // prepare_model_for_kbit_training: "cast all non INT8 parameters to
        // fp32"; use_gradient_checkpointing=True by default.
        b.kbitUpcastsToFp32 = mode == Mode::Qlora;
        b.checkpointing = mode == Mode::Qlora ? Checkpointing::Full : Checkpointing::None;
        // ForCausalLMLoss: logits = logits.float() over every position.
        b.logits = LogitsMode::Fp32;
        // Trainer's default optim is adamw_torch_fused with torch >= 2.8.
        b.optimizerImpl = OptimizerImpl::Fused;
        // LoraConfig(lora_dropout=0.0): nn.Identity.
        b.loraDropout = 0.0;
        // Trainer.training_step: compute_loss returns the loss only, so the
        // model outputs (the logits) are freed before accelerator.backward.
        b.keepsLogitsInBackward = false;
        break;
    case TrainingStack::Torchtune:
        // Every *_lora / *_qlora / *_full_single_device config sets
        // enable_activation_checkpointing: True and optimizer fused: True.
        b.checkpointing = Checkpointing::Full;
        b.logits = LogitsMode::Chunked;
        b.optimizerImpl = OptimizerImpl::Fused;
        b.torchaoNf4Base = true;
        // lora_finetune_single_device.py train(): `logits` stays a local
        // across loss.backward() (recipes before the chunked loss).
        b.keepsLogitsInBackward = true;
        b.loraDropout = 0.0; // configs: lora_dropout: 0.0 (nn.Identity)
        break;
    case TrainingStack::LitGpt:
        // Fabric's BitsandbytesPrecision swaps torch.nn.Linear for
        // Linear4bit with an empty ignore_modules: lm_head too.
        b.quantizesLmHead = mode == Mode::Qlora;
        b.fusedQkvAdapter = true;
        // CausalSelfAttention: k.repeat_interleave(q_per_kv) before SDPA.
        b.repeatsKvAlways = true;
        // Single-device fits use strategy "auto": no activation checkpointing.
        b.checkpointing = Checkpointing::None;
        // model(lm_head_chunk_size=128) keeps every chunk; cross_entropy on
        // each chunk without .float().
        b.logits = LogitsMode::Native;
        // torch.optim.AdamW (bnb PagedAdamW for QLoRA): foreach by default on CUDA.
        b.optimizerImpl = OptimizerImpl::Foreach;
        b.loraDropout = 0.05;
        // finetune/lora.py fit(): `logits` stays a local across fabric.backward.
        b.keepsLogitsInBackward = true;
        break;
    }
    return b;
}

} // namespace core
