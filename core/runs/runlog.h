#pragma once

#include "core/base/loadresult.h"
#include "core/base/units.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core::runlog {

/// The printers whose output `readRunLog` understands.
enum class LogFormat {
    Vllm,               ///< vLLM's start-up memory profile and KV-cache lines
    LlamaCpp,           ///< llama.cpp / llama-server / ollama load logs
    TorchMemorySummary, ///< torch.cuda.memory_summary() text
    TorchMemoryStats,   ///< torch.cuda.memory_stats() as JSON or as a printed dict
    HfTrainer,          ///< Hugging Face Trainer memory metrics
    NvidiaSmiTable,     ///< nvidia-smi's default table
    NvidiaSmiCsv,       ///< nvidia-smi --query-gpu=... --format=csv
    Ollama,             ///< ollama's server log: its projection and the runner's command
    TorchOutOfMemory,   ///< torch's "CUDA out of memory. Tried to allocate ..." error
    Sglang,             ///< SGLang's weight-load and KV-pool lines
    Trtllm              ///< TensorRT-LLM's memory profile and paged KV-cache lines
};
/// "vllm", "llamacpp", "torch_memory_summary", ...: JSON and CLI spelling.
const char *logFormatId(LogFormat format);

/// What a log line states. Byte quantities come first; the last four are counts.
enum class Quantity {
    VllmTotalGpuMemory,    ///< total_gpu_memory: the card as torch sees it
    VllmInstanceMemory,    ///< total_gpu_memory x gpu_memory_utilization
    VllmWeights,           ///< "model weights take", "Model loading took"
    VllmNonTorch,          ///< non_torch_memory
    VllmActivationPeak,    ///< PyTorch activation peak memory
    VllmTorchPeak,         ///< peak_torch_memory: weights and activation peak (vLLM 0.6)
    VllmKvCacheMemory,     ///< the memory left for the KV cache
    VllmCudaGraphEstimate, ///< "Estimated CUDA graph memory: X GiB total" (0.17 on; taken from the pool from 0.21)
    VllmConsumed,          ///< the summary's "consumed memory (weights + non-torch)"
    VllmCudaGraphMemory,   ///< the CUDA graphs' capture, measured ("CUDAGraph memory", "(actual)")
    LlamaModelBuffer,      ///< a backend's model buffer
    LlamaKvBuffer,         ///< a backend's KV buffer
    LlamaComputeBuffer,    ///< a backend's compute buffer
    LlamaOutputBuffer,     ///< the host output buffer
    LlamaDeviceFree,       ///< free memory llama.cpp found on a device
    LlamaFitProjected,     ///< --fit: "projected to use N MiB of device memory" (all devices)
    LlamaFitDeficit,       ///< --fit: what the start misses its margins by in total
    LlamaFitContextSaving, ///< --fit: what lowering the context saves
    LlamaFitDenseOnlySurplus, ///< --fit: memory left with every routed expert on the host
    LlamaFitTarget,        ///< --fit: a device's free memory less its margin
    LlamaFitPlaced,        ///< --fit: a device's use at the layout it settled on
    TorchAllocatedCurrent, ///< allocated_bytes.all.current
    TorchAllocatedPeak,    ///< allocated_bytes.all.peak
    TorchReservedCurrent,  ///< reserved_bytes.all.current
    TorchReservedPeak,     ///< reserved_bytes.all.peak
    TorchOomRequested,     ///< out of memory: "Tried to allocate"
    TorchOomCapacity,      ///< out of memory: the GPU's total capacity
    TorchOomFree,          ///< out of memory: what the driver had free
    TorchOomAllocated,     ///< out of memory: allocated by PyTorch
    TorchOomReserved,      ///< out of memory: reserved in total by PyTorch (torch 2.0 and before)
    TorchOomUnallocated,   ///< out of memory: reserved by PyTorch but unallocated (torch 2.1 on)
    TorchOomProcessMemory, ///< out of memory: a process's memory in use (this one, or by pid)
    HfAllocDelta,          ///< <stage>_mem_gpu_alloc_delta
    HfPeakedDelta,         ///< <stage>_mem_gpu_peaked_delta
    SmiMemoryUsed,         ///< nvidia-smi memory.used of a GPU
    SmiMemoryTotal,        ///< nvidia-smi memory.total of a GPU
    SmiProcessMemory,      ///< nvidia-smi's per-process GPU memory
    OllamaRequiredFull,    ///< ollama memory.required.full: the whole model on the GPUs
    OllamaRequiredPartial, ///< memory.required.partial: the layers it offloads
    OllamaKv,              ///< memory.required.kv
    OllamaWeights,         ///< memory.weights.total
    OllamaWeightsRepeating,    ///< memory.weights.repeating: the repeated blocks
    OllamaWeightsNonRepeating, ///< memory.weights.nonrepeating: embeddings and output
    OllamaGraph,           ///< memory.graph.full
    OllamaGraphPartial,    ///< memory.graph.partial: the compute graph when only part is offloaded
    OllamaAllocation,      ///< memory.required.allocations, one per GPU
    OllamaAvailable,       ///< memory.available, one per GPU
    SglangDistInit,        ///< "Init torch distributed ends. mem usage=": NCCL and the custom all-reduce
    SglangFreeBeforeLoad,  ///< "Load weight begin. avail mem=": free before the weights
    SglangFreeAfterLoad,   ///< "Load weight end. ... avail mem=": free after them
    SglangWeightLoad,      ///< "Load weight end. ... mem usage=": what loading took
    SglangKvCache,         ///< "KV Cache is allocated": K size + V size, or the MLA KV size
    SglangFreeAfterPool,   ///< "Memory pool end. avail mem="
    TrtllmWeights,         ///< "Memory used after loading model weights (inside torch)"
    TrtllmActivations,     ///< "Memory dynamically allocated during inference (inside torch)"
    TrtllmOutsideTorch,    ///< "Memory used outside torch (e.g., NCCL and CUDA graphs)"
    TrtllmPeak,            ///< "Peak memory during memory usage profiling (torch + non-torch)"
    TrtllmKvBudget,        ///< "available KV cache memory when calculating max tokens", "Estimated max memory in KV cache"
    TrtllmDeviceTotal,     ///< "device total memory"
    TrtllmProfilePool,     ///< "tmp kv_mem", "temporary kv cache memory during profiling"
    TrtllmEngineFree,      ///< engine backend: "... paged kv cache: total: X GiB, available: Y GiB"
    TrtllmKvPool,          ///< "Allocated X GiB for max tokens in paged KV cache (N)"
    VllmKvCacheTokens,     ///< count: "GPU KV cache size: N tokens"
    VllmKvCacheBlocks,     ///< count: V0's "# GPU blocks: N" (also "# cuda blocks", "# CUDA blocks")
    VllmMaxConcurrency,    ///< ratio: "Maximum concurrency for T tokens per request: C x"
    LlamaFitLayers,        ///< count: --fit's layers on a device
    SglangKvTokens,        ///< count: "KV Cache is allocated. #tokens: N"
    TrtllmKvTokens,        ///< count: the N of "for max tokens in paged KV cache (N)"
    TrtllmKvBytesPerToken  ///< count: "kv size is N", "kv size per token is N bytes/token"
};

struct QuantityInfo
{
    Quantity quantity;
    const char *id;    ///< "llamacpp.kv_buffer": JSON and the kept runs
    const char *label; ///< "KV buffer": English, a Qt Linguist source text in context "RunLog"
    LogFormat format;
    bool isBytes;
};
const QuantityInfo &quantityInfo(Quantity quantity);
const std::vector<QuantityInfo> &allQuantities();

/// One measured figure, as the log printed it.
struct Reading
{
    Quantity quantity;
    /// Where: llama.cpp's buffer name ("CUDA0", "CPU_Mapped", "CUDA_Host"),
    /// "GPU 1" for nvidia-smi and torch, a vLLM worker ("pid=507");
    /// empty when the log names none.
    std::string device;
    /// Hugging Face Trainer stage ("init", "train", "eval"); nvidia-smi's
    /// process name. Empty otherwise.
    std::string detail;
    Bytes bytes;       ///< byte quantities, the printed number times its unit
    /// How far the true value can lie from `bytes`: half the last printed
    /// digit where the printer rounds (%.2f), a whole unit where it floors
    /// (torch's memory_summary, the Trainer's "v >> 20 MB").
    Bytes uncertainty;
    double number = 0; ///< counts and ratios
    std::size_t line = 0; ///< 1-based line of the log
};

/// A setting the log states, with the line that states it.
template <typename T>
struct Noted
{
    T value{};
    std::size_t line = 0;
};

/// A GPU the log names.
struct LogDevice
{
    std::string id;   ///< "CUDA0", "GPU 0"
    int index = 0;    ///< its CUDA index
    std::string name; ///< "NVIDIA GeForce RTX 4090"
    std::optional<Bytes> total;
    std::size_t line = 0;
};

/// The run's settings as the log states them.
struct LogSettings
{
    std::optional<Noted<std::uint64_t>> contextSize;        ///< llama.cpp n_ctx
    std::optional<Noted<std::uint64_t>> contextPerSequence; ///< n_ctx_seq (n_ctx_per_seq)
    std::optional<Noted<std::uint64_t>> sequences;          ///< n_seq_max
    std::optional<Noted<std::uint64_t>> batch;              ///< n_batch
    std::optional<Noted<std::uint64_t>> ubatch;             ///< n_ubatch
    std::optional<Noted<bool>> flashAttention;              ///< flash_attn ("auto" counts as on)
    std::optional<Noted<bool>> kvUnified;
    std::optional<Noted<std::string>> kType;                ///< ggml type name: "f16", "q8_0"
    std::optional<Noted<std::string>> vType;
    std::optional<Noted<std::uint64_t>> offloadedLayers;    ///< N of "offloaded N/M layers"
    std::optional<Noted<std::uint64_t>> offloadableLayers;  ///< M: n_layer + 1
    /// --fit (2025): GPU layers whose routed experts stay on the host.
    std::optional<Noted<std::uint64_t>> fitDenseOnlyLayers;
    std::optional<Noted<double>> gpuMemoryUtilization;      ///< vLLM
    std::optional<Noted<std::uint64_t>> maxModelLen;        ///< vLLM, from its non-default args or the concurrency line
    std::optional<Noted<double>> memFractionStatic;         ///< SGLang's server_args
    std::optional<Noted<std::uint64_t>> tensorParallel;     ///< SGLang's server_args tp_size, vLLM's tensor_parallel_size
    std::optional<Noted<std::uint64_t>> pipelineParallel;   ///< vLLM's pipeline_parallel_size
    std::optional<Noted<double>> freeGpuMemoryFraction;     ///< TensorRT-LLM ("fraction is set")
    std::optional<Noted<std::uint64_t>> maxNumTokens;       ///< TensorRT-LLM max_num_tokens, vLLM max_num_batched_tokens
    std::optional<Noted<std::uint64_t>> maxNumRequests;     ///< TensorRT-LLM max_num_requests (its max_batch_size), vLLM max_num_seqs
    std::optional<Noted<std::string>> engineVersion;        ///< "TensorRT-LLM version: 1.1.0rc3", vLLM's "0.8.4"
    std::vector<LogDevice> devices;
};

/// Everything read from one log.
struct RunLog
{
    std::vector<LogFormat> formats; ///< in the order first seen
    std::vector<Reading> readings;
    LogSettings settings;
    std::size_t lines = 0;

    bool has(LogFormat format) const;
    /// The readings of one quantity, in log order.
    std::vector<const Reading *> find(Quantity quantity) const;
};

/// Reads a run log: any mix of the formats above, with the prefixes that
/// loggers and launchers add (`(VllmWorkerProcess pid=507) INFO 04-12
/// 08:21:19 [worker.py:267] `), ANSI colour codes (also as syslog's
/// `#033[`), Windows line ends and a last line cut off. A recognised line
/// that cannot be read is a warning naming its line and what was expected;
/// a log with no readable figure at all is an error saying what was expected.
LoadResult<RunLog> readRunLog(const std::string &text);

} // namespace core::runlog
