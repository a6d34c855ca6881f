#pragma once

// PyTorch's CUDA caching allocator as a sequence of kept allocations leaves
// it: c10/cuda/CUDACachingAllocator.cpp (round_size, get_pool,
// get_allocation_size, get_free_block, should_split), with the default
// configuration (no expandable segments, no max_split_size). Read at
// pytorch/pytorch 001074d2; PyTorch's NPU and XPU ports keep the same rules.

#include <cstdint>
#include <vector>

namespace core {

/// The bytes the allocator holds from the driver once every request of
/// `requests` (bytes, in order) is allocated and none is freed, so that
/// torch.cuda.empty_cache() returns nothing. Each request is rounded up to
/// 512 B; requests up to 1 MiB share 2 MiB segments, larger ones take the
/// smallest free block that holds them, else a new segment: 20 MiB for a
/// request under 10 MiB, else the request rounded up to 2 MiB. A block is
/// split when what is left is at least 512 B (small) or over 1 MiB (large);
/// the rest of an unsplit block stays with it.
std::uint64_t cachingAllocatorReserved(const std::vector<std::uint64_t> &requests);

} // namespace core
