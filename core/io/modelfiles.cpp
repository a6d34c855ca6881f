#include "core/io/modelfiles.h"

#include "core/base/units.h"
#include "core/io/gguf.h"
#include "core/io/ggufmodel.h"
#include "core/io/hfconfig.h"
#include "core/io/quantconfig.h"
#include "core/io/safetensors.h"
#include "core/io/textfile.h"
#include "core/model/formats.h"

#include <filesystem>

namespace core::io {

namespace {

namespace fs = std::filesystem;

bool hasExtension(const fs::path &path, const char *extension)
{
    std::string ext = path.extension().string();
    for (char &c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == extension;
}

/// Whether a folder holds safetensors weights (an index or a shard).
bool holdsSafetensors(const fs::path &folder)
{
    std::error_code ec;
    if (fs::exists(folder / "model.safetensors.index.json", ec))
        return true;
    for (const auto &entry : fs::directory_iterator(folder, ec))
        if (hasExtension(entry.path(), ".safetensors"))
            return true;
    return false;
}

/// `from`'s errors and warnings into `to`, each prefixed with the file it
/// is about where they name only a JSON pointer.
template <typename T, typename U>
void carryProblems(const LoadResult<T> &from, LoadResult<U> &to, const std::string &file = {})
{
    for (const std::string &e : from.errors)
        to.errors.push_back(file.empty() ? e : inFile(file, e));
    for (const std::string &w : from.warnings)
        to.warnings.push_back(file.empty() ? w : inFile(file, w));
}

/// A plain 16/32-bit checkpoint stores one element per parameter; a count
/// that differs says the config and the files describe different models.
void compareCounts(const ModelFiles &files, const std::string &path, std::vector<std::string> &warnings)
{
    // A GGUF's general.file_type may name a 16/32-bit type: plain too.
    const auto format = parseFormat(files.model.checkpointFormat);
    const bool plain = files.model.checkpointFormat.empty()
        || (format && (*format == WeightFormat::Fp32 || *format == WeightFormat::Fp16 || *format == WeightFormat::Bf16));
    if (!files.checkpoint || !plain)
        return;
    const std::uint64_t stored = files.checkpoint->elements();
    const std::uint64_t counted = countParameters(files.model).total;
    if (stored != counted)
        warnings.push_back(inFile(path, "the files hold " + groupDigits(stored) + " weight elements; the architecture "
                                        "read from the config counts " + groupDigits(counted)
                                        + " parameters; the weights term uses the files' bytes"));
}

LoadResult<ModelFiles> loadGguf(const std::string &path)
{
    LoadResult<ModelFiles> result;
    const LoadResult<WeightInventory> inventory = readGguf(path);
    carryProblems(inventory, result);
    if (!inventory.ok())
        return result;
    LoadResult<ModelSpec> model = modelFromGguf(*inventory.value);
    carryProblems(model, result, path);
    if (!model.ok())
        return result;
    ModelFiles files{*model.value, summarizeCheckpoint(*inventory.value, *model.value)};
    compareCounts(files, path, result.warnings);
    result.value = std::move(files);
    return result;
}

LoadResult<ModelFiles> loadHuggingFace(const fs::path &config, const fs::path &weights)
{
    LoadResult<ModelFiles> result;
    std::string error;
    const auto text = readTextFile(config.string(), kMaxInputBytes, error);
    if (!text) {
        result.errors.push_back(error);
        return result;
    }
    // A config.json is named after its folder (the Hub repository's name); a
    // config saved under a name of its own ("qwen3-8b.json" in Downloads),
    // after that name.
    const std::string name =
        config.filename() == "config.json" ? config.parent_path().filename().string() : config.stem().string();
    LoadResult<ModelSpec> model = parseHfConfig(*text, name);
    carryProblems(model, result, config.string());
    if (!model.ok())
        return result;
    // ModelOpt (NVIDIA's NVFP4 and FP8 checkpoints) states the format in
    // hf_quant_config.json beside config.json when config.json does not:
    // read then (and only then may its problems stop the load), and the
    // config read again with it, so its modules are tested layer by layer.
    const fs::path modelOpt = config.parent_path() / "hf_quant_config.json";
    std::error_code ec;
    if (model.value->checkpointFormat.empty() && fs::exists(modelOpt, ec)) {
        const auto quantText = readTextFile(modelOpt.string(), kMaxInputBytes, error);
        if (!quantText) {
            result.errors.push_back(error);
            return result;
        }
        const LoadResult<CheckpointQuantization> quant = readModelOptQuantFile(*quantText);
        carryProblems(quant, result, modelOpt.string());
        if (!quant.ok())
            return result;
        model = parseHfConfig(*text, name, &*quant.value);
        if (!model.ok())
            return result;
    }
    ModelFiles files{*model.value, std::nullopt};
    if (!weights.empty()) {
        const LoadResult<WeightInventory> inventory = readSafetensors(weights.string());
        carryProblems(inventory, result);
        if (!inventory.ok())
            return result;
        files.checkpoint = summarizeCheckpoint(*inventory.value, files.model);
    }
    compareCounts(files, weights.string(), result.warnings);
    result.value = std::move(files);
    return result;
}

} // namespace

LoadResult<ModelFiles> loadModelFiles(const std::string &path)
{
    const fs::path p(path);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        if (!fs::exists(p / "config.json", ec))
            return {std::nullopt, {inFile(path, "no config.json in this folder; open the folder of a Hugging Face "
                                                "model, a config.json or a .gguf file")}, {}};
        return loadHuggingFace(p / "config.json", holdsSafetensors(p) ? p : fs::path());
    }
    if (hasExtension(p, ".gguf"))
        return loadGguf(path);
    if (hasExtension(p, ".safetensors")) {
        const fs::path config = p.parent_path() / "config.json";
        if (!fs::exists(config, ec))
            return {std::nullopt, {inFile(path, "no config.json beside this file; the architecture comes from it")}, {}};
        return loadHuggingFace(config, p);
    }
    return loadHuggingFace(p, fs::path());
}

} // namespace core::io
