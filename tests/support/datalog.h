#pragma once

// A real log of tests/data/logs (sources in its SOURCES.md), its text and
// what readRunLog makes of it; a log it cannot read stops the test.

#include "core/runs/runlog.h"

#include <QtGlobal>

#include <fstream>
#include <sstream>
#include <string>

namespace testsupport {

inline std::string dataLogText(const char *name)
{
    std::ifstream in(std::string(VRAM_TEST_DATA_DIR "/logs/") + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline core::runlog::RunLog readDataLog(const char *name)
{
    const auto r = core::runlog::readRunLog(dataLogText(name));
    if (!r.ok())
        qFatal("%s: %s", name, r.errors.empty() ? "unreadable" : r.errors.front().c_str());
    return *r.value;
}

} // namespace testsupport
