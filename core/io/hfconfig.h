#pragma once

#include "core/base/loadresult.h"
#include "core/model/modelspec.h"

#include <string>
#include <vector>

namespace core::io {

struct CheckpointQuantization; // core/io/quantconfig.h

/// Reads a Hugging Face `config.json` (JSON as Python writes it: Infinity
/// and NaN load). Families with their own rules are listed in hfconfig.cpp
/// (kFamilies); any other model_type is read with the standard keys and a
/// warning; a missing required key is an error naming it. Where the file
/// states no quantization_config, `besideConfig` (ModelOpt's
/// hf_quant_config.json, read by readModelOptQuantFile) gives the format.
LoadResult<ModelSpec> parseHfConfig(const std::string &text, const std::string &name,
                                    const CheckpointQuantization *besideConfig = nullptr);

/// Reads ModelOpt's hf_quant_config.json: the format of the quantised
/// modules and which modules are left out. Problems name their JSON pointer.
LoadResult<CheckpointQuantization> readModelOptQuantFile(const std::string &text);

} // namespace core::io
