#include "core/io/safetensors.h"

#include "core/base/units.h"
#include "core/io/bytesource.h"
#include "core/io/jsonreader.h"
#include "core/io/safetensorsjson.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace core::io {

namespace {

namespace fs = std::filesystem;

// Format facts from huggingface/safetensors at commit 24b0b28 (2026-05-12):
// README.md "Format" and safetensors/src/tensor.rs.

/// Largest JSON header (tensor.rs, MAX_HEADER_SIZE = 100_000_000).
constexpr std::uint64_t kMaxHeaderBytes = 100000000;
constexpr const char *kIndexName = "model.safetensors.index.json";
/// Problems of one kind listed before the rest are only counted.
constexpr std::size_t kListed = 8;

/// Bits per element (tensor.rs, Dtype::bitsize). The sub-byte MX types
/// must fill whole bytes (Metadata::validate refuses a MisalignedSlice).
struct DtypeBits
{
    const char *dtype;
    std::uint64_t bits;
};
const DtypeBits kDtypes[] = {
    {"BOOL", 8},     {"U8", 8},       {"I8", 8},       {"I16", 16},     {"U16", 16},     {"I32", 32},
    {"U32", 32},     {"I64", 64},     {"U64", 64},     {"F16", 16},     {"BF16", 16},    {"F32", 32},
    {"F64", 64},     {"C64", 64},     {"F8_E5M2", 8},  {"F8_E4M3", 8},  {"F8_E8M0", 8},
    {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8},
    {"F4", 4},       {"F6_E2M3", 6},  {"F6_E3M2", 6}, // OCP MX formats, packed
};

std::optional<std::uint64_t> bitsOf(const std::string &dtype)
{
    for (const DtypeBits &d : kDtypes)
        if (dtype == d.dtype)
            return d.bits;
    return std::nullopt;
}

/// Messages about `items` past the first kListed become one line.
void appendListed(std::vector<std::string> &to, const std::vector<std::string> &items, const std::string &what)
{
    for (std::size_t i = 0; i < items.size() && i < kListed; ++i)
        to.push_back(items[i]);
    if (items.size() > kListed)
        to.push_back("... and " + groupDigits(items.size() - kListed) + " more " + what);
}

/// A tensor and where its data lies in the file's data section.
struct Placed
{
    StoredTensor tensor;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

/// One header entry checked against its dtype and the file; nullopt (with
/// the errors recorded) when it is invalid.
std::optional<Placed> place(HeaderEntry &entry, std::uint64_t dataBytes, const FileProblems &problems,
                            std::set<std::string> &unknownDtypes)
{
    const auto at = [&entry] { return "/" + pointerToken(entry.name); }; // built only for a message
    if (entry.offsets.size() != 2 || entry.offsets[0] > entry.offsets[1]) {
        problems.error(at() + "/data_offsets: expected [begin, end] with begin <= end");
        return std::nullopt;
    }
    const std::uint64_t begin = entry.offsets[0];
    const std::uint64_t end = entry.offsets[1];
    if (end > dataBytes) {
        problems.error(at() + "/data_offsets: end " + groupDigits(end) + " lies past the data section's "
                       + groupDigits(dataBytes) + " bytes");
        return std::nullopt;
    }
    const std::optional<std::uint64_t> elements = elementCount(entry.shape);
    if (!elements) {
        problems.error(at() + "/shape: the product of the dimensions passes 2^64");
        return std::nullopt;
    }
    if (const std::optional<std::uint64_t> bits = bitsOf(entry.dtype)) {
        const std::uint64_t totalBits = saturatingMul(*elements, *bits);
        if (totalBits == std::numeric_limits<std::uint64_t>::max() || totalBits % 8 != 0) {
            problems.error(at() + "/shape: " + groupDigits(*elements) + " elements of " + entry.dtype
                           + " do not fill a whole number of bytes below 2^64");
            return std::nullopt;
        }
        if (end - begin != totalBits / 8) {
            problems.error(at() + "/data_offsets: span " + groupDigits(end - begin) + " bytes; "
                           + groupDigits(*elements) + " elements of " + entry.dtype + " take "
                           + groupDigits(totalBits / 8));
            return std::nullopt;
        }
    } else if (unknownDtypes.insert(entry.dtype).second) {
        problems.warning(at() + "/dtype: '" + entry.dtype
                         + "' is not a dtype of the safetensors spec; its tensors' sizes are taken from "
                           "data_offsets unchecked");
    }
    Placed p;
    p.tensor.name = std::move(entry.name);
    p.tensor.dtype = std::move(entry.dtype);
    p.tensor.shape = std::move(entry.shape);
    p.tensor.elements = *elements;
    p.tensor.bytes = end - begin;
    p.begin = begin;
    p.end = end;
    return p;
}

/// Tensors in data order; two that share a byte are both named. Bytes no
/// tensor covers are a warning: the spec allows no holes, but the sizes
/// read are still right.
void checkPlacement(std::vector<Placed> &placed, std::uint64_t dataBytes, const FileProblems &problems)
{
    std::stable_sort(placed.begin(), placed.end(), [](const Placed &a, const Placed &b) { return a.begin < b.begin; });
    std::uint64_t covered = 0;
    const Placed *previous = nullptr;
    for (const Placed &p : placed) {
        if (p.begin == p.end)
            continue; // empty tensors hold no data and may sit anywhere
        if (previous && p.begin < previous->end)
            problems.error("/" + pointerToken(p.tensor.name) + "/data_offsets: bytes " + groupDigits(p.begin) + " to "
                           + groupDigits(p.end) + " overlap '" + previous->tensor.name + "' (bytes "
                           + groupDigits(previous->begin) + " to " + groupDigits(previous->end) + ")");
        else
            covered += p.end - p.begin;
        if (!previous || p.end > previous->end)
            previous = &p;
    }
    if (covered < dataBytes)
        problems.warning(groupDigits(dataBytes - covered) + " bytes of the data section belong to no tensor "
                         "(the format allows no holes)");
}

/// Reads one file's header and adds its tensors, in data order, tagged
/// with `fileIndex`.
void readShard(ByteSource &source, std::uint32_t fileIndex, const FileProblems &problems, WeightInventory &inventory)
{
    ByteReader reader(source);
    std::uint64_t headerBytes = 0;
    if (!reader.u64(headerBytes)) {
        problems.error("byte 0: the file is " + groupDigits(source.size())
                       + " bytes; a safetensors file starts with an 8-byte header length");
        return;
    }
    if (headerBytes > kMaxHeaderBytes) {
        problems.error("byte 0: header length " + groupDigits(headerBytes) + " exceeds the format's limit of "
                       + groupDigits(kMaxHeaderBytes) + " bytes");
        return;
    }
    std::string header;
    if (headerBytes > reader.remaining() || !reader.bytes(static_cast<std::size_t>(headerBytes), header)) {
        problems.error("byte 0: header length " + groupDigits(headerBytes) + " runs past the end of the file ("
                       + groupDigits(source.size()) + " bytes)");
        return;
    }
    if (header.empty() || header.front() != '{') {
        problems.error("byte 8: the JSON header must begin with '{'");
        return;
    }
    std::vector<std::string> jsonErrors;
    std::vector<HeaderEntry> entries = parseHeader(header, jsonErrors);
    for (const std::string &e : jsonErrors)
        problems.error(e);
    if (!jsonErrors.empty())
        return;
    const std::uint64_t dataBytes = reader.remaining();
    std::vector<Placed> placed;
    placed.reserve(entries.size());
    std::set<std::string> unknownDtypes;
    bool valid = true;
    for (HeaderEntry &entry : entries) {
        std::optional<Placed> p = place(entry, dataBytes, problems, unknownDtypes);
        valid = valid && p.has_value();
        if (p) {
            p->tensor.file = fileIndex;
            placed.push_back(std::move(*p));
        }
    }
    if (!valid)
        return;
    checkPlacement(placed, dataBytes, problems);
    for (Placed &p : placed)
        inventory.tensors.push_back(std::move(p.tensor));
}

void readShardFile(const fs::path &path, WeightInventory &inventory, LoadResult<WeightInventory> &result)
{
    const FileProblems problems{path.string(), result.errors, result.warnings};
    FileSource source(path.string());
    if (!source.isOpen()) {
        problems.error(source.error());
        return;
    }
    const auto fileIndex = static_cast<std::uint32_t>(inventory.files.size());
    inventory.files.push_back(path.string());
    readShard(source, fileIndex, problems, inventory);
}

/// Each tensor's place in the inventory by name; a tensor in two files is
/// an error naming both. The views point into `inventory`.
std::unordered_map<std::string_view, std::size_t> nameIndex(const WeightInventory &inventory,
                                                            std::vector<std::string> &errors)
{
    std::unordered_map<std::string_view, std::size_t> at;
    at.reserve(inventory.tensors.size());
    std::vector<std::string> repeated;
    for (std::size_t i = 0; i < inventory.tensors.size(); ++i) {
        const StoredTensor &t = inventory.tensors[i];
        const auto [first, inserted] = at.emplace(t.name, i);
        if (!inserted)
            repeated.push_back("tensor '" + t.name + "' is in both " + inventory.files[inventory.tensors[first->second].file]
                               + " and " + inventory.files[t.file]);
    }
    appendListed(errors, repeated, "tensors in two files");
    return at;
}

/// What model.safetensors.index.json says: the shards it names (each once,
/// by name), the shard of each tensor, and the total it declares.
struct Index
{
    std::string where;
    std::vector<std::string> shards;
    std::vector<std::pair<std::string, std::uint32_t>> shardOf; ///< by tensor name
    std::optional<std::uint64_t> totalSize;
};

std::optional<Index> readIndex(const std::string &where, const FileProblems &problems)
{
    FileSource source(where);
    std::string text;
    if (!source.isOpen() || source.size() > kMaxInputBytes
        || !ByteReader(source).bytes(static_cast<std::size_t>(source.size()), text)) {
        problems.error(source.isOpen() ? "larger than 16 MiB or unreadable" : source.error());
        return std::nullopt;
    }
    std::vector<std::string> errors;
    IndexContents contents = parseIndex(text, errors);
    for (const std::string &e : errors)
        problems.error(e);
    if (!errors.empty())
        return std::nullopt;
    Index index;
    index.where = where;
    index.totalSize = contents.totalSize;
    std::map<std::string, std::uint32_t> shardNumber;
    for (const auto &entry : contents.fileOf)
        shardNumber.emplace(entry.second, 0);
    for (auto &[file, number] : shardNumber) {
        number = static_cast<std::uint32_t>(index.shards.size());
        index.shards.push_back(file);
    }
    index.shardOf.reserve(contents.fileOf.size());
    for (auto &[tensor, file] : contents.fileOf)
        index.shardOf.emplace_back(std::move(tensor), shardNumber.at(file));
    return index;
}

/// The shards the index names, in its order.
void readIndexedShards(const fs::path &folder, const Index &index, WeightInventory &inventory,
                       LoadResult<WeightInventory> &result)
{
    const FileProblems problems{index.where, result.errors, result.warnings};
    std::vector<bool> named(index.shards.size(), false);
    for (const auto &[tensor, shard] : index.shardOf) {
        std::error_code ec;
        if (!named[shard] && !fs::is_regular_file(folder / index.shards[shard], ec))
            problems.error("/weight_map/" + pointerToken(tensor) + ": names " + index.shards[shard]
                           + ", which is not in the folder");
        named[shard] = true;
    }
    if (!result.errors.empty())
        return;
    inventory.tensors.reserve(index.shardOf.size());
    for (const std::string &shard : index.shards)
        readShardFile(folder / shard, inventory, result);
}

/// Each tensor of the weight_map is in the shard it names (shard i of the
/// index is file i of the inventory); tensors it does not list are a
/// warning; so is a total_size that is not the tensors' bytes.
void checkAgainstIndex(const Index &index, const WeightInventory &inventory,
                       const std::unordered_map<std::string_view, std::size_t> &tensorAt,
                       LoadResult<WeightInventory> &result)
{
    std::vector<std::string> misplaced;
    for (const auto &[tensor, shard] : index.shardOf) {
        const auto found = tensorAt.find(tensor);
        if (found != tensorAt.end() && inventory.tensors[found->second].file == shard)
            continue;
        const std::string at = "/weight_map/" + pointerToken(tensor) + ": names " + index.shards[shard];
        misplaced.push_back(inFile(index.where, found == tensorAt.end()
                                                    ? at + ", but no shard has this tensor"
                                                    : at + ", but the tensor is in "
                                                          + inventory.files[inventory.tensors[found->second].file]));
    }
    appendListed(result.errors, misplaced, "tensors of the weight_map not in their shards");
    // Every listed tensor found, each once: the rest are the unlisted.
    if (inventory.tensors.size() > index.shardOf.size() - misplaced.size()) {
        std::unordered_map<std::string_view, std::uint32_t> listed(index.shardOf.begin(), index.shardOf.end());
        std::vector<std::string> unlisted;
        for (const StoredTensor &t : inventory.tensors)
            if (listed.count(t.name) == 0)
                unlisted.push_back(inFile(inventory.files[t.file], "/" + pointerToken(t.name) + ": not in "
                                                                       + kIndexName + "'s weight_map"));
        appendListed(result.warnings, unlisted, "tensors not in the weight_map");
    }
    if (index.totalSize && *index.totalSize != inventory.bytes())
        result.warnings.push_back(inFile(index.where, "/metadata/total_size: is " + groupDigits(*index.totalSize)
                                                          + " bytes; the shards' tensors hold "
                                                          + groupDigits(inventory.bytes()) + " bytes"));
}

/// Every *.safetensors file in the folder, by name.
void readFolder(const fs::path &folder, WeightInventory &inventory, LoadResult<WeightInventory> &result)
{
    std::vector<fs::path> shards;
    std::error_code ec;
    for (const fs::directory_entry &entry : fs::directory_iterator(folder, ec))
        if (entry.path().extension() == ".safetensors" && entry.is_regular_file(ec))
            shards.push_back(entry.path());
    if (ec) {
        result.errors.push_back(inFile(folder.string(), ec.message()));
        return;
    }
    if (shards.empty()) {
        result.errors.push_back(inFile(folder.string(), "has no .safetensors files"));
        return;
    }
    std::sort(shards.begin(), shards.end());
    for (const fs::path &shard : shards)
        readShardFile(shard, inventory, result);
}

} // namespace

LoadResult<WeightInventory> readSafetensors(const std::string &path)
{
    LoadResult<WeightInventory> result;
    WeightInventory inventory;
    inventory.format = WeightInventory::Format::Safetensors;
    inventory.path = path;
    std::error_code ec;
    const fs::path root(path);
    std::optional<Index> index;
    if (fs::is_directory(root, ec) && fs::exists(root / kIndexName, ec)) {
        const std::string where = (root / kIndexName).string();
        index = readIndex(where, FileProblems{where, result.errors, result.warnings});
        if (index)
            readIndexedShards(root, *index, inventory, result);
    } else if (fs::is_directory(root, ec)) {
        readFolder(root, inventory, result);
    } else if (fs::exists(root, ec)) {
        readShardFile(root, inventory, result);
    } else {
        result.errors.push_back(inFile(path, "no such file or folder"));
    }
    if (!result.errors.empty())
        return result;
    const auto tensorAt = nameIndex(inventory, result.errors);
    if (index && result.errors.empty())
        checkAgainstIndex(*index, inventory, tensorAt, result);
    if (result.errors.empty())
        result.value = std::move(inventory);
    return result;
}

LoadResult<WeightInventory> readSafetensorsBytes(const std::string &bytes, const std::string &name)
{
    LoadResult<WeightInventory> result;
    WeightInventory inventory = WeightInventory::ofOneFile(WeightInventory::Format::Safetensors, name);
    MemorySource source(bytes);
    readShard(source, 0, FileProblems{name, result.errors, result.warnings}, inventory);
    if (result.errors.empty())
        result.value = std::move(inventory);
    return result;
}

} // namespace core::io
