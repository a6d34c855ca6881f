#pragma once

// Writes the weight files the readers' tests read: safetensors checkpoints
// and GGUF files, well-formed or hostile. Tensor data is zeros, written as
// a sparse file, so a model of many gigabytes costs a few kilobytes. The
// writer takes every tensor's byte size from the test (its hand sum); it
// knows no dtype or block size itself, so it cannot share a mistake with
// the readers.

#include <cstdint>
#include <string>
#include <vector>

namespace testsupport {

/// One tensor of a test safetensors file, laid out after the previous one.
struct SafetensorsTensor
{
    std::string name;
    std::string dtype;                ///< "BF16", "F8_E4M3" ...
    std::vector<std::uint64_t> shape; ///< outermost first
    std::uint64_t bytes = 0;          ///< the test's hand sum
};

/// The JSON header of a file holding `tensors` in order, with a
/// `__metadata__` of {"format": "pt"} as PyTorch writes it.
std::string safetensorsHeader(const std::vector<SafetensorsTensor> &tensors);
std::uint64_t dataBytes(const std::vector<SafetensorsTensor> &tensors);

/// A safetensors file: the header's length (8 bytes, little-endian), the
/// header, then `dataBytes` zeros.
std::string safetensorsBytes(const std::string &header, std::uint64_t dataBytes);
void writeSafetensors(const std::string &path, const std::string &header, std::uint64_t dataBytes);

/// GGUF value types (ggml docs/gguf.md, gguf_metadata_value_type).
enum GgufType : std::uint32_t {
    kGgufUint8 = 0,
    kGgufUint16 = 2,
    kGgufUint32 = 4,
    kGgufInt32 = 5,
    kGgufFloat32 = 6,
    kGgufBool = 7,
    kGgufString = 8,
    kGgufArray = 9,
    kGgufUint64 = 10,
};

/// Little-endian GGUF fields appended one after another: the pieces of a
/// well-formed file and of hostile ones.
class GgufBytes
{
public:
    GgufBytes &u8(std::uint8_t value);
    GgufBytes &u16(std::uint16_t value);
    GgufBytes &u32(std::uint32_t value);
    GgufBytes &u64(std::uint64_t value);
    GgufBytes &f32(float value);
    /// A gguf string: u64 length, then the bytes.
    GgufBytes &string(const std::string &text);
    GgufBytes &raw(const std::string &bytes);
    const std::string &bytes() const { return m_bytes; }

private:
    std::string m_bytes;
};

/// A GGUF version 3 file: header, metadata, tensor infos, padding to the
/// 32-byte alignment, then each tensor's zeros at the next aligned offset.
class GgufFile
{
public:
    GgufFile &u32(const std::string &key, std::uint32_t value);
    GgufFile &u16(const std::string &key, std::uint16_t value);
    GgufFile &i32(const std::string &key, std::int32_t value);
    GgufFile &f32(const std::string &key, float value);
    GgufFile &text(const std::string &key, const std::string &value);
    GgufFile &u32Array(const std::string &key, const std::vector<std::uint32_t> &values);
    GgufFile &stringArray(const std::string &key, const std::vector<std::string> &values);
    /// A metadata pair written as given: `value` holds the type and value.
    GgufFile &pair(const std::string &key, const GgufBytes &value);
    /// `ne` in ggml order (ne[0], the contiguous dimension, first); `bytes`
    /// is the test's hand sum for that many elements of `type`.
    GgufFile &tensor(const std::string &name, const std::vector<std::uint64_t> &ne, std::uint32_t type,
                     std::uint64_t bytes);

    /// Everything up to the data section.
    std::string header() const;
    std::uint64_t dataBytes() const { return m_dataBytes; }
    /// The header and the data in memory.
    std::string bytes() const;
    /// The header and the data (sparse) at `path`.
    void write(const std::string &path) const;

private:
    std::uint64_t m_pairs = 0;
    GgufBytes m_metadata;
    std::uint64_t m_tensors = 0;
    GgufBytes m_infos;
    std::uint64_t m_dataBytes = 0;
};

/// Writes `head` at `path`, then zeros to `size` bytes (a sparse file).
void writeSparse(const std::string &path, const std::string &head, std::uint64_t size);

} // namespace testsupport
