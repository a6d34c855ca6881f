#include "ui/scenariocontroller.h"

#include "core/io/builtin.h"

namespace ui {

ScenarioController::ScenarioController(const core::Catalog &catalog, QObject *parent)
    : QObject(parent), m_catalog(catalog), m_scenario(defaultScenario()), m_shownGpus(defaultShownGpus(catalog))
{
    recompute();
}

core::Scenario ScenarioController::defaultScenario()
{
    core::Scenario s;
    if (const core::io::ModelPreset *preset = core::io::findPreset("llama-3-8b")) {
        s.model = preset->model;
        s.source = {core::ModelSource::Kind::Preset, preset->id, "", 0};
    } else {
        s.model = core::modelFromParameterCount(8'000'000'000ull);
        s.source = {core::ModelSource::Kind::ParameterCount, "", "", 8'000'000'000ull};
    }
    return s;
}

QStringList ScenarioController::defaultShownGpus(const core::Catalog &catalog)
{
    QStringList ids;
    for (const core::GpuSpec &gpu : catalog.gpus)
        if (gpu.defaultShown)
            ids << QString::fromStdString(gpu.id);
    return ids;
}

void ScenarioController::update(const std::function<void(core::Scenario &)> &change)
{
    change(m_scenario);
    setModified(true);
    recompute();
}

void ScenarioController::setScenario(const core::Scenario &scenario)
{
    m_scenario = scenario;
    setModified(false);
    emit scenarioReplaced();
    recompute();
}

void ScenarioController::usePreset(const std::string &presetId)
{
    const core::io::ModelPreset *preset = core::io::findPreset(presetId);
    if (!preset)
        return;
    useModel(preset->model, {core::ModelSource::Kind::Preset, preset->id, "", 0});
}

void ScenarioController::useParameterCount(std::uint64_t parameters)
{
    useModel(core::modelFromParameterCount(parameters), {core::ModelSource::Kind::ParameterCount, "", "", parameters});
}

void ScenarioController::useModel(const core::ModelSpec &model, const core::ModelSource &source)
{
    update([&](core::Scenario &s) {
        s.model = model;
        s.source = source;
    });
}

void ScenarioController::setShownGpus(const QStringList &ids)
{
    QStringList ordered;
    for (const core::GpuSpec &gpu : m_catalog.gpus)
        if (ids.contains(QString::fromStdString(gpu.id)))
            ordered << QString::fromStdString(gpu.id);
    if (ordered == m_shownGpus)
        return;
    m_shownGpus = ordered;
    recompute();
}

void ScenarioController::setUnit(core::ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit unitChanged(unit);
}

void ScenarioController::setModified(bool modified)
{
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void ScenarioController::recompute()
{
    std::vector<std::string> ids;
    ids.reserve(static_cast<std::size_t>(m_shownGpus.size()));
    for (const QString &id : m_shownGpus)
        ids.push_back(id.toStdString());
    // An empty selection would mean "all" to the engine; show none instead.
    m_result = ids.empty() ? core::EstimateWithFits{core::estimate(m_scenario), {}}
                           : core::estimateWithFits(m_scenario, m_catalog, ids);
    emit estimateChanged(m_result);
}

} // namespace ui
