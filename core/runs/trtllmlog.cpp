// TensorRT-LLM's start-up memory lines. The format strings were read in
// TensorRT-LLM's source and checked against the logs in tests/data/logs:
//   _torch/pyexecutor/_util.py (1.1 and main 0004396):
//     "Memory used after loading model weights (inside torch) in memory usage profiling: %.2f GiB"
//     "Memory dynamically allocated during inference (inside torch) in memory usage profiling: %.2f GiB"
//     "Memory used outside torch (e.g., NCCL and CUDA graphs) in memory usage profiling: %.2f GiB"
//     "Peak memory during memory usage profiling (torch + non-torch): %.2f GiB, available KV cache memory
//      when calculating max tokens: %.2f GiB, fraction is set F, kv size is N. device total memory
//      %.2f GiB, , tmp kv_mem %.2f GiB"  (main: "kv size per token is N bytes/token", "temporary kv
//      cache memory during profiling %.2f GiB")
//     "Estimated max memory in KV cache : %.2f GiB"
//     "max_seq_len=S, max_num_requests=R, max_num_tokens=T[, max_batch_size=B]"
//   resource_manager.py: "Both free_gpu_memory_fraction and max_tokens are set (to F and N, ..."
//   cpp kvCacheManager.cpp: "[MemUsageChange] Allocated %0.2f GiB for max tokens in paged KV cache (%d)."
//     and, for TensorRT engines, "Memory usage when calculating max tokens in paged kv cache: total:
//     %0.2f GiB, available: %0.2f GiB"
//   tensorrt_llm/__init__.py: "[TensorRT-LLM] TensorRT-LLM version: V" (1.2 on: "TensorRT LLM version")
// Every figure is GiB (GB = 1 << 30 in _util.py, 1 << 30 in the C++).

#include "core/runs/readers.h"

namespace core::runlog {

namespace {

std::optional<Noted<std::uint64_t>> countAfter(const LogLine &line, const std::string &anchor)
{
    const auto n = numberAfter(line.text, anchor);
    if (!n || n->negative || n->decimals != 0)
        return std::nullopt;
    return Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
}

void addCount(Quantity quantity, const LogLine &line, const PrintedNumber &n, ReadContext &context)
{
    context.add({quantity, {}, {}, {}, {}, static_cast<double>(n.value), line.number}, LogFormat::Trtllm);
}

/// The profile's summary line: the peak, the fraction, the bytes per
/// token, the device's total and the temporary pool.
void readPeakLine(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    // Its "available KV cache memory" is the next line's estimate again.
    context.readGib(line, "(torch + non-torch):", Quantity::TrtllmPeak);
    context.readGib(line, "device total memory", Quantity::TrtllmDeviceTotal);
    if (!context.readGib(line, "tmp kv_mem", Quantity::TrtllmProfilePool))
        context.readGib(line, "temporary kv cache memory during profiling", Quantity::TrtllmProfilePool);
    if (const auto f = numberAfter(t, "fraction is set"))
        context.log.settings.freeGpuMemoryFraction = Noted<double>{static_cast<double>(f->value), line.number};
    const auto perToken = t.find("kv size per token is") != std::string::npos ? numberAfter(t, "kv size per token is")
                                                                               : numberAfter(t, "kv size is");
    if (perToken && !perToken->negative && perToken->decimals == 0)
        addCount(Quantity::TrtllmKvBytesPerToken, line, *perToken, context);
}

} // namespace

bool TrtllmReader::read(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    LogSettings &settings = context.log.settings;
    for (const char *banner : {"TensorRT-LLM version:", "TensorRT LLM version:"}) {
        const std::size_t at = t.find(banner);
        if (at == std::string::npos || t.find("[TensorRT-LLM]") == std::string::npos)
            continue;
        const std::string version = trimmed(t.substr(at + std::string(banner).size()));
        if (!version.empty() && !settings.engineVersion)
            settings.engineVersion = Noted<std::string>{version, line.number};
        context.seen(LogFormat::Trtllm);
        return true;
    }
    if (t.find("in memory usage profiling:") != std::string::npos) {
        if (!context.readGib(line, "model weights (inside torch) in memory usage profiling:", Quantity::TrtllmWeights)
            && !context.readGib(line, "during inference (inside torch) in memory usage profiling:", Quantity::TrtllmActivations)
            && !context.readGib(line, "NCCL and CUDA graphs) in memory usage profiling:", Quantity::TrtllmOutsideTorch))
            context.seen(LogFormat::Trtllm); // "(outside torch)" after loading: in the peak line's figures
        return true;
    }
    if (t.find("Peak memory during memory usage profiling") != std::string::npos) {
        readPeakLine(line, context);
        return true;
    }
    if (context.readGib(line, "Estimated max memory in KV cache :", Quantity::TrtllmKvBudget))
        return true;
    if (t.find("Memory usage when calculating max tokens in paged kv cache:") != std::string::npos) {
        context.readGib(line, "available:", Quantity::TrtllmEngineFree);
        context.readGib(line, "total:", Quantity::TrtllmDeviceTotal);
        return true;
    }
    if (t.find("for max tokens in paged KV cache") != std::string::npos) {
        context.readGib(line, "Allocated", Quantity::TrtllmKvPool);
        const std::size_t open = t.rfind('(');
        std::size_t pos = open == std::string::npos ? t.size() : open + 1;
        if (const auto tokens = readNumber(t, pos); tokens && !tokens->negative && tokens->decimals == 0)
            addCount(Quantity::TrtllmKvTokens, line, *tokens, context);
        else
            context.malformed(line, "the pool's tokens in parentheses");
        return true;
    }
    if (t.find("Both free_gpu_memory_fraction and max_tokens are set (to") != std::string::npos) {
        if (const auto f = numberAfter(t, "are set (to"); f && !settings.freeGpuMemoryFraction)
            settings.freeGpuMemoryFraction = Noted<double>{static_cast<double>(f->value), line.number};
        context.seen(LogFormat::Trtllm);
        return true;
    }
    if (t.find("[TRT-LLM]") != std::string::npos && t.find("max_num_tokens=") != std::string::npos
        && t.find("max_num_requests=") != std::string::npos) {
        settings.maxNumTokens = countAfter(line, "max_num_tokens=");
        settings.maxNumRequests = countAfter(line, "max_num_requests=");
        context.seen(LogFormat::Trtllm);
        return true;
    }
    return false;
}

} // namespace core::runlog
