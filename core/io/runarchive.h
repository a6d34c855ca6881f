#pragma once

#include "core/base/loadresult.h"
#include "core/runs/runcompare.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace core::io {

/// One compared quantity of a kept run.
struct KeptRow
{
    std::string quantity; ///< "llamacpp.kv_buffer"
    std::string label;
    std::string device;
    std::string term;     ///< the planner's term(s)
    std::uint64_t measuredBytes = 0;
    std::uint64_t plannedBytes = 0;
};

/// A compared run the user kept: what was run, and each quantity beside the plan.
struct KeptRun
{
    std::string created;  ///< YYYY-MM-DD
    std::string log;      ///< the log's file name
    std::string scenario; ///< summarize(scenario)
    std::string engine;   ///< serving engine or "training"
    std::string gpuId;
    std::vector<KeptRow> rows;
};

/// The lab's own error table: plain JSON (schema_version 1, kind
/// "vramplanner-runs"), shareable, one entry per kept comparison.
struct RunArchive
{
    std::vector<KeptRun> runs;
};

std::string saveRunArchive(const RunArchive &archive);
LoadResult<RunArchive> loadRunArchive(const std::string &text);

/// A comparison as the archive keeps it: its byte rows that have a plan
/// (counts and unplanned quantities are left out), dated `created`.
KeptRun keptRunOf(const RunComparison &comparison, const std::string &created, const std::string &logName);

/// Appends `run` to the archive at `path` (a missing file starts a new
/// one) with an atomic write. A file that cannot be read is left as it is
/// and reported in `error`: nothing kept before is lost.
bool keepRun(const std::filesystem::path &path, const KeptRun &run, std::string &error);

/// runs.json in userDataDirectory(); empty when there is no data folder.
std::filesystem::path runArchivePath();

} // namespace core::io
