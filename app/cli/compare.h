#pragma once

#include "app/cli/options.h"
#include "core/model/catalog.h"
#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cli {

/// A run log and the scenario it describes.
struct LogRun
{
    core::runlog::RunLog log;
    core::RunScenario run;
    std::vector<std::string> warnings; ///< lines of the log that could not be read
};

/// Reads `--log FILE` and builds the scenario from the estimate options
/// with the settings the log states on top, except those given as options.
/// On failure returns nullopt with `error` naming the file and line.
std::optional<LogRun> readLogRun(const Options &options, const core::Catalog &catalog, std::string &error);

/// Today's local date, YYYY-MM-DD: kept runs and saved profiles carry it.
std::string today();

/// `compare --log FILE (estimate options) [--json] [--keep]`.
int runCompare(const std::vector<std::string> &args, const core::Catalog &catalog, std::ostream &out,
               std::ostream &err);

} // namespace cli
