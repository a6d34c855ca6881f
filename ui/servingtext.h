#pragma once

#include "core/analysis/performance.h"
#include "core/base/units.h"
#include "core/engine/estimate.h"

#include <QString>

namespace ui {

/// A count as people write it: rounded, grouped ("1,234"), never negative.
QString groupedCount(double value);

/// The serving figures of one GPU type as every view writes them, numbers
/// only (the sentence around each names its unit), so the cluster page and
/// the Deploy view never disagree by a rounding.
struct ServingNumbers
{
    QString ttftSeconds;    ///< time to first token, "0.31"
    QString perSequence;    ///< decode tokens/s of each sequence, "42.1"
    QString aggregate;      ///< decode tokens/s of the whole batch, "1,554" (one decimal below ten)
    QString prefill;        ///< prefill tokens/s, "12,345"
    QString costPerMillion; ///< dollars per million generated tokens, "0.45"; empty without a price
    QString requestsPerSecond; ///< requests one replica serves per second, "3.42"
    QString gpusForRate;       ///< GPUs for the target request rate, "24"; empty when none is asked
};

ServingNumbers servingNumbers(const core::Performance &performance);

/// Host memory beside each GPU (ZeRO-Offload, llama.cpp's host side) in the
/// user's unit; empty when the layout needs none.
QString hostMemoryText(const core::Estimate &estimate, core::ByteUnit unit);

} // namespace ui
