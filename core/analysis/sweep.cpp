#include "core/analysis/sweep.h"

#include "core/analysis/monotoneprobe.h"
#include "core/analysis/parallelrows.h"
#include "core/engine/preparedscenario.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

/// Rows of 256 points take ~0.1 ms each: fewer than this many per thread
/// cost more to start a thread for than they save.
constexpr std::size_t kMinGridRowsPerThread = 8;

std::uint64_t &axisValue(Scenario &scenario, SweepAxis axis)
{
    return axis == SweepAxis::Batch ? scenario.batch : scenario.sequence;
}

} // namespace

Scenario withAxis(Scenario scenario, SweepAxis axis, std::uint64_t value)
{
    axisValue(scenario, axis) = value;
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
    Scenario point = scenario;
    const PreparedScenario prepared(point);
    for (std::uint64_t value : logSpaced(from, to, count)) {
        axisValue(point, axis) = value;
        const Estimate e = estimate(point, prepared);
        if (!e.isValid())
            break;
        points.push_back({value, e.terms, e.total});
    }
    return points;
}

std::vector<Bytes> batchContextGrid(const Scenario &scenario, const std::vector<std::uint64_t> &batches,
                                    const std::vector<std::uint64_t> &sequences)
{
    std::vector<Bytes> totals(batches.size() * sequences.size());
    const PreparedScenario prepared(scenario);
    // Rows on every core: each point reads the prepared scenario and writes
    // its own cell.
    forEachRowRange(batches.size(), kMinGridRowsPerThread, [&](std::size_t begin, std::size_t end) {
        Scenario point = scenario;
        Estimate scratch;
        for (std::size_t i = begin; i < end; ++i) {
            point.batch = batches[i];
            for (std::size_t j = 0; j < sequences.size(); ++j) {
                point.sequence = sequences[j];
                totals[i * sequences.size() + j] = totalOf(point, prepared, scratch);
            }
        }
    });
    return totals;
}

std::vector<std::vector<std::uint64_t>> largestBatches(const Scenario &scenario, const std::vector<std::uint64_t> &sequences,
                                                       const std::vector<Bytes> &capacities, std::uint64_t maxBatch)
{
    // Exact searches rather than the grid's log-spaced rows (48 rows from 1
    // to 4,096 batches are 19 % apart): about 2 log2(maxBatch) estimates per
    // context, shared by every capacity.
    std::vector<std::vector<std::uint64_t>> boundaries(capacities.size(), std::vector<std::uint64_t>(sequences.size()));
    const PreparedScenario prepared(scenario);
    forEachRowRange(sequences.size(), kMinGridRowsPerThread, [&](std::size_t begin, std::size_t end) {
        Scenario point = scenario;
        Estimate scratch;
        for (std::size_t j = begin; j < end; ++j) {
            point.sequence = sequences[j];
            MonotoneProbe byBatch([&point, &prepared, &scratch](std::uint64_t batch) {
                point.batch = batch;
                return totalOf(point, prepared, scratch);
            });
            for (std::size_t k = 0; k < capacities.size(); ++k)
                boundaries[k][j] = byBatch.largestFitting(capacities[k], maxBatch);
        }
    });
    return boundaries;
}

} // namespace core
