#include "ui/sweepchart.h"

#include "ui/termstyle.h"

#include <QVBoxLayout>

#include <cmath>
#include <qcustomplot.h>

namespace ui {

namespace {
constexpr int kPoints = 120;
}

SweepChart::SweepChart(core::SweepAxis axis, QWidget *parent) : QWidget(parent), m_axis(axis), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    // GPUs that fit everywhere or nowhere are listed above the plot; only
    // real crossings are drawn in it.
    m_plot->plotLayout()->insertRow(0);
    m_summary = new QCPTextElement(m_plot);
    m_plot->plotLayout()->addElement(0, 0, m_summary);
    // The legend sits in its own column, as in the per-GPU chart.
    m_plot->legend->setVisible(true);
    auto *legendCell = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 1, legendCell);
    legendCell->addElement(0, 0, m_plot->legend);
    legendCell->addElement(1, 0, new QCPLayoutElement(m_plot));
    legendCell->setRowStretchFactor(1, 10);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
}

void SweepChart::setPresentation(bool on)
{
    m_presentation = on;
}

void SweepChart::showSweep(const core::Scenario &scenario, const core::EstimateWithFits &result,
                           const core::Catalog &catalog, core::ByteUnit unit)
{
    const bool batch = m_axis == core::SweepAxis::Batch;
    const std::uint64_t from = batch ? 1 : 128;
    std::uint64_t to = batch ? 4096 : (1u << 20);
    if (!batch && scenario.model.maxPositions > from)
        to = std::min<std::uint64_t>(to, scenario.model.maxPositions);
    const std::vector<core::SweepPoint> points = core::sweep(scenario, m_axis, from, to, kPoints);

    m_plot->clearGraphs();
    m_plot->clearItems();
    m_labels.clear();
    QVector<double> keys;
    for (const core::SweepPoint &p : points)
        keys << static_cast<double>(p.value);
    // Stacked areas: each graph is the running sum and fills down to the one below.
    QVector<double> running(keys.size(), 0.0);
    QCPGraph *below = nullptr;
    double top = 1;
    for (core::TermId id : core::allTerms()) {
        bool any = false;
        for (int i = 0; i < keys.size(); ++i) {
            const double v = core::toGiga(points[static_cast<std::size_t>(i)].terms[static_cast<std::size_t>(id)], unit);
            any = any || v > 0;
            running[i] += v;
        }
        if (!any)
            continue;
        QCPGraph *g = m_plot->addGraph();
        g->setName(termName(id));
        g->setData(keys, running, true);
        QColor fill = termColor(id);
        g->setPen(QPen(fill.darker(140), m_presentation ? 2.5 : 1.2));
        g->setBrush(fill);
        if (below)
            g->setChannelFillGraph(below);
        below = g;
    }
    for (double v : running)
        top = std::max(top, std::min(v, 1e9) * 1.2);

    // Capacity lines and the engine's crossings.
    const QColor ink = palette().color(QPalette::Text);
    QStringList everywhere;
    QStringList nowhere;
    for (const core::GpuFit &fit : result.fits) {
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        if (!gpu)
            continue;
        const double capacity = core::toGiga(fit.capacity, unit);
        const std::uint64_t crossing = batch ? fit.maxBatch : fit.maxSequence;
        const QString name = shortGpuName(*gpu);
        if (crossing == 0) {
            m_labels << (batch ? tr("%1: not even batch 1").arg(name) : tr("%1: no context fits").arg(name));
            nowhere << name;
            continue;
        }
        if (crossing >= to) {
            m_labels << (batch ? tr("%1: every batch up to %2 fits").arg(name, QString::fromStdString(core::groupDigits(to)))
                               : tr("%1: the whole range fits").arg(name));
            everywhere << name;
            continue;
        }
        const QString label = batch
            ? tr("max batch on %1: %2").arg(name, QString::fromStdString(core::groupDigits(crossing)))
            : tr("max context on %1: %2 tokens").arg(name, QString::fromStdString(core::groupDigits(crossing)));
        m_labels << label;
        top = std::max(top, capacity * 1.15);
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(static_cast<double>(from), capacity);
        line->point2->setCoords(static_cast<double>(to), capacity);
        line->setPen(QPen(ink, m_presentation ? 2.5 : 1.2, Qt::DashLine));
        auto *marker = new QCPItemLine(m_plot);
        marker->start->setCoords(static_cast<double>(crossing), 0);
        marker->end->setCoords(static_cast<double>(crossing), capacity);
        marker->setPen(QPen(ink, 1, Qt::DotLine));
        auto *text = new QCPItemText(m_plot);
        text->setText(label);
        // Written away from the nearer edge so it is never clipped.
        const double along = std::log(static_cast<double>(crossing) / static_cast<double>(from))
            / std::log(static_cast<double>(to) / static_cast<double>(from));
        text->setPositionAlignment((along < 0.5 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
        text->position->setCoords(static_cast<double>(crossing), capacity);
        text->setColor(ink);
    }
    // Four names a line, so the summary never widens the chart.
    const auto wrapped = [](const QStringList &names) {
        QStringList lines;
        for (int i = 0; i < names.size(); i += 4)
            lines << names.mid(i, 4).join(QStringLiteral(", "));
        return lines.join(QStringLiteral(",\n"));
    };
    QStringList summary;
    if (!everywhere.isEmpty())
        summary << (batch ? tr("Every batch fits: %1") : tr("The whole range fits: %1")).arg(wrapped(everywhere));
    if (!nowhere.isEmpty())
        summary << (batch ? tr("Not even batch 1 fits: %1") : tr("No context fits: %1")).arg(wrapped(nowhere));
    m_summary->setText(summary.join(QLatin1Char('\n')));
    m_summary->setTextColor(ink);
    const QString unitName = QString::fromUtf8(core::gigaSuffix(unit));
    m_plot->xAxis->setLabel(batch ? tr("Batch size (per GPU)") : tr("Context length (tokens)"));
    m_plot->yAxis->setLabel(tr("Memory per GPU (%1)").arg(unitName));
    m_plot->xAxis->setRange(static_cast<double>(from), static_cast<double>(to));
    m_plot->yAxis->setRange(0, top * 1.1);
    QFont font = this->font();
    if (m_presentation)
        font.setPointSizeF(font.pointSizeF() * 1.4);
    for (QCPAxis *a : {m_plot->xAxis, m_plot->yAxis}) {
        a->setTickLabelFont(font);
        a->setLabelFont(font);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ui
