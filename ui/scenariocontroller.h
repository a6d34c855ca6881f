#pragma once

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "core/scenario/fields.h"
#include "core/scenario/scenario.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <vector>

class QUndoStack;

namespace ui {

/// Owns the current scenario, runs the engine on every change and announces
/// the result. Widgets talk only to this; it never touches them.
class ScenarioController : public QObject
{
    Q_OBJECT

public:
    explicit ScenarioController(const core::Catalog &catalog, QObject *parent = nullptr);

    const core::Scenario &scenario() const { return m_scenario; }
    /// The estimate with the fits of the shown GPUs (the chart, the fit table).
    const core::EstimateWithFits &result() const { return m_result; }
    /// The same estimate with the fits of selectedGpuIds(): the Deploy
    /// view's rows, the focus GPU first even when it is not shown.
    const core::EstimateWithFits &deployment() const { return m_deployment; }
    const core::Catalog &catalog() const { return m_catalog; }

    /// One typed edit of one field (a value the descriptor accepts): an
    /// undoable step; quick successive edits of the same field (a slider
    /// drag) merge into one.
    void setField(core::FieldId id, const core::FieldValue &value);

    /// Applies `change` to the scenario as one undoable step named `what`
    /// (a plan row, a calibration, a model), re-estimates and emits once.
    void update(const QString &what, const std::function<void(core::Scenario &)> &change);

    /// Replaces the whole scenario (New, Open, restore): not a modification,
    /// and the undo history starts again.
    void setScenario(const core::Scenario &scenario);

    /// The edit history (Edit > Undo / Redo).
    QUndoStack *undoStack() const { return m_undo; }

    void usePreset(const std::string &presetId);
    void useParameterCount(std::uint64_t parameters);
    /// A model and where it came from; `checkpoint` when it was read from
    /// its weight files.
    void useModel(const core::ModelSpec &model, const core::ModelSource &source,
                  const std::optional<core::CheckpointWeights> &checkpoint = std::nullopt);

    /// The catalog GPUs the chart and fit table show, in catalog order.
    const QStringList &shownGpus() const { return m_shownGpus; }
    void setShownGpus(const QStringList &ids);
    /// The scenario's GPU, or an H100 when it names none: the GPU the
    /// cluster page and the Deploy view speak of.
    const core::GpuSpec *focusGpu() const;
    /// The GPUs the Deploy, matrix and heat-map views compare: the focus
    /// GPU first, then the shown GPUs in catalog order.
    std::vector<std::string> selectedGpuIds() const;

    core::ByteUnit unit() const { return m_unit; }
    void setUnit(core::ByteUnit unit);

    bool isModified() const { return m_modified; }
    void setModified(bool modified);
    const QString &filePath() const { return m_filePath; }
    void setFilePath(const QString &path) { m_filePath = path; }

    /// The scenario every new document starts from: Llama 3 8B inference.
    static core::Scenario defaultScenario();
    static QStringList defaultShownGpus(const core::Catalog &catalog);

signals:
    void estimateChanged(const core::EstimateWithFits &result);
    /// The fields whose stored value changed (by an edit, undo or redo),
    /// emitted before estimateChanged; `modelChanged` when the model did.
    void fieldsChanged(const std::vector<core::FieldId> &fields, bool modelChanged);
    /// The scenario was replaced as a whole (New, Open): a new document.
    void scenarioReplaced();
    void modifiedChanged(bool modified);
    void unitChanged(core::ByteUnit unit);

private:
    friend class ScenarioEdit;
    /// Sets the scenario an edit, undo or redo produced, and announces it.
    void applyEdited(const core::Scenario &scenario);
    void markModified(bool modified);
    void recompute();

    const core::Catalog &m_catalog;
    QUndoStack *m_undo;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    core::EstimateWithFits m_deployment;
    QStringList m_shownGpus;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
    bool m_modified = false;
    QString m_filePath;
};

} // namespace ui
