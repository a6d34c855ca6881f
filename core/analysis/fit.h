#pragma once

// What fits where: an estimate's verdict against catalog GPUs and mixed
// device sets, and the searches behind it (gpus needed, largest batch,
// longest context, serving budget).

#include "core/base/message.h"
#include "core/base/units.h"
#include "core/engine/estimate.h"
#include "core/memory/terms.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace core {

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
    /// vLLM's --max-model-len auto: the longest context, up to the
    /// model's, whose KV cache for one request fits the pool; 0 where the
    /// engine has no such choice (or not even one token fits).
    std::uint64_t autoContext = 0;
    bool hasAutoContext = false;
    /// Engines that keep layers in host memory (llama.cpp, generate()'s
    /// device_map): the most --gpu-layers that fit, L + 1 being every layer
    /// and the output layer; -1 when not even 0 fit.
    bool hasGpuLayers = false;
    long long maxGpuLayers = -1;
    std::vector<Message> warnings;
    /// The catalog entry, for what its hardware runs (capabilityWarnings).
    GpuSpec gpu;
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

/// What `gpu` cannot run of the scenario (bf16, FlashAttention-2, fp8,
/// an NVFP4 KV cache), one message each; empty when it runs all of it.
std::vector<Message> capabilityWarnings(const Scenario &scenario, const GpuSpec &gpu);
/// The first of `variant`'s capability warnings on `gpu` that `own` does
/// not have already: a change to what the hardware lacks (fp8 before Ada,
/// an NVFP4 KV cache before Blackwell, TensorRT-LLM on a card that is not
/// NVIDIA's) is no way to make it fit or serve.
std::optional<Message> newCapabilityWarning(const Scenario &variant, const Scenario &own, const GpuSpec &gpu);

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

/// The scenario as run on `gpus` of one GPU type, the layout a "needs N x"
/// verdict names: layers split for inference, fully sharded (ZeRO-3 / FSDP
/// full shard) for training.
Scenario onGpus(const Scenario &scenario, int gpus);

/// The headroom as shown in tables: "12.3 GiB", "-4.5 GiB" when short, and
/// "exceeds" when the total itself is beyond what 64 bits of bytes can count.
std::string formatHeadroom(const GpuFit &fit, ByteUnit unit, int decimals);
std::string formatHeadroom(const DeviceFit &device, ByteUnit unit, int decimals);

/// `estimate` plus the fit against each GPU in `catalog` (all when `gpuIds`
/// is empty), including GPUs needed, largest batch and longest context.
/// The estimate is the focus GPU's: the scenario's chosen one, else the
/// one GPU asked about, else the default; where the engine's defaults or
/// its communicators follow the card, each other kind of card gets its own
/// (`otherCards`, where its total differs).
/// A scenario with `devices` is estimated as `withDeviceSplit` runs it
/// (core/analysis/deviceset.h), and `deviceSet` holds each device's fit.
struct EstimateWithFits
{
    /// The scenario as estimated: the given one with its device split.
    /// Explanations and figures of `estimate` start from this one.
    Scenario scenario;
    Estimate estimate;
    std::vector<GpuFit> fits;
    DeviceSetFit deviceSet;
    /// Every formula `estimate` evaluated at its peak stage, when they were
    /// asked for: its derivations are rendered from them.
    std::shared_ptr<const FormulaRecord> formulas;
    /// What `estimate` was made from: every variant of `scenario` in batch
    /// or sequence estimates from it (null where the scenario is not valid).
    std::shared_ptr<const PreparedScenario> prepared;

    /// Where the scenario's own total follows the card (totalFollowsTheCard),
    /// the scenario and estimate of each other kind of card asked about;
    /// `scenario` and `estimate` are the focus GPU's.
    struct OnCard
    {
        Scenario scenario;
        Estimate estimate;
    };
    std::vector<OnCard> otherCards;
    /// The scenario and estimate `gpu`'s fit was made with.
    const Scenario &scenarioOn(const GpuSpec &gpu) const { return onCard(gpu).first; }
    const Estimate &estimateOn(const GpuSpec &gpu) const { return onCard(gpu).second; }
    /// Whether `gpu` was fitted on the focus GPU's estimate.
    bool onFocusCard(const GpuSpec &gpu) const { return &estimateOn(gpu) == &estimate; }

    /// The fit against `gpuId`; null where it was not among the GPUs asked.
    const GpuFit *fitFor(const std::string &gpuId) const
    {
        const auto it = std::find_if(fits.begin(), fits.end(), [&gpuId](const GpuFit &f) { return f.gpuId == gpuId; });
        return it == fits.end() ? nullptr : &*it;
    }

private:
    std::pair<const Scenario &, const Estimate &> onCard(const GpuSpec &gpu) const;
};
/// Whether an estimate keeps its operands: the interactive estimate does, so
/// that the term the user opens is explained without estimating again; a
/// search or a matrix cell does not.
enum class Formulas { Skipped, Recorded };
EstimateWithFits estimateWithFits(const Scenario &scenario, const Catalog &catalog,
                                  const std::vector<std::string> &gpuIds = {}, Formulas formulas = Formulas::Skipped);

/// The estimate of `variant`, `result`'s scenario at another batch size or
/// sequence length (the Deploy view's full concurrency), from what `result`
/// prepared.
Estimate estimateVariant(const EstimateWithFits &result, const Scenario &variant);
/// Every pipeline stage's estimate of `result`'s scenario, or every GPU's of
/// llama.cpp's layer split (estimateStages): the per-rank bars.
std::vector<Estimate> estimateStages(const EstimateWithFits &result);

/// The tokens the serving engine's KV pool holds on `gpu` (its capacity),
/// by its runtime's KvPool rule: vLLM's capacity x gpu_memory_utilization -
/// weights - non-torch memory - the profiled activation peak
/// (vllm/worker/worker.py determine_num_available_blocks), less from 0.21
/// the CUDA-graph estimate where given (--cuda-graph-memory; not on ROCm),
/// or its kv_cache_memory_bytes as given; SGLang's share of the memory free
/// before the weights (sglangpool.h); TensorRT-LLM's share of what its
/// profile leaves free (trtllmpool.h); over the KV bytes per token.
std::uint64_t kvTokenBudget(const Scenario &scenario, const Estimate &estimate, const GpuSpec &gpu);
/// What a share-of-card engine's profile counts besides the weights and
/// the activation peak: from vLLM 0.9.2 (version rule
/// vllm_budget_from_snapshot) what grew outside torch after its init
/// snapshot, the CUDA context not among it, and comm_buffers; before, and
/// for the others, cuda_overhead and comm_buffers.
struct ProfiledNonTorch
{
    Bytes bytes;
    const char *terms; ///< what it is made of, as compare names planner terms
};
ProfiledNonTorch profiledNonTorch(const Scenario &scenario, const Estimate &estimate);

} // namespace core
