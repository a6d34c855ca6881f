#pragma once

#include "core/engine/estimate.h"

#include <cstdint>
#include <functional>
#include <map>

namespace core {

/// Memoised total as a function of one integer input. Totals grow with
/// batch, sequence and shrink with GPU count, so each question is a
/// monotone search; different GPUs' searches share most probes.
/// (The fit searches and the heat map's fit boundaries share it.)
class MonotoneProbe
{
public:
    explicit MonotoneProbe(std::function<Bytes(std::uint64_t)> total) : m_total(std::move(total)) {}

    Bytes at(std::uint64_t x)
    {
        const auto it = m_cache.find(x);
        if (it != m_cache.end())
            return it->second;
        const Bytes value = m_total(x);
        m_cache.emplace(x, value);
        return value;
    }

    /// Largest x in [1, limit] with total(x) <= capacity (total increasing); 0 if none.
    std::uint64_t largestFitting(Bytes capacity, std::uint64_t limit)
    {
        if (at(1) > capacity)
            return 0;
        std::uint64_t low = 1; // fits
        std::uint64_t high = 2;
        while (high <= limit && at(high) <= capacity) {
            low = high;
            high *= 2;
        }
        if (high > limit) {
            if (at(limit) <= capacity)
                return limit;
            high = limit;
        }
        while (high - low > 1) {
            const std::uint64_t mid = low + (high - low) / 2;
            (at(mid) <= capacity ? low : high) = mid;
        }
        return low;
    }

    /// Smallest x in [1, limit] with total(x) <= capacity (total decreasing); 0 if none.
    std::uint64_t smallestFitting(Bytes capacity, std::uint64_t limit)
    {
        std::uint64_t x = 1;
        while (x < limit && at(x) > capacity)
            x *= 2;
        x = std::min(x, limit);
        if (at(x) > capacity)
            return 0;
        std::uint64_t low = x / 2; // does not fit (or 0)
        std::uint64_t high = x;    // fits
        while (high - low > 1) {
            const std::uint64_t mid = low + (high - low) / 2;
            (at(mid) <= capacity ? high : low) = mid;
        }
        return high;
    }

private:
    std::function<Bytes(std::uint64_t)> m_total;
    std::map<std::uint64_t, Bytes> m_cache;
};

/// The scenario's per-GPU total; an invalid scenario counts as saturated,
/// so a search treats it as never fitting.
inline Bytes totalOf(const Scenario &s)
{
    const Estimate e = estimate(s);
    return e.isValid() ? e.total : Bytes::max();
}

/// The same for a point of a prepared scenario (one that differs from it in
/// batch and sequence at most), estimated into `scratch`.
inline Bytes totalOf(const Scenario &point, const PreparedScenario &prepared, Estimate &scratch)
{
    estimateNumbers(point, prepared, scratch);
    return scratch.isValid() ? scratch.total : Bytes::max();
}

} // namespace core
