// llama-server's --fit (common/fit.cpp common_params_fit_impl, llama.cpp
// 0.4.0; llama_params_fit in src/llama.cpp in 2025), the lines that state
// figures, every size an int64 / MiB (whole MiB, rounded down):
//   "%s: projected to use %" PRId64 " MiB of device memory vs. %" PRId64 " MiB of free device memory"
//     ("vs. a total of %d MiB" in 2025)
//   "%s:   - %s: %6" PRId64 " total, %6" PRId64 " used, %6" PRId64 " free vs. target of %6" PRId64
//     ("... used, %6d deficit" in 2025), one per device
//   "%s: cannot meet free memory target of %" PRId64 " MiB, need to reduce device memory by %" PRId64 " MiB"
//   "%s: cannot meet free memory targets on all devices, need to use %" PRId64 " MiB less in total"
//   "%s: context size reduced from %" PRIu32 " to %" PRIu32 " -> need %" PRId64 " MiB less memory in total"
//   "%s: context size set by user to %" PRIu32 " -> no change"
//   "%s: with only dense weights in device memory there is a total surplus of %" PRId64 " MiB"
//     ("... there is still a total deficit of %" PRId64 " MiB")
//   "%s: id=%zu, target=%" PRId64 " MiB"
//   "%s:   - %s: %2" PRIu32 " layers, %6" PRId64 " MiB used, %6" PRId64 " MiB free"
//     ("%2u layers (%2u overflowing), ..." once experts move), one per device
//   "set to use %u dense-only and %u full GPU layers in total" (2025)

#include "core/runs/readers.h"

#include <algorithm>

namespace core::runlog {

namespace {

/// A whole-MiB figure: the true size lies up to one MiB above it.
void addFlooredMiB(ReadContext &context, Quantity quantity, const LogLine &line, const PrintedNumber &number,
                   std::string device = {}, std::string detail = {})
{
    if (number.negative || number.decimals > 0) {
        context.malformed(line, std::string("a whole number of MiB for ") + quantityInfo(quantity).label);
        return;
    }
    context.add({quantity, std::move(device), std::move(detail), bytesOf(number, kMiB), bytesOf({1, 0, false}, kMiB), 0,
                 line.number},
                LogFormat::LlamaCpp);
}

/// "CUDA0" of "  - CUDA0 (NVIDIA RTX ...): ...", and the name in brackets.
std::pair<std::string, std::string> deviceLabel(const std::string &t, std::size_t dash, std::size_t colon)
{
    const std::string label = trimmed(t.substr(dash, colon - dash));
    const std::size_t open = label.find(" (");
    const std::string name = open == std::string::npos ? "" : label.substr(open + 2, label.rfind(')') - open - 2);
    return {label.substr(0, open), name};
}

void noteDevice(LogSettings &settings, const std::string &device, const std::string &name,
                std::optional<Bytes> total, std::size_t line)
{
    const auto known = std::find_if(settings.devices.begin(), settings.devices.end(),
                                    [&device](const LogDevice &d) { return d.id == device; });
    if (known == settings.devices.end())
        settings.devices.push_back({device, deviceNumber(device), name, total, line});
    else if (total)
        known->total = total;
}

/// The projection for each device at the start (several devices).
bool readDeviceProjection(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    const std::size_t dash = t.find("  - ") + 4;
    // The last colon before the figures: an RPC device's name holds host:port.
    const std::size_t colon = t.rfind(':', t.find(" total, "));
    std::size_t pos = colon == std::string::npos || colon < dash ? t.size() : t.find_first_not_of(' ', colon + 1);
    const auto total = pos == std::string::npos ? std::nullopt : readNumber(t, pos);
    const auto used = numberAfter(t, " total, ");
    if (colon == std::string::npos || colon < dash || !total || total->negative || !used || used->negative) {
        context.malformed(line, "'- DEVICE: N total, N used, ...' in MiB");
        return true;
    }
    const auto [device, name] = deviceLabel(t, dash, colon);
    addFlooredMiB(context, Quantity::LlamaFitProjected, line, *used, device);
    noteDevice(context.log.settings, device, name, bytesOf(*total, kMiB), line.number);
    return true;
}

/// A device's share of the layout --fit settled on (steps 3 and 4 print it).
bool readDevicePlacement(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    const std::size_t dash = t.find("  - ") + 4;
    const std::size_t colon = t.rfind(':', t.find(" layers"));
    const std::size_t usedAt = t.find(" MiB used");
    std::size_t layersPos = colon == std::string::npos || colon < dash ? t.size() : colon + 1;
    std::size_t usedPos = t.rfind(',', usedAt);
    usedPos = usedPos == std::string::npos ? t.size() : usedPos + 1;
    const auto layers = readNumber(t, layersPos);
    const auto used = readNumber(t, usedPos);
    if (!layers || layers->negative || layers->decimals > 0 || !used || usedPos != usedAt) {
        context.malformed(line, "'- DEVICE: N layers, N MiB used, N MiB free'");
        return true;
    }
    const auto [device, name] = deviceLabel(t, dash, colon);
    context.add({Quantity::LlamaFitLayers, device, {}, {}, {}, static_cast<double>(layers->value), line.number},
                LogFormat::LlamaCpp);
    addFlooredMiB(context, Quantity::LlamaFitPlaced, line, *used, device);
    noteDevice(context.log.settings, device, name, std::nullopt, line.number);
    return true;
}

std::optional<std::uint64_t> tokenCount(const std::optional<PrintedNumber> &n)
{
    if (!n || n->negative || n->decimals > 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(n->value);
}

} // namespace

bool readLlamaFitLine(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    LogSettings &settings = context.log.settings;
    const auto has = [&t](const char *text) { return t.find(text) != std::string::npos; };

    if (has("projected to use ") && has(" MiB of device memory")) {
        const auto used = numberAfter(t, "projected to use ");
        if (!used) {
            context.malformed(line, "'projected to use N MiB of device memory'");
            return true;
        }
        addFlooredMiB(context, Quantity::LlamaFitProjected, line, *used);
        if (has(" MiB of free device memory"))
            if (const auto free = numberAfter(t, " vs. "))
                addFlooredMiB(context, Quantity::LlamaDeviceFree, line, *free);
        return true;
    }
    if (has("  - ") && has(" total, ") && has(" used, "))
        return readDeviceProjection(line, context);
    if (has("  - ") && has(" layers") && has(" MiB used, ") && has(" MiB free"))
        return readDevicePlacement(line, context);
    for (const char *anchor : {"need to reduce device memory by ", "need to use ", "still a total deficit of "}) {
        if (!has(anchor))
            continue;
        const auto n = numberAfter(t, anchor);
        if (!n)
            context.malformed(line, std::string("a size in MiB after '") + trimmed(anchor) + "'");
        else
            addFlooredMiB(context, Quantity::LlamaFitDeficit, line, *n, {},
                          std::string(anchor).find("still") != std::string::npos ? "experts on the host" : "");
        return true;
    }
    if (has("with only dense weights in device memory there is a total surplus of ")) {
        if (const auto n = numberAfter(t, "total surplus of "))
            addFlooredMiB(context, Quantity::LlamaFitDenseOnlySurplus, line, *n);
        else
            context.malformed(line, "a size in MiB after 'total surplus of'");
        return true;
    }
    // The context --fit settles on (or keeps): the run's n_ctx.
    if (has("context size reduced from ")) {
        std::size_t after = 0;
        const auto from = tokenCount(numberAfter(t, "context size reduced from ", &after));
        const std::string rest = t.substr(after);
        std::size_t toEnd = 0;
        const auto to = tokenCount(numberAfter(rest, " to ", &toEnd));
        if (!from || !to) {
            context.malformed(line, "'context size reduced from N to M'");
            return true;
        }
        settings.contextSize = Noted<std::uint64_t>{*to, line.number};
        context.seen(LogFormat::LlamaCpp);
        if (const auto saving = numberAfter(rest.substr(toEnd), "-> need "))
            addFlooredMiB(context, Quantity::LlamaFitContextSaving, line, *saving);
        return true;
    }
    if (has("context size set by user to ")) {
        if (const auto n = tokenCount(numberAfter(t, "context size set by user to ")))
            settings.contextSize = Noted<std::uint64_t>{*n, line.number};
        else
            context.malformed(line, "a token count after 'context size set by user to'");
        context.seen(LogFormat::LlamaCpp);
        return true;
    }
    if (has(", target=") && has(" MiB")) {
        std::size_t after = 0;
        const auto id = tokenCount(numberAfter(t, "id=", &after));
        const auto target = numberAfter(t, ", target=");
        if (!id || !target) {
            context.malformed(line, "'id=N, target=M MiB'");
            return true;
        }
        // fit.cpp's id is the device's position in its list, as the log named them.
        addFlooredMiB(context, Quantity::LlamaFitTarget, line, *target,
                      *id < settings.devices.size() ? settings.devices[*id].id : "device " + std::to_string(*id));
        return true;
    }
    if (has("set to use ") && has(" dense-only and ") && has(" full GPU layers")) {
        std::size_t after = 0;
        const auto denseOnly = tokenCount(numberAfter(t, "set to use ", &after));
        const auto full = tokenCount(numberAfter(t.substr(after), " dense-only and "));
        if (!denseOnly || !full) {
            context.malformed(line, "'set to use N dense-only and M full GPU layers'");
            return true;
        }
        settings.offloadedLayers = Noted<std::uint64_t>{*denseOnly + *full, line.number};
        settings.fitDenseOnlyLayers = Noted<std::uint64_t>{*denseOnly, line.number};
        context.seen(LogFormat::LlamaCpp);
        return true;
    }
    return false;
}

} // namespace core::runlog
