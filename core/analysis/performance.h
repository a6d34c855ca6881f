#pragma once

#include "core/analysis/steptime.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"

#include <optional>
#include <string>

namespace core {

/// Time, throughput, communication and cost of a scenario on one GPU type.
/// All figures are planning numbers: compute at the assumed MFU (taken as
/// the kernels' efficiency), communication at the links' bandwidth; a
/// training step is the sum of its parts (StepTime), each with what
/// overlaps already taken out.
struct Performance
{
    // Training
    double flopsPerToken = 0;       ///< hardware FLOPs: 6N + attention plus recompute (8N with full)
    double tokensPerStep = 0;       ///< batch x sequence x grad_accum x dp
    double stepComputeSeconds = 0;  ///< per step, at the MFU: compute + recompute
    double dataParallelBytes = 0;   ///< per GPU per step: all-reduce / ZeRO collectives
    double tensorParallelBytes = 0; ///< per GPU per step: TP all-reduces
    double pipelineBytes = 0;       ///< per GPU per step: activations between stages
    double stepCommSeconds = 0;     ///< communication on the critical path (StepTime::communicating)
    bool communicationBound = false; ///< the step waits longer on the links than it computes
    StepTime step;                  ///< the step's parts, per GPU
    double stepSeconds = 0;         ///< the whole step: compute, bubble and communication
    double trainingSeconds = 0;     ///< for the token budget, steps x stepSeconds; 0 without one
    double gpuHours = 0;
    double cost = 0;                ///< gpuHours x price; 0 without a price
    double peakTflops = 0;          ///< the precision's dense peak used
    double intraNodeGBps = 0;       ///< per direction
    double interNodeGBps = 0;
    // Inference
    double decodeTokensPerSecond = 0;  ///< memory-bandwidth bound, whole batch
    double prefillTokensPerSecond = 0; ///< compute bound at the MFU
    // Serving the scenario's batch (each sequence of the scenario's context)
    double ttftSeconds = 0;            ///< prefill of one sequence's context, compute bound
    double decodeTokensPerSecondPerSequence = 0;
    double costPerMillionTokens = 0;   ///< generated tokens, at the price per GPU-hour; 0 without a price
    // Serving a stream of requests (Workload::requestRate, outputTokens)
    std::uint64_t servingRows = 0;     ///< sequences decoded together: vLLM's KV budget or max_num_seqs, SGLang's pool or its max_running_requests, else the batch's rows
    double requestsPerSecond = 0;      ///< what the scenario's GPUs serve, one replica
    int gpusForRequestRate = 0;        ///< replicas x GPUs for the target rate; 0 when none is asked or none fits
};

/// FLOPs per trained token: 6N for forward and backward (Kaplan et al.
/// 2020 §2.1) plus attention, 12 x L x h x s (PaLM, Chowdhery et al. 2022,
/// App. B); full recompute repeats the forward: 8N + 16Lhs.
double trainingFlopsPerToken(const Scenario &scenario);

/// The precision the scenario computes in on `gpu`: fp32 for fp32 training
/// or weights, fp8 for fp8 inference where the GPU has it, else 16-bit
/// (bf16 where the GPU has it, fp16 otherwise).
Precision computePrecisionFor(const Scenario &scenario, const GpuSpec &gpu);

/// The dense tensor peak for the scenario's compute precision, TFLOPS.
double peakTflopsFor(const Scenario &scenario, const GpuSpec &gpu);

Performance performance(const Scenario &scenario, const Estimate &estimate, const GpuSpec &gpu);

/// A request's prompt: the scenario's context less the tokens it
/// generates (Workload::outputTokens), at least one.
double promptTokens(const Scenario &scenario);

/// Seconds of one decode step of `rows` rows (a round of every micro-batch
/// on a pipeline), memory-bandwidth bound (Pope et al. 2022 §3): each weight
/// the step uses and the rows' KV cache read once, on the GPU and, for
/// llama.cpp, in host memory for the CPU's part; weights offloaded to host
/// memory and run on the GPU over the host link. `estimate` is the
/// scenario's: its KV term is scaled from the scenario's rows to `rows`.
/// A pipeline's stages run up to pp micro-batches a round, each stage
/// reading its weights once for each; llama.cpp's layer split runs its
/// GPUs one after another.
double decodeStepSeconds(const Scenario &scenario, const Estimate &estimate, const GpuSpec &gpu, double rows);

/// Sequences a serving engine decodes together: vLLM fills its KV budget up
/// to max_num_seqs (TensorRT-LLM max_batch_size), SGLang up to the requests
/// its pool sizes (continuous batching); generate() and llama.cpp's slots
/// run the scenario's rows.
std::uint64_t servingRows(const Scenario &scenario, const Estimate &estimate, const GpuSpec &gpu);


/// Model FLOPs utilisation from measured tokens/s per GPU (6N per token),
/// and hardware FLOPs utilisation counting recomputation (8N), in percent.
double modelFlopsUtilizationPercent(const Scenario &scenario, double tokensPerSecondPerGpu, double peakTflops);
double hardwareFlopsUtilizationPercent(const Scenario &scenario, double tokensPerSecondPerGpu, double peakTflops);

} // namespace core
