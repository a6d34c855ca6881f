// ollama's server log: its own projection of a model's memory before it
// starts the llama.cpp runner, and the runner's command line. The format
// (ollama llm/memory.go and server.go, Go's log/slog text handler):
//   time=... level=INFO source=memory.go:356 msg="offload to cuda"
//     layers.requested=-1 layers.model=29 layers.offload=29 layers.split=""
//     memory.available="[78.6 GiB]" ... memory.required.full="3.7 GiB"
//     memory.required.kv="896.0 MiB" memory.required.allocations="[3.7 GiB]"
//     memory.weights.total="2.4 GiB" ... memory.graph.full="424.0 MiB"
//   (from 2025: source=server.go msg=offload library=cuda ...)
//   time=... msg="starting llama server" cmd="... --ctx-size 8192
//     --batch-size 512 --n-gpu-layers 29 ... --parallel 4 ..."
// Sizes are format.HumanBytes2: one decimal of KiB, MiB or GiB (1024-based), or "N B".

#include "core/runs/readers.h"

namespace core::runlog {

namespace {

/// The value of `key=` in a slog text line: a quoted string (quotes
/// dropped) or a bare token; nullopt when the key is absent.
std::optional<std::string> slogValue(const std::string &text, const std::string &key)
{
    std::size_t at = text.find(" " + key + "=");
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t pos = at + key.size() + 2;
    if (pos < text.size() && text[pos] == '"') {
        const std::size_t close = text.find('"', pos + 1);
        return close == std::string::npos ? std::nullopt : std::optional(text.substr(pos + 1, close - pos - 1));
    }
    const std::size_t end = text.find(' ', pos);
    return text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

/// HumanBytes2's units.
long double unitOf(const std::string &unit)
{
    if (unit == "GiB")
        return 1024.0L * 1024.0L * 1024.0L;
    if (unit == "MiB")
        return 1024.0L * 1024.0L;
    if (unit == "KiB")
        return 1024.0L;
    return unit == "B" ? 1.0L : 0.0L;
}

/// "3.7 GiB" or "[21.8 GiB 21.8 GiB]": each size and its unit.
std::vector<std::pair<PrintedNumber, long double>> sizes(const std::string &value)
{
    std::vector<std::pair<PrintedNumber, long double>> out;
    std::size_t pos = value.empty() || value[0] != '[' ? 0 : 1;
    while (pos < value.size()) {
        while (pos < value.size() && value[pos] == ' ')
            ++pos;
        if (pos >= value.size() || value[pos] == ']')
            break;
        const auto n = readNumber(value, pos);
        if (!n || pos >= value.size() || value[pos] != ' ')
            return {};
        const std::size_t unitStart = pos + 1;
        std::size_t unitEnd = unitStart;
        while (unitEnd < value.size() && value[unitEnd] != ' ' && value[unitEnd] != ']')
            ++unitEnd;
        const long double unit = unitOf(value.substr(unitStart, unitEnd - unitStart));
        if (unit == 0)
            return {};
        out.emplace_back(*n, unit);
        pos = unitEnd;
    }
    return out;
}

/// The figures of the offload line, each a total but the allocations,
/// one per GPU.
struct OffloadFigure
{
    const char *key;
    Quantity quantity;
    bool perGpu;
};
const OffloadFigure kFigures[] = {
    {"memory.required.full", Quantity::OllamaRequiredFull, false},
    {"memory.required.partial", Quantity::OllamaRequiredPartial, false},
    {"memory.required.kv", Quantity::OllamaKv, false},
    {"memory.weights.total", Quantity::OllamaWeights, false},
    {"memory.weights.repeating", Quantity::OllamaWeightsRepeating, false},
    {"memory.weights.nonrepeating", Quantity::OllamaWeightsNonRepeating, false},
    {"memory.graph.full", Quantity::OllamaGraph, false},
    {"memory.graph.partial", Quantity::OllamaGraphPartial, false},
    {"memory.required.allocations", Quantity::OllamaAllocation, true},
};

std::optional<Noted<std::uint64_t>> flagValue(const std::string &cmd, const std::string &flag, std::size_t line)
{
    const std::size_t at = cmd.find(" " + flag + " ");
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t pos = at + flag.size() + 2;
    const auto n = readNumber(cmd, pos);
    if (!n || n->negative || n->decimals > 0)
        return std::nullopt;
    return Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line};
}

} // namespace

bool OllamaReader::read(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    if (t.find(" msg=\"offload to ") != std::string::npos || t.find(" msg=offload ") != std::string::npos) {
        LogSettings &settings = context.log.settings;
        for (const OffloadFigure &f : kFigures) {
            const auto value = slogValue(t, f.key);
            if (!value)
                continue;
            const auto found = sizes(*value);
            if (found.empty() || (!f.perGpu && found.size() != 1)) {
                context.malformed(line, std::string("sizes such as \"3.7 GiB\" after ") + f.key + "=");
                continue;
            }
            for (std::size_t i = 0; i < found.size(); ++i)
                context.addPrinted(f.quantity, line, found[i].first, found[i].second,
                                   f.perGpu ? "GPU" + std::to_string(i) : std::string());
        }
        if (const auto available = slogValue(t, "memory.available")) {
            const auto free = sizes(*available);
            for (std::size_t i = 0; i < free.size(); ++i)
                context.addPrinted(Quantity::OllamaAvailable, line, free[i].first, free[i].second,
                                   "GPU" + std::to_string(i));
        }
        for (const auto &[key, member] : {std::pair{"layers.offload", &LogSettings::offloadedLayers},
                                          std::pair{"layers.model", &LogSettings::offloadableLayers}})
            if (const auto value = slogValue(t, key)) {
                std::size_t pos = 0;
                const auto n = readNumber(*value, pos);
                if (n && !n->negative && pos == value->size())
                    settings.*member = Noted<std::uint64_t>{static_cast<std::uint64_t>(n->value), line.number};
            }
        context.seen(LogFormat::Ollama);
        return true;
    }
    if (t.find(" msg=\"starting llama server\"") != std::string::npos) {
        const auto cmd = slogValue(t, "cmd");
        if (!cmd)
            return true;
        LogSettings &settings = context.log.settings;
        const std::string padded = " " + *cmd + " ";
        if (auto n = flagValue(padded, "--ctx-size", line.number))
            settings.contextSize = n;
        if (auto n = flagValue(padded, "--parallel", line.number))
            settings.sequences = n;
        if (auto n = flagValue(padded, "--batch-size", line.number))
            settings.batch = n;
        context.seen(LogFormat::Ollama);
        return true;
    }
    return false;
}

} // namespace core::runlog
