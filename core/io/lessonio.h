#pragma once

#include "core/base/loadresult.h"
#include "core/explain/lessons.h"
#include "core/io/presets.h"

#include <string>
#include <vector>

namespace core::io {

/// Reads a lessons file (resources/lessons.json or a teacher's own; the
/// format is documented in resources/LESSONS.md). Every lesson's scenario is
/// read by the scenario-file loader, so it is validated the same way.
LoadResult<std::vector<Lesson>> loadLessons(const std::string &text, const std::vector<ModelPreset> &presets);

} // namespace core::io
