#pragma once

#include "core/analysis/fit.h"
#include "core/analysis/matrix.h"
#include "core/analysis/plan.h"
#include "core/engine/estimate.h"
#include "core/io/presets.h"
#include "core/model/catalog.h"
#include "core/runs/runcompare.h"

#include <optional>

#include <ostream>
#include <vector>

namespace cli {

/// Human-readable estimate: the per-GPU terms at the peak phase, the other
/// phases, and the fit table for the catalog's default GPUs (plus --gpu).
void printEstimate(std::ostream &out, const core::Scenario &scenario, const core::EstimateWithFits &result,
                   const core::Catalog &catalog, core::ByteUnit unit);

/// The layouts `plan` found; where it found none, why the scenario as set
/// does not fit the GPU and what would (`asSet`: its estimate on that GPU).
void printPlan(std::ostream &out, const core::GpuSpec &gpu, const std::vector<core::PlanOption> &layouts,
               const core::EstimateWithFits &asSet);
/// `plan --serve`: the targets, one row per layout kept (servingPlanTable),
/// why each engine and GPU type without one fails, and how it is worked out.
void printServingPlan(std::ostream &out, const core::Scenario &base, const core::ServingPlan &plan,
                      const core::ServingPlanRequest &request, const core::Catalog &catalog);
void printUtilization(std::ostream &out, const core::Scenario *scenario, double peakTflops,
                      std::optional<double> measuredTflops, std::optional<double> tokensPerSecond,
                      std::optional<double> referenceTokensPerSecond);

void printGpus(std::ostream &out, const core::Catalog &catalog, core::ByteUnit unit);
/// The format x GPU matrix: one row per format, each cell the longest context.
void printMatrix(std::ostream &out, const core::Scenario &scenario, const core::FormatMatrix &matrix);
/// `compare`: the settings taken from the log, then per quantity the
/// measured and planned figures, planned - measured, the error and the
/// planner's term, then the notes.
void printComparison(std::ostream &out, const core::RunComparison &comparison, core::ByteUnit unit);

void printModels(std::ostream &out, const std::vector<core::io::ModelPreset> &presets);

} // namespace cli
