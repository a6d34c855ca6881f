#include "core/sweep.h"

#include <algorithm>
#include <cmath>

namespace core {

Scenario withAxis(Scenario scenario, SweepAxis axis, std::uint64_t value)
{
    (axis == SweepAxis::Batch ? scenario.batch : scenario.sequence) = value;
    return scenario;
}

std::vector<SweepPoint> sweep(const Scenario &scenario, SweepAxis axis, std::uint64_t from, std::uint64_t to, int count)
{
    std::vector<SweepPoint> points;
    if (from == 0 || to < from || count < 2)
        return points;
    const double ratio = std::log(static_cast<double>(to) / static_cast<double>(from));
    std::uint64_t previous = 0;
    for (int i = 0; i < count; ++i) {
        const double at = static_cast<double>(from) * std::exp(ratio * i / (count - 1));
        const std::uint64_t value = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::llround(at)), from, to);
        if (value == previous)
            continue;
        previous = value;
        const Estimate e = estimate(withAxis(scenario, axis, value));
        if (!e.isValid())
            break;
        points.push_back({value, e.terms, e.total});
    }
    return points;
}

} // namespace core
