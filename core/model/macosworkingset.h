#pragma once

// How much of a Mac's unified memory its GPU may use: Metal's
// MTLDevice.recommendedMaxWorkingSetSize, the limit llama.cpp, MLX and
// PyTorch's MPS size against, by macOS release. Apple publishes no rule;
// the shares below are the readings people published, cited in
// macosworkingset.cpp.

#include "core/base/units.h"

#include <optional>
#include <string>

namespace core {

/// The share of `memory` Metal reports as the working set on macOS
/// `release` (13 to 15 alike, 26 its own), and whether a published reading
/// of that size and release stands behind it (false: the nearest tier's
/// share, the lower where it falls between two).
struct MacosWorkingSet
{
    double share = 0;
    bool read = false;
    const char *source = "";
};
MacosWorkingSet macosWorkingSet(Bytes memory, int release);

/// The working set in bytes: memory x share, as Metal reports it.
Bytes macosWorkingSetBytes(Bytes memory, int release);

/// "26", "15.6", "macOS 14": the major release, 13 or later; nullopt for
/// anything else (Apple silicon GPUs have a working set from macOS 13).
std::optional<int> parseMacosRelease(const std::string &text);

} // namespace core
