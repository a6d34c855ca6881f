#include "app/cli/texttable.h"

#include "core/units.h"

#include <algorithm>
#include <iomanip>

namespace cli {

namespace {

std::string padRight(std::string text, std::size_t width)
{
    if (text.size() < width)
        text.resize(width, ' ');
    return text;
}

std::string padLeft(const std::string &text, std::size_t width)
{
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string countOrDash(std::uint64_t value)
{
    return value == 0 ? "-" : core::groupDigits(value);
}

} // namespace

void printEstimate(std::ostream &out, const core::Scenario &s, const core::EstimateWithFits &result,
                   const core::Catalog &catalog, core::ByteUnit unit)
{
    const core::Estimate &e = result.estimate;
    const core::EstimateDetails &d = e.details;
    out << "Model    " << s.model.name << " (" << s.model.family << "), " << core::groupDigits(d.params.total)
        << " parameters";
    if (d.params.active != d.params.total)
        out << ", " << core::groupDigits(d.params.active) << " active per token";
    out << "\nScenario " << core::modeId(s.mode) << ", weights " << core::formatInfo(s.effectiveWeights()).id;
    if (s.isTraining())
        out << ", regime " << core::regimeId(s.regime) << ", optimizer " << core::optimizerInfo(s.optimizer).id
            << ", checkpointing " << core::checkpointingId(s.checkpointing);
    out << ", batch " << s.batch << ", sequence " << s.sequence << ", attention " << core::attentionId(s.attention)
        << ", " << s.gpus << (s.gpus == 1 ? " GPU" : " GPUs");
    if (s.isTraining() && s.gpus > 1)
        out << " (ZeRO-" << s.zeroStage << ")";
    out << "\n\nPer-GPU memory at the peak (" << core::phaseId(e.peakPhase) << ")\n";
    for (core::TermId id : core::allTerms()) {
        const core::Bytes b = e.term(id);
        if (b.count() == 0)
            continue;
        const double share = e.total.count() ? 100.0 * static_cast<double>(b.count()) / static_cast<double>(e.total.count()) : 0;
        out << "  " << padRight(core::termId(id), 20) << padLeft(core::formatBytes(b, unit), 14)
            << padLeft(core::formatFixed(share, 1) + " %", 9) << "\n";
    }
    out << "  " << padRight("total", 20) << padLeft(core::formatBytes(e.total, unit), 14) << "\n";
    if (e.phases.size() > 1) {
        out << "\nPhases  ";
        for (const core::PhaseTotal &p : e.phases)
            out << core::phaseId(p.phase) << " " << core::formatBytes(p.total, unit) << "   ";
        out << "\n";
    }

    out << "\n" << padRight("GPU", 26) << padLeft("memory", 12) << padLeft("fits", 6) << padLeft("headroom", 13)
        << padLeft("GPUs", 6) << padLeft("max batch", 11) << padLeft("max seq", 12);
    if (!s.isTraining())
        out << padLeft("KV tokens", 12);
    out << "\n";
    for (const core::GpuFit &fit : result.fits) {
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        if (!gpu || !(gpu->defaultShown || gpu->id == s.gpuId))
            continue;
        const core::Bytes gap = core::Bytes::fromCount(static_cast<std::uint64_t>(
            fit.headroomBytes < 0 ? -fit.headroomBytes : fit.headroomBytes));
        out << padRight(gpu->name.substr(0, 25), 26) << padLeft(core::formatBytes(fit.capacity, unit, 1), 12)
            << padLeft(fit.fits ? "yes" : "no", 6)
            << padLeft((fit.headroomBytes < 0 ? "-" : "") + core::formatBytes(gap, unit, 1), 13)
            << padLeft(fit.gpusNeeded > 0 ? std::to_string(fit.gpusNeeded) : "-", 6)
            << padLeft(countOrDash(fit.maxBatch), 11) << padLeft(countOrDash(fit.maxSequence), 12);
        if (fit.hasKvTokens)
            out << padLeft(countOrDash(fit.kvTokens), 12);
        out << "\n";
        for (const std::string &w : fit.warnings)
            out << "    ! " << w << "\n";
    }
    if (!e.warnings.empty()) {
        out << "\nWarnings\n";
        for (const std::string &w : e.warnings)
            out << "  - " << w << "\n";
    }
    out << "\nAll catalog GPUs and every term's derivation: add --json.\n";
}

void printGpus(std::ostream &out, const core::Catalog &catalog, core::ByteUnit unit)
{
    out << padRight("ID", 24) << padRight("NAME", 34) << padLeft("MEMORY", 12) << padLeft("USABLE", 12)
        << "  ARCH\n";
    for (const core::GpuSpec &g : catalog.gpus)
        out << padRight(g.id, 24) << padRight(g.name.substr(0, 33), 34) << padLeft(core::formatBytes(g.memory, unit, 1), 12)
            << padLeft(g.usableMemory ? core::formatBytes(*g.usableMemory, unit, 1) : "-", 12) << "  "
            << g.architecture << "\n";
}

void printModels(std::ostream &out, const std::vector<core::io::ModelPreset> &presets)
{
    out << padRight("ID", 26) << padRight("NAME", 34) << padLeft("PARAMETERS", 18) << "  FAMILY\n";
    for (const core::io::ModelPreset &p : presets)
        out << padRight(p.id, 26) << padRight(p.name.substr(0, 33), 34)
            << padLeft(core::groupDigits(core::countParameters(p.model).total), 18) << "  " << p.model.family << "\n";
}

} // namespace cli
