#pragma once

#include "core/analysis/fit.h"
#include "core/analysis/sweep.h"
#include "core/engine/estimate.h"
#include "ui/chartlabels.h"
#include "ui/plotframe.h"

#include <QVector>
#include <QWidget>

class QCPItemLine;
class QCPItemText;
class QCustomPlot;

namespace ui {

/// Memory against context length or batch size: stacked areas per term,
/// a dashed line at each capacity of the shown GPUs (cards of equal
/// capacity share it and its label), where the total crosses it the
/// engine's largest fitting value ("max context on RTX 3070: 731 tokens"),
/// and a line at the scenario's own value. The memory axis shows the curve
/// and the first card that holds all of it (cards above are named in the
/// summary), and stops at 1.5 x the largest card; a red edge and a note
/// mark what lies above.
class SweepChart : public QWidget
{
    Q_OBJECT

public:
    explicit SweepChart(core::SweepAxis axis, QWidget *parent = nullptr);

    void showSweep(const core::Scenario &scenario, const core::EstimateWithFits &result, const core::Catalog &catalog,
                   core::ByteUnit unit);
    void setPresentation(bool on);

    /// What the chart says of each GPU, one line per GPU, for tests.
    QStringList crossingLabels() const { return m_labels; }
    /// Every text (summary, legend, labels, ticks of the swept axis) where
    /// the last layout put it, for tests of the layout.
    QList<ChartLabel> labels() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    /// A capacity line's label: its full text, the line it names and the
    /// crossing it ends at (0: none), in axis units; a leader points from
    /// the label to the line when there was no room on it.
    struct CapacityLabel
    {
        QCPItemText *item;
        QCPItemLine *leader;
        QString text;
        double capacity;
        double crossing;
    };

    void draw();
    /// Where no GPU shown takes even the smallest value of the axis, the
    /// curve is drawn per GPU of the fewest of the focus GPU (else of the
    /// first GPU shown that some count takes) that fit the scenario, so it
    /// crosses the capacities instead of lying above them all.
    void spreadWhereNothingFits();
    /// The terms as stacked areas; returns the totals.
    QVector<double> drawStack(const std::vector<core::SweepPoint> &points);
    /// A line per card and a label per capacity up to `top`; adds the
    /// cards that fit everywhere or nowhere to `summary`.
    void drawCapacities(std::uint64_t to, double top, QStringList *summary);
    void drawScenario(std::uint64_t current, std::uint64_t from, std::uint64_t to);
    /// Marks where the total leaves a chart `top` high; returns the note
    /// for the summary, or nothing.
    QString drawClipped(const std::vector<core::SweepPoint> &points, const QVector<double> &totals, double top);
    double penWidth() const;
    /// Once laid out: wraps the labels to the plot and places the capacity
    /// labels on their lines without overlap.
    void fitToSize();
    /// Places the labels in `area` at `font`, capacity labels wrapped to
    /// `width` (only those of crossings if `crossingsOnly`); false where
    /// some found no room.
    bool placeLabels(const QRectF &area, const QFont &font, double width, bool crossingsOnly);

    core::SweepAxis m_axis;
    QCustomPlot *m_plot;
    PlotFrame m_frame;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    /// Where spreadWhereNothingFits spread the scenario: its GPUs as set,
    /// and the layout drawn (count and card); no card: not spread.
    struct Spread
    {
        int asSet = 0;
        int gpus = 0;
        QString card;
    } m_spread;
    const core::Catalog *m_catalog = nullptr;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
    QStringList m_labels;
    QVector<CapacityLabel> m_capacityLabels;
    QCPItemText *m_current = nullptr;
};

} // namespace ui
