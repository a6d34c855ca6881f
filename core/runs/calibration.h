#pragma once

#include "core/engine/estimate.h"

#include <optional>
#include <string>

namespace core {

/// What a user measured for a scenario on their GPU; any subset.
struct Measurement
{
    std::optional<Bytes> allocated; ///< torch.cuda.max_memory_allocated()
    std::optional<Bytes> reserved;  ///< torch.cuda.max_memory_reserved()
    std::optional<Bytes> nvidiaSmi; ///< nvidia-smi "used" for the process
};

/// The overhead terms fitted to a measurement, shareable as a profile.
struct CalibrationProfile
{
    std::string name;
    std::string gpuId;
    double cudaOverheadMib = 0;
    double reservePercent = 0;
    std::string scenarioSummary; ///< what it was fitted on
    Measurement measurement;
};

struct CalibrationResult
{
    CalibrationProfile profile;
    Bytes predictedTensors;  ///< the estimate's tensor terms (what `allocated` sees)
    Bytes predictedTotal;    ///< before calibration
    Bytes calibratedTotal;   ///< with the fitted terms
    /// The tensor model's error against a measured `allocated`, in percent
    /// (calibration cannot fix this part; it shows how far the model is off).
    std::optional<double> tensorErrorPercent;
    std::vector<std::string> notes;
};

/// What torch's allocator hands out (torch.cuda.max_memory_allocated):
/// every term except the CUDA context, the allocator's own reserve and
/// NCCL's buffers (outside the allocator, PyTorch CUDA memory docs).
Bytes tensorTerms(const Estimate &estimate);

/// Fits cuda_overhead and allocator_reserve so the estimate reproduces the
/// measurement. The reserve comes from reserved / allocated (measured
/// allocated where given, else the predicted tensors); the CUDA context
/// from nvidia-smi minus reserved. Terms a measurement cannot pin keep the
/// scenario's values. Errors (empty measurement, absurd values) are notes
/// and an unchanged profile.
CalibrationResult calibrate(const Scenario &scenario, const Measurement &measurement, const std::string &name);

/// The scenario with a profile's terms applied.
Scenario withCalibration(Scenario scenario, const CalibrationProfile &profile);

} // namespace core
