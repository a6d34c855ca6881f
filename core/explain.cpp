#include "core/explain.h"

#include "core/overheads.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

std::string num(double value)
{
    if (std::fabs(value - std::round(value)) < 1e-9 && std::fabs(value) < 1e18)
        return groupDigits(static_cast<std::uint64_t>(std::llround(std::fabs(value))));
    return formatFixed(value, std::fabs(value) < 10 ? 4 : 2);
}

std::string num(std::uint64_t value) { return groupDigits(value); }

std::string shardNote(const Scenario &s, int fromStage)
{
    if (s.gpus > 1 && s.zeroStage >= fromStage)
        return " / " + std::to_string(s.gpus) + " GPUs (ZeRO-" + std::to_string(s.zeroStage) + ")";
    return "";
}

Derivation weights(const Scenario &s, const Estimate &e)
{
    const EstimateDetails &d = e.details;
    if (s.mode == Mode::Train)
        return {"W = P x b_w" + std::string(s.gpus > 1 && s.zeroStage >= 3 ? " / N" : ""),
                num(d.params.total) + " x " + num(d.regime.weights) + " B" + shardNote(s, 3), "",
                "Rajbhandari et al. 2020 (ZeRO) §III-A; regime: " + std::string(regimeId(s.regime))};
    const FormatInfo &f = formatInfo(s.effectiveWeights());
    std::string formula = "W = P_q x bpw / 8 + P_rest x b_rest";
    std::string values = num(d.quantizedParams) + " x " + formatFixed(d.weightBits.total(), 4) + " / 8 + "
        + num(d.unquantizedParams) + " x " + num(d.unquantizedBytes);
    if (d.kbitUpcast)
        values += "   (b_rest = 4: PEFT prepare_model_for_kbit_training casts the unquantised weights to fp32)";
    if (d.weightBits.overhead > 0)
        values += "   (bpw = " + formatFixed(d.weightBits.data, 0) + " + " + formatFixed(d.weightBits.overhead, 4)
            + ": " + d.weightBits.overheadWhat + ")";
    if (!s.isTraining() && s.gpus > 1) {
        formula += ", then the most loaded GPU's share: ceil(L/N) layers + max(embedding, lm_head)";
        values += "; " + num(d.layersOnGpu) + " of " + num(s.model.layers) + " layers";
    }
    return {formula, values, "", f.source};
}

Derivation optimizer(const Scenario &s, const Estimate &e)
{
    const EstimateDetails &d = e.details;
    const OptimizerInfo &o = optimizerInfo(s.optimizer);
    std::string values;
    std::string formula;
    if (s.optimizer == Optimizer::Adafactor) {
        formula = "S = sum over matrices (rows + cols) x 4 B + vectors x 4 B";
        values = "factored second moment over " + num(d.trainableParams) + " parameters = " + num(d.optimizerBytesTotal) + " B";
    } else if (o.fixedBytesPerParam >= 0) {
        formula = "S = P_train x " + num(o.fixedBytesPerParam) + " B";
        values = num(d.trainableParams) + " x " + num(o.fixedBytesPerParam);
    } else {
        formula = "S = P_train x states x bytes per state";
        values = num(d.trainableParams) + " x " + num(o.statesPerParam) + " x " + num(d.regime.optimizerStateBytes);
    }
    return {formula, values + shardNote(s, 1), "", o.source};
}

Derivation activations(const Scenario &s, const Estimate &e)
{
    const EstimateDetails &d = e.details;
    const ModelSpec &m = s.model;
    std::string formula = "A = L x (b x s x c + scores) + outside";
    std::string values = num(m.layers) + " x (" + num(s.batch) + " x " + num(s.sequence) + " x "
        + num(d.activationPerTokenPerLayer) + " B + " + num(d.activationScoresPerLayer) + " B) + "
        + num(d.activationOutsideLayers) + " B";
    if (s.effectiveCheckpointing() == Checkpointing::Full) {
        formula = "A = L x b x s x h x b_res + outside (full recompute keeps layer inputs)";
        values = num(m.layers) + " x " + num(s.batch) + " x " + num(s.sequence) + " x " + num(m.hidden) + " x "
            + num(d.residualBytes) + " + " + num(d.activationOutsideLayers) + " B";
    }
    values += "; c = bytes per token per layer (" + std::string(attentionId(s.attention)) + " attention, "
        + (m.gatedMlp ? "gated" : "plain") + " MLP, dropout " + (m.hasDropout() ? "on" : "off") + ")";
    return {formula, values, "",
            "Korthikanti et al. 2022, arXiv:2205.05198 §4.1 (sbh(34 + 5as/h) per GPT layer), generalised"};
}

/// The training workspace at the peak's moment: which transients coexist.
Derivation trainingWorkspace(const Estimate &e)
{
    const EstimateDetails &d = e.details;
    const PhaseTotal &peak = *std::find_if(e.phases.begin(), e.phases.end(),
                                           [&e](const PhaseTotal &p) { return p.phase == e.peakPhase; });
    const std::string moment = peak.moment;
    std::vector<std::pair<const char *, double>> parts;
    if (e.peakPhase == Phase::OptimizerStep) {
        parts = {{"optimizer-step temporaries", d.optimizerStepBytes}};
    } else if (moment == "inside the last layer") {
        parts = {{"autocast casts", d.autocastBytes}, {"dequantised weight", d.dequantBytes}};
    } else if (moment == "last layer's backward") {
        parts = {{"autocast casts", d.autocastBytes},
                 {"dequantised weight", d.dequantBytes},
                 {"recomputed layer", d.recomputeLayerBytes},
                 {"layer gradients", d.layerGradientBytes}};
    } else if (moment != "end of backward") {
        parts = {{"autocast casts", d.autocastBytes}, {"dequantised lm_head", d.headDequantBytes}};
    }
    std::string formula;
    std::string values;
    for (const auto &[what, bytes] : parts) {
        formula += (formula.empty() ? "" : " + ") + std::string(what);
        values += (values.empty() ? "" : " + ") + num(bytes) + " B";
    }
    if (parts.empty()) {
        formula = "nothing transient";
        values = "0";
    }
    return {formula + " (" + phaseId(e.peakPhase) + ", " + moment + ")", values, "",
            "ATen autocast_mode.cpp cached_cast (fp32 leaves only); bitsandbytes dequantize_4bit / torchao "
            "NF4Tensor.get_original_weight; torch.utils.checkpoint; torch/optim/adam.py _multi_tensor_adam"};
}

} // namespace

Derivation explainTerm(const Scenario &s, const Estimate &e, TermId term)
{
    const EstimateDetails &d = e.details;
    const ModelSpec &m = s.model;
    Derivation out;
    switch (term) {
    case TermId::Weights:
        out = weights(s, e);
        break;
    case TermId::Lora:
        out = {"P_lora = sum over adapted projections of r x (in + out); bytes = P_lora x b_w",
               num(d.loraParams) + " x " + num(d.regime.weights) + " B (rank " + std::to_string(s.lora.rank) + ")", "",
               "Hu et al. 2021, LoRA, arXiv:2106.09685 §4.1"};
        break;
    case TermId::MasterWeights:
        out = {"M = P_train x 4 B (fp32 copy)", num(d.trainableParams) + " x " + num(d.regime.masterWeights) + shardNote(s, 1),
               "", "Micikevicius et al. 2018, Mixed Precision Training §3.1; ZeRO §III-A"};
        break;
    case TermId::Gradients:
        out = {"G = P_train x b_g (phase " + std::string(phaseId(e.peakPhase)) + ")",
               num(d.trainableParams) + " x " + num(d.regime.gradients) + " B" + shardNote(s, 2), "",
               d.regime.source};
        break;
    case TermId::Optimizer:
        out = optimizer(s, e);
        break;
    case TermId::Activations:
        out = activations(s, e);
        break;
    case TermId::Logits:
        if (s.serving == ServingEngine::Vllm && !s.isTraining()) {
            out = {"sampler rows x V x (e + 26 B) + max_num_batched_tokens x h x e",
                   num(d.samplerRows) + " x " + num(m.vocab) + " x " + num(d.activationElementBytes + 26.0) + " + "
                       + num(s.maxBatchedTokens) + " x " + num(m.hidden) + " x " + num(d.activationElementBytes),
                   "",
                   "vllm v1 gpu_model_runner.py _dummy_sampler_run; v1/sample/ops/topk_topp_sampler.py "
                   "apply_top_k_top_p (fp32 copy, sort values + int64 indices, masks, softmax, scatter)"};
            break;
        }
        out = {"b x s x V x bytes per element (" + std::string(logitsId(s.effectiveLogits())) + ")",
               num(d.logitsTokens) + " x " + num(m.vocab) + " x " + num(d.logitsElementBytes), "",
               "Hugging Face transformers loss_utils.ForCausalLMLoss (logits.float()); torchtune chunked CE"};
        break;
    case TermId::KvCache:
        out = {"KV = 2 x layers x kv_heads x head_dim x tokens x batch x bytes",
               "2 x " + num(d.kvCachedTokens) + " layer-tokens x " + num(m.kvHeads) + " x " + num(m.headDim) + " x "
                   + num(s.batch) + " x " + num(d.kvElementBytes),
               "", "Pope et al. 2022, Efficiently Scaling Transformer Inference §3.1"};
        break;
    case TermId::Workspace:
        out = s.isTraining() ? trainingWorkspace(e)
                             : s.serving == ServingEngine::Vllm
            ? Derivation{"max_num_batched_tokens x e x (2h + max(attention, MLP intermediates))",
                         num(s.maxBatchedTokens) + " tokens x " + num(d.activationElementBytes) + " B", "",
                         "vllm v1 gpu_model_runner.py profile_run (_dummy_run; attention skipped while profiling)"}
            : Derivation{"one layer's prefill temporaries at b x s tokens",
                         num(s.batch) + " x " + num(s.sequence) + " tokens", "",
                         "Hugging Face modeling_llama.py forward, without autograd"};
        break;
    case TermId::GatherBuffer:
        // Only ZeRO-3 gathers a layer's parameters before using them.
        out = {"2 x largest layer parameters x bytes per gathered parameter",
               e.term(term).count() > 0 ? "2 x " + num(d.params.largestLayer) + " x " + num(d.gatherBytesPerParam)
                                        : "not used: below ZeRO stage 3 every GPU holds whole layers",
               "", "DeepSpeed stage3.py estimate_zero3_model_states_mem_needs (4 x largest layer params)"};
        break;
    case TermId::CommBuffers:
        out = {"NCCL_BUFFSIZE x 2 directions x 32 channels x 2 protocols",
               s.gpus > 1 ? "4 MiB x 2 x 32 x 2 = " + num(ncclBufferMib(s.gpus)) + " MiB"
                          : "not used: one GPU creates no NCCL communicator",
               "", "NCCL environment variables docs (NCCL_BUFFSIZE)"};
        break;
    case TermId::CudaOverhead:
        out = {"per-GPU CUDA context and library workspaces", num(d.cudaOverheadMib) + " MiB ("
                   + std::string(s.cudaOverheadMib ? "set by user" : cudaLoadingId(s.cudaLoading)) + " module loading)",
               "", "PyTorch PR #86509 (lazy: 287 MB); HF Model training anatomy (eager: 1343 MiB), seed S11"};
        break;
    case TermId::AllocatorReserve:
        out = {"reserve % x tensor memory", formatFixed(s.reservePercent, 1) + " % of the other GPU tensors", "",
               "PyTorch CUDA caching allocator docs (reserved >= allocated); ZeRO §III-B fragmentation"};
        break;
    case TermId::Count:
        break;
    }
    const Bytes bytes = e.term(term);
    out.result = formatBytes(bytes) + " (" + groupDigits(bytes.count()) + " B)";
    return out;
}

} // namespace core
