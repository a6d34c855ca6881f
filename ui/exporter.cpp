#include "ui/exporter.h"

#include "core/explain/report.h"
#include "core/io/reportjson.h"
#include "ui/language.h"
#include "ui/memorychart.h"
#include "ui/plotrender.h"
#include "ui/scenariocontroller.h"
#include "ui/scenariofile.h"
#include "ui/termstyle.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

namespace ui {

namespace {

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
        bytes = format == ExportFormat::Png ? renderPng(plot, w, h, options.scale, options.dpi, footer)
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

} // namespace ui
