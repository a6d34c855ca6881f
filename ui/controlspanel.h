#pragma once

#include <QWidget>

#include <array>

class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace ui {

class LogSliderField;
class ScenarioController;
class StepSliderField;

/// Every input of the scenario: model, mode, the main sliders, and the
/// remaining engine settings in a collapsed "Advanced" section. Each edit
/// goes straight to the controller (no Apply button).
class ControlsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ControlsPanel(ScenarioController *controller, QWidget *parent = nullptr);

    // For tests and keyboard users: the main controls by name.
    LogSliderField *parametersField() const { return m_parameters; }
    StepSliderField *precisionField() const { return m_precision; }
    StepSliderField *optimizerField() const { return m_optimizer; }
    LogSliderField *batchField() const { return m_batch; }
    QSpinBox *gpuCountField() const { return m_gpus; }
    QSpinBox *groupSizeField() const { return m_groupSize; }
    QDoubleSpinBox *cudaOverheadField() const { return m_cudaMib; }
    LogSliderField *sequenceField() const { return m_sequence; }
    QComboBox *modelCombo() const { return m_model; }
    QButtonGroup *modeGroup() const { return m_mode; }
    QWidget *advancedSection() const { return m_advanced; }
    QLabel *stackNote() const { return m_stackNote; }

signals:
    void openConfigRequested();

private:
    QWidget *buildMainControls();
    QWidget *buildAdvanced();
    void fillModelCombo();
    /// Refreshes the model picker when the model's source changed elsewhere
    /// (a dropped config.json, the parameter slider).
    void syncModel();
    void syncFromScenario();
    /// The advanced settings, from the scenario, without emitting changes.
    void syncAdvanced();
    void updateEnabledState();
    /// The stack line under the mode buttons and the precision the engine
    /// uses (QLoRA's default format), from the scenario.
    void syncDefaults();
    void modelChosen(int index);

    ScenarioController *m_controller;
    QString m_shownSource; ///< what the model picker currently shows
    QComboBox *m_model = nullptr;
    QButtonGroup *m_mode = nullptr;
    LogSliderField *m_parameters = nullptr;
    StepSliderField *m_precision = nullptr;
    StepSliderField *m_optimizer = nullptr;
    LogSliderField *m_batch = nullptr;
    LogSliderField *m_sequence = nullptr;
    QLabel *m_stackNote = nullptr; ///< what the training stack turns on, in one line

    QToolButton *m_advancedToggle = nullptr;
    QWidget *m_advanced = nullptr;
    QComboBox *m_regime = nullptr;
    QComboBox *m_optimizerImpl = nullptr;
    QComboBox *m_stack = nullptr;
    QComboBox *m_bitsandbytes = nullptr;
    QComboBox *m_checkpointing = nullptr;
    QComboBox *m_attention = nullptr;
    QSpinBox *m_gradAccum = nullptr;
    QSpinBox *m_loraRank = nullptr;
    std::array<QCheckBox *, 7> m_loraTargets{};
    QDoubleSpinBox *m_loraDropout = nullptr;
    QComboBox *m_kvDtype = nullptr;
    QComboBox *m_logits = nullptr;
    QSpinBox *m_groupSize = nullptr;
    QCheckBox *m_quantizeEmbeddings = nullptr;
    QSpinBox *m_gpus = nullptr;
    QComboBox *m_zero = nullptr;
    QCheckBox *m_cudaAuto = nullptr;
    QDoubleSpinBox *m_cudaMib = nullptr;
    QComboBox *m_cudaLoading = nullptr;
    QDoubleSpinBox *m_reserve = nullptr;
    QDoubleSpinBox *m_utilization = nullptr;
    QComboBox *m_servingEngine = nullptr;
    QSpinBox *m_maxBatchedTokens = nullptr;
    QSpinBox *m_maxNumSeqs = nullptr;
};

} // namespace ui
