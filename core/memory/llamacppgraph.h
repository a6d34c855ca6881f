#pragma once

#include "core/memory/llamacpp.h"

#include <optional>

namespace core {

/// The compute buffer llama.cpp's CPU backend reserves when every layer and
/// the output run on the CPU: ggml-alloc replayed (ggmlalloc.h) over the
/// graph llama.cpp builds for one micro-batch, every token an output
/// (llama_context::graph_reserve). The graph is the one of the llama,
/// mistral, qwen2 and qwen3 families (src/models/llama.cpp, qwen2.cpp,
/// qwen3.cpp; llama-graph.cpp build_attn, build_ffn; llama-kv-cache.cpp
/// cpy_k, cpy_v and the Hadamard rotation of quantised caches, llama.cpp
/// 0.4.0); nullopt for any other graph.
std::optional<double> llamaCppCpuComputeBuffer(const Scenario &s, const LlamaCppLayout &layout);

} // namespace core
