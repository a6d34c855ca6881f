// One GGUF file: read its header, check that what loads fits the input
// (tensors share no byte and lie inside the file), then make the model its
// metadata describes and estimate inference and full training of it (huge
// or odd dimensions must saturate, not wrap).

#include "fuzzinput.h"

#include "core/io/gguf.h"
#include "core/io/ggufmodel.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto read = core::io::readGgufBytes(fuzzText(data, size), "fuzz.gguf");
    if (!read.ok())
        return 0;
    if (read.value->bytes() > size)
        std::abort();
    const auto model = core::io::modelFromGguf(*read.value);
    if (!model.ok())
        return 0;
    estimateModel(*model.value);
    return 0;
}
