#pragma once

// Internal to core/io: the only place (with its .cpp files) that includes
// nlohmann/json. Reads typed values with range checks before any get<>(),
// and records errors with the JSON pointer of the offending value.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace core::io {

using Json = nlohmann::json;

/// Parses `text` (size-limited, depth-limited); on failure appends a message
/// with the byte offset to `errors` and returns nullopt.
std::optional<Json> parseJson(const std::string &text, std::vector<std::string> &errors);

class JsonReader
{
public:
    JsonReader(const Json &object, std::string pointer, std::vector<std::string> &errors);

    bool has(const char *key) const;
    const std::string &pointer() const { return m_pointer; }
    std::string pointerOf(const char *key) const { return m_pointer + "/" + key; }
    const Json &json() const { return m_json; }

    /// Unsigned integer in [min, max]; a JSON float with an integral value
    /// (4096.0) is accepted, 1.5 or 1e300 is not.
    std::optional<std::uint64_t> uint(const char *key, std::uint64_t min, std::uint64_t max, bool required);
    std::optional<double> number(const char *key, double min, double max, bool required);
    std::optional<std::string> string(const char *key, bool required);
    std::optional<bool> boolean(const char *key, bool required);
    /// A nested object (nullopt if absent and not required).
    std::optional<JsonReader> object(const char *key, bool required);
    /// An array of at most `maxCount` strings (empty if absent).
    std::vector<std::string> strings(const char *key, std::size_t maxCount);

    /// Records in `seen` every key this reader looks up from now on, so a
    /// caller can tell which keys of the object it never read.
    void trackKeys(std::set<std::string> &seen) { m_seen = &seen; }

    void error(const char *key, const std::string &message);

private:
    const Json &m_json;
    std::string m_pointer;
    std::vector<std::string> *m_errors;
    std::set<std::string> *m_seen = nullptr;
};

} // namespace core::io
