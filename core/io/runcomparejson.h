#pragma once

#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"

#include <string>
#include <vector>

namespace core::io {

/// `vramplanner-cli compare --json`: the formats read, every reading in
/// bytes (counts as numbers) with its uncertainty and line, the settings
/// taken from the log, and each comparison row (planned, difference and
/// error, the planner's term).
std::string comparisonToJson(const RunComparison &comparison, const runlog::RunLog &log,
                             const std::vector<std::string> &warnings);

} // namespace core::io
