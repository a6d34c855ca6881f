#include "core/io/builtin.h"

#include "core/io/catalogio.h"

namespace core::io {

const Catalog &builtinCatalog()
{
    static const Catalog catalog = loadCatalog(builtinCatalogText()).value.value_or(Catalog{});
    return catalog;
}

const std::vector<ModelPreset> &builtinPresets()
{
    static const std::vector<ModelPreset> presets =
        loadPresets(builtinPresetsText()).value.value_or(std::vector<ModelPreset>{});
    return presets;
}

const ModelPreset *findPreset(const std::string &id)
{
    for (const ModelPreset &p : builtinPresets())
        if (p.id == id)
            return &p;
    return nullptr;
}

} // namespace core::io
