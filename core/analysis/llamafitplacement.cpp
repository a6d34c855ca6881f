#include "core/analysis/llamafitplacement.h"

#include "core/analysis/monotoneprobe.h"

#include <algorithm>
#include <tuple>

namespace core {

namespace {

std::uint64_t unitsOf(const FitLayout &layout)
{
    std::uint64_t units = 0;
    for (const FitUnits &d : layout)
        units += d.layers;
    return units;
}

/// Device `id`'s units [first, end) in llama.cpp's layer indices: the
/// units end at the output layer, index n_layer.
std::pair<std::uint64_t, std::uint64_t> unitRange(const Scenario &s, const FitLayout &layout, std::size_t id)
{
    const std::uint64_t slots = s.model.layers + 1;
    std::uint64_t first = slots - std::min(unitsOf(layout), slots);
    for (std::size_t j = 0; j < id; ++j)
        first += layout[j].layers;
    return {first, first + layout[id].layers};
}

/// Device `id`'s partial units that are layers (the output layer has no
/// experts).
std::uint64_t partialLayers(const Scenario &s, const FitLayout &layout, std::size_t id)
{
    const auto [first, end] = unitRange(s, layout, id);
    const std::uint64_t partialFrom = end - std::min(layout[id].partial, end - first);
    const std::uint64_t L = s.model.layers;
    return std::min(end, L) - std::min(partialFrom, L);
}

/// Step 3's units for device `id` holding `units`: an MoE model's all
/// partial, but for the last device's first.
FitLayout withUnits(FitLayout layout, std::size_t id, std::uint64_t units, bool moe)
{
    const bool last = id + 1 == layout.size();
    layout[id].layers = units;
    layout[id].partial = !moe ? 0 : last ? (units > 0 ? units - 1 : 0) : units;
    return layout;
}

/// Step 4's conversion of `count` dense-only layers into full ones on
/// device `id`, taken in order from device `from` on; the layout and the
/// first device still holding partial units.
std::pair<FitLayout, std::size_t> convert(FitLayout layout, std::size_t id, std::size_t from, std::uint64_t count)
{
    std::uint64_t done = 0;
    for (; from < layout.size(); ++from) {
        const std::uint64_t take = std::min(count - done, layout[from].partial);
        layout[from].layers -= take;
        layout[from].partial -= take;
        layout[id].layers += take;
        done += take;
        if (layout[from].partial > 0)
            break;
    }
    return {layout, from};
}

std::uint64_t partialFrom(const FitLayout &layout, std::size_t from)
{
    std::uint64_t partial = 0;
    for (std::size_t j = from; j < layout.size(); ++j)
        partial += layout[j].partial;
    return partial;
}

/// What every device keeps beyond its target with all layers on the GPUs
/// (the default equal split) and every routed expert in host memory: step
/// 4 runs only when the sum is above zero.
bool surplusWithExpertsOnHost(const Scenario &s, Bytes target)
{
    Scenario t = s;
    t.gpuLayers.reset();
    t.tensorSplit.clear();
    t.cpuMoeLayers = t.model.layers;
    double surplus = 0;
    const std::vector<Estimate> stages = estimateStages(t);
    for (int id = 0; id < std::max(1, s.gpus); ++id) {
        // An equal split plans the first and the last GPU; those between are as the first.
        const Estimate &e = id + 1 == s.gpus && stages.size() > 1 ? stages.back() : stages.front();
        if (!e.isValid())
            return false;
        surplus += static_cast<double>(target.count()) - static_cast<double>(e.total.count());
    }
    return surplus > 0;
}

} // namespace

Bytes fitDeviceTotal(const Scenario &s, const FitLayout &layout, std::size_t id)
{
    Scenario t = s;
    const std::uint64_t units = unitsOf(layout);
    t.gpuLayers = units;
    t.tensorSplit.clear();
    if (units > 0 && layout.size() > 1)
        for (const FitUnits &d : layout)
            t.tensorSplit.push_back(static_cast<double>(d.layers));
    t.cpuMoeLayers = 0;
    if (s.model.moe.isMoe() && id < layout.size())
        t.cpuMoeLayers = std::min(unitRange(s, layout, id).first, s.model.layers) + partialLayers(s, layout, id);
    const Estimate e = estimateLlamaCppDevice(t, static_cast<int>(id));
    return e.isValid() ? e.total : Bytes::max();
}

FitLayout placeLayersForFit(const Scenario &s, Bytes target)
{
    const bool moe = s.model.moe.isMoe();
    FitLayout layout(static_cast<std::size_t>(std::max(1, s.gpus)));
    // Step 3: back to front.
    std::uint64_t unassigned = s.model.layers + 1;
    for (std::size_t id = layout.size(); id-- > 0;) {
        MonotoneProbe byUnits([&s, &layout, id, moe](std::uint64_t unitsPlusOne) {
            return fitDeviceTotal(s, withUnits(layout, id, unitsPlusOne - 1, moe), id);
        });
        const std::uint64_t plusOne = byUnits.largestFitting(target, unassigned + 1);
        layout = withUnits(layout, id, plusOne == 0 ? 0 : plusOne - 1, moe);
        unassigned -= layout[id].layers;
    }
    if (!moe || !surplusWithExpertsOnHost(s, target))
        return layout;

    // Step 4: front to back, dense-only layers made full.
    std::size_t denseStart = layout.size();
    for (std::size_t id = layout.size(); id-- > 0 && layout[id].layers > 0;)
        denseStart = id;
    for (std::size_t id = 0; id <= denseStart && denseStart < layout.size(); ++id) {
        const FitLayout current = layout;
        const std::size_t from = denseStart;
        MonotoneProbe byConverted([&s, &current, id, from](std::uint64_t countPlusOne) {
            return fitDeviceTotal(s, convert(current, id, from, countPlusOne - 1).first, id);
        });
        const std::uint64_t plusOne = byConverted.largestFitting(target, partialFrom(current, from) + 1);
        std::tie(layout, denseStart) = convert(current, id, from, plusOne == 0 ? 0 : plusOne - 1);
    }
    return layout;
}

std::uint64_t hostExpertLayers(const Scenario &s, const FitLayout &layout)
{
    if (!s.model.moe.isMoe())
        return 0;
    std::uint64_t layers = 0;
    for (std::size_t id = 0; id < layout.size(); ++id)
        layers += partialLayers(s, layout, id);
    return layers;
}

} // namespace core
