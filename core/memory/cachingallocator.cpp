#include "core/memory/cachingallocator.h"

#include <algorithm>

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

/// The free blocks of one pool, by size: a sorted vector (a model's load
/// leaves at most a few hundred).
class FreeBlocks
{
public:
    /// Takes the smallest block of at least `size`; 0 when there is none.
    std::uint64_t takeBestFit(std::uint64_t size)
    {
        const auto best = std::lower_bound(m_sizes.begin(), m_sizes.end(), size);
        if (best == m_sizes.end())
            return 0;
        const std::uint64_t block = *best;
        m_sizes.erase(best);
        return block;
    }
    void put(std::uint64_t size) { m_sizes.insert(std::upper_bound(m_sizes.begin(), m_sizes.end(), size), size); }

private:
    std::vector<std::uint64_t> m_sizes;
};

} // namespace

std::uint64_t cachingAllocatorReserved(const std::vector<std::uint64_t> &requests)
{
    // Nothing is freed, so blocks never merge and a free block is known by
    // its size alone.
    FreeBlocks smallPool;
    FreeBlocks largePool;
    std::uint64_t reserved = 0;
    for (const std::uint64_t request : requests) {
        const std::uint64_t size = request < kMinBlockSize ? kMinBlockSize : roundUp(request, kMinBlockSize);
        const bool small = size <= kSmallSize;
        FreeBlocks &pool = small ? smallPool : largePool;
        std::uint64_t block = pool.takeBestFit(size);
        if (block == 0) {
            block = segmentFor(size);
            reserved += block;
        }
        const std::uint64_t remaining = block - size;
        if (small ? remaining >= kMinBlockSize : remaining > kSmallSize)
            pool.put(remaining);
    }
    return reserved;
}

} // namespace core
