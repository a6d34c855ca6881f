#pragma once

#include <QByteArray>
#include <QString>

class QCustomPlot;

namespace ui {

// Any chart of the window rendered at a chosen size in pixels into memory
// (the exporter writes it atomically). PNG takes a pixel-ratio scale and
// records `dpi`; SVG and PDF carry `title` as the document title.
QByteArray renderPng(QCustomPlot *plot, int width, int height, double scale, int dpi);
QByteArray renderSvg(QCustomPlot *plot, int width, int height, const QString &title);
QByteArray renderPdf(QCustomPlot *plot, int width, int height, const QString &title);

} // namespace ui
