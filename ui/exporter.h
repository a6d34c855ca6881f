#pragma once

#include <QSize>
#include <QString>

#include <optional>

class QCustomPlot;

namespace core {
struct FormatMatrix;
}

namespace ui {

class MemoryChart;
class ScenarioController;

enum class ExportFormat { Png, Svg, Pdf, Markdown, Csv, Json };

/// The format a file name asks for (".png", ".md", ...), if any.
std::optional<ExportFormat> exportFormatForPath(const QString &path);
/// Markdown, CSV or JSON: text rather than a drawing.
bool isReport(ExportFormat format);

struct ChartExportOptions
{
    QSize size{1600, 1000};
    double scale = 1.0; ///< PNG pixel ratio (2 = HiDPI)
    int dpi = 96;       ///< recorded in the PNG
};

/// Writes the chart or the report for the controller's current scenario.
/// Chart exports carry the scenario summary as title and the assumptions
/// with the planner version and date as footer (core::chartFooter);
/// reports list every input, term, fit and assumption. Files are written
/// atomically; on failure `error` names the file and the reason.
/// `shown` is the chart to render: the per-GPU chart, or one of the sweeps
/// as displayed.
bool exportTo(const QString &path, ExportFormat format, const ScenarioController &controller, MemoryChart &chart,
              QCustomPlot *shown, const ChartExportOptions &options, QString *error);

/// Writes `matrix`, computed for the controller's scenario, as a report
/// (Markdown, CSV or JSON, as the CLI's `matrix` command does); false with
/// `error` set for a drawing format or when the file cannot be written.
bool exportMatrix(const QString &path, ExportFormat format, const ScenarioController &controller,
                  const core::FormatMatrix &matrix, QString *error);

} // namespace ui
