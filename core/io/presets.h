#pragma once

#include "core/io/loadresult.h"
#include "core/modelspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core::io {

/// A model preset: a published config.json with a name and its source.
struct ModelPreset
{
    std::string id;
    std::string name;
    std::string hfRepo;
    std::string source;
    std::optional<std::uint64_t> paramsPublished;
    ModelSpec model;
};

/// Reads `resources/models.json` (schema_version 1): each entry's `config`
/// goes through the same config.json reader as a user's file.
LoadResult<std::vector<ModelPreset>> loadPresets(const std::string &text);

} // namespace core::io
