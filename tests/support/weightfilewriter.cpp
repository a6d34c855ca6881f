#include "tests/support/weightfilewriter.h"

#include <cstring>
#include <filesystem>
#include <fstream>

namespace testsupport {

namespace {

constexpr std::uint64_t kAlignment = 32; // GGUF's default (docs/gguf.md)

std::uint64_t aligned(std::uint64_t offset)
{
    return (offset + kAlignment - 1) / kAlignment * kAlignment;
}

std::string littleEndian(std::uint64_t value, int bytes)
{
    std::string out;
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((value >> (8 * i)) & 0xFF);
    return out;
}

} // namespace

std::string safetensorsHeader(const std::vector<SafetensorsTensor> &tensors)
{
    std::string json = R"({"__metadata__": {"format": "pt"})";
    std::uint64_t offset = 0;
    for (const SafetensorsTensor &t : tensors) {
        std::string shape;
        for (const std::uint64_t d : t.shape)
            shape += (shape.empty() ? "" : ", ") + std::to_string(d);
        json += ", \"" + t.name + "\": {\"dtype\": \"" + t.dtype + "\", \"shape\": [" + shape + "], \"data_offsets\": ["
                + std::to_string(offset) + ", " + std::to_string(offset + t.bytes) + "]}";
        offset += t.bytes;
    }
    return json + "}";
}

std::uint64_t dataBytes(const std::vector<SafetensorsTensor> &tensors)
{
    std::uint64_t sum = 0;
    for (const SafetensorsTensor &t : tensors)
        sum += t.bytes;
    return sum;
}

std::string safetensorsBytes(const std::string &header, std::uint64_t dataBytes)
{
    return littleEndian(header.size(), 8) + header + std::string(dataBytes, '\0');
}

void writeSafetensors(const std::string &path, const std::string &header, std::uint64_t dataBytes)
{
    writeSparse(path, littleEndian(header.size(), 8) + header, 8 + header.size() + dataBytes);
}

GgufBytes &GgufBytes::u8(std::uint8_t value)
{
    m_bytes += littleEndian(value, 1);
    return *this;
}

GgufBytes &GgufBytes::u16(std::uint16_t value)
{
    m_bytes += littleEndian(value, 2);
    return *this;
}

GgufBytes &GgufBytes::u32(std::uint32_t value)
{
    m_bytes += littleEndian(value, 4);
    return *this;
}

GgufBytes &GgufBytes::u64(std::uint64_t value)
{
    m_bytes += littleEndian(value, 8);
    return *this;
}

GgufBytes &GgufBytes::f32(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return u32(bits);
}

GgufBytes &GgufBytes::string(const std::string &text)
{
    u64(text.size());
    m_bytes += text;
    return *this;
}

GgufBytes &GgufBytes::raw(const std::string &bytes)
{
    m_bytes += bytes;
    return *this;
}

GgufFile &GgufFile::pair(const std::string &key, const GgufBytes &value)
{
    m_metadata.string(key).raw(value.bytes());
    ++m_pairs;
    return *this;
}

GgufFile &GgufFile::u32(const std::string &key, std::uint32_t value)
{
    return pair(key, GgufBytes().u32(kGgufUint32).u32(value));
}

GgufFile &GgufFile::u16(const std::string &key, std::uint16_t value)
{
    return pair(key, GgufBytes().u32(kGgufUint16).u16(value));
}

GgufFile &GgufFile::i32(const std::string &key, std::int32_t value)
{
    return pair(key, GgufBytes().u32(kGgufInt32).u32(static_cast<std::uint32_t>(value)));
}

GgufFile &GgufFile::f32(const std::string &key, float value)
{
    return pair(key, GgufBytes().u32(kGgufFloat32).f32(value));
}

GgufFile &GgufFile::text(const std::string &key, const std::string &value)
{
    return pair(key, GgufBytes().u32(kGgufString).string(value));
}

GgufFile &GgufFile::u32Array(const std::string &key, const std::vector<std::uint32_t> &values)
{
    GgufBytes value;
    value.u32(kGgufArray).u32(kGgufUint32).u64(values.size());
    for (const std::uint32_t v : values)
        value.u32(v);
    return pair(key, value);
}

GgufFile &GgufFile::stringArray(const std::string &key, const std::vector<std::string> &values)
{
    GgufBytes value;
    value.u32(kGgufArray).u32(kGgufString).u64(values.size());
    for (const std::string &v : values)
        value.string(v);
    return pair(key, value);
}

GgufFile &GgufFile::tensor(const std::string &name, const std::vector<std::uint64_t> &ne, std::uint32_t type,
                           std::uint64_t bytes)
{
    const std::uint64_t offset = aligned(m_dataBytes);
    m_infos.string(name).u32(static_cast<std::uint32_t>(ne.size()));
    for (const std::uint64_t n : ne)
        m_infos.u64(n);
    m_infos.u32(type).u64(offset);
    m_dataBytes = offset + bytes;
    ++m_tensors;
    return *this;
}

std::string GgufFile::header() const
{
    GgufBytes head;
    head.raw("GGUF").u32(3).u64(m_tensors).u64(m_pairs).raw(m_metadata.bytes()).raw(m_infos.bytes());
    const std::string &bytes = head.bytes();
    return bytes + std::string(aligned(bytes.size()) - bytes.size(), '\0');
}

std::string GgufFile::bytes() const
{
    return header() + std::string(m_dataBytes, '\0');
}

void GgufFile::write(const std::string &path) const
{
    const std::string head = header();
    writeSparse(path, head, head.size() + m_dataBytes);
}

void writeSparse(const std::string &path, const std::string &head, std::uint64_t size)
{
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
    }
    std::filesystem::resize_file(path, size);
}

} // namespace testsupport
