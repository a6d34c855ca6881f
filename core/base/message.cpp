#include "core/base/message.h"

#include "core/base/translatable.h"

#include <string_view>

namespace core {

std::string translate(Translator translator, const char *context, const char *text)
{
    return translator ? translator(context, text) : std::string(text);
}

namespace {

/// `pattern` with %1..%9 each replaced once where it stands (a translation
/// may reorder them).
std::string substitute(const std::string &pattern, const std::vector<std::string> &args)
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (pattern[i] == '%' && next >= '1' && next <= '9'
            && static_cast<std::size_t>(next - '1') < args.size()) {
            out += args[static_cast<std::size_t>(next - '1')];
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

} // namespace

bool operator==(const Message &a, const Message &b)
{
    const auto same = [](const char *x, const char *y) {
        return x == y || (x && y && std::string_view(x) == std::string_view(y));
    };
    return same(a.context, b.context) && same(a.text, b.text) && a.args == b.args && a.subject == b.subject
        && same(a.argsContext, b.argsContext);
}

std::string render(const Message &message, Translator translator)
{
    std::vector<std::string> args = message.args;
    if (message.argsContext)
        for (std::string &arg : args)
            arg = translate(translator, message.argsContext, arg.c_str());
    const std::string text = substitute(translate(translator, message.context, message.text), args);
    if (message.subject.empty())
        return text;
    return substitute(translate(translator, "Message", QT_TRANSLATE_NOOP("Message", "%1: %2")), {message.subject, text});
}

} // namespace core
