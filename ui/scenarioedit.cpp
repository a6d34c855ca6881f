#include "ui/scenarioedit.h"

#include "ui/scenariocontroller.h"

namespace ui {

ScenarioEdit::ScenarioEdit(ScenarioController *controller, const QString &text, core::Scenario before,
                           core::Scenario after, int mergeKey)
    : QUndoCommand(text), m_controller(controller), m_before(std::move(before)), m_after(std::move(after)),
      m_mergeKey(mergeKey)
{
    m_lastEdit.start();
}

void ScenarioEdit::undo() { m_controller->applyEdited(m_before); }

void ScenarioEdit::redo() { m_controller->applyEdited(m_after); }

bool ScenarioEdit::mergeWith(const QUndoCommand *other)
{
    // QUndoStack only offers commands with the same id(); -1 never merges.
    const auto *edit = static_cast<const ScenarioEdit *>(other);
    if (m_lastEdit.elapsed() > 1000)
        return false;
    m_after = edit->m_after;
    m_lastEdit.start();
    return true;
}

} // namespace ui
