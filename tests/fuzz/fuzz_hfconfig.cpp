// Hugging Face config.json: parse, then estimate inference and full training
// of the model it describes (huge or odd dimensions must saturate, not wrap).

#include "fuzzinput.h"

#include "core/estimate.h"
#include "core/io/hfconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto parsed = core::io::parseHfConfig(fuzzText(data, size), "fuzz");
    if (!parsed.ok())
        return 0;
    core::Scenario scenario;
    scenario.model = *parsed.value;
    scenario.source.kind = core::ModelSource::Kind::ConfigFile;
    core::estimate(scenario);
    scenario.mode = core::Mode::Train;
    core::estimate(scenario);
    return 0;
}
