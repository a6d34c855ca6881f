#include "core/scenario/fields.h"

#include "core/base/translatable.h"
#include "core/base/units.h"
#include "core/scenario/fieldtext.h"

#include <cmath>
#include <sstream>

namespace core {

namespace {

/// "1048576", "0.01", "1e+16" without trailing zeros: a range bound as typed.
std::string plain(double value)
{
    std::ostringstream out;
    out.precision(15);
    out << value;
    return out.str();
}

} // namespace

std::string choiceList(const FieldDescriptor &f, const char *separator)
{
    std::string list;
    for (const FieldChoice &c : f.choices)
        list += (list.empty() ? "" : separator) + std::string(c.id);
    return list;
}

std::optional<Message> checkFieldValue(const FieldDescriptor &f, const FieldValue &value)
{
    const auto problem = [](const char *text, std::vector<std::string> args = {}) {
        return std::optional<Message>(Message{"Message", text, std::move(args)});
    };
    if (std::holds_alternative<std::monostate>(value))
        return f.optional() ? std::nullopt : problem(QT_TRANSLATE_NOOP("Message", "has no default to return to"));
    const auto outOfRange = [&] {
        if (!*f.unit)
            return problem(QT_TRANSLATE_NOOP("Message", "must be between %1 and %2"), {plain(f.min), plain(f.max)});
        std::optional<Message> withUnit =
            problem(QT_TRANSLATE_NOOP("Message", "must be between %1 and %2 %3"), {plain(f.min), plain(f.max), f.unit});
        withUnit->argsContext = "Field"; // the unit, as the field's editor shows it
        return withUnit;
    };
    const auto notAChoice = [&](const std::string &id) {
        return problem(QT_TRANSLATE_NOOP("Message", "'%1' is not one of %2"), {id, choiceList(f)});
    };
    const auto isChoice = [&f](const std::string &id) {
        for (const FieldChoice &c : f.choices)
            if (id == c.id)
                return true;
        return false;
    };
    switch (f.kind) {
    case FieldKind::Integer:
    case FieldKind::Number: {
        const double *v = std::get_if<double>(&value);
        if (!v || !std::isfinite(*v) || *v < f.min || *v > f.max)
            return outOfRange();
        if (f.kind == FieldKind::Integer && *v != std::floor(*v))
            return problem(QT_TRANSLATE_NOOP("Message", "must be a whole number"));
        return std::nullopt;
    }
    case FieldKind::Choice: {
        const std::string *id = std::get_if<std::string>(&value);
        if (!id)
            return problem(QT_TRANSLATE_NOOP("Message", "expected one of %1"), {choiceList(f)});
        return isChoice(*id) ? std::nullopt : notAChoice(*id);
    }
    case FieldKind::ChoiceSet: {
        const std::string *ids = std::get_if<std::string>(&value);
        if (!ids)
            return problem(QT_TRANSLATE_NOOP("Message", "expected a comma list of %1"), {choiceList(f)});
        std::istringstream in(*ids);
        std::string item;
        while (std::getline(in, item, ','))
            if (!isChoice(item))
                return notAChoice(item);
        return std::nullopt;
    }
    case FieldKind::Flag:
        return std::holds_alternative<bool>(value) ? std::nullopt
                                                   : problem(QT_TRANSLATE_NOOP("Message", "expected true or false"));
    case FieldKind::Text: {
        const std::string *text = std::get_if<std::string>(&value);
        if (!text)
            return problem(QT_TRANSLATE_NOOP("Message", "expected text"));
        return f.checkText ? f.checkText(*text) : std::nullopt;
    }
    case FieldKind::ModelPreset: {
        const std::string *id = std::get_if<std::string>(&value);
        if (!id)
            return problem(QT_TRANSLATE_NOOP("Message", "expected a model preset id (see 'vramplanner-cli models')"));
        return id->find_first_of(" \t,") == std::string::npos
            ? std::nullopt
            : problem(QT_TRANSLATE_NOOP("Message", "'%1' is not a model preset id"), {*id});
    }
    case FieldKind::TextList: {
        const std::string *list = std::get_if<std::string>(&value);
        if (!list)
            return problem(QT_TRANSLATE_NOOP("Message", "expected ids separated by commas, e.g. rtx-4090,rtx-3090"));
        for (const std::string &id : list->empty() ? std::vector<std::string>() : splitIds(*list))
            if (id.empty() || id.find_first_of(" \t") != std::string::npos)
                return problem(QT_TRANSLATE_NOOP("Message", "'%1' is not a comma list of ids (e.g. rtx-4090,rtx-3090)"),
                               {*list});
        return std::nullopt;
    }
    case FieldKind::NumberList: {
        const std::string *list = std::get_if<std::string>(&value);
        if (!list)
            return problem(QT_TRANSLATE_NOOP("Message", "expected shares separated by commas, e.g. 24,12 or 0,1"));
        std::istringstream in(*list);
        std::string item;
        bool anyPositive = list->empty();
        while (std::getline(in, item, ',')) {
            const auto number = parseDecimal(item);
            if (!number || *number < 0 || !std::isfinite(*number))
                return problem(QT_TRANSLATE_NOOP("Message", "'%1' is not a share of zero or more (e.g. 24,12 or 0,1)"),
                               {item});
            anyPositive = anyPositive || *number > 0;
        }
        return anyPositive ? std::nullopt
                           : problem(QT_TRANSLATE_NOOP("Message", "'%1' gives every GPU a share of zero"), {*list});
    }
    }
    return std::nullopt;
}

std::optional<FieldValue> parseFieldValue(const FieldDescriptor &f, const std::string &text,
                                          std::optional<Message> &problem)
{
    problem.reset();
    if (f.optional() && text == "default")
        return FieldValue();
    FieldValue value;
    switch (f.kind) {
    case FieldKind::Integer: {
        // The spellings --params takes: 4096, 32k, 1e6, 1M, 4,096; token
        // counts of a context take k and M as 1,024 and 1,048,576.
        const auto count = text == "0" ? std::optional<std::uint64_t>(0) : parseCount(text, f.countSuffixes);
        if (!count || static_cast<double>(*count) < f.min || static_cast<double>(*count) > f.max) {
            problem = Message{"Message", QT_TRANSLATE_NOOP("Message", "'%1' is not an integer between %2 and %3"),
                              {text, plain(f.min), plain(f.max)}};
            return std::nullopt;
        }
        value = static_cast<double>(*count);
        break;
    }
    case FieldKind::Number: {
        std::istringstream in(text);
        double number = 0;
        in >> number;
        // A size in GiB also takes a size with its unit: "64GB", "512 GiB".
        if ((!in || !in.eof()) && std::string(f.unit) == "GiB")
            if (const auto bytes = parseBytes(text)) {
                number = static_cast<double>(bytes->count()) / (1024.0 * 1024.0 * 1024.0);
                in.clear(std::ios::eofbit);
            }
        if (!in || !in.eof() || !std::isfinite(number) || number < f.min || number > f.max) {
            problem = Message{"Message", QT_TRANSLATE_NOOP("Message", "'%1' is not a number between %2 and %3"),
                              {text, plain(f.min), plain(f.max)}};
            return std::nullopt;
        }
        value = number;
        break;
    }
    case FieldKind::ChoiceSet: {
        // "all" names every choice; "attention" the attention projections.
        if (text == "all")
            value = targetsText({LinearSlot::Q, LinearSlot::K, LinearSlot::V, LinearSlot::O, LinearSlot::Gate,
                                 LinearSlot::Up, LinearSlot::Down});
        else if (text == "attention")
            value = targetsText({LinearSlot::Q, LinearSlot::K, LinearSlot::V, LinearSlot::O});
        else
            value = text;
        break;
    }
    case FieldKind::Flag:
        value = text.empty() || text == "true" || text == "on";
        break;
    case FieldKind::Choice:
        value = canonicalChoice(f, text);
        break;
    case FieldKind::Text:
    case FieldKind::ModelPreset:
    case FieldKind::NumberList:
    case FieldKind::TextList:
        value = text;
        break;
    }
    problem = checkFieldValue(f, value);
    if (problem)
        return std::nullopt;
    return value;
}

std::string canonicalChoice(const FieldDescriptor &f, const std::string &text)
{
    for (const FieldAlias &alias : f.aliases)
        if (text == alias.spelling)
            return alias.id;
    return text;
}

std::string formatFieldValue(const FieldDescriptor &f, const FieldValue &value)
{
    if (std::holds_alternative<std::monostate>(value))
        return f.defaultFollows ? std::string("default (") + f.defaultFollows + ")" : "default";
    if (const bool *on = std::get_if<bool>(&value))
        return *on ? "on" : "off";
    if (const std::string *text = std::get_if<std::string>(&value))
        return text->empty() ? "none" : *text;
    const double v = std::get<double>(value);
    if (f.kind == FieldKind::Integer && v >= 0 && v < 1.8e19)
        return groupDigits(static_cast<std::uint64_t>(v));
    return formatFixed(v, f.decimals);
}

std::string describeDefault(const FieldDescriptor &f)
{
    if (!f.optional())
        return formatFieldValue(f, f.stored(Scenario{}));
    // The default as each mode sees it, grouped: "bf16 (inference, train,
    // lora), nf4-dq (qlora)"; then what it follows.
    std::vector<std::pair<std::string, std::string>> groups; // value, modes
    for (const ModeInfo &m : allModes()) {
        Scenario s;
        s.mode = m.mode;
        if (!f.applies(s))
            continue;
        const std::string text = formatFieldValue(f, f.effective(s));
        auto group = std::find_if(groups.begin(), groups.end(), [&text](const auto &g) { return g.first == text; });
        if (group == groups.end())
            groups.push_back({text, m.id});
        else
            group->second += std::string(", ") + m.id;
    }
    // A field of another engine applies in no mode of the default scenario.
    if (groups.empty() || (groups.size() == 1 && std::holds_alternative<std::monostate>(f.effective(Scenario{}))))
        return std::string("follows ") + f.defaultFollows;
    std::string text;
    for (const auto &[value, modes] : groups)
        text += (text.empty() ? "" : ", ") + value + (groups.size() > 1 ? " (" + modes + ")" : "");
    return text + "; follows " + f.defaultFollows;
}

bool isInRange(const FieldDescriptor &f, const Scenario &s)
{
    const FieldValue value = f.stored(s);
    const double *number = std::get_if<double>(&value);
    return !number || (*number >= f.min && *number <= f.max); // NaN compares false
}

std::vector<FieldId> changedFields(const Scenario &before, const Scenario &after)
{
    std::vector<FieldId> changed;
    for (const FieldDescriptor &f : allFields())
        if (f.stored(before) != f.stored(after))
            changed.push_back(f.id);
    return changed;
}

} // namespace core
