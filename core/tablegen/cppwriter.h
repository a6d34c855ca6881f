#pragma once

#include "core/units.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace core::tablegen {

/// Writes C++ assignment statements `object.member = value;` whose values
/// compile back to exactly what was read: strings as escaped literals,
/// doubles as hexadecimal floating literals (C++17), byte counts through
/// Bytes::fromCount.
class CppWriter
{
public:
    CppWriter(std::ostream &out, std::string object) : m_out(out), m_object(std::move(object)) {}

    void set(const char *member, const std::string &value);
    void set(const char *member, std::uint64_t value);
    void set(const char *member, int value);
    void set(const char *member, bool value);
    void set(const char *member, double value);
    void set(const char *member, Bytes value);

    /// An absent optional is left at its default (nullopt).
    template <typename T>
    void set(const char *member, const std::optional<T> &value)
    {
        if (value)
            set(member, *value);
    }

    /// A value written as a C++ expression, for enumerators.
    void setExpression(const char *member, const std::string &expression);

private:
    std::ostream &m_out;
    std::string m_object;
};

/// `text` as a C++ string literal; every byte outside printable ASCII is an
/// octal escape, so the generated file is ASCII whatever the data holds.
std::string cppStringLiteral(const std::string &text);

} // namespace core::tablegen

/// Writes `object.member = <value of source.member>;` with the member's name
/// spelt once, so the generated assignment and the value read cannot name
/// different members.
#define VRAM_TABLEGEN_SET(writer, source, member) (writer).set(#member, (source).member)
