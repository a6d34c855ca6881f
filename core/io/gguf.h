#pragma once

#include "core/base/loadresult.h"
#include "core/model/weightinventory.h"

#include <string>

namespace core::io {

/// The tensors and metadata of a GGUF file (ggml docs/gguf.md, versions 2
/// and 3), from its header only. A part of a split set
/// (NAME-00001-of-00003.gguf, llama.cpp's gguf-split) reads every part,
/// and a missing part is an error naming it; the metadata is the first
/// part's. Every length and count the file states is checked against the
/// bytes left before anything is allocated for it. Errors name the file
/// and the byte offset.
LoadResult<WeightInventory> readGguf(const std::string &path);

/// One GGUF file in memory (tests, fuzzers), read alone: a part of a split
/// set is read as itself, with a warning. `name` is the file named in
/// messages.
LoadResult<WeightInventory> readGgufBytes(const std::string &bytes, const std::string &name);

} // namespace core::io
