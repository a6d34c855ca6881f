// One safetensors file: read its header as a checkpoint and total it by
// dtype. What loads must fit the input: tensors share no byte and lie in
// the data section, so their bytes never sum past the file's size.

#include "fuzzinput.h"

#include "core/io/safetensors.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto read = core::io::readSafetensorsBytes(fuzzText(data, size), "fuzz.safetensors");
    if (!read.ok())
        return 0;
    std::uint64_t byDtype = 0;
    for (const core::DtypeTotal &row : read.value->byDtype())
        byDtype += row.bytes;
    if (read.value->bytes() > size || byDtype != read.value->bytes())
        std::abort();
    return 0;
}
