#pragma once

#include "core/catalog.h"
#include "core/scenario.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace core {

/// Text in several languages: "en" always, "zh_CN" and others optional.
using LocalizedText = std::map<std::string, std::string>;

/// The text for `language` ("zh_CN"), falling back to English.
const std::string &localized(const LocalizedText &text, const std::string &language);

/// A figure the lesson states and the engine must agree with.
struct LessonCheck
{
    /// weights_bytes, total_bytes, model_states_bytes, activations_bytes,
    /// params, gpus_needed, fits, max_seq, max_batch, rule_bytes,
    /// utilization_percent, throughput_ratio_percent
    std::string quantity;
    std::string gpu;          ///< for gpus_needed, fits, max_seq, max_batch
    std::string rule;         ///< for rule_bytes: a RuleCheck id
    std::optional<double> expected;
    double tolerancePercent = 0.5;
    std::optional<double> atLeast;
    std::optional<double> atMost;
    double measured = 0;      ///< utilisation inputs
    double reference = 0;
};

/// A worked example from the seed notes, as a scenario plus its story.
struct Lesson
{
    std::string id;
    std::vector<std::string> seedFacts;
    LocalizedText title;
    LocalizedText question;
    LocalizedText answer;
    LocalizedText explanation;
    Scenario scenario;
    std::vector<LessonCheck> checks;
};

/// What the engine says for a check (bytes, counts, 0/1 for fits, percent).
double evaluateCheck(const Lesson &lesson, const LessonCheck &check, const Catalog &catalog);

/// Whether the engine's figure agrees with what the lesson states.
bool checkHolds(const LessonCheck &check, double value);

} // namespace core
