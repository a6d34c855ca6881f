#include "ui/chartview.h"

#include "ui/chartlabels.h"

#include <QEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace ui {

namespace {

/// Beside the legend the plot keeps at least this many lines' height of
/// width, else the legend goes below it.
constexpr double kMinPlotWidthInLines = 20;

} // namespace

ChartView::ChartView(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this)), m_frame(m_plot, false)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(420, 260);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ChartView::showToolTip);
    // Every layout (screen or export) wraps the title and places the legend.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_frame.fit(kMinPlotWidthInLines * QFontMetricsF(m_frame.font()).height()))
            relayout(m_plot);
    });
}

void ChartView::setPresentation(bool on)
{
    m_frame.setPresentation(on);
    if (hasContent())
        draw();
}

void ChartView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && hasContent())
        draw();
}

void ChartView::showToolTip(QMouseEvent *event)
{
    const QString text = m_plot->axisRect()->rect().contains(event->position().toPoint()) ? toolTipAt(event->position()) : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

} // namespace ui
