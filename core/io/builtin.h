#pragma once

#include "core/explain/lessons.h"
#include "core/io/presets.h"
#include "core/model/catalog.h"

#include <string>
#include <vector>

namespace core::io {

/// The catalog and presets compiled into the program from resources/
/// (as C++ tables: the build fails if the loaders reject the files), and
/// the lessons (parsed on first use; the build's tests guarantee they load).
const Catalog &builtinCatalog();
const std::vector<ModelPreset> &builtinPresets();
const ModelPreset *findPreset(const std::string &id);
const std::vector<Lesson> &builtinLessons();

/// Raw text of the embedded lessons file (generated at configure time).
const std::string &builtinLessonsText();

} // namespace core::io
