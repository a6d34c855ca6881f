#include "core/runs/calibration.h"

#include "core/explain/report.h"

#include <algorithm>

namespace core {

Bytes tensorTerms(const Estimate &e)
{
    return e.total - e.term(TermId::CudaOverhead) - e.term(TermId::AllocatorReserve) - e.term(TermId::CommBuffers);
}

CalibrationResult calibrate(const Scenario &scenario, const Measurement &m, const std::string &name)
{
    CalibrationResult result;
    const Estimate before = estimate(scenario);
    result.predictedTotal = before.total;
    result.predictedTensors = tensorTerms(before);
    CalibrationProfile &p = result.profile;
    p.name = name;
    p.gpuId = scenario.gpuId;
    p.scenarioSummary = summarize(scenario);
    p.measurement = m;
    p.cudaOverheadMib = before.details.cudaOverheadMib;
    p.reservePercent = scenario.reservePercent;
    if (!before.isValid() || result.predictedTensors.count() == 0) {
        result.notes.push_back("the scenario is not valid; nothing to calibrate");
        return result;
    }
    if (!m.allocated && !m.reserved && !m.nvidiaSmi) {
        result.notes.push_back("enter at least one measured figure");
        return result;
    }

    const Bytes tensors = m.allocated ? *m.allocated : result.predictedTensors;
    if (m.allocated)
        result.tensorErrorPercent = 100.0 * (static_cast<double>(result.predictedTensors.count())
                                             - static_cast<double>(m.allocated->count()))
            / static_cast<double>(m.allocated->count());
    if (m.reserved) {
        if (*m.reserved < tensors)
            result.notes.push_back("reserved is below allocated; the reserve stays as it was");
        else
            p.reservePercent = std::min(99.0, 100.0 * static_cast<double>((*m.reserved - tensors).count())
                                                  / static_cast<double>(tensors.count()));
    }
    if (m.nvidiaSmi) {
        // nvidia-smi also counts the context and NCCL: what torch reserved
        // is known (measured) or reconstructed with the reserve.
        const Bytes held = m.reserved ? *m.reserved : tensors.scaled(1.0 + p.reservePercent / 100.0);
        const Bytes outside = before.term(TermId::CommBuffers);
        if (*m.nvidiaSmi < held + outside)
            result.notes.push_back("nvidia-smi is below what torch holds; the CUDA context stays as it was");
        else
            p.cudaOverheadMib = (*m.nvidiaSmi - held - outside).inMiB();
    }
    result.calibratedTotal = estimate(withCalibration(scenario, p)).total;
    return result;
}

Scenario withCalibration(Scenario scenario, const CalibrationProfile &profile)
{
    scenario.cudaOverheadMib = profile.cudaOverheadMib;
    scenario.reservePercent = profile.reservePercent;
    return scenario;
}

} // namespace core
