#pragma once

// Internal to core/io: the built-in catalog and presets as C++ tables,
// generated at build time by vramplanner-tablegen (core/tablegen/) from
// resources/gpus.json and resources/models.json with the same loaders that
// read users' files. Building them costs microseconds; parsing the JSON at
// every start cost most of a CLI run (see BENCHMARKS.md).

#include "core/io/presets.h"
#include "core/model/catalog.h"

#include <vector>

namespace core::io {

Catalog builtinCatalogTable();
std::vector<ModelPreset> builtinPresetsTable();

} // namespace core::io
