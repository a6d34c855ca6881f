#include "core/report.h"

#include "core/explain.h"
#include "core/performance.h"
#include "core/stack.h"

namespace core {

namespace {

std::string yesNo(bool value) { return value ? "yes" : "no"; }

std::string optionalText(bool present, const std::string &text) { return present ? text : "default"; }

std::string targetsText(const LoraSettings &lora)
{
    std::string text;
    for (LinearSlot slot : lora.targets)
        text += (text.empty() ? "" : ",") + std::string(linearSlotId(slot));
    return text;
}

std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string markdownCell(const std::string &text)
{
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : (c == '\n' ? std::string(" ") : std::string(1, c));
    return out;
}

double sharePercent(Bytes part, Bytes total)
{
    return total.count() ? 100.0 * static_cast<double>(part.count()) / static_cast<double>(total.count()) : 0.0;
}

std::string verdict(const GpuFit &fit)
{
    if (fit.fits)
        return "fits";
    if (fit.gpusNeeded > 0)
        return "needs " + std::to_string(fit.gpusNeeded) + " x";
    return "cannot fit";
}

} // namespace

std::vector<std::pair<std::string, std::string>> describeInputs(const Scenario &s)
{
    std::vector<std::pair<std::string, std::string>> inputs = {
        {"model", s.model.name},
        {"family", s.model.family},
        {"parameters", groupDigits(countParameters(s.model).total)},
        {"mode", modeId(s.mode)},
        {"weights", formatInfo(s.effectiveWeights()).id},
        {"group_size", std::to_string(s.groupSize)},
        {"quantize_embeddings", yesNo(s.quantizeEmbeddings)},
        {"batch", groupDigits(s.batch)},
        {"sequence", groupDigits(s.sequence)},
        {"attention", attentionId(s.attention)},
        {"kv_dtype", optionalText(s.kvDtype.has_value(), s.kvDtype ? formatInfo(*s.kvDtype).id : "")},
        {"logits", logitsId(s.effectiveLogits())},
        {"gpus", std::to_string(s.gpus)},
        {"parallelism", "tp " + std::to_string(s.parallel.tp) + ", pp " + std::to_string(s.parallel.pp) + ", ep "
                            + std::to_string(s.parallel.ep) + (s.parallel.sequenceParallel ? ", sp" : "") + ", offload "
                            + offloadId(s.parallel.offload)},
        {"cuda_overhead_mib", s.cudaOverheadMib ? formatFixed(*s.cudaOverheadMib, 0) : std::string("default (") + cudaLoadingId(s.cudaLoading) + " loading)"},
        {"reserve_percent", formatFixed(s.reservePercent, 1)},
    };
    if (s.isTraining()) {
        const std::vector<std::pair<std::string, std::string>> training = {
            {"regime", regimeId(s.regime)},
            {"optimizer", optimizerInfo(s.optimizer).id},
            {"optimizer_impl", optimizerImplId(s.effectiveOptimizerImpl())},
            {"grad_accum", std::to_string(s.gradAccum)},
            {"checkpointing", checkpointingId(s.effectiveCheckpointing())},
            {"stack", stackInfo(s.stack).id},
            {"zero", std::to_string(s.zeroStage)},
        };
        inputs.insert(inputs.begin() + 5, training.begin(), training.end());
    }
    if (s.mode == Mode::Lora || s.mode == Mode::Qlora) {
        inputs.emplace_back("lora_rank", std::to_string(s.lora.rank));
        inputs.emplace_back("lora_alpha", formatFixed(s.lora.alpha, 1));
        inputs.emplace_back("lora_targets", targetsText(s.lora));
        inputs.emplace_back("lora_dropout", formatFixed(s.effectiveLoraDropout(), 2));
        if (s.mode == Mode::Qlora && s.stack != TrainingStack::Torchtune)
            inputs.emplace_back("bitsandbytes", bitsandbytesVersionId(s.bitsandbytes));
    } else if (!s.isTraining()) {
        inputs.emplace_back("gpu_memory_utilization", formatFixed(s.gpuMemoryUtilization, 2));
        inputs.emplace_back("serving_engine", servingEngineId(s.serving));
        if (s.serving == ServingEngine::Vllm) {
            inputs.emplace_back("max_num_batched_tokens", groupDigits(s.maxBatchedTokens));
            inputs.emplace_back("max_num_seqs", groupDigits(s.maxNumSeqs));
        }
    }
    return inputs;
}

std::string summarize(const Scenario &s)
{
    const std::string format = s.mode == Mode::Train ? regimeId(s.regime) : formatInfo(s.effectiveWeights()).id;
    return s.model.name + " · " + modeId(s.mode) + " · " + format + " · batch "
        + groupDigits(s.batch) + " · " + groupDigits(s.sequence) + " tokens · " + std::to_string(s.gpus)
        + (s.gpus == 1 ? " GPU" : " GPUs");
}

std::string markdownReport(const Scenario &s, const EstimateWithFits &result, const Catalog &catalog,
                           const ReportMeta &meta)
{
    const Estimate &e = result.estimate;
    const ByteUnit u = meta.unit;
    std::string md = "# " + meta.title + "\n\n";
    md += "_" + summarize(s) + "_  \nGenerated " + meta.date + " by VRAM Planner " + meta.version + ".\n\n";
    md += "## Per-GPU memory\n\nPeak phase: **" + std::string(phaseId(e.peakPhase)) + "**, total **"
        + formatBytes(e.total, u) + "** (" + groupDigits(e.total.count()) + " bytes).\n\n";
    md += "| term | memory | bytes | share |\n|---|---:|---:|---:|\n";
    for (TermId id : allTerms())
        md += "| " + std::string(termId(id)) + " | " + formatBytes(e.term(id), u) + " | " + groupDigits(e.term(id).count())
            + " | " + formatFixed(sharePercent(e.term(id), e.total), 1) + " % |\n";
    md += "| **total** | **" + formatBytes(e.total, u) + "** | " + groupDigits(e.total.count()) + " | 100.0 % |\n\n";
    md += "Phases: ";
    for (const PhaseTotal &p : e.phases)
        md += std::string(phaseId(p.phase)) + " " + formatBytes(p.total, u) + "; ";
    md += "\n\n## GPUs\n\n| GPU | memory | verdict | headroom | max batch | max context | KV tokens |\n"
          "|---|---:|---|---:|---:|---:|---:|\n";
    for (const GpuFit &fit : result.fits) {
        const GpuSpec *gpu = catalog.find(fit.gpuId);
        md += "| " + markdownCell(gpu ? gpu->name : fit.gpuId) + " | " + formatBytes(fit.capacity, u) + " | " + verdict(fit)
            + " | " + formatHeadroom(fit, u, 2) + " | " + groupDigitsOrDash(fit.maxBatch) + " | "
            + groupDigitsOrDash(fit.maxSequence) + " | " + (fit.hasKvTokens ? groupDigitsOrDash(fit.kvTokens) : "-")
            + " |\n";
    }
    if (const GpuSpec *gpu = catalog.find(s.gpuId)) {
        const Performance p = performance(s, e, *gpu);
        md += "\n## Time and cost on " + gpu->name + "\n\n| figure | value |\n|---|---:|\n";
        const auto line = [&md](const std::string &what, const std::string &value) { md += "| " + what + " | " + value + " |\n"; };
        line("layout", "tp " + std::to_string(s.parallel.tp) + " x pp " + std::to_string(s.parallel.pp) + " x dp "
                 + std::to_string(s.dataParallel()) + ", ZeRO-" + std::to_string(s.zeroStage) + ", offload "
                 + offloadId(s.parallel.offload));
        line("dense peak used", formatFixed(p.peakTflops, 1) + " TFLOPS at MFU " + formatFixed(s.workload.mfu, 2));
        if (s.isTraining()) {
            line("FLOPs per token", formatFixed(p.flopsPerToken / 1e9, 2) + " GFLOP");
            line("step compute", formatFixed(p.stepComputeSeconds, 3) + " s");
            line("step communication", formatFixed(p.stepCommSeconds, 3) + " s"
                     + (p.communicationBound ? " (communication-bound)" : ""));
            if (p.trainingSeconds > 0) {
                line("training time", formatFixed(p.trainingSeconds / 3600.0, 1) + " h for "
                         + formatFixed(s.workload.trainingTokens / 1e9, 2) + "B tokens");
                line("GPU-hours", formatFixed(p.gpuHours, 1));
                if (p.cost > 0)
                    line("cost", formatFixed(p.cost, 2) + " at " + formatFixed(s.workload.pricePerGpuHour, 2) + " per GPU-hour");
            }
        } else {
            line("decode (bandwidth bound)", formatFixed(p.decodeTokensPerSecond, 0) + " tokens/s");
            line("prefill (compute bound)", formatFixed(p.prefillTokensPerSecond, 0) + " tokens/s");
        }
    }
    if (!e.warnings.empty()) {
        md += "\n## Warnings\n\n";
        for (const std::string &w : e.warnings)
            md += "- " + w + "\n";
    }
    md += "\n## Assumptions\n\n| input | value |\n|---|---|\n";
    for (const auto &[name, value] : describeInputs(s))
        md += "| " + name + " | " + markdownCell(value) + " |\n";
    md += "\n## How each term is computed\n\n";
    const std::array<Derivation, kTermCount> derivations = explainTerms(s, e);
    for (TermId id : allTerms()) {
        const Derivation &why = derivations[static_cast<std::size_t>(id)];
        md += "- **" + std::string(termId(id)) + "** = " + why.result + ": `" + why.formula + "`; " + why.substituted
            + " (" + why.note + "). Symbols: " + why.legend + ". Source: " + why.source + "\n";
    }
    return md;
}

std::string csvReport(const Scenario &s, const EstimateWithFits &result, const Catalog &catalog, const ReportMeta &meta)
{
    const Estimate &e = result.estimate;
    std::string csv = "section,item,field,value\n";
    auto row = [&csv](const std::string &section, const std::string &item, const std::string &field,
                      const std::string &value) {
        csv += csvField(section) + "," + csvField(item) + "," + csvField(field) + "," + csvField(value) + "\n";
    };
    row("meta", "report", "title", meta.title);
    row("meta", "report", "date", meta.date);
    row("meta", "report", "version", meta.version);
    row("meta", "report", "summary", summarize(s));
    for (const auto &[name, value] : describeInputs(s))
        row("input", name, "value", value);
    const std::array<Derivation, kTermCount> derivations = explainTerms(s, e);
    for (TermId id : allTerms()) {
        const Derivation &why = derivations[static_cast<std::size_t>(id)];
        row("term", termId(id), "bytes", std::to_string(e.term(id).count()));
        row("term", termId(id), "share_percent", formatFixed(sharePercent(e.term(id), e.total), 2));
        row("term", termId(id), "formula", why.formula);
        row("term", termId(id), "substituted", why.substituted);
        row("term", termId(id), "note", why.note);
        row("term", termId(id), "legend", why.legend);
        row("term", termId(id), "source", why.source);
    }
    row("term", "total", "bytes", std::to_string(e.total.count()));
    row("peak", "phase", "value", phaseId(e.peakPhase));
    for (const PhaseTotal &p : e.phases)
        row("phase", phaseId(p.phase), "bytes", std::to_string(p.total.count()));
    for (const GpuFit &fit : result.fits) {
        const GpuSpec *gpu = catalog.find(fit.gpuId);
        row("gpu", fit.gpuId, "name", gpu ? gpu->name : fit.gpuId);
        row("gpu", fit.gpuId, "memory_bytes", std::to_string(fit.capacity.count()));
        row("gpu", fit.gpuId, "verdict", verdict(fit));
        row("gpu", fit.gpuId, "headroom_bytes", std::to_string(fit.headroomBytes()));
        row("gpu", fit.gpuId, "gpus_needed", std::to_string(fit.gpusNeeded));
        row("gpu", fit.gpuId, "max_batch", std::to_string(fit.maxBatch));
        row("gpu", fit.gpuId, "max_seq", std::to_string(fit.maxSequence));
        if (fit.hasKvTokens)
            row("gpu", fit.gpuId, "kv_tokens", std::to_string(fit.kvTokens));
    }
    if (const GpuSpec *gpu = catalog.find(s.gpuId)) {
        const Performance p = performance(s, e, *gpu);
        row("performance", gpu->id, "peak_tflops", formatFixed(p.peakTflops, 1));
        row("performance", gpu->id, "step_compute_seconds", formatFixed(p.stepComputeSeconds, 6));
        row("performance", gpu->id, "step_communication_seconds", formatFixed(p.stepCommSeconds, 6));
        row("performance", gpu->id, "communication_bound", p.communicationBound ? "yes" : "no");
        row("performance", gpu->id, "training_seconds", formatFixed(p.trainingSeconds, 0));
        row("performance", gpu->id, "gpu_hours", formatFixed(p.gpuHours, 1));
        row("performance", gpu->id, "cost", formatFixed(p.cost, 2));
        row("performance", gpu->id, "decode_tokens_per_second", formatFixed(p.decodeTokensPerSecond, 0));
    }
    for (std::size_t i = 0; i < e.warnings.size(); ++i)
        row("warning", std::to_string(i + 1), "text", e.warnings[i]);
    return csv;
}

} // namespace core
