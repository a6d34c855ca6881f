#pragma once

#include "core/memory/formula.h"
#include "core/model/modelspec.h"
#include "core/scenario/scenario.h"

#include <cstdint>

namespace core {

/// What the backward pass needs from the forward pass, per layer and
/// outside the layers; each figure carries its formula when explained.
struct ActivationBreakdown
{
    Derived perTokenPerLayer; ///< bytes per token saved by one layer, excluding the s^2 scores
    Derived scoresPerLayer;   ///< eager attention's b*a*s^2 tensors, one layer
    Derived perLayer;         ///< one layer at this batch and sequence
    Derived keptPerLayer;     ///< what each layer keeps with the checkpointing policy
    Derived outsideFirst;     ///< embedding side (first pipeline stage)
    Derived outsideLast;      ///< final norm and lm_head input (last stage)
    Derived recomputePeak;    ///< one layer re-materialised during full recompute
    Derived hostPerLayer;     ///< what each layer keeps in host memory (offloaded checkpoints)
    Derived hostFirst;        ///< embedding side in host memory (torchtune's offloading)
    Derived hostLast;         ///< final norm in host memory (torchtune's offloading)
    /// Gradients that live at once inside one layer's backward: the MLP's
    /// three I-wide gradients (of act(gate) * up, of act(gate) and of up)
    /// plus the incoming h-wide gradient (autograd of LlamaMLP / GPT2MLP).
    Derived layerGradientPeak;
};

/// Which weights receive gradients, and how the adapters see their input.
/// A frozen linear layer saves no input, only its weight; an adapter's
/// lora_A saves its input, which is the layer's own input unless the
/// adapter made a private copy (dropout, or a cast to the adapter dtype).
struct Trainability
{
    bool fullModel = true;
    unsigned loraSlots = 0; ///< bit (1 << LinearSlot) for each adapted projection
    int loraRank = 0;
    /// The adapters' dtype: lora_A keeps its input in it (without autocast).
    double adapterDtypeBytes = 2;
    /// PEFT's lora.Linear casts x to the adapter dtype even under autocast
    /// (_cast_input_dtype), so a dtype mismatch always makes a private copy.
    bool adapterCastsInput = false;
    /// lora_A's output (rank-wide), saved for lora_B.
    double adapterOutputBytes = 2;
    /// Dropout on the adapter input: a private copy plus a 1-byte mask
    /// (torch.native_dropout, the CUDA kernel F.dropout uses).
    bool adapterDropout = false;
    /// LitGPT's LoRAQKVLinear: q, k and v adapters share one input.
    bool fusedQkvAdapter = false;
    /// bitsandbytes <= 0.43.1: every 4-bit linear keeps its (compute-dtype) input.
    bool baseKeepsInputs = false;
    /// The base layer casts its input to the compute dtype first (Linear4bit).
    bool baseCastsInput = false;
    /// ... the lm_head too, when it is one of them (LitGPT).
    bool lmHeadKeepsInput = false;
    bool repeatsKvAlways = false;
    /// Liger's RMSNorm and SwiGLU kernels (stack.h ligerNormAndSwiglu).
    bool ligerKernels = false;
    /// The layers run compiled (stack.h compiledLayers).
    bool compiledLayers = false;
    /// Offloading moves what the forward saves outside the layers to host
    /// memory too (stack.h offloadsWholeForward).
    bool offloadsWholeForward = false;
    /// Unsloth's RMSNorm and manual-autograd LoRA layers (stack.h
    /// unslothRmsNorm, unslothFusedLora).
    bool unslothRmsNorm = false;
    bool unslothFusedLora = false;

    bool slotTrained(LinearSlot slot) const
    {
        return fullModel || (loraSlots & (1u << static_cast<unsigned>(slot))) != 0;
    }
};

/// Element sizes of what a training step computes, by where it lives.
struct ActivationDtypes
{
    double compute = 2;   ///< matmul inputs the kernels run in
    double residual = 2;  ///< the residual stream between blocks (fp32 under AMP)
    double normOut = 2;   ///< a norm's output: its weight's dtype wins (weight * x.to(input_dtype))
    double linearOut = 2; ///< projection outputs: fp32 when a 4-bit layer casts back to an fp32 input
    double attention = 2; ///< q, k, v and the output that the attention kernel saves
    /// torch.autocast is on: every linear casts an input of another dtype
    /// to `compute`, a private copy per linear layer.
    bool autocast = false;

    static ActivationDtypes uniform(double bytes) { return {bytes, bytes, bytes, bytes, bytes, false}; }
};

/// What one token costs a layer, whatever the batch and sequence: the
/// per-token sums of `trainingActivations`, prepared once per scenario.
struct ActivationRates
{
    Derived perTokenPerLayer;  ///< bytes per token saved by one layer, excluding the s^2 scores
    /// Layers differ (a hybrid, or an MoE model's dense layers): the
    /// per-layer figure is their mean, and the largest layer sets a full
    /// recompute's peak: of the layers with softmax attention (which add
    /// their scores under eager attention) and of the others, per token.
    bool layersDiffer = false;
    double largestAttendingPerToken = 0;
    double largestOtherPerToken = 0;
    Derived scoreBytes;        ///< eager attention: bytes per b*a*s^2 element
    Derived gradientsPerToken; ///< the gradients alive at once inside one layer's backward
    Derived firstPerToken;     ///< embedding side (first pipeline stage)
    Derived lastPerToken;      ///< final norm and lm_head input (last stage)
    /// Offloaded with the whole forward: the embedding side and the final
    /// norm in host memory; `firstPerToken` and `lastPerToken` then hold
    /// what stays on the GPU.
    Derived hostFirstPerToken;
    Derived hostLastPerToken;
};

/// Saved-for-backward activations of a training step. Generalises
/// Korthikanti et al. 2022 (arXiv:2205.05198) §4.1, sbh(34 + 5as/h) per GPT
/// layer, to GQA, gated MLPs, RMSNorm, dropout on/off, the attention
/// implementation, LoRA's frozen layers and the dtypes each tensor really
/// has; with tensor parallelism the attention and MLP interiors split t ways
/// and, with sequence parallelism, the rest too (Table 2: sbh(10 + 24/t +
/// 5as/(ht)) and sbh(34/t + 5as/(ht))).
/// Each saved tensor is a named part of its sum; with a `store` the parts
/// are recorded.
/// `activationRates` is the per-token part, `trainingActivations` takes it
/// to the scenario's batch and sequence.
ActivationRates activationRates(const ModelSpec &model, const Scenario &scenario, const Trainability &trainability,
                                const ActivationDtypes &dtypes, FormulaStore *store = nullptr);
ActivationBreakdown trainingActivations(const ModelSpec &model, const Scenario &scenario,
                                        const ActivationDtypes &dtypes, const ActivationRates &rates,
                                        FormulaStore *store = nullptr);
/// Both steps at once.
ActivationBreakdown trainingActivations(const ModelSpec &model, const Scenario &scenario,
                                        const Trainability &trainability, const ActivationDtypes &dtypes,
                                        FormulaStore *store = nullptr);

} // namespace core
