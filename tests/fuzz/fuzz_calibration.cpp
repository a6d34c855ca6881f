// Calibration profiles: load, apply to a scenario, and save again.

#include "fuzzinput.h"

#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/calibrationio.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto loaded = core::io::loadCalibration(fuzzText(data, size));
    if (!loaded.ok())
        return 0;
    core::Scenario scenario;
    scenario.model = core::io::builtinPresets().front().model;
    core::estimate(core::withCalibration(scenario, *loaded.value));
    core::io::loadCalibration(core::io::saveCalibration(*loaded.value, "2026-01-01"));
    return 0;
}
