#pragma once

#include "ui/plotframe.h"

#include <QWidget>

class QCustomPlot;
class QMouseEvent;

namespace ui {

/// What the matrix and the heat map share: a QCustomPlot in a PlotFrame,
/// redrawn when the palette or presentation mode changes once it has
/// something to draw, with a tooltip for the point under the mouse.
class ChartView : public QWidget
{
    Q_OBJECT

public:
    void setPresentation(bool on);
    QCustomPlot *plot() const { return m_plot; }

protected:
    explicit ChartView(QWidget *parent = nullptr);

    /// Draws what was last given; called again on palette and presentation changes.
    virtual void draw() = 0;
    /// True once there is something to draw.
    virtual bool hasContent() const = 0;
    /// The tooltip for `pixel` of the plot; empty for none.
    virtual QString toolTipAt(const QPointF &pixel) const = 0;

    void changeEvent(QEvent *event) override;

    QCustomPlot *m_plot;
    PlotFrame m_frame;

private:
    void showToolTip(QMouseEvent *event);
};

} // namespace ui
