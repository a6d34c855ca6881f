#pragma once

// Internal to core/io: the scenario as a JSON object, shared by scenario
// files and the estimate report so both spell every input the same way.

#include "core/io/jsonreader.h"
#include "core/scenario/scenario.h"

namespace core::io {

Json scenarioToJson(const Scenario &scenario);
Json modelToJson(const ModelSpec &model);
Json checkpointToJson(const CheckpointWeights &checkpoint);

} // namespace core::io
