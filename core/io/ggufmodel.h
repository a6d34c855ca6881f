#pragma once

#include "core/base/loadresult.h"
#include "core/model/modelspec.h"
#include "core/model/weightinventory.h"

namespace core::io {

/// The architecture a GGUF file's llama.cpp metadata describes
/// (`<arch>.block_count`, `.embedding_length`, `.attention.head_count` ...),
/// for the architectures ModelSpec can hold: llama (also Mistral and
/// Mixtral), qwen2, qwen2moe, qwen3, qwen3moe, gemma, gemma2, gemma3, phi3,
/// gpt-oss, command-r, cohere2, olmo2 (OLMo 2 and 3), minimax-m2, deepseek2
/// (multi-head latent attention, with or without low-rank queries, in the
/// older decompressed and the newer latent-cache layout), qwen3next (Gated
/// DeltaNet layers between gated attention layers) and nemotron_h /
/// nemotron_h_moe (Mamba-2, attention and MLP blocks, told apart by the
/// per-layer head_count_kv and feed_forward_length). Each is read with the
/// keys and tensor shapes llama.cpp's loader uses (src/llama-model.cpp
/// load_hparams, load_tensors). What the metadata leaves out is read from
/// the tensors: vocabulary and learned positions from their shapes, tied
/// embeddings from a missing output.weight, biases, q/k norms (one head or
/// the whole projection wide), router biases, attention sinks and norms per
/// layer from the tensors of the layers.
///
/// Warnings say exactly what was guessed ("assumed: ...") and which
/// `<arch>.*` keys and tensors the model leaves out ("ignored: ...").
/// Another architecture is read with the same keys and a warning. One that
/// ModelSpec cannot describe (latent attention or state-space layers outside
/// the architectures above, RWKV, per-layer widths, multi-token-prediction
/// layers inside block_count) is an error naming the architecture and what
/// is missing, never a wrong shape. Messages start with the metadata key
/// (or tensor) they concern. The parameters are not matched to the file's
/// elements; the caller compares them.
LoadResult<ModelSpec> modelFromGguf(const WeightInventory &inventory);

} // namespace core::io
