#pragma once

#include "core/analysis/fit.h"
#include "core/analysis/plan.h"
#include "core/engine/estimate.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QCPLayoutGrid;
class QPushButton;
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
///
/// *Plan for Me* asks for the serving plan instead (`plan --serve`): the
/// cheapest replica layouts per engine and GPU type for the request rate and
/// latency targets, the engines and GPUs that serve none with why, and how
/// the figures are worked out. It stays until the scenario changes.
class DeployView : public QWidget
{
    Q_OBJECT

public:
    /// The table's columns, in order.
    enum Column { Gpu, Fit, KvBudget, Sequences, FirstToken, DecodeAtBatch, DecodeAtFull, Cost, Requests, ColumnCount };

    explicit DeployView(QWidget *parent = nullptr);

    /// The serving plan on show: what it answered and what it found.
    struct ShownPlan
    {
        core::Scenario base;
        core::ServingPlanRequest request;
        core::ServingPlan plan;
    };

    /// Draws the serving figures of `result` (ScenarioController::deployment)
    /// on each of `gpuIds`, in that order.
    void showDeployment(const core::EstimateWithFits &result, const core::Catalog &catalog,
                        const std::vector<std::string> &gpuIds, core::ByteUnit unit);
    /// Draws the serving plan in place of the fits (Plan for Me).
    void showServingPlan(ShownPlan shown, const core::Catalog &catalog);
    /// The plan on show; nullptr while the fits are.
    const ShownPlan *servingPlan() const { return m_plan ? &*m_plan : nullptr; }
    /// Back to the fits: the scenario changed, or the reader asked.
    void dropPlan();
    void setPresentation(bool on);

    QCustomPlot *plot() const { return m_plot; }
    /// The text above the table and each cell as drawn, for tests.
    QString heading() const { return m_heading; }
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    QString cell(int row, int column) const { return m_rows[static_cast<std::size_t>(row)].cells[column]; }
    QString header(int column) const { return m_headers[column]; }

signals:
    /// Plan for Me was pressed: the window computes the plan and shows it.
    void planRequested();
    /// Show the fits was pressed while a plan was on show.
    void fitsRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void fill();
    /// Wraps the heading to the table's width and sizes the plot to hold it all.
    void fitToSize();

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPLayoutGrid *m_table;
    QCPTextElement *m_footer;
    QPushButton *m_planButton;
    QPushButton *m_fitsButton;
    QString m_heading;
    QString m_footnote;
    QStringList m_headers;
    struct Row
    {
        QStringList cells;
        bool fits = false;
        QColor verdict;
    };
    std::vector<Row> m_rows;
    /// Left-aligned columns; the verdict colours the Fit column of the fits.
    std::vector<int> m_textColumns;
    int m_verdictColumn = Fit;
    std::optional<ShownPlan> m_plan;
    bool m_presentation = false;
};

} // namespace ui
