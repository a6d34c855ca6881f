#pragma once

#include "core/estimate.h"
#include "core/scenario.h"

#include <QObject>
#include <QStringList>

#include <functional>

namespace ui {

/// Owns the current scenario, runs the engine on every change and announces
/// the result. Widgets talk only to this; it never touches them.
class ScenarioController : public QObject
{
    Q_OBJECT

public:
    explicit ScenarioController(const core::Catalog &catalog, QObject *parent = nullptr);

    const core::Scenario &scenario() const { return m_scenario; }
    const core::EstimateWithFits &result() const { return m_result; }
    const core::Catalog &catalog() const { return m_catalog; }

    /// Applies `change` to the scenario, marks the document modified,
    /// re-estimates and emits estimateChanged once.
    void update(const std::function<void(core::Scenario &)> &change);

    /// Replaces the whole scenario (New, Open, restore): not a modification.
    void setScenario(const core::Scenario &scenario);

    void usePreset(const std::string &presetId);
    void useParameterCount(std::uint64_t parameters);
    void useModel(const core::ModelSpec &model, const core::ModelSource &source);

    /// The catalog GPUs the chart and fit table show, in catalog order.
    const QStringList &shownGpus() const { return m_shownGpus; }
    void setShownGpus(const QStringList &ids);

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
    /// The scenario was replaced as a whole: controls resynchronise.
    void scenarioReplaced();
    void modifiedChanged(bool modified);
    void unitChanged(core::ByteUnit unit);

private:
    void recompute();

    const core::Catalog &m_catalog;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    QStringList m_shownGpus;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
    bool m_modified = false;
    QString m_filePath;
};

} // namespace ui
