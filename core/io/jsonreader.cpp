#include "core/io/jsonreader.h"

#include "core/base/loadresult.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace core::io {

namespace {

constexpr int kMaxDepth = 64;

/// Calls visit(i) for each character of JSON text outside string literals
/// (the quotes themselves included neither).
template <typename Visit>
void forEachOutsideStrings(const std::string &text, Visit visit)
{
    bool inString = false;
    bool escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else {
            visit(i);
        }
    }
}

/// Deepest nesting of arrays and objects outside strings. A plain scan is
/// several times cheaper than a per-token parser callback, and it bounds
/// the depth before the recursive parser and destructor ever see the text.
int nestingDepth(const std::string &text)
{
    int depth = 0;
    int deepest = 0;
    forEachOutsideStrings(text, [&](std::size_t i) {
        if (text[i] == '{' || text[i] == '[')
            deepest = std::max(deepest, ++depth);
        else if (text[i] == '}' || text[i] == ']')
            --depth;
    });
    return deepest;
}

/// Python's json module writes float("inf"), -inf and nan as the bare words
/// Infinity, -Infinity and NaN (json.dumps, allow_nan=True by default), and
/// transformers writes and reads config.json with it
/// (configuration_utils.py PretrainedConfig.to_json_string and
/// _dict_from_json_file): Nemotron-H's "time_step_limit": [0.0, Infinity].
/// Newer transformers also write {"__float__": "Infinity"}
/// (PretrainedConfig._encode_special_floats). Strict JSON has neither, so
/// each bare word outside a string becomes a marker string here, and
/// restorePythonFloats turns markers and __float__ objects into doubles.
const char *const kPythonFloatMarker = "\\u0000python-float:";

struct PythonFloat
{
    const char *word;
    double value;
};

const PythonFloat kPythonFloats[] = {
    {"-Infinity", -HUGE_VAL},
    {"Infinity", HUGE_VAL},
    {"NaN", NAN},
};

bool isWordCharacter(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// `text` with every bare Python float word outside strings replaced by a
/// marker string; nullopt when it has none (the usual case, parsed as is).
std::optional<std::string> markPythonFloats(const std::string &text)
{
    std::optional<std::string> marked;
    std::size_t copied = 0;
    forEachOutsideStrings(text, [&](std::size_t i) {
        const char c = text[i];
        // Past a word already replaced ("-Infinity" holds "Infinity").
        if (i < copied || (c != '-' && c != 'I' && c != 'N') || (i > 0 && isWordCharacter(text[i - 1])))
            return;
        for (const PythonFloat &f : kPythonFloats) {
            const std::size_t n = std::char_traits<char>::length(f.word);
            if (text.compare(i, n, f.word) != 0 || (i + n < text.size() && isWordCharacter(text[i + n])))
                continue;
            if (!marked)
                marked.emplace().reserve(text.size() + 64);
            marked->append(text, copied, i - copied);
            marked->append("\"").append(kPythonFloatMarker).append(f.word).append("\"");
            copied = i + n;
            return;
        }
    });
    if (marked)
        marked->append(text, copied, std::string::npos);
    return marked;
}

/// The double a marker string or a {"__float__": word} object stands for.
std::optional<double> pythonFloat(const Json &value)
{
    std::string word;
    if (value.is_string()) {
        const std::string &s = value.get_ref<const std::string &>();
        const std::string marker = std::string(1, '\0') + (kPythonFloatMarker + 6);
        if (s.compare(0, marker.size(), marker) != 0)
            return std::nullopt;
        word = s.substr(marker.size());
    } else if (value.is_object() && value.size() == 1 && value.contains("__float__")
               && value.at("__float__").is_string()) {
        word = value.at("__float__").get<std::string>();
    } else {
        return std::nullopt;
    }
    for (const PythonFloat &f : kPythonFloats)
        if (word == f.word)
            return f.value;
    return std::nullopt;
}

void restorePythonFloats(Json &json)
{
    if (const auto value = pythonFloat(json)) {
        json = *value;
        return;
    }
    if (json.is_structured())
        for (Json &child : json)
            restorePythonFloats(child);
}

} // namespace

std::optional<Json> parseJson(const std::string &text, std::vector<std::string> &errors)
{
    if (text.size() > kMaxInputBytes) {
        errors.push_back("file is " + std::to_string(text.size() / (1024 * 1024)) + " MiB; the limit is "
                         + std::to_string(kMaxInputBytes / (1024 * 1024)) + " MiB");
        return std::nullopt;
    }
    if (nestingDepth(text) > kMaxDepth) {
        errors.push_back("/: JSON nests deeper than " + std::to_string(kMaxDepth) + " levels");
        return std::nullopt;
    }
    try {
        if (const auto marked = markPythonFloats(text)) {
            Json json = Json::parse(*marked, nullptr, true, false);
            restorePythonFloats(json);
            return json;
        }
        Json json = Json::parse(text, nullptr, true, false);
        if (text.find("__float__") != std::string::npos)
            restorePythonFloats(json);
        return json;
    } catch (const Json::parse_error &e) {
        errors.push_back("malformed JSON at byte " + std::to_string(e.byte) + ": " + e.what());
    } catch (const Json::exception &e) {
        // e.g. out_of_range 406 for a number such as 1e999
        errors.push_back(std::string("malformed JSON: ") + e.what());
    }
    return std::nullopt;
}

std::string pointerToken(const std::string &key)
{
    std::string token;
    token.reserve(key.size());
    for (const char c : key) {
        if (c == '~')
            token += "~0";
        else if (c == '/')
            token += "~1";
        else
            token += c;
    }
    return token;
}

std::string JsonPath::pointer() const
{
    std::string p;
    for (const Frame &f : m_frames)
        p += "/" + (f.object ? pointerToken(f.key) : std::to_string(f.index));
    return p.empty() ? "/" : p;
}

JsonReader::JsonReader(const Json &object, std::string pointer, std::vector<std::string> &errors)
    : m_json(object), m_pointer(std::move(pointer)), m_errors(&errors)
{
}

bool JsonReader::has(const char *key) const
{
    if (m_seen)
        m_seen->insert(key);
    return m_json.is_object() && m_json.contains(key) && !m_json.at(key).is_null();
}

void JsonReader::error(const char *key, const std::string &message)
{
    m_errors->push_back(pointerOf(key) + ": " + message);
}

std::optional<std::uint64_t> JsonReader::uint(const char *key, std::uint64_t min, std::uint64_t max, bool required)
{
    const std::string range = " between " + std::to_string(min) + " and " + std::to_string(max);
    if (!has(key)) {
        if (required)
            error(key, "missing; expected an integer" + range);
        return std::nullopt;
    }
    const Json &v = m_json.at(key);
    std::uint64_t value = 0;
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
        value = v.get<std::uint64_t>();
    } else if (v.is_number_integer()) {
        error(key, "is negative; expected an integer" + range);
        return std::nullopt;
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < 0 || d != std::floor(d) || d > 1.8e19) {
            error(key, "expected an integer" + range);
            return std::nullopt;
        }
        value = static_cast<std::uint64_t>(d);
    } else {
        error(key, std::string("is a ") + v.type_name() + "; expected an integer" + range);
        return std::nullopt;
    }
    if (value < min || value > max) {
        error(key, "is " + std::to_string(value) + "; expected" + range);
        return std::nullopt;
    }
    return value;
}

std::optional<double> JsonReader::number(const char *key, double min, double max, bool required)
{
    if (!has(key)) {
        if (required)
            error(key, "missing; expected a number");
        return std::nullopt;
    }
    const Json &v = m_json.at(key);
    if (!v.is_number()) {
        error(key, std::string("is a ") + v.type_name() + "; expected a number");
        return std::nullopt;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < min || d > max) {
        error(key, "is out of range; expected a number between " + std::to_string(min) + " and " + std::to_string(max));
        return std::nullopt;
    }
    return d;
}

std::optional<std::string> JsonReader::string(const char *key, bool required)
{
    if (!has(key)) {
        if (required)
            error(key, "missing; expected a string");
        return std::nullopt;
    }
    const Json &v = m_json.at(key);
    if (!v.is_string()) {
        error(key, std::string("is a ") + v.type_name() + "; expected a string");
        return std::nullopt;
    }
    return v.get<std::string>();
}

std::optional<bool> JsonReader::boolean(const char *key, bool required)
{
    if (!has(key)) {
        if (required)
            error(key, "missing; expected true or false");
        return std::nullopt;
    }
    const Json &v = m_json.at(key);
    if (!v.is_boolean()) {
        error(key, std::string("is a ") + v.type_name() + "; expected true or false");
        return std::nullopt;
    }
    return v.get<bool>();
}

std::optional<JsonReader> JsonReader::object(const char *key, bool required)
{
    if (!has(key)) {
        if (required)
            error(key, "missing; expected an object");
        return std::nullopt;
    }
    const Json &v = m_json.at(key);
    if (!v.is_object()) {
        error(key, std::string("is a ") + v.type_name() + "; expected an object");
        return std::nullopt;
    }
    return JsonReader(v, pointerOf(key), *m_errors);
}

std::vector<std::string> JsonReader::strings(const char *key, std::size_t maxCount)
{
    std::vector<std::string> values;
    if (!has(key))
        return values;
    const Json &v = m_json.at(key);
    if (!v.is_array() || v.size() > maxCount) {
        error(key, "expected an array of at most " + std::to_string(maxCount) + " strings");
        return values;
    }
    for (const Json &item : v) {
        if (!item.is_string()) {
            error(key, std::string("holds a ") + item.type_name() + "; expected strings");
            return {};
        }
        values.push_back(item.get<std::string>());
    }
    return values;
}

} // namespace core::io
