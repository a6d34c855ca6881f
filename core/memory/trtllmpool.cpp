#include "core/memory/trtllmpool.h"

#include <algorithm>
#include <cmath>

namespace core {

double trtllmPoolBytes(double totalBytes, double peakBytes, double temporaryPoolBytes, double fraction)
{
    return std::max(0.0, (totalBytes - peakBytes + temporaryPoolBytes) * fraction);
}

std::uint64_t trtllmPoolTokens(double poolBytes, double tokenBytes, std::uint64_t blockTokens, bool roundUp)
{
    if (poolBytes <= 0 || tokenBytes <= 0 || blockTokens == 0)
        return 0;
    const double tokens = std::floor(poolBytes / tokenBytes);
    const double perBlock = static_cast<double>(blockTokens);
    const double blocks = roundUp ? std::ceil(tokens / perBlock) : std::floor(tokens / perBlock);
    return static_cast<std::uint64_t>(blocks) * blockTokens;
}

} // namespace core
