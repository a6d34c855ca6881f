#include "ui/runcomparechart.h"

#include "ui/termstyle.h"

#include <QCoreApplication>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

// Okabe & Ito (2008): blue for the plan, orange for the run, told apart
// in every colour-vision deficiency.
const QColor kPlannedColor(0, 114, 178);
const QColor kMeasuredColor(230, 159, 0);

constexpr double kBarWidth = 0.38;

/// "+", "−" (U+2212, as the window's other differences) or nothing for zero.
QString signOf(double value) { return value > 0 ? QStringLiteral("+") : value < 0 ? QStringLiteral("−") : QString(); }

} // namespace

QString quantityName(const core::ComparisonRow &row)
{
    // The labels are Qt Linguist source texts in context "RunLog" (core/runs/runlog.cpp).
    return QCoreApplication::translate("RunLog", row.label.c_str());
}

QString differenceText(const core::ComparisonRow &row, core::ByteUnit unit)
{
    if (!row.planned || row.isCount)
        return QString();
    const double difference = row.difference();
    const QString bytes = signOf(difference) + bytesText(core::Bytes::fromDouble(std::abs(difference)), unit);
    const auto percent = row.errorPercent();
    return percent ? RunCompareChart::tr("%1 (%2 %)").arg(bytes, signOf(*percent) + QString::number(std::abs(*percent), 'f', 1))
                   : bytes;
}

RunCompareChart::RunCompareChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_planned(new QCPBars(m_plot->xAxis, m_plot->yAxis)),
      m_measured(new QCPBars(m_plot->xAxis, m_plot->yAxis))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(260);
    m_planned->setName(tr("Planned"));
    m_planned->setBrush(kPlannedColor);
    m_measured->setName(tr("Measured"));
    m_measured->setBrush(kMeasuredColor);
    for (QCPBars *bars : {m_planned, m_measured}) {
        bars->setPen(Qt::NoPen);
        bars->setWidth(kBarWidth);
    }
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->yAxis->grid()->setSubGridVisible(false);
}

void RunCompareChart::setRows(const std::vector<core::ComparisonRow> &rows, core::ByteUnit unit)
{
    for (QCPItemText *label : std::as_const(m_differences))
        m_plot->removeItem(label);
    m_differences.clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    QVector<double> plannedKeys, plannedValues, measuredKeys, measuredValues;
    double top = 0;
    double key = 0;
    for (const core::ComparisonRow &row : rows) {
        if (row.isCount)
            continue;
        key += 1;
        ticker->addTick(key, row.device.empty() ? quantityName(row)
                                                : quantityName(row) + QLatin1Char('\n') + QString::fromStdString(row.device));
        const double measured = core::toGiga(row.measured, unit);
        measuredKeys << key + kBarWidth / 2;
        measuredValues << measured;
        top = std::max(top, measured);
        if (!row.planned)
            continue;
        const double planned = core::toGiga(*row.planned, unit);
        plannedKeys << key - kBarWidth / 2;
        plannedValues << planned;
        top = std::max(top, planned);
        auto *label = new QCPItemText(m_plot);
        // Two lines (bytes over percent): a pair's label fits its own slot.
        label->setText(differenceText(row, unit).replace(QStringLiteral(" ("), QStringLiteral("\n(")));
        label->setTextAlignment(Qt::AlignHCenter);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setCoords(key, std::max(planned, measured));
        label->setPadding(QMargins(0, 0, 0, 3));
        label->setColor(palette().color(QPalette::Text));
        m_differences << label;
    }
    m_planned->setData(plannedKeys, plannedValues, true);
    m_measured->setData(measuredKeys, measuredValues, true);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(0.4, key + 0.6);
    // Room above the tallest pair for its label and for the legend.
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.25 : 1);
    m_plot->yAxis->setLabel(tr("Memory (%1)").arg(QString::fromUtf8(core::gigaSuffix(unit))));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ui
