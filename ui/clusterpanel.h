#pragma once

#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace ui {

class ScenarioController;

/// Cluster planning: the GPUs and their layout (GPUs, ZeRO, tp x pp x dp,
/// sequence and expert parallelism, offload), the workload (tokens, MFU,
/// price), what it costs in time and money on the focus GPU, per-rank bars
/// for the pipeline's stages, and "Find Layouts".
class ClusterPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterPanel(ScenarioController *controller, QWidget *parent = nullptr);

    QTableWidget *planTable() const { return m_plan; }
    /// What the plan assumed of host memory (under the plan table).
    QLabel *planNote() const { return m_planNote; }
    QLabel *figures() const { return m_figures; }
    /// Fills the plan table for the chosen GPU (the "Find Layouts" button).
    void plan();
    /// Applies row `row` of the plan table to the scenario.
    void applyPlanRow(int row);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void showFigures();
    /// Empties the plan table: its layouts were planned for another scenario.
    void clearPlan();

    ScenarioController *m_controller;
    QLabel *m_figures;
    QCustomPlot *m_ranks;
    QTableWidget *m_plan;
    QLabel *m_planNote;
    bool m_applyingPlan = false; ///< the scenario changes by a row of the plan, which stays
    bool m_figuresStale = false; ///< the estimate changed while the panel was hidden
    std::vector<core::Scenario> m_planned; ///< the plan table's layouts, row by row
};

} // namespace ui
