#pragma once

// What llama-server chooses by itself: its automatic fit (--fit, on by
// default since llama.cpp PR 16653), which lowers an unset context and then
// moves layers or routed experts to host memory until every device keeps a
// free margin (common/fit.cpp common_params_fit_impl, llama.cpp 0.4.0).

#include "core/base/message.h"
#include "core/base/units.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace core {

struct LlamaServerFitOptions
{
    /// -c given: --fit keeps the scenario's context and only moves weights;
    /// unset (-c 0): it starts from the model's trained context and lowers it first.
    bool contextSet = false;
    Bytes margin = Bytes::mib(1024);   ///< --fit-target: free memory left per device
    std::uint64_t minContext = 4096;     ///< --fit-ctx: the least context it lowers to
};

struct LlamaServerFit
{
    enum class Outcome {
        Unchanged,      ///< the defaults leave the margin free
        ContextReduced, ///< a shorter context alone fits
        ExpertsMoved,   ///< every layer on the GPUs, some layers' routed experts in host memory
        LayersMoved,    ///< the first layers in host memory (MoE: most GPU layers' experts too), or a split of its own
        NothingFits,    ///< not even every layer on the host leaves the margin
    };
    Outcome outcome = Outcome::Unchanged;
    std::uint64_t trainedContext = 0; ///< what -c 0 starts from, per sequence
    std::uint64_t context = 0;        ///< the context it runs with, per sequence
    std::uint64_t gpuLayers = 0;      ///< -ngl it sets: layers + 1 is every layer and the output layer
    std::uint64_t cpuMoeLayers = 0;   ///< layers on the GPUs whose routed experts stay in host memory
    /// Several GPUs: the units (layers, the output layer last) on each, as
    /// --tensor-split; empty on one.
    std::vector<std::uint64_t> gpuLayersPerDevice;
    Bytes perGpu;                     ///< the planned peak per GPU at that choice
    Bytes target;                     ///< each GPU's memory less the margin
};

/// What --fit's first two steps read of a layout, summed over the devices
/// (common_params_fit_impl's sum_projected_used, sum_free and margins).
struct LlamaFitSums
{
    Bytes used;    ///< the projected use: model, context and compute buffers
    Bytes free;    ///< the devices' free memory
    Bytes margins; ///< --fit-target, once per device
};

/// Step 2's "need to reduce device memory by N MiB": what the layout misses
/// its margins by in total, zero when it keeps them.
Bytes llamaFitDeficit(const LlamaFitSums &sums);

/// The range step 2 lowers an unset context in, in cells over every stream.
struct LlamaFitContextRange
{
    std::uint64_t max = 0;     ///< n_ctx_max: the trained context x the streams
    std::uint64_t min = 0;     ///< n_ctx_min_total: --fit-ctx x the streams
    std::uint64_t streams = 1; ///< KV streams (-np without a unified cache)
};

/// Step 2's context: linear between the use at `range.max` (`atMax.used`)
/// and at `range.min` (`usedAtMin`), to the free memory less the margins;
/// on several devices less (devices + 1) x modelPerLayer / 2 as well (/ 6
/// for MoE), the whole layers (MoE: tensors) a device cannot split;
/// rounded down to 256 cells per stream. Nothing when not even `range.min`
/// reaches the target (--fit then runs with `range.min` and moves weights).
std::optional<std::uint64_t> llamaFitContext(const LlamaFitContextRange &range, const LlamaFitSums &atMax,
                                             Bytes usedAtMin, std::size_t devices, Bytes modelPerLayer, bool moe);

/// Inference on a runtime that sizes itself at load (its policy row's
/// fitsItselfAtLoad): where llamaServerFit has something to say.
bool fitsItselfAtLoad(const Scenario &s);

/// llama-server's --fit on `s.gpus` of `gpu`, from the planner's own
/// per-GPU totals where llama.cpp measures its buffers with a dry run. The
/// rule, step by step as common_params_fit_impl takes it: (1) nothing
/// changes when the default layout leaves the margin; (2) an unset context
/// is lowered, interpolating linearly between the trained context and
/// --fit-ctx, rounded down to 256 cells per sequence (llamaFitDeficit and
/// llamaFitContext); (3, 4) the layers, and an MoE model's experts, placed
/// device by device (placeLayersForFit).
LlamaServerFit llamaServerFit(const Scenario &s, const GpuSpec &gpu, const LlamaServerFitOptions &options = {});

/// The choice in words: "context lowered from 131,072 to 40,960 tokens,
/// every layer on the GPU".
Message llamaServerFitMessage(const LlamaServerFit &fit, const ModelSpec &model);

/// "unchanged", "context_reduced", ...: JSON spelling.
const char *llamaServerFitOutcomeId(LlamaServerFit::Outcome outcome);

} // namespace core
