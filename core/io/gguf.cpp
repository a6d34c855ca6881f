#include "core/io/gguf.h"

#include "core/base/units.h"
#include "core/io/bytesource.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

namespace core::io {

namespace {

namespace fs = std::filesystem;
using Type = GgufValue::Type;

// Format facts from ggml-org/ggml at commit d99724f (2026-08-21), the same
// files as llama.cpp's ggml/ folder: docs/gguf.md (layout, value types,
// limits, alignment), include/ggml.h (enum ggml_type), src/ggml.c
// (type_traits: blck_size and type_size), src/ggml-common.h (the block
// structs whose static_asserts fix type_size) and src/gguf.cpp (what
// ggml's own reader refuses).

/// A ggml tensor type: elements per block and bytes per block.
struct GgmlType
{
    std::uint32_t id;
    const char *name;
    std::uint64_t blockElements;
    std::uint64_t blockBytes;
};

// The quantised blocks, by their fields (d, m: ggml_half scale and min,
// 2 bytes each; qs, qh, scales: byte arrays):
const GgmlType kTypes[] = {
    {0, "F32", 1, 4},
    {1, "F16", 1, 2},
    {2, "Q4_0", 32, 18},    // d + qs[16]
    {3, "Q4_1", 32, 20},    // d, m + qs[16]
    {6, "Q5_0", 32, 22},    // d + qh[4] + qs[16]
    {7, "Q5_1", 32, 24},    // d, m + qh[4] + qs[16]
    {8, "Q8_0", 32, 34},    // d + qs[32]
    {9, "Q8_1", 32, 36},    // d, s + qs[32]
    {10, "Q2_K", 256, 84},  // scales[16] + qs[64] + d, dmin
    {11, "Q3_K", 256, 110}, // hmask[32] + qs[64] + scales[12] + d
    {12, "Q4_K", 256, 144}, // d, dmin + scales[12] + qs[128]
    {13, "Q5_K", 256, 176}, // d, dmin + scales[12] + qh[32] + qs[128]
    {14, "Q6_K", 256, 210}, // ql[128] + qh[64] + scales[16] + d
    {15, "Q8_K", 256, 292}, // float d + qs[256] + bsums[16] of int16
    {16, "IQ2_XXS", 256, 66}, // d + qs[32] of uint16
    {17, "IQ2_XS", 256, 74},  // d + qs[32] of uint16 + scales[8]
    {18, "IQ3_XXS", 256, 98}, // d + qs[96]
    {19, "IQ1_S", 256, 50},   // d + qs[32] + qh[8] of uint16
    {20, "IQ4_NL", 32, 18},   // d + qs[16]
    {21, "IQ3_S", 256, 110},  // d + qs[64] + qh[8] + signs[32] + scales[4]
    {22, "IQ2_S", 256, 82},   // d + qs[64] + qh[8] + scales[8]
    {23, "IQ4_XS", 256, 136}, // d + scales_h (uint16) + scales_l[4] + qs[128]
    {24, "I8", 1, 1},
    {25, "I16", 1, 2},
    {26, "I32", 1, 4},
    {27, "I64", 1, 8},
    {28, "F64", 1, 8},
    {29, "IQ1_M", 256, 56}, // qs[32] + qh[16] + scales[8]
    {30, "BF16", 1, 2},
    {34, "TQ1_0", 256, 54}, // qs[48] + qh[4] + d
    {35, "TQ2_0", 256, 66}, // qs[64] + d
    {39, "MXFP4", 32, 17},  // E8M0 scale byte + qs[16]
    {40, "NVFP4", 64, 36},  // four E4M3 scale bytes + qs[32]
    {41, "Q1_0", 128, 18},  // d + qs[16]
    {42, "Q2_0", 64, 18},   // d + qs[16]
};
/// Numbers ggml.h marks removed: Q4_2, Q4_3 and the repacked Q4_0_4_4 ..
/// IQ4_NL_8_8 ("support has been removed from gguf files").
const std::uint32_t kRemovedTypes[] = {4, 5, 31, 32, 33, 36, 37, 38};

constexpr std::uint64_t kDefaultAlignment = 32; // GGUF_DEFAULT_ALIGNMENT
constexpr std::uint64_t kMaxKeyBytes = 65535;   // gguf.md: keys at most 2^16 - 1 bytes
constexpr std::uint64_t kMaxTensorNameBytes = 64; // gguf.md: names at most 64 bytes
constexpr std::uint32_t kMaxDims = 4;             // gguf.md, GGML_MAX_DIMS
/// Smallest key-value pair (key length, type, one byte of value) and
/// tensor info (name length, n_dims, type, offset): bounds on the counts.
constexpr std::uint64_t kMinPairBytes = 8 + 4 + 1;
constexpr std::uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;
constexpr std::size_t kListed = 8;

const GgmlType *findType(std::uint32_t id)
{
    for (const GgmlType &t : kTypes)
        if (t.id == id)
            return &t;
    return nullptr;
}

/// Bytes of one value of a fixed-size type (gguf.md); 0 for strings and
/// arrays.
std::uint64_t scalarBytes(Type type)
{
    switch (type) {
    case Type::Uint8:
    case Type::Int8:
    case Type::Bool:
        return 1;
    case Type::Uint16:
    case Type::Int16:
        return 2;
    case Type::Uint32:
    case Type::Int32:
    case Type::Float32:
        return 4;
    case Type::Uint64:
    case Type::Int64:
    case Type::Float64:
        return 8;
    case Type::String:
    case Type::Array:
        break;
    }
    return 0;
}

std::string inQuotes(const std::string &name) { return "'" + name + "'"; }

/// A tensor and where its data lies in its file.
struct Located
{
    StoredTensor tensor;
    std::uint64_t infoAt = 0; ///< where its tensor info starts, for messages
    std::uint64_t offset = 0; ///< from the start of the data section
};

/// One file's header, read in order: magic, version and counts, the
/// metadata, the tensor infos, then the data placement.
class Parser
{
public:
    Parser(ByteSource &source, std::uint32_t fileIndex, const FileProblems &problems)
        : m_source(source), m_reader(source), m_fileIndex(fileIndex), m_problems(problems)
    {
    }

    /// False when the file is refused (the reason recorded).
    bool parse(std::map<std::string, GgufValue> &metadata, std::vector<StoredTensor> &tensors)
    {
        std::uint64_t tensorCount = 0;
        std::uint64_t pairCount = 0;
        if (!header(tensorCount, pairCount))
            return false;
        for (std::uint64_t i = 0; i < pairCount; ++i)
            if (!keyValue(metadata))
                return false;
        if (tensorCount > m_reader.remaining() / kMinTensorInfoBytes)
            return fail(m_reader.offset(), "tensor_count " + groupDigits(tensorCount) + " cannot fit in the "
                                               + groupDigits(m_reader.remaining()) + " bytes left");
        std::vector<Located> located;
        std::set<std::string> names;
        for (std::uint64_t i = 0; i < tensorCount; ++i) {
            Located l;
            if (!tensorInfo(l))
                return false;
            if (!names.insert(l.tensor.name).second)
                return fail(l.infoAt, "tensor " + inQuotes(l.tensor.name) + " appears twice");
            located.push_back(std::move(l));
        }
        if (!place(located, metadata))
            return false;
        for (Located &l : located)
            tensors.push_back(std::move(l.tensor));
        return true;
    }

private:
    bool fail(std::uint64_t at, const std::string &message)
    {
        m_problems.error("byte " + std::to_string(at) + ": " + message);
        return false;
    }

    bool ended(std::uint64_t at, const std::string &what) { return fail(at, "the file ends inside " + what); }

    bool header(std::uint64_t &tensorCount, std::uint64_t &pairCount)
    {
        std::string magic;
        if (!m_reader.bytes(4, magic) || magic != "GGUF")
            return fail(0, "not a GGUF file: it does not start with the bytes 'GGUF'");
        std::uint32_t version = 0;
        if (!m_reader.u32(version))
            return ended(4, "the version");
        // gguf.cpp: a byte-swapped version reads as 0x03000000.
        if (version != 0 && (version & 0xFFFFu) == 0)
            return fail(4, "version " + std::to_string(version)
                               + " looks byte-swapped: a big-endian GGUF, which this reader does not read");
        if (version == 1)
            return fail(4, "GGUF version 1 (32-bit lengths) is not read, nor by llama.cpp; convert the model again");
        if (version != 2 && version != 3)
            return fail(4, "GGUF version " + std::to_string(version) + "; this reader reads versions 2 and 3");
        if (!m_reader.u64(tensorCount) || !m_reader.u64(pairCount))
            return ended(8, "the tensor and metadata counts");
        if (pairCount > m_reader.remaining() / kMinPairBytes)
            return fail(16, "metadata_kv_count " + groupDigits(pairCount) + " cannot fit in the "
                                + groupDigits(m_reader.remaining()) + " bytes left");
        return true;
    }

    /// A string of at most `limit` bytes.
    bool string(std::uint64_t limit, const std::string &what, std::string &out)
    {
        const std::uint64_t at = m_reader.offset();
        std::uint64_t length = 0;
        if (!m_reader.u64(length))
            return ended(at, what);
        if (length > limit)
            return fail(at, what + " is " + groupDigits(length) + " bytes long; the limit is " + groupDigits(limit));
        if (length > m_reader.remaining())
            return fail(at, what + " claims " + groupDigits(length) + " bytes; " + groupDigits(m_reader.remaining())
                                + " are left");
        return m_reader.bytes(static_cast<std::size_t>(length), out);
    }

    bool valueType(std::uint64_t at, const std::string &key, Type &type)
    {
        std::uint32_t raw = 0;
        if (!m_reader.u32(raw))
            return ended(at, "the type of " + inQuotes(key));
        if (raw > static_cast<std::uint32_t>(Type::Float64))
            return fail(at, inQuotes(key) + " has value type " + std::to_string(raw) + "; GGUF defines 0 to 12");
        type = static_cast<Type>(raw);
        return true;
    }

    bool number(Type type, const std::string &key, GgufNumber &out)
    {
        const std::uint64_t at = m_reader.offset();
        const std::uint64_t width = scalarBytes(type);
        std::uint64_t raw = 0;
        if (!m_reader.unsignedInt(static_cast<std::size_t>(width), raw))
            return ended(at, "the value of " + inQuotes(key));
        switch (type) {
        case Type::Int8:
        case Type::Int16:
        case Type::Int32:
        case Type::Int64: {
            // Two's complement of `width` bytes, sign-extended to 64 bits
            // (for width 8, 2 * sign wraps to 0 and the mask to 0).
            const std::uint64_t sign = 1ull << (8 * width - 1);
            const std::uint64_t extended = (raw & sign) ? raw | ~(2 * sign - 1) : raw;
            out.kind = GgufNumber::Kind::Signed;
            std::memcpy(&out.signedValue, &extended, sizeof extended);
            break;
        }
        case Type::Float32: {
            const auto bits = static_cast<std::uint32_t>(raw);
            float f = 0;
            std::memcpy(&f, &bits, sizeof f);
            out.kind = GgufNumber::Kind::Float;
            out.floatValue = f;
            break;
        }
        case Type::Float64:
            out.kind = GgufNumber::Kind::Float;
            std::memcpy(&out.floatValue, &raw, sizeof out.floatValue);
            break;
        case Type::Bool:
            // gguf.md: "Anything else is invalid".
            if (raw > 1)
                return fail(at, inQuotes(key) + " holds the boolean " + std::to_string(raw) + "; only 0 and 1 are valid");
            out.unsignedValue = raw;
            break;
        default:
            out.unsignedValue = raw;
            break;
        }
        return true;
    }

    bool array(std::uint64_t at, const std::string &key, GgufValue &value)
    {
        if (!valueType(at, key, value.elementType))
            return false;
        if (value.elementType == Type::Array)
            return fail(at, inQuotes(key) + " is an array of arrays, which this reader does not read (nor does ggml)");
        if (!m_reader.u64(value.length))
            return ended(at, "the length of " + inQuotes(key));
        const bool strings = value.elementType == Type::String;
        const std::uint64_t entryBytes = strings ? 8 : scalarBytes(value.elementType);
        if (value.length > m_reader.remaining() / entryBytes)
            return fail(at, inQuotes(key) + " claims " + groupDigits(value.length) + " entries; the "
                                + groupDigits(m_reader.remaining()) + " bytes left hold at most "
                                + groupDigits(m_reader.remaining() / entryBytes));
        if (strings) { // kept as a length only: a vocabulary is not the planner's business
            for (std::uint64_t i = 0; i < value.length; ++i) {
                const std::uint64_t entryAt = m_reader.offset();
                std::uint64_t length = 0;
                if (!m_reader.u64(length) || !m_reader.skip(length))
                    return fail(entryAt, "entry " + std::to_string(i) + " of " + inQuotes(key)
                                             + " runs past the end of the file");
            }
            return true;
        }
        if (value.length > GgufValue::kKeptArrayLength)
            return m_reader.skip(value.length * entryBytes);
        value.numbers.resize(static_cast<std::size_t>(value.length));
        for (GgufNumber &n : value.numbers)
            if (!number(value.elementType, key, n))
                return false;
        return true;
    }

    bool keyValue(std::map<std::string, GgufValue> &metadata)
    {
        const std::uint64_t at = m_reader.offset();
        std::string key;
        if (!string(kMaxKeyBytes, "a metadata key", key))
            return false;
        if (key.empty())
            return fail(at, "a metadata key is empty");
        if (metadata.count(key) != 0)
            return fail(at, "metadata key " + inQuotes(key) + " appears twice");
        GgufValue value;
        if (!valueType(at, key, value.type))
            return false;
        bool read = false;
        if (value.type == Type::Array)
            read = array(at, key, value);
        else if (value.type == Type::String)
            read = string(kMaxInputBytes, "the value of " + inQuotes(key), value.text);
        else
            read = number(value.type, key, value.numbers.emplace_back());
        if (read)
            metadata.emplace(std::move(key), std::move(value));
        return read;
    }

    bool tensorInfo(Located &l)
    {
        l.infoAt = m_reader.offset();
        if (!string(kMaxTensorNameBytes, "a tensor name", l.tensor.name))
            return false;
        const std::string name = inQuotes(l.tensor.name);
        std::uint32_t dims = 0;
        if (!m_reader.u32(dims))
            return ended(l.infoAt, "tensor " + name);
        if (dims > kMaxDims)
            return fail(l.infoAt, "tensor " + name + " has " + std::to_string(dims) + " dimensions; GGUF allows at most "
                                      + std::to_string(kMaxDims));
        std::vector<std::uint64_t> ne(dims);
        for (std::uint64_t &n : ne) {
            if (!m_reader.u64(n))
                return ended(l.infoAt, "tensor " + name);
            if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                return fail(l.infoAt, "tensor " + name + " has a dimension of " + groupDigits(n)
                                          + "; ggml's limit is 2^63 - 1");
        }
        std::uint32_t typeId = 0;
        if (!m_reader.u32(typeId) || !m_reader.u64(l.offset))
            return ended(l.infoAt, "tensor " + name);
        if (std::find(std::begin(kRemovedTypes), std::end(kRemovedTypes), typeId) != std::end(kRemovedTypes))
            return fail(l.infoAt, "tensor " + name + " has ggml type " + std::to_string(typeId)
                                      + ", which ggml removed from GGUF files; convert the model again");
        const GgmlType *type = findType(typeId);
        if (!type)
            return fail(l.infoAt, "tensor " + name + " has ggml type " + std::to_string(typeId)
                                      + ", which this reader does not know (it knows 0 to 42)");
        const std::optional<std::uint64_t> elements = elementCount(ne);
        if (!elements)
            return fail(l.infoAt, "tensor " + name + " has more than 2^64 elements");
        const std::uint64_t rowLength = ne.empty() ? 1 : ne.front();
        if (rowLength % type->blockElements != 0)
            return fail(l.infoAt, "tensor " + name + " has rows of " + groupDigits(rowLength) + " elements, not a multiple of "
                                      + type->name + "'s " + std::to_string(type->blockElements) + "-element blocks");
        const std::uint64_t bytes = saturatingMul(*elements / type->blockElements, type->blockBytes);
        if (bytes == std::numeric_limits<std::uint64_t>::max())
            return fail(l.infoAt, "tensor " + name + " would take more than 2^64 bytes");
        l.tensor.dtype = type->name;
        l.tensor.shape.assign(ne.rbegin(), ne.rend());
        l.tensor.elements = *elements;
        l.tensor.bytes = bytes;
        l.tensor.file = m_fileIndex;
        return true;
    }

    /// general.alignment: a uint32 power of two (gguf.md; gguf.cpp refuses
    /// any other type).
    bool alignment(const std::map<std::string, GgufValue> &metadata, std::uint64_t &out)
    {
        out = kDefaultAlignment;
        const auto found = metadata.find("general.alignment");
        if (found == metadata.end())
            return true;
        const std::optional<std::uint64_t> value = found->second.count();
        if (found->second.type != Type::Uint32 || !value || *value == 0 || (*value & (*value - 1)) != 0) {
            m_problems.error("general.alignment must be a uint32 power of two");
            return false;
        }
        out = *value;
        return true;
    }

    /// The data section starts at the aligned end of the tensor infos;
    /// each tensor's offset is aligned, its data lies inside the file and
    /// shares no byte with another's.
    bool place(std::vector<Located> &located, const std::map<std::string, GgufValue> &metadata)
    {
        std::uint64_t align = kDefaultAlignment;
        if (!alignment(metadata, align))
            return false;
        const std::uint64_t end = m_reader.offset();
        const std::uint64_t dataStart = end + (align - end % align) % align;
        const std::uint64_t size = m_source.size();
        struct Span
        {
            std::uint64_t begin, end;
            const Located *tensor;
        };
        std::vector<Span> spans;
        for (const Located &l : located) {
            const std::string name = inQuotes(l.tensor.name);
            if (l.offset % align != 0)
                return fail(l.infoAt, "tensor " + name + " has offset " + groupDigits(l.offset)
                                          + ", not a multiple of the alignment " + std::to_string(align));
            if (l.tensor.bytes == 0)
                continue;
            if (dataStart > size || l.offset > size - dataStart || l.tensor.bytes > size - dataStart - l.offset)
                return fail(l.infoAt, "tensor " + name + " needs " + groupDigits(l.tensor.bytes) + " bytes at offset "
                                          + groupDigits(l.offset) + " of the data section (byte "
                                          + groupDigits(dataStart) + "), past the end of the file ("
                                          + groupDigits(size) + " bytes)");
            spans.push_back({dataStart + l.offset, dataStart + l.offset + l.tensor.bytes, &l});
        }
        std::stable_sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.begin < b.begin; });
        const Span *previous = nullptr;
        for (const Span &s : spans) {
            if (previous && s.begin < previous->end)
                return fail(s.tensor->infoAt, "tensor " + inQuotes(s.tensor->tensor.name) + " (bytes " + groupDigits(s.begin)
                                                  + " to " + groupDigits(s.end) + ") overlaps tensor "
                                                  + inQuotes(previous->tensor->tensor.name) + " (bytes "
                                                  + groupDigits(previous->begin) + " to "
                                                  + groupDigits(previous->end) + ")");
            if (!previous || s.end > previous->end)
                previous = &s;
        }
        return true;
    }

    ByteSource &m_source;
    ByteReader m_reader;
    std::uint32_t m_fileIndex;
    const FileProblems &m_problems;
};

/// NAME-00002-of-00003.gguf: the naming of llama.cpp's gguf-split
/// (llama_split_path, "%s-%05d-of-%05d.gguf").
struct SplitName
{
    std::string prefix;
    std::uint32_t part = 0;
    std::uint32_t count = 0;
};

std::optional<SplitName> splitName(const std::string &file)
{
    const std::size_t tail = std::strlen("-00001-of-00003.gguf");
    if (file.size() <= tail)
        return std::nullopt;
    const std::string t = file.substr(file.size() - tail);
    const auto digits = [&t](std::size_t from) {
        return std::all_of(t.begin() + static_cast<std::ptrdiff_t>(from),
                           t.begin() + static_cast<std::ptrdiff_t>(from + 5),
                           [](char c) { return c >= '0' && c <= '9'; });
    };
    if (t[0] != '-' || !digits(1) || t.compare(6, 4, "-of-") != 0 || !digits(10) || t.compare(15, 5, ".gguf") != 0)
        return std::nullopt;
    SplitName s{file.substr(0, file.size() - tail), static_cast<std::uint32_t>(std::stoul(t.substr(1, 5))),
                static_cast<std::uint32_t>(std::stoul(t.substr(10, 5)))};
    if (s.part == 0 || s.part > s.count)
        return std::nullopt;
    return s;
}

std::string partName(const SplitName &split, std::uint32_t part)
{
    char tail[32];
    std::snprintf(tail, sizeof tail, "-%05u-of-%05u.gguf", part, split.count);
    return split.prefix + tail;
}

std::optional<std::uint64_t> countOf(const std::map<std::string, GgufValue> &metadata, const char *key)
{
    const auto found = metadata.find(key);
    return found == metadata.end() ? std::nullopt : found->second.count();
}

/// The split keys gguf-split writes in every part (split.no, 0-based;
/// split.count) and in the first (split.tensors.count) agree with the set
/// read.
void checkSplitKeys(const std::map<std::string, GgufValue> &metadata, std::uint32_t part, std::uint32_t count,
                    const FileProblems &problems)
{
    const auto no = countOf(metadata, "split.no");
    const auto parts = countOf(metadata, "split.count");
    if (no && *no != part - 1)
        problems.error("split.no is " + std::to_string(*no) + "; this is part " + std::to_string(part)
                       + ", split.no " + std::to_string(part - 1));
    if (parts && *parts != count && !(count == 1 && *parts == 0))
        problems.error("split.count is " + std::to_string(*parts) + "; the set has " + std::to_string(count)
                       + (count == 1 ? " file (its name has no -00001-of-0000N part)" : " parts"));
}

/// Every part of the set `path` belongs to (or `path` alone), in order.
void readParts(const std::string &path, WeightInventory &inventory, LoadResult<WeightInventory> &result)
{
    const fs::path given(path);
    const std::optional<SplitName> split = splitName(given.filename().string());
    const std::uint32_t count = split ? split->count : 1;
    std::vector<std::string> missing;
    for (std::uint32_t part = 1; part <= count; ++part) {
        const std::string file = split ? (given.parent_path() / partName(*split, part)).string() : path;
        std::error_code ec;
        if (!fs::is_regular_file(file, ec))
            missing.push_back(inFile(file, split ? "part " + std::to_string(part) + " of " + std::to_string(count)
                                                       + " of the split set is missing"
                                                 : "no such file, or not a file"));
        else
            inventory.files.push_back(file);
    }
    for (std::size_t i = 0; i < missing.size() && i < kListed; ++i)
        result.errors.push_back(missing[i]);
    if (missing.size() > kListed)
        result.errors.push_back("... and " + std::to_string(missing.size() - kListed) + " more missing parts");
    if (!missing.empty())
        return;
    std::map<std::string, std::uint32_t> partOf;
    for (std::uint32_t i = 0; i < count; ++i) {
        const FileProblems problems{inventory.files[i], result.errors, result.warnings};
        FileSource source(inventory.files[i]);
        if (!source.isOpen()) {
            problems.error(source.error());
            return;
        }
        std::map<std::string, GgufValue> metadata;
        const std::size_t first = inventory.tensors.size();
        if (!Parser(source, i, problems).parse(metadata, inventory.tensors))
            return;
        checkSplitKeys(metadata, i + 1, count, problems);
        for (std::size_t t = first; t < inventory.tensors.size(); ++t) {
            const auto [at, inserted] = partOf.emplace(inventory.tensors[t].name, i);
            if (!inserted)
                problems.error("tensor " + inQuotes(inventory.tensors[t].name) + " is also in "
                               + inventory.files[at->second]);
        }
        if (i == 0)
            inventory.metadata = std::move(metadata);
    }
    const auto declared = countOf(inventory.metadata, "split.tensors.count");
    if (declared && count > 1 && *declared != inventory.tensors.size())
        result.errors.push_back(inFile(inventory.files.front(), "split.tensors.count is " + groupDigits(*declared)
                                                                    + "; the parts hold "
                                                                    + groupDigits(inventory.tensors.size())));
}

} // namespace

LoadResult<WeightInventory> readGguf(const std::string &path)
{
    LoadResult<WeightInventory> result;
    WeightInventory inventory;
    inventory.format = WeightInventory::Format::Gguf;
    inventory.path = path;
    readParts(path, inventory, result);
    if (result.errors.empty())
        result.value = std::move(inventory);
    return result;
}

LoadResult<WeightInventory> readGgufBytes(const std::string &bytes, const std::string &name)
{
    LoadResult<WeightInventory> result;
    WeightInventory inventory = WeightInventory::ofOneFile(WeightInventory::Format::Gguf, name);
    const FileProblems problems{name, result.errors, result.warnings};
    MemorySource source(bytes);
    if (!Parser(source, 0, problems).parse(inventory.metadata, inventory.tensors))
        return result;
    const auto parts = countOf(inventory.metadata, "split.count");
    if (parts && *parts > 1)
        problems.warning("part of a split set of " + std::to_string(*parts) + " files, read alone");
    if (result.errors.empty())
        result.value = std::move(inventory);
    return result;
}

} // namespace core::io
