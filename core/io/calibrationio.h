#pragma once

#include "core/base/loadresult.h"
#include "core/runs/calibration.h"

#include <string>

namespace core::io {

/// Calibration profiles are plain JSON (schema_version 1,
/// kind "vramplanner-calibration") that users can share.
std::string saveCalibration(const CalibrationProfile &profile, const std::string &created);
LoadResult<CalibrationProfile> loadCalibration(const std::string &text);

} // namespace core::io
