#pragma once

#include "core/io/loadresult.h"
#include "core/modelspec.h"
#include "core/weightinventory.h"

namespace core::io {

/// The architecture a GGUF file's llama.cpp metadata describes
/// (`<arch>.block_count`, `.embedding_length`, `.attention.head_count` ...),
/// for the architectures ModelSpec can hold: llama (also Mistral and
/// Mixtral), qwen2, qwen2moe, qwen3, qwen3moe, gemma, gemma2, gemma3, phi3,
/// gpt-oss, command-r and cohere2. What the metadata leaves out is read from
/// the tensors: vocabulary and learned positions from their shapes, tied
/// embeddings from a missing output.weight, biases, q/k norms, attention
/// sinks and norms per layer from the tensors of the layers.
///
/// Warnings say exactly what was guessed ("assumed: ...") and which
/// `<arch>.*` keys and tensors the model leaves out ("ignored: ...").
/// Another architecture is read with the same keys and a warning. One that
/// ModelSpec cannot describe (latent attention, state-space, recurrent or
/// linear-attention layers, per-layer widths) is an error naming the
/// architecture and what is missing, never a wrong shape. Messages start
/// with the metadata key they concern. The parameters are not matched to
/// the file's elements; the caller compares them.
LoadResult<ModelSpec> modelFromGguf(const WeightInventory &inventory);

} // namespace core::io
