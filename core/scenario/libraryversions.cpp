#include "core/scenario/libraryversions.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"

#include <sstream>

namespace core {

const std::vector<LibraryInfo> &allLibraries()
{
    static const std::vector<LibraryInfo> libraries = {
        {Library::Transformers, "transformers", "transformers"},
        {Library::Peft, "peft", "PEFT"},
        {Library::Accelerate, "accelerate", "Accelerate"},
        {Library::Bitsandbytes, "bitsandbytes", "bitsandbytes"},
        {Library::Torch, "torch", "PyTorch"},
        {Library::Torchtune, "torchtune", "torchtune"},
        {Library::LitGpt, "litgpt", "LitGPT"},
        {Library::Vllm, "vllm", "vLLM"},
        {Library::Sglang, "sglang", "SGLang"},
        {Library::Trtllm, "tensorrt_llm", "TensorRT-LLM"},
    };
    return libraries;
}

const LibraryInfo &libraryInfo(Library library)
{
    return findByValue(allLibraries(), &LibraryInfo::library, library);
}

std::string versionText(const Version &v)
{
    std::string text = std::to_string(v.major) + "." + std::to_string(v.minor);
    if (v.patch != 0)
        text += "." + std::to_string(v.patch);
    return text;
}

std::optional<Version> parseVersion(const std::string &text)
{
    std::string t = text;
    if (!t.empty() && (t[0] == 'v' || t[0] == 'V'))
        t.erase(0, 1);
    int parts[3] = {0, 0, 0};
    std::size_t part = 0;
    std::size_t digits = 0;
    for (char c : t) {
        if (c == '.') {
            if (digits == 0 || ++part > 2)
                return std::nullopt;
            digits = 0;
        } else if (c >= '0' && c <= '9' && digits < 6) {
            parts[part] = parts[part] * 10 + (c - '0');
            ++digits;
        } else {
            return std::nullopt;
        }
    }
    if (digits == 0 || part == 0)
        return std::nullopt;
    return Version{parts[0], parts[1], parts[2]};
}

std::string libraryVersionsText(const LibraryVersions &versions)
{
    std::string text;
    for (const LibraryInfo &info : allLibraries())
        if (const auto &v = versions.of(info.library))
            text += (text.empty() ? "" : ",") + std::string(info.id) + "=" + versionText(*v);
    return text;
}

namespace {

Message notARelease(const std::string &text, const char *example)
{
    return {"Message", QT_TRANSLATE_NOOP("Message", "'%1' is not a release number like %2 (or current)"),
            {text, example}};
}

} // namespace

std::optional<Message> releaseProblem(const std::string &text, const char *example)
{
    if (text.empty() || text == "current" || parseVersion(text))
        return std::nullopt;
    return notARelease(text, example);
}

std::optional<LibraryVersions> parseLibraryVersions(const std::string &text, std::optional<Message> &problem)
{
    problem.reset();
    LibraryVersions versions;
    std::istringstream in(text);
    std::string entry;
    while (std::getline(in, entry, ',')) {
        const auto trim = [](std::string s) {
            s.erase(0, s.find_first_not_of(" \t"));
            s.erase(s.find_last_not_of(" \t") + 1);
            return s;
        };
        entry = trim(entry);
        if (entry.empty())
            continue;
        const std::size_t eq = entry.find('=');
        const std::string id = trim(entry.substr(0, eq));
        const auto library = parseById(allLibraries(), &LibraryInfo::library, id);
        if (eq == std::string::npos || !library) {
            std::string known;
            for (const LibraryInfo &info : allLibraries())
                known += (known.empty() ? "" : ", ") + std::string(info.id);
            problem = Message{"Message", QT_TRANSLATE_NOOP("Message", "'%1' is not LIBRARY=VERSION with a library of %2"),
                              {entry, known}};
            return std::nullopt;
        }
        const std::string value = trim(entry.substr(eq + 1));
        if (value == "current") {
            versions.set(*library, std::nullopt);
            continue;
        }
        const auto version = parseVersion(value);
        if (!version) {
            problem = notARelease(value, "4.44");
            return std::nullopt;
        }
        versions.set(*library, version);
    }
    return versions;
}

} // namespace core
