#include "core/analysis/servingload.h"

#include "core/analysis/performance.h"
#include "core/base/translatable.h"

#include <algorithm>
#include <cmath>

namespace core {

ReplicaModel ReplicaModel::of(const Scenario &s, const Estimate &e, const GpuSpec &gpu)
{
    ReplicaModel m;
    m.scenario = &s;
    m.estimate = &e;
    m.gpu = &gpu;
    const Performance perf = performance(s, e, gpu);
    if (perf.prefillTokensPerSecond > 0) {
        m.prefillSeconds = promptTokens(s) / perf.prefillTokensPerSecond;
        m.prefillBusySeconds = m.prefillSeconds / std::max(1, s.parallel.pp);
    }
    m.maxRows = static_cast<double>(perf.servingRows);
    m.outputTokens = static_cast<double>(std::min(s.workload.outputTokens, s.contextTokens()) * s.beams);
    return m;
}

double ReplicaModel::stepSeconds(double rows) const
{
    return decodeStepSeconds(*scenario, *estimate, *gpu, std::max(1.0, rows));
}

ReplicaLoad replicaLoad(const ReplicaModel &m, double rate)
{
    ReplicaLoad load;
    load.requestRate = rate;
    load.prefillShare = rate * m.prefillBusySeconds;
    load.stepSeconds = m.stepSeconds(1);
    if (load.prefillShare >= 1 || load.stepSeconds <= 0)
        return load;
    const double stretch = 1.0 / (1.0 - load.prefillShare);
    // rows = rate x output x step(rows) x stretch rises to its fixed point
    // from below, step growing with rows; past the engine's limit it has
    // none the replica can run.
    double rows = rate * m.outputTokens * load.stepSeconds * stretch;
    bool settled = false;
    for (int i = 0; i < 1000 && rows <= m.maxRows; ++i) {
        const double next = rate * m.outputTokens * m.stepSeconds(rows) * stretch;
        settled = std::abs(next - rows) <= 1e-9 * std::max(1.0, rows);
        rows = next;
        if (settled)
            break;
    }
    load.rows = rows;
    load.stepSeconds = m.stepSeconds(rows);
    load.tpotSeconds = load.stepSeconds * stretch;
    load.ttftSeconds = m.prefillSeconds + load.stepSeconds / 2.0
        + load.prefillShare * m.prefillBusySeconds / (2.0 * (1.0 - load.prefillShare));
    load.stable = settled && rows <= m.maxRows;
    return load;
}

const char *servingLimitLabel(ServingLimit limit)
{
    switch (limit) {
    case ServingLimit::None: return QT_TRANSLATE_NOOP("ServingLimit", "no limit within the search");
    case ServingLimit::Ttft: return QT_TRANSLATE_NOOP("ServingLimit", "time to first token");
    case ServingLimit::Tpot: return QT_TRANSLATE_NOOP("ServingLimit", "time per output token");
    case ServingLimit::Concurrency: return QT_TRANSLATE_NOOP("ServingLimit", "sequences the KV cache holds");
    case ServingLimit::Saturation: return QT_TRANSLATE_NOOP("ServingLimit", "GPU time (prefill and decode fill it)");
    }
    return "";
}

const char *servingLimitId(ServingLimit limit)
{
    switch (limit) {
    case ServingLimit::None: return "none";
    case ServingLimit::Ttft: return "ttft";
    case ServingLimit::Tpot: return "tpot";
    case ServingLimit::Concurrency: return "concurrency";
    case ServingLimit::Saturation: return "saturation";
    }
    return "";
}

namespace {

/// The first condition `load` breaks, in the order the rate meets them:
/// what the replica holds, its time, then each target.
ServingLimit brokenLimit(const ReplicaModel &m, const ReplicaLoad &load, const ServingTargets &t)
{
    if (load.prefillShare >= 1)
        return ServingLimit::Saturation;
    if (!load.stable)
        return load.rows > m.maxRows ? ServingLimit::Concurrency : ServingLimit::Saturation;
    if (t.ttftSeconds > 0 && load.ttftSeconds > t.ttftSeconds)
        return ServingLimit::Ttft;
    if (t.tpotSeconds > 0 && load.tpotSeconds > t.tpotSeconds)
        return ServingLimit::Tpot;
    return ServingLimit::None;
}

} // namespace

ReplicaCapacity replicaCapacity(const ReplicaModel &m, const ServingTargets &t)
{
    ReplicaCapacity capacity;
    const ReplicaLoad alone = replicaLoad(m, 0.0);
    capacity.load = alone;
    if (m.maxRows < 1) {
        capacity.limit = ServingLimit::Concurrency;
        return capacity;
    }
    if (m.prefillBusySeconds <= 0 || alone.stepSeconds <= 0) {
        capacity.limit = ServingLimit::Saturation;
        return capacity;
    }
    if (const ServingLimit unmet = brokenLimit(m, alone, t); unmet != ServingLimit::None) {
        capacity.limit = unmet;
        return capacity;
    }
    // Every condition holds below some rate and fails above it; the GPUs'
    // time ends the search at one prompt per busy prefill.
    double low = 0;
    double high = 1.0 / m.prefillBusySeconds;
    for (int i = 0; i < 60; ++i) {
        const double middle = (low + high) / 2.0;
        if (brokenLimit(m, replicaLoad(m, middle), t) == ServingLimit::None)
            low = middle;
        else
            high = middle;
    }
    capacity.requestRate = low;
    capacity.load = replicaLoad(m, low);
    capacity.limit = brokenLimit(m, replicaLoad(m, high), t);
    return capacity;
}

} // namespace core
