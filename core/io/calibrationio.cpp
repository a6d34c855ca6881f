#include "core/io/calibrationio.h"

#include "core/io/jsonreader.h"

namespace core::io {

namespace {
constexpr std::uint64_t kMaxMeasuredBytes = 1ull << 50;

Json bytesOrNull(const std::optional<Bytes> &b) { return b ? Json(b->count()) : Json(nullptr); }
} // namespace

std::string saveCalibration(const CalibrationProfile &p, const std::string &created)
{
    const Json j = {{"schema_version", 1},
                    {"kind", "vramplanner-calibration"},
                    {"name", p.name},
                    {"created", created},
                    {"gpu", p.gpuId},
                    {"fitted_on", p.scenarioSummary},
                    {"cuda_overhead_mib", p.cudaOverheadMib},
                    {"reserve_percent", p.reservePercent},
                    {"measured_bytes",
                     {{"allocated", bytesOrNull(p.measurement.allocated)},
                      {"reserved", bytesOrNull(p.measurement.reserved)},
                      {"nvidia_smi", bytesOrNull(p.measurement.nvidiaSmi)}}}};
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

LoadResult<CalibrationProfile> loadCalibration(const std::string &text)
{
    LoadResult<CalibrationProfile> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected a calibration profile object");
        return result;
    }
    JsonReader r(*json, "", result.errors);
    const auto version = r.uint("schema_version", 1, 1000, true);
    if (version && *version != 1)
        r.error("schema_version", "is " + std::to_string(*version) + "; this version reads 1");
    if (r.string("kind", true).value_or("") != "vramplanner-calibration")
        r.error("kind", "is not 'vramplanner-calibration'");
    CalibrationProfile p;
    p.name = r.string("name", true).value_or("");
    p.gpuId = r.string("gpu", false).value_or("");
    p.scenarioSummary = r.string("fitted_on", false).value_or("");
    p.cudaOverheadMib = r.number("cuda_overhead_mib", 0, 1 << 20, true).value_or(0);
    p.reservePercent = r.number("reserve_percent", 0, 99.9, true).value_or(0);
    if (auto measured = r.object("measured_bytes", false)) {
        const auto read = [&measured](const char *key) -> std::optional<Bytes> {
            if (auto v = measured->uint(key, 1, kMaxMeasuredBytes, false))
                return Bytes::fromCount(*v);
            return std::nullopt;
        };
        p.measurement.allocated = read("allocated");
        p.measurement.reserved = read("reserved");
        p.measurement.nvidiaSmi = read("nvidia_smi");
    }
    if (result.errors.empty())
        result.value = std::move(p);
    return result;
}

} // namespace core::io
