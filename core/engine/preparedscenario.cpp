#include "core/engine/preparedscenario.h"

#include "core/memory/formulatext.h"
#include "core/memory/training.h"

#include <algorithm>
#include <cassert>

namespace core {

namespace {

/// Whether LoRA adapts the projections of `group`.
bool isAdapted(const Scenario &s, const TensorGroup &group)
{
    return group.slot != LinearSlot::None
        && std::find(s.lora.targets.begin(), s.lora.targets.end(), group.slot) != s.lora.targets.end();
}

/// LoRA A (r x in) and B (out x r) for every targeted projection.
std::vector<TensorGroup> loraTensors(const Scenario &s, const std::vector<TensorGroup> &tensors)
{
    std::vector<TensorGroup> adapters;
    const auto r = static_cast<std::uint64_t>(s.lora.rank);
    for (const TensorGroup &g : tensors) {
        if (!isAdapted(s, g))
            continue;
        TensorGroup a = g;
        a.name = g.name + ".lora_A";
        a.rows = r;
        TensorGroup b = g;
        b.name = g.name + ".lora_B";
        b.cols = r;
        adapters.push_back(a);
        adapters.push_back(b);
    }
    return adapters;
}

/// The parameters that train: every parameter, or r x (in + out) for each
/// adapted projection (Hu et al. 2021, LoRA §4.1).
Derived trainableParameters(const Scenario &s, const std::vector<TensorGroup> &tensors, bool lora, FormulaStore *store)
{
    namespace l = text::lora;
    Formula params(store);
    if (!lora) {
        double all = 0;
        for (const TensorGroup &g : tensors)
            all += static_cast<double>(g.elements());
        params.product().times(text::shared::kParams, all);
        return params.derived();
    }
    for (const TensorGroup &g : tensors) {
        if (!isAdapted(s, g))
            continue;
        params.product(l::kPartAdapters[static_cast<std::size_t>(g.slot)])
            .times(l::kRank, static_cast<double>(s.lora.rank))
            .times(l::kInPlusOut, static_cast<double>(g.rows + g.cols))
            .times(l::kMatrices, static_cast<double>(g.count));
    }
    params.cite(l::kFromLora);
    return params.derived();
}

/// The largest weight matrix a dequantisation materialises at once, in
/// elements: a layer's biggest projection, or the lm_head where it is
/// quantised.
double largestQuantizedMatrix(const std::vector<TensorGroup> &tensors, bool lmHeadQuantized)
{
    double largest = 0;
    for (const TensorGroup &g : tensors) {
        const bool layerLinear = g.role == TensorRole::AttentionLinear || g.role == TensorRole::MlpLinear
            || g.role == TensorRole::ExpertLinear;
        if (layerLinear || (lmHeadQuantized && g.role == TensorRole::LmHead))
            largest = std::max(largest, static_cast<double>(g.rows) * static_cast<double>(g.cols));
    }
    return largest;
}

} // namespace

PreparedScenario::PreparedScenario(const Scenario &s, FormulaStore *store)
    : m_batch(s.batch), m_sequence(s.sequence), m_batchField(field(FieldId::Batch)),
      m_sequenceField(field(FieldId::Sequence)), m_errors(scenarioProblems(s))
{
    if (!m_errors.empty()) {
        // Other points of a sweep may be valid when only the batch or the
        // sequence is out of range: check the rest at their smallest values.
        Scenario smallest = s;
        smallest.batch = static_cast<std::uint64_t>(m_batchField.min);
        smallest.sequence = static_cast<std::uint64_t>(m_sequenceField.min);
        if (!scenarioProblems(smallest).empty())
            return;
    }
    m_prepared = true;
    const std::vector<TensorGroup> tensors = enumerateTensors(s.model);
    m_params = countParameters(s.model, tensors);
    if (s.isTraining()) {
        m_run = trainingRun(s);
        const bool lora = m_run.adapters;
        m_trainableParams = trainableParameters(s, tensors, lora, store);
        m_optimizerStates = lora ? optimizerStateBytes(s.optimizer, m_run.trainable, loraTensors(s, tensors), store)
                                 : optimizerStateBytes(s.optimizer, m_run.trainable, tensors, store);
        m_largestQuantized = {largestQuantizedMatrix(tensors, false), largestQuantizedMatrix(tensors, true)};
        m_activationRates = core::activationRates(s.model, s, m_run.trainability, m_run.dtypes, store);
    }
    m_stages = prepareStages(s, *this, tensors, store);
}

const StageStates &PreparedScenario::stage(Stage stage) const
{
    for (const StageStates &st : m_stages)
        if (st.stage == stage)
            return st;
    assert(false && "a stage stagesToEstimate does not name");
    return m_stages.front();
}

std::vector<Message> PreparedScenario::errors(const Scenario &s) const
{
    if (s.batch == m_batch && s.sequence == m_sequence)
        return m_errors;
    if (m_prepared && isInRange(m_batchField, s) && isInRange(m_sequenceField, s) && !pointCheckFailure(s))
        return {};
    return scenarioProblems(s);
}

} // namespace core
