#include "core/base/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace core {

Bytes Bytes::times(std::uint64_t factor) const
{
    return Bytes(saturatingMul(m_bytes, factor));
}

std::string formatFixed(double value, int decimals)
{
    // As printf's "%.*f" in the C locale, without its cost: a derivation
    // formats a few of these per term. Room for any double's 309 digits.
    char buffer[512];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed,
                                   std::clamp(decimals, 0, 100))
                         .ptr;
    return std::string(buffer, end);
}

std::string formatMilliseconds(double seconds)
{
    return formatFixed(seconds * 1000.0, 1);
}

std::string formatDuration(double seconds)
{
    if (seconds >= 100.0)
        return groupDigits(static_cast<std::uint64_t>(std::llround(seconds))) + " s";
    if (seconds >= 1.0)
        return formatFixed(seconds, 2) + " s";
    return formatFixed(seconds * 1000.0, seconds >= 1e-4 ? 1 : 4) + " ms";
}

double toGiga(Bytes bytes, ByteUnit unit)
{
    return unit == ByteUnit::GiB ? bytes.inGiB() : bytes.inGB();
}

const char *gigaSuffix(ByteUnit unit)
{
    return unit == ByteUnit::GiB ? "GiB" : "GB";
}

namespace {

/// `count` / 2^shift to `decimals` places, as formatFixed writes the
/// double (exact here: a count below 2^53 over a power of two is), by
/// integer arithmetic: the decimals' digits rounded half to even, as
/// printf and to_chars round a tie. Nothing where the scaled count would
/// not fit 64 bits.
std::optional<std::string> fixedOverPowerOfTwo(std::uint64_t count, int shift, int decimals)
{
    std::uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i)
        scale *= 10;
    if (decimals < 0 || decimals > 6 || count >= (1ull << 53) || count > UINT64_MAX / scale)
        return std::nullopt;
    const std::uint64_t scaled = count * scale;
    std::uint64_t whole = scaled >> shift;
    const std::uint64_t rest = scaled & ((1ull << shift) - 1);
    const std::uint64_t half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (whole & 1)))
        ++whole;
    std::string text = std::to_string(whole / scale);
    if (decimals > 0) {
        std::string fraction = std::to_string(whole % scale);
        text += '.' + std::string(static_cast<std::size_t>(decimals) - fraction.size(), '0') + fraction;
    }
    return text;
}

} // namespace

std::string formatBytes(Bytes bytes, ByteUnit unit, int decimals)
{
    if (bytes.isSaturated())
        return "exceeds";
    static const char *const binary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    static const char *const decimal[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    const double base = unit == ByteUnit::GiB ? 1024.0 : 1000.0;
    const char *const *names = unit == ByteUnit::GiB ? binary : decimal;
    double value = static_cast<double>(bytes.count());
    int index = 0;
    while (value >= base && index < 6) {
        value /= base;
        ++index;
    }
    if (index == 0)
        return groupDigits(bytes.count()) + " B";
    // Binary units divide by powers of two: the digits come exactly from
    // integers, without to_chars' general fixed-precision path.
    if (unit == ByteUnit::GiB)
        if (auto exact = fixedOverPowerOfTwo(bytes.count(), 10 * index, decimals))
            return *exact + " " + names[index];
    return formatFixed(value, decimals) + " " + names[index];
}

std::optional<double> parseDecimal(const std::string &text)
{
    // Digits, a point and an exponent only: no sign, no "inf"/"nan", no hex.
    if (text.empty() || text.size() > 32 || text.find_first_not_of("0123456789.eE+") != std::string::npos)
        return std::nullopt;
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (...) {
        return std::nullopt;
    }
    if (used != text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string groupDigitsOrDash(std::uint64_t value)
{
    return value == 0 ? "-" : groupDigits(value);
}

std::optional<std::uint64_t> parseCount(const std::string &text, CountSuffixes suffixes)
{
    const bool binary = suffixes == CountSuffixes::Binary;
    if (text.empty() || text.size() > 64)
        return std::nullopt;
    double scale = 1;
    // Thousands separators as people write counts: "6,738,415,616".
    std::string number;
    for (char c : text)
        if (c != ',')
            number += c;
    if (number.empty())
        return std::nullopt;
    switch (number.back()) {
    case 'k': case 'K': scale = binary ? 1024.0 : 1e3; break;
    case 'm': case 'M': scale = binary ? 1024.0 * 1024.0 : 1e6; break;
    case 'b': case 'B': scale = 1e9; break;
    case 't': case 'T': scale = 1e12; break;
    default: break;
    }
    if (scale != 1)
        number.pop_back();
    const auto parsed = parseDecimal(number);
    if (!parsed)
        return std::nullopt;
    const double value = *parsed * scale;
    if (value < 1 || value >= 1.8e19)
        return std::nullopt;
    // A count is whole: "1.5k" is 1,500, "2.5" is not a count.
    const double whole = std::round(value);
    if (std::fabs(value - whole) > 1e-9 * value)
        return std::nullopt;
    return static_cast<std::uint64_t>(whole);
}

std::optional<Bytes> parseBytes(const std::string &text)
{
    static const std::pair<const char *, double> units[] = {
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
        {"KB", 1e3},     {"MB", 1e6},        {"GB", 1e9},           {"TB", 1e12},           {"B", 1.0}};
    std::string number = text;
    double scale = 1.0;
    for (const auto &[suffix, factor] : units) {
        const std::string s = suffix;
        if (number.size() > s.size() && number.compare(number.size() - s.size(), s.size(), s) == 0) {
            number.resize(number.size() - s.size());
            scale = factor;
            break;
        }
    }
    while (!number.empty() && number.back() == ' ')
        number.pop_back();
    const auto parsed = parseDecimal(number);
    if (!parsed || *parsed * scale >= 1.8e19)
        return std::nullopt;
    const double value = *parsed;
    return Bytes::fromDouble(value * scale);
}

GroupedDigits groupedDigits(std::uint64_t value)
{
    // Written from the last group back: three digits and a comma while
    // more than three are left, then the leading one to three.
    static const auto kGroups = [] {
        std::array<char, 3000> digits{};
        for (int i = 0; i < 1000; ++i) {
            digits[static_cast<std::size_t>(3 * i)] = static_cast<char>('0' + i / 100);
            digits[static_cast<std::size_t>(3 * i + 1)] = static_cast<char>('0' + i / 10 % 10);
            digits[static_cast<std::size_t>(3 * i + 2)] = static_cast<char>('0' + i % 10);
        }
        return digits;
    }();
    GroupedDigits out;
    std::size_t at = sizeof out.text;
    while (value >= 1000) {
        const std::size_t group = static_cast<std::size_t>(value % 1000) * 3;
        value /= 1000;
        at -= 3;
        std::memcpy(out.text + at, kGroups.data() + group, 3);
        out.text[--at] = ',';
    }
    const std::size_t lead = value >= 100 ? 3 : value >= 10 ? 2 : 1;
    at -= lead;
    std::memcpy(out.text + at, kGroups.data() + static_cast<std::size_t>(value) * 3 + (3 - lead), lead);
    out.begin = at;
    return out;
}

std::string groupDigits(std::uint64_t value) { return std::string(groupedDigits(value).view()); }

std::string joinWithCommas(const std::vector<std::string> &items)
{
    std::string text;
    for (const std::string &item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

std::string formatFigure(double value)
{
    return value < 10 ? formatFixed(value, 1) : groupDigits(static_cast<std::uint64_t>(std::llround(std::max(0.0, value))));
}

} // namespace core
