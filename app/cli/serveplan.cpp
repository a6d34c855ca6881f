#include "app/cli/serveplan.h"

#include "app/cli/cli.h"
#include "app/cli/compare.h"
#include "app/cli/texttable.h"
#include "core/base/units.h"
#include "core/explain/servingplanreport.h"
#include "core/io/reportjson.h"
#include "core/scenario/fields.h"

#include <optional>
#include <string>

namespace cli {

namespace {

constexpr const char *kProgram = "vramplanner-cli";

int bad(std::ostream &err, const std::string &message)
{
    err << kProgram << ": " << message << "\n";
    return BadArguments;
}

/// The request: GPUs named, else the focus GPU, else the catalog's default
/// ones; engines named, else every engine that batches continuously.
std::optional<core::ServingPlanRequest> requestFrom(const Options &options, const core::Scenario &s,
                                                    const core::Catalog &catalog, std::string &error)
{
    std::vector<std::string> gpuIds;
    if (options.has("gpu-ids"))
        gpuIds = commaList(options.value("gpu-ids"));
    else if (!s.gpuId.empty())
        gpuIds = {s.gpuId};
    else
        for (const core::GpuSpec &gpu : catalog.gpus)
            if (gpu.defaultShown)
                gpuIds.push_back(gpu.id);
    core::ServingPlanRequest request = core::servingPlanRequest(s, std::move(gpuIds));
    for (const std::string &id : request.gpuIds)
        if (!catalog.find(id)) {
            error = "--gpu-ids: '" + id + "' is not a catalog GPU (see 'vramplanner-cli gpus')";
            return std::nullopt;
        }
    if (options.has("engines")) {
        request.engines.clear();
        for (const std::string &id : commaList(options.value("engines"))) {
            const auto engine = core::parseServingEngine(id);
            if (!engine) {
                error = "--engines: '" + id + "' is not a serving engine (see --serving-engine)";
                return std::nullopt;
            }
            request.engines.push_back(*engine);
        }
    }
    if (options.has("limit")) {
        const auto limit = core::parseCount(options.value("limit"));
        if (!limit || *limit < 1 || *limit > 100) {
            error = "--limit: '" + options.value("limit") + "' is not an integer between 1 and 100";
            return std::nullopt;
        }
        request.perGroup = static_cast<std::size_t>(*limit);
    }
    return request;
}

/// --gpu-prices ID=USD,...: each GPU's price per hour, into `catalog`.
bool applyPrices(const std::string &list, core::Catalog &catalog, std::string &error)
{
    for (const std::string &item : commaList(list)) {
        const std::size_t equals = item.find('=');
        core::GpuSpec *gpu = nullptr;
        for (core::GpuSpec &g : catalog.gpus)
            if (equals != std::string::npos && g.id == item.substr(0, equals))
                gpu = &g;
        // Out of range where absent or not a number: the price input's range.
        const core::FieldDescriptor &range = core::field(core::FieldId::PricePerGpuHour);
        const double price = equals == std::string::npos
            ? -1.0
            : core::parseDecimal(item.substr(equals + 1)).value_or(-1.0);
        if (!gpu || price < range.min || price > range.max) {
            error = "--gpu-prices: '" + item + "' is not ID=USD with a catalog GPU id and a price per hour";
            return false;
        }
        gpu->pricePerHour = price;
    }
    return true;
}

} // namespace

bool servePlanOnly(const Options &options, std::string &error)
{
    for (const OptionSpec &spec : servePlanOptionSpecs())
        if (options.has(spec.name) && std::string(spec.name) != "serve") {
            error = "--" + std::string(spec.name) + " needs --serve";
            return false;
        }
    return true;
}

const std::vector<OptionSpec> &servePlanOptionSpecs()
{
    static const std::vector<OptionSpec> specs = {
        {"serve", nullptr, "plan serving instead of layouts: the cheapest replicas per engine and GPU type that meet "
                           "--request-rate, --ttft and --tpot"},
        {"prompt-tokens", "N", "with --serve: each request's prompt (the context becomes prompt + --output-tokens)"},
        {"gpu-ids", "LIST", "with --serve: GPU types, comma-separated (default: --gpu, else the catalog's default GPUs)"},
        {"engines", "LIST", "with --serve: serving engines, comma-separated (default: vllm,sglang,trtllm)"},
        {"gpu-prices", "LIST", "with --serve: ID=USD per GPU-hour, comma-separated (else the catalog's price)"},
        {"csv", nullptr, "with --serve: print CSV"},
        {"markdown", nullptr, "with --serve: print a Markdown report"}};
    return specs;
}

int runServePlan(const Options &options, core::Scenario s, const core::Catalog &shipped, std::ostream &out,
                 std::ostream &err)
{
    std::string error;
    if (s.isTraining())
        return bad(err, "plan --serve plans inference: leave --mode at inference");
    for (const char *layoutOnly : {"min-gpus", "no-offload", "host-memory-gib"})
        if (options.has(layoutOnly))
            return bad(err, "--" + std::string(layoutOnly) + " is for plan's training layouts, not --serve");
    if (options.has("prompt-tokens")) {
        const auto prompt = core::parseCount(options.value("prompt-tokens"), core::CountSuffixes::Binary);
        if (!prompt || *prompt < 1 || *prompt > core::ScenarioLimits::maxSequence) {
            return bad(err, "--prompt-tokens: '" + options.value("prompt-tokens") + "' is not a token count between 1 and "
                                + core::groupDigits(core::ScenarioLimits::maxSequence));
        }
        s.sequence = *prompt + s.workload.outputTokens;
    }
    if (const std::vector<std::string> problems = core::validateScenario(s); !problems.empty())
        return bad(err, problems.front());
    core::Catalog catalog = shipped;
    if (options.has("gpu-prices") && !applyPrices(options.value("gpu-prices"), catalog, error))
        return bad(err, error);
    auto request = requestFrom(options, s, catalog, error);
    if (!request)
        return bad(err, error);
    if (options.has("max-gpus")) {
        const auto most = core::parseCount(options.value("max-gpus"));
        if (!most || *most < 1 || *most > static_cast<std::uint64_t>(core::ScenarioLimits::maxGpus))
            return bad(err, "--max-gpus: '" + options.value("max-gpus") + "' is not a GPU count");
        request->maxGpus = static_cast<int>(*most);
    }
    const core::ServingPlan plan = core::planServing(s, catalog, *request);
    if (options.has("json"))
        out << core::io::servingPlanToJson(s, plan);
    else if (options.has("csv"))
        out << core::servingPlanCsv(plan);
    else if (options.has("markdown")) {
        core::ReportMeta meta;
        meta.date = today();
        meta.version = VRAMPLANNER_VERSION;
        out << core::servingPlanMarkdown(s, plan, *request, catalog, meta);
    }
    else
        printServingPlan(out, s, plan, *request, catalog);
    return plan.layouts.empty() ? Failure : Ok;
}

} // namespace cli
