#include "core/model/cpubuffers.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"

#include <algorithm>
#include <iterator>

namespace core {

namespace {

/// A weight a matrix multiplication reads (MUL_MAT, or MUL_MAT_ID for the
/// routed experts' 3-D stacks): only those have repacked kernels. The
/// embeddings are read by GET_ROWS, the norms and biases are 1-D.
bool isMatmulWeight(const StoredTensor &t)
{
    const bool named = t.name.size() > 7 && t.name.compare(t.name.size() - 7, 7, ".weight") == 0;
    return named && (t.shape.size() == 2 || t.shape.size() == 3) && t.name.find("embd") == std::string::npos;
}

/// A repack rule: the weight type and the multiple its rows (ne[1], the
/// output features) must be of.
struct Repack
{
    const char *type;
    std::uint64_t rowMultiple;
};

/// ggml_repack_get_optimal_repack_type: x86 with AVX2 interleaves 8 rows
/// of Q4_0, Q4_K, IQ4_NL and MXFP4; Arm with i8mm / dotprod 4 rows of
/// Q4_0, IQ4_NL, Q8_0 and MXFP4, 8 of the K quants. A repacked tensor
/// keeps its byte size (the buffer's get_alloc_size is ggml_nbytes).
constexpr Repack kAvx2[] = {{"Q4_0", 8}, {"Q4_K", 8}, {"IQ4_NL", 8}, {"MXFP4", 8}};
constexpr Repack kArm[] = {{"Q4_0", 4}, {"Q4_K", 8}, {"Q5_K", 8}, {"Q6_K", 8},
                           {"IQ4_NL", 4}, {"Q8_0", 4}, {"MXFP4", 4}};
/// The AVX-512 builds add Q2_K (8 rows) to AVX2's list.
constexpr Repack kAvx512Extra[] = {{"Q2_K", 8}};

template <std::size_t N>
bool repacks(const Repack (&rules)[N], const StoredTensor &t, std::uint64_t rows)
{
    return std::any_of(std::begin(rules), std::end(rules),
                       [&](const Repack &r) { return t.dtype == r.type && rows % r.rowMultiple == 0; });
}

/// The AMX buffer (amx.cpp supports_op, mmq.cpp get_row_size): 2-D
/// weights whose output features are a multiple of 32 and whose input
/// features are a multiple of the type's block, in Q4_0/Q4_1/Q8_0, the K
/// quants Q4_K/Q5_K/Q6_K, IQ4_XS or F16; each block gains Q8_0's int32
/// compensation, Q4_K/Q5_K's 4 bytes of scales or IQ4_XS's 2.
struct AmxType
{
    const char *type;
    std::uint64_t blockElements;
    std::uint64_t blockBytes;
    std::uint64_t extraPerBlock;
    std::uint64_t alignment; ///< ne[0] multiple
};
constexpr AmxType kAmx[] = {
    {"Q4_0", 32, 18, 0, 32},   {"Q4_1", 32, 20, 0, 32},    {"Q8_0", 32, 34, 4, 32}, {"Q4_K", 256, 144, 4, 256},
    {"Q5_K", 256, 176, 4, 256}, {"Q6_K", 256, 210, 0, 256}, {"IQ4_XS", 256, 136, 2, 256}, {"F16", 1, 2, 0, 16},
};
constexpr std::uint64_t kAmxRowMultiple = 32; // TILE_N * 2

std::optional<std::uint64_t> amxBytes(const StoredTensor &t)
{
    if (t.shape.size() != 2)
        return std::nullopt; // MUL_MAT_ID is not an AMX op
    const std::uint64_t rows = t.shape[0], columns = t.shape[1];
    for (const AmxType &a : kAmx)
        if (t.dtype == a.type && rows % kAmxRowMultiple == 0 && columns % a.alignment == 0)
            return rows * (columns / a.blockElements) * (a.blockBytes + a.extraPerBlock);
    return std::nullopt;
}

} // namespace

const std::vector<CpuBuildInfo> &allCpuBuilds()
{
    static const std::vector<CpuBuildInfo> builds = {
        {CpuBuild::Avx2, "avx2", QT_TRANSLATE_NOOP("Field", "x86-64 with AVX2 (repacks Q4_0, Q4_K, IQ4_NL, MXFP4)")},
        {CpuBuild::Amx, "amx", QT_TRANSLATE_NOOP("Field", "x86-64 with AMX (Xeon 4th gen. and later)")},
        {CpuBuild::Arm, "arm", QT_TRANSLATE_NOOP("Field", "Arm64 with dot product and int8 matrix multiply")},
        {CpuBuild::None, "none", QT_TRANSLATE_NOOP("Field", "no repacking (--no-repack, other CPUs)")},
    };
    return builds;
}

std::optional<CpuBuild> parseCpuBuild(const std::string &id) { return parseById(allCpuBuilds(), &CpuBuildInfo::build, id); }

const char *cpuBuildId(CpuBuild build) { return findByValue(allCpuBuilds(), &CpuBuildInfo::build, build).id; }

std::uint64_t cpuBufferCopy(const StoredTensor &t, CpuBuild build)
{
    if (build == CpuBuild::None || !isMatmulWeight(t))
        return 0;
    // ne[1], the rows repacking interleaves: the second-innermost dimension.
    const std::uint64_t rows = t.shape[t.shape.size() - 2];
    switch (build) {
    case CpuBuild::Amx:
        // The AMX buffer comes first in the list; what it cannot take falls
        // to CPU_REPACK, whose AVX-512 build also repacks Q2_K.
        if (const auto bytes = amxBytes(t))
            return *bytes;
        return repacks(kAvx2, t, rows) || repacks(kAvx512Extra, t, rows) ? t.bytes : 0;
    case CpuBuild::Avx2:
        return repacks(kAvx2, t, rows) ? t.bytes : 0;
    case CpuBuild::Arm:
        return repacks(kArm, t, rows) ? t.bytes : 0;
    case CpuBuild::None:
        break;
    }
    return 0;
}

} // namespace core
