#include "core/base/message.h"

namespace core {

std::string translate(Translator translator, const char *context, const char *text)
{
    return translator ? translator(context, text) : std::string(text);
}

std::string render(const Message &message, Translator translator)
{
    const std::string pattern = translate(translator, message.context, message.text);
    // %1..%9, each replaced once where it stands (a translation may reorder them).
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (pattern[i] == '%' && next >= '1' && next <= '9'
            && static_cast<std::size_t>(next - '1') < message.args.size()) {
            out += message.args[static_cast<std::size_t>(next - '1')];
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

} // namespace core
