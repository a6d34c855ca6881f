#pragma once

#include "core/modelspec.h"
#include "core/scenario.h"

#include <cstdint>

namespace core {

/// What the backward pass needs from the forward pass, per layer and in total.
struct ActivationBreakdown
{
    double perTokenPerLayer = 0; ///< bytes per token saved by one layer, excluding the s^2 scores
    double scoresPerLayer = 0;   ///< eager attention's b*a*s^2 tensors, one layer
    double perLayer = 0;         ///< one layer at this batch and sequence
    double keptPerLayer = 0;     ///< what each layer keeps with the checkpointing policy
    double outsideFirst = 0;     ///< embedding side (first pipeline stage)
    double outsideLast = 0;      ///< final norm and lm_head input (last stage)
    double outsideLayers = 0;    ///< outsideFirst + outsideLast
    double saved = 0;            ///< all layers on one GPU: L x keptPerLayer + outside
    double recomputePeak = 0;    ///< one layer re-materialised during full recompute
};

/// Which weights receive gradients: decides which linear inputs autograd
/// keeps (a frozen linear layer saves no input, only its weight).
struct Trainability
{
    bool fullModel = true;
    unsigned loraSlots = 0; ///< bit (1 << LinearSlot) for each adapted projection
    int loraRank = 0;

    bool slotTrained(LinearSlot slot) const
    {
        return fullModel || (loraSlots & (1u << static_cast<unsigned>(slot))) != 0;
    }
};

/// Saved-for-backward activations of a training step. Generalises
/// Korthikanti et al. 2022 (arXiv:2205.05198) §4.1, sbh(34 + 5as/h) per GPT
/// layer, to GQA, gated MLPs, RMSNorm, dropout on/off, the attention
/// implementation and LoRA's frozen layers; with tensor parallelism the
/// attention and MLP interiors split t ways and, with sequence parallelism,
/// the rest too (Table 2: sbh(10 + 24/t + 5as/(ht)) and sbh(34/t + 5as/(ht))).
///   activationBytes: element size of matmul inputs (2 for 16-bit training)
///   residualBytes:   element size of the residual stream (4 under AMP/fp32)
ActivationBreakdown trainingActivations(const ModelSpec &model, const Scenario &scenario,
                                        const Trainability &trainability, double activationBytes,
                                        double residualBytes);

} // namespace core
