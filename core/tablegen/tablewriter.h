#pragma once

#include "core/io/presets.h"
#include "core/model/catalog.h"

#include <ostream>
#include <vector>

namespace core::tablegen {

/// Writes the C++ source defining core::io::builtinCatalogTable() and
/// core::io::builtinPresetsTable() (declared in core/io/builtintables.h):
/// the values the JSON loaders produced, as code, so the programs parse no
/// JSON at start-up. Every member of GpuSpec, ModelPreset and ModelSpec must
/// appear here; tst_loaders compares each table entry, member by member, with
/// what the loaders read from resources/.
void writeBuiltinTables(std::ostream &out, const Catalog &catalog, const std::vector<io::ModelPreset> &presets);

} // namespace core::tablegen
