#pragma once

#include "core/analysis/matrix.h"

#include "core/analysis/fit.h"
#include "core/analysis/plan.h"
#include "core/engine/estimate.h"
#include "core/io/presets.h"
#include "core/model/catalog.h"

#include <string>

namespace core::io {

/// The estimate as one JSON object: the `vramplanner-cli estimate --json`
/// contract (schema_version 1). All byte values are integers; `total` is the
/// sum of the other terms; a term that does not apply is present and 0.
std::string estimateToJson(const Scenario &scenario, const EstimateWithFits &result, const Catalog &catalog);

/// Layouts found by core::planLayouts (`vramplanner-cli plan --json`); where
/// none fits, `why` and `what_would_fit` as estimateToJson writes them for
/// the scenario as set on the GPU (`asSet`: its estimate with that GPU's fit).
std::string planToJson(const GpuSpec &gpu, const std::vector<PlanOption> &layouts, const EstimateWithFits &asSet);
/// The serving plan (`vramplanner-cli plan --serve --json`): the targets,
/// every layout kept (its replica, capacity and the limit that bounds it,
/// its load at the request rate, GPUs and costs) and every layout rejected
/// with its reason in English.
std::string servingPlanToJson(const Scenario &base, const ServingPlan &plan);
/// {"schema_version": 1, "formats": [...], "gpus": [...], "cells": [{"format",
/// "gpu", "fits", "total_bytes", "max_seq", "gpus_needed"}, ...]}.
std::string matrixToJson(const FormatMatrix &matrix);

/// The catalog as JSON (`vramplanner-cli gpus --json`).
std::string catalogToJson(const Catalog &catalog);

/// The presets with their parameter counts (`vramplanner-cli models --json`).
std::string presetsToJson(const std::vector<ModelPreset> &presets);

} // namespace core::io
