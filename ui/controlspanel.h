#pragma once

#include "core/scenario/fields.h"

#include <QWidget>

#include <vector>

class QButtonGroup;
class QComboBox;
class QLabel;
class QToolButton;

namespace ui {

class FieldEditor;
class LogSliderField;
class ScenarioController;
class StepSliderField;

/// The model, the mode, the main sliders, and the remaining engine settings
/// in a collapsed "Advanced" section built from the field descriptors (the
/// cluster layout lives in the Cluster tab). Each edit goes to the
/// controller as a field edit (no Apply button).
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
    LogSliderField *sequenceField() const { return m_sequence; }
    QComboBox *modelCombo() const { return m_model; }
    QButtonGroup *modeGroup() const { return m_mode; }
    QWidget *advancedSection() const { return m_advanced; }
    QLabel *stackNote() const { return m_stackNote; }

signals:
    void openModelRequested();

private:
    QWidget *buildMainControls();
    QWidget *buildAdvanced();
    void fillModelCombo();
    /// Refreshes the model picker when the model's source changed elsewhere
    /// (a dropped config.json, the parameter slider, undo).
    void syncModel();
    /// The main controls that `fields` touch, from the scenario, without
    /// emitting edits; the stack line and what applies to the mode.
    void syncFields(const std::vector<core::FieldId> &fields, bool modelChanged);
    void syncStackNote();
    void syncModelNote();
    void modelChosen(int index);

    ScenarioController *m_controller;
    QString m_shownSource; ///< what the model picker currently shows
    QComboBox *m_model = nullptr;
    QLabel *m_modelNote = nullptr;
    QButtonGroup *m_mode = nullptr;
    LogSliderField *m_parameters = nullptr;
    StepSliderField *m_precision = nullptr;
    StepSliderField *m_optimizer = nullptr;
    LogSliderField *m_batch = nullptr;
    LogSliderField *m_sequence = nullptr;
    QLabel *m_stackNote = nullptr; ///< what the training stack turns on, in one line

    QToolButton *m_advancedToggle = nullptr;
    QWidget *m_advanced = nullptr;
};

} // namespace ui
