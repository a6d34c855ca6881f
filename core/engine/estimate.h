#pragma once

#include "core/base/message.h"
#include "core/base/units.h"
#include "core/memory/llamacpp.h"
#include "core/memory/terms.h"
#include "core/model/catalog.h"
#include "core/model/modelspec.h"
#include "core/scenario/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace core {

/// Which pipeline stage an estimate describes. The first stage keeps the
/// activations of `pp` micro-batches in flight (1F1B) and the embedding;
/// the last stage keeps the lm_head and the logits (Narayanan et al. 2021,
/// §2.2; Korthikanti et al. 2022 §4.2.3).
enum class Stage { Only, First, Last };

/// "only", "first", "last": the spelling JSON and reports use.
const char *stageId(Stage stage);

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
    /// Of the weights term, the bytes no decode step reads: what an engine
    /// that measures its weights by the free memory counts beyond the
    /// tensors (SGLang's segment tails and rotary cache).
    double unreadWeightBytes = 0;
    /// llama.cpp: the weights (token_embd aside: a step reads only its
    /// tokens' rows), routed experts and KV cache a decode step reads from
    /// host memory (the whole process, not per GPU).
    double hostWeightBytes = 0;
    double hostExpertBytes = 0;
    double hostKvBytes = 0;
    /// llama.cpp: the whole process's host side, by buffer (run logs
    /// compare with it).
    LlamaCppHost llamaCppHost;
    /// Weights in host memory that run on the GPU (hostoffload.h): the
    /// bytes a decode step brings over one GPU's host link, and the routed
    /// experts among them (a step reads only those its tokens pick).
    double hostLinkBytes = 0;
    double hostLinkExpertBytes = 0;
    Stage stage = Stage::Only;             ///< pipeline stage described
    int device = -1;                       ///< llama.cpp: the GPU of its layer split described
    double cudaOverheadMib = 0;
};

/// Everything `estimate` computes for one scenario.
struct Estimate
{
    TermBytes terms{}; ///< per GPU, at the peak phase
    Bytes total;       ///< sum of `terms`: what must fit
    Phase peakPhase = Phase::Inference;
    PhaseList phases;
    EstimateDetails details;
    std::vector<Message> warnings;
    std::vector<Message> errors; ///< scenario problems (render for text); terms are zero when set

    Bytes term(TermId id) const { return terms[static_cast<std::size_t>(id)]; }
    bool isValid() const { return errors.empty(); }
};

/// The phase in which `id` is held at more than at the peak (full
/// training's gradients: at the backward peak only the first ones exist,
/// all of them at the optimizer step), the largest such; else nullptr.
const PhaseTotal *phaseHoldingMore(const Estimate &estimate, TermId id);

/// The memory model: pure, no I/O. Per-GPU bytes by component and phase.
Estimate estimate(const Scenario &scenario);

class FormulaRecord;
class PreparedScenario;
/// The same, with what does not depend on the batch and sequence taken
/// from `prepared`, made from `scenario` or from one that differs from it
/// in batch and sequence only (sweeps, grids, fit searches). The result is
/// the one `estimate(scenario)` gives, bit for bit.
Estimate estimate(const Scenario &scenario, const PreparedScenario &prepared);
/// The same, keeping in `record` every formula the estimate's peak stage
/// evaluated (`prepared` made with it: `PreparedScenario(scenario, &record)`),
/// from which its derivations are rendered without estimating again.
Estimate estimate(const Scenario &scenario, const PreparedScenario &prepared, FormulaRecord &record);
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
/// The same from `prepared`, made from `scenario`.
std::vector<Estimate> estimateStages(const Scenario &scenario, const PreparedScenario &prepared);
/// One GPU of llama.cpp's layer split, as estimateStages gives it, without
/// estimating the others (a search over one GPU's layers); the scenario's
/// estimate where there is no such split.
Estimate estimateLlamaCppDevice(const Scenario &scenario, int device);

/// Host memory one machine needs beside its GPUs: ZeRO-Offload's states or
/// llama.cpp's host side, for the GPUs of one node.
double hostBytesPerMachine(const Scenario &scenario, const Estimate &estimate);

/// Runs the pipeline stage that `estimate` describes again, with `record`
/// attached: the same computation, its operands kept. `estimate` must be
/// `estimate(scenario)` or one of `estimateStages(scenario)`.
void recordFormulas(const Scenario &scenario, const Estimate &estimate, FormulaRecord &record);

/// KV-cache bytes per token for one sequence on the whole model: the
/// "512 KiB per token" figure (Llama-2-7B, bf16).
double kvCacheBytesPerToken(const Scenario &scenario, double elementBytes);

} // namespace core
