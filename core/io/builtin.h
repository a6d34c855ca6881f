#pragma once

#include "core/catalog.h"
#include "core/io/presets.h"
#include "core/lessons.h"

#include <string>
#include <vector>

namespace core::io {

/// The catalog and presets compiled into the program from resources/.
/// Loaded once; the build's tests guarantee they parse.
const Catalog &builtinCatalog();
const std::vector<ModelPreset> &builtinPresets();
const ModelPreset *findPreset(const std::string &id);
const std::vector<Lesson> &builtinLessons();

/// Raw text of the embedded files (generated at configure time).
const std::string &builtinCatalogText();
const std::string &builtinPresetsText();
const std::string &builtinLessonsText();

} // namespace core::io
