#pragma once

#include <string>
#include <vector>

namespace core {

/// Text for people, with an id: `text` is the English template and the
/// Qt Linguist source text (marked with QT_TRANSLATE_NOOP where it is
/// written, see core/base/translatable.h), %1..%9 its arguments. Engine
/// warnings and report text are built from these so that the window and
/// its exports can show them in the reader's language; the CLI stays
/// English.
struct Message
{
    const char *context;
    const char *text;
    std::vector<std::string> args;
    /// The input it is about, as files spell it ("kv_skip_layers"), shown
    /// before the text; empty for none.
    std::string subject = {};
    /// Where set, the arguments are words of this context too (a field's
    /// unit, context "Field"), translated before they are put in.
    const char *argsContext = nullptr;

    /// A sentence that has no translation (a loader's diagnostic).
    static Message verbatim(std::string sentence) { return {"", "%1", {std::move(sentence)}}; }
    /// This message about `input`: "kv_skip_layers: '99' is neither ...".
    Message about(std::string input) &&
    {
        subject = std::move(input);
        return std::move(*this);
    }
};

/// The same message: the same text, arguments and subject (two copies of
/// one literal may sit at different addresses).
bool operator==(const Message &a, const Message &b);
inline bool operator!=(const Message &a, const Message &b) { return !(a == b); }

/// The reader's language: returns the translation of `text` in `context`,
/// or nullptr for English. The window passes Qt's translator.
using Translator = std::string (*)(const char *context, const char *text);

/// `text` in the reader's language (English without a translator).
std::string translate(Translator translator, const char *context, const char *text);
/// The message in the reader's language, its arguments substituted.
std::string render(const Message &message, Translator translator = nullptr);

} // namespace core
