#include "core/analysis/llamafit.h"

#include "core/analysis/llamafitplacement.h"
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

/// Every device's total and weights, summed (an equal split plans its first
/// and last GPU; those between are as the first).
struct DeviceSums
{
    Bytes total;
    Bytes weights;
};
DeviceSums sumOverDevices(const Scenario &s)
{
    DeviceSums sums;
    const std::vector<Estimate> stages = estimateStages(s);
    const auto n = static_cast<std::size_t>(std::max(1, s.gpus));
    for (std::size_t i = 0; i < n; ++i) {
        const Estimate &e = stages.size() == n ? stages[i] : i + 1 == n && stages.size() > 1 ? stages.back() : stages.front();
        sums.total += e.isValid() ? e.total : Bytes::max();
        sums.weights += e.term(TermId::Weights);
    }
    return sums;
}

} // namespace

bool fitsItselfAtLoad(const Scenario &s)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    return runtime && runtime->fitsItselfAtLoad;
}

Bytes llamaFitDeficit(const LlamaFitSums &sums)
{
    return sums.used + sums.margins - sums.free;
}

std::optional<std::uint64_t> llamaFitContext(const LlamaFitContextRange &range, const LlamaFitSums &atMax,
                                             Bytes usedAtMin, std::size_t devices, Bytes modelPerLayer, bool moe)
{
    Bytes target = atMax.free - atMax.margins;
    if (devices > 1)
        target = target - Bytes::fromCount((devices + 1) * modelPerLayer.count() / (moe ? 6 : 2));
    if (target <= usedAtMin)
        return std::nullopt;
    if (atMax.used <= usedAtMin || range.max <= range.min)
        return range.min;
    // The source's integer arithmetic, cells x bytes / bytes, in long double
    // so that a 10M-cell context over terabytes does not wrap.
    const auto lowered = range.min
        + static_cast<std::uint64_t>(static_cast<long double>(range.max - range.min)
                                     * static_cast<long double>((target - usedAtMin).count())
                                     / static_cast<long double>((atMax.used - usedAtMin).count()));
    const std::uint64_t align = kContextAlignment * std::max<std::uint64_t>(1, range.streams);
    return std::max(range.min, std::min(range.max, lowered - lowered % align));
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

    // Step 1: the defaults. The plan's GPUs are alike and equally loaded:
    // each one's total against its memory less the margin.
    const Estimate atMax = estimate(withContext(s, fit.context));
    fit.perGpu = atMax.isValid() ? atMax.total : Bytes::max();
    if (fit.perGpu <= fit.target)
        return fit;

    // Step 2: an unset context, lowered towards --fit-ctx, when the devices
    // together miss their margins (one device over while another has room
    // goes to step 3, which rebalances the layers).
    const auto devices = static_cast<std::uint64_t>(std::max(1, s.gpus));
    const auto times = [devices](Bytes perGpu) {
        return perGpu.count() > Bytes::max().count() / devices ? Bytes::max() : Bytes::fromCount(perGpu.count() * devices);
    };
    const DeviceSums atMaxSums = sumOverDevices(withContext(s, fit.context));
    const LlamaFitSums sums{atMaxSums.total, times(gpu.capacity()), times(options.margin)};
    if (!options.contextSet && fit.trainedContext > options.minContext && llamaFitDeficit(sums) > Bytes()) {
        const Bytes usedAtMin = sumOverDevices(withContext(s, options.minContext)).total;
        const Bytes modelPerLayer = Bytes::fromCount(atMaxSums.weights.count() / std::max<std::uint64_t>(1, m.layers));
        const auto lowered = llamaFitContext({fit.trainedContext, options.minContext, 1}, sums, usedAtMin,
                                             static_cast<std::size_t>(devices), modelPerLayer, m.moe.isMoe());
        fit.context = lowered.value_or(options.minContext);
        if (lowered) {
            // One device: done ("entire model can be fit by reducing
            // context"). Several go on to step 3, where the layers are
            // placed at this context; alike GPUs that keep it take them all.
            fit.outcome = LlamaServerFit::Outcome::ContextReduced;
            fit.perGpu = totalOf(withContext(s, fit.context));
            if (devices == 1 || (m.moe.isMoe() && fit.perGpu <= fit.target))
                return fit;
        }
    }
    s = withContext(s, fit.context);

    // Steps 3 and 4: the layers, and an MoE model's routed experts, placed
    // as fit.cpp places them.
    const FitLayout layout = placeLayersForFit(s, fit.target);
    fit.gpuLayers = 0;
    fit.perGpu = Bytes();
    for (std::size_t id = 0; id < layout.size(); ++id) {
        fit.gpuLayers += layout[id].layers;
        fit.perGpu = std::max(fit.perGpu, fitDeviceTotal(s, layout, id));
        if (layout.size() > 1)
            fit.gpuLayersPerDevice.push_back(layout[id].layers);
    }
    fit.cpuMoeLayers = hostExpertLayers(s, layout);
    if (fit.perGpu > fit.target)
        fit.outcome = LlamaServerFit::Outcome::NothingFits;
    else if (fit.gpuLayers < m.layers + 1)
        fit.outcome = LlamaServerFit::Outcome::LayersMoved;
    else if (fit.cpuMoeLayers > 0)
        fit.outcome = LlamaServerFit::Outcome::ExpertsMoved;
    else if (fit.outcome != LlamaServerFit::Outcome::ContextReduced)
        fit.outcome = LlamaServerFit::Outcome::LayersMoved; // every layer, split otherwise than by default
    return fit;
}

Message llamaServerFitMessage(const LlamaServerFit &fit, const ModelSpec &model)
{
    const std::string context = groupDigits(fit.context);
    // -ngl N: the output layer and the last N - 1 layers.
    const std::string layers = std::to_string(fit.gpuLayers > 0 ? std::min(fit.gpuLayers - 1, model.layers) : 0);
    const std::string of = std::to_string(model.layers);
    const std::string ngl = std::to_string(fit.gpuLayers);
    const std::string experts = std::to_string(fit.cpuMoeLayers);
    const bool split = !fit.gpuLayersPerDevice.empty() && fit.outcome != LlamaServerFit::Outcome::NothingFits;
    if (split) {
        std::string ts;
        for (std::uint64_t n : fit.gpuLayersPerDevice)
            ts += (ts.empty() ? "" : ",") + std::to_string(n);
        if (fit.outcome == LlamaServerFit::Outcome::ContextReduced)
            return {"LlamaFit",
                    QT_TRANSLATE_NOOP("LlamaFit", "context lowered from %1 to %2 tokens, every layer on the GPUs (-ts %3)"),
                    {groupDigits(fit.trainedContext), context, ts}};
        if (fit.cpuMoeLayers > 0)
            return {"LlamaFit",
                    QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the output layer and %2 of %3 layers on the GPUs (-ngl %4 "
                                                  "-ts %5), the experts of %6 of them in host memory"),
                    {context, layers, of, ngl, ts, experts}};
        return {"LlamaFit",
                QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the output layer and %2 of %3 layers on the GPUs (-ngl %4 -ts %5)"),
                {context, layers, of, ngl, ts}};
    }
    switch (fit.outcome) {
    case LlamaServerFit::Outcome::Unchanged:
        return {"LlamaFit", QT_TRANSLATE_NOOP("LlamaFit", "no change: %1 tokens, every layer on the GPU"), {context}};
    case LlamaServerFit::Outcome::ContextReduced:
        return {"LlamaFit",
                QT_TRANSLATE_NOOP("LlamaFit", "context lowered from %1 to %2 tokens, every layer on the GPU"),
                {groupDigits(fit.trainedContext), context}};
    case LlamaServerFit::Outcome::ExpertsMoved:
        return {"LlamaFit",
                QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the experts of %2 layers in host memory (as --n-cpu-moe %2)"),
                {context, experts}};
    case LlamaServerFit::Outcome::LayersMoved:
        if (fit.cpuMoeLayers > 0)
            return {"LlamaFit",
                    QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the output layer and %2 of %3 layers on the GPU (-ngl %4), "
                                                  "the experts of %5 of them in host memory"),
                    {context, layers, of, ngl, experts}};
        return {"LlamaFit", QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the output layer and %2 of %3 layers on the GPU (-ngl %4)"),
                {context, layers, of, ngl}};
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
