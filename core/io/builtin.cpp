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

const ModelPreset *findPreset(const std::string &id) { return findPresetIn(builtinPresets(), id); }

} // namespace core::io
