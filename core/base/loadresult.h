#pragma once

#include <optional>
#include <string>
#include <vector>

namespace core {

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
/// "model.gguf at byte 24: ..." for one at a byte offset of a binary file,
/// "plan.json: malformed JSON ..." for one about the whole file.
inline std::string inFile(const std::string &file, const std::string &diagnostic)
{
    const bool located = diagnostic.rfind('/', 0) == 0 || diagnostic.rfind("byte ", 0) == 0;
    return file + (located ? " at " : ": ") + diagnostic;
}

/// Records diagnostics about one file of a load that reads several (the
/// shards of a safetensors checkpoint, the parts of a GGUF split set),
/// each named with inFile.
struct FileProblems
{
    std::string file;
    std::vector<std::string> &errors;
    std::vector<std::string> &warnings;

    void error(const std::string &diagnostic) const { errors.push_back(inFile(file, diagnostic)); }
    void warning(const std::string &diagnostic) const { warnings.push_back(inFile(file, diagnostic)); }
};

/// Largest input any loader accepts; anything bigger is refused before
/// parsing so a hostile file cannot allocate without bound.
constexpr std::size_t kMaxInputBytes = 16u * 1024u * 1024u;

} // namespace core
