#include "core/analysis/llamafit.h"

#include "core/analysis/monotoneprobe.h"
#include "core/base/translatable.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>

namespace core {

namespace {

/// llama.cpp rounds a lowered context down to 256 cells per stream
/// ("round down context for CUDA backend").
constexpr std::uint64_t kContextAlignment = 256;

Scenario withContext(Scenario s, std::uint64_t context)
{
    s.sequence = std::max<std::uint64_t>(1, context);
    return s;
}

} // namespace

bool fitsItselfAtLoad(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->fitsItselfAtLoad;
}

LlamaServerFit llamaServerFit(const Scenario &scenario, const GpuSpec &gpu, const LlamaServerFitOptions &options)
{
    LlamaServerFit fit;
    fit.target = gpu.capacity() - options.margin;
    // --fit changes only what the user left unset: -ngl and the experts'
    // placement always (this plan leaves them to it), -c when asked.
    Scenario s = scenario;
    s.gpuLayers.reset();
    s.cpuMoeLayers = 0;
    const ModelSpec &m = s.model;
    fit.trainedContext = options.contextSet || m.maxPositions == 0 ? scenario.sequence : m.maxPositions;
    fit.context = fit.trainedContext;
    fit.gpuLayers = m.layers + 1;

    // Step 1: the defaults.
    fit.perGpu = totalOf(withContext(s, fit.context));
    if (fit.perGpu <= fit.target)
        return fit;

    // Step 2: an unset context, lowered by linear interpolation between the
    // trained context and --fit-ctx.
    if (!options.contextSet && fit.trainedContext > options.minContext) {
        const Bytes atMax = fit.perGpu;
        const Bytes atMin = totalOf(withContext(s, options.minContext));
        fit.context = options.minContext;
        if (fit.target > atMin) {
            const double share = static_cast<double>((fit.target - atMin).count())
                / static_cast<double>(std::max<std::uint64_t>(1, (atMax - atMin).count()));
            const auto span = static_cast<double>(fit.trainedContext - options.minContext);
            const auto lowered = options.minContext + static_cast<std::uint64_t>(span * share);
            fit.context = std::max(options.minContext, lowered - lowered % kContextAlignment);
            fit.outcome = LlamaServerFit::Outcome::ContextReduced;
            fit.perGpu = totalOf(withContext(s, fit.context));
            return fit;
        }
    }
    s = withContext(s, fit.context);

    // Step 3: weights to the host, an MoE model's routed experts first.
    if (m.moe.isMoe()) {
        MonotoneProbe byKeptExperts([&s](std::uint64_t keptPlusOne) {
            Scenario t = s;
            t.cpuMoeLayers = t.model.layers - (keptPlusOne - 1);
            return totalOf(t);
        });
        // Layers whose experts stay on the GPUs, counted from the last.
        const std::uint64_t keptPlusOne = byKeptExperts.largestFitting(fit.target, m.layers + 1);
        if (keptPlusOne > 0) {
            fit.cpuMoeLayers = m.layers - (keptPlusOne - 1);
            fit.outcome = LlamaServerFit::Outcome::ExpertsMoved;
            fit.perGpu = byKeptExperts.at(keptPlusOne);
            return fit;
        }
        s.cpuMoeLayers = m.layers;
        fit.cpuMoeLayers = m.layers;
    }
    MonotoneProbe byLayers([&s](std::uint64_t layersPlusOne) {
        Scenario t = s;
        t.gpuLayers = layersPlusOne - 1;
        return totalOf(t);
    });
    const std::uint64_t layersPlusOne = byLayers.largestFitting(fit.target, m.layers + 2);
    if (layersPlusOne == 0) {
        fit.outcome = LlamaServerFit::Outcome::NothingFits;
        fit.gpuLayers = 0;
        fit.perGpu = byLayers.at(1);
        return fit;
    }
    fit.outcome = LlamaServerFit::Outcome::LayersMoved;
    fit.gpuLayers = layersPlusOne - 1;
    fit.perGpu = byLayers.at(layersPlusOne);
    return fit;
}

Message llamaServerFitMessage(const LlamaServerFit &fit, const ModelSpec &model)
{
    const std::string context = groupDigits(fit.context);
    switch (fit.outcome) {
    case LlamaServerFit::Outcome::Unchanged:
        return {"LlamaFit", QT_TRANSLATE_NOOP("LlamaFit", "no change: %1 tokens, every layer on the GPU"), {context}};
    case LlamaServerFit::Outcome::ContextReduced:
        return {"LlamaFit",
                QT_TRANSLATE_NOOP("LlamaFit", "context lowered from %1 to %2 tokens, every layer on the GPU"),
                {groupDigits(fit.trainedContext), context}};
    case LlamaServerFit::Outcome::ExpertsMoved:
        return {"LlamaFit",
                QT_TRANSLATE_NOOP("LlamaFit",
                                  "%1 tokens, experts of the first %2 layers in host memory (--n-cpu-moe %2)"),
                {context, std::to_string(fit.cpuMoeLayers)}};
    case LlamaServerFit::Outcome::LayersMoved:
        if (fit.cpuMoeLayers > 0)
            return {"LlamaFit",
                    QT_TRANSLATE_NOOP("LlamaFit",
                                      "%1 tokens, %2 of %3 layers on the GPU (-ngl %2), every expert in host memory"),
                    {context, std::to_string(fit.gpuLayers), std::to_string(model.layers)}};
        return {"LlamaFit", QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, %2 of %3 layers on the GPU (-ngl %2)"),
                {context, std::to_string(std::min(fit.gpuLayers, model.layers)), std::to_string(model.layers)}};
    case LlamaServerFit::Outcome::NothingFits:
        break;
    }
    return {"LlamaFit",
            QT_TRANSLATE_NOOP("LlamaFit", "no layout keeps its free margin, not even every layer in host memory (%1 tokens)"),
            {context}};
}

const char *llamaServerFitOutcomeId(LlamaServerFit::Outcome outcome)
{
    switch (outcome) {
    case LlamaServerFit::Outcome::Unchanged: return "unchanged";
    case LlamaServerFit::Outcome::ContextReduced: return "context_reduced";
    case LlamaServerFit::Outcome::ExpertsMoved: return "experts_moved";
    case LlamaServerFit::Outcome::LayersMoved: return "layers_moved";
    case LlamaServerFit::Outcome::NothingFits: return "nothing_fits";
    }
    return "";
}

} // namespace core
