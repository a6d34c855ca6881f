#include "app/cli/scenariooptions.h"

#include "core/base/loadresult.h"
#include "core/base/units.h"
#include "core/io/builtin.h"
#include "core/io/calibrationio.h"
#include "core/io/modelfiles.h"
#include "core/io/scenarioio.h"
#include "core/io/textfile.h"
#include "core/scenario/fields.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <cmath>

namespace cli {

namespace {

/// "gpus: must be a multiple of tp x pp" as the option that sets it:
/// "--gpus: must be ...". Problems of the model keep their own name.
std::string asOptionProblem(const std::string &problem)
{
    const auto colon = problem.find(':');
    const core::FieldDescriptor *f = colon == std::string::npos ? nullptr : core::findFieldByKey(problem.substr(0, colon));
    return f ? "--" + std::string(f->flag) + problem.substr(colon) : problem;
}

/// The option of the two that name a model on disk: --model, or --config
/// (its older spelling, for a config.json).
const char *modelPathOption(const Options &options)
{
    return options.has("model") ? "model" : "config";
}

std::optional<core::io::ModelFiles> modelFromPath(const std::string &option, const std::string &path,
                                                  std::string &error, std::vector<std::string> *warnings)
{
    const auto result = core::io::loadModelFiles(path);
    if (!result.ok()) {
        error = "--" + option + ": " + result.errors.front();
        return std::nullopt;
    }
    if (warnings)
        warnings->insert(warnings->end(), result.warnings.begin(), result.warnings.end());
    return result.value;
}

} // namespace

const std::vector<OptionSpec> &estimateOptionSpecs()
{
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> all = {
            {"preset", "ID", "model preset (see 'vramplanner-cli models')"},
            {"model", "PATH", "a model on disk: a Hugging Face folder (config.json and its *.safetensors, whose "
                              "headers give the exact weight bytes), a config.json, or a .gguf file"},
            {"config", "PATH", "Hugging Face config.json, or a folder holding one (as --model)"},
            {"params", "N", "bare parameter count: 7e9, 7B, 0.5b, 1.2T or an integer"},
            {"scenario", "FILE", "start from a saved scenario; other options override it"},
        };
        // Every scenario input, from its descriptor (core/scenario/fieldtable.cpp).
        for (const core::FieldDescriptor &f : core::allFields()) {
            std::string help = f.help;
            if (f.kind == core::FieldKind::Flag || f.kind == core::FieldKind::Text || f.kind == core::FieldKind::ModelPreset
                || f.kind == core::FieldKind::NumberList || f.kind == core::FieldKind::TextList) {
                all.push_back({f.flag, f.metavar, help});
                continue;
            }
            help += " (";
            if (f.kind == core::FieldKind::Choice)
                help += core::choiceList(f, " | ") + "; ";
            help += "default " + core::describeDefault(f) + (f.optional() ? ", or say 'default'" : "")
                + (f.countSuffixes == core::CountSuffixes::Binary ? "; k and M are binary: 8k = 8,192" : "") + ")";
            all.push_back({f.flag, f.metavar, help});
        }
        const std::vector<OptionSpec> rest = {
            {"nodes", "N", "nodes; GPUs = nodes x gpus-per-node"},
            {"kv-offload", nullptr, "llama.cpp --kv-offload (its default): the KV cache on the GPUs; the opposite of "
                                    "--no-kv-offload"},
            {"calibration", "FILE", "apply a calibration profile (its CUDA context and reserve)"},
            {"units", "UNIT", "gib | gb for the table (default gib)"},
            {"json", nullptr, "print one JSON object instead of a table"},
            {"save-scenario", "FILE", "also write the inputs as a scenario file"},
        };
        all.insert(all.end(), rest.begin(), rest.end());
        return all;
    }();
    return specs;
}

std::vector<OptionSpec> estimateOptionSpecsWith(std::initializer_list<OptionSpec> extra)
{
    std::vector<OptionSpec> specs = estimateOptionSpecs();
    specs.insert(specs.end(), extra.begin(), extra.end());
    return specs;
}

std::optional<core::Scenario> scenarioFromOptions(const Options &options, const core::Catalog &catalog,
                                                  std::string &error,
                                                  std::vector<std::string> *warnings, const core::ModelSpec *model)
{
    core::Scenario s;
    const int sources = options.has("preset") + options.has("model") + options.has("config") + options.has("params");
    if (sources > 1) {
        error = "--preset, --model, --config and --params: give only one";
        return std::nullopt;
    }
    if (options.has("scenario")) {
        const auto text = core::io::readTextFile(options.value("scenario"), core::kMaxInputBytes, error);
        if (!text) {
            error = "--scenario: " + error;
            return std::nullopt;
        }
        const auto loaded = core::io::loadScenario(*text, core::io::builtinPresets());
        if (!loaded.ok()) {
            error = "--scenario: " + core::inFile(options.value("scenario"), loaded.errors.front());
            return std::nullopt;
        }
        s = *loaded.value;
    } else if (sources == 0 && model) {
        s.model = *model;
        s.source = {core::ModelSource::Kind::ConfigFile, "", model->name, 0};
    } else if (sources == 0) {
        error = "choose a model with --preset ID, --model PATH or --params N";
        return std::nullopt;
    }

    if (options.has("preset")) {
        const core::io::ModelPreset *preset = core::io::findPreset(options.value("preset"));
        if (!preset) {
            error = "--preset: '" + options.value("preset") + "' is not a preset (see 'vramplanner-cli models')";
            return std::nullopt;
        }
        s.model = preset->model;
        s.source = {core::ModelSource::Kind::Preset, preset->id, "", 0};
    } else if (options.has("model") || options.has("config")) {
        const char *option = modelPathOption(options);
        const auto files = modelFromPath(option, options.value(option), error, warnings);
        if (!files)
            return std::nullopt;
        s.model = files->model;
        s.checkpoint = files->checkpoint;
        s.source = {core::ModelSource::Kind::ConfigFile, "", options.value(option), 0};
        // The runtime the files imply (a GGUF: llama.cpp); --serving-engine overrides it.
        if (const auto runtime = files->checkpoint ? core::runtimeForCheckpoint(*files->checkpoint) : std::nullopt)
            s.serving = *runtime;
    } else if (options.has("params")) {
        const auto count = core::parseCount(options.value("params"));
        if (!count) {
            error = "--params: '" + options.value("params") + "' is not a parameter count (e.g. 7e9, 7B, 0.5b, 1.2T)";
            return std::nullopt;
        }
        if (*count == 0 || *count > core::ScenarioLimits::maxParameters) {
            error = "--params: '" + options.value("params") + "' is outside 1 to "
                + core::groupDigits(core::ScenarioLimits::maxParameters) + " (100T) parameters";
            return std::nullopt;
        }
        s.model = core::modelFromParameterCount(*count);
        s.source = {core::ModelSource::Kind::ParameterCount, "", "", *count};
    }

    if (options.has("calibration")) {
        // First, so that explicit --cuda-overhead-mib / --reserve-percent win.
        const auto text = core::io::readTextFile(options.value("calibration"), core::kMaxInputBytes, error);
        const auto profile = text ? core::io::loadCalibration(*text) : core::LoadResult<core::CalibrationProfile>{};
        if (!profile.ok()) {
            error = "--calibration: " + (text ? core::inFile(options.value("calibration"), profile.errors.front()) : error);
            return std::nullopt;
        }
        s = core::withCalibration(s, *profile.value);
    }

    for (const core::FieldDescriptor &f : core::allFields()) {
        if (!options.has(f.flag))
            continue;
        std::optional<core::Message> problem;
        const auto value = core::parseFieldValue(f, options.value(f.flag), problem);
        if (!value) {
            error = "--" + std::string(f.flag) + ": " + core::render(*problem);
            return std::nullopt;
        }
        f.assign(s, *value);
    }
    if (options.has("kv-offload")) {
        const core::FieldDescriptor &onHost = core::field(core::FieldId::KvOnHost);
        if (options.has(onHost.flag)) {
            error = "--kv-offload and --" + std::string(onHost.flag) + ": give only one";
            return std::nullopt;
        }
        onHost.assign(s, false);
    }
    if (options.has("nodes")) {
        const auto nodes = core::parseCount(options.value("nodes"));
        const int perNode = s.parallel.gpusPerNode;
        if (!nodes || *nodes < 1 || *nodes * perNode > static_cast<std::uint64_t>(core::ScenarioLimits::maxGpus)) {
            error = "--nodes: '" + options.value("nodes") + "' is not a node count (at most "
                + std::to_string(core::ScenarioLimits::maxGpus) + " GPUs in all)";
            return std::nullopt;
        }
        const int gpus = static_cast<int>(*nodes) * perNode;
        if (options.has("gpus") && s.gpus != gpus) {
            error = "--nodes: nodes x gpus-per-node (" + std::to_string(gpus) + ") disagrees with --gpus "
                + std::to_string(s.gpus);
            return std::nullopt;
        }
        s.gpus = gpus;
    }
    core::io::resolveDraft(s, core::io::builtinPresets());
    if (!s.gpuId.empty() && !catalog.find(s.gpuId)) {
        error = "--gpu: '" + s.gpuId + "' is not a catalog GPU (see 'vramplanner-cli gpus')";
        return std::nullopt;
    }
    const auto problems = core::validateScenario(s);
    if (!problems.empty()) {
        error = asOptionProblem(problems.front());
        return std::nullopt;
    }
    // The engine starts on the focus GPU: its defaults and communicators
    // read that card, for the commands that estimate the scenario itself
    // (calibrate, validate) as for those that fit it card by card.
    if (const core::GpuSpec *focus = core::focusGpu(s, catalog))
        s = core::onServingCard(s, *focus);
    return s;
}

} // namespace cli
