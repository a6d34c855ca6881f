#pragma once

#include <optional>
#include <string>
#include <vector>

namespace core::io {

/// What a loader returns: a value, or errors naming the JSON pointer of each
/// problem ("/gpus/3/memory_bytes: expected an integer >= 1"). Warnings can
/// accompany a value (an unknown model_type read with the standard keys).
template <typename T>
struct LoadResult
{
    std::optional<T> value;
    std::vector<std::string> errors;
    std::vector<std::string> warnings;

    bool ok() const { return value.has_value() && errors.empty(); }
};

/// "plan.json at /batch: must be ..." for a diagnostic at a JSON pointer,
/// "plan.json: malformed JSON ..." for one about the whole file.
inline std::string inFile(const std::string &file, const std::string &diagnostic)
{
    return file + (diagnostic.rfind('/', 0) == 0 ? " at " : ": ") + diagnostic;
}

/// Largest input any loader accepts; anything bigger is refused before
/// parsing so a hostile file cannot allocate without bound.
constexpr std::size_t kMaxInputBytes = 16u * 1024u * 1024u;

} // namespace core::io
