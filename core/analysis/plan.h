#pragma once

#include "core/analysis/performance.h"
#include "core/analysis/servingload.h"
#include "core/base/message.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"

#include <vector>

namespace core {

struct PlanRequest
{
    int minGpus = 1;
    int maxGpus = 1024;
    std::size_t limit = 10; ///< layouts returned
    bool allowOffload = true;
    /// Host memory a node offers for offloaded states: 2 TiB, as in an
    /// NVIDIA DGX H100 (DGX H100 datasheet).
    double hostBytesPerNode = 2.0 * 1024 * 1024 * 1024 * 1024;
};

/// One layout that fits, with its memory and speed.
struct PlanOption
{
    Scenario scenario; ///< the input with gpus, tp, pp, ZeRO, checkpointing and offload set
    Estimate estimate;
    Performance performance;
    double stepSeconds = 0; ///< Performance::stepSeconds (the sum of the step's parts) plus offload traffic
};

/// "Plan for me": the smallest GPU count of `gpu` at which some layout fits
/// (GPU counts in powers of two from minGpus), every layout that fits at
/// that count (tp, pp, ZeRO stage, checkpointing, offload), fastest first.
std::vector<PlanOption> planLayouts(const Scenario &base, const GpuSpec &gpu, const PlanRequest &request);

/// `plan --serve`: what to search and what the plan must meet.
struct ServingPlanRequest
{
    std::vector<std::string> gpuIds;    ///< GPU types searched
    std::vector<ServingEngine> engines; ///< engines searched
    ServingTargets targets;
    int maxGpusPerReplica = 64;
    int maxGpus = ScenarioLimits::maxGpus; ///< a plan needing more is rejected
    std::size_t perGroup = 3;           ///< layouts kept per engine and GPU type
};

/// The request for `base` over `gpuIds`: every engine that batches
/// continuously (vLLM, SGLang, TensorRT-LLM), the targets of its workload.
ServingPlanRequest servingPlanRequest(const Scenario &base, std::vector<std::string> gpuIds);

/// One replica layout and how many of it serve the request rate.
struct ServingLayout
{
    Scenario scenario;        ///< one replica: engine, GPU, gpus = tp x pp, KV format
    Estimate estimate;        ///< the replica's, per GPU
    double prefillSeconds = 0; ///< one prompt's (ReplicaModel::prefillSeconds)
    double maxRows = 0;        ///< sequences the engine decodes at once (ReplicaModel::maxRows)
    ReplicaCapacity capacity; ///< the most one replica serves within the targets
    ReplicaLoad load;         ///< each replica at its share of the request rate
    int replicas = 1;
    int gpus = 0;             ///< replicas x tp x pp
    double pricePerGpuHour = 0; ///< 0: no price known for this GPU
    /// GPU-hours per million generated tokens at the request rate (at the
    /// replicas' capacity where no rate is asked): the ranking's measure.
    double gpuHoursPerMillionTokens = 0;
    double costPerHour = 0;           ///< 0 without a price
    double costPerMillionTokens = 0;  ///< 0 without a price
};

/// A replica layout that cannot serve, and why.
struct RejectedLayout
{
    Scenario scenario;
    Message reason;
};

struct ServingPlan
{
    /// Cheapest first (by cost where every GPU has a price, else by
    /// GPU-hours), up to perGroup for each engine and GPU type.
    std::vector<ServingLayout> layouts;
    std::vector<RejectedLayout> rejected;
};

/// The serving plan: for each engine and GPU type, the replica layouts
/// (tensor and pipeline parallel, the scenario's KV format and fp8 where
/// the engine and GPU run it) that fit, each replica's capacity within the
/// targets (replicaCapacity), and the replicas the request rate needs.
/// Layout rules are planLayouts'; the scenario's prompt is its context less
/// its output tokens. A training scenario has no serving plan: none is
/// returned, and the front ends say so before they ask.
ServingPlan planServing(const Scenario &base, const Catalog &catalog, const ServingPlanRequest &request);

} // namespace core
