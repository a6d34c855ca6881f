#pragma once

#include "core/scenario/fields.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;

namespace ui {

class ScenarioController;

/// The window's generic binder: an editor for one scenario field, built
/// from its descriptor (range, choices, unit, label, tooltip). It shows what
/// the scenario holds (for a defaulted field, the value in effect) and sends
/// each change to the controller as a typed, undoable field edit.
class FieldEditor : public QWidget
{
    Q_OBJECT

public:
    FieldEditor(core::FieldId id, ScenarioController *controller, QWidget *parent = nullptr);

    core::FieldId fieldId() const { return m_field.id; }
    /// The descriptor's label, translated: "Batch size".
    QString label() const;
    /// The widget that takes the value (a spin box, combo box, check box...).
    QWidget *input() const { return m_input; }
    /// "default" check box of an optional number; nullptr otherwise.
    QCheckBox *defaultBox() const { return m_default; }
    /// What the widget holds, read back from it: unset while an optional
    /// field shows its default. Tests hold it equal to the scenario.
    core::FieldValue value() const;

    /// Shows the scenario's value and enables the editor where the field
    /// matters; never emits an edit.
    void refresh();

private:
    void build();
    void send(const core::FieldValue &value);

    const core::FieldDescriptor &m_field;
    ScenarioController *m_controller;
    QWidget *m_input = nullptr;
    QCheckBox *m_default = nullptr;
    bool m_refreshing = false;
    /// What the editor shows now; refresh() skips when nothing moved.
    struct Shown
    {
        core::FieldValue stored;
        core::FieldValue effective;
        bool applies;
        const char *overriddenBy;
    };
    std::optional<Shown> m_shown;
};

/// Adds an editor row per field to `form`, labelled from the descriptors,
/// and returns the editors.
std::vector<FieldEditor *> addFieldRows(QFormLayout *form, const std::vector<core::FieldId> &ids,
                                        ScenarioController *controller);

/// A combo box that does not widen the side panel to its longest item.
QComboBox *compactCombo();

/// The fields of `group`, in display order.
std::vector<core::FieldId> fieldsOf(core::FieldGroup group);

} // namespace ui
