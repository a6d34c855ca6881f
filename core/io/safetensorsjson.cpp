#include "core/io/safetensorsjson.h"

#include "core/io/jsonreader.h"

#include <algorithm>
#include <cmath>

namespace core::io {

namespace {

/// A JSON value as the handlers see it.
struct Value
{
    enum class Kind { Count, Fraction, Text, Other };
    Kind kind = Kind::Other;
    std::uint64_t count = 0; ///< Count: an integer >= 0
    double fraction = 0.0;   ///< Fraction: any other number
    const std::string *text = nullptr;
    const char *what = ""; ///< "a string", "null" ... for messages
};

/// nlohmann's SAX interface (json::sax_parse) turned into the calls a
/// handler makes: value(), open(), close() and key(), with the JSON pointer
/// in m_path.
template <typename Handler>
class Sax
{
public:
    explicit Sax(std::vector<std::string> &errors) : m_errors(errors) {}

    bool null() { return value({Value::Kind::Other, 0, 0.0, nullptr, "null"}); }
    bool boolean(bool) { return value({Value::Kind::Other, 0, 0.0, nullptr, "a boolean"}); }
    bool number_integer(Json::number_integer_t n)
    {
        if (n >= 0)
            return number_unsigned(static_cast<Json::number_unsigned_t>(n));
        return value({Value::Kind::Fraction, 0, static_cast<double>(n), nullptr, "a negative number"});
    }
    bool number_unsigned(Json::number_unsigned_t n) { return value({Value::Kind::Count, n, 0.0, nullptr, "a number"}); }
    bool number_float(Json::number_float_t f, const Json::string_t &)
    {
        return value({Value::Kind::Fraction, 0, f, nullptr, "a number"});
    }
    bool string(Json::string_t &s) { return value({Value::Kind::Text, 0, 0.0, &s, "a string"}); }
    bool binary(Json::binary_t &) { return value({Value::Kind::Other, 0, 0.0, nullptr, "binary data"}); }
    bool start_object(std::size_t) { return self().open(true); }
    bool start_array(std::size_t) { return self().open(false); }
    bool end_object() { return self().close(); }
    bool end_array() { return self().close(); }
    bool key(Json::string_t &k)
    {
        m_path.key(k);
        return self().keyRead();
    }
    /// A scalar: the handler checks it where the path stands, then the
    /// path moves past it.
    bool value(const Value &v)
    {
        const bool go = self().checkValue(v);
        m_path.advance();
        return go;
    }
    bool parse_error(std::size_t at, const std::string &, const Json::exception &e)
    {
        m_errors.push_back("malformed JSON at byte " + std::to_string(at) + ": " + e.what());
        return false;
    }

protected:
    void error(const std::string &message) { m_errors.push_back(m_path.pointer() + ": " + message); }

    /// Names written twice, each reported at `prefix` + its token.
    void refuseRepeats(std::vector<const std::string *> names, const std::string &prefix)
    {
        std::sort(names.begin(), names.end(), [](const std::string *a, const std::string *b) { return *a < *b; });
        for (std::size_t i = 1; i < names.size(); ++i)
            if (*names[i] == *names[i - 1] && (i + 1 == names.size() || *names[i + 1] != *names[i]))
                m_errors.push_back(prefix + pointerToken(*names[i]) + ": repeats a name; each may appear once");
    }

    JsonPath m_path;
    std::vector<std::string> &m_errors;

private:
    Handler &self() { return static_cast<Handler &>(*this); }
};

/// The header: {"__metadata__": {string: string}, name: {dtype, shape,
/// data_offsets}, ...}.
class HeaderHandler : public Sax<HeaderHandler>
{
    friend class Sax<HeaderHandler>; // calls checkValue

public:
    HeaderHandler(std::vector<HeaderEntry> &entries, std::vector<std::string> &errors)
        : Sax(errors), m_entries(entries)
    {
    }

    bool open(bool object)
    {
        const std::size_t depth = m_path.depth();
        if (depth == 0 && !object) {
            error("expected an object of tensors");
            return false;
        }
        if (depth == 1)
            beginTensor(object);
        else if (depth == 2 && m_inMetadata)
            error(std::string("is ") + (object ? "an object" : "an array") + "; the format allows only strings here");
        else if (depth == 2 && m_inTensor)
            m_array = fieldArray(object);
        else if (depth == 3 && m_array)
            invalid("expected an integer >= 0");
        m_path.enter(object);
        return true;
    }

    bool close()
    {
        if (m_path.depth() == 2)
            endTensor();
        if (m_path.depth() == 3)
            m_array = nullptr;
        m_path.leave();
        return true;
    }

    bool keyRead()
    {
        if (m_path.depth() != 2 || !m_inTensor)
            return true;
        const std::string &k = m_path.keyAt(2);
        m_field = k == "dtype" ? Field::Dtype : k == "shape" ? Field::Shape : k == "data_offsets" ? Field::Offsets
                                                                                                 : Field::Other;
        if (m_field != Field::Other && m_seen[static_cast<int>(m_field)])
            invalid("repeats a key; each key may appear once");
        m_seen[static_cast<int>(m_field)] = true;
        return true;
    }

    void finish()
    {
        std::vector<const std::string *> names;
        for (const HeaderEntry &e : m_entries)
            names.push_back(&e.name);
        refuseRepeats(names, "/");
    }

private:
    enum class Field { Dtype, Shape, Offsets, Other };

    bool checkValue(const Value &v)
    {
        switch (m_path.depth()) {
        case 0:
            error("expected an object of tensors");
            return false;
        case 1:
            error(m_path.keyAt(1) == "__metadata__" ? "expected an object of strings"
                                                    : "expected an object with dtype, shape and data_offsets");
            break;
        case 2:
            if (m_inMetadata && v.kind != Value::Kind::Text)
                error(std::string("is ") + v.what + "; the format allows only strings here");
            else if (m_inTensor && m_field == Field::Dtype && v.kind == Value::Kind::Text)
                m_tensor.dtype = *v.text;
            else if (m_inTensor && m_field != Field::Other)
                invalid(m_field == Field::Dtype ? "expected a string" : "expected an array of integers");
            break;
        case 3:
            if (m_array && v.kind == Value::Kind::Count)
                m_array->push_back(v.count);
            else if (m_array)
                invalid("expected an integer >= 0");
            break;
        default:
            break;
        }
        return true;
    }

    /// The value of a top-level key: a tensor, or __metadata__.
    void beginTensor(bool object)
    {
        const std::string &name = m_path.keyAt(1);
        if (name == "__metadata__") {
            m_inMetadata = object;
            if (!object)
                error("expected an object of strings");
            return;
        }
        if (!object) {
            error("expected an object with dtype, shape and data_offsets");
            return;
        }
        m_inTensor = true;
        m_valid = true;
        m_tensor = HeaderEntry{name, {}, {}, {}};
        std::fill(std::begin(m_seen), std::end(m_seen), false);
    }

    std::vector<std::uint64_t> *fieldArray(bool object)
    {
        if (m_field == Field::Other)
            return nullptr;
        if (object || m_field == Field::Dtype) {
            invalid(m_field == Field::Dtype ? "expected a string" : "expected an array of integers");
            return nullptr;
        }
        return m_field == Field::Shape ? &m_tensor.shape : &m_tensor.offsets;
    }

    void endTensor()
    {
        if (m_inTensor) {
            const std::string at = "/" + pointerToken(m_tensor.name);
            const char *missing = !m_seen[static_cast<int>(Field::Dtype)]   ? "/dtype: missing; expected a string"
                                  : !m_seen[static_cast<int>(Field::Shape)] ? "/shape: missing; expected an array"
                                  : !m_seen[static_cast<int>(Field::Offsets)]
                                      ? "/data_offsets: missing; expected [begin, end]"
                                      : nullptr;
            if (missing)
                m_errors.push_back(at + missing);
            if (m_valid && !missing)
                m_entries.push_back(std::move(m_tensor));
        }
        m_inTensor = false;
        m_inMetadata = false;
    }

    void invalid(const std::string &message)
    {
        error(message);
        m_valid = false;
    }

    std::vector<HeaderEntry> &m_entries;
    HeaderEntry m_tensor;
    bool m_inTensor = false;
    bool m_inMetadata = false;
    bool m_valid = true;
    Field m_field = Field::Other;
    bool m_seen[4] = {};
    std::vector<std::uint64_t> *m_array = nullptr;
};

/// The index: {"metadata": {"total_size": n}, "weight_map": {tensor: file}}.
class IndexHandler : public Sax<IndexHandler>
{
    friend class Sax<IndexHandler>; // calls checkValue

public:
    IndexHandler(IndexContents &contents, std::vector<std::string> &errors) : Sax(errors), m_contents(contents) {}

    bool open(bool object)
    {
        const std::size_t depth = m_path.depth();
        if (depth == 0 && !object) {
            error("expected an object with weight_map");
            return false;
        }
        if (depth == 1)
            beginSection(object);
        else if (depth == 2 && m_section == Section::WeightMap)
            error("expected the name of a file in the folder");
        m_path.enter(object);
        return true;
    }

    bool close()
    {
        if (m_path.depth() == 2)
            m_section = Section::None;
        m_path.leave();
        return true;
    }

    bool keyRead()
    {
        m_sawWeightMap = m_sawWeightMap || (m_path.depth() == 1 && m_path.keyAt(1) == "weight_map");
        return true;
    }

    void finish()
    {
        if (!m_sawWeightMap)
            m_errors.push_back("/weight_map: missing; expected an object");
        std::vector<const std::string *> names;
        for (const auto &entry : m_contents.fileOf)
            names.push_back(&entry.first);
        refuseRepeats(names, "/weight_map/");
    }

private:
    enum class Section { None, Metadata, WeightMap };

    void beginSection(bool object)
    {
        const std::string &k = m_path.keyAt(1);
        const Section section = k == "metadata" ? Section::Metadata : k == "weight_map" ? Section::WeightMap
                                                                                         : Section::None;
        if (section != Section::None && !object)
            error("expected an object");
        m_section = object ? section : Section::None;
    }

    bool checkValue(const Value &v)
    {
        const std::size_t depth = m_path.depth();
        if (depth == 0) {
            error("expected an object with weight_map");
            return false;
        }
        if (depth == 1 && (m_path.keyAt(1) == "metadata" || m_path.keyAt(1) == "weight_map"))
            error("expected an object");
        if (depth == 2 && m_section == Section::Metadata && m_path.keyAt(2) == "total_size")
            totalSize(v);
        if (depth == 2 && m_section == Section::WeightMap) {
            // A plain name: the index may not point outside its folder.
            const bool plain = v.kind == Value::Kind::Text && !v.text->empty()
                               && v.text->find_first_of("/\\") == std::string::npos && *v.text != "."
                               && *v.text != "..";
            if (plain)
                m_contents.fileOf.emplace_back(m_path.keyAt(2), *v.text);
            else
                error("expected the name of a file in the folder");
        }
        return true;
    }

    /// An integer >= 0; 1.4e10 is read as the integer it is.
    void totalSize(const Value &v)
    {
        if (v.kind == Value::Kind::Count)
            m_contents.totalSize = v.count;
        else if (v.kind == Value::Kind::Fraction && v.fraction >= 0 && v.fraction < 1.8e19
                 && v.fraction == std::floor(v.fraction))
            m_contents.totalSize = static_cast<std::uint64_t>(v.fraction);
        else
            error(std::string("is ") + v.what + "; expected an integer >= 0");
    }

    IndexContents &m_contents;
    Section m_section = Section::None;
    bool m_sawWeightMap = false;
};

} // namespace

std::vector<HeaderEntry> parseHeader(const std::string &text, std::vector<std::string> &errors)
{
    std::vector<HeaderEntry> entries;
    HeaderHandler handler(entries, errors);
    if (Json::sax_parse(text, &handler))
        handler.finish();
    return entries;
}

IndexContents parseIndex(const std::string &text, std::vector<std::string> &errors)
{
    IndexContents contents;
    IndexHandler handler(contents, errors);
    if (Json::sax_parse(text, &handler))
        handler.finish();
    return contents;
}

} // namespace core::io
