#pragma once

#include "core/analysis/sweep.h"
#include "core/scenario/scenario.h"

#include <cstdint>

namespace ui {

/// The span a chart sweeps an input over: batches 1 to 4,096, contexts 128
/// to 2^20 tokens or the model's context length, always taking in the
/// scenario's own value. The sweeps and the batch x context heat map share it.
struct SweepRange
{
    std::uint64_t from = 1;
    std::uint64_t to = 1;
};

SweepRange sweepRange(const core::Scenario &scenario, core::SweepAxis axis);

} // namespace ui
