#pragma once

#include "core/engine/stagestates.h"
#include "core/memory/activations.h"
#include "core/memory/formula.h"
#include "core/memory/trainingrun.h"
#include "core/model/modelspec.h"
#include "core/scenario/fields.h"
#include "core/scenario/scenario.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace core {

/// What every estimate of a scenario computes from the model and the other
/// settings alone, whatever its batch size and sequence length: the checks
/// of the other inputs, the parameter counts from the tensor table and, for
/// training, the run the stack makes of it, the trainable parameters, the
/// optimizer states, the largest matrix a dequantisation materialises, the
/// activations' per-token sums and what each pipeline stage holds at every
/// point (stagestates.h).
/// Built once, it serves every point of a sweep, a grid or a fit search
/// (`estimate(scenario, prepared)`); the tensor table itself is not kept.
class PreparedScenario
{
public:
    /// Prepares `scenario`. With a `store`, the formulas of what it prepares
    /// are recorded there (explaining an estimate).
    explicit PreparedScenario(const Scenario &scenario, FormulaStore *store = nullptr);

    /// The problems of `scenario` (scenarioProblems' list), which differs
    /// from the prepared scenario in its batch and sequence at most: only
    /// their ranges and the checks that read them (pointCheckFailure) are
    /// made again.
    std::vector<Message> errors(const Scenario &scenario) const;
    /// The prepared figures below are there: the scenario is valid apart
    /// from its batch and sequence.
    bool isPrepared() const { return m_prepared; }

    const ParameterCounts &params() const { return m_params; }
    /// Training: how the stack runs it (trainingRun).
    const TrainingRun &run() const { return m_run; }
    /// Training: every parameter, or r x (in + out) for each adapted
    /// projection (Hu et al. 2021, LoRA §4.1).
    const Derived &trainableParams() const { return m_trainableParams; }
    /// Training: the optimizer states of the trainable tensors (optimizerStateBytes).
    const Derived &optimizerStates() const { return m_optimizerStates; }
    /// Training: the largest weight matrix a dequantisation materialises at
    /// once, in elements: a layer's biggest projection, or (`lmHead`) the
    /// lm_head too where it is quantised.
    double largestDequantizedMatrix(bool lmHead) const { return m_largestQuantized[lmHead ? 1 : 0]; }
    /// Training: what one token's activations cost a layer (activationRates).
    const ActivationRates &activationRates() const { return m_activationRates; }
    /// What each stage the estimate evaluates holds at every point
    /// (stagesToEstimate's stages, in its order).
    const std::vector<StageStates> &stages() const { return m_stages; }
    /// The prepared `stage`: one of stagesToEstimate(scenario).
    const StageStates &stage(Stage stage) const;

private:
    std::uint64_t m_batch;
    std::uint64_t m_sequence;
    const FieldDescriptor &m_batchField;
    const FieldDescriptor &m_sequenceField;
    std::vector<Message> m_errors;
    bool m_prepared = false;
    ParameterCounts m_params;
    TrainingRun m_run;
    Derived m_trainableParams;
    Derived m_optimizerStates;
    std::array<double, 2> m_largestQuantized{};
    ActivationRates m_activationRates;
    std::vector<StageStates> m_stages;
};

} // namespace core
