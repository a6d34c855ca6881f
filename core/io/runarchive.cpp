#include "core/io/runarchive.h"

#include "core/explain/report.h"
#include "core/io/atomicfile.h"
#include "core/io/jsonreader.h"
#include "core/io/textfile.h"
#include "core/io/usercatalog.h"

namespace core::io {

namespace {
constexpr std::uint64_t kMaxBytes = 1ull << 56;
constexpr std::size_t kMaxRuns = 100000;
constexpr std::size_t kMaxRows = 1000;

/// An array member that must be there: the array, or an error at its pointer.
const Json *arrayAt(const Json &object, const std::string &pointer, const char *key, std::vector<std::string> &errors)
{
    if (!object.contains(key) || !object.at(key).is_array()) {
        errors.push_back(pointer + "/" + key + ": missing or not an array");
        return nullptr;
    }
    return &object.at(key);
}
} // namespace

std::string saveRunArchive(const RunArchive &archive)
{
    Json runs = Json::array();
    for (const KeptRun &run : archive.runs) {
        Json rows = Json::array();
        for (const KeptRow &r : run.rows)
            rows.push_back({{"quantity", r.quantity},
                            {"label", r.label},
                            {"device", r.device},
                            {"term", r.term},
                            {"measured_bytes", r.measuredBytes},
                            {"planned_bytes", r.plannedBytes}});
        runs.push_back({{"created", run.created},
                        {"log", run.log},
                        {"scenario", run.scenario},
                        {"engine", run.engine},
                        {"gpu", run.gpuId},
                        {"rows", rows}});
    }
    const Json j = {{"schema_version", 1}, {"kind", "vramplanner-runs"}, {"runs", runs}};
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

LoadResult<RunArchive> loadRunArchive(const std::string &text)
{
    LoadResult<RunArchive> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected an object of kept runs");
        return result;
    }
    JsonReader top(*json, "", result.errors);
    const auto version = top.uint("schema_version", 1, 1000, true);
    if (version && *version != 1)
        top.error("schema_version", "is " + std::to_string(*version) + "; this version reads 1");
    if (top.string("kind", true).value_or("") != "vramplanner-runs")
        top.error("kind", "is not 'vramplanner-runs'");
    const Json *runs = arrayAt(*json, "", "runs", result.errors);
    if (!runs)
        return result;
    if (runs->size() > kMaxRuns) {
        result.errors.push_back("/runs: more than " + std::to_string(kMaxRuns) + " runs");
        return result;
    }
    RunArchive archive;
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const std::string at = "/runs/" + std::to_string(i);
        if (!(*runs)[i].is_object()) {
            result.errors.push_back(at + ": expected an object");
            continue;
        }
        JsonReader r((*runs)[i], at, result.errors);
        KeptRun run;
        run.created = r.string("created", false).value_or("");
        run.log = r.string("log", false).value_or("");
        run.scenario = r.string("scenario", true).value_or("");
        run.engine = r.string("engine", false).value_or("");
        run.gpuId = r.string("gpu", false).value_or("");
        const Json *rows = arrayAt((*runs)[i], at, "rows", result.errors);
        if (!rows || rows->size() > kMaxRows)
            continue;
        for (std::size_t k = 0; k < rows->size(); ++k) {
            const std::string rowAt = at + "/rows/" + std::to_string(k);
            if (!(*rows)[k].is_object()) {
                result.errors.push_back(rowAt + ": expected an object");
                continue;
            }
            JsonReader row((*rows)[k], rowAt, result.errors);
            KeptRow kept;
            kept.quantity = row.string("quantity", true).value_or("");
            kept.label = row.string("label", false).value_or(kept.quantity);
            kept.device = row.string("device", false).value_or("");
            kept.term = row.string("term", false).value_or("");
            kept.measuredBytes = row.uint("measured_bytes", 1, kMaxBytes, true).value_or(1);
            kept.plannedBytes = row.uint("planned_bytes", 0, kMaxBytes, true).value_or(0);
            run.rows.push_back(kept);
        }
        archive.runs.push_back(std::move(run));
    }
    if (result.errors.empty())
        result.value = std::move(archive);
    return result;
}

KeptRun keptRunOf(const RunComparison &comparison, const std::string &created, const std::string &logName)
{
    KeptRun run;
    run.created = created;
    run.log = logName;
    run.scenario = summarize(comparison.scenario);
    run.engine = comparison.scenario.isTraining() ? "training" : servingEngineId(comparison.scenario.serving);
    run.gpuId = comparison.scenario.gpuId;
    for (const ComparisonRow &r : comparison.rows)
        if (!r.isCount && r.planned && r.measured.count() > 0)
            run.rows.push_back({r.quantity, r.label, r.device, r.term, r.measured.count(), r.planned->count()});
    return run;
}

bool keepRun(const std::filesystem::path &path, const KeptRun &run, std::string &error)
{
    RunArchive archive;
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        const auto text = readTextFile(path.string(), kMaxInputBytes, error);
        if (!text)
            return false;
        const auto loaded = loadRunArchive(*text);
        if (!loaded.ok()) {
            error = inFile(path.string(), loaded.errors.front()) + " (left as it is)";
            return false;
        }
        archive = *loaded.value;
    } else {
        std::filesystem::create_directories(path.parent_path(), ec);
    }
    archive.runs.push_back(run);
    return writeFileAtomically(path.string(), saveRunArchive(archive), error);
}

std::filesystem::path runArchivePath()
{
    const std::filesystem::path dir = userDataDirectory();
    return dir.empty() ? dir : dir / "runs.json";
}

} // namespace core::io
