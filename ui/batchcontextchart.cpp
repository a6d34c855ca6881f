#include "ui/batchcontextchart.h"

#include "core/analysis/sweep.h"
#include "core/engine/estimate.h"
#include "core/scenario/servingruntime.h"
#include "ui/sweeprange.h"
#include "ui/termstyle.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ui {

namespace {

/// Ticks at whole powers of two on an axis counted in log2 units, labelled
/// as people write counts ("4,096"). The heat map's cells are even in log
/// space, so its axes count in log2 rather than QCustomPlot's log scale
/// (which would stretch a colour map's cells unevenly).
class PowerOfTwoTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange &range) override { return std::max(1.0, std::round(range.size() / tickCount())); }
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(std::llround(std::exp2(tick)))));
    }
};

/// Viridis (van der Walt & Smith 2015, matplotlib's default map):
/// perceptually even, legible in greyscale and to colour-blind readers.
QCPColorGradient viridis()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    gradient.setColorStopAt(0.25, QColor(0x3B, 0x52, 0x8B));
    gradient.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8C));
    gradient.setColorStopAt(0.75, QColor(0x5E, 0xC9, 0x62));
    gradient.setColorStopAt(1.0, QColor(0xFD, 0xE7, 0x25));
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(0x99, 0x99, 0x99));
    return gradient;
}

/// Boundary colours that stand out on most of viridis and on the legend's
/// paper (Okabe-Ito orange, sky blue, reddish purple, vermillion, blue;
/// black): a halo does the rest.
const QColor kBoundaryColours[] = {QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0xCC, 0x79, 0xA7),
                                   QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x72, 0xB2), QColor(Qt::black)};
const Qt::PenStyle kBoundaryStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};

/// Index of the value in `values` (ascending) nearest 2^`log2` on a log scale.
std::size_t nearest(const std::vector<std::uint64_t> &values, double log2)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (std::abs(std::log2(static_cast<double>(values[i])) - log2) < std::abs(std::log2(static_cast<double>(values[best])) - log2))
            best = i;
    return best;
}

QString count(std::uint64_t n) { return QString::fromStdString(core::groupDigits(n)); }

} // namespace

BatchContextChart::BatchContextChart(QWidget *parent)
    : ChartView(parent), m_map(new QCPColorMap(m_plot->xAxis, m_plot->yAxis)), m_scale(new QCPColorScale(m_plot))
{
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTicker(QSharedPointer<PowerOfTwoTicker>(new PowerOfTwoTicker));
        axis->setSubTicks(false);
        axis->grid()->setVisible(false);
    }
    m_map->setName(QString()); // not in the legend: the colour bar explains it
    m_map->removeFromLegend();
    m_map->setDataScaleType(QCPAxis::stLogarithmic);
    m_map->setInterpolate(false);
    // The colour bar under the plot, aligned with it.
    m_scale->setType(QCPAxis::atBottom);
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    m_scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_scale->setBarWidth(12);
    m_plot->plotLayout()->addElement(2, 0, m_scale);
    m_map->setColorScale(m_scale);
    m_scale->setGradient(viridis()); // the map takes the scale's gradient
    auto *margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msLeft, margins);
    m_scale->setMarginGroup(QCP::msLeft, margins);
}

void BatchContextChart::showGrid(const core::Scenario &scenario, const core::Catalog &catalog,
                                 const std::vector<std::string> &gpuIds, core::ByteUnit unit)
{
    m_scenario = scenario;
    m_catalog = &catalog;
    m_unit = unit;
    const SweepRange batch = sweepRange(scenario, core::SweepAxis::Batch);
    const SweepRange context = sweepRange(scenario, core::SweepAxis::Sequence);
    m_batches = core::logSpaced(batch.from, batch.to, kGridPoints);
    m_sequences = core::logSpaced(context.from, context.to, kGridPoints);
    m_totals = core::batchContextGrid(scenario, m_batches, m_sequences);
    m_gpuIds.clear();
    for (const std::string &id : gpuIds)
        if (catalog.find(id))
            m_gpuIds.push_back(id);
    // Each card's boundary on the estimate it starts with (vLLM's defaults
    // and SGLang's communicators follow the card): one search per estimate.
    m_boundaries.assign(m_gpuIds.size(), {});
    std::vector<bool> done(m_gpuIds.size(), false);
    for (std::size_t i = 0; i < m_gpuIds.size(); ++i) {
        if (done[i])
            continue;
        const core::Scenario onCard = core::onServingCard(scenario, *catalog.find(m_gpuIds[i]));
        std::vector<std::size_t> group;
        std::vector<core::Bytes> capacities;
        for (std::size_t k = i; k < m_gpuIds.size(); ++k) {
            const core::GpuSpec &gpu = *catalog.find(m_gpuIds[k]);
            if (!done[k] && core::sameTotalOn(onCard, gpu)) {
                done[k] = true;
                group.push_back(k);
                capacities.push_back(gpu.capacity());
            }
        }
        const auto boundaries = core::largestBatches(onCard, m_sequences, capacities, batch.to);
        for (std::size_t g = 0; g < group.size(); ++g)
            m_boundaries[group[g]] = boundaries[g];
    }
    draw();
}

QString BatchContextChart::toolTip(std::size_t i, std::size_t j) const
{
    const core::Bytes total = m_totals[i * m_sequences.size() + j];
    QStringList fits;
    QStringList short_;
    for (const std::string &id : m_gpuIds)
        if (const core::GpuSpec *gpu = m_catalog->find(id)) {
            // A card on another estimate has its own total here.
            const core::Bytes own = core::sameTotalOn(m_scenario, *gpu)
                ? total
                : core::estimate(core::withAxis(core::withAxis(core::onServingCard(m_scenario, *gpu),
                                                               core::SweepAxis::Batch, m_batches[i]),
                                                core::SweepAxis::Sequence, m_sequences[j]))
                      .total;
            (own <= gpu->capacity() ? fits : short_) << shortGpuName(*gpu);
        }
    QString text = tr("Batch %1 × %2 tokens: %3 per GPU").arg(count(m_batches[i]), count(m_sequences[j]), bytesText(total, m_unit));
    if (!fits.isEmpty())
        text += QLatin1Char('\n') + tr("Fits: %1").arg(fits.join(QStringLiteral(", ")));
    if (!short_.isEmpty())
        text += QLatin1Char('\n') + tr("Does not fit: %1").arg(short_.join(QStringLiteral(", ")));
    return text;
}

void BatchContextChart::draw()
{
    m_frame.applyPalette();
    m_scale->axis()->setTickLabelFont(m_frame.font());
    m_scale->axis()->setLabelFont(m_frame.font());
    m_scale->axis()->setBasePen(QPen(m_frame.ink()));
    m_scale->axis()->setTickPen(QPen(m_frame.ink()));
    m_scale->axis()->setTickLabelColor(m_frame.ink());
    m_scale->axis()->setLabelColor(m_frame.ink());
    m_plot->clearGraphs();
    m_plot->clearItems();
    if (m_batches.empty() || m_sequences.empty())
        return;
    // Cells even in log2 space from the first to the last value, each
    // showing the grid point nearest its centre.
    const double x0 = std::log2(static_cast<double>(m_sequences.front()));
    const double x1 = std::log2(static_cast<double>(m_sequences.back()));
    const double y0 = std::log2(static_cast<double>(m_batches.front()));
    const double y1 = std::log2(static_cast<double>(m_batches.back()));
    QCPColorMapData *data = m_map->data();
    data->setSize(kGridPoints, kGridPoints);
    data->setRange(QCPRange(x0, x1), QCPRange(y0, y1));
    double lowest = std::numeric_limits<double>::max();
    double highest = 0;
    for (int kx = 0; kx < kGridPoints; ++kx)
        for (int ky = 0; ky < kGridPoints; ++ky) {
            double x = 0;
            double y = 0;
            data->cellToCoord(kx, ky, &x, &y);
            const core::Bytes total = m_totals[nearest(m_batches, y) * m_sequences.size() + nearest(m_sequences, x)];
            const double value = total.isSaturated() ? std::numeric_limits<double>::quiet_NaN() : core::toGiga(total, m_unit);
            data->setCell(kx, ky, value);
            if (!std::isnan(value)) {
                lowest = std::min(lowest, value);
                highest = std::max(highest, value);
            }
        }
    if (highest > 0)
        m_map->setDataRange(QCPRange(lowest, std::max(highest, lowest * 1.01)));

    // Each GPU's boundary: below the line its memory holds the batch. Cards
    // with the same boundary share one line, named together.
    const QColor ink = m_frame.ink();
    const double width = m_frame.isPresentation() ? 3.0 : 2.0;
    QStringList nowhere;
    std::vector<std::size_t> lines; // the first GPU of each capacity
    std::vector<QStringList> names;
    for (std::size_t g = 0; g < m_gpuIds.size(); ++g) {
        const core::GpuSpec *gpu = m_catalog->find(m_gpuIds[g]);
        if (m_boundaries[g].empty() || std::all_of(m_boundaries[g].begin(), m_boundaries[g].end(), [](std::uint64_t b) { return b == 0; })) {
            nowhere << shortGpuName(*gpu);
            continue;
        }
        const auto same = std::find_if(lines.begin(), lines.end(), [this, g](std::size_t first) { return m_boundaries[first] == m_boundaries[g]; });
        if (same == lines.end()) {
            lines.push_back(g);
            names.push_back({shortGpuName(*gpu)});
        } else {
            names[static_cast<std::size_t>(same - lines.begin())] << shortGpuName(*gpu);
        }
    }
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const std::size_t g = lines[k];
        QVector<double> keys;
        QVector<double> values;
        for (std::size_t j = 0; j < m_sequences.size(); ++j) {
            keys << std::log2(static_cast<double>(m_sequences[j]));
            const std::uint64_t b = m_boundaries[g][j];
            values << (b > 0 ? std::log2(static_cast<double>(b)) : std::numeric_limits<double>::quiet_NaN());
        }
        const QColor colour = kBoundaryColours[k % std::size(kBoundaryColours)];
        // A dark halo (light under the black line) keeps each line legible on either end of the map.
        QCPGraph *halo = m_plot->addGraph();
        halo->setData(keys, values, true);
        halo->setPen(QPen(colour == QColor(Qt::black) ? QColor(255, 255, 255, 160) : QColor(0, 0, 0, 110), width + 2));
        halo->removeFromLegend();
        QCPGraph *line = m_plot->addGraph();
        line->setData(keys, values, true);
        line->setPen(QPen(colour, width, kBoundaryStyles[(k / std::size(kBoundaryColours)) % std::size(kBoundaryStyles)]));
        line->setName(tr("%1 (%2)")
                          .arg(names[k].join(QStringLiteral(" · ")),
                               bytesText(m_catalog->find(m_gpuIds[g])->capacity(), m_unit, 0)));
    }
    QCPGraph *own = m_plot->addGraph();
    own->setData({std::log2(static_cast<double>(std::max<std::uint64_t>(1, m_scenario.sequence)))},
                 {std::log2(static_cast<double>(std::max<std::uint64_t>(1, m_scenario.batch)))});
    own->setLineStyle(QCPGraph::lsNone);
    own->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, ink, Qt::white, 11));
    own->setName(tr("This scenario: batch %1 × %2 tokens").arg(count(m_scenario.batch), count(m_scenario.sequence)));

    QString title = scenarioSummary(m_scenario) + QLatin1Char('\n')
        + tr("Each line: the largest batch that fits the GPUs named, at each context; below it, the batch fits.");
    if (!nowhere.isEmpty())
        title += QLatin1Char('\n') + tr("Not even batch 1 fits: %1").arg(nowhere.join(QStringLiteral(", ")));
    m_frame.setTitle(title);
    m_plot->xAxis->setLabel(tr("Context length (tokens)"));
    m_plot->yAxis->setLabel(tr("Batch size (per GPU)"));
    m_scale->axis()->setLabel(tr("Memory per GPU (%1)").arg(QString::fromUtf8(core::gigaSuffix(m_unit))));
    const double halfX = (x1 - x0) / (2.0 * (kGridPoints - 1));
    const double halfY = (y1 - y0) / (2.0 * (kGridPoints - 1));
    m_plot->xAxis->setRange(x0 - halfX, x1 + halfX);
    m_plot->yAxis->setRange(y0 - halfY, y1 + halfY);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString BatchContextChart::toolTipAt(const QPointF &pixel) const
{
    if (m_totals.empty())
        return QString();
    return toolTip(nearest(m_batches, m_plot->yAxis->pixelToCoord(pixel.y())),
                   nearest(m_sequences, m_plot->xAxis->pixelToCoord(pixel.x())));
}

} // namespace ui
