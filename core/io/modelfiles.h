#pragma once

#include "core/base/loadresult.h"
#include "core/model/checkpoint.h"
#include "core/model/modelspec.h"

#include <optional>
#include <string>

namespace core::io {

/// A model read from what a user has on disk.
struct ModelFiles
{
    ModelSpec model;
    /// The checkpoint's tensor tables, when the path holds weights.
    std::optional<CheckpointWeights> checkpoint;
};

/// Reads `path`, whichever of these it is: a Hugging Face model folder
/// (config.json, and the *.safetensors headers when the weights are there),
/// a config.json, a .safetensors file beside its config.json, or a .gguf
/// file (the first part of a split set). Only headers are read, never
/// tensor data. Errors name the file and where in it; warnings say what was
/// assumed (and where the files disagree with the config).
LoadResult<ModelFiles> loadModelFiles(const std::string &path);

} // namespace core::io
