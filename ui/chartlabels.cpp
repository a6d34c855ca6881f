#include "ui/chartlabels.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QTextLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ui {

QString wrapText(const QString &text, const QFont &font, double width)
{
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        if (paragraph.isEmpty()) {
            lines << paragraph;
            continue;
        }
        QTextLayout layout(paragraph, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WordWrap);
        layout.setTextOption(option);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            lines << paragraph.mid(line.textStart(), line.textLength()).trimmed();
        }
        layout.endLayout();
    }
    return lines.join(QLatin1Char('\n'));
}

double textWidth(const QString &text, const QFont &font)
{
    const QFontMetricsF metrics(font);
    double widest = 0;
    for (const QString &line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

QSizeF boxSize(const QCPItemText *text)
{
    // As QCPItemText::draw measures it, in whole pixels.
    const QFontMetrics metrics(text->font());
    const QSizeF size = metrics.boundingRect(QRect(), Qt::TextDontClip | text->textAlignment(), text->text()).size();
    const QMargins padding = text->padding();
    return size + QSizeF(padding.left() + padding.right(), padding.top() + padding.bottom());
}

LinePlacement placeOnLines(const std::vector<LineLabel> &labels, const QRectF &area)
{
    QList<QRectF> taken;
    // Candidates every few pixels, nearest the line first: a greedy search
    // over a few thousand rectangles, cheap beside a replot.
    constexpr double kStep = 4;
    constexpr double kGap = 1;
    const auto isFree = [&taken](const QRectF &rect) {
        const QRectF padded = rect.adjusted(-kGap, -kGap, kGap, kGap);
        return std::none_of(taken.begin(), taken.end(), [&padded](const QRectF &t) { return t.intersects(padded); });
    };
    LinePlacement placement;
    for (const LineLabel &label : labels) {
        const double w = label.size.width();
        const double h = label.size.height();
        QRectF best(area.left(), area.top(), w, h);
        bool found = false;
        for (double offset = 0; !found && offset <= area.height(); offset += kStep) {
            double bestCost = 0;
            for (const double top : {label.lineY - h - offset, label.lineY + offset}) {
                if (top < area.top() || top + h > area.bottom())
                    continue;
                for (double x = area.left(); x + w <= area.right(); x += kStep) {
                    const QRectF rect(x, top, w, h);
                    const double cost = std::abs(x - label.preferredX) + (top > label.lineY - h ? kStep / 2 : 0);
                    if ((!found || cost < bestCost) && isFree(rect)) {
                        best = rect;
                        bestCost = cost;
                        found = true;
                    }
                }
            }
        }
        taken << best;
        placement.rects.push_back(best);
        placement.complete = placement.complete && found;
    }
    return placement;
}

QList<ChartLabel> itemLabels(const QCustomPlot *plot)
{
    QList<ChartLabel> labels;
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto *text = qobject_cast<const QCPItemText *>(plot->item(i));
        if (!text || !text->visible() || text->text().isEmpty())
            continue;
        const QRectF rect = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        const QRectF clip = text->clipToAxisRect() && text->clipAxisRect() ? QRectF(text->clipAxisRect()->rect())
                                                                             : QRectF(plot->viewport());
        labels.append({text->text(), rect, clip});
    }
    return labels;
}

QList<ChartLabel> tickLabels(const QCPAxis *axis)
{
    // QCPAxisPainterPrivate: below the outer ticks and the padding, centred
    // on the tick, as tall and wide as the text's bounding box.
    QList<ChartLabel> labels;
    if (!axis->visible() || !axis->tickLabels())
        return labels;
    const QFontMetricsF metrics(axis->tickLabelFont());
    const double top = axis->axisRect()->bottom() + axis->offset() + axis->tickLengthOut() + axis->tickLabelPadding();
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> texts = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size() && i < texts.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || texts[i].isEmpty())
            continue;
        const QRectF box = metrics.boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignHCenter, texts[i]);
        const double x = axis->coordToPixel(ticks[i]);
        labels.append({texts[i], QRectF(x - box.width() / 2, top, box.width(), box.height()),
                       QRectF(axis->parentPlot()->viewport())});
    }
    return labels;
}

void relayout(QCustomPlot *plot)
{
    // QCustomPlot::updateLayout, whose afterLayout signal would call back.
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
}

} // namespace ui
