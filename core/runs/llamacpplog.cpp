// llama.cpp's load log (llama-cli, llama-server, and ollama's vendored
// copy). The format strings, as llama.cpp prints them (ec98e2002 and
// current master):
//   src/llama.cpp llama_model_load_from_file_impl:
//     "%s: using device %s (%s) - %zu MiB free\n"
//   ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_init:
//     "  Device %d: %s, compute capability %d.%d, VMM: %s\n"
//     (", VRAM: %zu MiB" appended in later builds)
//   src/llama-model.cpp llama_model::load_tensors:
//     "%s: offloaded %d/%d layers to GPU\n"
//     "%s: %12s model buffer size = %8.2f MiB\n"
//     (llama.cpp b1500-b3300, 2023-24, llama.cpp llm_load_tensors:
//     "%s: %10s buffer size = %8.2f MiB\n", no "model")
//   src/llama-kv-cache.cpp llama_kv_cache constructor:
//     "%s: %10s KV buffer size = %8.2f MiB\n"
//     "%s: size = %7.2f MiB (%6u cells, %3d layers, %2u/%u seqs), K (%s): %7.2f MiB, V (%s): %7.2f MiB\n"
//     (2024: "%s: KV self size  = %7.2f MiB, K (%s): %7.2f MiB, V (%s): %7.2f MiB\n")
//   src/llama-context.cpp llama_context constructor:
//     "%s: n_seq_max     = %u\n", "%s: n_ctx         = %u\n",
//     "%s: n_ctx_seq     = %u\n" (n_ctx_per_seq before), "%s: n_batch       = %u\n",
//     "%s: n_ubatch      = %u\n", "%s: flash_attn    = %s\n" (llama_flash_attn_type_name:
//     auto, enabled, disabled; "%d" before), "%s: kv_unified    = %s\n",
//     "%s: %10s  output buffer size = %8.2f MiB\n"
//   src/llama-context.cpp sched_reserve (llama_context constructor before):
//     "%s: %10s compute buffer size = %8.2f MiB\n"
//   common/fit.cpp common_params_fit_impl: llamafitlog.cpp
//   common/fit.cpp common_memory_breakdown_print (llama.cpp 0.4.0; --fit
//   prints it for each dry run, the server at exit), in whole MiB:
//     "%s: | %s | %s   %s    %s   %s   %s   %s    %s |"  (the header: memory breakdown [MiB])
//     "%s: | %s | %s = %s + (%s = %s + %s + %s) + %s |"  (a GPU: total = free + (self = model + context + compute) + unaccounted)
//     "%s: | %s | %s   %s    %s = %s + %s + %s    %s |"  (the host: self = model + context + compute)
// Sizes are buffer bytes / 1024.0 / 1024.0 printed with 2 decimals.

#include "core/runs/readers.h"

#include <algorithm>

namespace core::runlog {

namespace {

/// The buffer name printed right before `anchor`: "CUDA0" in
/// "load_tensors:        CUDA0 model buffer size = ...".
std::string bufferNameBefore(const std::string &text, std::size_t anchorAt)
{
    std::size_t end = anchorAt;
    while (end > 0 && text[end - 1] == ' ')
        --end;
    std::size_t start = end;
    while (start > 0 && text[start - 1] != ' ' && text[start - 1] != ':')
        --start;
    return text.substr(start, end - start);
}

struct BufferLine
{
    const char *anchor;
    Quantity quantity;
};
const BufferLine kBuffers[] = {
    {" model buffer size = ", Quantity::LlamaModelBuffer},
    {" KV buffer size = ", Quantity::LlamaKvBuffer},
    {" compute buffer size = ", Quantity::LlamaComputeBuffer},
    {" output buffer size = ", Quantity::LlamaOutputBuffer},
    // llama_memory_recurrent: the recurrent state of hybrid and SSM models,
    // which the planner's KV term holds (llama-memory-recurrent.cpp).
    {" RS buffer size = ", Quantity::LlamaKvBuffer},
};

/// "n_ctx         = 4096": the value of `key` when the line prints it.
bool settingValue(const std::string &text, const std::string &key, std::string &value)
{
    const std::size_t at = text.find(": " + key + " ");
    if (at == std::string::npos)
        return false;
    std::size_t pos = at + key.size() + 3;
    while (pos < text.size() && text[pos] == ' ')
        ++pos;
    if (pos >= text.size() || text[pos] != '=')
        return false;
    value = trimmed(text.substr(pos + 1));
    return true;
}

std::optional<bool> flashValue(const std::string &value)
{
    // "auto" resolves to on where the backend supports it (llama_context
    // constructor: "Flash Attention was auto, set to enabled").
    if (value == "enabled" || value == "auto" || value == "1" || value == "true")
        return true;
    if (value == "disabled" || value == "0" || value == "false")
        return false;
    return std::nullopt;
}

/// "q8_0" from ", K (q8_0): ..." in the KV cache's size line.
std::optional<std::string> typeAfter(const std::string &text, const std::string &anchor)
{
    const std::size_t at = text.find(anchor);
    if (at == std::string::npos)
        return std::nullopt;
    const std::size_t close = text.find(')', at + anchor.size());
    if (close == std::string::npos)
        return std::nullopt;
    std::string type = text.substr(at + anchor.size(), close - at - anchor.size());
    if (type.empty() || type.find(' ') != std::string::npos)
        return std::nullopt;
    return type;
}

/// The detail of the breakdown's readings: each table replaces the one
/// before (a --fit dry run, then the next), so only the last one stands.
const char *const kBreakdown = "memory breakdown";

/// The whole MiB of the breakdown table: "32111", "-17552".
std::optional<PrintedNumber> wholeMib(const std::string &text, std::size_t &pos)
{
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '(' || text[pos] == ')' || text[pos] == '=' || text[pos] == '+'))
        ++pos;
    return readNumber(text, pos);
}

/// A device row of the memory breakdown: "  - CUDA0 (RTX 5090)   | 32111
/// = 31605 + (18058 = 16386 + 1024 + 648) + -17552 |" or "  - Host | 1234
/// = 682 + 0 + 552 |". The figures are model, context (the KV cache and
/// the output buffer) and compute, and for a GPU its total and free memory.
bool readBreakdownRow(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    const std::size_t dash = t.find("|   - ");
    if (dash == std::string::npos)
        return false;
    const std::size_t bar = t.find('|', dash + 6);
    if (bar == std::string::npos) {
        context.malformed(line, "'| - DEVICE | figures |' in the memory breakdown");
        return true;
    }
    const std::string label = trimmed(t.substr(dash + 6, bar - dash - 6));
    const std::string device = label.substr(0, label.find(" ("));
    const bool gpu = t.find("= (", bar) == std::string::npos && t.find("+ (", bar) != std::string::npos;
    std::size_t pos = bar + 1;
    std::vector<PrintedNumber> n;
    while (n.size() < (gpu ? 7u : 4u)) {
        const auto value = wholeMib(t, pos);
        if (!value)
            break;
        n.push_back(*value);
    }
    if (n.size() != (gpu ? 7u : 4u)) {
        context.malformed(line, gpu ? "'total = free + (self = model + context + compute) + unaccounted' in MiB"
                                    : "'self = model + context + compute' in MiB");
        return true;
    }
    // total, free, self, model, context, compute (a GPU); self, model, context, compute (the host)
    const std::size_t model = gpu ? 3 : 1;
    context.addPrinted(Quantity::LlamaModelBuffer, line, n[model], kMiB, device, kBreakdown);
    context.addPrinted(Quantity::LlamaKvBuffer, line, n[model + 1], kMiB, device, kBreakdown);
    context.addPrinted(Quantity::LlamaComputeBuffer, line, n[model + 2], kMiB, device, kBreakdown);
    if (gpu) {
        context.addPrinted(Quantity::LlamaDeviceFree, line, n[1], kMiB, device, kBreakdown);
        const Bytes total = bytesOf(n[0], kMiB);
        bool known = false;
        for (LogDevice &d : context.log.settings.devices)
            if (d.id == device) {
                d.total = total;
                known = true;
            }
        if (!known)
            context.log.settings.devices.push_back({device, deviceNumber(device), "", total, line.number});
    }
    return true;
}

} // namespace

bool LlamaCppReader::read(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    LogSettings &settings = context.log.settings;

    if (readLlamaFitLine(line, context))
        return true;

    if (t.find("| memory breakdown [MiB]") != std::string::npos) {
        m_inBreakdown = true;
        std::vector<Reading> &readings = context.log.readings;
        readings.erase(std::remove_if(readings.begin(), readings.end(),
                                      [](const Reading &r) { return r.detail == kBreakdown; }),
                       readings.end());
        context.seen(LogFormat::LlamaCpp);
        return true;
    }
    if (m_inBreakdown) {
        if (readBreakdownRow(line, context))
            return true;
        m_inBreakdown = false;
    }

    // The model buffers of 2023-24, before "model" joined the line.
    // (mid-2024 on, llm_load_tensors printed "model" too: ollama's vendored copies)
    const bool oldModelBuffer = t.find("llm_load_tensors: ") != std::string::npos
        && t.find(" model buffer size = ") == std::string::npos;
    for (const BufferLine &b : kBuffers) {
        const std::size_t at = t.find(oldModelBuffer && b.quantity == Quantity::LlamaModelBuffer ? " buffer size = " : b.anchor);
        if (at == std::string::npos)
            continue;
        const std::string name = bufferNameBefore(t, at);
        std::size_t pos = t.find(" = ", at) + 3;
        const auto n = readNumber(t, pos);
        if (name.empty() || !n || n->negative || t.compare(pos, 4, " MiB") != 0) {
            context.malformed(line, std::string("a buffer name and a size in MiB around '") + trimmed(b.anchor) + "'");
            return true;
        }
        context.addPrinted(b.quantity, line, *n, kMiB, name,
                           b.anchor == std::string(" RS buffer size = ") ? "recurrent state" : "");
        return true;
    }
    // A buffer line of a kind the reader does not know (2024's separate
    // "input buffer", say) is named once, at its first line.
    if (const std::size_t at = t.find(" buffer size"); at != std::string::npos && t.find(" MiB", at) != std::string::npos) {
        std::size_t start = at;
        while (start > 0 && t[start - 1] != ' ')
            --start;
        const std::string kind = t.substr(start, at - start);
        if (m_unknownBuffers.insert(kind).second)
            context.warnings.push_back(atLine(line.number, "a llama.cpp '" + kind
                                                               + " buffer' this reader does not know; not compared"));
        context.seen(LogFormat::LlamaCpp);
        return true;
    }

    if (t.find("using device ") != std::string::npos && t.find("skipping device") == std::string::npos) {
        const std::size_t at = t.find("using device ") + 13;
        const std::size_t open = t.find(" (", at);
        const std::size_t close = t.rfind(") - ");
        std::size_t pos = close == std::string::npos ? std::string::npos : close + 4;
        const auto free = pos == std::string::npos ? std::nullopt : readNumber(t, pos);
        if (open == std::string::npos || close < open || !free || t.compare(pos, 9, " MiB free") != 0) {
            context.malformed(line, "'using device NAME (DESCRIPTION) - N MiB free'");
            return true;
        }
        const std::string id = t.substr(at, open - at);
        const std::string description = t.substr(open + 2, close - open - 2);
        // %zu of free/1024/1024: the MiB below the true figure.
        Reading r{Quantity::LlamaDeviceFree, id, description, bytesOf(*free, kMiB), bytesOf({1, 0, false}, kMiB), 0,
                  line.number};
        context.add(r, LogFormat::LlamaCpp);
        bool known = false;
        for (LogDevice &d : settings.devices)
            if (d.id == id) {
                d.name = description;
                known = true;
            }
        if (!known) {
            settings.devices.push_back({id, deviceNumber(id), description, std::nullopt, line.number});
        }
        return true;
    }

    if (t.find(", compute capability ") != std::string::npos && t.find("Device ") != std::string::npos) {
        std::size_t pos = t.find("Device ") + 7;
        const auto index = readNumber(t, pos);
        const std::size_t nameEnd = t.find(", compute capability ");
        if (!index || index->negative || index->value > 100000 || pos + 2 > nameEnd || t.compare(pos, 2, ": ") != 0) {
            context.malformed(line, "'Device N: NAME, compute capability X.Y'");
            return true;
        }
        LogDevice device{"CUDA" + std::to_string(static_cast<int>(index->value)), static_cast<int>(index->value),
                         t.substr(pos + 2, nameEnd - pos - 2), std::nullopt, line.number};
        if (const auto vram = numberAfter(t, ", VRAM: "))
            device.total = bytesOf(*vram, kMiB);
        bool known = false;
        for (LogDevice &d : settings.devices)
            if (d.id == device.id) {
                d.total = device.total ? device.total : d.total;
                known = true;
            }
        if (!known)
            settings.devices.push_back(device);
        context.seen(LogFormat::LlamaCpp);
        return true;
    }

    if (t.find("offloaded ") != std::string::npos && t.find(" layers to GPU") != std::string::npos) {
        std::size_t pos = t.find("offloaded ") + 10;
        const auto n = readNumber(t, pos);
        std::size_t slash = pos + 1;
        const auto m = (pos < t.size() && t[pos] == '/') ? readNumber(t, slash) : std::nullopt;
        if (!n || !m || n->negative || m->negative) {
            context.malformed(line, "'offloaded N/M layers to GPU'");
            return true;
        }
        settings.offloadedLayers = Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
        settings.offloadableLayers = Noted<std::uint64_t>{static_cast<std::uint64_t>(m->value), line.number};
        context.seen(LogFormat::LlamaCpp);
        return true;
    }

    if (t.find(", K (") != std::string::npos && t.find(", V (") != std::string::npos) {
        const auto k = typeAfter(t, ", K (");
        const auto v = typeAfter(t, ", V (");
        if (!k || !v) {
            context.malformed(line, "'K (TYPE): ... V (TYPE): ...'");
            return true;
        }
        settings.kType = Noted<std::string>{*k, line.number};
        settings.vType = Noted<std::string>{*v, line.number};
        context.seen(LogFormat::LlamaCpp);
        return true;
    }

    const std::pair<const char *, std::optional<Noted<std::uint64_t>> LogSettings::*> counts[] = {
        {"n_ctx", &LogSettings::contextSize},       {"n_ctx_seq", &LogSettings::contextPerSequence},
        {"n_ctx_per_seq", &LogSettings::contextPerSequence}, {"n_seq_max", &LogSettings::sequences},
        {"n_batch", &LogSettings::batch},           {"n_ubatch", &LogSettings::ubatch}};
    std::string value;
    for (const auto &[key, member] : counts) {
        if (!settingValue(t, key, value))
            continue;
        std::size_t pos = 0;
        const auto n = readNumber(value, pos);
        if (!n || n->negative || n->decimals > 0 || pos != value.size()) {
            context.malformed(line, std::string("a whole number after '") + key + " ='");
            return true;
        }
        settings.*member = Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
        context.seen(LogFormat::LlamaCpp);
        return true;
    }
    if (settingValue(t, "flash_attn", value)) {
        const auto flash = flashValue(value);
        if (!flash)
            context.malformed(line, "auto, enabled or disabled after 'flash_attn ='");
        else
            settings.flashAttention = Noted<bool>{*flash, line.number};
        context.seen(LogFormat::LlamaCpp);
        return true;
    }
    if (t.find("Flash Attention was auto, set to ") != std::string::npos) {
        const auto flash = flashValue(trimmed(t.substr(t.find("set to ") + 7)));
        if (flash)
            settings.flashAttention = Noted<bool>{*flash, line.number};
        return true;
    }
    if (settingValue(t, "kv_unified", value)) {
        if (value != "true" && value != "false")
            context.malformed(line, "true or false after 'kv_unified ='");
        else
            settings.kvUnified = Noted<bool>{value == "true", line.number};
        return true;
    }
    return false;
}

} // namespace core::runlog
