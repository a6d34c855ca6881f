#include "core/io/lessonio.h"

#include "core/io/jsonreader.h"
#include "core/io/scenarioio.h"

#include <algorithm>
#include <set>

namespace core::io {

namespace {

const std::set<std::string> kQuantities = {"weights_bytes", "total_bytes",  "model_states_bytes", "activations_bytes",
                                           "term_bytes",    "params",       "gpus_needed",        "fits",
                                           "max_seq",       "max_batch",    "rule_bytes",         "utilization_percent",
                                           "throughput_ratio_percent", "mfu_percent"};

/// A lesson's scenario object (without schema_version), loaded as a file.
LoadResult<Scenario> loadScenarioObject(Json scenario, const std::vector<ModelPreset> &presets)
{
    scenario["schema_version"] = kScenarioSchemaVersion;
    return loadScenario(scenario.dump(-1, ' ', false, Json::error_handler_t::replace), presets);
}

/// A check's "with": the lesson's scenario with these keys' values in place
/// of its own (whole values: "model" replaces the lesson's model).
void readVariant(JsonReader &r, const Json &scenario, const std::vector<ModelPreset> &presets,
                 std::vector<std::string> &errors, LessonCheck &c)
{
    auto with = r.object("with", false);
    if (!with)
        return;
    Json changed = scenario;
    for (auto it = with->json().begin(); it != with->json().end(); ++it) {
        changed[it.key()] = it.value();
        c.variantText += (c.variantText.empty() ? "" : ", ") + it.key() + ": "
            + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    }
    const auto loaded = loadScenarioObject(changed, presets);
    for (const std::string &e : loaded.errors)
        errors.push_back(with->pointer() + e);
    c.variant = loaded.value;
}

LocalizedText readText(JsonReader &r, const char *key)
{
    LocalizedText text;
    auto object = r.object(key, true);
    if (!object)
        return text;
    for (auto it = object->json().begin(); it != object->json().end(); ++it) {
        if (!it.value().is_string())
            object->error(it.key().c_str(), "expected a string");
        else
            text[it.key()] = it.value().get<std::string>();
    }
    if (text.find("en") == text.end())
        r.error(key, "needs an \"en\" text");
    return text;
}

LessonCheck readCheck(JsonReader &r, const Json &scenario, const std::vector<ModelPreset> &presets,
                      std::vector<std::string> &errors)
{
    LessonCheck c;
    c.quantity = r.string("quantity", true).value_or("");
    if (!c.quantity.empty() && kQuantities.count(c.quantity) == 0)
        r.error("quantity", "'" + c.quantity + "' is not a known quantity");
    c.gpu = r.string("gpu", false).value_or("");
    c.rule = r.string("rule", false).value_or("");
    const std::string term = r.string("term", c.quantity == "term_bytes").value_or("");
    c.term = parseTermId(term);
    if (!term.empty() && !c.term)
        r.error("term", "'" + term + "' is not a term (weights, optimizer, activations, kv_cache, ...)");
    readVariant(r, scenario, presets, errors, c);
    c.expected = r.number("expected", -1e30, 1e30, false);
    c.tolerancePercent = r.number("tolerance_percent", 0, 100, false).value_or(0.5);
    c.atLeast = r.number("at_least", -1e30, 1e30, false);
    c.atMost = r.number("at_most", -1e30, 1e30, false);
    c.measured = r.number("measured", 0, 1e30, false).value_or(0);
    c.reference = r.number("reference", 0, 1e30, false).value_or(0);
    if (!c.expected && !c.atLeast && !c.atMost)
        r.error("expected", "a check needs expected, at_least or at_most");
    const bool needsGpu = c.quantity == "gpus_needed" || c.quantity == "fits" || c.quantity == "max_seq"
        || c.quantity == "max_batch" || c.quantity == "mfu_percent";
    if (needsGpu && c.gpu.empty())
        r.error("gpu", "missing; '" + c.quantity + "' is asked of one GPU");
    return c;
}

} // namespace

LoadResult<std::vector<Lesson>> loadLessons(const std::string &text, const std::vector<ModelPreset> &presets)
{
    LoadResult<std::vector<Lesson>> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object() || !json->contains("lessons") || !json->at("lessons").is_array()) {
        result.errors.push_back("/lessons: missing or not an array");
        return result;
    }
    JsonReader root(*json, "", result.errors);
    const auto version = root.uint("schema_version", 1, 1000, true);
    if (version && *version != 1)
        root.error("schema_version", "is " + std::to_string(*version) + "; this version reads 1");
    std::vector<Lesson> lessons;
    std::set<std::string> ids;
    const Json &list = json->at("lessons");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string pointer = "/lessons/" + std::to_string(i);
        if (!list[i].is_object()) {
            result.errors.push_back(pointer + ": expected an object");
            continue;
        }
        JsonReader r(list[i], pointer, result.errors);
        Lesson lesson;
        lesson.id = r.string("id", true).value_or("");
        if (!lesson.id.empty() && !ids.insert(lesson.id).second)
            r.error("id", "duplicate id '" + lesson.id + "'");
        if (list[i].contains("seed_facts") && list[i].at("seed_facts").is_array())
            for (const Json &f : list[i].at("seed_facts"))
                if (f.is_string())
                    lesson.seedFacts.push_back(f.get<std::string>());
        lesson.title = readText(r, "title");
        lesson.question = readText(r, "question");
        lesson.answer = readText(r, "answer");
        lesson.explanation = readText(r, "explanation");
        lesson.tool = r.string("tool", false).value_or("");
        const auto &tools = lessonTools();
        if (!lesson.tool.empty() && std::find(tools.begin(), tools.end(), lesson.tool) == tools.end())
            r.error("tool", "'" + lesson.tool + "' is not a tool a lesson can open");
        Json scenario = Json::object();
        if (r.object("scenario", true)) {
            scenario = list[i].at("scenario");
            const auto loaded = loadScenarioObject(scenario, presets);
            for (const std::string &e : loaded.errors)
                result.errors.push_back(pointer + "/scenario" + e);
            if (loaded.value)
                lesson.scenario = *loaded.value;
        }
        if (list[i].contains("checks") && list[i].at("checks").is_array()) {
            const Json &checks = list[i].at("checks");
            for (std::size_t k = 0; k < checks.size(); ++k) {
                if (!checks[k].is_object()) {
                    result.errors.push_back(pointer + "/checks/" + std::to_string(k) + ": expected an object");
                    continue;
                }
                JsonReader check(checks[k], pointer + "/checks/" + std::to_string(k), result.errors);
                lesson.checks.push_back(readCheck(check, scenario, presets, result.errors));
            }
        }
        lessons.push_back(std::move(lesson));
    }
    if (result.errors.empty())
        result.value = std::move(lessons);
    return result;
}

} // namespace core::io
