// Hugging Face config.json: parse, then estimate inference and full training
// of the model it describes (huge or odd dimensions must saturate, not wrap).
// The same text is also read as ModelOpt's hf_quant_config.json over the
// model, so module patterns (globs, compressed-tensors regexes) get fuzzed.

#include "fuzzinput.h"

#include "core/io/hfconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto parsed = core::io::parseHfConfig(fuzzText(data, size), "fuzz");
    if (!parsed.ok())
        return 0;
    core::ModelSpec model = *parsed.value;
    std::vector<std::string> errors, warnings;
    core::io::applyModelOptQuantConfig(fuzzText(data, size), model, errors, warnings);
    estimateModel(model);
    return 0;
}
