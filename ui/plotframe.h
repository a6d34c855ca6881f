#pragma once

#include "ui/chartlabels.h"

#include <QColor>
#include <QFont>
#include <QString>

class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;

namespace ui {

/// What the charts share around their axis rect: a title over the whole
/// width, wrapped to it; the legend beside the plot or, where the chart is
/// too narrow for that, below it in columns; the palette's colours, or
/// black on white with large text for presentations.
class PlotFrame
{
public:
    /// Takes over `plot`'s layout: title row, axis rect, legend.
    PlotFrame(QCustomPlot *plot, bool boldTitle);

    void setTitle(const QString &title);
    QString title() const { return m_title; }

    /// Presentation text is half as large again: legible from the back of a room.
    static constexpr double kPresentationScale = 1.5;

    /// Large text, black on white (projectors, greyscale prints).
    void setPresentation(bool on);
    bool isPresentation() const { return m_presentation; }
    /// Colours from the plot's palette, or the presentation's; call again
    /// when the palette changes.
    void applyPalette();
    /// The colour of text and lines drawn on the chart, and of the ground.
    QColor ink() const;
    QColor paper() const;
    /// The font for text on the chart: the widget's, or larger in presentations.
    QFont font() const;

    /// Wraps the title to the width laid out and moves the legend below the
    /// plot where, beside it, the plot would be narrower than `plotWidth`
    /// pixels. Call once the plot is laid out; true when it must be laid
    /// out again.
    bool fit(double plotWidth);

    /// The title and each legend entry as last laid out; a legend entry's
    /// rectangle is the room it needs, its clip the room it was given.
    QList<ChartLabel> labels() const;

private:
    void placeLegend(bool below, int columns);

    QCustomPlot *m_plot;
    QCPTextElement *m_titleElement;
    QCPLayoutGrid *m_body;
    QCPLayoutGrid *m_legendCell;
    QString m_title;
    bool m_legendBelow = false;
    int m_legendColumns = 1;
    bool m_boldTitle;
    bool m_presentation = false;
};

} // namespace ui
