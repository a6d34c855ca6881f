#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace core {

/// One tensor of a checkpoint as its file header declares it (the data is
/// never read).
struct StoredTensor
{
    std::string name;
    std::string dtype; ///< as the file spells it: "BF16", "F8_E4M3" (safetensors), "Q4_K", "MXFP4" (GGUF)
    /// Outermost dimension first, as PyTorch lists it: safetensors' own
    /// order, GGUF's ne[] reversed (token_embd is [vocab, hidden] in both).
    std::vector<std::uint64_t> shape;
    /// Product of the shape: logical elements for GGUF block types (a
    /// Q4_K tensor of 4096 x 4096 has 16,777,216), stored ones for safetensors.
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;
    std::uint32_t file = 0; ///< index into WeightInventory::files
};

/// Totals for one dtype.
struct DtypeTotal
{
    std::string dtype;
    std::uint64_t tensors = 0;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;
};

/// A number or boolean as a GGUF file stores it; which member holds it
/// follows the value's type (integers stay exact, booleans are 0 or 1).
struct GgufNumber
{
    enum class Kind { Unsigned, Signed, Float };
    Kind kind = Kind::Unsigned;
    std::uint64_t unsignedValue = 0;
    std::int64_t signedValue = 0;
    double floatValue = 0.0;

    /// The value as a count: an unsigned integer or a signed one >= 0.
    std::optional<std::uint64_t> count() const;
};

/// One GGUF metadata value (ggml docs/gguf.md, gguf_metadata_value_type).
struct GgufValue
{
    enum class Type : std::uint32_t {
        Uint8 = 0,
        Int8 = 1,
        Uint16 = 2,
        Int16 = 3,
        Uint32 = 4,
        Int32 = 5,
        Float32 = 6,
        Bool = 7,
        String = 8,
        Array = 9,
        Uint64 = 10,
        Int64 = 11,
        Float64 = 12,
    };
    /// Numeric arrays up to this length keep their entries (per-layer
    /// values such as `<arch>.attention.head_count_kv`); longer ones (the
    /// tokenizer's scores) keep only their length.
    static constexpr std::uint64_t kKeptArrayLength = 4096;

    Type type = Type::Uint8;
    std::string text;         ///< String values
    Type elementType = Type::Uint8; ///< Array values: the entries' type
    std::uint64_t length = 0; ///< Array values: entries in the file, kept or not
    /// A number or boolean: its value. An array of numbers or booleans of
    /// at most kKeptArrayLength entries: every entry. Otherwise empty
    /// (string arrays such as tokenizer.ggml.tokens keep only `length`).
    std::vector<GgufNumber> numbers;

    bool isArray() const { return type == Type::Array; }
    /// A scalar count (block_count, head_count ...); nullopt otherwise.
    std::optional<std::uint64_t> count() const;
};

/// The product of a shape (1 for a scalar); nullopt when it passes 2^64 - 1.
std::optional<std::uint64_t> elementCount(const std::vector<std::uint64_t> &shape);

/// Accepts the tensors a total counts; an empty filter accepts all.
using TensorFilter = std::function<bool(const StoredTensor &)>;

/// What a checkpoint on disk holds, read from its headers only.
struct WeightInventory
{
    enum class Format { Safetensors, Gguf };
    Format format = Format::Safetensors;
    std::string path;               ///< the folder or file the user gave
    std::vector<std::string> files; ///< files read, in order
    std::vector<StoredTensor> tensors;
    /// GGUF only: the first file's metadata, by key.
    std::map<std::string, GgufValue> metadata;

    /// An empty inventory of one file, `name`, before its header is read.
    static WeightInventory ofOneFile(Format format, const std::string &name)
    {
        WeightInventory inventory;
        inventory.format = format;
        inventory.path = name;
        inventory.files.push_back(name);
        return inventory;
    }

    /// Sums over the tensors `keep` accepts (the caller leaves out, say,
    /// the MTP layers or the vision tower); they saturate, never wrap.
    std::uint64_t bytes(const TensorFilter &keep = {}) const;
    std::uint64_t elements(const TensorFilter &keep = {}) const;
    /// One row per dtype, largest bytes first (ties by name).
    std::vector<DtypeTotal> byDtype(const TensorFilter &keep = {}) const;
};

} // namespace core
