#include "ui/sweeprange.h"

#include <algorithm>

namespace ui {

SweepRange sweepRange(const core::Scenario &scenario, core::SweepAxis axis)
{
    const bool batch = axis == core::SweepAxis::Batch;
    const std::uint64_t current = batch ? scenario.batch : scenario.sequence;
    SweepRange range{batch ? 1u : 128u, batch ? 4096u : (1u << 20)};
    if (!batch && scenario.model.maxPositions > range.from)
        range.to = std::min<std::uint64_t>(range.to, scenario.model.maxPositions);
    // The scenario's own value is always on the chart.
    range.from = std::min(range.from, std::max<std::uint64_t>(current, 1));
    range.to = std::max(range.to, current);
    return range;
}

} // namespace ui
