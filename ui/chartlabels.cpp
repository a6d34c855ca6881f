#include "ui/chartlabels.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QTextLayout>
#include <qcustomplot.h>

#include <algorithm>

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
