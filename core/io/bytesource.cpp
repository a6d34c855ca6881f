#include "core/io/bytesource.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace core::io {

namespace {

constexpr std::size_t kWindowBytes = 64u * 1024u;

} // namespace

bool MemorySource::read(std::uint64_t offset, std::size_t length, char *out)
{
    if (offset > m_bytes.size() || length > m_bytes.size() - offset)
        return false;
    std::memcpy(out, m_bytes.data() + offset, length);
    return true;
}

FileSource::FileSource(const std::string &path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        m_error = ec ? ec.message() : "not a file";
        return;
    }
    m_size = std::filesystem::file_size(path, ec);
    if (ec) {
        m_error = ec.message();
        return;
    }
    m_in.open(path, std::ios::binary);
    if (!m_in)
        m_error = "cannot be opened";
}

bool FileSource::read(std::uint64_t offset, std::size_t length, char *out)
{
    if (offset > m_size || length > m_size - offset)
        return false;
    const bool inWindow = offset >= m_windowStart && offset - m_windowStart + length <= m_window.size();
    if (!inWindow) {
        if (length > kWindowBytes) { // a large read goes straight to the caller
            m_in.clear();
            m_in.seekg(static_cast<std::streamoff>(offset));
            m_in.read(out, static_cast<std::streamsize>(length));
            return static_cast<std::size_t>(m_in.gcount()) == length;
        }
        m_window.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kWindowBytes, m_size - offset)));
        m_windowStart = offset;
        m_in.clear();
        m_in.seekg(static_cast<std::streamoff>(offset));
        m_in.read(m_window.data(), static_cast<std::streamsize>(m_window.size()));
        if (static_cast<std::size_t>(m_in.gcount()) != m_window.size()) {
            m_window.clear();
            return false;
        }
    }
    std::memcpy(out, m_window.data() + (offset - m_windowStart), length);
    return true;
}

bool ByteReader::unsignedInt(std::size_t width, std::uint64_t &value)
{
    unsigned char raw[8] = {};
    if (width > sizeof raw || !m_source.read(m_offset, width, reinterpret_cast<char *>(raw)))
        return false;
    value = 0;
    for (std::size_t i = width; i-- > 0;)
        value = value << 8 | raw[i];
    m_offset += width;
    return true;
}

bool ByteReader::u32(std::uint32_t &value)
{
    std::uint64_t wide = 0;
    if (!unsignedInt(4, wide))
        return false;
    value = static_cast<std::uint32_t>(wide);
    return true;
}

bool ByteReader::bytes(std::size_t length, std::string &out)
{
    if (length > remaining())
        return false;
    out.resize(length);
    if (!m_source.read(m_offset, length, out.data()))
        return false;
    m_offset += length;
    return true;
}

bool ByteReader::skip(std::uint64_t length)
{
    if (length > remaining())
        return false;
    m_offset += length;
    return true;
}

} // namespace core::io
