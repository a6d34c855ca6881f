#pragma once

// TensorRT-LLM's KV pool: how much memory its PyTorch backend gives the
// pool and how many tokens that holds, read from
// tensorrt_llm/_torch/pyexecutor/_util.py (KvCacheCreator) and
// resource_manager.py (KVCacheManager) at main 0004396 and 001541b, with
// the 1.1.0rc3 logs where they differ.

#include <cstdint>

namespace core {

/// The bytes the pool gets (_cal_max_memory): free_gpu_memory_fraction of
/// the card's total less the profile's peak (torch's peak allocation and
/// everything held outside torch: the CUDA context, NCCL, the all-reduce
/// workspace, CUDA graphs and the temporary pool the profile ran with),
/// the temporary pool added back.
double trtllmPoolBytes(double totalBytes, double peakBytes, double temporaryPoolBytes, double fraction);

/// The tokens those bytes hold in whole blocks of `blockTokens`
/// (calculate_max_num_blocks: int(max_tokens // tokens_per_block) from
/// 1.2.0rc5; before it math.ceil, one block more at most: `roundUp`).
std::uint64_t trtllmPoolTokens(double poolBytes, double tokenBytes, std::uint64_t blockTokens, bool roundUp);

} // namespace core
