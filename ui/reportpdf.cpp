#include "ui/reportpdf.h"

#include "ui/plotrender.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QGuiApplication>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

constexpr double kMarginMm = 15;
constexpr double kTextPoints = 8;
/// Layout pixels per millimetre: the page is laid out at 96 per inch, as
/// the window is, so points stay points.
constexpr double kPixelsPerMm = 96 / 25.4;

/// Headings a step above the text (14 pt title, 10 pt sections) rather
/// than Markdown's screen sizes: the report is one page where it can be.
void compactHeadings(QTextDocument &doc)
{
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level == 0)
            continue;
        // The heading's own text only: BlockUnderCursor would take the
        // separator before it, and setBlockFormat the block before with
        // it (a list's last item then left its list).
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setFontPointSize(level == 1 ? 14 : 10);
        cursor.mergeCharFormat(format);
        QTextBlockFormat spacing = block.blockFormat();
        spacing.setTopMargin(level == 1 ? 0 : 6);
        spacing.setBottomMargin(2);
        QTextCursor(block).setBlockFormat(spacing);
    }
}

/// Tables as a document's: thin rules, little padding.
void compactTables(QTextDocument &doc)
{
    for (QTextFrame *frame : doc.rootFrame()->childFrames())
        if (auto *table = qobject_cast<QTextTable *>(frame)) {
            QTextTableFormat format = table->format();
            format.setCellPadding(1);
            format.setCellSpacing(0);
            format.setBorder(0.5);
            format.setBorderCollapse(true);
            table->setFormat(format);
        }
}

/// Where a page showing `doc` from `from` to at most `to` ends: after the
/// last paragraph or table that ends before `to`, not after a heading;
/// `to` itself where none does (a table taller than a page).
double pageBreak(const QTextDocument &doc, double from, double to)
{
    // A heading stays with what follows it: the page ends before it.
    double end = from;
    double beforeHeading = from;
    QAbstractTextDocumentLayout *layout = doc.documentLayout();
    for (auto it = doc.rootFrame()->begin(); !it.atEnd(); ++it) {
        const bool heading = !it.currentFrame() && it.currentBlock().blockFormat().headingLevel() > 0;
        const QRectF box = it.currentFrame() ? layout->frameBoundingRect(it.currentFrame())
                                             : layout->blockBoundingRect(it.currentBlock());
        if (box.bottom() > to)
            break;
        if (box.bottom() > end) {
            beforeHeading = heading ? end : box.bottom();
            end = box.bottom();
        }
    }
    end = std::max(from, beforeHeading);
    return end > from ? end : to;
}

} // namespace

void setReportText(QTextDocument &doc, const QString &markdown)
{
    QFont font = QGuiApplication::font();
    font.setPointSizeF(kTextPoints);
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0);
    doc.setMarkdown(markdown);
    compactHeadings(doc);
    compactTables(doc);
}

QByteArray renderReportPdf(QCustomPlot *chart, const QString &markdown, const QSizeF &pageMm, const QString &title)
{
    // A report reads top to bottom: the page stands.
    const QSizeF portrait(std::min(pageMm.width(), pageMm.height()), std::max(pageMm.width(), pageMm.height()));
    const double margin = kMarginMm * kPixelsPerMm;
    const double width = (portrait.width() - 2 * kMarginMm) * kPixelsPerMm;
    const double height = (portrait.height() - 2 * kMarginMm) * kPixelsPerMm;
    const double gap = margin / 5;

    // The title block, the chart, then the rest of the report.
    const int firstSection = markdown.indexOf(QStringLiteral("\n## "));
    QTextDocument head;
    QTextDocument body;
    setReportText(head, markdown.left(firstSection));
    setReportText(body, markdown.mid(firstSection));
    head.setTextWidth(width);
    body.setTextWidth(width);
    // The chart as tall as leaves the report one page, from 0.4 of its
    // width (its axis still readable under the legend) to half.
    const double spare = height - head.size().height() - body.size().height() - 2 * gap;
    const int chartHeight = static_cast<int>(std::clamp(spare, 0.4 * width, 0.5 * width));

    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    setUpPdf(writer, title, QPageSize(portrait, QPageSize::Millimeter));
    QCPPainter painter;
    if (!painter.begin(&writer))
        return QByteArray();
    painter.translate(margin, margin);
    head.drawContents(&painter);
    painter.translate(0, head.size().height() + gap);
    chart->toPainter(&painter, static_cast<int>(width), chartHeight);
    painter.translate(0, chartHeight + gap);
    // The body, page after page, each page ending after the last block or
    // table that fits whole on it.
    double room = height - head.size().height() - chartHeight - 2 * gap;
    double shown = 0;
    while (shown < body.size().height()) {
        const double end = pageBreak(body, shown, shown + room);
        painter.save();
        painter.translate(0, -shown);
        body.drawContents(&painter, QRectF(0, shown, width, end - shown));
        painter.restore();
        shown = end;
        if (shown < body.size().height()) {
            writer.newPage();
            painter.resetTransform();
            painter.translate(margin, margin);
            room = height;
        }
    }
    painter.end();
    return bytes;
}

} // namespace ui
