#pragma once

#include <optional>
#include <string>
#include <vector>

namespace core {

/// The entry of an info table (allFormats(), allOptimizers(), ...) whose
/// `id` spelling is `id`, or nullptr.
template <typename Info>
const Info *findById(const std::vector<Info> &table, const std::string &id)
{
    for (const Info &info : table)
        if (id == info.id)
            return &info;
    return nullptr;
}

/// The entry whose enum member equals `value` (the first entry if none).
template <typename Info, typename Enum>
const Info &findByValue(const std::vector<Info> &table, Enum Info::*member, Enum value)
{
    for (const Info &info : table)
        if (info.*member == value)
            return info;
    return table.front();
}

/// parse helper: the enum of the entry spelled `id`.
template <typename Info, typename Enum>
std::optional<Enum> parseById(const std::vector<Info> &table, Enum Info::*member, const std::string &id)
{
    if (const Info *info = findById(table, id))
        return info->*member;
    return std::nullopt;
}

/// A plain enum-to-spelling table, for enums without an info table: the
/// file and CLI spelling and, for the window, the label (a Qt Linguist
/// source text in context "Field"; the id where none is given).
template <typename Enum>
struct Spelling
{
    Enum value;
    const char *id;
    const char *label = nullptr;
};

template <typename Enum, std::size_t N>
std::optional<Enum> parseSpelling(const Spelling<Enum> (&table)[N], const std::string &id)
{
    for (const auto &entry : table)
        if (id == entry.id)
            return entry.value;
    return std::nullopt;
}

template <typename Enum, std::size_t N>
const char *spell(const Spelling<Enum> (&table)[N], Enum value)
{
    for (const auto &entry : table)
        if (entry.value == value)
            return entry.id;
    return table[0].id;
}

} // namespace core
