#include "app/cli/compare.h"

#include "app/cli/cli.h"
#include "app/cli/scenariooptions.h"
#include "app/cli/texttable.h"
#include "core/io/runarchive.h"
#include "core/io/runcomparejson.h"
#include "core/io/textfile.h"
#include "core/scenario/fields.h"

#include <ctime>
#include <filesystem>
#include <set>

namespace cli {

std::string today()
{
    char buffer[16];
    const std::time_t now = std::time(nullptr);
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::localtime(&now));
    return buffer;
}

std::optional<LogRun> readLogRun(const Options &options, const core::Catalog &catalog, std::string &error)
{
    if (!options.has("log")) {
        error = "give the run's log with --log FILE";
        return std::nullopt;
    }
    const std::string &path = options.value("log");
    const auto text = core::io::readTextFile(path, core::kMaxInputBytes, error);
    if (!text) {
        error = "--log: " + error;
        return std::nullopt;
    }
    const auto read = core::runlog::readRunLog(*text);
    if (!read.ok()) {
        error = "--log: " + core::inFile(path, read.errors.front());
        for (std::size_t i = 1; i < read.errors.size(); ++i)
            error += "\n  " + read.errors[i];
        return std::nullopt;
    }
    const auto scenario = scenarioFromOptions(options, catalog, error);
    if (!scenario)
        return std::nullopt;
    std::set<core::FieldId> userFields;
    for (const core::FieldDescriptor &f : core::allFields())
        if (options.has(f.flag))
            userFields.insert(f.id);
    LogRun result{*read.value, core::scenarioFromLog(*scenario, *read.value, catalog, userFields), {}};
    for (const std::string &w : read.warnings)
        result.warnings.push_back(core::inFile(path, w));
    const auto problems = core::validateScenario(result.run.scenario);
    if (!problems.empty()) {
        error = "the scenario with the log's settings: " + problems.front();
        return std::nullopt;
    }
    return result;
}

int runCompare(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out, std::ostream &err)
{
    const std::vector<OptionSpec> specs = estimateOptionSpecsWith(
        {{"log", "FILE", "the run's log: vLLM, SGLang, TensorRT-LLM, llama.cpp, ollama, torch memory_summary/memory_stats/OOM, Trainer metrics, nvidia-smi"},
         {"keep", nullptr, "append the comparison to your runs (runs.json in the user data folder; see validate --mine)"}});
    std::string error;
    const auto options = Options::parse(args, specs, error);
    const auto logRun = options ? readLogRun(*options, catalog, error) : std::nullopt;
    if (!logRun) {
        err << "vramplanner-cli: " << error << "\n";
        return BadArguments;
    }
    core::ByteUnit unit = core::ByteUnit::GiB;
    if (options->has("units") && options->value("units") == "gb")
        unit = core::ByteUnit::GB;
    for (const std::string &w : logRun->warnings)
        err << "vramplanner-cli: warning: " << w << "\n";
    const core::RunComparison comparison = core::compareRun(logRun->run, logRun->log, catalog);
    if (options->has("json"))
        out << core::io::comparisonToJson(comparison, logRun->log, logRun->warnings);
    else
        printComparison(out, comparison, unit);
    if (options->has("keep")) {
        const std::filesystem::path archive = core::io::runArchivePath();
        const std::string logName = std::filesystem::path(options->value("log")).filename().string();
        if (archive.empty() || !core::io::keepRun(archive, core::io::keptRunOf(comparison, today(), logName), error)) {
            err << "vramplanner-cli: --keep: " << (archive.empty() ? "no user data folder" : error) << "\n";
            return Failure;
        }
        if (!options->has("json"))
            out << "kept in " << archive.string() << "\n";
    }
    return Ok;
}

} // namespace cli
