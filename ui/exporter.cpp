#include "ui/exporter.h"

#include "core/explain/report.h"
#include "core/explain/servingplanreport.h"
#include "core/io/reportjson.h"
#include "ui/language.h"
#include "ui/memorychart.h"
#include "ui/plotrender.h"
#include "ui/reportpdf.h"
#include "ui/scenariocontroller.h"
#include "ui/scenariofile.h"
#include "ui/termstyle.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>


namespace ui {

namespace {

/// The one-page report: the chart above the brief Markdown report, in
/// the reader's language.
QByteArray reportPdf(const core::Scenario &s, const core::EstimateWithFits &result, const core::Catalog &catalog,
                     core::ReportMeta meta, QCustomPlot *plot, const ChartExportOptions &options)
{
    meta.brief = true;
    const QSizeF page = options.pageMm.isEmpty() ? findExportPage(QStringLiteral("a4"))->millimetres : options.pageMm;
    return renderReportPdf(plot, QString::fromStdString(core::markdownReport(s, result, catalog, meta)), page,
                           QString::fromStdString(core::summarize(s, meta.translator)));
}

core::ReportMeta reportMeta(const ScenarioController &controller)
{
    core::ReportMeta meta;
    meta.title = QCoreApplication::translate("Exporter", "VRAM Planner estimate").toStdString();
    meta.date = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")).toStdString();
    meta.version = QCoreApplication::applicationVersion().toStdString();
    meta.unit = controller.unit();
    meta.translator = translateForCore;
    return meta;
}

} // namespace

const std::vector<ExportPage> &exportPages()
{
    // ISO 216 A4 and US Letter landscape, a 16:9 slide as PowerPoint and
    // Impress lay it out (13.33 x 7.5 in), and a 16 cm text column of an
    // A4 document with 2.5 cm margins.
    static const std::vector<ExportPage> pages = {
        {"a4", QT_TRANSLATE_NOOP("ExportPage", "A4 page, landscape"), QSizeF(297, 210)},
        {"letter", QT_TRANSLATE_NOOP("ExportPage", "Letter page, landscape"), QSizeF(279.4, 215.9)},
        {"slide", QT_TRANSLATE_NOOP("ExportPage", "16:9 slide"), QSizeF(338.7, 190.5)},
        {"column", QT_TRANSLATE_NOOP("ExportPage", "Document column, 16 cm"), QSizeF(160, 110)},
    };
    return pages;
}

const ExportPage *findExportPage(const QString &id)
{
    for (const ExportPage &page : exportPages())
        if (id == QLatin1String(page.id))
            return &page;
    return nullptr;
}

const ExportPage *defaultExportPage(ExportFormat format)
{
    return format == ExportFormat::Pdf || format == ExportFormat::Svg ? findExportPage(QStringLiteral("a4")) : nullptr;
}

ChartExportOptions pageOptions(const ExportPage &page, int dpi)
{
    constexpr double kLayoutPixelsPerMm = 96 / 25.4;
    ChartExportOptions options;
    options.size = QSize(qRound(page.millimetres.width() * kLayoutPixelsPerMm),
                         qRound(page.millimetres.height() * kLayoutPixelsPerMm));
    options.dpi = dpi;
    options.scale = dpi / 96.0;
    options.printed = true;
    options.pageMm = page.millimetres;
    return options;
}

std::optional<ExportFormat> exportFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        return ExportFormat::Markdown;
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    if (suffix == QLatin1String("json"))
        return ExportFormat::Json;
    return std::nullopt;
}

bool isReport(ExportFormat format)
{
    return format == ExportFormat::Markdown || format == ExportFormat::Csv || format == ExportFormat::Json;
}

bool exportTo(const QString &path, ExportFormat format, const ScenarioController &controller, MemoryChart &chart,
              QCustomPlot *shown, const ChartExportOptions &options, QString *error)
{
    const core::EstimateWithFits &result = controller.result();
    const core::Scenario &s = result.scenario; // as estimated: with a mixed device set's split
    const core::ReportMeta meta = reportMeta(controller);
    QByteArray bytes;
    switch (format) {
    case ExportFormat::Png:
    case ExportFormat::Svg:
    case ExportFormat::Pdf: {
        QCustomPlot *plot = shown ? shown : chart.plot();
        const int w = options.size.width();
        const int h = options.size.height();
        const QString title = scenarioSummary(s);
        const QString footer = QString::fromStdString(core::chartFooter(s, meta));
        // A screen-sized PNG is read scaled down: its text is drawn half as
        // large again. A printed size keeps text at its point size.
        if (format == ExportFormat::Pdf && options.report) {
            bytes = reportPdf(s, result, controller.catalog(), meta, plot, options);
            break;
        }
        const double textScale = options.printed ? 1.0 : 1.5;
        bytes = format == ExportFormat::Png ? renderPng(plot, w, h, options.scale, options.dpi, textScale, footer)
            : format == ExportFormat::Svg   ? renderSvg(plot, w, h, title, footer)
                                            : renderPdf(plot, w, h, title, footer);
        break;
    }
    case ExportFormat::Markdown:
        bytes = QByteArray::fromStdString(core::markdownReport(s, result, controller.catalog(), meta));
        break;
    case ExportFormat::Csv:
        bytes = QByteArray::fromStdString(core::csvReport(s, result, controller.catalog(), meta));
        break;
    case ExportFormat::Json:
        bytes = QByteArray::fromStdString(core::io::estimateToJson(s, result, controller.catalog()));
        break;
    }
    if (bytes.isEmpty()) {
        *error = QCoreApplication::translate("Exporter", "Could not render %1.").arg(path);
        return false;
    }
    return scenariofile::writeText(path, bytes, error);
}

} // namespace ui

namespace ui {

bool exportMatrix(const QString &path, ExportFormat format, const ScenarioController &controller,
                  const core::FormatMatrix &matrix, QString *error)
{
    const std::string text = format == ExportFormat::Markdown
        ? core::matrixMarkdown(controller.scenario(), matrix, controller.catalog(), reportMeta(controller))
        : format == ExportFormat::Csv  ? core::matrixCsv(matrix)
        : format == ExportFormat::Json ? core::io::matrixToJson(matrix)
                                       : std::string();
    if (text.empty() || matrix.cells.empty()) {
        *error = QCoreApplication::translate("Exporter", "Could not render %1.").arg(path);
        return false;
    }
    return scenariofile::writeText(path, QByteArray::fromStdString(text), error);
}

bool exportServingPlan(const QString &path, ExportFormat format, const ScenarioController &controller,
                       const core::Scenario &base, const core::ServingPlan &plan, const core::ServingPlanRequest &request,
                       QString *error)
{
    const std::string text = format == ExportFormat::Markdown
        ? core::servingPlanMarkdown(base, plan, request, controller.catalog(), reportMeta(controller))
        : format == ExportFormat::Csv  ? core::servingPlanCsv(plan)
        : format == ExportFormat::Json ? core::io::servingPlanToJson(base, plan)
                                       : std::string();
    if (text.empty()) {
        *error = QCoreApplication::translate("Exporter", "Could not render %1.").arg(path);
        return false;
    }
    return scenariofile::writeText(path, QByteArray::fromStdString(text), error);
}

} // namespace ui
