// PyTorch's CUDA out-of-memory error, as c10/cuda/CUDACachingAllocator.cpp
// (DeviceCachingAllocator::malloc) words it; sizes by c10's format_size:
// "%.2f" of bytes, KiB, MiB or GiB ("N bytes" up to 1 KiB).
//   torch 1.x-2.0: "CUDA out of memory. Tried to allocate %s (GPU %d; %s total
//     capacity; %s already allocated; %s free; [%s allowed; ]%s reserved in
//     total by PyTorch)"
//   torch 2.1 on: "CUDA out of memory. Tried to allocate %s. GPU %d has a total
//     capacity of %s of which %s is free. [Process %d has %s memory in use. ...
//     | Including non-PyTorch memory, this process has %s memory in use. ]
//     [%s allowed; ]Of the allocated memory %s is allocated by PyTorch, [with
//     %s allocated in private pools (e.g., CUDA Graphs), ]and %s is reserved
//     by PyTorch but unallocated." (2.1 spelt "capacty"; ROCm says "HIP").
// Pasted messages are often wrapped: the reader joins lines until the
// message's end.

#include "core/runs/readers.h"

#include <cctype>

namespace core::runlog {

namespace {

constexpr std::size_t kMaxMessageLines = 8;

struct PrintedSize
{
    PrintedNumber number;
    long double unit = 1;
};

/// format_size's "12.34 GiB" (or "512 bytes") at `pos`.
std::optional<PrintedSize> sizeAt(const std::string &text, std::size_t pos)
{
    const auto n = readNumber(text, pos);
    if (!n || n->negative)
        return std::nullopt;
    while (pos < text.size() && text[pos] == ' ')
        ++pos;
    const std::pair<const char *, long double> units[] = {
        {"bytes", 1}, {"KiB", 1024.0L}, {"MiB", kMiB}, {"GiB", kGiB}};
    for (const auto &[name, unit] : units)
        if (text.compare(pos, std::char_traits<char>::length(name), name) == 0)
            return PrintedSize{*n, unit};
    return std::nullopt;
}

std::optional<PrintedSize> sizeAfter(const std::string &text, const std::string &anchor, std::size_t from = 0)
{
    const std::size_t at = text.find(anchor, from);
    return at == std::string::npos ? std::nullopt : sizeAt(text, at + anchor.size());
}

/// The integer after `anchor`: the GPU index, a process id.
std::optional<int> indexAfter(const std::string &text, const std::string &anchor)
{
    const std::size_t at = text.find(anchor);
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t pos = at + anchor.size();
    const auto n = readNumber(text, pos);
    if (!n || n->negative || n->decimals > 0 || n->value > 1e9)
        return std::nullopt;
    return static_cast<int>(n->value);
}

bool messageEnds(const std::string &text)
{
    return text.find("reserved in total by PyTorch") != std::string::npos
        || text.find("reserved by PyTorch but unallocated") != std::string::npos;
}

} // namespace

bool TorchOomReader::read(const LogLine &line, ReadContext &context)
{
    // A message's first line is the reader's own; the lines that may
    // continue a wrapped one are read and still offered to the others (a
    // cut-off message must not swallow the log after it).
    bool first = false;
    if (m_message.empty()) {
        const std::size_t at = line.text.find(" out of memory. Tried to allocate ");
        if (at == std::string::npos)
            return false;
        m_start = line;
        m_lines = 0;
        m_message = line.text.substr(at + 1);
        first = true;
    } else {
        m_message += ' ' + line.text;
    }
    ++m_lines;
    if (messageEnds(m_message) || m_lines >= kMaxMessageLines || line.last)
        finish(context);
    return first;
}

void TorchOomReader::finish(ReadContext &context)
{
    if (m_message.empty())
        return;
    std::string joined;
    for (char c : m_message)
        if (!(c == ' ' && !joined.empty() && joined.back() == ' '))
            joined += c;
    m_message.clear();
    readMessage(joined, context);
}

void TorchOomReader::readMessage(const std::string &text, ReadContext &context)
{
    const LogLine &line = m_start;
    const bool old = text.find(" total capacity;") != std::string::npos;
    const auto gpu = old ? indexAfter(text, "(GPU ") : indexAfter(text, ". GPU ");
    const auto requested = sizeAfter(text, "Tried to allocate ");
    if (!gpu || !requested || !messageEnds(text)) {
        context.malformed(line, "torch's 'CUDA out of memory. Tried to allocate ...' message, whole");
        return;
    }
    const std::string device = "GPU " + std::to_string(*gpu);
    const auto add = [&](Quantity q, const std::optional<PrintedSize> &size, std::string detail = {}) {
        if (size)
            context.addPrinted(q, line, size->number, size->unit, device, std::move(detail));
    };
    add(Quantity::TorchOomRequested, requested);
    if (old) {
        const std::size_t open = text.find("(GPU ");
        add(Quantity::TorchOomCapacity, sizeAfter(text, "; ", open));
        const std::size_t allocatedAt = text.find(" total capacity; ");
        add(Quantity::TorchOomAllocated, sizeAfter(text, " total capacity; "));
        add(Quantity::TorchOomFree, sizeAfter(text, " already allocated; "));
        const std::size_t reservedAt = text.find(" reserved in total by PyTorch");
        const std::size_t before = text.rfind("; ", reservedAt);
        if (allocatedAt != std::string::npos && before != std::string::npos)
            add(Quantity::TorchOomReserved, sizeAt(text, before + 2));
        return;
    }
    for (const char *capacity : {" has a total capacity of ", " has a total capacty of "})
        add(Quantity::TorchOomCapacity, sizeAfter(text, capacity));
    add(Quantity::TorchOomFree, sizeAfter(text, " of which "));
    add(Quantity::TorchOomProcessMemory, sizeAfter(text, "this process has "), "this process");
    for (std::size_t at = text.find("Process "); at != std::string::npos; at = text.find("Process ", at + 1)) {
        std::size_t pos = at + 8;
        const auto pid = readNumber(text, pos);
        if (pid && text.compare(pos, 5, " has ") == 0)
            add(Quantity::TorchOomProcessMemory, sizeAt(text, pos + 5),
                "pid " + std::to_string(static_cast<long long>(pid->value)));
    }
    const auto allocated = sizeAfter(text, "Of the allocated memory ");
    const auto unallocated = sizeAfter(text, "and ", text.find(" is allocated by PyTorch"));
    add(Quantity::TorchOomAllocated, allocated);
    add(Quantity::TorchOomUnallocated, unallocated);
}

} // namespace core::runlog
