#pragma once

#include "core/base/loadresult.h"
#include "core/model/weightinventory.h"

#include <string>

namespace core::io {

/// The tensors of a Hugging Face checkpoint, from its safetensors headers
/// only (huggingface/safetensors README, "Format"). `path` is a folder,
/// read through its model.safetensors.index.json when it has one (every
/// shard the weight_map names, each tensor in the shard it names) and
/// otherwise as every *.safetensors file in it by name, or one
/// .safetensors file. Errors name the file and the JSON pointer or byte
/// offset; an index whose metadata.total_size disagrees with the tensors
/// is a warning naming both numbers.
LoadResult<WeightInventory> readSafetensors(const std::string &path);

/// One .safetensors file already in memory (tests, fuzzers), read as the
/// whole checkpoint; `name` is the file named in messages.
LoadResult<WeightInventory> readSafetensorsBytes(const std::string &bytes, const std::string &name);

} // namespace core::io
