// Model preset files: load, then estimate each preset's model.

#include "fuzzinput.h"

#include "core/engine/estimate.h"
#include "core/io/presets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto loaded = core::io::loadPresets(fuzzText(data, size));
    if (!loaded.ok())
        return 0;
    for (const core::io::ModelPreset &preset : *loaded.value) {
        core::Scenario scenario;
        scenario.model = preset.model;
        core::estimate(scenario);
    }
    return 0;
}
