#pragma once

#include "core/estimate.h"
#include "core/scenario.h"

#include <QObject>

namespace ui {

/// Owns the current scenario, runs the engine on every change and
/// announces the result. Widgets talk only to this; it never touches them.
class ScenarioController : public QObject
{
    Q_OBJECT

public:
    explicit ScenarioController(const core::Catalog &catalog, QObject *parent = nullptr);

    const core::Scenario &scenario() const { return m_scenario; }
    const core::EstimateWithFits &result() const { return m_result; }
    const core::Catalog &catalog() const { return m_catalog; }

    /// Replaces the whole scenario (open, new, preset change) and re-estimates.
    void setScenario(const core::Scenario &scenario);

signals:
    void estimateChanged(const core::EstimateWithFits &result);

private:
    void recompute();

    const core::Catalog &m_catalog;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
};

} // namespace ui
