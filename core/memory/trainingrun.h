#pragma once

#include "core/memory/activations.h"
#include "core/memory/training.h"
#include "core/scenario/scenario.h"
#include "core/scenario/stack.h"

namespace core {

/// How one training run stores and computes once its stack has had its
/// say: what a trainable parameter costs, how the frozen base of a
/// LoRA/QLoRA run is stored, and the dtype of every activation.
struct TrainingRun
{
    StackBehaviour stack;
    /// Bytes per trainable parameter: the regime's for full training; for
    /// adapters the regime's, or fp32 throughout where the stack makes fp32
    /// adapters (then no master copy is needed).
    RegimeBytes trainable;
    bool adapters = false;       ///< LoRA or QLoRA: the base is frozen
    bool autocast = false;       ///< torch.autocast runs the forward
    /// PEFT's prepare_model_for_kbit_training ran: the frozen base's
    /// non-quantised parameters are fp32.
    bool kbitUpcast = false;
    double unquantizedBytes = 2; ///< frozen base's embeddings, norms (and lm_head unless quantised)
    bool lmHeadQuantized = false;
    ActivationDtypes dtypes;
    Trainability trainability;
    /// Bytes a dequantisation of one 4-bit (or 8-bit) weight element
    /// allocates at once (0 for a float base): bitsandbytes writes one
    /// 16-bit copy (dequantize_4bit; the int8 backward's CB * SCB), torchao's
    /// NF4Tensor.get_original_weight holds two int64 index tensors of n/2
    /// elements (8 B) plus three half-size 16-bit intermediates (3 x 2 B).
    double dequantBytesPerElement = 0;
    double logitsBytes = 2;      ///< element size of the logits lm_head emits
};

TrainingRun trainingRun(const Scenario &scenario);

} // namespace core
