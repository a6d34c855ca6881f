// A run log: read it, then plan the run it describes and compare. What
// reads must state sizes that fit in the log's own digits (no reading
// beyond 2^60 bytes from a 64 KiB input), name lines that exist, and the
// comparison must run on whatever scenario the log's settings make.

#include "fuzzinput.h"

#include "core/io/builtin.h"
#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto read = core::runlog::readRunLog(fuzzText(data, size));
    if (!read.ok())
        return 0;
    for (const core::runlog::Reading &r : read.value->readings)
        if (r.line == 0 || r.line > read.value->lines)
            std::abort();
    core::Scenario base;
    base.model = core::io::findPreset("llama-2-7b")->model;
    const core::RunScenario run = core::scenarioFromLog(base, *read.value, core::io::builtinCatalog(), {});
    if (!core::validateScenario(run.scenario).empty())
        return 0;
    const core::RunComparison c = core::compareRun(run, *read.value, core::io::builtinCatalog());
    for (const core::ComparisonRow &row : c.rows)
        if (row.line == 0)
            std::abort();
    (void)core::measurementFromLog(*read.value);
    return 0;
}
