#include "core/io/validationio.h"

#include "core/io/jsonreader.h"

namespace core::io {

namespace {

std::vector<std::string> readArgs(const Json &entry, const std::string &pointer, std::vector<std::string> &errors)
{
    std::vector<std::string> args;
    if (!entry.contains("args") || !entry.at("args").is_array()) {
        errors.push_back(pointer + "/args: missing or not an array");
        return args;
    }
    for (const Json &a : entry.at("args")) {
        if (!a.is_string()) {
            errors.push_back(pointer + "/args: every argument must be a string");
            return {};
        }
        args.push_back(a.get<std::string>());
    }
    return args;
}

/// Calls `read` for each object in root[key], with its JSON pointer.
template <typename Read>
bool forEachCase(const Json &root, std::vector<std::string> &errors, Read read)
{
    if (!root.is_object() || !root.contains("cases") || !root.at("cases").is_array()) {
        errors.push_back("/cases: missing or not an array");
        return false;
    }
    const Json &cases = root.at("cases");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string pointer = "/cases/" + std::to_string(i);
        if (!cases[i].is_object())
            errors.push_back(pointer + ": expected an object");
        else
            read(cases[i], pointer);
    }
    return true;
}

} // namespace

namespace {

/// A file of cases: each read by `readCase` from its JSON object; the list
/// only when every case read.
template <typename Case, typename ReadCase>
LoadResult<std::vector<Case>> loadCases(const std::string &text, ReadCase readCase)
{
    LoadResult<std::vector<Case>> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    std::vector<Case> cases;
    forEachCase(*json, result.errors, [&](const Json &entry, const std::string &pointer) {
        JsonReader r(entry, pointer, result.errors);
        Case c = readCase(r);
        if (auto source = r.object("source", false))
            c.source = source->string("url", false).value_or("");
        c.args = readArgs(entry, pointer, result.errors);
        cases.push_back(std::move(c));
    });
    if (result.errors.empty())
        result.value = std::move(cases);
    return result;
}

} // namespace

LoadResult<std::vector<PublishedCase>> loadPublishedCases(const std::string &text)
{
    return loadCases<PublishedCase>(text, [](JsonReader &r) {
        PublishedCase c;
        c.id = r.string("id", true).value_or("");
        c.mode = r.string("mode", true).value_or("");
        c.metric = r.string("metric", true).value_or("");
        if (c.metric != "nvidia_smi" && c.metric != "torch_allocated" && c.metric != "vllm_kv_pool"
            && c.metric != "vllm_activation_peak")
            r.error("metric", "must be nvidia_smi, torch_allocated, vllm_kv_pool or vllm_activation_peak");
        if (auto measured = r.object("measured", true))
            c.measuredBytes = measured->uint("bytes", 1, 1ull << 50, true).value_or(0);
        return c;
    });
}

LoadResult<std::vector<ServingTimeCase>> loadServingTimeCases(const std::string &text)
{
    return loadCases<ServingTimeCase>(text, [](JsonReader &r) {
        ServingTimeCase c;
        c.id = r.string("id", true).value_or("");
        c.metric = r.string("metric", true).value_or("");
        if (c.metric != "decode_tokens_per_second" && c.metric != "ttft_seconds" && c.metric != "prefill_tokens_per_second"
            && c.metric != "loaded_ttft_seconds" && c.metric != "loaded_tpot_seconds")
            r.error("metric", "must be decode_tokens_per_second, ttft_seconds, prefill_tokens_per_second, "
                              "loaded_ttft_seconds or loaded_tpot_seconds");
        c.measured = r.number("measured", 1e-9, 1e9, true).value_or(0);
        return c;
    });
}

LoadResult<MeasuredRun> loadMeasuredRun(const std::string &text)
{
    LoadResult<MeasuredRun> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    MeasuredRun run;
    if (json->is_object()) {
        JsonReader root(*json, "", result.errors);
        run.device = root.string("device", true).value_or("");
        run.torchVersion = root.string("torch_version", false).value_or("");
    }
    forEachCase(*json, result.errors, [&](const Json &entry, const std::string &pointer) {
        JsonReader r(entry, pointer, result.errors);
        MeasuredCase c;
        c.id = r.string("id", true).value_or("");
        if (r.object("config", true))
            c.configText = entry.at("config").dump(-1, ' ', false, Json::error_handler_t::replace);
        c.args = readArgs(entry, pointer, result.errors);
        if (auto measured = r.object("measured", true))
            for (auto it = entry.at("measured").begin(); it != entry.at("measured").end(); ++it)
                if (auto value = measured->uint(it.key().c_str(), 0, 1ull << 50, true))
                    c.measured[it.key()] = *value;
        run.cases.push_back(std::move(c));
    });
    if (result.errors.empty())
        result.value = std::move(run);
    return result;
}

} // namespace core::io
