#include "core/io/catalogio.h"

#include "core/io/jsonreader.h"
#include "core/model/macosworkingset.h"
#include "core/scenario/fields.h"

#include <set>

namespace core::io {

namespace {

constexpr std::uint64_t kMaxGpuBytes = 1ull << 50; // 1 PiB: nothing real comes close
constexpr double kMaxTflops = 1e6;

std::optional<double> optionalNumber(JsonReader &r, const char *key, double max)
{
    return r.number(key, 0.0, max, false);
}

GpuSpec readGpu(JsonReader &r)
{
    GpuSpec gpu;
    gpu.id = r.string("id", true).value_or("");
    gpu.name = r.string("name", true).value_or(gpu.id);
    gpu.vendor = r.string("vendor", false).value_or("");
    gpu.architecture = r.string("architecture", false).value_or("");
    gpu.computeCapability = r.string("compute_capability", false).value_or("");
    gpu.launchYear = static_cast<int>(r.uint("launch_year", 1990, 2100, false).value_or(0));
    gpu.memory = Bytes::fromCount(r.uint("memory_bytes", 1, kMaxGpuBytes, true).value_or(0));
    if (auto usable = r.uint("usable_memory_bytes", 1, kMaxGpuBytes, false)) {
        if (Bytes::fromCount(*usable) > gpu.memory)
            r.error("usable_memory_bytes", "exceeds memory_bytes");
        else
            gpu.usableMemory = Bytes::fromCount(*usable);
    }
    if (auto smi = r.uint("nvidia_smi_total_mib", 1, kMaxGpuBytes >> 20, false)) {
        const Bytes total = Bytes::mib(static_cast<double>(*smi));
        if (!gpu.vendor.empty() && gpu.vendor != "NVIDIA")
            r.error("nvidia_smi_total_mib", "is nvidia-smi's figure; this card's vendor is " + gpu.vendor);
        else if (total > gpu.memory)
            r.error("nvidia_smi_total_mib", "exceeds memory_bytes");
        else if (gpu.usableMemory && total < *gpu.usableMemory)
            r.error("nvidia_smi_total_mib", "is less than usable_memory_bytes");
        else
            gpu.nvidiaSmiTotal = total;
    }
    // A Mac's usable memory follows its macOS release unless stated.
    if (auto macos = r.string("macos", false)) {
        const auto release = parseMacosRelease(*macos);
        if (!release)
            r.error("macos", "'" + *macos + "' is not a macOS release, 13 or later (e.g. \"26\")");
        else if (gpu.usableMemory)
            r.error("macos", "give usable_memory_bytes or macos, not both");
        else
            gpu.usableMemory = macosWorkingSetBytes(gpu.memory, *release);
    }
    gpu.memoryType = r.string("memory_type", false).value_or("");
    gpu.bandwidthGBps = optionalNumber(r, "memory_bandwidth_gb_per_s", 1e6).value_or(0);
    if (auto peak = r.object("peak_tflops", false)) {
        gpu.peak.fp32 = optionalNumber(*peak, "fp32", kMaxTflops);
        gpu.peak.tf32 = optionalNumber(*peak, "tf32", kMaxTflops);
        gpu.peak.fp16 = optionalNumber(*peak, "fp16", kMaxTflops);
        gpu.peak.bf16 = optionalNumber(*peak, "bf16", kMaxTflops);
        gpu.peak.fp8 = optionalNumber(*peak, "fp8", kMaxTflops);
        gpu.peak.int8 = optionalNumber(*peak, "int8", kMaxTflops);
        gpu.peak.fp4 = optionalNumber(*peak, "fp4", kMaxTflops);
    }
    if (auto supports = r.object("supports", false)) {
        gpu.supportsBf16 = supports->boolean("bf16", false).value_or(false);
        gpu.supportsFlashAttention2 = supports->boolean("flash_attention_2", false).value_or(false);
        gpu.supportsFp8 = supports->boolean("fp8", false).value_or(false);
    }
    if (auto link = r.object("interconnect", false)) {
        gpu.interconnect = link->string("name", false).value_or("");
        gpu.interconnectGBps = optionalNumber(*link, "bandwidth_gb_per_s", 1e6).value_or(0);
    }
    gpu.tdpWatts = optionalNumber(r, "tdp_w", 1e5).value_or(0);
    // The price input's own range (the price per GPU-hour field).
    gpu.pricePerHour = optionalNumber(r, "price_per_gpu_hour_usd", field(FieldId::PricePerGpuHour).max).value_or(0);
    gpu.defaultShown = r.boolean("default_shown", false).value_or(false);
    gpu.source = r.string("source", true).value_or("");
    gpu.notes = r.string("notes", false).value_or("");
    return gpu;
}

} // namespace

LoadResult<Catalog> loadCatalog(const std::string &text)
{
    LoadResult<Catalog> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected an object with schema_version and gpus");
        return result;
    }
    JsonReader root(*json, "", result.errors);
    const auto version = root.uint("schema_version", 1, 1000, true);
    if (version && *version != 1)
        root.error("schema_version", "is " + std::to_string(*version) + "; this version reads schema_version 1");
    if (!root.has("gpus") || !json->at("gpus").is_array()) {
        root.error("gpus", "missing or not an array");
        return result;
    }
    Catalog catalog;
    std::set<std::string> ids;
    const Json &gpus = json->at("gpus");
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const std::string pointer = "/gpus/" + std::to_string(i);
        if (!gpus[i].is_object()) {
            result.errors.push_back(pointer + ": expected an object");
            continue;
        }
        JsonReader entry(gpus[i], pointer, result.errors);
        GpuSpec gpu = readGpu(entry);
        if (!gpu.id.empty() && !ids.insert(gpu.id).second)
            entry.error("id", "duplicate id '" + gpu.id + "'");
        catalog.gpus.push_back(std::move(gpu));
    }
    if (catalog.gpus.empty())
        root.error("gpus", "is empty; a catalog needs at least one GPU");
    if (result.errors.empty())
        result.value = std::move(catalog);
    return result;
}

} // namespace core::io
