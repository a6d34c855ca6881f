#pragma once

// What would make a scenario fit a GPU it does not: each input alone.

#include "core/analysis/fit.h"
#include "core/scenario/fields.h"

#include <optional>
#include <vector>

namespace core {

/// One input set to a value.
struct FieldChange
{
    FieldId field;
    FieldValue value; ///< as the field stores it
};

/// A change of one input, or of two, that makes the scenario fit, and
/// what found it.
struct FitSuggestion
{
    std::vector<FieldChange> changes;
    Bytes total;         ///< the peak per GPU with the changes
    const char *foundBy; ///< English, translatable (context "Suggest")
};

/// What makes `scenario` fit `fit`'s GPU. First each input alone, in the
/// order the fields are described: the largest batch and longest sequence
/// that fit, the most GPU layers and the GPUs needed (the fit's own
/// searches), then, for every choice input that changes memory
/// (checkpointing, logits, optimizer, ZeRO stage, offload, weight format,
/// KV cache format, attention) and applies here, the fitting choice that
/// keeps the most memory, i.e. changes least. Where nothing alone fits,
/// pairs: the choice that saves most in one input with the largest batch,
/// longest sequence or fewest GPUs that then fit, and two choice inputs
/// together (the three pairs that keep the most). Empty when it fits or
/// no pair does.
std::vector<FitSuggestion> fitSuggestions(const Scenario &scenario, const GpuFit &fit);

/// Why no count of a GPU fits (a "cannot fit" verdict): each GPU's terms
/// at the widest layout the verdict's search reaches (every layer on its
/// own GPU for inference, the search's last count for ZeRO-3 training),
/// where only what does not split is left.
struct SplitFloor
{
    int gpus = 0;
    Estimate perGpu;
};
std::optional<SplitFloor> splitFloor(const Scenario &scenario, const GpuFit &fit);

} // namespace core
