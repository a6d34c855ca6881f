#include "core/explain/report.h"

#include "core/analysis/performance.h"
#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/explain/explain.h"
#include "core/scenario/fields.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>

namespace core {

namespace {


double sharePercent(Bytes part, Bytes total)
{
    return total.count() ? 100.0 * static_cast<double>(part.count()) / static_cast<double>(total.count()) : 0.0;
}

/// A report word in the reader's language (context "Report").
std::string word(const ReportMeta &meta, const char *text) { return translate(meta.translator, "Report", text); }

std::string layoutText(const Scenario &s, Translator tr)
{
    return render({"Report", QT_TRANSLATE_NOOP("Report", "tp %1 × pp %2 × dp %3, ZeRO-%4, offload %5"),
                   {std::to_string(s.parallel.tp), std::to_string(s.parallel.pp), std::to_string(s.dataParallel()),
                    std::to_string(s.zeroStage), fieldText(field(FieldId::Offload), s, tr)}},
                  tr);
}

} // namespace

std::string fieldText(const FieldDescriptor &f, const Scenario &s, Translator tr)
{
    const FieldValue value = f.effective(s);
    // A value with a name (a choice, a ZeRO stage) reads as its label.
    const std::string *id = std::get_if<std::string>(&value);
    const std::string number = std::holds_alternative<double>(value) ? formatFieldValue(f, value) : std::string();
    const auto plain = [&]() -> std::string {
        for (const FieldChoice &c : f.choices)
            if ((id && *id == c.id && f.kind == FieldKind::Choice) || (!number.empty() && number == c.id))
                return translate(tr, "Field", c.label);
        if (const bool *on = std::get_if<bool>(&value))
            return translate(tr, "Report", *on ? QT_TRANSLATE_NOOP("Report", "yes") : QT_TRANSLATE_NOOP("Report", "no"));
        if (std::holds_alternative<std::monostate>(value))
            return translate(tr, "Field", f.defaultFollows);
        return formatFieldValue(f, value) + (*f.unit ? " " + translate(tr, "Field", f.unit) : std::string());
    };
    std::string text = plain();
    if (f.optional() && std::holds_alternative<std::monostate>(f.stored(s)))
        text += " " + translate(tr, "Report", QT_TRANSLATE_NOOP("Report", "(default)"));
    if (const char *by = f.overriddenBy ? f.overriddenBy(s) : nullptr)
        text += " (" + translate(tr, "Field", by) + ")";
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

std::string suggestionText(const Scenario &s, const FitSuggestion &suggestion, ByteUnit unit, Translator tr)
{
    Scenario changed = s;
    std::string what;
    for (const FieldChange &change : suggestion.changes) {
        const FieldDescriptor &f = field(change.field);
        f.assign(changed, change.value);
        what += (what.empty() ? "" : " + ")
            + render({"Report", QT_TRANSLATE_NOOP("Report", "%1: %2"), {translate(tr, "Field", f.label), fieldText(f, changed, tr)}}, tr);
    }
    return render({"Report", QT_TRANSLATE_NOOP("Report", "%1 → %2 per GPU (%3)"),
                   {what, formatBytes(suggestion.total, unit), translate(tr, "Suggest", suggestion.foundBy)}},
                  tr);
}

const char *suggestionsHeading(const std::vector<FitSuggestion> &found)
{
    if (found.empty())
        return QT_TRANSLATE_NOOP("Report", "No change of one input, or of two, makes it fit.");
    return !found.front().pair ? QT_TRANSLATE_NOOP("Report", "Each of these alone makes it fit:")
                               : QT_TRANSLATE_NOOP("Report", "Nothing alone makes it fit; each of these pairs does:");
}

std::string fitReasonText(const FitReason &reason, ByteUnit unit, Translator tr)
{
    // Chinese lists take the full-width comma.
    const std::string comma = translate(tr, "Report", QT_TRANSLATE_NOOP("Report", ", "));
    std::string terms;
    for (std::size_t i = 0; i < reason.blocking.size() && i < 3; ++i)
        terms += (terms.empty() ? "" : comma) + termName(reason.blocking[i].first, tr) + " "
            + formatBytes(reason.blocking[i].second, unit);
    const std::string gpus = groupDigits(static_cast<std::uint64_t>(reason.gpus));
    const std::string total = formatBytes(reason.total, unit);
    // The verdict's own layouts: layers split, or ZeRO-3; tensor
    // parallelism is a change it may offer beside them.
    switch (reason.split) {
    case FitReason::Split::LayerPerGpu:
        return render({"Report", QT_TRANSLATE_NOOP("Report", "With one layer per GPU (%1 GPUs), each still holds %2: %3"),
                       {gpus, total, terms}},
                      tr);
    case FitReason::Split::ZeroThree:
        return render({"Report", QT_TRANSLATE_NOOP("Report", "With ZeRO-3 over %1 GPUs, each still holds %2: %3"),
                       {gpus, total, terms}},
                      tr);
    case FitReason::Split::AsSet:
        break;
    }
    if (reason.gpus == 1)
        return render({"Report", QT_TRANSLATE_NOOP("Report", "As set, one GPU holds %1: %2"), {total, terms}}, tr);
    return render({"Report", QT_TRANSLATE_NOOP("Report", "As set, each of %1 GPUs holds %2: %3"), {gpus, total, terms}}, tr);
}

std::string termShareText(const Estimate &e, TermId id, ByteUnit unit, Translator tr)
{
    const std::string share = formatFixed(sharePercent(e.term(id), e.total), 1) + " %";
    const PhaseTotal *more = phaseHoldingMore(e, id);
    return more ? render({"Report", QT_TRANSLATE_NOOP("Report", "%1 (%2 in %3)"),
                          {share, formatBytes(more->terms[termIndex(id)], unit), phaseName(more->phase, tr)}},
                         tr)
                : share;
}

std::string chartFooter(const Scenario &s, const ReportMeta &meta)
{
    const Translator tr = meta.translator;
    const auto labelled = [tr](const std::string &label, const std::string &value) {
        return render({"Report", QT_TRANSLATE_NOOP("Report", "%1: %2"), {label, value}}, tr);
    };
    std::vector<std::string> parts;
    // What the summary line above the chart does not say but the bars
    // depend on, where it applies to this scenario.
    for (FieldId id : {FieldId::ServingEngine, FieldId::Stack, FieldId::Regime, FieldId::Checkpointing, FieldId::KvDtype,
                       FieldId::Attention}) {
        const FieldDescriptor &f = field(id);
        if (f.applies(s))
            parts.push_back(labelled(translate(tr, "Field", f.label), fieldText(f, s, tr)));
    }
    if (s.gpus > 1 || s.isTraining())
        parts.push_back(labelled(word(meta, QT_TRANSLATE_NOOP("Report", "layout")), layoutText(s, tr)));
    parts.push_back(render({"Report", QT_TRANSLATE_NOOP("Report", "VRAM Planner %1, %2"), {meta.version, meta.date}}, tr));
    std::string line;
    for (const std::string &part : parts)
        line += (line.empty() ? "" : " · ") + part;
    return line;
}

std::string labelled(const std::string &label, const std::string &value, Translator tr)
{
    return render({"Report", QT_TRANSLATE_NOOP("Report", "%1: %2"), {label, value}}, tr);
}

std::vector<std::pair<std::string, std::string>> describeInputs(const Scenario &s, Translator tr, InputsListed listed)
{
    std::vector<std::pair<std::string, std::string>> inputs = {
        {translate(tr, "Report", QT_TRANSLATE_NOOP("Report", "Model")), s.model.name},
        {translate(tr, "Report", QT_TRANSLATE_NOOP("Report", "Parameters")), groupDigits(countParameters(s.model).total)},
    };
    for (const FieldDescriptor &f : allFields())
        // Not the focus GPU (the fits name it), nor a draft model that is not there.
        if (f.applies(s) && f.kind != FieldKind::Text
            && !(f.kind == FieldKind::ModelPreset && f.stored(s) == FieldValue(std::string()))
            && !(listed == InputsListed::Asked && f.zeroMeansNone && f.effective(s) == FieldValue(0.0)))
            inputs.emplace_back(translate(tr, "Field", f.label), fieldText(f, s, tr));
    return inputs;
}

std::string summarize(const Scenario &s, Translator tr)
{
    const CheckpointWeights *files = s.checkpointInUse();
    const std::string format = s.mode == Mode::Train
        ? translate(tr, "Terms", findByValue(allRegimes(), &RegimeInfo::regime, s.regime).shortName)
        : files ? render({"Terms", QT_TRANSLATE_NOOP("Terms", "%1 from %2 files"), {files->dtypes(), files->format}}, tr)
                : formatInfo(s.effectiveWeights()).id;
    const std::string gpus = s.gpus == 1 ? translate(tr, "Terms", QT_TRANSLATE_NOOP("Terms", "1 GPU"))
                                         : render({"Terms", QT_TRANSLATE_NOOP("Terms", "%1 GPUs"), {groupDigits(s.gpus)}}, tr);
    return render({"Terms", QT_TRANSLATE_NOOP("Terms", "%1 · %2 · %3 · batch %4 · %5 tokens · %6"),
                   {s.model.name, translate(tr, "Field", field(FieldId::Mode).choices[static_cast<std::size_t>(s.mode)].label),
                    format, groupDigits(s.batch), groupDigits(s.sequence), gpus}},
                  tr);
}

std::string termName(TermId id, Translator tr) { return translate(tr, "Terms", termLabel(id)); }

std::string phaseName(Phase phase, Translator tr)
{
    static const char *const names[] = {QT_TRANSLATE_NOOP("Terms", "forward"), QT_TRANSLATE_NOOP("Terms", "backward"),
                                        QT_TRANSLATE_NOOP("Terms", "optimizer step"), QT_TRANSLATE_NOOP("Terms", "inference"),
                                        QT_TRANSLATE_NOOP("Terms", "load")};
    return translate(tr, "Terms", names[static_cast<std::size_t>(phase)]);
}

std::string verdictText(const GpuFit &fit, Translator tr)
{
    if (fit.fits)
        return translate(tr, "Terms", QT_TRANSLATE_NOOP("Terms", "fits"));
    if (fit.gpusNeeded > 0)
        return render({"Terms", QT_TRANSLATE_NOOP("Terms", "needs %1 ×"), {std::to_string(fit.gpusNeeded)}}, tr);
    return translate(tr, "Terms", QT_TRANSLATE_NOOP("Terms", "cannot fit"));
}

std::string markdownReport(const Scenario &s, const EstimateWithFits &result, const Catalog &catalog,
                           const ReportMeta &meta)
{
    const Estimate &e = result.estimate;
    const ByteUnit u = meta.unit;
    const Translator tr = meta.translator;
    const auto fill = [tr](const char *text, std::vector<std::string> args) { return render({"Report", text, std::move(args)}, tr); };
    std::string md = "# " + meta.title + "\n\n";
    md += "_" + summarize(s, tr) + "_  \n"
        + fill(QT_TRANSLATE_NOOP("Report", "Generated %1 by VRAM Planner %2."), {meta.date, meta.version}) + "\n\n";
    md += "## " + word(meta, QT_TRANSLATE_NOOP("Report", "Per-GPU memory")) + "\n\n"
        + fill(QT_TRANSLATE_NOOP("Report", "Peak phase: **%1**, total **%2** (%3 bytes)."),
               {phaseName(e.peakPhase, tr), formatBytes(e.total, u), groupDigits(e.total.count())})
        + "\n\n";
    md += "| " + word(meta, QT_TRANSLATE_NOOP("Report", "term")) + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "memory"))
        + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "bytes")) + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "share"))
        + " |\n|---|---:|---:|---:|\n";
    for (TermId id : allTerms())
        if (!meta.brief || e.term(id).count() > 0)
            md += "| " + termName(id, tr) + " | " + formatBytes(e.term(id), u) + " | " + groupDigits(e.term(id).count())
                + " | " + termShareText(e, id, u, tr) + " |\n";
    md += "| **" + word(meta, QT_TRANSLATE_NOOP("Report", "total")) + "** | **" + formatBytes(e.total, u) + "** | "
        + groupDigits(e.total.count()) + " | 100.0 % |\n\n";
    if (e.phases.size() > 1) {
        md += word(meta, QT_TRANSLATE_NOOP("Report", "Phases:")) + " ";
        for (const PhaseTotal &p : e.phases)
            md += phaseName(p.phase, tr) + " " + formatBytes(p.total, u) + "; ";
        md += "\n\n";
    }
    md += "## " + word(meta, QT_TRANSLATE_NOOP("Report", "GPUs")) + "\n\n| GPU | "
        + word(meta, QT_TRANSLATE_NOOP("Report", "memory")) + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "verdict")) + " | "
        + word(meta, QT_TRANSLATE_NOOP("Report", "headroom")) + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "max batch"))
        + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "max context")) + " | "
        + word(meta, QT_TRANSLATE_NOOP("Report", "KV tokens")) + " |\n|---|---:|---|---:|---:|---:|---:|\n";
    for (const GpuFit &fit : result.fits) {
        const GpuSpec *gpu = catalog.find(fit.gpuId);
        md += "| " + markdownCell(gpu ? gpu->name : fit.gpuId) + " | " + formatBytes(fit.capacity, u) + " | "
            + verdictText(fit, tr) + " | " + formatHeadroom(fit, u, 2) + " | " + groupDigitsOrDash(fit.maxBatch) + " | "
            + groupDigitsOrDash(fit.maxSequence) + " | " + (fit.hasKvTokens ? groupDigitsOrDash(fit.kvTokens) : "-")
            + " |\n";
    }
    // Rows whose engine starts with other defaults (vLLM's follow the card)
    // or other communicators (SGLang's follow the link).
    for (const EstimateWithFits::OnCard &other : result.otherCards) {
        std::string names;
        for (const GpuFit &fit : result.fits)
            if (const GpuSpec *gpu = catalog.find(fit.gpuId); gpu && &result.scenarioOn(*gpu) == &other.scenario)
                names += (names.empty() ? "" : ", ") + gpu->name;
        md += "\n" + fill(QT_TRANSLATE_NOOP("Report", "%1: %2; these rows on their own estimate, %3 per GPU."),
                          {names, translate(tr, "Derivation", ownEstimateWhy(other.scenario, result.scenario)),
                           formatBytes(other.estimate.total, u)})
            + "\n";
    }
    const GpuSpec *focus = focusGpu(s, catalog);
    const GpuFit *focusFit = focus ? result.fitFor(focus->id) : nullptr;
    if (focusFit && !focusFit->fits) {
        FitSearch search(s);
        const std::vector<FitSuggestion> found = search.suggestionsFor(*focusFit);
        md += "\n" + fill(QT_TRANSLATE_NOOP("Report", "Short of %1 by %2."), {focus->name, formatBytes(focusFit->shortfall, u)});
        if (const auto reason = search.reasonFor(e, *focusFit))
            md += " " + fitReasonText(*reason, u, tr) + ".";
        md += " " + word(meta, suggestionsHeading(found)) + "\n\n";
        for (const FitSuggestion &suggestion : found)
            md += "- " + markdownCell(suggestionText(s, suggestion, u, tr)) + "\n";
    }
    if (const GpuSpec *gpu = focus) {
        const Performance p = performance(s, e, *gpu);
        md += "\n## "
            + fill(gpu->id == s.gpuId ? QT_TRANSLATE_NOOP("Report", "Time and cost on %1")
                                      : QT_TRANSLATE_NOOP("Report", "Time and cost on %1 (no GPU chosen; the default)"),
                   {gpu->name})
            + "\n\n| "
            + word(meta, QT_TRANSLATE_NOOP("Report", "figure")) + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "value"))
            + " |\n|---|---:|\n";
        const auto line = [&md, &meta](const char *what, const std::string &value) {
            md += "| " + word(meta, what) + " | " + value + " |\n";
        };
        line(QT_TRANSLATE_NOOP("Report", "layout"), layoutText(s, tr));
        line(QT_TRANSLATE_NOOP("Report", "dense peak used"),
             fill(QT_TRANSLATE_NOOP("Report", "%1 TFLOPS at MFU %2"), {formatFixed(p.peakTflops, 1), formatFixed(s.workload.mfu, 2)}));
        if (s.isTraining()) {
            line(QT_TRANSLATE_NOOP("Report", "FLOPs per token"), formatFixed(p.flopsPerToken / 1e9, 2) + " GFLOP");
            line(QT_TRANSLATE_NOOP("Report", "step compute"), formatFixed(p.stepComputeSeconds, 3) + " s");
            line(QT_TRANSLATE_NOOP("Report", "step communication"),
                 formatFixed(p.stepCommSeconds, 3) + " s"
                     + (p.communicationBound ? " " + word(meta, QT_TRANSLATE_NOOP("Report", "(communication-bound)")) : ""));
            line(QT_TRANSLATE_NOOP("Report", "step"), formatFixed(p.stepSeconds, 3) + " s (" + describeStepParts(p.step, 3, meta.translator) + ")");
            if (p.trainingSeconds > 0) {
                line(QT_TRANSLATE_NOOP("Report", "training time"),
                     fill(QT_TRANSLATE_NOOP("Report", "%1 h for %2 tokens"),
                          {formatFixed(p.trainingSeconds / 3600.0, 1), groupDigits(static_cast<std::uint64_t>(s.workload.trainingTokens))}));
                line(QT_TRANSLATE_NOOP("Report", "GPU-hours"), groupDigits(static_cast<std::uint64_t>(p.gpuHours + 0.5)));
                if (p.cost > 0)
                    line(QT_TRANSLATE_NOOP("Report", "cost"),
                         fill(QT_TRANSLATE_NOOP("Report", "%1 at %2 per GPU-hour"),
                              {groupDigits(static_cast<std::uint64_t>(p.cost + 0.5)), formatFixed(s.workload.pricePerGpuHour, 2)}));
            }
        } else {
            line(QT_TRANSLATE_NOOP("Report", "decode (bandwidth bound)"),
                 fill(QT_TRANSLATE_NOOP("Report", "%1 tokens/s"), {groupDigits(static_cast<std::uint64_t>(p.decodeTokensPerSecond + 0.5))}));
            line(QT_TRANSLATE_NOOP("Report", "prefill (compute bound)"),
                 fill(QT_TRANSLATE_NOOP("Report", "%1 tokens/s"), {groupDigits(static_cast<std::uint64_t>(p.prefillTokensPerSecond + 0.5))}));
        }
    }
    if (!e.warnings.empty()) {
        md += "\n## " + word(meta, QT_TRANSLATE_NOOP("Report", "Warnings")) + "\n\n";
        for (const Message &w : e.warnings)
            md += "- " + render(w, tr) + "\n";
    }
    md += "\n## " + word(meta, QT_TRANSLATE_NOOP("Report", "Assumptions")) + "\n\n";
    const std::array<Derivation, kTermCount> derivations = explainTerms(result, meta.translator);
    if (meta.brief) {
        std::string inputs;
        for (const auto &[name, value] : describeInputs(s, tr, InputsListed::Asked))
            inputs += (inputs.empty() ? "" : " · ") + labelled(name, value, tr);
        md += inputs + "\n\n## " + word(meta, QT_TRANSLATE_NOOP("Report", "Sources")) + "\n\n";
        std::vector<std::string> sources;
        for (const Derivation &why : derivations)
            if (!why.source.empty() && std::find(sources.begin(), sources.end(), why.source) == sources.end())
                sources.emplace_back(why.source);
        std::string list;
        for (const std::string &source : sources)
            list += (list.empty() ? "" : " · ") + source;
        return md + list + "\n";
    }
    md += "| " + word(meta, QT_TRANSLATE_NOOP("Report", "input")) + " | " + word(meta, QT_TRANSLATE_NOOP("Report", "value"))
        + " |\n|---|---|\n";
    for (const auto &[name, value] : describeInputs(s, tr))
        md += "| " + markdownCell(name) + " | " + markdownCell(value) + " |\n";
    md += "\n## " + word(meta, QT_TRANSLATE_NOOP("Report", "How each term is computed")) + "\n\n";
    for (TermId id : allTerms()) {
        const Derivation &why = derivations[static_cast<std::size_t>(id)];
        md += "- **" + termName(id, tr) + "** = ";
        md.append(why.result).append(": `").append(why.formula).append("`; ").append(why.substituted).append(" (");
        md.append(why.note).append(").");
        // A term nothing holds has no symbols and no source: no empty stubs.
        if (!why.legend.empty())
            md += " " + fill(QT_TRANSLATE_NOOP("Report", "Symbols: %1."), {std::string(why.legend)});
        if (!why.source.empty())
            md += " " + fill(QT_TRANSLATE_NOOP("Report", "Source: %1"), {std::string(why.source)});
        md += "\n";
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
    row("meta", "report", "summary", summarize(s, meta.translator));
    for (const auto &[name, value] : describeInputs(s, meta.translator))
        row("input", name, "value", value);
    const std::array<Derivation, kTermCount> derivations = explainTerms(result, meta.translator);
    for (TermId id : allTerms()) {
        const Derivation &why = derivations[static_cast<std::size_t>(id)];
        row("term", termId(id), "bytes", std::to_string(e.term(id).count()));
        row("term", termId(id), "share_percent", formatFixed(sharePercent(e.term(id), e.total), 2));
        row("term", termId(id), "formula", std::string(why.formula));
        row("term", termId(id), "substituted", std::string(why.substituted));
        row("term", termId(id), "note", std::string(why.note));
        row("term", termId(id), "legend", std::string(why.legend));
        row("term", termId(id), "source", std::string(why.source));
    }
    row("term", "total", "bytes", std::to_string(e.total.count()));
    row("peak", "phase", "value", phaseId(e.peakPhase));
    for (const PhaseTotal &p : e.phases)
        row("phase", phaseId(p.phase), "bytes", std::to_string(p.total.count()));
    for (const GpuFit &fit : result.fits) {
        const GpuSpec *gpu = catalog.find(fit.gpuId);
        row("gpu", fit.gpuId, "name", gpu ? gpu->name : fit.gpuId);
        row("gpu", fit.gpuId, "memory_bytes", std::to_string(fit.capacity.count()));
        row("gpu", fit.gpuId, "verdict", verdictText(fit, meta.translator));
        row("gpu", fit.gpuId, "headroom_bytes", std::to_string(fit.headroomBytes()));
        row("gpu", fit.gpuId, "gpus_needed", std::to_string(fit.gpusNeeded));
        row("gpu", fit.gpuId, "max_batch", std::to_string(fit.maxBatch));
        row("gpu", fit.gpuId, "max_seq", std::to_string(fit.maxSequence));
        if (fit.hasKvTokens)
            row("gpu", fit.gpuId, "kv_tokens", std::to_string(fit.kvTokens));
    }
    if (const GpuSpec *gpu = focusGpu(s, catalog)) {
        const Performance p = performance(s, e, *gpu);
        row("performance", gpu->id, "peak_tflops", formatFixed(p.peakTflops, 1));
        row("performance", gpu->id, "step_compute_seconds", formatFixed(p.stepComputeSeconds, 6));
        row("performance", gpu->id, "step_communication_seconds", formatFixed(p.stepCommSeconds, 6));
        row("performance", gpu->id, "communication_bound", p.communicationBound ? "yes" : "no");
        row("performance", gpu->id, "step_seconds", formatFixed(p.stepSeconds, 6));
        for (StepPart part : allStepParts())
            row("performance", gpu->id, std::string("step_") + stepPartId(part) + "_seconds", formatFixed(p.step[part], 6));
        row("performance", gpu->id, "training_seconds", formatFixed(p.trainingSeconds, 0));
        row("performance", gpu->id, "gpu_hours", formatFixed(p.gpuHours, 1));
        row("performance", gpu->id, "cost", formatFixed(p.cost, 2));
        row("performance", gpu->id, "decode_tokens_per_second", formatFixed(p.decodeTokensPerSecond, 0));
    }
    for (std::size_t i = 0; i < e.warnings.size(); ++i)
        row("warning", std::to_string(i + 1), "text", render(e.warnings[i], meta.translator));
    return csv;
}

std::string matrixCellText(const MatrixCell &cell, Translator tr)
{
    if (cell.fits || cell.maxSequence > 0)
        return groupDigits(cell.maxSequence);
    if (cell.gpusNeeded > 0)
        return render({"Terms", QT_TRANSLATE_NOOP("Terms", "needs %1 ×"), {std::to_string(cell.gpusNeeded)}}, tr);
    return translate(tr, "Terms", QT_TRANSLATE_NOOP("Terms", "cannot fit"));
}

std::string matrixMarkdown(const Scenario &s, const FormatMatrix &matrix, const Catalog &catalog, const ReportMeta &meta)
{
    const Translator tr = meta.translator;
    const auto fill = [tr](const char *text, std::vector<std::string> args) { return render({"Report", text, std::move(args)}, tr); };
    std::string md = "# " + translate(tr, "Report", QT_TRANSLATE_NOOP("Report", "Weight formats by GPU")) + "\n\n"
        + fill(QT_TRANSLATE_NOOP("Report", "Generated %1 by VRAM Planner %2."), {meta.date, meta.version}) + "\n\n"
        + summarize(s, tr) + "\n\n"
        + translate(tr, "Report", QT_TRANSLATE_NOOP("Report", "Each cell: the longest context (tokens) that fits one GPU, or how many GPUs the scenario's context needs.")) + "\n\n| ";
    md += translate(tr, "Report", QT_TRANSLATE_NOOP("Report", "Format"));
    for (const std::string &id : matrix.gpuIds) {
        const GpuSpec *gpu = catalog.find(id);
        md += " | " + (gpu ? gpu->name : id);
    }
    md += " |\n|---";
    for (std::size_t j = 0; j < matrix.gpuIds.size(); ++j)
        md += "|---:";
    md += "|\n";
    for (std::size_t i = 0; i < matrix.formats.size(); ++i) {
        md += "| " + std::string(formatInfo(matrix.formats[i]).id);
        for (std::size_t j = 0; j < matrix.gpuIds.size(); ++j)
            md += " | " + matrixCellText(matrix.at(i, j), tr);
        md += " |\n";
    }
    return md;
}

std::string matrixCsv(const FormatMatrix &matrix)
{
    std::string csv = "format,gpu,fits,total_bytes,max_seq,gpus_needed\n";
    for (std::size_t i = 0; i < matrix.formats.size(); ++i)
        for (std::size_t j = 0; j < matrix.gpuIds.size(); ++j) {
            const MatrixCell &c = matrix.at(i, j);
            csv += csvField(formatInfo(matrix.formats[i]).id) + "," + csvField(matrix.gpuIds[j]) + ","
                + (c.fits ? "true" : "false") + "," + std::to_string(c.total.count()) + ","
                + std::to_string(c.maxSequence) + "," + std::to_string(c.gpusNeeded) + "\n";
        }
    return csv;
}

} // namespace core
