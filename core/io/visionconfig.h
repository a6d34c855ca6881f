#pragma once

// The image encoder of a multimodal config.json: parameter count (tower and
// projector) and the context an image takes, per family.

#include "core/io/jsonreader.h"
#include "core/model/visiontower.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core::io {

/// Reads `vision_config` (and the projector keys beside it) of a multimodal
/// config.json of family `modelType` ("gemma3", "llama4", "qwen2_5_vl",
/// "mistral3"); `textHidden` is the language model's width, which the
/// projector maps to. Keys the config omits take the transformers class
/// defaults. Returns nullopt when the config has no vision part, or (with a
/// warning naming the keys it ignored) when the family is unknown here.
/// Bad values are reported in `config`'s errors with their JSON pointer.
std::optional<VisionTower> readVisionTower(JsonReader &config, const std::string &modelType, std::uint64_t textHidden,
                                           std::vector<std::string> &warnings);

} // namespace core::io
