#pragma once

// The two JSON documents of a safetensors checkpoint: each file's header
// and the folder's model.safetensors.index.json. Each is checked in one
// pass without building a document: a 1 TB checkpoint's headers and index
// hold some 90,000 tensors each, and a document of them costs several times
// the parse. Errors carry the JSON pointer of each problem. Internal to
// core/io (safetensors.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace core::io {

/// One tensor of a header as written (huggingface/safetensors README,
/// "Format"): {"dtype": "BF16", "shape": [..], "data_offsets": [begin, end]}.
struct HeaderEntry
{
    std::string name;
    std::string dtype;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint64_t> offsets;
};

/// A header's tensors, in the order written. `__metadata__` may map
/// strings to strings only; an entry's other keys are ignored. A tensor
/// named twice is an error.
std::vector<HeaderEntry> parseHeader(const std::string &text, std::vector<std::string> &errors);

/// What an index says: the total it declares and the file of each tensor.
struct IndexContents
{
    std::optional<std::uint64_t> totalSize;               ///< metadata.total_size
    std::vector<std::pair<std::string, std::string>> fileOf; ///< weight_map, in the order written
};

/// An index; each file it names must be a plain name (the index may not
/// point outside its folder).
IndexContents parseIndex(const std::string &text, std::vector<std::string> &errors);

} // namespace core::io
