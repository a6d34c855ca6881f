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
/// of that size and release stands behind it. Sizes without one take the
/// share of the tier below (macOS 26 between 64 and 128 GiB: 81 %), or
/// the share before macOS 26 where no tier of 26 is below or above (under
/// 16 GiB, over 128 GiB).
struct MacosWorkingSet
{
    double share = 0;
    bool read = false;
};
MacosWorkingSet macosWorkingSet(Bytes memory, int release);

/// The working set in bytes: memory x share, as Metal reports it.
Bytes macosWorkingSetBytes(Bytes memory, int release);

/// "26", "15.6.1", "macOS 14": the major release, 13 or later; nullopt
/// for anything else (the planner's readings start at macOS 13).
std::optional<int> parseMacosRelease(const std::string &text);

} // namespace core
