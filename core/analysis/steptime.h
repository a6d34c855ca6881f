#pragma once

#include "core/base/message.h"

#include "core/engine/estimate.h"

#include <array>
#include <cstddef>
#include <string>

namespace core {

/// The parts of one training step on its critical path, in the order the
/// JSON, the CLI and the reports list them. What overlaps is already taken
/// out of each part, so the step is their sum:
/// - compute: the model's FLOPs (6N + attention) at the MFU;
/// - recompute: what activation checkpointing runs again;
/// - pipeline_bubble: the stages' idle time in the pipeline's fill and drain;
/// - tensor_parallel: TP/SP collectives, which the next matmul waits for;
/// - data_parallel_exposed: the gradient reduction backward does not hide
///   (and ZeRO-1/2's parameter all-gather after the optimizer step);
/// - zero3_gathers: ZeRO-3 parameter all-gathers prefetching does not hide;
/// - pipeline_p2p: activations and gradients sent between stages.
enum class StepPart { Compute, Recompute, PipelineBubble, TensorParallel, DataParallelExposed, Zero3Gathers, PipelineP2p };

inline constexpr std::size_t kStepPartCount = 7;

/// Every part, in the listed order.
const std::array<StepPart, kStepPartCount> &allStepParts();

/// The part's id, as the JSON key ("pipeline_bubble").
const char *stepPartId(StepPart part);

/// Seconds of each part of one step, per GPU.
struct StepTime
{
    std::array<double, kStepPartCount> seconds{};

    double &operator[](StepPart part) { return seconds[static_cast<std::size_t>(part)]; }
    double operator[](StepPart part) const { return seconds[static_cast<std::size_t>(part)]; }
    /// The whole step: the sum of the parts.
    double total() const;
    /// The tensor cores' share: compute and recompute.
    double computing() const;
    /// The links' share: tensor parallel, exposed data parallel, ZeRO-3
    /// gathers and pipeline point-to-point.
    double communicating() const;
};

/// The part's name for people, English source text of Qt Linguist
/// (context "StepPart"): "pipeline bubble", "ZeRO-3 gathers".
const char *stepPartLabel(StepPart part);

/// "compute 1.234 s, recompute 0.000 s, ...": every part by its name, in
/// the reader's language, in seconds with `decimals` decimals (the CLI,
/// the reports and the GUI).
std::string describeStepParts(const StepTime &step, int decimals = 3, Translator translator = nullptr);

/// Bytes one GPU sends in one step, per kind of collective.
struct StepTraffic
{
    double dataParallel = 0;   ///< gradient reduction, ZeRO all-gathers
    double tensorParallel = 0; ///< TP all-reduces (SP all-gathers + reduce-scatters)
    double pipeline = 0;       ///< activations and gradients between stages
};

/// What one GPU's hardware offers the step.
struct StepLinks
{
    double achievedFlops = 0;      ///< FLOP/s at the MFU
    double intraNodeBytesPerSecond = 0; ///< per direction, for TP (kept in a node)
    double crossBytesPerSecond = 0;     ///< DP and PP: between nodes when the job spans several
};

/// Attention FLOPs per token of a training step: PaLM's 12 x L x h x s
/// (utilization.h attentionTrainingFlopsPerToken) over the softmax-attention
/// layers of each kind, with their own query width: a full layer attends
/// over the sequence, a sliding or chunked one over at most its window
/// (DeepSeek-V4's also over one compressed entry per `compressRatio`
/// tokens); linear-attention and Mamba layers keep a fixed state and add
/// none.
double attentionFlopsPerToken(const Scenario &scenario);

/// Hardware FLOPs per trained token: the model's 6N + attention plus what
/// checkpointing recomputes (see recomputeFlopsPerToken).
double hardwareFlopsPerToken(const Scenario &scenario);

/// FLOPs per token activation checkpointing runs again: full checkpointing
/// repeats the forward, 2N + 4Lhs (a third of 6N + 12Lhs; Chen et al. 2016
/// §3, Korthikanti et al. 2022 §5 "~33% overhead"); selective
/// recomputation (Korthikanti §5) repeats the attention core, which App. A
/// counts as raising the attention term from s/6h to s/3h of 72Bslh²:
/// 12Lhs more per token (2.7 % for GPT-3 175B, as §5 quotes); none: 0.
double recomputeFlopsPerToken(const Scenario &scenario);

/// Bytes per GPU per step, as documented on each StepTraffic member.
StepTraffic stepTraffic(const Scenario &scenario, const Estimate &estimate);

/// The step's parts for a training scenario on links `links`.
StepTime stepTime(const Scenario &scenario, const Estimate &estimate, const StepLinks &links);

} // namespace core
