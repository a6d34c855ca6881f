#pragma once

// Shared by the libFuzzer harnesses: the raw bytes as the text a loader
// would read from a file.

#include <cstddef>
#include <cstdint>
#include <string>

inline std::string fuzzText(const std::uint8_t *data, std::size_t size)
{
    return std::string(reinterpret_cast<const char *>(data), size);
}
