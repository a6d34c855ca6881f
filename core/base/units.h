#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core {

/// Saturating helpers for counts (parameters, tokens, elements).
constexpr std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    return a > top - b ? top : a + b;
}
constexpr std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    return a > top / b ? top : a * b;
}

/// A byte count. Built only from named factories, read out with the unit
/// named; arithmetic saturates at the largest representable value instead of
/// wrapping, so a 2T-parameter model at a 1M-token context reports
/// "exceeds" rather than a small wrapped number.
class Bytes
{
public:
    constexpr Bytes() = default;

    static constexpr Bytes fromCount(std::uint64_t bytes) { return Bytes(bytes); }
    /// Rounds a fractional byte count up (a tensor of 0.5 B cannot exist) and
    /// saturates on overflow, NaN or negative input (negative becomes 0).
    /// Inline with `operator+`: the estimate's hot path calls both for every
    /// term of every moment.
    static Bytes fromDouble(double bytes)
    {
        // 2^64 as a double; any double >= this does not fit in uint64.
        constexpr double twoTo64 = 18446744073709551616.0;
        if (std::isnan(bytes))
            return max();
        if (bytes <= 0.0)
            return Bytes(0);
        const double rounded = std::ceil(bytes);
        if (rounded >= twoTo64)
            return max();
        return Bytes(static_cast<std::uint64_t>(rounded));
    }
    static Bytes kib(double n) { return fromDouble(n * 1024.0); }
    static Bytes mib(double n) { return fromDouble(n * 1024.0 * 1024.0); }
    static Bytes gib(double n) { return fromDouble(n * 1024.0 * 1024.0 * 1024.0); }
    static Bytes gb(double n) { return fromDouble(n * 1e9); }
    static constexpr Bytes max() { return Bytes(std::numeric_limits<std::uint64_t>::max()); }

    constexpr std::uint64_t count() const { return m_bytes; }
    double inGiB() const { return static_cast<double>(m_bytes) / (1024.0 * 1024.0 * 1024.0); }
    double inGB() const { return static_cast<double>(m_bytes) / 1e9; }
    double inMiB() const { return static_cast<double>(m_bytes) / (1024.0 * 1024.0); }
    constexpr bool isSaturated() const { return m_bytes == std::numeric_limits<std::uint64_t>::max(); }

    Bytes operator+(Bytes other) const { return Bytes(saturatingAdd(m_bytes, other.m_bytes)); }
    Bytes &operator+=(Bytes other) { return *this = *this + other; }
    /// Difference clamped at zero.
    Bytes operator-(Bytes other) const { return Bytes(m_bytes > other.m_bytes ? m_bytes - other.m_bytes : 0); }
    Bytes times(std::uint64_t factor) const;
    Bytes scaled(double factor) const { return fromDouble(static_cast<double>(m_bytes) * factor); }

    constexpr bool operator==(Bytes o) const { return m_bytes == o.m_bytes; }
    constexpr bool operator!=(Bytes o) const { return m_bytes != o.m_bytes; }
    constexpr bool operator<(Bytes o) const { return m_bytes < o.m_bytes; }
    constexpr bool operator<=(Bytes o) const { return m_bytes <= o.m_bytes; }
    constexpr bool operator>(Bytes o) const { return m_bytes > o.m_bytes; }
    constexpr bool operator>=(Bytes o) const { return m_bytes >= o.m_bytes; }

private:
    constexpr explicit Bytes(std::uint64_t bytes) : m_bytes(bytes) {}
    std::uint64_t m_bytes = 0;
};

/// Display unit: GiB (2^30, the default) or GB (10^9).
enum class ByteUnit { GiB, GB };

/// "13.04 GiB", "512.00 KiB", "14.00 GB"; picks the largest unit of the chosen
/// family that keeps the number >= 1. Saturated values print as "exceeds".
std::string formatBytes(Bytes bytes, ByteUnit unit = ByteUnit::GiB, int decimals = 2);

/// The value in the chosen family's giga unit (GiB or GB), for axes and tables.
double toGiga(Bytes bytes, ByteUnit unit);
const char *gigaSuffix(ByteUnit unit);

/// A non-negative decimal ("1536", "0.4", "7e9"): nothing else, no sign,
/// no infinities, no trailing text.
std::optional<double> parseDecimal(const std::string &text);

/// What a count's k and M suffixes stand for.
enum class CountSuffixes {
    Decimal, ///< 7B parameters, 300B training tokens: k = 1,000, M = 1,000,000
    Binary,  ///< context lengths as they are written: 8k = 8,192, 1M = 1,048,576
};
/// Parses a parameter count the way people write it: "7e9", "7B", "0.5b",
/// "1.2T", "125M", "6738415616", "6,738,415,616". Nullopt for anything else:
/// below 1, or not a whole number ("2.5"). B and T stay decimal either way.
std::optional<std::uint64_t> parseCount(const std::string &text, CountSuffixes suffixes = CountSuffixes::Decimal);

/// Parses a size with its unit: "14949MiB", "29.03 GiB", "15.2GB", "512KiB",
/// or a plain byte count. Nullopt for anything else (or negative).
std::optional<Bytes> parseBytes(const std::string &text);

/// Thousands separators: 6738415616 -> "6,738,415,616".
std::string groupDigits(std::uint64_t value);
/// groupDigits without a string of its own, for text built piece by piece.
struct GroupedDigits
{
    char text[26]; ///< 20 digits and 6 commas at most, at the end
    std::size_t begin = sizeof text;

    std::string_view view() const { return {text + begin, sizeof text - begin}; }
};
GroupedDigits groupedDigits(std::uint64_t value);
/// "a, b, c".
std::string joinWithCommas(const std::vector<std::string> &items);
/// groupDigits, or "-" for 0 where 0 means "none" (largest batch that fits).
std::string groupDigitsOrDash(std::uint64_t value);

/// A number with fixed decimals, locale-independent ("3.26").
std::string formatFixed(double value, int decimals);
/// Seconds as milliseconds with one decimal ("4.9" for 0.00487).
std::string formatMilliseconds(double seconds);
/// A duration with its unit, as people read one: "4.9 ms", "0.0120 ms"
/// under a tenth of a millisecond, "2.50 s" from a second, "3,600 s" from
/// a hundred.
std::string formatDuration(double seconds);

/// A figure as a whole number with separators ("850,713"), or with one
/// decimal below ten ("4.2"): hours, tokens per second.
std::string formatFigure(double value);

} // namespace core
