#include "core/memory/cachingallocator.h"

#include <set>

namespace core {

namespace {

constexpr std::uint64_t kMinBlockSize = 512;
constexpr std::uint64_t kSmallSize = 1048576;      ///< the largest "small" request: 1 MiB
constexpr std::uint64_t kSmallBuffer = 2097152;    ///< small requests share 2 MiB segments
constexpr std::uint64_t kLargeBuffer = 20971520;   ///< requests of 1 to 10 MiB take 20 MiB segments
constexpr std::uint64_t kMinLargeAlloc = 10485760;
constexpr std::uint64_t kRoundLarge = 2097152;     ///< larger requests round up to 2 MiB

std::uint64_t roundUp(std::uint64_t bytes, std::uint64_t step)
{
    return (bytes + step - 1) / step * step;
}

std::uint64_t segmentFor(std::uint64_t size)
{
    if (size <= kSmallSize)
        return kSmallBuffer;
    if (size < kMinLargeAlloc)
        return kLargeBuffer;
    return roundUp(size, kRoundLarge);
}

} // namespace

std::uint64_t cachingAllocatorReserved(const std::vector<std::uint64_t> &requests)
{
    // Nothing is freed, so blocks never merge and a free block is known by
    // its size alone: the pools are multisets of free sizes.
    std::multiset<std::uint64_t> smallPool;
    std::multiset<std::uint64_t> largePool;
    std::uint64_t reserved = 0;
    for (const std::uint64_t request : requests) {
        const std::uint64_t size = request < kMinBlockSize ? kMinBlockSize : roundUp(request, kMinBlockSize);
        const bool small = size <= kSmallSize;
        std::multiset<std::uint64_t> &pool = small ? smallPool : largePool;
        std::uint64_t block = 0;
        if (const auto best = pool.lower_bound(size); best != pool.end()) {
            block = *best;
            pool.erase(best);
        } else {
            block = segmentFor(size);
            reserved += block;
        }
        const std::uint64_t remaining = block - size;
        if (small ? remaining >= kMinBlockSize : remaining > kSmallSize)
            pool.insert(remaining);
    }
    return reserved;
}

} // namespace core
