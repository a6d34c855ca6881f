#include "core/tablegen/cppwriter.h"

#include <cstdio>
#include <sstream>

namespace core::tablegen {

std::string cppStringLiteral(const std::string &text)
{
    std::string literal = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == '"' || byte == '\\') {
            literal += '\\';
            literal += c;
        } else if (byte >= 0x20 && byte < 0x7f && byte != '?') { // '?' avoids trigraph lookalikes
            literal += c;
        } else {
            char escape[5];
            std::snprintf(escape, sizeof escape, "\\%03o", byte);
            literal += escape;
        }
    }
    return literal + "\"";
}

void CppWriter::set(const char *member, const std::string &value)
{
    setExpression(member, "std::string(" + cppStringLiteral(value) + ", " + std::to_string(value.size()) + ")");
}

void CppWriter::set(const char *member, std::uint64_t value)
{
    setExpression(member, std::to_string(value) + "ull");
}

void CppWriter::set(const char *member, int value)
{
    setExpression(member, std::to_string(value));
}

void CppWriter::set(const char *member, bool value)
{
    setExpression(member, value ? "true" : "false");
}

void CppWriter::set(const char *member, double value)
{
    std::ostringstream hex;
    hex << std::hexfloat << value;
    setExpression(member, hex.str());
}

void CppWriter::set(const char *member, Bytes value)
{
    setExpression(member, "Bytes::fromCount(" + std::to_string(value.count()) + "ull)");
}

void CppWriter::set(const char *member, NormKind value)
{
    setExpression(member, value == NormKind::LayerNorm ? "NormKind::LayerNorm" : "NormKind::RmsNorm");
}

void CppWriter::set(const char *member, const std::vector<std::string> &values)
{
    std::string list = "{";
    for (const std::string &v : values)
        list += (list.size() > 1 ? ", " : "") + cppStringLiteral(v);
    setExpression(member, list + "}");
}

void CppWriter::set(const char *member, const std::vector<std::uint64_t> &values)
{
    std::string list = "{";
    for (const std::uint64_t v : values)
        list += (list.size() > 1 ? ", " : "") + std::to_string(v) + "ull";
    setExpression(member, list + "}");
}

void CppWriter::set(const char *member, const std::vector<PartialQuantization> &values)
{
    std::string list = "{";
    for (const PartialQuantization &v : values)
        list += (list.size() > 1 ? ", " : "") + std::string("{static_cast<LayerScope>(")
            + std::to_string(static_cast<int>(v.scope)) + "), " + std::to_string(v.target) + "u, "
            + std::to_string(v.quantizedLayers) + "ull}";
    setExpression(member, list + "}");
}

void CppWriter::setExpression(const char *member, const std::string &expression)
{
    m_out << "    " << m_object << '.' << member << " = " << expression << ";\n";
}

} // namespace core::tablegen
