#include "ui/matrixchart.h"

#include "core/explain/report.h"
#include "ui/language.h"
#include "ui/termstyle.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

/// How much of its verdict's colour a cell shows: fitting cells from this
/// share (just the scenario's context) to all of it (the matrix's longest).
constexpr double kFaintestFit = 0.35;

QColor mix(const QColor &paper, const QColor &colour, double share)
{
    const auto channel = [share](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * share)); };
    return QColor(channel(paper.red(), colour.red()), channel(paper.green(), colour.green()), channel(paper.blue(), colour.blue()));
}

/// Black or white, whichever reads on `fill` (WCAG relative luminance, roughly).
QColor textOn(const QColor &fill)
{
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace

MatrixChart::MatrixChart(QWidget *parent) : ChartView(parent)
{
    m_plot->legend->setVisible(false);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->xAxis->setSubTicks(false);
    m_plot->yAxis->setSubTicks(false);
    // The first format at the top, as in the reports.
    m_plot->yAxis->setRangeReversed(true);
}

void MatrixChart::showMatrix(const core::Scenario &scenario, const core::Catalog &catalog,
                             const std::vector<std::string> &gpuIds, core::ByteUnit unit)
{
    m_scenario = scenario;
    m_catalog = &catalog;
    m_unit = unit;
    m_matrix = core::formatMatrix(scenario, catalog, core::defaultMatrixFormats(), gpuIds);
    draw();
}

QString MatrixChart::cellText(std::size_t format, std::size_t gpu) const
{
    return QString::fromStdString(core::matrixCellText(m_matrix.at(format, gpu), translateForCore));
}

QString MatrixChart::toolTip(std::size_t format, std::size_t gpu) const
{
    const core::MatrixCell &cell = m_matrix.at(format, gpu);
    const core::GpuSpec *spec = m_catalog->find(m_matrix.gpuIds[gpu]);
    const core::FormatInfo &info = core::formatInfo(m_matrix.formats[format]);
    const QString longest = cell.maxSequence > 0
        ? tr("%1 tokens").arg(QString::fromStdString(core::groupDigits(cell.maxSequence)))
        : tr("none");
    const QString needed = cell.gpusNeeded > 0 ? QString::number(cell.gpusNeeded) : tr("more than can be searched");
    return tr("%1 (%2) on %3\nPer GPU at %4 tokens: %5 of %6\nLongest context that fits one GPU: %7\nGPUs needed: %8")
        .arg(QString::fromUtf8(info.id), QString::fromUtf8(info.label),
             spec ? shortGpuName(*spec) : QString::fromStdString(m_matrix.gpuIds[gpu]),
             QString::fromStdString(core::groupDigits(m_scenario.contextTokens())), bytesText(cell.total, m_unit),
             spec ? bytesText(spec->capacity(), m_unit) : QString(), longest, needed);
}

void MatrixChart::draw()
{
    m_frame.applyPalette();
    m_plot->clearItems();
    const std::size_t formats = m_matrix.formats.size();
    const std::size_t gpus = m_matrix.gpuIds.size();
    auto xTicks = qSharedPointerCast<QCPAxisTickerText>(m_plot->xAxis->ticker());
    auto yTicks = qSharedPointerCast<QCPAxisTickerText>(m_plot->yAxis->ticker());
    xTicks->clear();
    yTicks->clear();
    for (std::size_t j = 0; j < gpus; ++j) {
        const core::GpuSpec *gpu = m_catalog->find(m_matrix.gpuIds[j]);
        // Names wrap onto two lines rather than crowd their neighbours.
        xTicks->addTick(static_cast<double>(j),
                        gpu ? wrapText(shortGpuName(*gpu), m_frame.font(), 90) : QString::fromStdString(m_matrix.gpuIds[j]));
    }
    for (std::size_t i = 0; i < formats; ++i)
        yTicks->addTick(static_cast<double>(i), QString::fromUtf8(core::formatInfo(m_matrix.formats[i]).id));

    // The longest context in the matrix sets the strongest green.
    std::uint64_t longest = 1;
    for (const core::MatrixCell &cell : m_matrix.cells)
        if (cell.fits)
            longest = std::max(longest, cell.maxSequence);
    const double context = static_cast<double>(std::max<std::uint64_t>(1, m_scenario.contextTokens()));
    const double span = std::log(std::max(static_cast<double>(longest), context + 1) / context);
    const QColor paper = m_frame.paper();
    QFont font = m_frame.font();
    for (std::size_t i = 0; i < formats; ++i)
        for (std::size_t j = 0; j < gpus; ++j) {
            const core::MatrixCell &cell = m_matrix.at(i, j);
            double share = 1.0;
            if (cell.fits)
                share = kFaintestFit
                    + (1 - kFaintestFit) * std::clamp(std::log(static_cast<double>(cell.maxSequence) / context) / span, 0.0, 1.0);
            const QColor fill = mix(paper, verdictColor(cell.fits, cell.gpusNeeded), share);
            auto *rect = new QCPItemRect(m_plot);
            rect->topLeft->setCoords(static_cast<double>(j) - 0.5, static_cast<double>(i) - 0.5);
            rect->bottomRight->setCoords(static_cast<double>(j) + 0.5, static_cast<double>(i) + 0.5);
            rect->setBrush(fill);
            rect->setPen(QPen(paper, 2));
            auto *text = new QCPItemText(m_plot);
            text->position->setCoords(static_cast<double>(j), static_cast<double>(i));
            text->setText(cellText(i, j));
            text->setFont(font);
            text->setColor(textOn(fill));
        }
    m_frame.setTitle(scenarioSummary(m_scenario) + QLatin1Char('\n')
                     + tr("Each cell: the longest context that fits one GPU in that weight format (greener: longer), "
                          "or how many GPUs the scenario's %1 tokens need (orange; vermillion: none up to the search limit).")
                           .arg(QString::fromStdString(core::groupDigits(m_scenario.contextTokens()))));
    m_plot->xAxis->setLabel(tr("GPU"));
    m_plot->yAxis->setLabel(tr("Weight format"));
    m_plot->xAxis->setRange(-0.5, static_cast<double>(gpus) - 0.5);
    m_plot->yAxis->setRange(-0.5, static_cast<double>(formats) - 0.5);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString MatrixChart::toolTipAt(const QPointF &pixel) const
{
    const double x = std::round(m_plot->xAxis->pixelToCoord(pixel.x()));
    const double y = std::round(m_plot->yAxis->pixelToCoord(pixel.y()));
    if (m_matrix.cells.empty() || x < 0 || y < 0 || x >= static_cast<double>(m_matrix.gpuIds.size())
        || y >= static_cast<double>(m_matrix.formats.size()))
        return QString();
    return toolTip(static_cast<std::size_t>(y), static_cast<std::size_t>(x));
}

} // namespace ui
