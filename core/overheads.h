#pragma once

#include "core/formula.h"
#include "core/scenario.h"

namespace core {

/// CUDA context plus the libraries' first-use allocations, MiB per GPU.
///  Lazy module loading (default since CUDA 11.7 / PyTorch 1.13, PyTorch PR
///  #86509): the context measured 287,047,680 B for a small tensor; with
///  cuBLAS/cuDNN handles and workspaces loaded on first use we plan 512 MiB.
///  Eager loading (older stacks): 1343 MiB measured on a V100 by the Hugging
///  Face "Model training anatomy" doc (seed fact S11).
double cudaOverheadMib(const Scenario &scenario);

/// The CUDA context term: `cudaOverheadMib` in bytes.
Quantity cudaOverhead(const Scenario &scenario, FormulaStore *store = nullptr);

/// NCCL communicator buffers per GPU when more than one GPU talks:
/// NCCL_BUFFSIZE (4 MiB, NCCL environment docs) per channel, send and
/// receive, for up to 32 channels and two protocols: 4 x 2 x 32 x 2 = 512 MiB.
/// Invisible to PyTorch's allocator (PyTorch CUDA memory docs).
Quantity ncclBuffers(int gpus, FormulaStore *store = nullptr);

} // namespace core
