#include "core/io/runcomparejson.h"

#include "core/explain/report.h"
#include "core/io/jsonreader.h"

#include <cmath>

namespace core::io {

std::string comparisonToJson(const RunComparison &c, const runlog::RunLog &log, const std::vector<std::string> &warnings)
{
    Json formats = Json::array();
    for (runlog::LogFormat f : log.formats)
        formats.push_back(runlog::logFormatId(f));
    Json measured = Json::array();
    for (const runlog::Reading &r : log.readings) {
        const runlog::QuantityInfo &info = runlog::quantityInfo(r.quantity);
        Json m = {{"quantity", info.id}, {"device", r.device}, {"line", r.line}};
        if (!r.detail.empty())
            m["detail"] = r.detail;
        if (info.isBytes) {
            m["bytes"] = r.bytes.count();
            m["uncertainty_bytes"] = r.uncertainty.count();
        } else {
            m["value"] = r.number;
        }
        measured.push_back(m);
    }
    Json settings = Json::array();
    for (const LogSetting &s : c.settings)
        settings.push_back({{"key", field(s.field).key}, {"value", s.value}, {"line", s.line}, {"applied", s.applied}});
    Json rows = Json::array();
    for (const ComparisonRow &r : c.rows) {
        Json row = {{"quantity", r.quantity}, {"label", r.label}, {"device", r.device}, {"term", r.term}, {"line", r.line}};
        if (r.isCount) {
            row["measured"] = r.measuredNumber;
            row["planned"] = r.planned ? Json(r.plannedNumber) : Json(nullptr);
        } else {
            row["measured_bytes"] = r.measured.count();
            row["uncertainty_bytes"] = r.uncertainty.count();
            row["planned_bytes"] = r.planned ? Json(r.planned->count()) : Json(nullptr);
            row["difference_bytes"] = r.planned ? Json(static_cast<long long>(std::llround(r.difference()))) : Json(nullptr);
        }
        const auto error = r.errorPercent();
        row["error_percent"] = error ? Json(std::round(*error * 100.0) / 100.0) : Json(nullptr);
        rows.push_back(row);
    }
    const Json j = {{"schema_version", 1},
                    {"scenario", summarize(c.scenario)},
                    {"formats", formats},
                    {"settings_from_log", settings},
                    {"measured", measured},
                    {"rows", rows},
                    {"notes", c.notes},
                    {"warnings", warnings}};
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace core::io
