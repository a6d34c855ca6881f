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

/// Each device's peak with `perDevice` units (layers in order, the output
/// layer last) on it: llama.cpp's -ngl (their sum) and --tensor-split.
std::vector<Bytes> deviceTotals(Scenario s, const std::vector<std::uint64_t> &perDevice)
{
    std::uint64_t units = 0;
    for (std::uint64_t n : perDevice)
        units += n;
    s.gpuLayers = units;
    s.tensorSplit.clear();
    if (units > 0)
        for (std::uint64_t n : perDevice)
            s.tensorSplit.push_back(static_cast<double>(n));
    // Without a split the GPUs hold no layer and are alike: the first
    // stands for all.
    std::vector<Bytes> totals(perDevice.size(), Bytes::max());
    for (const Estimate &stage : estimateStages(s)) {
        const auto device = static_cast<std::size_t>(std::max(0, stage.details.device));
        const Bytes total = stage.isValid() ? stage.total : Bytes::max();
        if (s.tensorSplit.empty())
            std::fill(totals.begin(), totals.end(), total);
        else if (device < totals.size())
            totals[device] = total;
    }
    return totals;
}

/// fit.cpp step 3 for a dense model on several devices ("filling dense
/// layers back-to-front"): from the last device, each takes the most units
/// not yet placed that keep its target (by the method of false position
/// there, by bisection here: both stop at the largest count that fits).
std::vector<std::uint64_t> fillBackToFront(const Scenario &s, Bytes target)
{
    std::vector<std::uint64_t> perDevice(static_cast<std::size_t>(s.gpus), 0);
    std::uint64_t unassigned = s.model.layers + 1;
    for (std::size_t id = perDevice.size(); id-- > 0;) {
        MonotoneProbe byUnits([&s, &perDevice, id](std::uint64_t unitsPlusOne) {
            std::vector<std::uint64_t> trial = perDevice;
            trial[id] = unitsPlusOne - 1;
            return deviceTotals(s, trial)[id];
        });
        const std::uint64_t plusOne = byUnits.largestFitting(target, unassigned + 1);
        perDevice[id] = plusOne == 0 ? 0 : plusOne - 1;
        unassigned -= perDevice[id];
    }
    return perDevice;
}

Bytes largest(const std::vector<Bytes> &totals)
{
    return totals.empty() ? Bytes() : *std::max_element(totals.begin(), totals.end());
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
    // The source's 64-bit integer arithmetic: cells x bytes / bytes.
    const std::uint64_t lowered = range.min
        + (range.max - range.min) * (target - usedAtMin).count() / (atMax.used - usedAtMin).count();
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

    // Step 2: an unset context, lowered towards --fit-ctx.
    if (!options.contextSet && fit.trainedContext > options.minContext) {
        const auto devices = static_cast<std::uint64_t>(std::max(1, s.gpus));
        const auto times = [devices](Bytes perGpu) {
            return perGpu.count() > Bytes::max().count() / devices ? Bytes::max() : Bytes::fromCount(perGpu.count() * devices);
        };
        const LlamaFitSums sums{times(fit.perGpu), times(gpu.capacity()), times(options.margin)};
        const Bytes usedAtMin = times(totalOf(withContext(s, options.minContext)));
        const Bytes modelPerLayer
            = Bytes::fromCount(times(atMax.term(TermId::Weights)).count() / std::max<std::uint64_t>(1, m.layers));
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

    // Step 3, a dense model on several devices: layers placed from the
    // last device back. Every layer placed with a lowered context keeps
    // that outcome.
    if (s.gpus > 1 && !m.moe.isMoe()) {
        fit.gpuLayersPerDevice = fillBackToFront(s, fit.target);
        fit.gpuLayers = 0;
        for (std::uint64_t n : fit.gpuLayersPerDevice)
            fit.gpuLayers += n;
        fit.perGpu = largest(deviceTotals(s, fit.gpuLayersPerDevice));
        if (fit.gpuLayers == 0)
            fit.outcome = LlamaServerFit::Outcome::NothingFits;
        else if (fit.gpuLayers < m.layers + 1 || fit.outcome != LlamaServerFit::Outcome::ContextReduced)
            fit.outcome = LlamaServerFit::Outcome::LayersMoved;
        return fit;
    }

    // Step 3: weights to the host, an MoE model's routed experts first.
    if (m.moe.isMoe()) {
        MonotoneProbe byKeptExperts([&s](std::uint64_t keptPlusOne) {
            Scenario t = s;
            t.cpuMoeLayers = t.model.layers - (keptPlusOne - 1);
            return totalOf(t);
        });
        // Layers whose experts stay on the GPUs. fit.cpp never moves them
        // all: its "dense-only" layout gives the last device n_layer - 1
        // partial layers, meant to spare the output layer, but the
        // overrides cover the device's last n_part layer indices, the
        // output's among them, so its first layer keeps its experts
        // (set_ngl_tensor_split_tbo). The planner keeps one layer's, the
        // same bytes.
        const std::uint64_t keptPlusOne = byKeptExperts.largestFitting(fit.target, m.layers + 1);
        if (keptPlusOne >= 2) {
            fit.cpuMoeLayers = m.layers - (keptPlusOne - 1);
            fit.outcome = LlamaServerFit::Outcome::ExpertsMoved;
            fit.perGpu = byKeptExperts.at(keptPlusOne);
            return fit;
        }
        s.cpuMoeLayers = m.layers - 1;
        fit.cpuMoeLayers = s.cpuMoeLayers;
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
    // -ngl N: the output layer and the last N - 1 layers.
    const std::string layers = std::to_string(fit.gpuLayers > 0 ? std::min(fit.gpuLayers - 1, model.layers) : 0);
    const std::string of = std::to_string(model.layers);
    const std::string ngl = std::to_string(fit.gpuLayers);
    if (!fit.gpuLayersPerDevice.empty() && fit.outcome != LlamaServerFit::Outcome::NothingFits) {
        std::string split;
        for (std::uint64_t n : fit.gpuLayersPerDevice)
            split += (split.empty() ? "" : ",") + std::to_string(n);
        if (fit.outcome == LlamaServerFit::Outcome::ContextReduced)
            return {"LlamaFit",
                    QT_TRANSLATE_NOOP("LlamaFit", "context lowered from %1 to %2 tokens, every layer on the GPUs (-ts %3)"),
                    {groupDigits(fit.trainedContext), context, split}};
        return {"LlamaFit",
                QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the output layer and %2 of %3 layers on the GPUs (-ngl %4 -ts %5)"),
                {context, layers, of, ngl, split}};
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
                QT_TRANSLATE_NOOP("LlamaFit",
                                  "%1 tokens, experts of the first %2 layers in host memory (--n-cpu-moe %2)"),
                {context, std::to_string(fit.cpuMoeLayers)}};
    case LlamaServerFit::Outcome::LayersMoved:
        if (fit.cpuMoeLayers > 0)
            return {"LlamaFit",
                    QT_TRANSLATE_NOOP("LlamaFit", "%1 tokens, the output layer and %2 of %3 layers on the GPU (-ngl %4), "
                                                  "the experts of all but one in host memory"),
                    {context, layers, of, ngl}};
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
