#pragma once

#include "core/memory/formula.h"
#include "core/scenario/scenario.h"

namespace core {

/// The CUDA context term: `Scenario::effectiveCudaOverheadMib` in bytes.
Quantity cudaOverhead(const Scenario &scenario, FormulaStore *store = nullptr);

/// NCCL communicator buffers per GPU when more than one GPU talks:
/// NCCL_BUFFSIZE (4 MiB, NCCL environment docs) per channel, send and
/// receive, for up to 32 channels and two protocols: 4 x 2 x 32 x 2 = 512 MiB.
/// Invisible to PyTorch's allocator (PyTorch CUDA memory docs).
/// With a runtime that keeps its own all-reduce workspace (TensorRT-LLM)
/// and tensor parallelism, that workspace beside them. A runtime that
/// connects its communicators before it measures
/// (RuntimeBehaviour::eagerNcclCommunicators: SGLang) holds what NCCL's
/// source allocates for each of them on the scenario's card
/// (Scenario::servingCard's link), and its custom all-reduce buffers.
/// `stages`: the pipeline the GPUs form (the scenario's pp, or for
/// inference without tp or pp one stage a GPU).
Quantity commBuffers(const Scenario &scenario, int stages, FormulaStore *store = nullptr);

} // namespace core
