#pragma once

#include "app/cli/options.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace cli {

/// The `estimate` subcommand's options.
const std::vector<OptionSpec> &estimateOptionSpecs();

/// The estimate options plus a command's own (plan, calibrate, ...).
std::vector<OptionSpec> estimateOptionSpecsWith(std::initializer_list<OptionSpec> extra);

/// Builds the scenario the options describe (a --scenario file first, then
/// every flag on top). On a bad value returns nullopt with `error` naming
/// the option and what it accepts.
/// Loader warnings (an unknown model_type read with the standard keys) are
/// appended to `warnings`. `model`, when given, is used if the options name
/// no model (validation cases carry their config.json inline).
std::optional<core::Scenario> scenarioFromOptions(const Options &options, const core::Catalog &catalog,
                                                  std::string &error,
                                                  std::vector<std::string> *warnings = nullptr,
                                                  const core::ModelSpec *model = nullptr);


} // namespace cli
