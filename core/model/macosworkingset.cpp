#include "core/model/macosworkingset.h"

#include <cctype>
#include <cmath>

namespace core {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Published readings (Apple's "GB" of unified memory are GiB):
// macOS 13 to 15, 2/3 up to 32 GiB and 3/4 from 36 GiB: ollama/ollama#434
// (21845.34 MiB of 32), ggml-org/llama.cpp#3213 (73728 MiB of 96),
// ggml-org/llama.cpp#1870 (49152 MiB of 64), intel/LibXPUInfo#25 (73728 MB
// of 96 on macOS 15.0), exo-explore/exo#1672 (10.67 GB of 16 on macOS
// 15.6), mozilla-ai/llamafile#42 (5461.34 MB of 8), llama.cpp logs of 36
// and 128 GiB Macs (27.00 and 96.00 GiB).
// macOS 26: 74 % to 24 GiB (AlexsJones/llmfit#754, 11.84 GB of 16;
// ollama/ollama#14604; sgl-project/sglang#29949, 17.76 GiB of 24), 78 %
// to 48 GiB (llama.cpp logs on macOS 26: 26800.60 MB of 32, 30150.67 MB of
// 36, 40200.90 MB of 48), 81 % at 64 GiB (55662.79 MB), 84 % at 128 GiB
// (antirez/ds4#893, 107.52 GiB stock; osaurus-ai/osaurus#1958).
constexpr double kReadBeforeTahoe[] = {8, 16, 32, 36, 64, 96, 128};
constexpr double kReadOnTahoe[] = {16, 18, 24, 32, 36, 48, 64, 128};

struct Tier
{
    double upToGiB; ///< the tier holds memory sizes up to this
    double share;
};

constexpr Tier kTahoeTiers[] = {{24, 0.74}, {48, 0.78}, {127.9, 0.81}, {128, 0.84}};

template <std::size_t N>
bool readAt(const double (&sizes)[N], double gib)
{
    for (double size : sizes)
        if (std::abs(size - gib) < 0.5)
            return true;
    return false;
}

} // namespace

MacosWorkingSet macosWorkingSet(Bytes memory, int release)
{
    const double gib = static_cast<double>(memory.count()) / kGiB;
    const double beforeTahoe = gib <= 32.0 ? 2.0 / 3.0 : 0.75;
    if (release < 26)
        return {beforeTahoe, readAt(kReadBeforeTahoe, gib)};
    if (gib < 15.5 || gib > 128.5)
        return {beforeTahoe, false};
    for (const Tier &t : kTahoeTiers)
        if (gib <= t.upToGiB)
            return {t.share, readAt(kReadOnTahoe, gib)};
    return {0.84, readAt(kReadOnTahoe, gib)};
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
    if (digits == 0 || major < 13 || (major > 15 && major < 26) || major > 99)
        return std::nullopt;
    // Minor and patch numbers: ".6", ".6.1".
    for (; i < text.size(); ++i)
        if (text[i] != '.' && !std::isdigit(static_cast<unsigned char>(text[i])))
            return std::nullopt;
    return major;
}

} // namespace core
