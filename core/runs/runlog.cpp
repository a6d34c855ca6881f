#include "core/runs/runlog.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/runs/readers.h"

#include <algorithm>

namespace core::runlog {

const char *logFormatId(LogFormat format)
{
    switch (format) {
    case LogFormat::Vllm: return "vllm";
    case LogFormat::LlamaCpp: return "llamacpp";
    case LogFormat::TorchMemorySummary: return "torch_memory_summary";
    case LogFormat::TorchMemoryStats: return "torch_memory_stats";
    case LogFormat::HfTrainer: return "hf_trainer";
    case LogFormat::NvidiaSmiTable: return "nvidia_smi";
    case LogFormat::NvidiaSmiCsv: return "nvidia_smi_csv";
    case LogFormat::TorchOutOfMemory: return "torch_oom";
    case LogFormat::Ollama: return "ollama";
    case LogFormat::Sglang: return "sglang";
    case LogFormat::Trtllm: return "trtllm";
    }
    return "";
}

const std::vector<QuantityInfo> &allQuantities()
{
    using F = LogFormat;
    static const std::vector<QuantityInfo> table = {
        {Quantity::VllmTotalGpuMemory, "vllm.total_gpu_memory", QT_TRANSLATE_NOOP("RunLog", "total GPU memory"), F::Vllm, true},
        {Quantity::VllmInstanceMemory, "vllm.instance_memory", QT_TRANSLATE_NOOP("RunLog", "memory vLLM may use"), F::Vllm, true},
        {Quantity::VllmWeights, "vllm.weights", QT_TRANSLATE_NOOP("RunLog", "model weights"), F::Vllm, true},
        {Quantity::VllmNonTorch, "vllm.non_torch", QT_TRANSLATE_NOOP("RunLog", "non-torch memory"), F::Vllm, true},
        {Quantity::VllmActivationPeak, "vllm.activation_peak", QT_TRANSLATE_NOOP("RunLog", "activation peak"), F::Vllm, true},
        {Quantity::VllmTorchPeak, "vllm.torch_peak", QT_TRANSLATE_NOOP("RunLog", "torch peak (weights and activations)"), F::Vllm, true},
        {Quantity::VllmKvCacheMemory, "vllm.kv_cache_memory", QT_TRANSLATE_NOOP("RunLog", "KV cache memory"), F::Vllm, true},
        {Quantity::VllmCudaGraphEstimate, "vllm.cuda_graph_estimate", QT_TRANSLATE_NOOP("RunLog", "CUDA-graph estimate"),
         F::Vllm, true},
        {Quantity::VllmConsumed, "vllm.consumed", QT_TRANSLATE_NOOP("RunLog", "weights and non-torch memory"), F::Vllm, true},
        {Quantity::VllmCudaGraphMemory, "vllm.cuda_graph_memory", QT_TRANSLATE_NOOP("RunLog", "CUDA graphs captured"),
         F::Vllm, true},
        {Quantity::LlamaModelBuffer, "llamacpp.model_buffer", QT_TRANSLATE_NOOP("RunLog", "model buffer"), F::LlamaCpp, true},
        {Quantity::LlamaKvBuffer, "llamacpp.kv_buffer", QT_TRANSLATE_NOOP("RunLog", "KV buffer"), F::LlamaCpp, true},
        {Quantity::LlamaComputeBuffer, "llamacpp.compute_buffer", QT_TRANSLATE_NOOP("RunLog", "compute buffer"), F::LlamaCpp, true},
        {Quantity::LlamaOutputBuffer, "llamacpp.output_buffer", QT_TRANSLATE_NOOP("RunLog", "output buffer"), F::LlamaCpp, true},
        {Quantity::LlamaDeviceFree, "llamacpp.device_free", QT_TRANSLATE_NOOP("RunLog", "free at load"), F::LlamaCpp, true},
        {Quantity::LlamaFitProjected, "llamacpp.fit_projected", QT_TRANSLATE_NOOP("RunLog", "--fit: projected use"), F::LlamaCpp, true},
        {Quantity::LlamaFitDeficit, "llamacpp.fit_deficit", QT_TRANSLATE_NOOP("RunLog", "--fit: short of the margins"), F::LlamaCpp, true},
        {Quantity::LlamaFitContextSaving, "llamacpp.fit_context_saving", QT_TRANSLATE_NOOP("RunLog", "--fit: saved by the shorter context"), F::LlamaCpp, true},
        {Quantity::LlamaFitDenseOnlySurplus, "llamacpp.fit_dense_only_surplus", QT_TRANSLATE_NOOP("RunLog", "--fit: left with the experts on the host"), F::LlamaCpp, true},
        {Quantity::LlamaFitTarget, "llamacpp.fit_target", QT_TRANSLATE_NOOP("RunLog", "--fit: target (free less margin)"), F::LlamaCpp, true},
        {Quantity::LlamaFitPlaced, "llamacpp.fit_placed", QT_TRANSLATE_NOOP("RunLog", "--fit: use at its layout"), F::LlamaCpp, true},
        {Quantity::TorchAllocatedCurrent, "torch.allocated", QT_TRANSLATE_NOOP("RunLog", "allocated"), F::TorchMemoryStats, true},
        {Quantity::TorchAllocatedPeak, "torch.max_allocated", QT_TRANSLATE_NOOP("RunLog", "peak allocated"), F::TorchMemoryStats, true},
        {Quantity::TorchReservedCurrent, "torch.reserved", QT_TRANSLATE_NOOP("RunLog", "reserved"), F::TorchMemoryStats, true},
        {Quantity::TorchReservedPeak, "torch.max_reserved", QT_TRANSLATE_NOOP("RunLog", "peak reserved"), F::TorchMemoryStats, true},
        {Quantity::TorchOomRequested, "torch_oom.requested", QT_TRANSLATE_NOOP("RunLog", "out of memory: tried to allocate"), F::TorchOutOfMemory, true},
        {Quantity::TorchOomCapacity, "torch_oom.capacity", QT_TRANSLATE_NOOP("RunLog", "out of memory: total capacity"), F::TorchOutOfMemory, true},
        {Quantity::TorchOomFree, "torch_oom.free", QT_TRANSLATE_NOOP("RunLog", "out of memory: free"), F::TorchOutOfMemory, true},
        {Quantity::TorchOomAllocated, "torch_oom.allocated", QT_TRANSLATE_NOOP("RunLog", "out of memory: allocated"), F::TorchOutOfMemory, true},
        {Quantity::TorchOomReserved, "torch_oom.reserved", QT_TRANSLATE_NOOP("RunLog", "out of memory: reserved"), F::TorchOutOfMemory, true},
        {Quantity::TorchOomUnallocated, "torch_oom.reserved_unallocated", QT_TRANSLATE_NOOP("RunLog", "out of memory: reserved, unallocated"), F::TorchOutOfMemory, true},
        {Quantity::TorchOomProcessMemory, "torch_oom.process_memory", QT_TRANSLATE_NOOP("RunLog", "out of memory: process memory"), F::TorchOutOfMemory, true},
        {Quantity::HfAllocDelta, "hf.mem_gpu_alloc_delta", QT_TRANSLATE_NOOP("RunLog", "allocated during the stage"), F::HfTrainer, true},
        {Quantity::HfPeakedDelta, "hf.mem_gpu_peaked_delta", QT_TRANSLATE_NOOP("RunLog", "peak above the stage's end"), F::HfTrainer, true},
        {Quantity::SmiMemoryUsed, "nvidia_smi.memory_used", QT_TRANSLATE_NOOP("RunLog", "memory used"), F::NvidiaSmiTable, true},
        {Quantity::SmiMemoryTotal, "nvidia_smi.memory_total", QT_TRANSLATE_NOOP("RunLog", "memory total"), F::NvidiaSmiTable, true},
        {Quantity::SmiProcessMemory, "nvidia_smi.process_memory", QT_TRANSLATE_NOOP("RunLog", "process memory"), F::NvidiaSmiTable, true},
        {Quantity::OllamaRequiredFull, "ollama.required_full", QT_TRANSLATE_NOOP("RunLog", "ollama: required (full offload)"), F::Ollama, true},
        {Quantity::OllamaRequiredPartial, "ollama.required_partial", QT_TRANSLATE_NOOP("RunLog", "ollama: required (partial offload)"), F::Ollama, true},
        {Quantity::OllamaKv, "ollama.required_kv", QT_TRANSLATE_NOOP("RunLog", "ollama: KV cache"), F::Ollama, true},
        {Quantity::OllamaWeights, "ollama.weights_total", QT_TRANSLATE_NOOP("RunLog", "ollama: weights"), F::Ollama, true},
        {Quantity::OllamaWeightsRepeating, "ollama.weights_repeating", QT_TRANSLATE_NOOP("RunLog", "ollama: repeating weights"), F::Ollama, true},
        {Quantity::OllamaWeightsNonRepeating, "ollama.weights_nonrepeating", QT_TRANSLATE_NOOP("RunLog", "ollama: non-repeating weights"), F::Ollama, true},
        {Quantity::OllamaGraphPartial, "ollama.graph_partial", QT_TRANSLATE_NOOP("RunLog", "ollama: compute graph (partial offload)"), F::Ollama, true},
        {Quantity::OllamaGraph, "ollama.graph_full", QT_TRANSLATE_NOOP("RunLog", "ollama: compute graph"), F::Ollama, true},
        {Quantity::OllamaAllocation, "ollama.allocation", QT_TRANSLATE_NOOP("RunLog", "ollama: planned on the GPU"), F::Ollama, true},
        {Quantity::OllamaAvailable, "ollama.available", QT_TRANSLATE_NOOP("RunLog", "ollama: free on the GPU"), F::Ollama, true},
        {Quantity::SglangDistInit, "sglang.dist_init", QT_TRANSLATE_NOOP("RunLog", "SGLang: torch.distributed's start"), F::Sglang, true},
        {Quantity::SglangFreeBeforeLoad, "sglang.free_before_load", QT_TRANSLATE_NOOP("RunLog", "SGLang: free before the weights load"), F::Sglang, true},
        {Quantity::SglangFreeAfterLoad, "sglang.free_after_load", QT_TRANSLATE_NOOP("RunLog", "SGLang: free after the weights load"), F::Sglang, true},
        {Quantity::SglangWeightLoad, "sglang.weight_load", QT_TRANSLATE_NOOP("RunLog", "SGLang: memory the weights took"), F::Sglang, true},
        {Quantity::SglangKvCache, "sglang.kv_cache", QT_TRANSLATE_NOOP("RunLog", "SGLang: KV pool"), F::Sglang, true},
        {Quantity::SglangFreeAfterPool, "sglang.free_after_pool", QT_TRANSLATE_NOOP("RunLog", "SGLang: free after the KV pool"), F::Sglang, true},
        {Quantity::TrtllmWeights, "trtllm.weights", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: weights in torch"), F::Trtllm, true},
        {Quantity::TrtllmActivations, "trtllm.activations", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: profiled activations"), F::Trtllm, true},
        {Quantity::TrtllmOutsideTorch, "trtllm.outside_torch", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: memory outside torch"), F::Trtllm, true},
        {Quantity::TrtllmPeak, "trtllm.peak", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: profile peak"), F::Trtllm, true},
        {Quantity::TrtllmKvBudget, "trtllm.kv_budget", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: KV memory estimated"), F::Trtllm, true},
        {Quantity::TrtllmDeviceTotal, "trtllm.device_total", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: device total"), F::Trtllm, true},
        {Quantity::TrtllmProfilePool, "trtllm.profile_pool", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: the profile's KV pool"), F::Trtllm, true},
        {Quantity::TrtllmEngineFree, "trtllm.engine_free", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: free after the engine loaded"), F::Trtllm, true},
        {Quantity::TrtllmKvPool, "trtllm.kv_pool", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: KV pool"), F::Trtllm, true},
        {Quantity::VllmKvCacheTokens, "vllm.kv_cache_tokens", QT_TRANSLATE_NOOP("RunLog", "KV cache tokens"), F::Vllm, false},
        {Quantity::VllmKvCacheBlocks, "vllm.kv_cache_blocks", QT_TRANSLATE_NOOP("RunLog", "KV cache blocks"), F::Vllm, false},
        {Quantity::VllmMaxConcurrency, "vllm.max_concurrency", QT_TRANSLATE_NOOP("RunLog", "maximum concurrency"), F::Vllm, false},
        {Quantity::LlamaFitLayers, "llamacpp.fit_layers", QT_TRANSLATE_NOOP("RunLog", "--fit: layers on the device"), F::LlamaCpp, false},
        {Quantity::SglangKvTokens, "sglang.kv_tokens", QT_TRANSLATE_NOOP("RunLog", "SGLang: KV pool tokens"), F::Sglang, false},
        {Quantity::TrtllmKvTokens, "trtllm.kv_tokens", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: KV pool tokens"), F::Trtllm, false},
        {Quantity::TrtllmKvBytesPerToken, "trtllm.kv_bytes_per_token", QT_TRANSLATE_NOOP("RunLog", "TensorRT-LLM: KV bytes per token"), F::Trtllm, false},
    };
    return table;
}

const QuantityInfo &quantityInfo(Quantity quantity)
{
    return findByValue(allQuantities(), &QuantityInfo::quantity, quantity);
}

bool RunLog::has(LogFormat format) const
{
    return std::find(formats.begin(), formats.end(), format) != formats.end();
}

std::vector<const Reading *> RunLog::find(Quantity quantity) const
{
    std::vector<const Reading *> found;
    for (const Reading &r : readings)
        if (r.quantity == quantity)
            found.push_back(&r);
    return found;
}

void ReadContext::seen(LogFormat format)
{
    if (!log.has(format))
        log.formats.push_back(format);
}

void ReadContext::add(Reading reading, LogFormat format)
{
    seen(format);
    log.readings.push_back(std::move(reading));
}

void ReadContext::malformed(const LogLine &line, const std::string &expected)
{
    warnings.push_back(atLine(line.number, line.last ? "cut off (the log's last line); expected " + expected
                                                     : "expected " + expected + "; skipped"));
}

void ReadContext::addPrinted(Quantity quantity, const LogLine &line, const PrintedNumber &number, long double unit,
                             std::string device, std::string detail)
{
    if (number.negative) {
        malformed(line, std::string("a size that is not negative for ") + quantityInfo(quantity).label);
        return;
    }
    add({quantity, std::move(device), std::move(detail), bytesOf(number, unit), halfLastDigit(number, unit), 0, line.number},
        quantityInfo(quantity).format);
}

bool ReadContext::readGib(const LogLine &line, const std::string &anchor, Quantity quantity, std::string device,
                          const char *printedUnit)
{
    if (line.text.find(anchor) == std::string::npos)
        return false;
    if (const auto n = numberAfter(line.text, anchor))
        addPrinted(quantity, line, *n, kGiB, std::move(device));
    else
        malformed(line, "a size in " + std::string(printedUnit) + " after \"" + anchor + "\"");
    return true;
}

LoadResult<RunLog> readRunLog(const std::string &text)
{
    LoadResult<RunLog> result;
    if (text.size() > kMaxInputBytes) {
        result.errors.push_back("the log is larger than " + std::to_string(kMaxInputBytes / (1024 * 1024))
                                + " MiB; paste the start-up part");
        return result;
    }
    ReadContext context;
    VllmReader vllm;
    LlamaCppReader llama;
    TorchSummaryReader summary;
    TorchStatsReader stats;
    HfTrainerReader trainer;
    NvidiaSmiReader smi;
    OllamaReader ollama;
    SglangReader sglang;
    TrtllmReader trtllm;
    TorchOomReader oom;
    const std::vector<LogLine> lines = splitLogLines(text);
    context.log.lines = lines.size();
    for (const LogLine &line : lines) {
        // One reader per line; the order puts the most specific anchors first.
        if (oom.read(line, context) || vllm.read(line, context) || sglang.read(line, context)
            || trtllm.read(line, context) || ollama.read(line, context)
            || llama.read(line, context)
            || summary.read(line, context) || stats.read(line, context) || trainer.read(line, context))
            continue;
        smi.read(line, context);
    }
    oom.finish(context);
    result.warnings = context.warnings;
    if (context.log.readings.empty() && context.log.formats.empty()) {
        result.errors.push_back(
            "no line of a known run log (expected vLLM's memory profile, SGLang's 'KV Cache is allocated' line, "
            "TensorRT-LLM's 'paged KV cache' lines, "
            "llama.cpp's 'model buffer size' lines, "
            "ollama's 'offload' projection, torch.cuda.memory_summary() or memory_stats(), Trainer *_mem_gpu_* "
            "metrics, nvidia-smi output, or torch's 'CUDA out of memory' error)");
        if (!context.warnings.empty())
            result.errors.push_back(context.warnings.front());
        return result;
    }
    result.value = std::move(context.log);
    return result;
}

} // namespace core::runlog
