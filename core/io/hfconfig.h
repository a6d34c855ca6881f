#pragma once

#include "core/base/loadresult.h"
#include "core/model/modelspec.h"

#include <string>
#include <vector>

namespace core::io {

/// Reads a Hugging Face `config.json` (JSON as Python writes it: Infinity
/// and NaN load). Families with their own rules are listed in hfconfig.cpp
/// (kFamilies); any other model_type is read with the standard keys and a
/// warning; a missing required key is an error naming it.
LoadResult<ModelSpec> parseHfConfig(const std::string &text, const std::string &name);

/// Applies ModelOpt's hf_quant_config.json (`text`) to a model whose
/// config.json states no quantization_config: the format of its quantised
/// modules and which modules those are. Problems go to `errors` and
/// `warnings`, each with its JSON pointer.
void applyModelOptQuantConfig(const std::string &text, ModelSpec &model, std::vector<std::string> &errors,
                              std::vector<std::string> &warnings);

} // namespace core::io
