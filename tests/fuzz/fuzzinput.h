#pragma once

// Shared by the libFuzzer harnesses: the raw bytes as the text a loader
// would read from a file.

#include "core/engine/estimate.h"

#include <cstddef>
#include <cstdint>
#include <string>

inline std::string fuzzText(const std::uint8_t *data, std::size_t size)
{
    return std::string(reinterpret_cast<const char *>(data), size);
}

/// Estimates inference and full training of a model a loader accepted
/// (huge or odd dimensions must saturate, not wrap).
inline void estimateModel(const core::ModelSpec &model)
{
    core::Scenario scenario;
    scenario.model = model;
    scenario.source.kind = core::ModelSource::Kind::ConfigFile;
    core::estimate(scenario);
    scenario.mode = core::Mode::Train;
    core::estimate(scenario);
}
