#pragma once

#include "core/base/loadresult.h"
#include "core/io/presets.h"
#include "core/scenario/scenario.h"

#include <string>
#include <vector>

namespace core::io {

/// The versioned scenario file the GUI opens and `--save-scenario` writes.
/// It stores every input and the model's architecture, so a scenario made
/// from a config.json still opens when that file has moved.
constexpr int kScenarioSchemaVersion = 1;

std::string saveScenario(const Scenario &scenario);

/// `presets` resolves a preset source saved without an architecture.
LoadResult<Scenario> loadScenario(const std::string &text, const std::vector<ModelPreset> &presets = {});

/// Fills in the draft model's architecture from its preset id where
/// `presets` has it; an unknown id stays unresolved, which
/// validateScenario reports ("draft.preset: 'x' is not a model preset").
void resolveDraft(Scenario &scenario, const std::vector<ModelPreset> &presets);

} // namespace core::io
