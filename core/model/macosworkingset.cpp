#include "core/model/macosworkingset.h"

#include <cctype>
#include <cmath>

namespace core {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// macOS 13 to 15: 2/3 up to 32 GiB, 3/4 from 36 GiB.
constexpr const char *kBeforeTahoe =
    "llama.cpp ggml_metal_init readings: 2/3 on 8, 16 and 32 GB (ollama/ollama#434: 21845.34 MiB of 32 GB; "
    "exo-explore/exo#1672: 10.67 GB of 16 GB on macOS 15.6), 3/4 from 36 GB (ggml-org/llama.cpp#3213: 73728 MiB of "
    "96 GB; ggml-org/llama.cpp#1870: 49152 MiB of 64 GB; intel/LibXPUInfo#25: 73728 MB of 96 GB on macOS 15.0)";
/// macOS 26 (Tahoe): tiers by memory size.
constexpr const char *kTahoe =
    "macOS 26 readings: 74 % to 24 GB (AlexsJones/llmfit#754: 11.84 GB of 16 GB; ollama/ollama#14604: 12123 MiB "
    "free of 16 GB; sgl-project/sglang#29949: 17.76 GiB of 24 GB), 78 % to 48 GB (llama.cpp logs on macOS 26: "
    "26800.60 MB of 32 GB, 30150.67 MB of 36 GB, 40200.90 MB of 48 GB), 81 % at 64 GB (55662.79 MB), 84 % at 128 GB "
    "(antirez/ds4#893: 107.52 GiB stock; osaurus-ai/osaurus#1958)";

struct Tier
{
    double upToGiB; ///< the tier holds memory sizes up to this
    double share;
    bool read;      ///< a published reading of this size and release
};

// Sizes between two readings take the lower tier's share; none was
// published for macOS 26 under 16 GB, between 64 and 128 GB or above
// 128 GB, where the tier before macOS 26 stands.
constexpr Tier kTahoeTiers[] = {{15.9, 2.0 / 3.0, false}, {24, 0.74, true},  {48, 0.78, true},
                                {64, 0.81, true},         {127.9, 0.81, false}, {128, 0.84, true}};

} // namespace

MacosWorkingSet macosWorkingSet(Bytes memory, int release)
{
    const double gib = static_cast<double>(memory.count()) / kGiB;
    if (release < 26)
        return {gib <= 32.0 ? 2.0 / 3.0 : 0.75, true, kBeforeTahoe};
    for (const Tier &t : kTahoeTiers)
        if (gib <= t.upToGiB)
            return {t.share, t.read, kTahoe};
    return {0.75, false, kTahoe};
}

Bytes macosWorkingSetBytes(Bytes memory, int release)
{
    return Bytes::fromDouble(std::round(static_cast<double>(memory.count()) * macosWorkingSet(memory, release).share));
}

std::optional<int> parseMacosRelease(const std::string &text)
{
    std::size_t i = 0;
    const std::string prefix = "macOS";
    if (text.compare(0, prefix.size(), prefix) == 0)
        i = prefix.size();
    while (i < text.size() && text[i] == ' ')
        ++i;
    int major = 0;
    std::size_t digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 3) {
        major = major * 10 + (text[i++] - '0');
        ++digits;
    }
    if (digits == 0 || (i < text.size() && text[i] != '.') || major < 13 || (major > 15 && major < 26) || major > 99)
        return std::nullopt;
    for (++i; i < text.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(text[i])))
            return std::nullopt;
    return major;
}

} // namespace core
