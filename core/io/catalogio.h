#pragma once

#include "core/base/loadresult.h"
#include "core/model/catalog.h"

#include <string>

namespace core::io {

/// Reads a GPU catalog (`resources/gpus.json`, schema_version 1). Every entry
/// needs an id (unique), a name and memory_bytes; other fields are optional.
LoadResult<Catalog> loadCatalog(const std::string &text);

} // namespace core::io
