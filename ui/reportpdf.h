#pragma once

#include <QByteArray>
#include <QSizeF>
#include <QString>

class QCustomPlot;
class QTextDocument;

namespace ui {

/// A report for a proposal as a PDF on a portrait page of `pageMm` with
/// 15 mm margins: `markdown` (core::markdownReport, brief) in 8 pt text
/// with the chart, drawn as vectors the width of the text, under its title
/// block; further pages, broken between paragraphs and tables, where it
/// does not end on the first.
QByteArray renderReportPdf(QCustomPlot *chart, const QString &markdown, const QSizeF &pageMm, const QString &title);

/// `markdown` in `doc` as the report prints it: 8 pt text, headings a step
/// above it, tables with thin rules; no margin around the document.
void setReportText(QTextDocument &doc, const QString &markdown);

} // namespace ui
