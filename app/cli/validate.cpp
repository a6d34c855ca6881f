#include "app/cli/validate.h"

#include "app/cli/options.h"
#include "app/cli/scenariooptions.h"
#include "core/analysis/fit.h"
#include "core/analysis/performance.h"
#include "core/analysis/servingload.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/hfconfig.h"
#include "core/io/runarchive.h"
#include "core/io/textfile.h"
#include "core/io/validationio.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <type_traits>

namespace cli {

namespace {

struct Row
{
    std::string id;
    std::string group; ///< mode for published cases, quantity for own measurements
    double predicted = 0;
    double measured = 0;
    std::string dominant;

    double errorPercent() const { return 100.0 * (predicted - measured) / measured; }
};

/// A case's scenario from its CLI arguments. Always against the built-in
/// catalog: a user's gpus.json must not change a validation result.
std::optional<core::Scenario> scenarioFor(const std::vector<std::string> &args, const core::ModelSpec *model,
                                          std::string &error)
{
    const auto options = Options::parse(args, estimateOptionSpecs(), error);
    if (!options)
        return std::nullopt;
    return scenarioFromOptions(*options, core::io::builtinCatalog(), error, nullptr, model);
}

bool seenBy(const std::string &metric, core::TermId id)
{
    // torch.cuda.max_memory_allocated sees tensors only.
    return metric == "nvidia_smi"
        || (id != core::TermId::CudaOverhead && id != core::TermId::AllocatorReserve && id != core::TermId::CommBuffers);
}

std::string dominantTerms(const core::Estimate &e, const std::string &metric)
{
    std::vector<std::pair<std::uint64_t, core::TermId>> terms;
    for (core::TermId id : core::allTerms())
        if (seenBy(metric, id))
            terms.emplace_back(e.term(id).count(), id);
    std::sort(terms.rbegin(), terms.rend());
    return std::string(core::termId(terms[0].second)) + " " + core::termId(terms[1].second);
}

const core::PhaseTotal &phase(const core::Estimate &e, core::Phase p)
{
    for (const core::PhaseTotal &t : e.phases)
        if (t.phase == p)
            return t;
    return e.phases.front();
}

double term(const core::PhaseTotal &p, core::TermId id) { return static_cast<double>(p.terms[static_cast<std::size_t>(id)].count()); }

/// The engine's figure for a published metric.
double publishedQuantity(const core::Scenario &s, const core::Estimate &e, const std::string &metric)
{
    if (metric == "vllm_activation_peak") // one of the two is zero at the peak's moment
        return static_cast<double>((e.term(core::TermId::Workspace) + e.term(core::TermId::Logits)).count());
    if (metric == "vllm_kv_pool") {
        const auto fits = core::estimateWithFits(s, core::io::builtinCatalog(), {s.gpuId});
        return fits.fits.empty() ? 0.0
                                 : static_cast<double>(fits.fits.front().kvTokens) * e.details.kvBytesPerToken;
    }
    double predicted = static_cast<double>(e.total.count());
    for (core::TermId id : core::allTerms())
        if (!seenBy(metric, id))
            predicted -= static_cast<double>(e.term(id).count());
    return predicted;
}

/// The engine's figure for one quantity measure_torch.py records.
std::optional<double> predictedQuantity(const core::Estimate &e, const core::Scenario &s, const std::string &quantity)
{
    const core::PhaseTotal &step = phase(e, s.isTraining() ? core::Phase::OptimizerStep : core::Phase::Inference);
    const core::PhaseTotal &forward = phase(e, s.isTraining() ? core::Phase::Forward : core::Phase::Inference);
    if (quantity == "param_bytes")
        return term(step, core::TermId::Weights);
    if (quantity == "grad_bytes")
        return term(step, core::TermId::Gradients);
    if (quantity == "optimizer_bytes")
        return term(step, core::TermId::Optimizer);
    if (quantity == "saved_layer_bytes" && s.effectiveCheckpointing() == core::Checkpointing::None)
        return e.details.activationBytesPerLayer;
    if (quantity == "saved_total_bytes")
        return term(forward, core::TermId::Activations)
            + static_cast<double>(e.details.logitsTokens) * static_cast<double>(s.model.vocab) * e.details.lossSavedElementBytes;
    if (quantity == "kv_cache_bytes")
        return term(step, core::TermId::KvCache);
    // Real peaks on a GPU (measure_torch.py --cuda): what the caching
    // allocator handed out, and what it held.
    const double total = static_cast<double>(e.total.count()) - static_cast<double>(e.term(core::TermId::CudaOverhead).count())
        - static_cast<double>(e.term(core::TermId::CommBuffers).count());
    if (quantity == "max_reserved")
        return total;
    if (quantity == "max_allocated")
        return total - static_cast<double>(e.term(core::TermId::AllocatorReserve).count());
    return std::nullopt;
}

std::string fixed(double v, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
    return buffer;
}

std::string pad(std::string text, std::size_t width, bool right = false)
{
    if (text.size() >= width)
        return text;
    return right ? std::string(width - text.size(), ' ') + text : text + std::string(width - text.size(), ' ');
}

struct Stats
{
    std::size_t count = 0;
    double median = 0;
    double worst = 0;
};

Stats statsOf(std::vector<double> errors)
{
    Stats s;
    s.count = errors.size();
    if (errors.empty())
        return s;
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    s.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2.0;
    s.worst = errors.back();
    return s;
}

void printRows(std::ostream &out, const std::vector<Row> &rows, const char *groupTitle)
{
    out << pad("case", 44) << pad(groupTitle, 20) << pad("predicted", 16, true) << pad("measured", 16, true)
        << pad("error", 10, true) << "  dominant terms\n";
    for (const Row &r : rows)
        out << pad(r.id, 44) << pad(r.group, 20) << pad(core::formatBytes(core::Bytes::fromDouble(r.predicted)), 16, true)
            << pad(core::formatBytes(core::Bytes::fromDouble(r.measured)), 16, true)
            << pad((r.errorPercent() >= 0 ? "+" : "") + fixed(r.errorPercent(), 1) + " %", 10, true) << "  " << r.dominant
            << "\n";
}

std::map<std::string, Stats> statsByGroup(const std::vector<Row> &rows)
{
    std::map<std::string, std::vector<double>> errors;
    for (const Row &r : rows) {
        errors[r.group].push_back(std::abs(r.errorPercent()));
        errors["all"].push_back(std::abs(r.errorPercent()));
    }
    std::map<std::string, Stats> stats;
    for (const auto &[group, list] : errors)
        stats[group] = statsOf(list);
    return stats;
}

void printStats(std::ostream &out, const std::map<std::string, Stats> &stats)
{
    std::size_t width = 20; // the group names' column, as wide as the longest
    for (const auto &entry : stats)
        width = std::max(width, entry.first.size() + 1);
    out << pad("", 4) << pad("", width) << pad("cases", 8, true) << pad("median |error|", 18, true)
        << pad("worst |error|", 16, true) << "\n";
    for (const auto &[group, s] : stats)
        out << pad("", 4) << pad(group, width) << pad(std::to_string(s.count), 8, true)
            << pad(fixed(s.median, 1) + " %", 18, true) << pad(fixed(s.worst, 1) + " %", 16, true) << "\n";
}

/// `path` read by `load`; nullopt after naming the option, the file and
/// the problem on `err`.
template <typename Load>
auto loadFile(const std::string &path, const char *option, Load load, std::ostream &err)
    -> std::optional<std::decay_t<decltype(*load(std::string()).value)>>
{
    std::string error;
    const auto text = core::io::readTextFile(path, core::kMaxInputBytes, error);
    if (!text) {
        err << "vramplanner-cli: --" << option << ": " << error << "\n";
        return std::nullopt;
    }
    auto loaded = load(*text);
    if (!loaded.ok()) {
        err << "vramplanner-cli: --" << option << ": " << core::inFile(path, loaded.errors.front()) << "\n";
        return std::nullopt;
    }
    return std::move(*loaded.value);
}

} // namespace

int runValidateServing(const std::string &path, std::ostream &out, std::ostream &err)
{
    const auto cases = loadFile(path, "serving", core::io::loadServingTimeCases, err);
    if (!cases)
        return 2;
    std::string error;
    std::vector<Row> rows;
    bool roofline = true;
    for (const core::io::ServingTimeCase &c : *cases) {
        const auto scenario = scenarioFor(c.args, nullptr, error);
        const auto e = scenario ? std::optional(core::estimate(*scenario)) : std::nullopt;
        const core::GpuSpec *gpu = scenario ? core::io::builtinCatalog().find(scenario->gpuId) : nullptr;
        if (!e || !e->isValid() || !gpu) {
            err << "vramplanner-cli: case " << c.id << ": "
                << (!e ? error : !e->isValid() ? core::render(e->errors.front()) : std::string("needs --gpu")) << "\n";
            return 1;
        }
        const core::Performance p = core::performance(*scenario, *e, *gpu);
        // Under load: one replica of the case's GPUs at its request rate.
        const core::ReplicaLoad load =
            core::replicaLoad(core::ReplicaModel::of(*scenario, *e, *gpu), scenario->workload.requestRate);
        const double planned = c.metric == "ttft_seconds" ? p.ttftSeconds
            : c.metric == "prefill_tokens_per_second"     ? p.prefillTokensPerSecond
            : c.metric == "loaded_ttft_seconds"           ? load.ttftSeconds
            : c.metric == "loaded_tpot_seconds"           ? load.tpotSeconds
                                                          : p.decodeTokensPerSecondPerSequence;
        roofline = roofline && (c.metric != "decode_tokens_per_second" || planned >= c.measured);
        rows.push_back({c.id, c.metric, planned, c.measured, ""});
    }
    out << "Published serving benchmarks (" << path << ")\n\n"
        << pad("case", 48) << pad("metric", 28) << pad("planned", 12, true) << pad("measured", 12, true)
        << pad("error", 10, true) << "\n";
    for (const Row &r : rows)
        out << pad(r.id, 48) << pad(r.group, 28) << pad(fixed(r.predicted, r.predicted < 10 ? 3 : 1), 12, true)
            << pad(fixed(r.measured, r.measured < 10 ? 3 : 1), 12, true)
            << pad((r.errorPercent() >= 0 ? "+" : "") + fixed(r.errorPercent(), 1) + " %", 10, true) << "\n";
    out << "\n";
    printStats(out, statsByGroup(rows));
    if (!roofline)
        out << "\nA decode roofline is slower than its measurement.\n";
    return roofline ? 0 : 1;
}

int runValidate(const std::string &publishedPath, const std::string &measuredPath, std::ostream &out, std::ostream &err)
{
    const auto published = loadFile(publishedPath, "published", core::io::loadPublishedCases, err);
    if (!published)
        return 2;
    const auto measured = loadFile(measuredPath, "measured", core::io::loadMeasuredRun, err);
    if (!measured)
        return 2;
    std::string error;

    std::vector<Row> publishedRows;
    for (const core::io::PublishedCase &c : *published) {
        const auto scenario = scenarioFor(c.args, nullptr, error);
        const auto e = scenario ? std::optional(core::estimate(*scenario)) : std::nullopt;
        if (!e || !e->isValid()) {
            err << "vramplanner-cli: case " << c.id << ": " << (e ? core::render(e->errors.front()) : error) << "\n";
            return 1;
        }
        const double predicted = publishedQuantity(*scenario, *e, c.metric);
        publishedRows.push_back({c.id, c.mode, predicted, static_cast<double>(c.measuredBytes), dominantTerms(*e, c.metric)});
    }

    std::vector<Row> ownRows;
    for (const core::io::MeasuredCase &c : measured->cases) {
        const auto model = core::io::parseHfConfig(c.configText, c.id);
        if (!model.ok()) {
            err << "vramplanner-cli: case " << c.id << ": " << core::inFile("config", model.errors.front()) << "\n";
            return 1;
        }
        const auto scenario = scenarioFor(c.args, &*model.value, error);
        if (!scenario) {
            err << "vramplanner-cli: case " << c.id << ": " << error << "\n";
            return 1;
        }
        const core::Estimate e = core::estimate(*scenario);
        for (const auto &[quantity, bytes] : c.measured) {
            const auto predicted = predictedQuantity(e, *scenario, quantity);
            if (predicted && bytes > 0)
                ownRows.push_back({c.id, quantity, *predicted, static_cast<double>(bytes), ""});
        }
    }

    out << "Published measurements (" << publishedPath << ")\n\n";
    printRows(out, publishedRows, "mode");
    const auto publishedStats = statsByGroup(publishedRows);
    out << "\n";
    printStats(out, publishedStats);
    out << "\nOwn exact measurements (" << measuredPath << "; " << measured->device << ", torch "
        << measured->torchVersion << ")\n\n";
    printRows(out, ownRows, "quantity");
    const auto ownStats = statsByGroup(ownRows);
    out << "\n";
    printStats(out, ownStats);

    bool ok = publishedStats.at("all").median <= 15.0;
    // Adapter training, each case run with its stack and versions.
    for (const char *mode : {"lora", "qlora"}) {
        const auto it = publishedStats.find(mode);
        if (it != publishedStats.end() && (it->second.median > 5.0 || it->second.worst > 15.0))
            ok = false;
    }
    for (const auto &[group, s] : ownStats) {
        const bool exact = group == "param_bytes" || group == "grad_bytes" || group == "optimizer_bytes"
            || group == "kv_cache_bytes";
        const bool activations = group == "saved_layer_bytes" || group == "saved_total_bytes";
        if (exact && s.worst > 0.0)
            ok = false;
        if (activations && (s.median > 5.0 || s.worst > 10.0))
            ok = false;
        // Whole-GPU peaks: the issue's 5 % target on the project's own measurements.
        if ((group == "max_allocated" || group == "max_reserved") && s.median > 5.0)
            ok = false;
    }
    out << "\nTargets (published median <= 15 %, LoRA and QLoRA median <= 5 % and worst <= 15 %; own: states "
           "exact, activations median <= 5 %, worst <= 10 %): "
        << (ok ? "met" : "NOT met") << "\n";
    return ok ? 0 : 1;
}

int runValidateMine(std::ostream &out, std::ostream &err)
{
    const std::filesystem::path path = core::io::runArchivePath();
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) {
        out << "No kept runs yet: 'vramplanner-cli compare --log FILE ... --keep' adds one"
            << (path.empty() ? "" : " to " + path.string()) << ".\n";
        return 0;
    }
    std::string error;
    const auto text = core::io::readTextFile(path.string(), core::kMaxInputBytes, error);
    const auto archive = text ? core::io::loadRunArchive(*text) : core::LoadResult<core::io::RunArchive>{};
    if (!archive.ok()) {
        err << "vramplanner-cli: " << (text ? core::inFile(path.string(), archive.errors.front()) : error) << "\n";
        return 1;
    }
    std::vector<Row> rows;
    for (std::size_t i = 0; i < archive.value->runs.size(); ++i) {
        const core::io::KeptRun &run = archive.value->runs[i];
        const std::string id = "#" + std::to_string(i + 1) + " " + run.created + " " + run.engine
            + (run.gpuId.empty() ? "" : " " + run.gpuId);
        for (const core::io::KeptRow &r : run.rows)
            rows.push_back({id + (r.device.empty() ? "" : " " + r.device), r.quantity,
                            static_cast<double>(r.plannedBytes), static_cast<double>(r.measuredBytes), r.term});
    }
    out << "Your runs (" << path.string() << ", " << archive.value->runs.size() << " kept)\n\n";
    for (std::size_t i = 0; i < archive.value->runs.size(); ++i)
        out << "  #" << i + 1 << " " << archive.value->runs[i].scenario << " (" << archive.value->runs[i].log << ")\n";
    out << "\n";
    printRows(out, rows, "quantity");
    if (!rows.empty()) {
        out << "\n";
        printStats(out, statsByGroup(rows));
    }
    return 0;
}

} // namespace cli
