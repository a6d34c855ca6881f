// GPU catalogs: load, write back as JSON, and fit a scenario against every
// GPU in it.

#include "fuzzinput.h"

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/catalogio.h"
#include "core/io/reportjson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto loaded = core::io::loadCatalog(fuzzText(data, size));
    if (!loaded.ok())
        return 0;
    core::io::catalogToJson(*loaded.value);
    core::Scenario scenario;
    scenario.model = core::io::builtinPresets().front().model;
    core::estimateWithFits(scenario, *loaded.value);
    return 0;
}
