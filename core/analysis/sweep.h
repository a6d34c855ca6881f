#pragma once

#include "core/engine/estimate.h"

#include <cstdint>
#include <vector>

namespace core {

/// The input a sweep varies.
enum class SweepAxis { Batch, Sequence };

struct SweepPoint
{
    std::uint64_t value = 0; ///< batch or sequence length
    TermBytes terms{};       ///< per GPU, at that point's peak phase
    Bytes total;
};

/// The estimate at `count` log-spaced values over [from, to] (integers,
/// each once, ascending): memory against batch size or context length.
std::vector<SweepPoint> sweep(const Scenario &scenario, SweepAxis axis, std::uint64_t from, std::uint64_t to, int count);

/// Per-GPU totals over a batch x sequence grid, batch-major: the total at
/// batches[i] and sequences[j] is element i * sequences.size() + j, the
/// `estimate` of the scenario with that batch and sequence, bit for bit
/// (`Bytes::max()`, which never fits, where the scenario's limits reject the
/// point). What does not depend on batch and sequence is prepared once.
/// The batch x context heat map draws it.
std::vector<Bytes> batchContextGrid(const Scenario &scenario, const std::vector<std::uint64_t> &batches,
                                    const std::vector<std::uint64_t> &sequences);

/// The scenario with the axis set to `value`.
Scenario withAxis(Scenario scenario, SweepAxis axis, std::uint64_t value);

/// Up to `count` integers log-spaced over [from, to], each once, ascending
/// (fewer where rounding makes neighbours equal); empty unless
/// 0 < from <= to and count >= 2.
std::vector<std::uint64_t> logSpaced(std::uint64_t from, std::uint64_t to, int count);

/// The fit boundary of each capacity across contexts: for capacities[k] and
/// sequences[j], the largest batch in [1, maxBatch] whose per-GPU total fits
/// (0: not even batch 1). Searched on the engine itself, not read off a
/// grid, so it is exact: at the boundary b fits and b + 1 does not.
std::vector<std::vector<std::uint64_t>> largestBatches(const Scenario &scenario, const std::vector<std::uint64_t> &sequences,
                                                       const std::vector<Bytes> &capacities, std::uint64_t maxBatch);

} // namespace core
