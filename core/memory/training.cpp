#include "core/memory/training.h"

#include <algorithm>

#include "core/memory/formulatext.h"

namespace core {

Derived optimizerStateBytes(Optimizer optimizer, const RegimeBytes &regime, const std::vector<TensorGroup> &trainable,
                            FormulaStore *store)
{
    namespace t = text::optimizer;
    const OptimizerInfo &info = optimizerInfo(optimizer);
    Formula bytes(store);
    if (optimizer == Optimizer::Adafactor) {
        // HF Adafactor (beta1=None): matrices keep row and column
        // accumulators, vectors keep a full second moment, in fp32.
        double factored = 0;
        double vectors = 0;
        for (const TensorGroup &g : trainable) {
            if (g.cols > 1)
                factored += static_cast<double>(g.rows + g.cols) * static_cast<double>(g.count);
            else
                vectors += static_cast<double>(g.rows) * static_cast<double>(g.count);
        }
        bytes.product(t::kPartFactoredMoments).times(t::kRowsPlusCols, factored).times(t::kStateBytes, 4.0);
        if (vectors > 0)
            bytes.product(t::kPartVectorMoments).times(t::kVectorElements, vectors).times(t::kStateBytes, 4.0);
        return bytes.cite(info.source).derived();
    }
    double elements = 0;
    for (const TensorGroup &g : trainable)
        elements += static_cast<double>(g.elements());
    if (info.fixedBytesPerParam >= 0) {
        bytes.product()
            .times(text::shared::kTrainableParams, elements)
            .times(t::kFixedStateBytes, info.fixedBytesPerParam);
    } else {
        bytes.product()
            .times(text::shared::kTrainableParams, elements)
            .times(t::kStates, info.statesPerParam)
            .times(t::kStateBytes, regime.optimizerStateBytes);
    }
    return bytes.cite(info.source).derived();
}

double optimizerStepTemporaryBytesPerParam(Optimizer optimizer, OptimizerImpl impl, double stateBytes)
{
    const bool adam = optimizer == Optimizer::AdamW || optimizer == Optimizer::Adam || optimizer == Optimizer::AdamAmsgrad;
    return adam && impl == OptimizerImpl::Foreach ? stateBytes : 0.0;
}

Derived quantisedLoadTransient(const ModelSpec &m, bool lmHeadQuantized, FormulaStore *store)
{
    namespace ws = text::workspace;
    const double h = static_cast<double>(m.hidden);
    const double mlp = static_cast<double>(std::max(m.intermediate, m.moe.isMoe() ? m.moe.expertIntermediate : 0));
    double largest = std::max({h * mlp, h * static_cast<double>(m.qWidth()), h * static_cast<double>(m.kvWidth())});
    if (lmHeadQuantized)
        largest = std::max(largest, h * static_cast<double>(m.vocab));
    Formula bytes(store);
    bytes.product(ws::kPartLoadTransient)
        .times(ws::kLargestQuantisedWeight, largest)
        .times(ws::kCastBytes, 2.0);
    return bytes.cite(ws::kFromQuantisedLoad).derived();
}

} // namespace core
