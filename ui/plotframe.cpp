#include "ui/plotframe.h"

#include "ui/chartlabels.h"

#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

/// Pixels kept free at each side of the title.
constexpr int kTitleMargin = 8;

} // namespace

PlotFrame::PlotFrame(QCustomPlot *plot, bool boldTitle)
    : m_plot(plot), m_titleElement(new QCPTextElement(plot)), m_body(new QCPLayoutGrid), m_legendCell(new QCPLayoutGrid),
      m_boldTitle(boldTitle)
{
    // The title wraps: its width on one line is no minimum for the widget.
    plot->setMinimumSize(1, 1);
    // Title above a grid of its own: its width never decides the legend's.
    QCPLayoutGrid *layout = plot->plotLayout();
    QCPAxisRect *axisRect = plot->axisRect();
    layout->take(axisRect);
    layout->addElement(0, 0, m_titleElement);
    layout->addElement(1, 0, m_body);
    m_body->addElement(0, 0, axisRect);
    // The legend stands apart from the plot so it never hides data.
    plot->legend->setVisible(true);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    m_legendCell->addElement(0, 0, plot->legend);
    m_legendCell->addElement(1, 0, new QCPLayoutElement(plot)); // pushes the legend to the top
    m_legendCell->setRowStretchFactor(1, 10);
    placeLegend(false, 1);
    setPresentation(false);
}

void PlotFrame::setTitle(const QString &title)
{
    m_title = title;
    m_titleElement->setText(title);
}

void PlotFrame::setPresentation(bool on)
{
    m_presentation = on;
    const QFont text = font();
    QFont title = text;
    title.setBold(m_boldTitle);
    m_titleElement->setFont(title);
    m_plot->legend->setFont(text);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTickLabelFont(text);
        axis->setLabelFont(text);
    }
    applyPalette();
}

QFont PlotFrame::font() const
{
    QFont font = m_plot->font();
    if (m_presentation)
        font.setPointSizeF(font.pointSizeF() * kPresentationScale);
    return font;
}

QColor PlotFrame::ink() const
{
    return m_presentation ? QColor(Qt::black) : m_plot->palette().color(QPalette::Text);
}

QColor PlotFrame::paper() const
{
    return m_presentation ? QColor(Qt::white) : m_plot->palette().color(QPalette::Base);
}

void PlotFrame::applyPalette()
{
    const QColor text = ink();
    m_plot->setBackground(paper());
    m_titleElement->setTextColor(text);
    m_plot->legend->setTextColor(text);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        QColor grid = text;
        grid.setAlpha(60);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
}

bool PlotFrame::fit(double plotWidth)
{
    const QRect viewport = m_plot->viewport();
    bool changed = false;
    const QString title = wrapText(m_title, m_titleElement->font(), viewport.width() - 2 * kTitleMargin);
    if (title != m_titleElement->text()) {
        m_titleElement->setText(title);
        changed = true;
    }
    QCPLegend *legend = m_plot->legend;
    int itemWidth = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (legend->item(i)) // a legend in columns has empty cells
            itemWidth = std::max(itemWidth, legend->item(i)->minimumOuterSizeHint().width());
    const QMargins padding = legend->margins();
    const QCPAxisRect *axisRect = m_plot->axisRect();
    const int axisMargins = axisRect->outerRect().width() - axisRect->rect().width();
    const int legendWidth = itemWidth + padding.left() + padding.right() + m_body->columnSpacing();
    const bool below = viewport.width() - axisMargins - legendWidth < plotWidth;
    const int columns = below ? std::max(1, (viewport.width() - padding.left() - padding.right())
                                                / std::max(1, itemWidth + legend->columnSpacing()))
                              : 1;
    if (below != m_legendBelow || columns != m_legendColumns) {
        placeLegend(below, columns);
        changed = true;
    }
    return changed;
}

QList<ChartLabel> PlotFrame::labels() const
{
    QList<ChartLabel> labels;
    const QRectF viewport(m_plot->viewport());
    if (!m_titleElement->text().isEmpty()) {
        const QFontMetricsF metrics(m_titleElement->font());
        const QRectF area(m_titleElement->rect());
        labels.append({m_titleElement->text(),
                       metrics.boundingRect(area, Qt::TextDontClip | m_titleElement->textFlags(), m_titleElement->text()),
                       viewport});
    }
    QCPLegend *legend = m_plot->legend;
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        if (!item) // a legend in columns has empty cells
            continue;
        auto *plottable = qobject_cast<QCPPlottableLegendItem *>(item);
        const QMargins margins = item->margins();
        const QSize needed = item->minimumOuterSizeHint().shrunkBy(margins);
        labels.append({plottable ? plottable->plottable()->name() : QString(),
                       QRectF(QPointF(item->rect().topLeft()), QSizeF(needed)), QRectF(item->rect()) & viewport});
    }
    return labels;
}

void PlotFrame::placeLegend(bool below, int columns)
{
    m_legendBelow = below;
    m_legendColumns = columns;
    if (m_legendCell->layout()) {
        m_body->take(m_legendCell);
        m_body->simplify();
    }
    if (below) {
        m_body->addElement(1, 0, m_legendCell);
        m_body->setRowStretchFactor(1, 0.001);
    } else {
        m_body->addElement(0, 1, m_legendCell);
        m_body->setColumnStretchFactor(1, 0.001);
    }
    // Below the plot the items read left to right, a row at a time.
    QCPLegend *legend = m_plot->legend;
    legend->setWrap(below ? columns : 0);
    legend->setFillOrder(below ? QCPLayoutGrid::foColumnsFirst : QCPLayoutGrid::foRowsFirst, true);
}

} // namespace ui
