#include "core/sweep.h"

#include "core/preparedscenario.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

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

std::vector<SweepPoint> sweep(const Scenario &scenario, SweepAxis axis, std::uint64_t from, std::uint64_t to, int count)
{
    std::vector<SweepPoint> points;
    if (from == 0 || to < from || count < 2)
        return points;
    const double ratio = std::log(static_cast<double>(to) / static_cast<double>(from));
    Scenario point = scenario;
    const PreparedScenario prepared(point);
    std::uint64_t previous = 0;
    for (int i = 0; i < count; ++i) {
        const double at = static_cast<double>(from) * std::exp(ratio * i / (count - 1));
        const std::uint64_t value = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::llround(at)), from, to);
        if (value == previous)
            continue;
        previous = value;
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
    std::vector<Bytes> totals;
    totals.reserve(batches.size() * sequences.size());
    Scenario point = scenario;
    const PreparedScenario prepared(point);
    for (std::uint64_t batch : batches) {
        point.batch = batch;
        for (std::uint64_t sequence : sequences) {
            point.sequence = sequence;
            const Estimate e = estimateNumbers(point, prepared);
            totals.push_back(e.isValid() ? e.total : Bytes::max());
        }
    }
    return totals;
}

} // namespace core
