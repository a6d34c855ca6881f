// Hugging Face config.json: parse, then estimate inference and full training
// of the model it describes (huge or odd dimensions must saturate, not wrap).
// The same text is also read as ModelOpt's hf_quant_config.json over the
// model, so module patterns (globs, compressed-tensors regexes) get fuzzed.

#include "fuzzinput.h"

#include "core/io/hfconfig.h"
#include "core/io/quantconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text = fuzzText(data, size);
    const auto quant = core::io::readModelOptQuantFile(text);
    const auto parsed = core::io::parseHfConfig(text, "fuzz", quant.ok() ? &*quant.value : nullptr);
    if (!parsed.ok())
        return 0;
    estimateModel(*parsed.value);
    return 0;
}
