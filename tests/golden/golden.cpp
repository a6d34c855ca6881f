// The golden test: every command of tests/golden/corpus.txt run through the
// CLI (in process, as tst_cli does), written as one JSON line each with sorted
// keys, and compared byte for byte with tests/golden/expected.jsonl.
//
// It guards refactors: its expected values are the program's own output, so
// it says "something moved", never "this is right". A change to expected.jsonl
// is intended and explained in its commit (tests/golden/regenerate.sh).
//
//   golden_check CORPUS EXPECTED            compare; exit 1 on any difference
//   golden_check CORPUS EXPECTED --update   rewrite EXPECTED
//
// The corpus runs with the working directory set to tests/, so paths in it
// read as data/configs/... and no absolute path reaches the output.
#include "app/cli/cli.h"
#include "core/io/builtin.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct CorpusLine {
    int lineNumber = 0;
    std::string text;
};

std::vector<CorpusLine> readCorpus(const std::string &path)
{
    std::ifstream in(path);
    std::vector<CorpusLine> lines;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#')
            continue;
        lines.push_back({n, line.substr(first)});
    }
    return lines;
}

std::vector<std::string> splitWords(const std::string &text)
{
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

/// A record keeps the catalog fits of the GPUs the window shows by default
/// (default_shown: eleven cards from a 4 GiB GTX 960 to a 192 GiB MI300X,
/// Maxwell to Hopper and CDNA 3) and of the card a command chose: the other
/// catalog rows repeat them at other sizes and made the file 9 MB; the fit
/// search on every card is tst_matrix's and tst_suggest's. Within 5 MB.
void keepShownGpus(nlohmann::json &out)
{
    if (!out.is_object() || !out.contains("gpus") || !out.at("gpus").is_array())
        return;
    const std::string chosen = out.contains("scenario") && out.at("scenario").contains("gpu")
            && out.at("scenario").at("gpu").is_string()
        ? out.at("scenario").at("gpu").get<std::string>()
        : std::string();
    nlohmann::json kept = nlohmann::json::array();
    for (const nlohmann::json &gpu : out.at("gpus")) {
        const std::string id = gpu.is_object() ? gpu.value("id", std::string()) : std::string();
        const core::GpuSpec *spec = id.empty() ? nullptr : core::io::builtinCatalog().find(id);
        if (!spec || spec->defaultShown || id == chosen)
            kept.push_back(gpu);
    }
    out["gpus"] = std::move(kept);
}

/// A record keeps each derivation's formula, values, result and source, not
/// its legend: the symbols' descriptions are the same text in every record
/// (300 kB of the file), and each symbol's text is its Symbol's, covered
/// where the derivations are tested (tst_derivations). Within 5 MB.
void dropLegends(nlohmann::json &out)
{
    if (!out.is_object() || !out.contains("derivations") || !out.at("derivations").is_object())
        return;
    for (nlohmann::json &derivation : out.at("derivations"))
        if (derivation.is_object())
            derivation.erase("legend");
}

/// One corpus command as a JSON line: its arguments, exit status, stderr and
/// stdout (parsed when it is JSON, so the line's keys come out sorted).
std::string runOne(const CorpusLine &line)
{
    std::ostringstream out, err;
    const int status = cli::runCli(splitWords(line.text), out, err);
    nlohmann::json record;
    record["command"] = line.text;
    record["exit"] = status;
    record["stderr"] = err.str();
    nlohmann::json parsed = nlohmann::json::parse(out.str(), nullptr, false);
    if (parsed.is_discarded()) {
        record["stdout_text"] = out.str();
    } else {
        keepShownGpus(parsed);
        dropLegends(parsed);
        record["stdout_json"] = parsed;
    }
    return record.dump();
}

std::vector<std::string> readLines(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

/// The first JSON pointer where two records differ, for the failure message.
std::string firstDifference(const std::string &expected, const std::string &actual)
{
    const auto a = nlohmann::json::parse(expected, nullptr, false);
    const auto b = nlohmann::json::parse(actual, nullptr, false);
    if (a.is_discarded() || b.is_discarded())
        return "(not JSON)";
    const nlohmann::json patch = nlohmann::json::diff(a, b);
    if (patch.empty())
        return "(same JSON, different bytes)";
    std::string where;
    for (std::size_t i = 0; i < patch.size() && i < 5; ++i)
        where += "\n    " + patch[i].value("op", "") + " " + patch[i].value("path", "");
    if (patch.size() > 5)
        where += "\n    ... " + std::to_string(patch.size() - 5) + " more";
    return where;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::cerr << "usage: golden_check CORPUS EXPECTED [--update]\n";
        return 2;
    }
    const std::string corpusPath = std::filesystem::absolute(argv[1]).string();
    const std::string expectedPath = std::filesystem::absolute(argv[2]).string();
    const bool update = argc > 3 && std::string(argv[3]) == "--update";
    const std::vector<CorpusLine> corpus = readCorpus(corpusPath);
    if (corpus.empty()) {
        std::cerr << "golden: " << corpusPath << " holds no command\n";
        return 2;
    }
    std::filesystem::current_path(std::filesystem::path(corpusPath).parent_path().parent_path());
    // No user catalog: a developer's own gpus.json must not change a record.
    setenv("VRAMPLANNER_DATA_DIR", "golden/no-user-data", 1);

    std::vector<std::string> actual;
    actual.reserve(corpus.size());
    for (const CorpusLine &line : corpus)
        actual.push_back(runOne(line));

    if (update) {
        std::ofstream out(expectedPath, std::ios::binary | std::ios::trunc);
        for (const std::string &line : actual)
            out << line << '\n';
        out.close();
        if (!out) {
            std::cerr << "golden: could not write " << expectedPath << "\n";
            return 1;
        }
        std::cout << "golden: wrote " << actual.size() << " records to " << expectedPath << "\n";
        return 0;
    }

    const std::vector<std::string> expected = readLines(expectedPath);
    int differences = 0;
    for (std::size_t i = 0; i < corpus.size(); ++i) {
        if (i < expected.size() && expected[i] == actual[i])
            continue;
        if (++differences <= 20)
            std::cerr << "golden: corpus line " << corpus[i].lineNumber << " differs: " << corpus[i].text
                      << (i < expected.size() ? firstDifference(expected[i], actual[i]) : "\n    (no expected record)")
                      << "\n";
    }
    if (expected.size() != corpus.size())
        std::cerr << "golden: " << expected.size() << " expected records for " << corpus.size() << " commands\n";
    if (differences > 0 || expected.size() != corpus.size()) {
        std::cerr << "golden: " << differences << " of " << corpus.size()
                  << " records differ; if intended, run tests/golden/regenerate.sh and say why in the commit\n";
        return 1;
    }
    std::cout << "golden: " << corpus.size() << " records identical\n";
    return 0;
}
