#pragma once

// The bytes the weight-file readers parse: a file read on demand through a
// small window, or bytes already in memory (tests, fuzzers). The parsers
// work on a ByteSource only, so the file readers are a thin layer and the
// fuzzers reach every check the files meet.

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

namespace core::io {

class ByteSource
{
public:
    virtual ~ByteSource() = default;
    virtual std::uint64_t size() const = 0;
    /// Copies `length` bytes at `offset` to `out`; false past the end or
    /// when the file cannot be read.
    virtual bool read(std::uint64_t offset, std::size_t length, char *out) = 0;
};

/// Bytes in memory; `bytes` must outlive the source.
class MemorySource final : public ByteSource
{
public:
    explicit MemorySource(const std::string &bytes) : m_bytes(bytes) {}
    std::uint64_t size() const override { return m_bytes.size(); }
    bool read(std::uint64_t offset, std::size_t length, char *out) override;

private:
    const std::string &m_bytes;
};

/// A file, read through a 64 KiB window: a header of thousands of small
/// fields costs a read per window, and a skip over tensor data reads
/// nothing.
class FileSource final : public ByteSource
{
public:
    explicit FileSource(const std::string &path);
    /// False when the file could not be opened; `error()` says why.
    bool isOpen() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    std::uint64_t size() const override { return m_size; }
    bool read(std::uint64_t offset, std::size_t length, char *out) override;

private:
    std::ifstream m_in;
    std::uint64_t m_size = 0;
    std::string m_error;
    std::string m_window;
    std::uint64_t m_windowStart = 0;
};

/// Little-endian values one after another from a source. Every read
/// checks the source's end first; nothing is allocated from a length the
/// file states.
class ByteReader
{
public:
    explicit ByteReader(ByteSource &source, std::uint64_t offset = 0) : m_source(source), m_offset(offset) {}

    std::uint64_t offset() const { return m_offset; }
    std::uint64_t remaining() const { return m_offset < m_source.size() ? m_source.size() - m_offset : 0; }

    /// An unsigned little-endian integer of `width` bytes (1, 2, 4 or 8).
    bool unsignedInt(std::size_t width, std::uint64_t &value);
    bool u32(std::uint32_t &value);
    bool u64(std::uint64_t &value) { return unsignedInt(8, value); }
    /// `length` bytes into `out`; the caller bounds `length` first.
    bool bytes(std::size_t length, std::string &out);
    bool skip(std::uint64_t length);

private:
    ByteSource &m_source;
    std::uint64_t m_offset;
};

} // namespace core::io
