#include "core/explain/servingplanreport.h"

#include "core/analysis/performance.h"
#include "core/base/translatable.h"
#include "core/base/units.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <map>
#include <utility>

namespace core {

namespace {

std::string fill(Translator tr, const char *text, std::vector<std::string> args)
{
    return render({"ServingPlan", text, std::move(args)}, tr);
}

std::string gpuName(const Catalog &catalog, const std::string &id)
{
    const GpuSpec *gpu = catalog.find(id);
    return gpu ? gpu->name : id;
}

std::string layoutCell(const Scenario &s, Translator tr)
{
    return fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "TP %1 × PP %2"),
                {std::to_string(s.parallel.tp), std::to_string(s.parallel.pp)});
}

std::string engineName(const Scenario &s) { return runtimeInfo(s.serving).name; }

} // namespace

std::string servingPlanKvId(const Scenario &s) { return s.kvDtype ? formatInfo(*s.kvDtype).id : "auto"; }

std::string listTitle(const std::string &label, Translator tr)
{
    return fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "%1:"), {label});
}

std::string servingPlanHeading(const Scenario &s, Translator tr)
{
    const Workload &w = s.workload;
    std::string text = fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "%1: prompts of %2 tokens, %3 output tokens"),
                            {s.model.name, groupDigits(static_cast<std::uint64_t>(promptTokens(s))),
                             groupDigits(std::min(w.outputTokens, s.contextTokens()))});
    text += w.requestRate > 0 ? fill(tr, QT_TRANSLATE_NOOP("ServingPlan", ", %1 requests/s"), {formatFixed(w.requestRate, 2)})
                              : translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", ", each replica at its most"));
    if (w.ttftTargetSeconds > 0)
        text += fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "; time to first token under %1"), {formatDuration(w.ttftTargetSeconds)});
    if (w.tpotTargetSeconds > 0)
        text += fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "; time per output token under %1"), {formatDuration(w.tpotTargetSeconds)});
    return text + translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", " (means)"));
}

ServingPlanTable servingPlanTable(const ServingPlan &plan, const Catalog &catalog, Translator tr)
{
    ServingPlanTable table;
    for (const char *header : {QT_TRANSLATE_NOOP("ServingPlan", "Engine"), QT_TRANSLATE_NOOP("ServingPlan", "GPU"),
                               QT_TRANSLATE_NOOP("ServingPlan", "Replica"), QT_TRANSLATE_NOOP("ServingPlan", "KV cache"),
                               QT_TRANSLATE_NOOP("ServingPlan", "Replicas"), QT_TRANSLATE_NOOP("ServingPlan", "GPUs"),
                               QT_TRANSLATE_NOOP("ServingPlan", "Requests/s per replica"),
                               QT_TRANSLATE_NOOP("ServingPlan", "Bounded by"),
                               QT_TRANSLATE_NOOP("ServingPlan", "Sequences running / held"),
                               QT_TRANSLATE_NOOP("ServingPlan", "Prefill ms"), QT_TRANSLATE_NOOP("ServingPlan", "TTFT ms"),
                               QT_TRANSLATE_NOOP("ServingPlan", "TPOT ms"),
                               QT_TRANSLATE_NOOP("ServingPlan", "GPU-hours per million tokens"),
                               QT_TRANSLATE_NOOP("ServingPlan", "$ per million tokens")})
        table.headers.push_back(translate(tr, "ServingPlan", header));
    table.textColumns = {true, true, true, true, false, false, false, true, false, false, false, false, false, false};
    for (const ServingLayout &l : plan.layouts) {
        const Scenario &s = l.scenario;
        table.rows.push_back({engineName(s), gpuName(catalog, s.gpuId), layoutCell(s, tr), servingPlanKvId(s),
                              groupDigits(static_cast<std::uint64_t>(l.replicas)),
                              groupDigits(static_cast<std::uint64_t>(l.gpus)),
                              formatFixed(l.capacity.requestRate, l.capacity.requestRate < 0.01 ? 4 : 2),
                              translate(tr, "ServingLimit", servingLimitLabel(l.capacity.limit)),
                              formatFixed(l.load.rows, 1) + " / " + groupDigits(static_cast<std::uint64_t>(l.maxRows)),
                              formatMilliseconds(l.prefillSeconds), formatMilliseconds(l.load.ttftSeconds),
                              formatMilliseconds(l.load.tpotSeconds), formatFixed(l.gpuHoursPerMillionTokens, 2),
                              l.costPerMillionTokens > 0 ? formatFixed(l.costPerMillionTokens, 2) : std::string("-")});
    }
    return table;
}

std::vector<std::string> servingPlanRejections(const ServingPlan &plan, const ServingPlanRequest &request,
                                               const Catalog &catalog, Translator tr)
{
    // The largest replica tried for each engine and GPU type without a layout.
    std::map<std::pair<std::string, ServingEngine>, const RejectedLayout *> largest;
    for (const RejectedLayout &r : plan.rejected) {
        const auto served = std::find_if(plan.layouts.begin(), plan.layouts.end(), [&r](const ServingLayout &l) {
            return l.scenario.gpuId == r.scenario.gpuId && l.scenario.serving == r.scenario.serving;
        });
        if (served != plan.layouts.end())
            continue;
        const RejectedLayout *&kept = largest[{r.scenario.gpuId, r.scenario.serving}];
        const auto larger = [](const Scenario &a, const Scenario &b) {
            return a.gpus != b.gpus ? a.gpus > b.gpus : a.parallel.tp > b.parallel.tp;
        };
        if (!kept || larger(r.scenario, kept->scenario))
            kept = &r;
    }
    std::vector<std::string> lines;
    for (const std::string &id : request.gpuIds)
        for (ServingEngine engine : request.engines) {
            const auto found = largest.find({id, engine});
            if (found == largest.end())
                continue;
            const Scenario &s = found->second->scenario;
            lines.push_back(fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "%1 on %2 (%3, KV %4): %5"),
                                 {engineName(s), gpuName(catalog, id), layoutCell(s, tr), servingPlanKvId(s),
                                  render(found->second->reason, tr)}));
        }
    return lines;
}

std::string servingPlanTitle(Translator tr)
{
    return translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "Serving plan"));
}

std::string servingPlanNone(Translator tr)
{
    return translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "No layout serves these targets."));
}

std::string servingPlanRejectedTitle(Translator tr)
{
    return translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "Not served (the largest replica tried)"));
}

std::string servingPlanAssumptionsTitle(Translator tr)
{
    return translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan", "How it is worked out"));
}

std::vector<std::string> servingPlanAssumptions(const Scenario &base, Translator tr)
{
    const auto percent = [](double share) { return formatFixed(share * 100.0, 0); };
    return {
        fill(tr, QT_TRANSLATE_NOOP("ServingPlan",
            "Decode: each step reads the replica's weights and its sequences' KV cache once at %1 % of the GPU's "
            "memory bandwidth (Pope et al. 2022, §3; the decode bandwidth share). 100 % is the roofline, a ceiling: "
            "engines reach 37-87 % at one sequence (README, time error table)."),
             {percent(base.workload.decodeBandwidthShare)}),
        fill(tr, QT_TRANSLATE_NOOP("ServingPlan", "Prefill: the prompt's forward FLOPs at an MFU of %1 % on its "
                                                  "tensor-parallel group."),
             {percent(base.workload.mfu)}),
        translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan",
            "Load: Poisson arrivals under iteration-level scheduling (Orca, Yu et al. 2022, §3.1): prefills stretch "
            "the decode steps by 1 / (1 - ρ), sequences running follow Little's law, and a prompt waits the M/D/1 "
            "mean behind the prompts ahead of it. Engines that run prefill chunks beside decodes do better near "
            "saturation (README, loaded rows of the time error table).")),
        translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan",
            "Sequences held: the engine's KV pool at the prompt plus output tokens, up to its running limit.")),
        translate(tr, "ServingPlan", QT_TRANSLATE_NOOP("ServingPlan",
            "Tokens counted in costs are generated tokens; a GPU's price is its catalog entry's price_per_gpu_hour_usd "
            "(the focus GPU's is the price per GPU-hour input).")),
    };
}

std::string servingPlanMarkdown(const Scenario &base, const ServingPlan &plan, const ServingPlanRequest &request,
                                const Catalog &catalog, const ReportMeta &meta)
{
    const Translator tr = meta.translator;
    std::string md = "# " + servingPlanTitle(tr) + "\n\n"
        + render({"Report", QT_TRANSLATE_NOOP("Report", "Generated %1 by VRAM Planner %2."), {meta.date, meta.version}}, tr)
        + "\n\n" + servingPlanHeading(base, tr) + ".\n\n" + summarize(base, tr) + "\n\n";
    const ServingPlanTable table = servingPlanTable(plan, catalog, tr);
    if (table.rows.empty())
        md += servingPlanNone(tr) + "\n\n";
    else {
        std::string rule = "|";
        md += "|";
        for (std::size_t c = 0; c < table.headers.size(); ++c) {
            md += " " + markdownCell(table.headers[c]) + " |";
            rule += table.textColumns[c] ? "---|" : "---:|";
        }
        md += "\n" + rule + "\n";
        for (const std::vector<std::string> &row : table.rows) {
            md += "|";
            for (const std::string &cell : row)
                md += " " + markdownCell(cell) + " |";
            md += "\n";
        }
        md += "\n";
    }
    const std::vector<std::string> rejected = servingPlanRejections(plan, request, catalog, tr);
    if (!rejected.empty()) {
        md += "## " + servingPlanRejectedTitle(tr) + "\n\n";
        for (const std::string &line : rejected)
            md += "- " + line + "\n";
        md += "\n";
    }
    md += "## " + servingPlanAssumptionsTitle(tr) + "\n\n";
    for (const std::string &line : servingPlanAssumptions(base, tr))
        md += "- " + line + "\n";
    return md;
}

std::string servingPlanCsv(const ServingPlan &plan)
{
    std::string csv = "engine,gpu,tp,pp,kv_cache,replicas,gpus,replica_requests_per_second,limit,rows,max_rows,"
                      "prefill_seconds,ttft_seconds,tpot_seconds,gpu_hours_per_million_tokens,price_per_gpu_hour,"
                      "cost_per_million_tokens\n";
    for (const ServingLayout &l : plan.layouts) {
        const Scenario &s = l.scenario;
        const std::vector<std::string> cells = {
            runtimeInfo(s.serving).id, s.gpuId, std::to_string(s.parallel.tp), std::to_string(s.parallel.pp),
            servingPlanKvId(s), std::to_string(l.replicas), std::to_string(l.gpus),
            formatFixed(l.capacity.requestRate, 4), servingLimitId(l.capacity.limit), formatFixed(l.load.rows, 2),
            formatFixed(l.maxRows, 0), formatFixed(l.prefillSeconds, 6), formatFixed(l.load.ttftSeconds, 6),
            formatFixed(l.load.tpotSeconds, 6), formatFixed(l.gpuHoursPerMillionTokens, 4),
            l.pricePerGpuHour > 0 ? formatFixed(l.pricePerGpuHour, 2) : "",
            l.pricePerGpuHour > 0 ? formatFixed(l.costPerMillionTokens, 4) : ""};
        for (std::size_t c = 0; c < cells.size(); ++c)
            csv += (c ? "," : "") + csvField(cells[c]);
        csv += "\n";
    }
    return csv;
}

} // namespace core
