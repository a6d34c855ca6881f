#pragma once

#include "core/io/builtin.h"
#include "core/scenario/scenario.h"

namespace testsupport {

/// A scenario of the built-in preset `id` with every other input at its
/// default (inference).
inline core::Scenario presetScenario(const char *id)
{
    const core::io::ModelPreset *preset = core::io::findPreset(id);
    core::Scenario s;
    s.model = preset->model;
    s.source = {core::ModelSource::Kind::Preset, preset->id, "", 0};
    return s;
}

} // namespace testsupport
