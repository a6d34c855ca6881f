#include "app/cli/cli.h"

#include "app/cli/compare.h"
#include "app/cli/configcoverage.h"
#include "app/cli/options.h"
#include "app/cli/scenariooptions.h"
#include "app/cli/serveplan.h"
#include "app/cli/texttable.h"
#include "app/cli/validate.h"
#include "core/analysis/matrix.h"
#include "core/analysis/performance.h"
#include "core/analysis/plan.h"
#include "core/explain/report.h"
#include "core/io/atomicfile.h"
#include "core/io/builtin.h"
#include "core/io/calibrationio.h"
#include "core/io/reportjson.h"
#include "core/io/scenarioio.h"
#include "core/io/usercatalog.h"
#include "core/runs/calibration.h"
#include "core/runs/runcompare.h"

#include <algorithm>
#include <cmath>

namespace cli {

namespace {

const char *const kProgram = "vramplanner-cli";

std::string usage()
{
    return std::string("Usage:\n")
        + "  vramplanner-cli estimate (--preset ID | --model PATH | --params N | --scenario FILE) [options]\n"
        + "  vramplanner-cli gpus [--json] [--units gib|gb]\n"
        + "  vramplanner-cli models [--json]\n"
        + "  vramplanner-cli validate --published FILE --measured FILE\n"
        + "  vramplanner-cli plan (estimate options) --gpu ID [--min-gpus N] [--max-gpus N] [--no-offload]\n"
        + "                       [--host-memory-gib N] [--limit N] [--json]\n"
        + "  vramplanner-cli matrix (estimate options) [--formats LIST] [--gpu-ids LIST] [--json | --csv | --markdown]\n"
        + "  vramplanner-cli utilization [--gpu ID | --peak-tflops X] (--measured-tflops X | --tokens-per-second X\n"
        + "                              (model options)) [--reference-tokens-per-second X]\n"
        + "  vramplanner-cli calibrate (estimate options) [--log FILE] [--allocated SIZE] [--reserved SIZE]\n"
        + "                            [--nvidia-smi SIZE] [--name NAME] [--save-profile FILE]\n"
        + "  vramplanner-cli compare --log FILE (estimate options) [--json] [--keep]\n"
        + "  vramplanner-cli validate --mine\n"
        + "  vramplanner-cli validate --configs DIR\n"
        + "  vramplanner-cli validate --serving FILE\n"
        + "  vramplanner-cli --help | --version\n\n"
        + "estimate options:\n" + describeOptions(estimateOptionSpecs());
}

int badArguments(std::ostream &err, const std::string &message)
{
    err << kProgram << ": " << message << "\n" << "Try '" << kProgram << " --help'.\n";
    return BadArguments;
}

std::optional<core::ByteUnit> unitFrom(const Options &options, std::string &error)
{
    if (!options.has("units"))
        return core::ByteUnit::GiB;
    const std::string &u = options.value("units");
    if (u == "gib")
        return core::ByteUnit::GiB;
    if (u == "gb")
        return core::ByteUnit::GB;
    error = "--units: '" + u + "' is not gib or gb";
    return std::nullopt;
}

int runEstimate(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out,
                std::ostream &err)
{
    std::string error;
    const auto options = Options::parse(args, estimateOptionSpecs(), error);
    if (!options)
        return badArguments(err, error);
    const auto unit = unitFrom(*options, error);
    if (!unit)
        return badArguments(err, error);
    std::vector<std::string> loadWarnings;
    const auto scenario = scenarioFromOptions(*options, catalog, error, &loadWarnings);
    if (!scenario)
        return badArguments(err, error);

    core::EstimateWithFits result = core::estimateWithFits(*scenario, catalog);
    for (auto w = loadWarnings.rbegin(); w != loadWarnings.rend(); ++w)
        result.estimate.warnings.insert(result.estimate.warnings.begin(), core::Message::verbatim(*w));
    if (!result.estimate.isValid()) {
        err << kProgram << ": " << core::render(result.estimate.errors.front()) << "\n";
        return BadArguments;
    }
    if (options->has("save-scenario")
        && !core::io::writeFileAtomically(options->value("save-scenario"), core::io::saveScenario(*scenario), error)) {
        err << kProgram << ": --save-scenario: " << error << "\n";
        return Failure;
    }
    // As estimated: with a mixed device set's split.
    if (options->has("json"))
        out << core::io::estimateToJson(result.scenario, result, catalog);
    else
        printEstimate(out, result.scenario, result, catalog, *unit);
    return Ok;
}

int runListing(const std::string &command, const std::vector<std::string> &args, const core::Catalog &catalog,
               std::ostream &out, std::ostream &err)
{
    static const std::vector<OptionSpec> specs = {{"json", nullptr, "print JSON"}, {"units", "UNIT", "gib | gb"}};
    std::string error;
    const auto options = Options::parse(args, specs, error);
    if (!options)
        return badArguments(err, error);
    const auto unit = unitFrom(*options, error);
    if (!unit)
        return badArguments(err, error);
    if (command == "gpus") {
        if (options->has("json"))
            out << core::io::catalogToJson(catalog);
        else
            printGpus(out, catalog, *unit);
    } else if (options->has("json")) {
        out << core::io::presetsToJson(core::io::builtinPresets());
    } else {
        printModels(out, core::io::builtinPresets());
    }
    return Ok;
}

/// `calibrate`: the estimate's options plus what was measured; prints the
/// fit and optionally saves it as a profile.
int runCalibrate(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out,
                 std::ostream &err)
{
    const std::vector<OptionSpec> specs = estimateOptionSpecsWith({
        {"allocated", "SIZE", "measured torch.cuda.max_memory_allocated (e.g. 15.2GiB)"},
        {"reserved", "SIZE", "measured torch.cuda.max_memory_reserved"},
        {"nvidia-smi", "SIZE", "measured nvidia-smi memory used by the process (e.g. 14949MiB)"},
        {"log", "FILE", "a run log: the measured figures and the run's settings (compare reads the same)"},
        {"name", "NAME", "profile name (default: the GPU id or 'calibration')"},
        {"save-profile", "FILE", "write the fitted profile as JSON"}});
    std::string error;
    const auto options = Options::parse(args, specs, error);
    if (!options)
        return badArguments(err, error);
    std::optional<LogRun> logRun;
    if (options->has("log")) {
        logRun = readLogRun(*options, catalog, error);
        if (!logRun)
            return badArguments(err, error);
        for (const std::string &w : logRun->warnings)
            err << kProgram << ": warning: " << w << "\n";
    }
    const auto scenario = logRun ? std::optional(logRun->run.scenario) : scenarioFromOptions(*options, catalog, error);
    if (!scenario)
        return badArguments(err, error);
    // The log's figures first; a figure given as an option wins.
    core::Measurement m = logRun ? core::measurementFromLog(logRun->log) : core::Measurement{};
    for (const auto &[name, target] : {std::pair{"allocated", &m.allocated}, std::pair{"reserved", &m.reserved},
                                       std::pair{"nvidia-smi", &m.nvidiaSmi}}) {
        if (!options->has(name))
            continue;
        *target = core::parseBytes(options->value(name));
        if (!*target)
            return badArguments(err, "--" + std::string(name) + ": '" + options->value(name)
                                         + "' is not a size (e.g. 14949MiB, 29.03GiB, 15.2GB)");
    }
    const std::string name = options->has("name") ? options->value("name")
                                                  : (scenario->gpuId.empty() ? "calibration" : scenario->gpuId);
    const core::CalibrationResult r = core::calibrate(*scenario, m, name);
    out << "Calibration '" << name << "' on " << r.profile.scenarioSummary << "\n";
    if (logRun)
        for (const auto &[label, figure] : {std::pair{"allocated", m.allocated}, std::pair{"reserved", m.reserved},
                                            std::pair{"nvidia-smi", m.nvidiaSmi}})
            if (figure)
                out << "  measured " << label << std::string(14 - std::string(label).size(), ' ')
                    << core::formatBytes(*figure) << "\n";
    out << "  predicted tensors     " << core::formatBytes(r.predictedTensors) << "\n";
    if (r.tensorErrorPercent)
        out << "  tensor model error    " << core::formatFixed(*r.tensorErrorPercent, 1) << " % against allocated\n";
    out << "  fitted cuda_overhead  " << core::formatFixed(r.profile.cudaOverheadMib, 0) << " MiB\n";
    out << "  fitted reserve        " << core::formatFixed(r.profile.reservePercent, 1) << " %\n";
    out << "  total before / after  " << core::formatBytes(r.predictedTotal) << " / " << core::formatBytes(r.calibratedTotal)
        << "\n";
    for (const std::string &note : r.notes)
        out << "  note: " << note << "\n";
    if (options->has("save-profile")
        && !core::io::writeFileAtomically(options->value("save-profile"), core::io::saveCalibration(r.profile, today()), error)) {
        err << kProgram << ": --save-profile: " << error << "\n";
        return Failure;
    }
    return r.notes.empty() ? Ok : Failure;
}

/// `plan`: the smallest layouts of one GPU type that fit, fastest first.
int runPlan(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out,
            std::ostream &err)
{
    std::vector<OptionSpec> specs = estimateOptionSpecsWith({
        {"min-gpus", "N", "smallest GPU count tried (default 1)"},
        {"max-gpus", "N", "largest GPU count tried (default 1024; with --serve, the most the plan may use)"},
        {"no-offload", nullptr, "leave ZeRO-Offload out of the search"},
        {"host-memory-gib", "N", "host memory per node for offload (as --host-memory; default 2048)"},
        {"limit", "N", "layouts listed (default 10; with --serve, per engine and GPU type, default 3)"}});
    specs.insert(specs.end(), servePlanOptionSpecs().begin(), servePlanOptionSpecs().end());
    std::string error;
    const auto options = Options::parse(args, specs, error);
    if (!options)
        return badArguments(err, error);
    const auto scenario = scenarioFromOptions(*options, catalog, error);
    if (!scenario)
        return badArguments(err, error);
    if (options->has("serve"))
        return runServePlan(*options, *scenario, catalog, out, err);
    if (!servePlanOnly(*options, error))
        return badArguments(err, error);
    const core::GpuSpec *gpu = catalog.find(scenario->gpuId);
    if (!gpu)
        return badArguments(err, "plan needs --gpu ID (see 'vramplanner-cli gpus')");
    core::PlanRequest request;
    const auto integer = [&](const char *name, auto &target, long long min, long long max) {
        if (!options->has(name))
            return true;
        const auto v = core::parseCount(options->value(name));
        if (!v || static_cast<long long>(*v) < min || static_cast<long long>(*v) > max) {
            error = "--" + std::string(name) + ": '" + options->value(name) + "' is not an integer between "
                + std::to_string(min) + " and " + std::to_string(max);
            return false;
        }
        target = static_cast<std::decay_t<decltype(target)>>(*v);
        return true;
    };
    // --host-memory (a scenario field) or plan's older --host-memory-gib.
    double hostGiB = scenario->hostMemoryGib > 0 ? scenario->hostMemoryGib : request.hostBytesPerNode / (1024.0 * 1024 * 1024);
    if (!integer("min-gpus", request.minGpus, 1, 65536) || !integer("max-gpus", request.maxGpus, 1, 65536)
        || !integer("limit", request.limit, 1, 1000) || !integer("host-memory-gib", hostGiB, 1, 1 << 24))
        return badArguments(err, error);
    request.hostBytesPerNode = hostGiB * 1024.0 * 1024 * 1024;
    request.allowOffload = !options->has("no-offload");
    const auto layouts = core::planLayouts(*scenario, *gpu, request);
    // Where no layout fits, the what-would-fit search says why and what
    // would, for the scenario as set on this GPU.
    const core::EstimateWithFits asSet = core::estimateWithFits(*scenario, catalog, {gpu->id});
    if (options->has("json")) {
        out << core::io::planToJson(*gpu, layouts, asSet);
        return Ok;
    }
    printPlan(out, *gpu, layouts, asSet);
    return layouts.empty() ? Failure : Ok;
}

/// Comma-separated weight formats ("bf16,gguf-q4_k_m"); nullopt naming the
/// first unknown one.
std::optional<std::vector<core::WeightFormat>> parseFormats(const std::string &text, std::string &error)
{
    std::vector<core::WeightFormat> formats;
    for (const std::string &id : commaList(text)) {
        const auto format = core::parseWeightFormat(id);
        if (!format) {
            error = "--formats: '" + id + "' is not a weight format (see --weights)";
            return std::nullopt;
        }
        formats.push_back(*format);
    }
    return formats;
}

/// `matrix`: the scenario in each weight format on each GPU, with the
/// longest context that fits.
int runMatrix(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out, std::ostream &err)
{
    const std::vector<OptionSpec> specs = estimateOptionSpecsWith({
        {"formats", "LIST", "weight formats, comma-separated (default: bf16 to gguf-q2_k, twelve formats)"},
        {"gpu-ids", "LIST", "GPUs, comma-separated catalog ids (default: the catalog's default GPUs and --gpu)"},
        {"csv", nullptr, "print CSV"},
        {"markdown", nullptr, "print a Markdown report"}});
    std::string error;
    const auto options = Options::parse(args, specs, error);
    if (!options)
        return badArguments(err, error);
    const auto scenario = scenarioFromOptions(*options, catalog, error);
    if (!scenario)
        return badArguments(err, error);
    std::vector<core::WeightFormat> formats = core::defaultMatrixFormats();
    if (options->has("formats")) {
        const auto chosen = parseFormats(options->value("formats"), error);
        if (!chosen)
            return badArguments(err, error);
        formats = *chosen;
    }
    std::vector<std::string> gpuIds;
    if (options->has("gpu-ids")) {
        for (const std::string &id : commaList(options->value("gpu-ids"))) {
            if (!catalog.find(id))
                return badArguments(err, "--gpu-ids: '" + id + "' is not a catalog GPU");
            gpuIds.push_back(id);
        }
    }
    const std::vector<std::string> problems = core::validateScenario(*scenario);
    if (!problems.empty()) {
        err << kProgram << ": " << problems.front() << "\n";
        return BadArguments;
    }
    const core::FormatMatrix matrix = core::formatMatrix(*scenario, catalog, formats, gpuIds);
    if (options->has("json"))
        out << core::io::matrixToJson(matrix);
    else if (options->has("csv"))
        out << core::matrixCsv(matrix);
    else if (options->has("markdown")) {
        core::ReportMeta meta;
        meta.title.clear();
        meta.date = today();
        meta.version = VRAMPLANNER_VERSION;
        out << core::matrixMarkdown(*scenario, matrix, catalog, meta);
    }
    else
        printMatrix(out, *scenario, matrix);
    return Ok;
}

/// `utilization`: the seed notes' three ways to judge GPU utilisation.
int runUtilization(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out,
                   std::ostream &err)
{
    const std::vector<OptionSpec> specs = estimateOptionSpecsWith({
        {"measured-tflops", "X", "achieved TFLOPS (FLOPs ratio, S14)"},
        {"tokens-per-second", "X", "measured training tokens/s per GPU (MFU and HFU)"},
        {"reference-tokens-per-second", "X", "tokens/s/GPU of a reference run at full use (S15)"},
        {"peak-tflops", "X", "override the catalog's dense peak"}});
    std::string error;
    const auto options = Options::parse(args, specs, error);
    if (!options)
        return badArguments(err, error);
    const auto number = [&](const char *name) -> std::optional<double> {
        if (!options->has(name))
            return std::nullopt;
        const auto v = core::parseDecimal(options->value(name));
        if (v && *v > 0)
            return v;
        error = "--" + std::string(name) + ": '" + options->value(name) + "' is not a positive number";
        return std::nullopt;
    };
    const auto measured = number("measured-tflops");
    const auto tokens = number("tokens-per-second");
    const auto reference = number("reference-tokens-per-second");
    const auto peakOverride = number("peak-tflops");
    if (!error.empty())
        return badArguments(err, error);
    if (!measured && !tokens)
        return badArguments(err, "utilization needs --measured-tflops or --tokens-per-second");
    const bool needsModel = tokens.has_value();
    std::optional<core::Scenario> scenario;
    if (needsModel || options->has("preset") || options->has("params") || options->has("config") || options->has("model")) {
        scenario = scenarioFromOptions(*options, catalog, error);
        if (!scenario)
            return badArguments(err, error);
    }
    const core::GpuSpec *gpu = options->has("gpu") ? catalog.find(options->value("gpu")) : nullptr;
    if (options->has("gpu") && !gpu)
        return badArguments(err, "--gpu: '" + options->value("gpu") + "' is not a catalog GPU");
    double peak = peakOverride.value_or(0);
    if (!peakOverride && gpu)
        peak = scenario ? core::peakTflopsFor(*scenario, *gpu) : gpu->peak.bf16.value_or(gpu->peak.fp16.value_or(0));
    if (peak <= 0)
        return badArguments(err, "give --gpu ID (its dense peak) or --peak-tflops X");
    printUtilization(out, scenario ? &*scenario : nullptr, peak, measured, tokens, reference);
    return Ok;
}

int runValidateCommand(const std::vector<std::string> &args, const core::Catalog &, std::ostream &out,
                       std::ostream &err)
{
    static const std::vector<OptionSpec> specs = {
        {"published", "FILE", "published cases (tests/validation/published-cases.json)"},
        {"measured", "FILE", "measure_torch.py results (tests/validation/torch-cpu-results.json)"},
        {"mine", nullptr, "the runs you kept with 'compare --keep'"},
        {"configs", "DIR", "read every config.json under DIR: how each is read, and what a guess assumed"},
        {"serving", "FILE", "published serving benchmarks (tests/validation/serving-time-cases.json): planned time figures against them"}};
    std::string error;
    const auto options = Options::parse(args, specs, error);
    if (!options)
        return badArguments(err, error);
    if (options->has("mine"))
        return runValidateMine(out, err);
    if (options->has("configs"))
        return runValidateConfigs(options->value("configs"), out, err);
    if (options->has("serving"))
        return runValidateServing(options->value("serving"), out, err);
    if (!options->has("published") || !options->has("measured"))
        return badArguments(err, "validate needs --published FILE and --measured FILE");
    return runValidate(options->value("published"), options->value("measured"), out, err);
}

using Command = int (*)(const std::vector<std::string> &, const core::Catalog &, std::ostream &, std::ostream &);

int runGpus(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out, std::ostream &err)
{
    return runListing("gpus", args, catalog, out, err);
}

int runModels(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out, std::ostream &err)
{
    return runListing("models", args, catalog, out, err);
}

/// Every command, in the order --help lists them.
const std::vector<std::pair<std::string, Command>> &commands()
{
    static const std::vector<std::pair<std::string, Command>> table = {
        {"estimate", runEstimate}, {"gpus", runGpus},           {"models", runModels},        {"plan", runPlan},
        {"matrix", runMatrix},     {"utilization", runUtilization}, {"calibrate", runCalibrate},
        {"validate", runValidateCommand}, {"compare", runCompare}};
    return table;
}

std::string commandNames()
{
    std::string names;
    for (const auto &[name, run] : commands())
        names += (names.empty() ? "" : ", ") + name;
    return names;
}

bool asksForHelp(const std::vector<std::string> &args)
{
    return std::any_of(args.begin(), args.end(), [](const std::string &a) { return a == "--help" || a == "-h"; });
}

} // namespace

int runCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty())
        return badArguments(err, "missing command (" + commandNames() + ")");
    const std::string &command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // "vramplanner-cli plan --help" as well as "vramplanner-cli --help".
    if (command == "--help" || command == "-h" || command == "help" || asksForHelp(rest)) {
        out << usage();
        return Ok;
    }
    if (command == "--version") {
        out << kProgram << " " << VRAMPLANNER_VERSION << "\n";
        return Ok;
    }
    if (core::io::builtinCatalog().gpus.empty() || core::io::builtinPresets().empty()) {
        err << kProgram << ": the built-in catalog or presets failed to load (a build problem)\n";
        return Failure;
    }
    // The user's own GPUs, as the GUI sees them; a broken file is reported
    // and the built-in catalog used.
    const core::io::ActiveCatalog active = core::io::loadActiveCatalog();
    for (const std::string &problem : active.problems)
        err << kProgram << ": warning: " << problem << " (using the built-in catalog)\n";
    for (const auto &[name, run] : commands())
        if (command == name)
            return run(rest, active.catalog, out, err);
    return badArguments(err, "unknown command '" + command + "' (" + commandNames() + ")");
}

} // namespace cli
