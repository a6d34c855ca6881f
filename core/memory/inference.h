#pragma once

#include "core/memory/formula.h"
#include "core/model/layerkinds.h"
#include "core/model/modelspec.h"
#include "core/scenario/scenario.h"
#include "core/scenario/servingruntime.h"

#include <cstdint>

namespace core {

/// Tokens one cache group keeps, summed over its layers: full-attention
/// layers keep the whole context, sliding-window layers at most their
/// window (Beltagy et al. 2020, Longformer §3.1; Mistral 7B, Jiang et al.
/// 2023 §2 "rolling buffer cache").
Derived cachedLayerTokens(const CacheGroup &group, std::uint64_t context, FormulaStore *store = nullptr);

/// Values one token caches in one softmax-attention layer of `attention`'s
/// heads on a rank: K and V of the key-value heads; for multi-head latent
/// attention the latent and the shared RoPE key where the engine caches
/// them (vLLM), or every head's rebuilt key and value (Hugging Face generate).
Derived cachedValuesPerLayerToken(const ModelSpec &model, const AttentionShape &attention,
                                  const RuntimeBehaviour &runtime, double tp, FormulaStore *store = nullptr);

/// The symbols of one attention-cache term: the model's own or a draft's.
struct CacheTerm
{
    const char *part;      ///< the product's name where all layers cache one width
    const Symbol *values;  ///< values per layer and token
    const Symbol *tokens;  ///< layer-tokens cached
};

/// Bytes of the dtype a torch engine computes, and caches in unless told
/// otherwise: the weights' float format, else 16-bit.
double computeDtypeBytes(const Scenario &scenario);

/// Adds to `kv` the KV cache of the softmax-attention layers among `layers`
/// of `model` (a share of its layers) for the scenario's rows and context:
/// values per layer-token x element bytes x layer-tokens x rows, one
/// product per cache group (layers of other heads cache other widths).
/// Returns the bytes one token adds over those layers.
double addAttentionCache(Formula &kv, const Scenario &scenario, const ModelSpec &model, std::uint64_t layers,
                         double tp, double kvElementBytes, const CacheTerm &term, FormulaStore *store = nullptr);

/// Bytes of the fixed-size state one sequence keeps in the linear-attention
/// and Mamba-2 layers among `layers` (Gated DeltaNet: convolution and
/// recurrent state; Mamba-2: convolution and SSM state). `elementBytes` is
/// the model's dtype: neither engine stores these states in the KV-cache dtype.
Derived linearStatePerSequence(const ModelSpec &model, const RuntimeBehaviour &runtime, std::uint64_t layers,
                               double tp, double elementBytes, FormulaStore *store = nullptr);

/// One layer's temporaries on one tensor-parallel rank during a prefill of
/// `batch` x `sequence` tokens, with no autograd: the residual stream,
/// Q/K/V, the attention scores for eager attention, and the MLP
/// intermediates.
Derived prefillWorkspace(const ModelSpec &model, const Scenario &scenario, double elementBytes,
                         FormulaStore *store = nullptr);

/// vLLM's profiled activation peak, in its two moments (vllm/v1/worker
/// gpu_model_runner.py profile_run): the dummy forward of
/// max_num_batched_tokens tokens, and the sampler warm-up on
/// min(max_num_batched_tokens, max_num_seqs) rows that follows it.
struct VllmProfile
{
    Derived forward; ///< one layer's intermediates at the token budget
    Derived sampler; ///< the logits rows through top-k/top-p, plus the kept hidden states
    double samplerRows = 0;
};
VllmProfile vllmProfile(const ModelSpec &model, const Scenario &scenario, double elementBytes,
                        FormulaStore *store = nullptr);

} // namespace core
