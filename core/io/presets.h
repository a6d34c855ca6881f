#pragma once

#include "core/base/loadresult.h"
#include "core/model/modelspec.h"

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
    /// Parameters active per token as the publisher states them (MoE models),
    /// rounded as published ("36.6B" is 36,600,000,000), unlike the exact
    /// `paramsPublished`; the publisher's convention (input embedding in or
    /// out) is in the entry's `params_convention` and in tst_families.
    std::optional<std::uint64_t> paramsActivePublished;
    ModelSpec model;
};

/// Reads `resources/models.json` (schema_version 1): each entry's `config`
/// goes through the same config.json reader as a user's file.
LoadResult<std::vector<ModelPreset>> loadPresets(const std::string &text);

/// The preset of `presets` with this id; null when none has it.
const ModelPreset *findPresetIn(const std::vector<ModelPreset> &presets, const std::string &id);

} // namespace core::io
