// PyTorch's caching-allocator statistics, as torch/cuda/memory.py prints
// them, and the Hugging Face Trainer's memory metrics built on them.

#include "core/runs/readers.h"

#include <cctype>

namespace core::runlog {

namespace {

/// torch/cuda/memory.py memory_summary, _format_size: the size is floored
/// by repeated `sz //= 1024` and printed f"{sz:6d} {prefix}" with "B  ",
/// "KiB", "MiB", "GiB", "TiB", "PiB" (older releases "{:7d} {}" with "B ",
/// "KB", "MB", "GB", "TB", "PB", also powers of 1024).
std::optional<long double> summaryUnit(const std::string &prefix)
{
    const std::pair<const char *, const char *> units[] = {{"B", "B"}, {"KiB", "KB"}, {"MiB", "MB"},
                                                           {"GiB", "GB"}, {"TiB", "TB"}, {"PiB", "PB"}};
    long double unit = 1;
    for (const auto &[binary, old] : units) {
        if (prefix == binary || prefix == old)
            return unit;
        unit *= 1024;
    }
    return std::nullopt;
}

struct SummaryCell
{
    Bytes bytes;
    Bytes unit;
};

std::optional<SummaryCell> summaryCell(const std::string &cell)
{
    std::size_t pos = 0;
    const auto n = readNumber(cell, pos);
    if (!n || n->negative || n->decimals > 0)
        return std::nullopt;
    const auto unit = summaryUnit(trimmed(cell.substr(pos)));
    if (!unit)
        return std::nullopt;
    return SummaryCell{bytesOf(*n, *unit), bytesOf({1, 0, false}, *unit)};
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The integer after a printed key: `"key": 123`, `'key': 123` (a dict)
/// or `('key', 123)` (an OrderedDict's repr). `pos` is just past the key.
std::optional<PrintedNumber> valueAfterKey(const std::string &text, std::size_t pos)
{
    if (pos < text.size() && (text[pos] == '"' || text[pos] == '\''))
        ++pos;
    while (pos < text.size() && text[pos] == ' ')
        ++pos;
    if (pos >= text.size() || (text[pos] != ':' && text[pos] != ',' && text[pos] != '='))
        return std::nullopt;
    ++pos;
    return readNumber(text, pos);
}

} // namespace

bool TorchSummaryReader::read(const LogLine &line, ReadContext &context)
{
    const std::string &t = line.text;
    // " {_:16} PyTorch CUDA memory summary, device ID {device:<17d} "
    if (const auto id = numberAfter(t, "PyTorch CUDA memory summary, device ID "); id && id->value < 100000) {
        m_device = "GPU " + std::to_string(static_cast<long long>(id->value));
        m_inSummary = true;
        context.seen(LogFormat::TorchMemorySummary);
        return true;
    }
    // " {:<21} | {} | {} | {} | {} ": metric, Cur Usage, Peak Usage, Tot Alloc, Tot Freed.
    // memory_summary returns "|" + "|\n|".join(lines) + "|\n": every line boxed.
    std::string row = trimmed(t);
    if (row.size() < 2 || row.front() != '|' || row.back() != '|')
        return false;
    const std::vector<std::string> cells = splitTrimmed(row.substr(1, row.size() - 2), '|');
    if (cells.size() != 5)
        return false;
    const std::string &name = cells[0];
    const bool allocated = endsWith(name, "Allocated memory");
    const bool reserved = endsWith(name, "GPU reserved memory");
    if (!allocated && !reserved)
        return false;
    const auto current = summaryCell(cells[1]);
    const auto peak = summaryCell(cells[2]);
    if (!current || !peak) {
        context.malformed(line, "sizes such as '1234 MiB' under Cur Usage and Peak Usage");
        return true;
    }
    const Quantity cur = allocated ? Quantity::TorchAllocatedCurrent : Quantity::TorchReservedCurrent;
    const Quantity top = allocated ? Quantity::TorchAllocatedPeak : Quantity::TorchReservedPeak;
    context.add({cur, m_device, {}, current->bytes, current->unit, 0, line.number}, LogFormat::TorchMemorySummary);
    context.add({top, m_device, {}, peak->bytes, peak->unit, 0, line.number}, LogFormat::TorchMemorySummary);
    return true;
}

bool TorchStatsReader::read(const LogLine &line, ReadContext &context)
{
    // torch/cuda/memory.py memory_stats: "allocated_bytes.{all,large_pool,
    // small_pool}.{current,peak,allocated,freed}" and the same for
    // reserved_bytes, in bytes.
    const std::pair<const char *, Quantity> keys[] = {
        {"allocated_bytes.all.current", Quantity::TorchAllocatedCurrent},
        {"allocated_bytes.all.peak", Quantity::TorchAllocatedPeak},
        {"reserved_bytes.all.current", Quantity::TorchReservedCurrent},
        {"reserved_bytes.all.peak", Quantity::TorchReservedPeak}};
    bool any = false;
    for (const auto &[key, quantity] : keys) {
        const std::size_t at = line.text.find(key);
        if (at == std::string::npos)
            continue;
        any = true;
        const auto n = valueAfterKey(line.text, at + std::string(key).size());
        if (!n || n->negative || n->decimals > 0) {
            context.malformed(line, std::string("a byte count after '") + key + "'");
            continue;
        }
        context.add({quantity, {}, {}, bytesOf(*n, 1), Bytes(), 0, line.number}, LogFormat::TorchMemoryStats);
    }
    return any;
}

bool HfTrainerReader::read(const LogLine &line, ReadContext &context)
{
    // TrainerMemoryTracker.update_metrics:
    //   metrics[f"{stage}_mem_gpu_{t}_delta"] = self.gpu[stage][t], t in alloc, peaked
    // in bytes (a logged dict, train_results.json); log_metrics prints
    // metrics_format's f"{ v >> 20 }MB" as f"  {key: <{k_width}} = {value:>{v_width}}".
    const std::string &t = line.text;
    bool any = false;
    for (const auto &[suffix, quantity] : {std::pair{"_mem_gpu_alloc_delta", Quantity::HfAllocDelta},
                                           std::pair{"_mem_gpu_peaked_delta", Quantity::HfPeakedDelta}}) {
        const std::string s = suffix;
        for (std::size_t at = t.find(s); at != std::string::npos; at = t.find(s, at + 1)) {
            std::size_t begin = at;
            while (begin > 0 && isWordChar(t[begin - 1]))
                --begin;
            if (begin == at)
                continue;
            any = true;
            const std::string stage = t.substr(begin, at - begin);
            std::size_t pos = at + s.size();
            if (pos < t.size() && (t[pos] == '"' || t[pos] == '\''))
                ++pos;
            while (pos < t.size() && t[pos] == ' ')
                ++pos;
            const bool separated = pos < t.size() && (t[pos] == ':' || t[pos] == '=');
            if (separated)
                ++pos;
            while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\''))
                ++pos;
            const auto n = separated ? readNumber(t, pos) : std::nullopt;
            if (!n || n->decimals > 0) {
                context.malformed(line, "a byte count or 'N MB' after '" + stage + s + "'");
                continue;
            }
            if (n->negative) {
                context.warnings.push_back(atLine(line.number, stage + s + " is negative (memory freed); not compared"));
                context.seen(LogFormat::HfTrainer);
                continue;
            }
            const bool mib = t.compare(pos, 2, "MB") == 0;
            context.add({quantity, {}, stage, bytesOf(*n, mib ? kMiB : 1), mib ? bytesOf({1, 0, false}, kMiB) : Bytes(), 0,
                         line.number},
                        LogFormat::HfTrainer);
        }
    }
    return any;
}

} // namespace core::runlog
