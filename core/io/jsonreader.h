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

/// `key` as one JSON pointer token: "~" becomes "~0" and "/" "~1" (RFC 6901 §3).
std::string pointerToken(const std::string &key);

/// The JSON pointer of the value a SAX parser (nlohmann::json::sax_parse)
/// is at, for handlers that check a document in one pass without building
/// it.
class JsonPath
{
public:
    /// At start_object and start_array.
    void enter(bool object) { m_frames.push_back({object, {}, 0}); }
    /// At end_object and end_array: the container was a value of its parent.
    void leave()
    {
        m_frames.pop_back();
        advance();
    }
    void key(const std::string &key) { m_frames.back().key = key; }
    /// After a value: an array moves on to its next element.
    void advance()
    {
        if (!m_frames.empty() && !m_frames.back().object)
            ++m_frames.back().index;
    }
    /// Containers entered: 0 before the root, 1 inside it.
    std::size_t depth() const { return m_frames.size(); }
    /// The current key of the object at `depth` (1: the root's).
    const std::string &keyAt(std::size_t depth) const { return m_frames[depth - 1].key; }
    std::string pointer() const;

private:
    struct Frame
    {
        bool object;
        std::string key;       ///< objects: the current key
        std::size_t index = 0; ///< arrays: the current element
    };
    std::vector<Frame> m_frames;
};

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
