#pragma once

#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ui {

/// A run's GPU utilisation three ways: the FLOPs ratio (seed notes S14),
/// the throughput ratio against a reference run (S15), and model FLOPs
/// utilisation from tokens/s (PaLM App. B), which also shows how far from
/// the peak the reference run itself was. Each result is shown with its
/// formula, the values and the source.
class UtilizationDialog : public QDialog {
    Q_OBJECT

public:
    /// Prefilled with the scenario's model and GPU (an A100 80GB where it
    /// names none) and the seed notes' figures: 100 TFLOPS, 1,536 and 3,300
    /// tokens/s. `catalog` must outlive the dialog.
    UtilizationDialog(const core::Scenario &scenario, const core::Catalog &catalog, QWidget *parent = nullptr);

private:
    const core::GpuSpec *gpu() const;
    core::Precision precision() const;
    void gpuChanged();
    void recompute();
    void showThroughputRatio();
    void showFlopsRatio(const core::GpuSpec &gpu, double peak);
    void showMfu(double peak);

    const core::Scenario m_scenario;
    const core::Catalog &m_catalog;
    QComboBox *m_gpu;
    QComboBox *m_precision;
    QLabel *m_peak;
    QDoubleSpinBox *m_achieved;
    QDoubleSpinBox *m_tokens;
    QDoubleSpinBox *m_reference;
    QDoubleSpinBox *m_params;
    QComboBox *m_work;
    QCheckBox *m_attention;
    QSpinBox *m_layers;
    QSpinBox *m_width;
    QSpinBox *m_sequence;
    QLabel *m_flopsRatio;
    QLabel *m_throughputRatio;
    QLabel *m_mfu;
    QLabel *m_referenceMfu;
    QLabel *m_caveat;
};

} // namespace ui
