// SGLang's start-up memory lines. Every format string below was read in
// SGLang's source (release/v0.5.15 0b3bb0c; v0.4.6 84022c0 where older):
//   model_runner.py:  "Init torch distributed ends. [elapsed=%.2f s, ]mem usage=%.2f GB"
//                     "Load weight begin. avail mem=%.2f GB"
//                     "Load weight end. [elapsed=%.2f s, ]type=..., [dtype=..., ]avail mem=%.2f GB,
//                      mem usage=%.2f GB."
//   memory_pool.py:   "KV Cache is allocated. [dtype: ..., ]#tokens: N, K size: %.2f GB, V size: %.2f GB"
//                     "KV Cache is allocated. [dtype: ..., ]#tokens: N, KV size: %.2f GB" (MLA)
//   kv cache mixin:   "Memory pool end. avail mem=%.2f GB"
//   the server_args dump: "server_args=ServerArgs(..., tp_size=4, ..., mem_fraction_static=0.85, ...)"
// Every "GB" is GiB: get_available_gpu_memory returns free / (1 << 30) and
// memory_pool.py divides by GB = 1024 * 1024 * 1024.

#include "core/runs/readers.h"

namespace core::runlog {

namespace {

/// The rank of the logger's prefix, "[2025-03-08 12:29:21 TP0]" (also
/// "DP0 TP0 EP0"): "TP0"; empty for the launcher's own lines.
std::string rankOf(const std::string &text)
{
    if (text.empty() || text[0] != '[')
        return {};
    const std::size_t close = text.find(']');
    const std::size_t tp = text.find(" TP", 0);
    if (close == std::string::npos || tp == std::string::npos || tp > close)
        return {};
    std::size_t end = tp + 3;
    while (end < close && text[end] >= '0' && text[end] <= '9')
        ++end;
    return end > tp + 3 ? text.substr(tp + 1, end - tp - 1) : std::string();
}

} // namespace

bool SglangReader::read(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    if (t.find("Init torch distributed ends.") != std::string::npos) {
        context.readGib(line, "mem usage=", Quantity::SglangDistInit, rankOf(line.text), "GB");
        return true;
    }
    if (t.find("Load weight begin.") != std::string::npos) {
        context.readGib(line, "avail mem=", Quantity::SglangFreeBeforeLoad, rankOf(line.text), "GB");
        return true;
    }
    if (t.find("Load weight end.") != std::string::npos) {
        context.readGib(line, "avail mem=", Quantity::SglangFreeAfterLoad, rankOf(line.text), "GB");
        context.readGib(line, "mem usage=", Quantity::SglangWeightLoad, rankOf(line.text), "GB");
        return true;
    }
    if (t.find("KV Cache is allocated.") != std::string::npos) {
        if (const auto tokens = numberAfter(t, "#tokens:"); tokens && !tokens->negative && tokens->decimals == 0) {
            context.add({Quantity::SglangKvTokens, rankOf(t), {}, {}, {}, static_cast<double>(tokens->value), line.number},
                        LogFormat::Sglang);
        }
        const auto k = numberAfter(t, "K size:");
        const auto v = numberAfter(t, "V size:");
        const auto kv = numberAfter(t, "KV size:");
        if (k && v) {
            context.add({Quantity::SglangKvCache, rankOf(t), {}, bytesOf(*k, kGiB) + bytesOf(*v, kGiB),
                         halfLastDigit(*k, kGiB) + halfLastDigit(*v, kGiB), 0, line.number},
                        LogFormat::Sglang);
        } else if (kv) {
            context.addPrinted(Quantity::SglangKvCache, line, *kv, kGiB, rankOf(t));
        } else {
            context.malformed(line, "\"K size: X GB, V size: X GB\" or \"KV size: X GB\"");
        }
        return true;
    }
    if (t.find("Memory pool end.") != std::string::npos) {
        context.readGib(line, "avail mem=", Quantity::SglangFreeAfterPool, rankOf(line.text), "GB");
        return true;
    }
    if (t.find("server_args=ServerArgs(") != std::string::npos) {
        LogSettings &settings = context.log.settings;
        if (const auto f = numberAfter(t, " mem_fraction_static="))
            settings.memFractionStatic = Noted<double>{static_cast<double>(f->value), line.number};
        if (const auto tp = numberAfter(t, " tp_size="); tp && !tp->negative && tp->decimals == 0)
            settings.tensorParallel = Noted<std::uint64_t>{static_cast<std::uint64_t>(tp->value), line.number};
        context.seen(LogFormat::Sglang);
        return true;
    }
    return false;
}

} // namespace core::runlog
