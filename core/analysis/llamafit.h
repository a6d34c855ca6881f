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
        ExpertsMoved,   ///< every layer on the GPUs, the first layers' routed experts on the host
        LayersMoved,    ///< the first layers on the host (MoE: with every layer's experts there)
        NothingFits,    ///< not even every layer on the host leaves the margin
    };
    Outcome outcome = Outcome::Unchanged;
    std::uint64_t trainedContext = 0; ///< what -c 0 starts from, per sequence
    std::uint64_t context = 0;        ///< the context it runs with, per sequence
    std::uint64_t gpuLayers = 0;      ///< -ngl it sets: layers + 1 is every layer and the output layer
    std::uint64_t cpuMoeLayers = 0;   ///< the leading layers whose routed experts stay on the host
    Bytes perGpu;                     ///< the planned peak per GPU at that choice
    Bytes target;                     ///< each GPU's memory less the margin
};

/// Inference on a runtime that sizes itself at load (its policy row's
/// fitsItselfAtLoad): where llamaServerFit has something to say.
bool fitsItselfAtLoad(const Scenario &s);

/// llama-server's --fit on `s.gpus` of `gpu`, from the planner's own
/// per-GPU totals where llama.cpp measures its buffers with a dry run. The
/// rule, step by step as common_params_fit_impl takes it: (1) nothing
/// changes when the default layout leaves the margin; (2) an unset context
/// is lowered, interpolating linearly between the trained context and
/// --fit-ctx, rounded down to 256 cells per sequence; (3) with the least
/// context, an MoE model's routed experts go to the host (all, then back
/// layer by layer from the last while they fit), else whole layers from
/// the first. Several GPUs are planned with an equal layer split (llama.cpp
/// fills them unevenly; not modelled), and a partly offloaded layer's
/// tensors (its first overflowing layer) are whole layers here.
LlamaServerFit llamaServerFit(const Scenario &s, const GpuSpec &gpu, const LlamaServerFitOptions &options = {});

/// The choice in words: "context lowered from 131,072 to 40,960 tokens,
/// every layer on the GPU".
Message llamaServerFitMessage(const LlamaServerFit &fit, const ModelSpec &model);

/// "unchanged", "context_reduced", ...: JSON spelling.
const char *llamaServerFitOutcomeId(LlamaServerFit::Outcome outcome);

} // namespace core
