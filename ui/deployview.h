#pragma once

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;

namespace ui {

/// The serving questions in one table: for the scenario's GPU (first row,
/// bold) and the GPUs shown beside it, the fit, the KV-cache budget and the
/// concurrent sequences it holds at the scenario's context, the time to
/// first token, decode tokens/s per sequence and in all (at the scenario's
/// batch and at full concurrency) and dollars per million generated tokens;
/// above it the host memory beside each GPU and the price assumed. Drawn on
/// a QCustomPlot so that it exports like the charts; it scrolls where the
/// window is narrower than the table.
class DeployView : public QWidget
{
    Q_OBJECT

public:
    /// The table's columns, in order.
    enum Column { Gpu, Fit, KvBudget, Sequences, FirstToken, DecodeAtBatch, DecodeAtFull, Cost, Requests, ColumnCount };

    explicit DeployView(QWidget *parent = nullptr);

    /// Draws the serving figures of `result` (ScenarioController::deployment)
    /// on each of `gpuIds`, in that order.
    void showDeployment(const core::EstimateWithFits &result, const core::Catalog &catalog,
                        const std::vector<std::string> &gpuIds, core::ByteUnit unit);
    void setPresentation(bool on);

    QCustomPlot *plot() const { return m_plot; }
    /// The text above the table and each cell as drawn, for tests.
    QString heading() const { return m_heading; }
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    QString cell(int row, Column column) const { return m_rows[static_cast<std::size_t>(row)].cells[column]; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void fill();
    /// Wraps the heading to the table's width and sizes the plot to hold it all.
    void fitToSize();

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPLayoutGrid *m_table;
    QString m_heading;
    QStringList m_headers;
    struct Row
    {
        QStringList cells;
        bool fits = false;
        QColor verdict;
    };
    std::vector<Row> m_rows;
    bool m_presentation = false;
};

} // namespace ui
