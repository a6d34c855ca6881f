#pragma once

#include "core/base/units.h"
#include "core/model/modelspec.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

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
    void set(const char *member, NormKind value);
    void set(const char *member, const std::vector<std::string> &values);
    void set(const char *member, const std::vector<std::uint64_t> &values);
    void set(const char *member, const std::vector<PartialQuantization> &values);

    /// An absent optional is left at its default (nullopt).
    template <typename T>
    void set(const char *member, const std::optional<T> &value)
    {
        if (value)
            set(member, *value);
    }

private:
    void setExpression(const char *member, const std::string &expression);

    std::ostream &m_out;
    std::string m_object;
};

/// `text` as a C++ string literal; every byte outside printable ASCII is an
/// octal escape, so the generated file is ASCII whatever the data holds.
std::string cppStringLiteral(const std::string &text);

} // namespace core::tablegen
