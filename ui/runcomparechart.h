#pragma once

#include "core/base/units.h"
#include "core/runs/runcompare.h"

#include <QWidget>

#include <vector>

class QCPBars;
class QCPItemText;
class QCustomPlot;

namespace ui {

/// Planned and measured bars side by side, one pair per measured byte
/// quantity and device of a compared run, each pair labelled with the
/// plan's difference. Draws what it is given; computes nothing.
class RunCompareChart : public QWidget
{
    Q_OBJECT

public:
    explicit RunCompareChart(QWidget *parent = nullptr);

    /// Draws the byte rows of `rows` (counts are the table's alone).
    void setRows(const std::vector<core::ComparisonRow> &rows, core::ByteUnit unit);

    QCustomPlot *plot() const { return m_plot; }
    QCPBars *plannedBars() const { return m_planned; }
    QCPBars *measuredBars() const { return m_measured; }
    /// The difference labels, one per pair with a plan, left to right.
    const QList<QCPItemText *> &differenceLabels() const { return m_differences; }

private:
    QCustomPlot *m_plot;
    QCPBars *m_planned;
    QCPBars *m_measured;
    QList<QCPItemText *> m_differences;
};

/// "+1.25 GiB (+12.5 %)": the plan's difference from the measurement.
QString differenceText(const core::ComparisonRow &row, core::ByteUnit unit);

/// The row's quantity as the user reads it, translated ("KV buffer").
QString quantityName(const core::ComparisonRow &row);

} // namespace ui
