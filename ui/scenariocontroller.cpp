#include "ui/scenariocontroller.h"

namespace ui {

ScenarioController::ScenarioController(const core::Catalog &catalog, QObject *parent)
    : QObject(parent), m_catalog(catalog)
{
}

void ScenarioController::setScenario(const core::Scenario &scenario)
{
    m_scenario = scenario;
    recompute();
}

void ScenarioController::recompute()
{
    m_result = core::estimateWithFits(m_scenario, m_catalog);
    emit estimateChanged(m_result);
}

} // namespace ui
