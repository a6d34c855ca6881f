#include "app/cli/texttable.h"

#include "core/analysis/llamafit.h"
#include "core/analysis/performance.h"
#include "core/analysis/suggest.h"
#include "core/analysis/utilization.h"
#include "core/base/units.h"
#include "core/explain/report.h"
#include "core/explain/servingplanreport.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
#include <cmath>
#include <iomanip>

namespace cli {

namespace {

/// Characters a terminal shows for UTF-8 `text` (its code points: the
/// tables hold "×" and "≤", no wide characters).
std::size_t displayWidth(const std::string &text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string padRight(std::string text, std::size_t width)
{
    const std::size_t shown = displayWidth(text);
    return shown < width ? text + std::string(width - shown, ' ') : text;
}

std::string padLeft(const std::string &text, std::size_t width)
{
    const std::size_t shown = displayWidth(text);
    return shown < width ? std::string(width - shown, ' ') + text : text;
}

/// "1 GPU", "8 GPUs".
std::string gpuCount(int gpus)
{
    return std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
}

/// The most --gpu-layers that fit: "all" (every layer and the output
/// layer), a count, or "-" when not even none fits.
std::string gpuLayersText(const core::GpuFit &fit, std::uint64_t layers)
{
    if (fit.maxGpuLayers < 0)
        return "-";
    return static_cast<std::uint64_t>(fit.maxGpuLayers) > layers ? "all" : std::to_string(fit.maxGpuLayers);
}

/// What alone would make the scenario fit the focus GPU, as options.
/// What llama-server's --fit would choose on `gpu`: with the context left
/// unset, and with the scenario's as -c.
void printLlamaServerFit(std::ostream &out, const core::Scenario &s, const core::GpuSpec &gpu)
{
    const core::LlamaServerFitOptions options;
    out << "\nllama-server --fit on " << gpu.name << " (keeps " << core::formatBytes(options.margin, core::ByteUnit::GiB, 0)
        << " free)\n";
    const core::LlamaServerFit unset = core::llamaServerFit(s, gpu, options);
    out << "  without -c: " << core::render(core::llamaServerFitMessage(unset, s.model)) << "\n";
    core::LlamaServerFitOptions withContext = options;
    withContext.contextSet = true;
    out << "  with -c " << s.sequence << ": "
        << core::render(core::llamaServerFitMessage(core::llamaServerFit(s, gpu, withContext), s.model)) << "\n";
}

void printSuggestions(std::ostream &out, const core::Scenario &s, const core::EstimateWithFits &result,
                      const core::GpuSpec &gpu, core::ByteUnit unit)
{
    const core::GpuFit *fit = result.fitFor(gpu.id);
    if (!fit || fit->fits)
        return;
    core::FitSearch search(s);
    const std::vector<core::FitSuggestion> found = search.suggestionsFor(*fit);
    out << "\nShort of " << gpu.name << " by " << core::formatBytes(fit->shortfall, unit) << ".\n";
    if (const auto reason = search.reasonFor(result.estimate, *fit))
        out << core::fitReasonText(*reason, unit) << ".\n";
    out << core::suggestionsHeading(found) << "\n";
    for (const core::FitSuggestion &suggestion : found) {
        std::string options;
        for (const core::FieldChange &change : suggestion.changes) {
            // A switch is given by its name alone.
            const core::FieldDescriptor &f = core::field(change.field);
            options += (options.empty() ? "--" : " --") + std::string(f.flag);
            if (f.kind != core::FieldKind::Flag)
                options += " " + core::formatFieldValue(f, change.value);
        }
        out << "  " << padRight(options, 40) << padLeft(core::formatBytes(suggestion.total, unit), 11) << "   "
            << suggestion.foundBy << "\n";
    }
}

/// Time and cost on the focus GPU (--gpu, else the default), as the JSON's "performance".
void printPerformance(std::ostream &out, const core::Scenario &s, const core::Estimate &e, const core::GpuSpec &gpu,
                      const core::GpuFit *fit)
{
    const core::Performance p = core::performance(s, e, gpu);
    out << "\nOn " << gpu.name << " (" << core::formatFixed(p.peakTflops, 0) << " TFLOPS dense peak, MFU "
        << core::formatFixed(100.0 * s.workload.mfu, 0) << " %)"
        << (gpu.id == s.gpuId ? "" : "; no GPU chosen, so the default (--gpu chooses)") << "\n";
    if (!s.isTraining()) {
        out << "  prefill " << core::groupDigits(static_cast<std::uint64_t>(p.prefillTokensPerSecond))
            << " tokens/s, decode " << core::formatFigure(p.decodeTokensPerSecond) << " tokens/s for the batch\n";
        out << "  serving " << s.batch << (s.batch == 1 ? " sequence" : " sequences") << " of "
            << core::groupDigits(s.contextTokens()) << " tokens: first token after " << core::formatFixed(p.ttftSeconds, 2)
            << " s, then " << core::formatFixed(p.decodeTokensPerSecondPerSequence, 1) << " tokens/s each";
        if (p.costPerMillionTokens > 0)
            out << ", " << core::formatFixed(p.costPerMillionTokens, 2) << " per million generated tokens";
        out << "\n";
        if (p.requestsPerSecond > 0) {
            out << "  requests of " << core::groupDigits(s.workload.outputTokens) << " output tokens: "
                << core::formatFixed(p.requestsPerSecond, 2) << " per second on " << gpuCount(s.gpus) << " ("
                << core::groupDigits(p.servingRows) << (p.servingRows == 1 ? " sequence" : " sequences") << " decoding together)";
            if (p.gpusForRequestRate > 0)
                out << "; " << core::formatFixed(s.workload.requestRate, 2) << " per second need "
                    << gpuCount(p.gpusForRequestRate);
            out << "\n";
        }
        if (fit && fit->hasAutoContext)
            out << "  --max-model-len auto: " << core::groupDigits(fit->autoContext)
                << " tokens (the longest context one request's KV cache fits in the pool)\n";
        return;
    }
    out << "  step " << core::formatFixed(p.stepSeconds, 3) << " s: compute " << core::formatFixed(p.stepComputeSeconds, 3)
        << " s, pipeline bubble " << core::formatFixed(p.step[core::StepPart::PipelineBubble], 3) << " s, communication "
        << core::formatFixed(p.stepCommSeconds, 3) << " s"
        << (p.communicationBound ? " (communication-bound: the step waits on the links)" : "") << "\n";
    out << "  parts: " << core::describeStepParts(p.step) << "\n";
    if (p.trainingSeconds > 0)
        out << "  " << core::groupDigits(static_cast<std::uint64_t>(s.workload.trainingTokens)) << " tokens: "
            << core::formatFigure(p.trainingSeconds / 3600.0) << " hours on " << gpuCount(s.gpus) << ", "
            << core::formatFigure(p.gpuHours) << " GPU-hours"
            << (p.cost > 0 ? ", cost " + core::groupDigits(static_cast<std::uint64_t>(std::llround(p.cost))) : "") << "\n";
}

/// Each GPU of a mixed set (--devices) with its own share and fit.
void printDeviceSet(std::ostream &out, const core::DeviceSetFit &set, const core::Catalog &catalog, core::ByteUnit unit)
{
    if (set.devices.empty())
        return;
    std::size_t nameWidth = 3;
    for (const core::DeviceFit &device : set.devices)
        nameWidth = std::max(nameWidth, catalog.find(device.gpuId)->name.size());
    out << "\nDevices, in split order: " << (set.fits ? "every one fits" : "not every one fits") << "\n  "
        << padRight("#", 3) << padRight("GPU", nameWidth + 1) << padLeft("memory", 12) << padLeft("total", 12)
        << padLeft("fits", 6) << padLeft("headroom", 13) << padLeft("layers", 8) << "\n";
    for (std::size_t i = 0; i < set.devices.size(); ++i) {
        const core::DeviceFit &device = set.devices[i];
        out << "  " << padRight(std::to_string(i), 3) << padRight(catalog.find(device.gpuId)->name, nameWidth + 1)
            << padLeft(core::formatBytes(device.capacity, unit, 1), 12) << padLeft(core::formatBytes(device.total, unit, 1), 12)
            << padLeft(device.fits ? "yes" : "no", 6) << padLeft(core::formatHeadroom(device, unit, 1), 13)
            << padLeft(device.layers > 0 ? std::to_string(device.layers) : "-", 8) << "\n";
    }
    if (set.hasKvTokens)
        out << "  KV tokens the set serves: " << core::groupDigits(set.kvTokens) << "\n";
    for (const core::Message &note : set.notes)
        out << "  ! " << core::render(note) << "\n";
}

} // namespace

void printEstimate(std::ostream &out, const core::Scenario &s, const core::EstimateWithFits &result,
                   const core::Catalog &catalog, core::ByteUnit unit)
{
    const core::Estimate &e = result.estimate;
    const core::EstimateDetails &d = e.details;
    // A guessed architecture marks every number that depends on it.
    const std::string guess = s.model.guessed() ? " ~" : "";
    out << "Model    " << s.model.name << " (" << s.model.family << (s.model.guessed() ? ", guessed" : "")
        << "), " << core::groupDigits(d.params.total) << guess << " parameters";
    if (d.params.active != d.params.total)
        out << ", " << core::groupDigits(d.params.active) << " active per token";
    out << "\nScenario " << core::modeId(s.mode) << ", weights ";
    if (const core::CheckpointWeights *files = s.checkpointInUse())
        out << "from " << files->format << " files (" << files->dtypes() << ")";
    else
        out << core::formatInfo(s.effectiveWeights()).id;
    if (s.isTraining())
        out << ", regime " << core::regimeId(s.regime) << ", optimizer " << core::optimizerInfo(s.optimizer).id
            << ", checkpointing " << core::checkpointingId(s.effectiveCheckpointing()) << ", stack "
            << core::stackInfo(s.stack).id
            << (core::libraryVersionsText(s.versions).empty() ? "" : " (" + core::libraryVersionsText(s.versions) + ")");
    out << ", batch " << s.batch << ", sequence " << s.sequence << ", attention " << core::attentionId(s.attention)
        << ", " << gpuCount(s.gpus);
    if (s.isTraining() && s.gpus > 1)
        out << " (ZeRO-" << s.zeroStage << ")";
    const core::Parallelism &par = s.parallel;
    if (par.tp > 1 || par.pp > 1)
        out << ", tp " << par.tp << ", pp " << par.pp << (par.sequenceParallel ? " with sp" : "");
    if (par.ep > 1)
        out << ", ep " << par.ep;
    const core::PhaseTotal &peak = *std::find_if(e.phases.begin(), e.phases.end(),
                                                 [&e](const core::PhaseTotal &p) { return p.phase == e.peakPhase; });
    out << "\n\nPer-GPU memory at the peak (" << core::phaseId(e.peakPhase)
        << (peak.moment[0] != '\0' && s.isTraining() ? std::string(": ") + peak.moment : std::string()) << ")\n";
    for (core::TermId id : core::allTerms()) {
        const core::Bytes b = e.term(id);
        if (b.count() == 0)
            continue;
        const double share = e.total.count() ? 100.0 * static_cast<double>(b.count()) / static_cast<double>(e.total.count()) : 0;
        out << "  " << padRight(core::termId(id), 20) << padLeft(core::formatBytes(b, unit) + guess, 14)
            << padLeft(core::formatFixed(share, 1) + " %", 9) << "\n";
    }
    out << "  " << padRight("total", 20) << padLeft(core::formatBytes(e.total, unit) + guess, 14) << "\n";
    if (s.model.guessed())
        out << "  ~ depends on the guessed architecture (see the warnings)\n";
    const bool llamaCpp = core::usesGgmlBuffers(s);
    if (const double host = core::hostBytesPerMachine(s, e); host > 0 || llamaCpp) {
        out << "  " << padRight("host memory", 20) << padLeft(core::formatBytes(core::Bytes::fromDouble(host), unit) + guess, 14)
            << "   (";
        if (s.hostMemoryGib > 0)
            out << "of " << core::formatBytes(core::Bytes::fromDouble(s.hostMemoryGib * 1024 * 1024 * 1024), unit) << "; ";
        if (llamaCpp)
            out << "llama.cpp: " << d.layersOnGpu << " of " << s.model.layers
                << " layers on this GPU; token_embd, CPU layers and host buffers in RAM)\n";
        else if (s.isTraining()) {
            const bool checkpoints = d.hostTermsPerGpu[core::termIndex(core::TermId::Activations)] > core::Bytes();
            const bool states = d.hostBytesPerGpu
                > static_cast<double>(d.hostTermsPerGpu[core::termIndex(core::TermId::Activations)].count());
            out << (checkpoints && states ? "ZeRO-Offload's states and the offloaded checkpoints"
                    : checkpoints         ? "the offloaded checkpoints: every layer's input"
                                          : "ZeRO-Offload's states")
                << " for one machine's GPUs)\n";
        }
        else if (s.serving == core::ServingEngine::Vllm) {
            const bool weights = d.hostTermsPerGpu[core::termIndex(core::TermId::Weights)] > core::Bytes();
            const bool kv = d.hostTermsPerGpu[core::termIndex(core::TermId::KvCache)] > core::Bytes();
            out << (weights && kv ? "vLLM --cpu-offload-gb's weights and --kv-offloading-size's KV blocks in pinned RAM"
                    : kv          ? "vLLM --kv-offloading-size: each GPU's share of the offloaded KV blocks in pinned RAM"
                                  : "vLLM --cpu-offload-gb: each GPU's offloaded weights in pinned RAM, read over the host "
                                    "link every step")
                << ")\n";
        }
        else
            out << d.layersOnGpu << " of " << s.model.layers
                << " layers on this GPU; offloaded weights in RAM, read over the host link every step)\n";
    }
    printDeviceSet(out, result.deviceSet, catalog, unit);
    if (!s.model.defaultedKeys.empty())
        out << "\nDefaults " << core::joinWithCommas(s.model.defaultedKeys) << "\n";
    if (e.phases.size() > 1) {
        out << "\nPhases  ";
        for (const core::PhaseTotal &p : e.phases)
            out << core::phaseId(p.phase) << " " << core::formatBytes(p.total, unit) << "   ";
        out << "\n";
    }

    std::size_t nameWidth = 3;
    for (const core::GpuFit &fit : result.fits)
        if (const core::GpuSpec *gpu = catalog.find(fit.gpuId))
            nameWidth = std::max(nameWidth, gpu->name.size());
    out << "\n" << padRight("GPU", nameWidth + 1) << padLeft("memory", 12) << padLeft("fits", 6) << padLeft("headroom", 13)
        << padLeft("GPUs", 6) << padLeft("max batch", 11) << padLeft("max seq", 12);
    if (!s.isTraining())
        out << padLeft("KV tokens", 12);
    const bool layerColumn = !result.fits.empty() && result.fits.front().hasGpuLayers;
    if (layerColumn)
        out << padLeft("GPU layers", 12);
    out << "\n";
    for (const core::GpuFit &fit : result.fits) {
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        if (!gpu || !(gpu->defaultShown || gpu->id == s.gpuId))
            continue;
        out << padRight(gpu->name, nameWidth + 1) << padLeft(core::formatBytes(fit.capacity, unit, 1), 12)
            << padLeft(fit.fits ? "yes" : "no", 6)
            << padLeft(core::formatHeadroom(fit, unit, 1), 13)
            << padLeft(fit.gpusNeeded > 0 ? std::to_string(fit.gpusNeeded) : "-", 6)
            << padLeft(core::groupDigitsOrDash(fit.maxBatch), 11) << padLeft(core::groupDigitsOrDash(fit.maxSequence), 12);
        if (fit.hasKvTokens)
            out << padLeft(core::groupDigitsOrDash(fit.kvTokens), 12);
        if (layerColumn)
            out << padLeft(gpuLayersText(fit, s.model.layers), 12);
        out << "\n";
        for (const core::Message &w : fit.warnings)
            out << "    ! " << core::render(w) << "\n";
    }
    // Rows whose estimate differs from the breakdown's (the engine's
    // defaults or communicators there), by the printed GPUs that run them.
    for (const core::EstimateWithFits::OnCard &other : result.otherCards) {
        std::string names;
        for (const core::GpuFit &fit : result.fits)
            if (const core::GpuSpec *gpu = catalog.find(fit.gpuId);
                gpu && (gpu->defaultShown || gpu->id == s.gpuId) && &result.scenarioOn(*gpu) == &other.scenario)
                names += (names.empty() ? "" : ", ") + gpu->name;
        if (!names.empty())
            out << "  " << names << ": " << core::ownEstimateWhy(other.scenario, result.scenario) << "; fitted at "
                << core::formatBytes(other.estimate.total, unit) << " per GPU.\n";
    }
    if (const core::GpuSpec *focus = core::focusGpu(s, catalog)) {
        if (core::fitsItselfAtLoad(s))
            printLlamaServerFit(out, s, *focus);
        printSuggestions(out, s, result, *focus, unit);
        printPerformance(out, s, e, *focus, result.fitFor(focus->id));
    }
    if (!e.warnings.empty()) {
        out << "\nWarnings\n";
        for (const core::Message &w : e.warnings)
            out << "  - " << core::render(w) << "\n";
    }
    out << "\nAll catalog GPUs and every term's derivation: add --json.\n";
}

void printPlan(std::ostream &out, const core::GpuSpec &gpu, const std::vector<core::PlanOption> &layouts,
               const core::EstimateWithFits &asSet)
{
    if (layouts.empty()) {
        out << "No layout of " << gpu.name << " up to the GPU limit fits.\n";
        printSuggestions(out, asSet.scenario, asSet, gpu, core::ByteUnit::GiB);
        return;
    }
    out << "Smallest layouts on " << gpu.name << " that fit (" << gpuCount(layouts.front().scenario.gpus)
        << "), fastest first\n\n";
    out << padLeft("GPUs", 5) << padLeft("tp", 4) << padLeft("pp", 4) << padLeft("dp", 5) << padLeft("ZeRO", 6)
        << "  " << padRight("checkpointing", 14) << padRight("offload", 11) << padLeft("per GPU", 12)
        << padLeft("step (s)", 10) << padLeft("host/GPU", 12) << "\n";
    for (const core::PlanOption &o : layouts) {
        const core::Scenario &s = o.scenario;
        out << padLeft(std::to_string(s.gpus), 5) << padLeft(std::to_string(s.parallel.tp), 4)
            << padLeft(std::to_string(s.parallel.pp), 4) << padLeft(std::to_string(s.dataParallel()), 5)
            << padLeft(std::to_string(s.zeroStage), 6) << "  " << padRight(core::checkpointingId(s.effectiveCheckpointing()), 14)
            << padRight(core::offloadId(s.parallel.offload), 11) << padLeft(core::formatBytes(o.estimate.total), 12)
            << padLeft(core::formatFixed(o.stepSeconds, 3) + (o.performance.communicationBound ? "*" : ""), 10)
            << padLeft(o.estimate.details.hostBytesPerGpu > 0
                           ? core::formatBytes(core::Bytes::fromDouble(o.estimate.details.hostBytesPerGpu), core::ByteUnit::GiB, 0)
                           : "-",
                       12)
            << "\n";
    }
    if (std::any_of(layouts.begin(), layouts.end(), [](const core::PlanOption &o) { return o.performance.communicationBound; }))
        out << "\n* communication-bound: the step waits on the links, not the tensor cores.\n";
}

void printServingPlan(std::ostream &out, const core::Scenario &base, const core::ServingPlan &plan,
                      const core::ServingPlanRequest &request, const core::Catalog &catalog)
{
    out << core::labelled(core::servingPlanTitle(), core::servingPlanHeading(base)) << "\n\n";
    const core::ServingPlanTable table = core::servingPlanTable(plan, catalog);
    if (table.rows.empty())
        out << core::servingPlanNone() << "\n";
    else {
        std::vector<std::size_t> widths(table.headers.size());
        for (std::size_t c = 0; c < widths.size(); ++c) {
            widths[c] = displayWidth(table.headers[c]);
            for (const std::vector<std::string> &row : table.rows)
                widths[c] = std::max(widths[c], displayWidth(row[c]));
        }
        const auto printRow = [&](const std::vector<std::string> &cells) {
            for (std::size_t c = 0; c < cells.size(); ++c)
                out << (c ? "  " : "") << (table.textColumns[c] ? padRight(cells[c], widths[c]) : padLeft(cells[c], widths[c]));
            out << "\n";
        };
        printRow(table.headers);
        for (const std::vector<std::string> &row : table.rows)
            printRow(row);
    }
    const std::vector<std::string> rejected = core::servingPlanRejections(plan, request, catalog);
    if (!rejected.empty()) {
        out << "\n" << core::listTitle(core::servingPlanRejectedTitle()) << "\n";
        for (const std::string &line : rejected)
            out << "  " << line << "\n";
    }
    out << "\n" << core::listTitle(core::servingPlanAssumptionsTitle()) << "\n";
    for (const std::string &line : core::servingPlanAssumptions(base))
        out << "  - " << line << "\n";
}

void printUtilization(std::ostream &out, const core::Scenario *scenario, double peak, std::optional<double> measured,
                      std::optional<double> tokens, std::optional<double> reference)
{
    out << "Dense peak used: " << core::formatFixed(peak, 1) << " TFLOPS\n";
    if (measured)
        out << "FLOPs ratio (S14): " << core::formatFixed(*measured, 1) << " / " << core::formatFixed(peak, 1) << " = "
            << core::formatFixed(core::flopsUtilizationPercent(*measured, peak), 2) << " %\n";
    if (tokens && scenario) {
        out << "MFU (6N + attention per token): "
            << core::formatFixed(core::modelFlopsUtilizationPercent(*scenario, *tokens, peak), 2) << " %\n";
        if (scenario->checkpointing && core::recomputesLayers(*scenario->checkpointing))
            out << "HFU (with the recomputed forward, 8N): "
                << core::formatFixed(core::hardwareFlopsUtilizationPercent(*scenario, *tokens, peak), 2) << " %\n";
    }
    if (tokens && reference)
        out << "Throughput ratio (S15): " << core::formatFixed(*tokens, 0) << " / " << core::formatFixed(*reference, 0)
            << " = " << core::formatFixed(core::throughputRatioPercent(*tokens, *reference), 2) << " %\n";
    out << "\nThree ways to judge utilisation (seed notes S16): a profiler trace (PyTorch Profiler in TensorBoard)\n"
           "is the most accurate and the most work; the FLOPs ratio is in between; the throughput ratio is the\n"
           "easiest and inherits every setting of the reference run. Tools (S17): nvidia-smi topo -m shows NVLink\n"
           "topology, iftop the network between nodes, deviceQuery the exact GPU, DeepSpeed's flops_profiler and\n"
           "ds_report the achieved FLOPs and the environment.\n";
}

void printGpus(std::ostream &out, const core::Catalog &catalog, core::ByteUnit unit)
{
    out << padRight("ID", 24) << padRight("NAME", 34) << padLeft("MEMORY", 12) << padLeft("USABLE", 12)
        << "  ARCH\n";
    for (const core::GpuSpec &g : catalog.gpus)
        out << padRight(g.id, 24) << padRight(g.name, 34) << padLeft(core::formatBytes(g.memory, unit, 1), 12)
            << padLeft(g.usableMemory ? core::formatBytes(*g.usableMemory, unit, 1) : "-", 12) << "  "
            << g.architecture << "\n";
}

void printModels(std::ostream &out, const std::vector<core::io::ModelPreset> &presets)
{
    out << padRight("ID", 26) << padRight("NAME", 34) << padLeft("PARAMETERS", 18) << "  FAMILY\n";
    for (const core::io::ModelPreset &p : presets)
        out << padRight(p.id, 26) << padRight(p.name, 34)
            << padLeft(core::groupDigits(core::countParameters(p.model).total), 18) << "  " << p.model.family << "\n";
}

void printMatrix(std::ostream &out, const core::Scenario &s, const core::FormatMatrix &matrix)
{
    out << core::summarize(s) << "\nLongest context that fits one GPU (tokens), or the GPUs the scenario needs\n\n"
        << padRight("format", 14);
    for (const std::string &id : matrix.gpuIds)
        out << padLeft(id, std::max<std::size_t>(12, id.size() + 2));
    out << "\n";
    for (std::size_t i = 0; i < matrix.formats.size(); ++i) {
        out << padRight(core::formatInfo(matrix.formats[i]).id, 14);
        for (std::size_t j = 0; j < matrix.gpuIds.size(); ++j)
            out << padLeft(core::matrixCellText(matrix.at(i, j)), std::max<std::size_t>(12, matrix.gpuIds[j].size() + 2));
        out << "\n";
    }
}

} // namespace cli

namespace cli {

void printComparison(std::ostream &out, const core::RunComparison &c, core::ByteUnit unit)
{
    out << "Scenario: " << core::summarize(c.scenario) << "\n";
    std::size_t keyWidth = 24;
    for (const core::LogSetting &s : c.settings)
        keyWidth = std::max(keyWidth, std::string(core::field(s.field).key).size() + 1);
    for (const core::LogSetting &s : c.settings)
        out << "  " << padRight(core::field(s.field).key, keyWidth) << padRight(s.value, 12)
            << (s.applied ? "from the log" : "yours (the log says so)")
            << (s.line > 0 ? ", line " + std::to_string(s.line) : ", by its format") << "\n";
    const auto size = [unit](core::Bytes b) { return core::formatBytes(b, unit, 2); };
    const auto number = [](double v) { return core::formatFixed(v, std::abs(v - std::round(v)) < 1e-9 ? 0 : 2); };
    // The quantity and device columns fit their longest entry, a space beside.
    std::size_t labelWidth = 34, deviceWidth = 14;
    for (const core::ComparisonRow &r : c.rows) {
        labelWidth = std::max(labelWidth, r.label.size() + 1);
        deviceWidth = std::max(deviceWidth, r.device.size() + 1);
    }
    out << "\n" << padRight("quantity", labelWidth) << padRight("device", deviceWidth) << padLeft("measured", 14)
        << padLeft("planned", 14) << padLeft("planned-meas.", 15) << padLeft("error", 10) << "  term\n";
    for (const core::ComparisonRow &r : c.rows) {
        const bool planned = r.planned.has_value();
        const auto error = r.errorPercent();
        std::string difference = "-";
        if (planned && r.isCount)
            difference = (r.difference() >= 0 ? "+" : "") + number(r.difference());
        else if (planned)
            difference = std::string(r.difference() >= 0 ? "+" : "-")
                + size(core::Bytes::fromDouble(std::abs(r.difference())));
        out << padRight(r.label, labelWidth) << padRight(r.device.empty() ? "-" : r.device, deviceWidth)
            << padLeft(r.isCount ? number(r.measuredNumber) : size(r.measured), 14)
            << padLeft(!planned ? "-" : (r.isCount ? number(r.plannedNumber) : size(*r.planned)), 14)
            << padLeft(difference, 15)
            << padLeft(error ? (*error >= 0 ? "+" : "") + core::formatFixed(*error, 1) + " %" : "-", 10) << "  " << r.term
            << "\n";
    }
    for (const std::string &note : c.notes)
        out << "note: " << note << "\n";
}

} // namespace cli
