#pragma once

#include "core/engine/estimate.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

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
    /// term_bytes, params, gpus_needed, fits, max_seq, max_batch,
    /// rule_bytes, utilization_percent, throughput_ratio_percent, mfu_percent
    std::string quantity;
    std::string gpu;          ///< for gpus_needed, fits, max_seq, max_batch, mfu_percent
    std::string rule;         ///< for rule_bytes: a RuleCheck id
    std::optional<TermId> term; ///< for term_bytes: the component, at the peak
    /// The lesson's scenario with some settings changed for this check
    /// ("with" in the file): a lesson compares two settings this way.
    std::optional<Scenario> variant;
    std::string variantText;  ///< the changed settings as written, for display
    std::optional<double> expected;
    double tolerancePercent = 0.5;
    std::optional<double> atLeast;
    std::optional<double> atMost;
    double measured = 0;      ///< utilisation inputs (mfu_percent: tokens/s per GPU)
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
    /// A tool the lesson is about, for a button that opens it; empty or
    /// one of `lessonTools()`.
    std::string tool;
};

/// The tools a lesson may name: "utilization", the GPU utilisation calculator.
const std::vector<std::string> &lessonTools();

/// What the engine says for a check (bytes, counts, 0/1 for fits, percent).
double evaluateCheck(const Lesson &lesson, const LessonCheck &check, const Catalog &catalog);

/// Whether the engine's figure agrees with what the lesson states.
bool checkHolds(const LessonCheck &check, double value);

} // namespace core
