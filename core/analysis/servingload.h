#pragma once

#include "core/engine/estimate.h"
#include "core/model/catalog.h"

namespace core {

/// Targets a serving plan must meet; 0: none asked.
struct ServingTargets
{
    double requestRate = 0;  ///< requests per second, all replicas together
    double ttftSeconds = 0;  ///< mean time to first token
    double tpotSeconds = 0;  ///< mean time per output token after the first
};

/// One replica's costs, from one estimate of its layout (ReplicaModel::of).
struct ReplicaModel
{
    const Scenario *scenario = nullptr; ///< one replica: its GPUs, engine and formats
    const Estimate *estimate = nullptr; ///< the scenario's
    const GpuSpec *gpu = nullptr;
    double prefillSeconds = 0;     ///< one prompt on its tensor-parallel group, compute bound
    double prefillBusySeconds = 0; ///< the replica's time one prompt holds: prefill over the pipeline's stages
    double maxRows = 0;            ///< sequences the engine decodes at once (servingRows)
    double outputTokens = 0;       ///< each request's, beams counted

    /// The model of `scenario` on `gpu` whose estimate is `estimate`.
    static ReplicaModel of(const Scenario &scenario, const Estimate &estimate, const GpuSpec &gpu);
    /// Seconds of one decode step of `rows` rows (decodeStepSeconds).
    double stepSeconds(double rows) const;
};

/// One replica serving a Poisson stream of `requestRate` requests per
/// second in steady state under iteration-level scheduling (Yu et al. 2022,
/// Orca §3.1: every step advances each running sequence one token, a
/// prompt's prefill holds the GPUs while it runs):
/// - prefillShare rho = rate x prefill busy time (a prompt's prefill over
///   the pipeline's stages, which take different prompts at once), the
///   GPUs' share spent on prompts;
/// - tpot = step(rows) / (1 - rho): decode steps stretched by the prefills
///   between them;
/// - rows = rate x output x tpot (Little's law: sequences in flight are the
///   arrival rate times each one's decoding time), solved with tpot as a
///   fixed point;
/// - ttft = prefill + step(rows) / 2 (the running step a prompt waits for,
///   on average half) + rho x busy / (2 (1 - rho)) (the mean wait for the
///   prompts ahead: Pollaczek-Khinchine for deterministic service, M/D/1).
/// Means, not tails: a p99 target needs headroom over them.
struct ReplicaLoad
{
    double requestRate = 0;
    double prefillShare = 0;
    double rows = 0;
    double stepSeconds = 0;
    double tpotSeconds = 0;
    double ttftSeconds = 0;
    bool stable = false; ///< the replica keeps up: rho < 1 and rows settle within what the engine runs
};

ReplicaLoad replicaLoad(const ReplicaModel &model, double requestRate);

/// What stops a replica serving more requests per second.
enum class ServingLimit {
    None,            ///< no target and no bound met below the search's ceiling
    Ttft,            ///< the mean time to first token reaches its target
    Tpot,            ///< the mean time per output token reaches its target
    Concurrency,     ///< the sequences in flight fill the KV pool or the engine's limit
    Saturation,      ///< prefill and decode fill the GPUs' time
};

/// The part of the plan's wording that names a limit ("time to first
/// token"), English source text of Qt Linguist (context "ServingLimit").
const char *servingLimitLabel(ServingLimit limit);
const char *servingLimitId(ServingLimit limit);

struct ReplicaCapacity
{
    double requestRate = 0; ///< the most the replica serves within the targets; 0: none
    ServingLimit limit = ServingLimit::None;
    ReplicaLoad load;       ///< at that rate
};

/// The highest request rate one replica serves with every target met and
/// its state stable (each condition holds below a rate and fails above it,
/// so a bisection finds it). 0 with the unmet limit where even a lone
/// request misses a target: a prompt's prefill over the TTFT target, one
/// sequence's step over the TPOT target.
ReplicaCapacity replicaCapacity(const ReplicaModel &model, const ServingTargets &targets);

} // namespace core
