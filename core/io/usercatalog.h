#pragma once

#include "core/model/catalog.h"

#include <filesystem>
#include <string>
#include <vector>

namespace core::io {

/// Where the user's own files live, so they survive upgrades and
/// reinstalls: VRAMPLANNER_DATA_DIR when set, else the platform's per-user
/// data folder (XDG Base Directory spec on Linux: $XDG_DATA_HOME or
/// ~/.local/share; %APPDATA% on Windows; ~/Library/Application Support on
/// macOS), plus "vramplanner". Empty when none of these is known.
std::filesystem::path userDataDirectory();

/// The user's GPU catalog additions: `gpus.json` in userDataDirectory().
std::filesystem::path userCatalogPath();

/// The catalog both programs use: the built-in GPUs plus the user's
/// gpus.json (same format as resources/gpus.json). A user entry with a new id
/// is added; one with a built-in id replaces that entry. A missing file is
/// normal; a file that fails to load leaves the built-in catalog and its
/// problems in `problems`, each naming the file and the JSON pointer.
struct ActiveCatalog
{
    Catalog catalog;
    std::vector<std::string> problems;
    std::size_t userEntries = 0;
};
ActiveCatalog loadActiveCatalog();

/// `base` with `overrides` applied by id (replace, else append).
Catalog mergeCatalogs(const Catalog &base, const Catalog &overrides);

} // namespace core::io
