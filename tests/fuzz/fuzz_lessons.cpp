// Lesson files: load, then evaluate every check of every lesson.

#include "fuzzinput.h"

#include "core/io/builtin.h"
#include "core/io/lessonio.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto loaded = core::io::loadLessons(fuzzText(data, size), core::io::builtinPresets());
    if (!loaded.ok())
        return 0;
    for (const core::Lesson &lesson : *loaded.value)
        for (const core::LessonCheck &check : lesson.checks)
            core::evaluateCheck(lesson, check, core::io::builtinCatalog());
    return 0;
}
