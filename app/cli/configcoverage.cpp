#include "app/cli/configcoverage.h"

#include "core/base/units.h"
#include "core/io/modelfiles.h"
#include "core/model/layerkinds.h"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace cli {

namespace {

namespace fs = std::filesystem;

/// A model's config by the names Hugging Face and the corpus use; not its
/// generation or quantisation configs.
bool isModelConfig(const fs::path &file)
{
    const std::string name = file.filename().string();
    const auto endsWith = [&name](const std::string &tail) {
        return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    return (name == "config.json" || endsWith("_config.json")) && !endsWith("hf_quant_config.json")
        && !endsWith("generation_config.json");
}

std::vector<fs::path> modelConfigs(const fs::path &folder, std::string &error)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && isModelConfig(it->path()))
            files.push_back(it->path());
    if (ec)
        error = folder.string() + ": " + ec.message();
    std::sort(files.begin(), files.end());
    return files;
}

const char *mixerName(core::MixerKind kind)
{
    switch (kind) {
    case core::MixerKind::FullAttention:
        return "full attention";
    case core::MixerKind::SlidingWindow:
        return "sliding window";
    case core::MixerKind::LinearAttention:
        return "linear attention";
    case core::MixerKind::Mamba2:
        return "Mamba-2";
    case core::MixerKind::Mamba1:
        return "Mamba";
    case core::MixerKind::None:
        return "MLP only";
    }
    return "";
}

/// The layer descriptor in one line: "10 full attention (4 KV heads of
/// 512), 50 sliding window (16 KV heads of 256, window 1024)".
std::string layerLine(const core::ModelSpec &m)
{
    std::string line;
    for (const core::LayerKind &kind : core::describeLayers(m)) {
        line += (line.empty() ? "" : ", ") + std::to_string(kind.layers) + " " + mixerName(kind.mixer);
        if (kind.mixer == core::MixerKind::Mamba2 && m.attendingMambaLayers == kind.layers)
            line += " beside their attention";
        else if (kind.mixer == core::MixerKind::Mamba2 && m.attendingMambaLayers > 0)
            line += " (" + std::to_string(m.attendingMambaLayers) + " after a shared attention block)";
        if (kind.mixer != core::MixerKind::FullAttention && kind.mixer != core::MixerKind::SlidingWindow)
            continue;
        const core::AttentionShape &a = kind.attention;
        line += " (" + std::to_string(a.kvHeads) + (a.kvHeads == 1 ? " KV head of " : " KV heads of ")
            + std::to_string(a.headDim);
        if (a.valueDim != a.headDim)
            line += ", values " + std::to_string(a.valueDim);
        if (m.isMla())
            line += ", rebuilt from a latent of " + std::to_string(m.kvLoraRank) + " + "
                + std::to_string(m.ropeHeadDim);
        if (kind.window > 0)
            line += ", window " + std::to_string(kind.window);
        if (kind.compressRatio > 0)
            line += ", an entry per " + std::to_string(kind.compressRatio) + " tokens";
        if (kind.cachingLayers < kind.layers)
            line += ", " + std::to_string(kind.cachingLayers) + " with a cache of their own";
        line += ")";
    }
    // The sparse-attention indexers (DeepSeek-V4 places its own by ratio).
    if (m.indexHeads > 0 && m.compressRatios.empty())
        line += "; " + std::to_string(m.indexerLayers > 0 ? m.indexerLayers : m.layers) + " with a "
            + (m.msaIndexer ? "MiniMax" : "DeepSeek") + " sparse-attention indexer (" + std::to_string(m.indexHeads)
            + " heads of " + std::to_string(m.indexHeadDim) + ")";
    return line;
}

const char *readingOf(const core::ModelSpec &m)
{
    if (m.familyGuessed)
        return "guessed";
    return m.shapeGuessed ? "partly guessed" : "family rules";
}

} // namespace

int runValidateConfigs(const std::string &folder, std::ostream &out, std::ostream &err)
{
    std::string error;
    const std::vector<fs::path> files = modelConfigs(folder, error);
    if (!error.empty()) {
        err << "vramplanner-cli: " << error << "\n";
        return 1;
    }
    int byRules = 0;
    int partly = 0;
    int guessed = 0;
    int refused = 0;
    out << "Configs under " << folder << "\n\n";
    for (const fs::path &file : files) {
        const auto loaded = core::io::loadModelFiles(file.string());
        out << "  " << fs::relative(file, folder).string() << "\n";
        if (!loaded.ok()) {
            ++refused;
            out << "      refused: " << loaded.errors.front() << "\n";
            continue;
        }
        const core::ModelSpec &m = loaded.value->model;
        out << "      " << m.family << ", " << core::groupDigits(core::countParameters(m).total)
            << " parameters, " << readingOf(m) << "\n";
        out << "      layers: " << layerLine(m) << "\n";
        if (m.familyGuessed)
            ++guessed;
        else if (m.shapeGuessed)
            ++partly;
        else
            ++byRules;
        if (m.guessed())
            for (const std::string &assumed : m.defaultedKeys)
                out << "      assumed " << assumed << "\n";
    }
    out << "\n" << files.size() << " configs: " << byRules << " read by their family's rules, " << partly
        << " partly guessed, " << guessed << " guessed, " << refused << " refused\n";
    return refused > 0 ? 1 : 0;
}

} // namespace cli
