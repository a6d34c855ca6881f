#include "core/sweep.h"

#include "core/monotoneprobe.h"

#include <algorithm>
#include <cmath>

namespace core {

Scenario withAxis(Scenario scenario, SweepAxis axis, std::uint64_t value)
{
    (axis == SweepAxis::Batch ? scenario.batch : scenario.sequence) = value;
    return scenario;
}

std::vector<std::uint64_t> logSpaced(std::uint64_t from, std::uint64_t to, int count)
{
    std::vector<std::uint64_t> values;
    if (from == 0 || to < from || count < 2)
        return values;
    const double ratio = std::log(static_cast<double>(to) / static_cast<double>(from));
    for (int i = 0; i < count; ++i) {
        const double at = static_cast<double>(from) * std::exp(ratio * i / (count - 1));
        const std::uint64_t value = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::llround(at)), from, to);
        if (values.empty() || value != values.back())
            values.push_back(value);
    }
    return values;
}

std::vector<SweepPoint> sweep(const Scenario &scenario, SweepAxis axis, std::uint64_t from, std::uint64_t to, int count)
{
    std::vector<SweepPoint> points;
    for (std::uint64_t value : logSpaced(from, to, count)) {
        const Estimate e = estimate(withAxis(scenario, axis, value));
        if (!e.isValid())
            break;
        points.push_back({value, e.terms, e.total});
    }
    return points;
}

std::vector<Bytes> batchContextGrid(const Scenario &scenario, const std::vector<std::uint64_t> &batches,
                                    const std::vector<std::uint64_t> &sequences)
{
    // Simply the engine at every point; a faster grid that reuses what does
    // not change across it is issue 14's speed work.
    std::vector<Bytes> totals;
    totals.reserve(batches.size() * sequences.size());
    for (std::uint64_t batch : batches) {
        const Scenario row = withAxis(scenario, SweepAxis::Batch, batch);
        for (std::uint64_t sequence : sequences)
            totals.push_back(totalOf(withAxis(row, SweepAxis::Sequence, sequence)));
    }
    return totals;
}

std::vector<std::vector<std::uint64_t>> largestBatches(const Scenario &scenario, const std::vector<std::uint64_t> &sequences,
                                                       const std::vector<Bytes> &capacities, std::uint64_t maxBatch)
{
    // Exact searches rather than the grid's log-spaced rows (48 rows from 1
    // to 4,096 batches are 19 % apart): about 2 log2(maxBatch) estimates per
    // context, shared by every capacity.
    std::vector<std::vector<std::uint64_t>> boundaries(capacities.size());
    for (std::uint64_t sequence : sequences) {
        const Scenario column = withAxis(scenario, SweepAxis::Sequence, sequence);
        MonotoneProbe byBatch([&column](std::uint64_t batch) { return totalOf(withAxis(column, SweepAxis::Batch, batch)); });
        for (std::size_t k = 0; k < capacities.size(); ++k)
            boundaries[k].push_back(byBatch.largestFitting(capacities[k], maxBatch));
    }
    return boundaries;
}

} // namespace core
