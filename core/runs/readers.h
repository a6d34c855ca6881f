#pragma once

// The readers `readRunLog` runs over every line, one per printer. Each
// returns true when it took the line as its own.

#include "core/runs/logtext.h"

#include <set>
#include <string>
#include <vector>

namespace core::runlog {

/// What the readers fill: the log so far and its warnings.
struct ReadContext
{
    RunLog log;
    std::vector<std::string> warnings;

    void add(Reading reading, LogFormat format);
    void seen(LogFormat format);
    /// A line a reader recognised but could not read: "line 12: expected
    /// ...; skipped", or, for a log's cut-off last line, "line 12: cut off".
    void malformed(const LogLine &line, const std::string &expected);
    /// A byte figure printed as `number` `unit`s, rounded to its decimals.
    void addPrinted(Quantity quantity, const LogLine &line, const PrintedNumber &number, long double unit,
                    std::string device = {}, std::string detail = {});
    /// The figure after `anchor` in GiB (which the log may call
    /// `printedUnit`), read into `quantity` for `device`; false when the
    /// anchor is absent. A present anchor without a number is malformed.
    bool readGib(const LogLine &line, const std::string &anchor, Quantity quantity, std::string device = {},
                 const char *printedUnit = "GiB");
};

/// vLLM: vllm/worker/worker.py determine_num_available_blocks (0.6 and 0.7
/// forms), vllm/v1/worker/gpu_worker.py determine_available_memory,
/// vllm/worker/model_runner.py and vllm/v1/worker/gpu_model_runner.py
/// load_model, vllm/v1/core/kv_cache_utils.py.
class VllmReader
{
public:
    bool read(const LogLine &line, ReadContext &context);

private:
    bool m_inResultsBlock = false; ///< inside a multi-line "Memory profiling results:" message
    bool readResultsPairs(const LogLine &line, ReadContext &context);
    bool readBlockLine(const LogLine &line, ReadContext &context);
    /// gpu_worker.py's summary of its memory and its CUDA-graph check.
    bool readSummary(const LogLine &line, ReadContext &context);
    std::string m_summaryWorker; ///< the worker of the last prefixed line the summary reader saw
};

/// SGLang: model_runner.py load_model ("Load weight begin/end"),
/// mem_cache/memory_pool.py ("KV Cache is allocated"), the memory pool's
/// end and the server_args dump (sglanglog.cpp).
class SglangReader
{
public:
    bool read(const LogLine &line, ReadContext &context);
};

/// TensorRT-LLM: its PyTorch backend's memory profile
/// (_torch/pyexecutor/_util.py KvCacheCreator), the C++ KV-cache manager's
/// pool lines and its TensorRT engines' free-memory line (trtllmlog.cpp).
class TrtllmReader
{
public:
    bool read(const LogLine &line, ReadContext &context);
};

/// llama-server's --fit lines (llamafitlog.cpp): true when the line was one.
bool readLlamaFitLine(const LogLine &line, ReadContext &context);

/// llama.cpp (src/llama.cpp, src/llama-model.cpp, src/llama-kv-cache.cpp,
/// src/llama-context.cpp, ggml/src/ggml-cuda/ggml-cuda.cu).
class LlamaCppReader
{
public:
    bool read(const LogLine &line, ReadContext &context);

private:
    bool m_inBreakdown = false; ///< under common_memory_breakdown_print's header
    std::set<std::string> m_unknownBuffers; ///< buffer kinds already named once
};

/// ollama's server log: its projection before it starts llama.cpp (llm/memory.go).
class OllamaReader
{
public:
    bool read(const LogLine &line, ReadContext &context);
};

/// torch.cuda.memory_summary() (torch/cuda/memory.py memory_summary).
class TorchSummaryReader
{
public:
    bool read(const LogLine &line, ReadContext &context);

private:
    std::string m_device; ///< "GPU n" from the summary's header line
    bool m_inSummary = false;
};

/// torch's CUDA out-of-memory error, also wrapped over several lines
/// (torchoomlog.cpp).
class TorchOomReader
{
public:
    bool read(const LogLine &line, ReadContext &context);
    /// The log ended: a message still open was cut off.
    void finish(ReadContext &context);

private:
    void readMessage(const std::string &text, ReadContext &context);

    std::string m_message; ///< the message so far, while it spans lines
    LogLine m_start;       ///< its first line
    std::size_t m_lines = 0;
};

/// torch.cuda.memory_stats() printed as JSON, a dict or an OrderedDict.
class TorchStatsReader
{
public:
    bool read(const LogLine &line, ReadContext &context);
};

/// The Hugging Face Trainer's memory metrics (transformers
/// trainer_utils.py TrainerMemoryTracker.update_metrics; trainer_pt_utils.py
/// metrics_format and log_metrics).
class HfTrainerReader
{
public:
    bool read(const LogLine &line, ReadContext &context);
};

/// nvidia-smi: the default table and --query-gpu CSV.
class NvidiaSmiReader
{
public:
    bool read(const LogLine &line, ReadContext &context);

private:
    bool readTable(const LogLine &line, ReadContext &context);
    bool readCsv(const LogLine &line, ReadContext &context);

    bool m_inTable = false;
    bool m_inProcesses = false;
    int m_tableGpu = -1;        ///< the GPU whose first table row was read last
    std::vector<std::string> m_csvColumns; ///< from a CSV header; empty without one
    std::vector<std::string> m_csvUnits;   ///< "[MiB]" of each header column
    int m_csvRow = 0;
};

} // namespace core::runlog
