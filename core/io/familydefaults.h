#pragma once

// The transformers class defaults a family's published config.json leaves
// out (Gemma 3's text_config names only a few keys), so that a sparse config
// reads as transformers reads it.

#include "core/io/jsonreader.h"

#include <string>
#include <vector>

namespace core::io {

/// `textConfig` with the class defaults of `modelType` filled in for every
/// key of the table it omits (an explicit null is kept). Accepts the text model's own
/// type ("gemma3_text", "llama4_text", "mistral", "qwen2_5_vl_text") or the
/// multimodal parent's ("gemma3", "llama4", "mistral3", "qwen2_5_vl").
/// Each filled key is appended to `assumed` as it should be shown:
/// "head_dim = 256 (Gemma3TextConfig default)". Gemma 3 also gets
/// `layer_types`, derived as its config class derives it. Other families
/// come back unchanged.
Json withFamilyDefaults(const Json &textConfig, const std::string &modelType, std::vector<std::string> &assumed);

} // namespace core::io
