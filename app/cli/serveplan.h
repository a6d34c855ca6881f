#pragma once

#include "app/cli/options.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"

#include <ostream>
#include <vector>

namespace cli {

/// `plan --serve`'s own options, beside plan's.
const std::vector<OptionSpec> &servePlanOptionSpecs();

/// False, naming it, where an option of --serve is given without it.
bool servePlanOnly(const Options &options, std::string &error);

/// `plan --serve`: the serving plan for `scenario`'s request mix and
/// targets (--prompt-tokens, --request-rate, --output-tokens, --ttft,
/// --tpot) over --gpu-ids and --engines, as text, --json, --csv or
/// --markdown. Exit 1 when no layout serves.
int runServePlan(const Options &options, core::Scenario scenario, const core::Catalog &catalog, std::ostream &out,
                 std::ostream &err);

} // namespace cli
