// Scenario files: load, then run everything the GUI and CLI run on a loaded
// scenario (estimate, fits, derivations, JSON report). A name with invalid
// UTF-8 or a value at a limit must not crash any of them.

#include "fuzzinput.h"

#include "core/explain/explain.h"
#include "core/explain/report.h"
#include "core/io/builtin.h"
#include "core/io/reportjson.h"
#include "core/io/scenarioio.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto loaded = core::io::loadScenario(fuzzText(data, size), core::io::builtinPresets());
    if (!loaded.ok())
        return 0;
    const auto &catalog = core::io::builtinCatalog();
    const auto result = core::estimateWithFits(*loaded.value, catalog);
    for (core::TermId term : core::allTerms())
        core::explainTerm(*loaded.value, result.estimate, term);
    core::io::estimateToJson(*loaded.value, result, catalog);
    core::markdownReport(*loaded.value, result, catalog, core::ReportMeta{});
    core::csvReport(*loaded.value, result, catalog, core::ReportMeta{});
    core::io::loadScenario(core::io::saveScenario(*loaded.value), core::io::builtinPresets());
    return 0;
}
