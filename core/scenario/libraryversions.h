#pragma once

// The library releases a scenario runs: one set for every stack and
// runtime. A release sets the defaults its library had then (the version
// rules of stack.cpp); a library left unset is its current release.

#include "core/base/message.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace core {

enum class Library { Transformers, Peft, Accelerate, Bitsandbytes, Torch, Torchtune, LitGpt, Vllm, Sglang, Trtllm, Count };

struct LibraryInfo
{
    Library library;
    const char *id;   ///< "transformers": CLI and file spelling
    const char *name; ///< "PyTorch"
};
const std::vector<LibraryInfo> &allLibraries();
const LibraryInfo &libraryInfo(Library library);

/// A release number: 4.44, 0.43.2.
struct Version
{
    int major = 0;
    int minor = 0;
    int patch = 0;

    bool operator<(const Version &o) const
    {
        return major != o.major ? major < o.major : minor != o.minor ? minor < o.minor : patch < o.patch;
    }
    bool operator>=(const Version &o) const { return !(*this < o); }
    bool operator==(const Version &o) const { return major == o.major && minor == o.minor && patch == o.patch; }
};
/// "4.44", "0.43.2": the patch only where it is not zero.
std::string versionText(const Version &version);
/// "4.44", "2.3.1", "v0.43.2"; nullopt for anything else.
std::optional<Version> parseVersion(const std::string &text);

class LibraryVersions
{
public:
    /// The release set for `library`; nullopt: its current release.
    const std::optional<Version> &of(Library library) const { return m_versions[index(library)]; }
    void set(Library library, std::optional<Version> version)
    {
        m_versions[index(library)] = version;
        m_allCurrent = std::none_of(m_versions.begin(), m_versions.end(), [](const auto &v) { return v.has_value(); });
    }
    /// Every library at its current release (the estimate asks this often).
    bool allCurrent() const { return m_allCurrent; }
    /// Whether `library` runs `since` or later (its current release does).
    bool atLeast(Library library, const Version &since) const
    {
        const std::optional<Version> &v = of(library);
        return !v || *v >= since;
    }
    bool operator==(const LibraryVersions &o) const { return m_versions == o.m_versions; }
    bool operator!=(const LibraryVersions &o) const { return !(*this == o); }

private:
    static std::size_t index(Library library) { return static_cast<std::size_t>(library); }
    std::array<std::optional<Version>, static_cast<std::size_t>(Library::Count)> m_versions{};
    bool m_allCurrent = true;
};

/// A release field's check: empty or "current" (the current release), or
/// a release number like `example`; nullopt when fine.
std::optional<Message> releaseProblem(const std::string &text, const char *example);

/// "transformers=4.44,torch=2.3": the libraries set, in the table's order;
/// empty when every library is current.
std::string libraryVersionsText(const LibraryVersions &versions);
/// Reads "transformers=4.44, torch=2.3" ("current" unsets one); nullopt
/// with `problem` naming the entry that is not a known library and version.
std::optional<LibraryVersions> parseLibraryVersions(const std::string &text, std::optional<Message> &problem);

} // namespace core
