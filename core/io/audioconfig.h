#pragma once

// The audio encoder of a multimodal config.json: its parameters and those of
// the projector into the language model, per family.

#include "core/io/jsonreader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core::io {

/// Reads `audio_config` of a config.json of family `modelType` ("gemma4",
/// "gemma4_unified"); `textHidden` is the language model's width, which the
/// projector maps to. Returns nullopt when the config has no audio part or
/// the family has no audio rules here (then `warnings` says what was left
/// uncounted). Bad values are reported in `config`'s errors with their JSON
/// pointer.
std::optional<std::uint64_t> readAudioEncoder(JsonReader &config, const std::string &modelType,
                                              std::uint64_t textHidden, std::vector<std::string> &warnings);

} // namespace core::io
