#pragma once

#include "core/scenario.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace ui {

class ScenarioController;

/// Cluster planning: the parallel layout (tp x pp x dp, sequence and expert
/// parallelism, offload), the workload (tokens, MFU, price), what it costs
/// in time and money on the chosen GPU, per-rank bars for the pipeline's
/// stages, and "Plan for me".
class ClusterPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterPanel(ScenarioController *controller, QWidget *parent = nullptr);

    QTableWidget *planTable() const { return m_plan; }
    QLabel *figures() const { return m_figures; }
    /// Fills the plan table for the chosen GPU (the "Plan for me" button).
    void plan();
    /// Applies row `row` of the plan table to the scenario.
    void applyPlanRow(int row);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void sync();
    void showFigures();

    ScenarioController *m_controller;
    QComboBox *m_gpu;
    QSpinBox *m_tp;
    QSpinBox *m_pp;
    QCheckBox *m_sp;
    QSpinBox *m_ep;
    QSpinBox *m_interleave;
    QComboBox *m_offload;
    QSpinBox *m_gpusPerNode;
    QLineEdit *m_tokens;
    QDoubleSpinBox *m_mfu;
    QDoubleSpinBox *m_price;
    QDoubleSpinBox *m_interNode;
    QLabel *m_figures;
    QCustomPlot *m_ranks;
    QTableWidget *m_plan;
    bool m_figuresStale = false; ///< the estimate changed while the panel was hidden
    std::vector<core::Scenario> m_planned; ///< the plan table's layouts, row by row
};

} // namespace ui
