#include "core/analysis/deviceset.h"

#include "core/base/translatable.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <limits>

namespace core {

namespace {

/// Catalog entries of the set in split order; null for an unknown id.
std::vector<const GpuSpec *> devicesOf(const Scenario &s, const Catalog &catalog)
{
    std::vector<const GpuSpec *> gpus;
    for (const std::string &id : s.devices)
        gpus.push_back(catalog.find(id));
    return gpus;
}

/// The estimate describing device `index`: its own layers under llama.cpp;
/// else its pipeline stage's (Megatron-LM orders ranks tp, then dp, then
/// pp, so a stage is a run of gpus / pp devices; a middle stage is bounded
/// by the first, which also holds the embedding and the most micro-batches).
const Estimate &estimateOfDevice(const Scenario &s, const std::vector<Estimate> &stages, std::size_t index)
{
    if (stages.size() == s.devices.size())
        return stages[index];
    const std::size_t perStage = std::max<std::size_t>(1, s.devices.size() / static_cast<std::size_t>(std::max(1, s.parallel.pp)));
    const bool lastStage = index / perStage + 1 == static_cast<std::size_t>(s.parallel.pp);
    return lastStage ? stages.back() : stages.front();
}

} // namespace

Scenario withDeviceSplit(const Scenario &scenario, const Catalog &catalog)
{
    if (scenario.devices.empty() || !scenario.tensorSplit.empty() || !splitsLayersByMemory(scenario))
        return scenario;
    Scenario s = scenario;
    const double context = s.effectiveCudaOverheadMib() * 1024.0 * 1024.0;
    for (const GpuSpec *gpu : devicesOf(scenario, catalog)) {
        if (!gpu)
            return scenario; // fitDeviceSet names it
        s.tensorSplit.push_back(std::max(1.0, static_cast<double>(gpu->capacity().count()) - context));
    }
    return s;
}

DeviceSetFit fitDeviceSet(const Scenario &scenario, const Catalog &catalog)
{
    DeviceSetFit set;
    if (scenario.devices.empty())
        return set;
    const std::vector<const GpuSpec *> gpus = devicesOf(scenario, catalog);
    if (std::find(gpus.begin(), gpus.end(), nullptr) != gpus.end())
        return set;
    const Scenario s = withDeviceSplit(scenario, catalog);
    const std::vector<Estimate> stages = estimateStages(s);
    if (stages.empty() || !stages.front().isValid())
        return set;

    set.fits = true;
    set.hasKvTokens = !s.isTraining() && !s.model.encoderOnly;
    set.kvTokens = std::numeric_limits<std::uint64_t>::max();
    Bytes smallest = Bytes::max();
    Bytes largest;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const Estimate &e = estimateOfDevice(s, stages, i);
        DeviceFit device;
        device.gpuId = gpus[i]->id;
        device.capacity = gpus[i]->capacity();
        device.terms = e.terms;
        device.total = e.total;
        device.fits = e.total <= device.capacity;
        device.headroom = device.capacity - e.total;
        device.shortfall = device.fits ? Bytes() : e.total.isSaturated() ? e.total : e.total - device.capacity;
        device.layers = e.details.layersOnGpu;
        if (set.hasKvTokens) {
            device.kvTokens = kvTokenBudget(s, e, *gpus[i]);
            set.kvTokens = std::min(set.kvTokens, device.kvTokens);
        }
        set.fits = set.fits && device.fits;
        smallest = std::min(smallest, device.capacity);
        largest = std::max(largest, device.capacity);
        set.devices.push_back(std::move(device));
    }
    if (!set.hasKvTokens)
        set.kvTokens = 0;
    if (smallest < largest && !splitsLayersByMemory(s))
        set.notes.push_back({"Message",
                             QT_TRANSLATE_NOOP("Message", "devices: every rank holds the same share whatever its memory, so "
                                                          "the smallest GPU (%1) bounds the set and the larger ones leave "
                                                          "memory unused; llama.cpp splits layers by memory instead"),
                             {formatBytes(smallest, ByteUnit::GiB, 1)}});
    if (const RuntimeBehaviour *runtime = servingBehaviour(s); smallest < largest && runtime && runtime->continuousBatching)
        set.notes.push_back({"Message",
                             QT_TRANSLATE_NOOP("Message", "devices: vLLM and SGLang give every worker the smallest "
                                                          "worker's KV cache (%1 tokens)"),
                             {groupDigits(set.kvTokens)}});
    return set;
}

} // namespace core
