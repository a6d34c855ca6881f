#include "ui/sweepchart.h"

#include "ui/termstyle.h"

#include <QVBoxLayout>
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
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
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
        top = std::max(top, std::min(v, 1e9));

    // Capacity lines and the engine's crossings.
    for (const core::GpuFit &fit : result.fits) {
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        if (!gpu)
            continue;
        const double capacity = core::toGiga(fit.capacity, unit);
        top = std::max(top, capacity);
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(static_cast<double>(from), capacity);
        line->point2->setCoords(static_cast<double>(to), capacity);
        line->setPen(QPen(palette().color(QPalette::Text), m_presentation ? 2.5 : 1.2, Qt::DashLine));
        const std::uint64_t crossing = batch ? fit.maxBatch : fit.maxSequence;
        const QString name = shortGpuName(*gpu);
        QString label;
        if (crossing == 0)
            label = batch ? tr("%1: not even batch 1").arg(name) : tr("%1: no context fits").arg(name);
        else if (crossing >= to)
            label = batch ? tr("%1: every batch up to %2 fits").arg(name, QString::fromStdString(core::groupDigits(to)))
                          : tr("%1: the whole range fits").arg(name);
        else
            label = batch ? tr("max batch on %1: %2").arg(name, QString::fromStdString(core::groupDigits(crossing)))
                          : tr("max context on %1: %2 tokens").arg(name, QString::fromStdString(core::groupDigits(crossing)));
        m_labels << label;
        auto *text = new QCPItemText(m_plot);
        text->setText(label);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->position->setCoords(crossing > from && crossing < to ? static_cast<double>(crossing) : static_cast<double>(from),
                                  capacity);
        text->setColor(palette().color(QPalette::Text));
        if (crossing > from && crossing < to) {
            auto *marker = new QCPItemLine(m_plot);
            marker->start->setCoords(static_cast<double>(crossing), 0);
            marker->end->setCoords(static_cast<double>(crossing), capacity);
            marker->setPen(QPen(palette().color(QPalette::Text), 1, Qt::DotLine));
        }
    }
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
