#pragma once

// Internal to core/io: the weight format a checkpoint's quantization_config
// describes, so a quantised model loads as what it is.

#include "core/io/jsonreader.h"

#include <string>
#include <vector>

namespace core::io {

/// The WeightFormat id ("nf4-dq", "gptq-4bit", "fp8", ...) that the
/// `quantization_config` object read by `quant` describes; empty, with a
/// warning naming the method and its keys, when it is none this planner
/// models.
std::string checkpointFormatId(JsonReader &quant, std::vector<std::string> &warnings);

} // namespace core::io
