#include "core/memory/training.h"

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

} // namespace core
