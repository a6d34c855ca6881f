#pragma once

#include "core/engine/estimate.h"
#include "core/memory/formula.h"
#include "core/memory/formularecord.h"
#include "core/memory/formulatext.h"
#include "core/memory/hostoffload.h"

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace core {

class PreparedScenario;

/// The engine's side of an estimate: what one pipeline stage holds at every
/// batch and sequence, prepared once per scenario (PreparedScenario) and
/// shared by every point of a sweep, a grid or a fit search. estimate.cpp
/// adds what the point's tokens hold.

inline Bytes sumTerms(const TermBytes &terms)
{
    Bytes total;
    for (Bytes b : terms)
        total += b;
    return total;
}

/// One moment's per-GPU terms and, when the estimate is explained, the
/// formula that gave each (null where a term is not held).
struct MomentTerms
{
    TermBytes bytes{};
    TermFormulas how{};

    void set(TermId id, Quantity q)
    {
        bytes[termIndex(id)] = q.bytes;
        how[termIndex(id)] = q.how;
    }
};

/// What a moment adds to its tensors: the CUDA context and NCCL buffers
/// (the same at every moment) and the allocator's reserve.
struct Overheads
{
    Quantity cuda;
    Quantity nccl;
};

/// This rank's share of the model under tensor, pipeline and expert
/// parallelism (Shoeybi et al. 2019 §3; Narayanan et al. 2021 §2).
struct RankShare
{
    Derived params;             ///< of all parameters
    /// Of the weight bytes: `params` where every parameter costs the same,
    /// else each placement at its own width; written with `weightSymbol`.
    Derived weights;
    const Symbol *weightSymbol = &text::shared::kRankShare;
    WeightWidths widths;        ///< bytes per parameter of its parts
    Derived layers;             ///< of the decoder layers (adapters live there)
    /// The decoder layers' parameters this rank holds (experts over ep,
    /// the rest as tensor parallelism splits each tensor: tpSplitOf), and
    /// of those the routed experts'.
    double layerParamsHere = 0;
    double expertParamsHere = 0;
    std::uint64_t layerCount = 0; ///< decoder layers on this stage
    Derived inFlight{1};        ///< micro-batches whose activations are alive
    bool first = true;
    bool last = true;
    int tp = 1;
    int dp = 1;
    /// generate()'s CPU offload (hostoffload.h): layers in host memory that
    /// run here, their KV cache and activations with them; the lm_head
    /// among them.
    std::uint64_t hostLayersRunHere = 0;
    bool lmHeadOnHost = false;
};

/// What one stage holds whatever the batch and sequence: for training the
/// model states (Rajbhandari et al. 2020 §3: parameters, gradients,
/// optimizer states) and the workspaces that scale with the weights, for
/// inference the weights. Every quantity carries its formula when the
/// scenario was prepared with a store.
struct StageStates
{
    Stage stage = Stage::Only;
    RankShare share;
    Overheads overheads;
    Derived modelWeights;       ///< the whole model's weight bytes, before any split
    Derived draftWeights;       ///< inference with a draft model: its weight bytes
    /// The estimate's details as far as they do not depend on the point.
    EstimateDetails details;
    /// What every moment of the stage holds: training's weights, adapters,
    /// master weights, optimizer states and gather buffer; inference's weights.
    MomentTerms persistent;

    // Training only.
    Quantity gradients;       ///< this rank's gradients once backward is done
    Quantity startGradients;  ///< at the start of backward: accumulated, or the first layer's
    Quantity accumulated;     ///< gradient accumulation: alive through the forward
    Quantity autocast;        ///< autocast's 16-bit casts of fp32 weights
    Quantity dequant;         ///< one dequantised weight of the frozen base
    Quantity loadUnit;        ///< ZeRO-3 / FSDP loading: the one unit gathered whole
    Quantity headWorkspace;   ///< at the head: the casts and a dequantised lm_head
    Quantity layerWorkspace;  ///< inside a layer: the casts and a dequantised weight
    Derived logitsForward;    ///< bytes per b*s*V element at the end of forward
    Derived logitsBackward;   ///< the same at the loss's backward
    MomentTerms backwardEnd;  ///< the end of backward: the model states and every gradient
    MomentTerms step;         ///< the optimizer step: the same and the step's temporaries
    PhaseTotal stepPhase;     ///< the step's phase (optimizerStepPhase), the same at every point
};

/// Pipeline stages: training's pp, or inference's layer split over the GPUs
/// (device_map="auto") when there is no tensor or pipeline parallelism.
int pipelineStages(const Scenario &s);
/// The stages an estimate of `s` evaluates: the first and the last of a
/// pipeline (the most loaded is one of them), else the only one. llama.cpp
/// evaluates its devices from the one stage.
std::vector<Stage> stagesToEstimate(const Scenario &s);

/// The largest of a phase's moments, overheads included: the moment's
/// terms, the CUDA context, NCCL buffers and the allocator's reserve. Each
/// moment is recorded when the estimate is explained.
PhaseTotal largerMoment(Phase phase, const Scenario &s, const Overheads &overheads, FormulaRecord *record,
                        std::initializer_list<std::pair<const char *, const MomentTerms *>> moments);
/// Training: the optimizer step's phase of a prepared stage.
PhaseTotal optimizerStepPhase(const Scenario &s, const StageStates &st, FormulaRecord *record = nullptr);

/// Prepares each of `stagesToEstimate(s)`, reading what `prepared` has
/// already made of the tensor table; formulas go to `store` when given.
std::vector<StageStates> prepareStages(const Scenario &s, const PreparedScenario &prepared,
                                       const std::vector<TensorGroup> &tensors, FormulaStore *store);

} // namespace core
