#pragma once

#include "core/catalog.h"
#include "core/message.h"
#include "core/modelspec.h"
#include "core/scenario.h"
#include "core/units.h"

#include <array>
#include <cassert>
#include <optional>
#include <string>
#include <vector>

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
enum class Phase { Forward, Backward, OptimizerStep, Inference };
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
    static constexpr std::size_t kCapacity = 3;

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

/// Intermediate quantities the estimate used, for the searches, reports
/// and checks that need more than the terms. (Derivations do not read
/// these: `explainTerm` records the computation itself.)
struct EstimateDetails
{
    ParameterCounts params;
    std::uint64_t trainableParams = 0;
    std::uint64_t loraParams = 0;
    double weightBytesTotal = 0;       ///< whole model, before any split
    double unquantizedBytes = 2;       ///< an unquantised parameter's bytes: 16-bit, or fp32 after PEFT's kbit upcast
    bool kbitUpcast = false;           ///< prepare_model_for_kbit_training cast them to fp32
    FormatBits weightBits;
    RegimeBytes regime;
    double optimizerBytesTotal = 0;
    double activationBytesPerLayer = 0; ///< saved for backward, per layer
    double activationPerTokenPerLayer = 0; ///< the part linear in b*s
    double activationOutsideLayers = 0;    ///< embedding output, final norm, lm_head input
    double recomputeLayerBytes = 0;        ///< one layer live again during full recompute
    double autocastBytes = 0;              ///< 16-bit casts of fp32 weights autocast keeps
    double dequantBytes = 0;               ///< one dequantised base weight (QLoRA), at once
    double headDequantBytes = 0;           ///< the dequantised lm_head, where it is quantised
    double logitsElementBytes = 0;         ///< bytes per b*s*V element at the logits peak
    /// Bytes per b*s*V element the loss keeps for backward: the fp32
    /// log-softmax output of cross_entropy (activation dtype for `native`).
    double lossSavedElementBytes = 0;
    std::uint64_t logitsTokens = 0;
    double kvBytesPerToken = 0;            ///< one sequence, all layers on this GPU
    double activationElementBytes = 2;
    double kvElementBytes = 2;
    double workspaceBytes = 0;
    double samplerRows = 0;                ///< vLLM: rows of the sampler warm-up
    std::uint64_t layersOnGpu = 0;         ///< inference layer split
    int shardDegree = 1;                   ///< ZeRO data-parallel degree used to divide
    double microBatchesInFlight = 1;       ///< pipeline: activations alive on this stage
    /// Host memory needed per GPU: ZeRO-Offload's states, or llama.cpp's
    /// host side (mapped weights, host buffers, CPU KV) over its GPUs.
    double hostBytesPerGpu = 0;
    /// `hostBytesPerGpu` by term: the host side's weights, KV cache and
    /// buffers (llama.cpp), or the offloaded states (ZeRO-Offload).
    TermBytes hostTermsPerGpu{};
    /// Of the weights term, the routed experts' bytes (a decode step reads
    /// only the experts its tokens route to).
    double expertBytesOnGpu = 0;
    /// llama.cpp: the weights (token_embd aside: a step reads only its
    /// tokens' rows), routed experts and KV cache a decode step reads from
    /// host memory (the whole process, not per GPU).
    double hostWeightBytes = 0;
    double hostExpertBytes = 0;
    double hostKvBytes = 0;
    /// Weights in host memory that run on the GPU (hostoffload.h): the
    /// bytes a decode step brings over one GPU's host link, and the routed
    /// experts among them (a step reads only those its tokens pick).
    double hostLinkBytes = 0;
    double hostLinkExpertBytes = 0;
    std::string stage = "only";            ///< pipeline stage described: only, first, last
    int device = -1;                       ///< llama.cpp: the GPU of its layer split described
    double cudaOverheadMib = 0;
};

/// Fit of the scenario against one catalog GPU.
struct GpuFit
{
    std::string gpuId;
    Bytes capacity;
    bool fits = false;
    Bytes headroom;                ///< capacity - total when it fits, else 0
    Bytes shortfall;               ///< total - capacity when it does not fit, else 0; saturated with the total
    int gpusNeeded = 0;            ///< 0: no count up to the search limit fits
    std::uint64_t maxBatch = 0;    ///< 0: not even batch 1 fits
    std::uint64_t maxSequence = 0; ///< capped at the model's context length where known
    std::uint64_t kvTokens = 0;    ///< serving budget (inference only)
    bool hasKvTokens = false;
    std::uint64_t concurrentSequences = 0; ///< kvTokens / sequence length
    /// Engines that keep layers in host memory (llama.cpp, generate()'s
    /// device_map): the most --gpu-layers that fit, L + 1 being every layer
    /// and the output layer; -1 when not even 0 fit.
    bool hasGpuLayers = false;
    long long maxGpuLayers = -1;
    std::vector<Message> warnings;
    /// The layout the verdict names: the scenario's own GPU count when it
    /// fits, else `gpusNeeded` of this GPU (split or ZeRO-3), with the
    /// per-GPU terms at that layout, for charts that draw each GPU's bar.
    int layoutGpus = 1;
    TermBytes layoutTerms{};
    Bytes layoutTotal;

    /// Signed headroom for JSON and CSV: negative when it does not fit,
    /// clamped to +-2^62 bytes (a saturated total reads -2^62).
    long long headroomBytes() const;
};

/// One GPU of a mixed device set (`Scenario::devices`): its share of the
/// model and its fit against its own memory.
struct DeviceFit
{
    std::string gpuId;
    Bytes capacity;
    TermBytes terms{};
    Bytes total;
    bool fits = false;
    Bytes headroom;             ///< capacity - total when it fits, else 0
    Bytes shortfall;            ///< total - capacity when it does not fit, else 0
    std::uint64_t layers = 0;   ///< llama.cpp: repeating layers on this device
    std::uint64_t kvTokens = 0; ///< inference: the KV tokens this device alone could hold

    /// Signed headroom, as GpuFit::headroomBytes.
    long long headroomBytes() const;
};

/// A mixed device set's fit: every device, and what binds them together.
struct DeviceSetFit
{
    std::vector<DeviceFit> devices; ///< in split order; empty: no mixed set
    bool fits = false;              ///< every device fits
    /// Inference: the KV tokens the set serves: every token has a slot on
    /// every device (in its layers, or its heads), so the smallest of the
    /// devices' budgets.
    std::uint64_t kvTokens = 0;
    bool hasKvTokens = false;
    std::vector<Message> notes;
};

/// The headroom as shown in tables: "12.3 GiB", "-4.5 GiB" when short, and
/// "exceeds" when the total itself is beyond what 64 bits of bytes can count.
std::string formatHeadroom(const GpuFit &fit, ByteUnit unit, int decimals);
std::string formatHeadroom(const DeviceFit &device, ByteUnit unit, int decimals);

/// Everything `estimate` computes for one scenario.
struct Estimate
{
    TermBytes terms{}; ///< per GPU, at the peak phase
    Bytes total;       ///< sum of `terms`: what must fit
    Phase peakPhase = Phase::Inference;
    PhaseList phases;
    EstimateDetails details;
    std::vector<Message> warnings;
    std::vector<std::string> errors; ///< scenario problems; terms are zero when set

    Bytes term(TermId id) const { return terms[static_cast<std::size_t>(id)]; }
    bool isValid() const { return errors.empty(); }
};

/// The memory model: pure, no I/O. Per-GPU bytes by component and phase.
Estimate estimate(const Scenario &scenario);

class PreparedScenario;
/// The same, with what does not depend on the batch and sequence taken
/// from `prepared`, made from `scenario` or from one that differs from it
/// in batch and sequence only (sweeps, grids, fit searches). The result is
/// the one `estimate(scenario)` gives, bit for bit.
Estimate estimate(const Scenario &scenario, const PreparedScenario &prepared);
/// `estimate` without the warnings about the inputs: the numbers that a
/// grid or a search compares, without building the warnings' text.
Estimate estimateNumbers(const Scenario &scenario, const PreparedScenario &prepared);
/// The same into `into`, whatever it held: a loop over many points (a grid,
/// a search) reuses one estimate's storage instead of making one per point.
void estimateNumbers(const Scenario &scenario, const PreparedScenario &prepared, Estimate &into);

/// Per pipeline stage: the first and the last stage when the layout has a
/// pipeline, every GPU of llama.cpp's layer split, else the single rank
/// (for per-rank charts).
std::vector<Estimate> estimateStages(const Scenario &scenario);

/// `estimate` plus the fit against each GPU in `catalog` (all when `gpuIds`
/// is empty), including GPUs needed, largest batch and longest context.
/// A scenario with `devices` is estimated as `withDeviceSplit` runs it
/// (core/deviceset.h), and `deviceSet` holds each device's fit.
struct EstimateWithFits
{
    /// The scenario as estimated: the given one with its device split.
    /// Explanations and figures of `estimate` start from this one.
    Scenario scenario;
    Estimate estimate;
    std::vector<GpuFit> fits;
    DeviceSetFit deviceSet;
};
EstimateWithFits estimateWithFits(const Scenario &scenario, const Catalog &catalog,
                                  const std::vector<std::string> &gpuIds = {});

/// Serving budget the way vLLM sizes its paged KV cache at start-up:
/// capacity x gpu_memory_utilization - weights - non-torch memory - the
/// profiled activation peak, divided by KV bytes per token
/// (vllm/worker/worker.py determine_num_available_blocks).
std::uint64_t kvTokenBudget(const Scenario &scenario, const Estimate &estimate, Bytes capacity);

/// Host memory one machine needs beside its GPUs: ZeRO-Offload's states or
/// llama.cpp's host side, for the GPUs of one node.
double hostBytesPerMachine(const Scenario &scenario, const Estimate &estimate);

/// KV-cache bytes per token for one sequence on the whole model: the
/// "512 KiB per token" figure (Llama-2-7B, bf16).
double kvCacheBytesPerToken(const Scenario &scenario, double elementBytes);

} // namespace core
