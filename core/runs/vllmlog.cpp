// vLLM's start-up memory figures. Every format string below was read in
// vLLM's source; vLLM divides by 2**30 (GiB_bytes) for every "GiB" and for
// the older "GB" labels alike.

#include "core/runs/readers.h"

#include <algorithm>
#include <cctype>

namespace core::runlog {

namespace {

/// A figure's label in vLLM's text and what it states (nullopt: read, not
/// modelled: a setting, a duration, a figure the plan has no term for).
struct LabelledFigure
{
    const char *label;
    std::optional<Quantity> quantity;
};

/// The "Memory profiling results:" keys (vllm/worker/worker.py
/// determine_num_available_blocks, vLLM 0.6.2-0.6.4):
///   "Memory profiling results: total_gpu_memory=%.2fGiB\n"
///   " initial_memory_usage=%.2fGiB peak_torch_memory=%.2fGiB\n"
///   " memory_usage_post_profile=%.2fGib\n"
///   " non_torch_memory=%.2fGiB kv_cache_size=%.2fGiB\n"
///   " gpu_memory_utilization=%.2f"
/// (one line in some releases, with "duration=%.2f seconds, " first and
/// ", " between pairs in 0.6.4).
const LabelledFigure kResultsKeys[] = {
    {"total_gpu_memory=", Quantity::VllmTotalGpuMemory},
    {"peak_torch_memory=", Quantity::VllmTorchPeak},
    {"non_torch_memory=", Quantity::VllmNonTorch},
    {"kv_cache_size=", Quantity::VllmKvCacheMemory},
    {"initial_memory_usage=", std::nullopt},
    {"memory_usage_post_profile=", std::nullopt},
};

/// The multi-line block of vLLM 0.6.5-0.7 (vllm/worker/worker.py
/// determine_num_available_blocks after PR #10511): one "LABEL<tab>VALUE"
/// per line under "Memory profiling results:", each with the logger's
/// prefix.
const LabelledFigure kBlockLabels[] = {
    {"total_gpu_memory", Quantity::VllmTotalGpuMemory},
    {"the current vLLM instance can use", Quantity::VllmInstanceMemory},
    {"model weights take", Quantity::VllmWeights},
    {"non_torch_memory", Quantity::VllmNonTorch},
    {"PyTorch activation peak memory", Quantity::VllmActivationPeak},
    {"available_kv_cache_memory", Quantity::VllmKvCacheMemory},
    {"gpu_memory_utilization", std::nullopt},
    {"duration", std::nullopt},
};

/// The figures of gpu_worker.py's summary after the CUDA graphs are
/// captured (compile_or_warm_up_model; INFO in the releases of 2026), each
/// printed before its label with round(x / 2**30, 2):
///   "Free memory on device (%s/%s GiB) on startup. Desired GPU memory
///   utilization is (%s, %s GiB). Actual usage is %s GiB for consumed memory
///   (weights + non-torch), %s GiB for peak activation, and %s GiB for
///   CUDAGraph memory. Replace gpu_memory_utilization config with ...
///   Current kv cache memory in use is %s GiB."
/// and its earlier form (vllm-project/vllm @ 35d5cda1): "%s GiB for weight,
/// %s GiB for peak activation, %s GiB for non-torch memory, and %s GiB for
/// CUDAGraph memory". Pasted logs break the message over lines, so each
/// label is read wherever it stands.
const LabelledFigure kSummaryFigures[] = {
    {" GiB for consumed memory", Quantity::VllmConsumed},
    {" GiB for weight,", Quantity::VllmWeights},
    {" GiB for peak activation", Quantity::VllmActivationPeak},
    {" GiB for non-torch memory", Quantity::VllmNonTorch},
    {" GiB for CUDAGraph memory", Quantity::VllmCudaGraphMemory},
};

/// The number that ends just before `at` ("15.54" of "15.54 GiB for", a
/// sign included), or nullopt.
std::optional<PrintedNumber> numberBefore(const std::string &text, std::size_t at)
{
    std::size_t start = at;
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.'))
        --start;
    if (start == at)
        return std::nullopt;
    if (start > 0 && text[start - 1] == '-')
        --start;
    std::size_t pos = start;
    const auto n = readNumber(text, pos);
    return n && pos == at ? n : std::nullopt;
}

/// A reading of `quantity` already taken from `worker`'s own line (the
/// summary repeats "Model loading took" and "Available KV cache memory").
bool alreadyRead(const RunLog &log, Quantity quantity, const std::string &worker)
{
    return std::any_of(log.readings.begin(), log.readings.end(),
                       [&](const Reading &r) { return r.quantity == quantity && r.device == worker; });
}

/// The tensor- and pipeline-parallel degrees a line states after
/// `tensor` and `pipeline`, each where present and not set before.
void readParallelism(const LogLine &line, const char *tensor, const char *pipeline, ReadContext &context)
{
    LogSettings &settings = context.log.settings;
    for (const auto &[anchor, setting] : {std::pair{tensor, &settings.tensorParallel},
                                          std::pair{pipeline, &settings.pipelineParallel}}) {
        const auto n = numberAfter(line.text, anchor);
        if (n && !n->negative && n->decimals == 0 && n->value >= 1 && !*setting)
            *setting = Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
    }
}

/// The message of a logger line: what follows "file.py:LINE] ".
std::string messageOf(const std::string &text)
{
    const std::size_t at = text.find("] ");
    return at == std::string::npos ? text : text.substr(at + 2);
}

} // namespace

bool VllmReader::readBlockLine(const LogLine &line, ReadContext &context)
{
    const std::string message = messageOf(line.text);
    for (const LabelledFigure &b : kBlockLabels) {
        const std::size_t length = std::char_traits<char>::length(b.label);
        if (message.compare(0, length, b.label) != 0 || message.size() <= length
            || (message[length] != ' ' && message[length] != '\t'))
            continue;
        std::size_t pos = length;
        while (pos < message.size() && (message[pos] == ' ' || message[pos] == '\t'))
            ++pos;
        const auto n = readNumber(message, pos);
        if (!n || n->negative) {
            context.malformed(line, std::string("a number after '") + b.label + "'");
            return true;
        }
        if (b.quantity) {
            if (message.compare(pos, 3, "GiB") != 0) {
                context.malformed(line, std::string("a size in GiB after '") + b.label + "'");
                return true;
            }
            context.addPrinted(*b.quantity, line, *n, kGiB, line.worker);
        } else if (b.label == std::string("gpu_memory_utilization")) {
            context.log.settings.gpuMemoryUtilization = Noted<double>{static_cast<double>(n->value), line.number};
            context.seen(LogFormat::Vllm);
        }
        return true;
    }
    return false;
}

bool VllmReader::readResultsPairs(const LogLine &line, ReadContext &context)
{
    bool any = false;
    for (const LabelledFigure &k : kResultsKeys) {
        std::size_t at = line.text.find(k.label);
        if (at == std::string::npos)
            continue;
        any = true;
        std::size_t pos = at + std::string(k.label).size();
        const auto n = readNumber(line.text, pos);
        const bool gib = n && (line.text.compare(pos, 3, "GiB") == 0 || line.text.compare(pos, 3, "Gib") == 0);
        if (!gib) {
            context.malformed(line, std::string("a size in GiB after '") + k.label + "'");
            continue;
        }
        if (k.quantity)
            context.addPrinted(*k.quantity, line, *n, kGiB, line.worker);
    }
    if (const auto u = numberAfter(line.text, "gpu_memory_utilization=")) {
        any = true;
        context.log.settings.gpuMemoryUtilization = Noted<double>{static_cast<double>(u->value), line.number};
        context.seen(LogFormat::Vllm);
    }
    return any;
}

bool VllmReader::readSummary(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    // A summary broken over lines: its unprefixed lines are its worker's.
    if (!line.worker.empty())
        m_summaryWorker = line.worker;
    const std::string &worker = line.worker.empty() ? m_summaryWorker : line.worker;
    bool any = false;
    // Each figure once a worker: the summary repeats "Model loading took"
    // and "Available KV cache memory".
    const auto addOnce = [&](Quantity quantity, const PrintedNumber &n) {
        if (!alreadyRead(context.log, quantity, worker))
            context.addPrinted(quantity, line, n, kGiB, worker);
    };
    // "(A/B GiB)" and "(A, B GiB)".
    const auto pair = [&](const char *anchor, char separator, auto &&take) {
        std::size_t pos = 0;
        const auto first = numberAfter(t, anchor, &pos);
        if (!first)
            return;
        any = true;
        const bool separated = pos < t.size() && t[pos] == separator;
        const auto second = separated ? readNumber(t, ++pos) : std::nullopt;
        if (!second || t.compare(pos, 4, " GiB") != 0) {
            context.malformed(line, std::string("two figures after '") + anchor + "'");
            return;
        }
        take(*first, *second);
    };
    // The card as torch sees it (the free share is not modelled) and
    // gpu_memory_utilization x that card.
    pair("Free memory on device (", '/', [&](const PrintedNumber &, const PrintedNumber &total) {
        addOnce(Quantity::VllmTotalGpuMemory, total);
    });
    pair("Desired GPU memory utilization is (", ',', [&](const PrintedNumber &share, const PrintedNumber &requested) {
        context.log.settings.gpuMemoryUtilization = Noted<double>{static_cast<double>(share.value), line.number};
        addOnce(Quantity::VllmInstanceMemory, requested);
    });
    for (const LabelledFigure &f : kSummaryFigures) {
        const std::size_t at = t.find(f.label);
        if (at == std::string::npos)
            continue;
        any = true;
        if (const auto n = numberBefore(t, at))
            addOnce(*f.quantity, *n);
        else
            context.malformed(line, std::string("a size before '") + f.label + "'");
    }
    if (const auto kv = numberAfter(t, "Current kv cache memory in use is ")) {
        any = true;
        addOnce(Quantity::VllmKvCacheMemory, *kv);
    } else if (t.find("Current kv cache memory in use is ") != std::string::npos) {
        any = true;
        context.malformed(line, "a size in GiB after 'Current kv cache memory in use is'");
    }
    // gpu_worker.py after the capture (PR 30515's check of its estimate):
    // "CUDA graph pool memory: %s GiB (actual), %s GiB (estimated),
    // difference: ...".
    if (const auto actual = numberAfter(t, "CUDA graph pool memory: ")) {
        any = true;
        const auto estimated = numberAfter(t, " GiB (actual), ");
        if (!estimated) {
            context.malformed(line, "'CUDA graph pool memory: A GiB (actual), E GiB (estimated)'");
        } else {
            addOnce(Quantity::VllmCudaGraphMemory, *actual);
            addOnce(Quantity::VllmCudaGraphEstimate, *estimated);
        }
    }
    return any;
}

bool VllmReader::read(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    if (t.find("Memory profiling results:") != std::string::npos) {
        m_inResultsBlock = true;
        readResultsPairs(line, context);
        return true;
    }
    if (m_inResultsBlock) {
        // Continuation lines of the same message carry no logger prefix;
        // the tabbed block's lines each carry one.
        if (readResultsPairs(line, context) || readBlockLine(line, context))
            return true;
        m_inResultsBlock = false;
    }

    // The release: vllm/entrypoints/openai/api_server.py "vLLM API server
    // version %s", the engine's "Initializing a V1 LLM engine (v%s) with
    // config" (V0: "Initializing an LLM engine (v%s) with config"), and the
    // banner that api_utils.py prints in the releases of 2026, whose third
    // line ends in the logo's last block and "  version %s".
    for (const char *anchor : {"vLLM API server version ", "LLM engine (v", "\u2588  version "}) {
        const std::size_t at = t.find(anchor);
        if (at == std::string::npos)
            continue;
        const std::string release = releaseNumber(t.substr(at + std::char_traits<char>::length(anchor)));
        if (!release.empty() && !context.log.settings.engineVersion)
            context.log.settings.engineVersion = Noted<std::string>{release, line.number};
        // The engine's config: "..., tensor_parallel_size=2,
        // pipeline_parallel_size=1, ..." (VllmConfig.__str__).
        readParallelism(line, "tensor_parallel_size=", "pipeline_parallel_size=", context);
        context.seen(LogFormat::Vllm);
        return true;
    }

    // vllm/worker/worker.py determine_num_available_blocks (0.6.5 on) and
    // vllm/v1/worker/gpu_worker.py determine_available_memory (0.8):
    //   "the current vLLM instance can use total_gpu_memory (%.2fGiB)"
    //   " x gpu_memory_utilization (%.2f) = %.2fGiB\n"
    //   "model weights take %.2fGiB; non_torch_memory takes %.2fGiB;"
    //   " PyTorch activation peak memory takes %.2fGiB;"
    //   " the rest of the memory reserved for KV Cache is %.2fGiB."
    if (t.find("vLLM instance can use total_gpu_memory (") != std::string::npos) {
        std::size_t after = 0;
        const auto total = numberAfter(t, "total_gpu_memory (", &after);
        const auto util = numberAfter(t, "gpu_memory_utilization (");
        const auto instance = numberAfter(t, ") = ");
        if (!total || !util || !instance) {
            context.malformed(line, "'total_gpu_memory (X GiB) x gpu_memory_utilization (U) = Y GiB'");
            return true;
        }
        context.addPrinted(Quantity::VllmTotalGpuMemory, line, *total, kGiB, line.worker);
        context.addPrinted(Quantity::VllmInstanceMemory, line, *instance, kGiB, line.worker);
        context.log.settings.gpuMemoryUtilization = Noted<double>{static_cast<double>(util->value), line.number};
        return true;
    }
    if (t.find("model weights take ") != std::string::npos) {
        const std::pair<const char *, Quantity> parts[] = {
            {"model weights take ", Quantity::VllmWeights},
            {"non_torch_memory takes ", Quantity::VllmNonTorch},
            {"PyTorch activation peak memory takes ", Quantity::VllmActivationPeak},
            {"the rest of the memory reserved for KV Cache is ", Quantity::VllmKvCacheMemory}};
        for (const auto &[anchor, quantity] : parts) {
            if (t.find(anchor) == std::string::npos && line.last)
                break; // the cut-off tail of the last line
            const auto n = numberAfter(t, anchor);
            if (!n) {
                context.malformed(line, std::string("a size in GiB after '") + anchor + "'");
                continue;
            }
            context.addPrinted(quantity, line, *n, kGiB, line.worker);
        }
        return true;
    }
    if (readSummary(line, context)) {
        context.seen(LogFormat::Vllm);
        return true;
    }
    // vllm/entrypoints/utils.py log_non_default_args: "non-default args:
    // {'max_model_len': 8192, 'gpu_memory_utilization': 0.95, ...}", and
    // engine/arg_utils.py's "Defaulting max_num_seqs to %d for %s usage
    // context." (DEBUG), the batch defaults it took.
    if (t.find("non-default args: {") != std::string::npos) {
        LogSettings &settings = context.log.settings;
        if (const auto u = numberAfter(t, "'gpu_memory_utilization': "))
            settings.gpuMemoryUtilization = Noted<double>{static_cast<double>(u->value), line.number};
        const auto count = [&](const char *key) -> std::optional<Noted<std::uint64_t>> {
            const auto n = numberAfter(t, key);
            if (!n || n->negative || n->decimals != 0)
                return std::nullopt;
            return Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
        };
        if (const auto len = count("'max_model_len': "))
            settings.maxModelLen = len;
        if (const auto seqs = count("'max_num_seqs': "))
            settings.maxNumRequests = seqs;
        if (const auto tokens = count("'max_num_batched_tokens': "))
            settings.maxNumTokens = tokens;
        readParallelism(line, "'tensor_parallel_size': ", "'pipeline_parallel_size': ", context);
        context.seen(LogFormat::Vllm);
        return true;
    }
    // (0.8 to 0.10: "Setting max_num_seqs to %d for %s usage context.")
    for (const auto &[anchor, setting] : {std::pair{"Defaulting max_num_seqs to ", &LogSettings::maxNumRequests},
                                          std::pair{"Defaulting max_num_batched_tokens to ", &LogSettings::maxNumTokens},
                                          std::pair{"Setting max_num_seqs to ", &LogSettings::maxNumRequests},
                                          std::pair{"Setting max_num_batched_tokens to ", &LogSettings::maxNumTokens}}) {
        if (t.find(anchor) == std::string::npos)
            continue;
        const auto n = numberAfter(t, anchor);
        if (n && !n->negative && n->decimals == 0 && !(context.log.settings.*setting))
            context.log.settings.*setting = Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
        context.seen(LogFormat::Vllm);
        return true;
    }
    // vllm/worker/model_runner.py load_model (to 0.6):
    //   "Loading model weights took %.4f GB" (m.consumed_memory / float(2**30));
    // vllm/v1/worker/gpu_model_runner.py and model_runner.py load_model:
    //   "Model loading took %.4f GiB and %.6f seconds" (GB in some releases).
    for (const char *anchor : {"Loading model weights took ", "Model loading took "}) {
        if (t.find(anchor) == std::string::npos)
            continue;
        const auto n = numberAfter(t, anchor);
        if (!n) {
            context.malformed(line, std::string("a size in GiB after '") + anchor + "'");
            return true;
        }
        context.addPrinted(Quantity::VllmWeights, line, *n, kGiB, line.worker);
        return true;
    }
    // One size in GiB a line: vllm/v1/worker/gpu_worker.py
    // determine_available_memory's "Available KV cache memory: %.2f GiB"
    // and (0.19, DEBUG) "Memory profiling takes %.2f seconds. Total non KV
    // cache memory: %.2fGiB; torch peak memory increase: %.2fGiB; non-torch
    // forward increase memory: %.2fGiB; weights memory: %.2fGiB.", whose
    // torch peak increase is the older "PyTorch activation peak memory" and
    // whose non-torch increase is what the summary calls non-torch memory
    // (what grew after the init snapshot); gpu_model_runner.py
    // profile_cudagraph_memory's "Estimated CUDA graph memory: %.2f GiB
    // total" (PR 30515).
    if (context.readGib(line, "torch peak memory increase: ", Quantity::VllmActivationPeak, line.worker)) {
        if (t.find("non-torch forward increase memory: ") != std::string::npos)
            context.readGib(line, "non-torch forward increase memory: ", Quantity::VllmNonTorch, line.worker);
        return true;
    }
    for (const auto &[anchor, quantity] : {std::pair{"Available KV cache memory: ", Quantity::VllmKvCacheMemory},
                                           std::pair{"Estimated CUDA graph memory: ", Quantity::VllmCudaGraphEstimate}})
        if (context.readGib(line, anchor, quantity, line.worker))
            return true;
    // vllm/v1/core/kv_cache_utils.py (get_kv_cache_config, later
    // _report_kv_cache_config): "GPU KV cache size: %s tokens" with
    // f"{num_tokens:,}", and
    // "Maximum concurrency for %s tokens per request: %.2fx" with
    // f"{max_model_len:,}" (plain %s in vllm/executor/executor_base.py, v0).
    if (t.find("GPU KV cache size: ") != std::string::npos) {
        const auto n = numberAfter(t, "GPU KV cache size: ", nullptr, true);
        if (!n || n->negative)
            context.malformed(line, "a token count after 'GPU KV cache size:'");
        else
            context.add({Quantity::VllmKvCacheTokens, line.worker, {}, {}, {}, static_cast<double>(n->value), line.number},
                        LogFormat::Vllm);
        return true;
    }
    // vllm/executor/executor_base.py initialize_cache (V0):
    //   "# %s blocks: %d, # CPU blocks: %d" (the device's name: GPU, cuda, CUDA).
    if (const std::size_t at = t.find("# "); at != std::string::npos && t.find(" blocks: ", at) != std::string::npos
        && t.find(", # CPU blocks: ", at) != std::string::npos) {
        const auto n = numberAfter(t.substr(at), " blocks: ");
        if (!n || n->negative)
            context.malformed(line, "a block count after '# GPU blocks:'");
        else
            context.add({Quantity::VllmKvCacheBlocks, line.worker, {}, {}, {}, static_cast<double>(n->value), line.number},
                        LogFormat::Vllm);
        return true;
    }
    if (t.find("Maximum concurrency for ") != std::string::npos) {
        std::size_t after = 0;
        const auto length = numberAfter(t, "Maximum concurrency for ", &after, true);
        const auto concurrency = length ? numberAfter(t, "tokens per request: ") : std::nullopt;
        if (!length || !concurrency || length->negative) {
            context.malformed(line, "'Maximum concurrency for T tokens per request: C x'");
            return true;
        }
        context.log.settings.maxModelLen = Noted<std::uint64_t>{static_cast<std::uint64_t>(length->value), line.number};
        context.add({Quantity::VllmMaxConcurrency, line.worker, {}, {}, {}, static_cast<double>(concurrency->value),
                     line.number},
                    LogFormat::Vllm);
        return true;
    }
    return false;
}

} // namespace core::runlog
