#pragma once

#include "core/model/weightinventory.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core {

/// The CPU that runs llama.cpp's host layers, as ggml's CPU backend tells
/// them apart when it picks a weight's buffer (ggml-cpu.cpp
/// ggml_backend_cpu_get_extra_buffer_types, llama.cpp 0.4.0): x86 with AVX2
/// (most desktops), x86 with AMX (Xeon 4th generation and later), 64-bit
/// Arm with dot-product and int8 matrix instructions, or none of these
/// (--no-repack, or another CPU).
enum class CpuBuild { Avx2, Amx, Arm, None };
inline constexpr std::size_t kCpuBuilds = 4;

struct CpuBuildInfo
{
    CpuBuild build;
    const char *id;
    const char *label; ///< translatable (context "Field")
};
const std::vector<CpuBuildInfo> &allCpuBuilds();
std::optional<CpuBuild> parseCpuBuild(const std::string &id);
const char *cpuBuildId(CpuBuild build);

/// Bytes the CPU backend of `build` allocates for `t` in an extra buffer
/// (CPU_REPACK, AMX) beside the mapped file when `t` stays on the host: 0
/// for a tensor it reads from the mapping. The rule is ggml's own:
/// repack.cpp ggml_repack_get_optimal_repack_type and the AMX buffer's
/// supports_op and get_alloc_size (amx/amx.cpp, amx/mmq.cpp).
std::uint64_t cpuBufferCopy(const StoredTensor &t, CpuBuild build);

} // namespace core
