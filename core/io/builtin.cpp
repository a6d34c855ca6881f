#include "core/io/builtin.h"

#include "core/io/builtintables.h"
#include "core/io/lessonio.h"

namespace core::io {

const Catalog &builtinCatalog()
{
    static const Catalog catalog = builtinCatalogTable();
    return catalog;
}

const std::vector<ModelPreset> &builtinPresets()
{
    static const std::vector<ModelPreset> presets = builtinPresetsTable();
    return presets;
}

const std::vector<Lesson> &builtinLessons()
{
    static const std::vector<Lesson> lessons =
        loadLessons(builtinLessonsText(), builtinPresets()).value.value_or(std::vector<Lesson>{});
    return lessons;
}

const ModelPreset *findPreset(const std::string &id)
{
    for (const ModelPreset &p : builtinPresets())
        if (p.id == id)
            return &p;
    return nullptr;
}

} // namespace core::io
