#pragma once

// The vocabulary every memory rule and result shares: the named terms of
// per-GPU memory and the phases of a step in which they are held.

#include "core/base/units.h"

#include <array>
#include <cassert>
#include <cstddef>
#include <optional>
#include <string>

namespace core {

/// The named components of per-GPU memory. Order is display order.
enum class TermId {
    Weights,
    Lora,
    MasterWeights,
    Gradients,
    Optimizer,
    Activations,
    Logits,
    KvCache,
    Workspace,
    GatherBuffer,
    CommBuffers,
    CudaOverhead,
    AllocatorReserve,
    Count
};

constexpr std::size_t kTermCount = static_cast<std::size_t>(TermId::Count);

/// "weights", "kv_cache", ...: the one spelling used in JSON, CSV and the CLI.
const char *termId(TermId id);
/// The term spelled `id` ("kv_cache"), as `termId` writes it.
std::optional<TermId> parseTermId(const std::string &id);
/// "Weights", "KV cache", ...: English display name, a Qt Linguist source
/// text in context "Terms" (report.h's termName translates it).
const char *termLabel(TermId id);
const std::array<TermId, kTermCount> &allTerms();

using TermBytes = std::array<Bytes, kTermCount>;

/// Phases of a training step (forward end, backward, optimizer step) or the
/// single inference phase; the largest one sets the peak.
enum class Phase { Forward, Backward, OptimizerStep, Inference, Load };
const char *phaseId(Phase phase);

struct PhaseTotal
{
    Phase phase;
    TermBytes terms{};
    Bytes total;
    /// When in the phase the peak falls: "end of forward", "inside the last
    /// layer", "loss backward", "last layer's backward", ...
    const char *moment = "";
};

/// An estimate's phases in step order: a training step's forward, backward
/// and optimizer step, or inference's one phase. A fixed capacity of three,
/// so that an estimate (a grid's 65,536 of them) allocates nothing for them.
class PhaseList
{
public:
    static constexpr std::size_t kCapacity = 4; // training: forward, backward, step, load

    void push_back(const PhaseTotal &phase)
    {
        assert(m_size < kCapacity);
        m_phases[m_size++] = phase;
    }
    void clear() { m_size = 0; }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const PhaseTotal &operator[](std::size_t i) const { return m_phases[i]; }
    const PhaseTotal &front() const { return m_phases[0]; }
    const PhaseTotal *begin() const { return m_phases.data(); }
    const PhaseTotal *end() const { return m_phases.data() + m_size; }

private:
    std::array<PhaseTotal, kCapacity> m_phases{};
    std::size_t m_size = 0;
};

constexpr std::size_t termIndex(TermId id) { return static_cast<std::size_t>(id); }

} // namespace core
