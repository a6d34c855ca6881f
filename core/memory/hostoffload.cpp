#include "core/memory/hostoffload.h"

#include "core/memory/formulatext.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>

namespace core {

std::uint64_t deviceMapGpuLayers(const Scenario &s)
{
    return offloadsLayersToHost(s) ? *s.gpuLayers : s.model.layers;
}

double averageLayerParams(const ModelSpec &m, const ParameterCounts &pc)
{
    return static_cast<double>(pc.total - std::min(pc.total, pc.embedding + pc.lmHead))
        / static_cast<double>(std::max<std::uint64_t>(1, m.layers));
}

double deviceMapHostBytes(const Scenario &s, const ParameterCounts &pc, const WeightWidths &widths)
{
    if (!offloadsLayersToHost(s))
        return 0;
    const double hostLayers = static_cast<double>(s.model.layers - deviceMapGpuLayers(s));
    return averageLayerParams(s.model, pc) * hostLayers * widths.layer + static_cast<double>(pc.lmHead) * widths.lmHead;
}

Derived vllmOffloadedBytes(const Scenario &s, double layerBytesHere, FormulaStore *store)
{
    namespace o = text::offload;
    Formula bytes(store);
    const double budget = s.cpuOffloadGib * 1024.0 * 1024.0 * 1024.0;
    if (budget >= layerBytesHere)
        bytes.product().times(o::kLayerBytesHere, layerBytesHere).note(o::kWhyBudgetCapped);
    else
        bytes.product().times(o::kOffloadBudget, budget).note(o::kWhyPerParameter);
    return bytes.cite(o::kFromVllm).derived();
}

} // namespace core
