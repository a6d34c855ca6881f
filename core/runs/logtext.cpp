#include "core/runs/logtext.h"

#include <cctype>
#include <cmath>

namespace core::runlog {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Removes ESC[ ... final-byte sequences (ECMA-48 CSI) and the same written
/// out as "#033[" by syslog/journald-style escaping.
std::string withoutColour(const std::string &line)
{
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size();) {
        std::size_t start = std::string::npos;
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[')
            start = i + 2;
        else if (line.compare(i, 5, "#033[") == 0)
            start = i + 5;
        if (start != std::string::npos) {
            std::size_t j = start;
            // CSI parameter and intermediate bytes are 0x20-0x3F; one final byte 0x40-0x7E.
            while (j < line.size() && line[j] >= 0x20 && line[j] <= 0x3F)
                ++j;
            if (j < line.size() && line[j] >= 0x40 && line[j] <= 0x7E) {
                i = j + 1;
                continue;
            }
        }
        out += line[i++];
    }
    return out;
}

/// "(VllmWorkerProcess pid=507) INFO ..." -> "pid=507"; also Ray's
/// "(RayWorkerWrapper pid=1234, ip=10.0.0.2)" and v1's "(VllmWorker rank=1 pid=88)".
std::string workerOf(const std::string &line)
{
    std::size_t open = 0;
    while (open < line.size() && line[open] == ' ')
        ++open;
    if (open >= line.size() || line[open] != '(')
        return {};
    const std::size_t close = line.find(')', open);
    const std::size_t pid = line.find("pid=", open);
    if (close == std::string::npos || pid == std::string::npos || pid > close)
        return {};
    std::size_t end = pid + 4;
    while (end < close && isDigit(line[end]))
        ++end;
    return line.substr(pid, end - pid);
}

} // namespace

std::vector<LogLine> splitLogLines(const std::string &text)
{
    std::vector<LogLine> lines;
    std::size_t start = 0;
    std::size_t number = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string raw = text.substr(start, end - start);
        while (!raw.empty() && raw.back() == '\r')
            raw.pop_back();
        LogLine line;
        line.text = withoutColour(raw);
        line.number = number++;
        line.worker = workerOf(line.text);
        lines.push_back(std::move(line));
        start = end + 1;
    }
    if (!lines.empty())
        lines.back().last = !text.empty() && text.back() != '\n';
    return lines;
}

std::optional<PrintedNumber> readNumber(const std::string &text, std::size_t &pos, bool grouped)
{
    std::size_t i = pos;
    while (i < text.size() && text[i] == ' ')
        ++i;
    PrintedNumber n;
    if (i < text.size() && text[i] == '-') {
        n.negative = true;
        ++i;
    }
    const std::size_t digits = i;
    long double value = 0;
    int integerDigits = 0;
    while (i < text.size() && (isDigit(text[i]) || (grouped && text[i] == ',' && i + 1 < text.size() && isDigit(text[i + 1])))) {
        if (text[i] != ',') {
            value = value * 10 + (text[i] - '0');
            ++integerDigits;
        }
        ++i;
    }
    // Up to 18 digits before the point: every whole number fits 64 bits.
    if (i == digits || integerDigits > 18)
        return std::nullopt;
    if (i + 1 < text.size() && text[i] == '.' && isDigit(text[i + 1])) {
        ++i;
        long double scale = 1;
        while (i < text.size() && isDigit(text[i]) && n.decimals < 30) {
            scale /= 10;
            value += scale * (text[i] - '0');
            ++n.decimals;
            ++i;
        }
    }
    n.value = n.negative ? -value : value;
    pos = i;
    return n;
}

std::optional<PrintedNumber> numberAfter(const std::string &text, const std::string &anchor, std::size_t *after,
                                         bool grouped)
{
    const std::size_t at = text.find(anchor);
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t pos = at + anchor.size();
    const auto n = readNumber(text, pos, grouped);
    if (n && after)
        *after = pos;
    return n;
}

Bytes bytesOf(const PrintedNumber &number, long double unit)
{
    const long double bytes = std::round(number.value * unit);
    if (!(bytes >= 0))
        return Bytes();
    if (bytes >= 18446744073709551615.0L)
        return Bytes::max();
    return Bytes::fromCount(static_cast<std::uint64_t>(bytes));
}

Bytes halfLastDigit(const PrintedNumber &number, long double unit)
{
    return bytesOf({0.5L * std::pow(10.0L, -number.decimals), 0, false}, unit);
}

std::string trimmed(const std::string &text)
{
    std::size_t b = 0;
    std::size_t e = text.size();
    while (b < e && std::isspace(static_cast<unsigned char>(text[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1])))
        --e;
    return text.substr(b, e - b);
}

std::vector<std::string> splitTrimmed(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(trimmed(text.substr(start, end == std::string::npos ? std::string::npos : end - start)));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

bool startsWith(const std::string &text, const std::string &prefix) { return text.compare(0, prefix.size(), prefix) == 0; }

bool endsWith(const std::string &text, const std::string &suffix)
{
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string atLine(std::size_t line, const std::string &what) { return "line " + std::to_string(line) + ": " + what; }

int deviceNumber(const std::string &name)
{
    int index = 0;
    for (char c : name)
        if (c >= '0' && c <= '9' && index < 100000)
            index = index * 10 + (c - '0');
    return index;
}

std::string releaseNumber(const std::string &text)
{
    std::string release;
    int dots = 0;
    for (char c : text) {
        if (c >= '0' && c <= '9')
            release += c;
        else if (c == '.' && dots < 2 && !release.empty() && release.back() != '.')
            release += c, ++dots;
        else
            break;
    }
    while (!release.empty() && release.back() == '.')
        release.pop_back();
    return release.find('.') == std::string::npos ? std::string() : release;
}

} // namespace core::runlog
