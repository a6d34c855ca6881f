#pragma once

#include <QByteArray>
#include <QString>

class QCustomPlot;
class QPageSize;
class QPdfWriter;

namespace ui {

// Any chart of the window rendered at a chosen size in pixels into memory
// (the exporter writes it atomically), with `footer` (the assumptions) in
// a row of its own under the chart, wrapped to the width. PNG takes a
// pixel-ratio scale, records `dpi` and draws text `textScale` times its
// point size; SVG and PDF carry `title` as the document title, on a page
// of the size at 96 pixels per inch.
QByteArray renderPng(QCustomPlot *plot, int width, int height, double scale, int dpi, double textScale,
                     const QString &footer);
QByteArray renderSvg(QCustomPlot *plot, int width, int height, const QString &title, const QString &footer);
/// A PDF page of `page` laid out at 96 px per inch without margins, as
/// VRAM Planner's, titled `title`.
void setUpPdf(QPdfWriter &writer, const QString &title, const QPageSize &page);
QByteArray renderPdf(QCustomPlot *plot, int width, int height, const QString &title, const QString &footer);

} // namespace ui
