#include "ui/scenariocontroller.h"

#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "core/scenario/servingruntime.h"
#include "ui/scenarioedit.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <algorithm>

namespace ui {

ScenarioController::ScenarioController(const core::Catalog &catalog, QObject *parent)
    : QObject(parent), m_catalog(catalog), m_undo(new QUndoStack(this)), m_scenario(defaultScenario()),
      m_shownGpus(defaultShownGpus(catalog))
{
    // Undoing back to the saved state makes the document unmodified again.
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { markModified(!clean); });
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

void ScenarioController::setField(core::FieldId id, const core::FieldValue &value)
{
    const core::FieldDescriptor &f = core::field(id);
    core::Scenario after = m_scenario;
    f.assign(after, value);
    core::io::resolveDraft(after, core::io::builtinPresets());
    if (f.stored(after) == f.stored(m_scenario))
        return;
    m_undo->push(new ScenarioEdit(this, QCoreApplication::translate("Field", f.label), m_scenario, after,
                                  static_cast<int>(id)));
}

void ScenarioController::update(const QString &what, const std::function<void(core::Scenario &)> &change)
{
    core::Scenario after = m_scenario;
    change(after);
    m_undo->push(new ScenarioEdit(this, what, m_scenario, after, -1));
}

void ScenarioController::applyEdited(const core::Scenario &scenario)
{
    const std::vector<core::FieldId> changed = core::changedFields(m_scenario, scenario);
    const bool modelChanged = scenario.source.kind != m_scenario.source.kind
        || scenario.source.presetId != m_scenario.source.presetId
        || scenario.source.configPath != m_scenario.source.configPath
        || scenario.source.parameters != m_scenario.source.parameters;
    m_scenario = scenario;
    emit fieldsChanged(changed, modelChanged);
    recompute();
}

void ScenarioController::setScenario(const core::Scenario &scenario)
{
    m_undo->clear();
    std::vector<core::FieldId> all;
    for (const core::FieldDescriptor &f : core::allFields())
        all.push_back(f.id);
    m_scenario = scenario;
    setModified(false);
    emit fieldsChanged(all, true);
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

void ScenarioController::useModel(const core::ModelSpec &model, const core::ModelSource &source,
                                  const std::optional<core::CheckpointWeights> &checkpoint)
{
    core::Scenario after = m_scenario;
    after.model = model;
    after.source = source;
    after.checkpoint = checkpoint;
    // The runtime the files imply (a GGUF: llama.cpp), in the same step.
    if (const auto runtime = checkpoint ? core::runtimeForCheckpoint(*checkpoint) : std::nullopt)
        after.serving = *runtime;
    // Dragging the parameter slider is one step, like any other field.
    const int mergeKey = source.kind == core::ModelSource::Kind::ParameterCount ? static_cast<int>(core::FieldId::Count) : -1;
    m_undo->push(new ScenarioEdit(this, tr("Model"), m_scenario, after, mergeKey));
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

const core::GpuSpec *ScenarioController::focusGpu() const
{
    return core::focusGpu(m_scenario, m_catalog);
}

std::vector<std::string> ScenarioController::selectedGpuIds() const
{
    const core::GpuSpec *focus = focusGpu();
    std::vector<std::string> ids;
    if (focus)
        ids.push_back(focus->id);
    for (const QString &shown : m_shownGpus)
        if (!focus || shown.toStdString() != focus->id)
            ids.push_back(shown.toStdString());
    return ids;
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
    // Saved: this state is the clean one. Restored as modified: no state in
    // the history matches the file.
    if (modified)
        m_undo->resetClean();
    else
        m_undo->setClean();
    markModified(modified);
}

void ScenarioController::markModified(bool modified)
{
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void ScenarioController::recompute()
{
    // One estimate for every view: the fits of the focus GPU and the shown
    // ones, of which the chart and the fit table take the shown.
    const std::vector<std::string> selected = selectedGpuIds();
    m_deployment = core::estimateWithFits(m_scenario, m_catalog, selected, core::Formulas::Recorded);
    // An empty selection means "all" to the engine; show none instead.
    if (selected.empty())
        m_deployment.fits.clear();
    m_result = m_deployment;
    m_result.fits.erase(std::remove_if(m_result.fits.begin(), m_result.fits.end(),
                                       [this](const core::GpuFit &fit) {
                                           return !m_shownGpus.contains(QString::fromStdString(fit.gpuId));
                                       }),
                        m_result.fits.end());
    emit estimateChanged(m_result);
}

} // namespace ui
