#pragma once

#include "core/memory/formula.h"
#include "core/model/modelspec.h"
#include "core/scenario/scenario.h"

#include <cstdint>

namespace core {

/// Inference that keeps weights in host memory and runs them on the GPU,
/// copying them over the host link as they run (llama.cpp, which runs its
/// host layers on the CPU, is core/memory/llamacpp.h):
/// - generate() with `--gpu-layers N` (N <= L): accelerate's device_map
///   fills the GPUs in module order (the embedding, then layers 0..N-1) and
///   places the rest, the lm_head last, on "cpu"; dispatch_model runs those
///   on the main GPU, copying one module's weights there before its forward
///   and freeing them after (AlignDevicesHook with offload=True). Their KV
///   cache and activations are the main GPU's.
/// - vLLM `--cpu-offload-gb B`: each worker moves its decoder layers'
///   parameters to pinned host memory, the first layers first, until B GiB
///   are moved; the kernels read them there through a UVA view.

/// Decoder layers device_map keeps on the GPUs: N when offloading, else L.
std::uint64_t deviceMapGpuLayers(const Scenario &s);

/// Bytes per parameter of the weights as a format stores them: of an
/// average decoder layer (experts included), of the lm_head, of the routed
/// experts. One width for all where every parameter costs the same.
struct WeightWidths
{
    double layer = 0;
    double lmHead = 0;
    double experts = 0;
};

/// Parameters of an average decoder layer: all that is neither embedding
/// nor lm_head (the final norm spread over the layers).
double averageLayerParams(const ModelSpec &m, const ParameterCounts &pc);
/// Bytes device_map keeps in host memory: layers N..L-1 and the lm_head.
double deviceMapHostBytes(const Scenario &s, const ParameterCounts &pc, const WeightWidths &widths);

/// vLLM: the weight bytes one GPU keeps in host memory, its
/// --cpu-offload-gb budget capped at its decoder layers' bytes.
Derived vllmOffloadedBytes(const Scenario &s, double layerBytesHere, FormulaStore *store = nullptr);

} // namespace core
