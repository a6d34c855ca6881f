#pragma once

#include <QSize>
#include <QSizeF>
#include <QString>

#include <optional>
#include <vector>

class QCustomPlot;

namespace core {
struct FormatMatrix;
struct Scenario;
struct ServingPlan;
struct ServingPlanRequest;
}

namespace ui {

class MemoryChart;
class ScenarioController;

enum class ExportFormat { Png, Svg, Pdf, Markdown, Csv, Json };

/// The format a file name asks for (".png", ".md", ...), if any.
std::optional<ExportFormat> exportFormatForPath(const QString &path);
/// Markdown, CSV or JSON: text rather than a drawing.
bool isReport(ExportFormat format);

/// A printed size a chart is laid out for: a page or slide (landscape) or
/// a document's text column.
struct ExportPage
{
    const char *id;    ///< --page spelling: "a4"
    const char *label; ///< English, translatable (context "ExportPage")
    QSizeF millimetres;
};
const std::vector<ExportPage> &exportPages();
const ExportPage *findExportPage(const QString &id);
/// A PDF or SVG goes into a document: an A4 page unless a size is asked
/// for; a PNG: none (a size in pixels).
const ExportPage *defaultExportPage(ExportFormat format);

struct ChartExportOptions
{
    QSize size{1600, 1000}; ///< the layout's size in pixels at 96 per inch
    double scale = 1.0; ///< PNG pixel ratio (2 = HiDPI)
    int dpi = 96;       ///< recorded in the PNG
    /// Laid out for a printed size: text keeps its point size on paper
    /// (the window's 9 points; nothing under 8) rather than being scaled
    /// for a screen-sized image.
    bool printed = false;
    QSizeF pageMm; ///< the printed size laid out for; empty for a size in pixels
    /// PDF: the one-page report (title, chart, breakdown, fits, what would
    /// fit, assumptions, sources) on the page, portrait, A4 unless set.
    bool report = false;
};

/// The options that lay a chart out at `page`'s printed size, as a PNG of
/// `dpi` pixels per inch (a PDF or SVG page of that size ignores `dpi`).
ChartExportOptions pageOptions(const ExportPage &page, int dpi);

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
/// The serving plan on show in the Deploy view as Markdown, CSV or JSON.
bool exportServingPlan(const QString &path, ExportFormat format, const ScenarioController &controller,
                       const core::Scenario &base, const core::ServingPlan &plan, const core::ServingPlanRequest &request,
                       QString *error);

} // namespace ui
