#include "core/scenario/fieldtext.h"

#include "core/base/units.h"
#include "core/scenario/inputspellings.h"

#include <cmath>
#include <sstream>

namespace core {

std::string targetsText(const std::vector<LinearSlot> &slots)
{
    std::string text;
    for (LinearSlot slot : slots)
        text += (text.empty() ? "" : ",") + std::string(linearSlotId(slot));
    return text;
}

std::string splitText(const std::vector<double> &split)
{
    std::ostringstream text;
    for (std::size_t i = 0; i < split.size(); ++i)
        text << (i ? "," : "") << split[i];
    return text.str();
}

std::string idListText(const std::vector<std::string> &ids)
{
    std::string text;
    for (const std::string &id : ids)
        text += (text.empty() ? "" : ",") + id;
    return text;
}

namespace {

/// Calls `each` with every comma-separated entry of `text`, as it stands.
template <typename Each>
void forEachEntry(const std::string &text, const Each &each)
{
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        each(item);
}

} // namespace

std::vector<std::string> splitIds(const std::string &text)
{
    std::vector<std::string> ids;
    forEachEntry(text, [&ids](const std::string &item) {
        const auto first = item.find_first_not_of(" \t");
        ids.push_back(first == std::string::npos ? std::string() : item.substr(first, item.find_last_not_of(" \t") - first + 1));
    });
    if (!text.empty() && text.back() == ',')
        ids.emplace_back(); // "a,": an empty last id
    return ids;
}

std::vector<double> parseSplit(const std::string &text)
{
    std::vector<double> split;
    forEachEntry(text, [&split](const std::string &item) { split.push_back(parseDecimal(item).value_or(std::nan(""))); });
    return split;
}

std::vector<LinearSlot> parseTargets(const std::string &text)
{
    std::vector<LinearSlot> slots;
    forEachEntry(text, [&slots](const std::string &item) {
        if (const auto slot = parseLinearSlot(item))
            slots.push_back(*slot);
    });
    return slots;
}

} // namespace core
