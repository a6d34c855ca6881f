// Hugging Face config.json: parse, then estimate inference and full training
// of the model it describes (huge or odd dimensions must saturate, not wrap).

#include "fuzzinput.h"

#include "core/io/hfconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto parsed = core::io::parseHfConfig(fuzzText(data, size), "fuzz");
    if (!parsed.ok())
        return 0;
    estimateModel(*parsed.value);
    return 0;
}
