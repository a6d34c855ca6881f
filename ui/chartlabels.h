#pragma once

#include <QFont>
#include <QList>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

class QCPAxis;
class QCPItemText;
class QCustomPlot;

namespace ui {

/// A text drawn on a chart, where it lies and the rectangle that clips it,
/// in the plot's pixels as of its last layout: what tests of the layout check.
struct ChartLabel
{
    QString text;
    QRectF rect;
    QRectF clip;
};

/// `text` broken into lines no wider than `width` pixels at `font`, by the
/// Unicode line-breaking rules (CJK text breaks between characters); a word
/// wider than `width` keeps a line of its own. Existing line breaks stay.
QString wrapText(const QString &text, const QFont &font, double width);

/// The width in pixels of the widest line of `text` at `font`.
double textWidth(const QString &text, const QFont &font);

/// The size of the box `text` draws: its text at its font, and its padding.
QSizeF boxSize(const QCPItemText *text);

/// A label that names a horizontal line: its size, the line's height and
/// where along the line it would best start, in pixels.
struct LineLabel
{
    QSizeF size;
    double lineY;
    double preferredX;
};

/// Rectangles for labels, in the order given; `complete` when each found
/// room.
struct LinePlacement
{
    std::vector<QRectF> rects;
    bool complete = true;
};

/// Places `labels` in the order given within `area`: each on its line
/// (above it, else below) where free, nearest `preferredX`; else at the
/// free spot nearest its line. None overlaps another; one that finds no
/// room goes to the area's top left.
LinePlacement placeOnLines(const std::vector<LineLabel> &labels, const QRectF &area);

/// Every visible text item of `plot`, clipped by its axis rect or else by
/// the viewport.
QList<ChartLabel> itemLabels(const QCustomPlot *plot);

/// The tick labels of `axis`, a bottom axis, as its painter places them.
QList<ChartLabel> tickLabels(const QCPAxis *axis);

/// Lays out `plot` again after a change that moves its elements (a font, a
/// range, the legend's place) made once it had been laid out.
void relayout(QCustomPlot *plot);

} // namespace ui
