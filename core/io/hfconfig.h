#pragma once

#include "core/io/loadresult.h"
#include "core/modelspec.h"

#include <string>
#include <vector>

namespace core::io {

/// Reads a Hugging Face `config.json`. Families with their own rules:
/// llama, mistral, mixtral, qwen2, qwen3, gemma, gemma2, phi, phi3, gpt2,
/// gpt_neox, falcon (and RefinedWeb*), bert, baichuan, gpt_bigcode, gpt_oss,
/// deepseek. Any other model_type is read with the standard keys and a
/// warning; a missing required key is an error naming it.
LoadResult<ModelSpec> parseHfConfig(const std::string &text, const std::string &name);

/// The model_type values with family rules.
const std::vector<std::string> &knownModelTypes();

} // namespace core::io
