#pragma once

// The tensors one rank of a PyTorch serving engine allocates for its
// weights, in the order its model classes build them: what PyTorch's
// caching allocator (cachingallocator.h) is asked for while a model loads.

#include "core/memory/formula.h"
#include "core/model/modelspec.h"

#include <cstdint>
#include <vector>

namespace core {

/// The layers' linear tensors (attention, MLP, experts): the ones a
/// quantised checkpoint stores in its format; routers, norms and
/// embeddings are not.
bool isLayerLinear(TensorRole role);

/// One rank's part of the model and the bytes its tensors store.
struct RankTensors
{
    int tp = 1;
    int ep = 1;                 ///< expert-parallel ranks: each holds 1 / (tp x ep) of the experts
    std::uint64_t layers = 0;   ///< decoder layers on this rank, from the first or to the last
    bool first = true;          ///< the first pipeline stage: the embeddings and layer 0
    bool last = true;           ///< the last: the final norm and lm_head
    /// Bytes per parameter of a quantised tensor: its format's value; and
    /// of its scales and zero-points, which the loader allocates as a
    /// tensor of their own after it (0 for formats without).
    double quantizedBytes = 2;
    double scaleBytes = 0;
    double otherBytes = 2;      ///< of every other tensor
    /// Which of the layers' linear tensors the format holds: the
    /// QuantTarget bits the checkpoint names, or 0 for every one (only the
    /// experts where `expertsOnly`: gpt-oss's MXFP4).
    std::uint64_t quantizedTargets = 0;
    bool expertsOnly = false;
    /// A buffer the first layer's attention builds after its projections
    /// (the rotary cos/sin cache), 0 for none.
    std::uint64_t attentionBuffer = 0;
};

/// The bytes of each tensor the rank allocates, in order, as SGLang's model
/// classes construct them (models/llama.py and qwen3_moe.py at
/// v0.4.9.post2: the attention, the MLP, then the two layer norms): the
/// embeddings, then layer by layer its token mixer and its MLP in
/// enumerateTensors' order and its norms, with q, k and v fused
/// into one tensor (QKVParallelLinear), gate and up into one
/// (MergedColumnParallelLinear), MLA's q_a_proj and kv_a_proj_with_mqa into
/// one (fused_qkv_a_proj_with_mqa) and a layer's routed experts into one
/// w13 and one w2 (FusedMoE), each quantised tensor followed by its scales;
/// then the final norm and lm_head. Each tensor is the rank's part of it
/// (tpSplitOf; the experts over the TP and EP ranks). Each pipeline stage
/// builds its own rotary cache. The layers of a scope (the dense and the MoE
/// ones, the attention and the linear ones) are spread evenly over the
/// model's layers.
std::vector<std::uint64_t> rankWeightTensors(const ModelSpec &model, const std::vector<TensorGroup> &tensors,
                                             const RankTensors &rank);

/// The bytes PyTorch's caching allocator holds beyond those tensors (and
/// the rank's attention buffer) once they are allocated and the cache is
/// emptied: cachingAllocatorReserved of rankWeightTensors, less the
/// tensors.
Derived segmentTails(const ModelSpec &model, const std::vector<TensorGroup> &tensors, const RankTensors &rank,
                     FormulaStore *store = nullptr);

/// The rotary cos/sin cache a serving engine's attention builds once per
/// rotary shape: max_position_embeddings x the rotated dimensions x
/// `valueBytes` (4: SGLang's fp32; the model's dtype: vLLM's); 0 for a
/// model without RoPE (learned positions, no attention) or without a
/// stated length. `source` names the engine's file.
Derived rotaryCache(const ModelSpec &model, double valueBytes, const char *source, FormulaStore *store = nullptr);

} // namespace core
