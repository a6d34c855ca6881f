#pragma once

#include "core/memory/formula.h"
#include "core/model/modelspec.h"
#include "core/scenario/scenario.h"

#include <cstdint>

namespace core {

/// How llama.cpp lays out an inference scenario, as its llama_context
/// constructor and llama_model::load_tensors decide (llama.cpp ec98e2002).
/// The scenario's batch is llama-server's --parallel: one KV stream per
/// sequence (kv_unified off), each of the scenario's context.
struct LlamaCppLayout
{
    std::uint64_t sequences = 1;    ///< n_seq_max
    std::uint64_t cells = 256;      ///< n_ctx_seq: the context rounded up to 256 (GGML_PAD)
    std::uint64_t slidingCells = 0; ///< a sliding-window layer's cells: PAD256(min(n_ctx_seq, n_swa + n_ubatch))
    std::uint64_t ubatch = 512;     ///< min(-ub, n_batch), n_batch = min(n_ctx, 2048)
    std::uint64_t gpuLayers = 0;    ///< repeating layers on the GPUs: the last min(-ngl - 1, L)
    bool outputOnGpu = true;        ///< -ngl 1 or more: the output layer goes first
    bool flash = true;              ///< -fa: auto resolves to on; eager attention is -fa off
    std::uint64_t cpuMoeLayers = 0; ///< --n-cpu-moe: layers 0..N-1 keep their routed experts on the CPU
};
LlamaCppLayout llamaCppLayout(const Scenario &s);

/// One GPU's part of a llama.cpp split (--split-mode layer, equal free
/// memory on every GPU): the GPU layers in order, the output layer as one
/// more unit, unit u on device floor(u x gpus / units) (load_tensors'
/// upper_bound over the cumulative split).
struct LlamaCppShare
{
    std::uint64_t firstLayer = 0; ///< index of this GPU's first layer
    std::uint64_t layers = 0;
    bool output = false;
};
LlamaCppShare llamaCppShare(const Scenario &s, const LlamaCppLayout &layout, int device);

/// Weight bytes one GPU allocates: its layers (less the routed experts that
/// --n-cpu-moe keeps on the CPU) and, on the last, the output layer. From a
/// GGUF file's tensor table when the scenario uses its bytes, else the
/// format's bytes per parameter.
Derived llamaCppGpuWeights(const Scenario &s, const ParameterCounts &params, double modelWeightBytes,
                           const LlamaCppShare &share, FormulaStore *store = nullptr);

/// The KV cache and recurrent state of `layers` layers: per stream,
/// n_ctx_seq cells of a K row and a V row per layer (sliding-window layers
/// fewer cells), and f32 state per sequence in recurrent layers.
Derived llamaCppKvCache(const Scenario &s, const LlamaCppLayout &layout, std::uint64_t layers,
                        FormulaStore *store = nullptr);

/// The compute buffer's peak inside a layer: the attention scores (or the
/// flash-attention mask) or the MLP, whichever is larger.
Derived llamaCppLayerCompute(const Scenario &s, const LlamaCppLayout &layout, FormulaStore *store = nullptr);

/// The compute buffer's peak at the output layer: f32 logits of every
/// micro-batch token (the reserve asks for n_outputs = n_ubatch).
Derived llamaCppOutputCompute(const Scenario &s, const LlamaCppLayout &layout, FormulaStore *store = nullptr);

/// Host memory the llama.cpp process needs beside the GPUs.
struct LlamaCppHost
{
    /// weights left on the CPU: the mapped token_embd, CPU layers, CPU
    /// experts, a CPU output layer, and the CPU backend's copies of them
    double weights = 0;
    double repacked = 0; ///< of `weights`, the CPU backend's copies (CPU_REPACK, AMX buffers)
    double input = 0;   ///< of `weights`, token_embd (a step reads only its tokens' rows)
    double experts = 0; ///< of `weights`, the routed experts (--n-cpu-moe and CPU layers)
    double compute = 0; ///< the host compute buffer
    double output = 0;  ///< the output buffer: one f32 logits row per sequence
    double kvCache = 0; ///< the KV cache of CPU layers (all with --no-kv-offload)
    double total() const { return weights + compute + output + kvCache; }
};
LlamaCppHost llamaCppHost(const Scenario &s, const ParameterCounts &params, double modelWeightBytes,
                          const LlamaCppLayout &layout);

/// Bytes of routed experts among one GPU's weights.
double llamaCppGpuExpertBytes(const Scenario &s, const ParameterCounts &params, double modelWeightBytes,
                              const LlamaCppShare &share);

} // namespace core
