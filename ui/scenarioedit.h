#pragma once

#include "core/scenario/fields.h"
#include "core/scenario/scenario.h"

#include <QElapsedTimer>
#include <QUndoCommand>

namespace ui {

class ScenarioController;

/// One undoable change of the scenario: the scenario before and after.
/// Successive edits of the same field within a second (a slider drag, a
/// spin box held down) merge into one step.
class ScenarioEdit : public QUndoCommand
{
public:
    /// `mergeKey`: the field edited (as an int), or -1 for an edit that never merges.
    ScenarioEdit(ScenarioController *controller, const QString &text, core::Scenario before, core::Scenario after,
                 int mergeKey);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeKey; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    ScenarioController *m_controller;
    core::Scenario m_before;
    core::Scenario m_after;
    int m_mergeKey;
    QElapsedTimer m_lastEdit;
};

} // namespace ui
