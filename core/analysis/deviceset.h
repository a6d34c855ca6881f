#pragma once

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"

namespace core {

/// The scenario as its mixed device set runs it. llama.cpp with no
/// --tensor-split divides the layers in proportion to each device's free
/// memory (llama-model.cpp, load_tensors: "default split, by free memory",
/// ggml_backend_dev_memory), which is its usable memory less the CUDA
/// context every device holds before the model loads. Other engines and
/// scenarios without `devices` come back unchanged.
Scenario withDeviceSplit(const Scenario &scenario, const Catalog &catalog);

/// Each device of `scenario.devices` with its own share's estimate and its
/// fit against its own memory. Unknown ids give errors naming them.
/// - llama.cpp: every device holds its layers of the split.
/// - Tensor, pipeline and data parallelism give every rank of a stage the
///   same share whatever its memory, so the smallest device bounds them.
/// - vLLM allocates the same number of KV blocks on every worker: the
///   smallest of the workers' pools (vllm/executor/executor_base.py,
///   determine_num_available_blocks: "we take the minimum number of blocks
///   across all workers"; v1 unifies the workers' KV cache configs the same
///   way).
DeviceSetFit fitDeviceSet(const Scenario &scenario, const Catalog &catalog);

} // namespace core
