#include "core/io/presets.h"

#include "core/io/hfconfig.h"
#include "core/io/jsonreader.h"

#include <set>

namespace core::io {

LoadResult<std::vector<ModelPreset>> loadPresets(const std::string &text)
{
    LoadResult<std::vector<ModelPreset>> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object() || !json->contains("models") || !json->at("models").is_array()) {
        result.errors.push_back("/models: missing or not an array");
        return result;
    }
    JsonReader root(*json, "", result.errors);
    const auto version = root.uint("schema_version", 1, 1000, true);
    if (version && *version != 1)
        root.error("schema_version", "is " + std::to_string(*version) + "; this version reads schema_version 1");
    std::vector<ModelPreset> presets;
    std::set<std::string> ids;
    const Json &models = json->at("models");
    for (std::size_t i = 0; i < models.size(); ++i) {
        const std::string pointer = "/models/" + std::to_string(i);
        if (!models[i].is_object()) {
            result.errors.push_back(pointer + ": expected an object");
            continue;
        }
        JsonReader entry(models[i], pointer, result.errors);
        ModelPreset preset;
        preset.id = entry.string("id", true).value_or("");
        preset.name = entry.string("name", true).value_or(preset.id);
        preset.hfRepo = entry.string("hf_repo", false).value_or("");
        preset.source = entry.string("source", true).value_or("");
        preset.paramsPublished = entry.uint("params_published", 1, 1ull << 50, false);
        preset.paramsActivePublished = entry.uint("params_active_published", 1, 1ull << 50, false);
        if (!preset.id.empty() && !ids.insert(preset.id).second)
            entry.error("id", "duplicate id '" + preset.id + "'");
        if (!entry.has("config") || !models[i].at("config").is_object()) {
            entry.error("config", "missing; expected the model's config.json object");
            continue;
        }
        LoadResult<ModelSpec> config = parseHfConfig(models[i].at("config").dump(), preset.name);
        for (const std::string &e : config.errors)
            result.errors.push_back(pointer + "/config" + e);
        if (config.value) {
            preset.model = std::move(*config.value);
            presets.push_back(std::move(preset));
        }
    }
    if (result.errors.empty())
        result.value = std::move(presets);
    return result;
}

const ModelPreset *findPresetIn(const std::vector<ModelPreset> &presets, const std::string &id)
{
    for (const ModelPreset &p : presets)
        if (p.id == id)
            return &p;
    return nullptr;
}

} // namespace core::io
