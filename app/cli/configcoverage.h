#pragma once

#include <ostream>
#include <string>

namespace cli {

/// `vramplanner-cli validate --configs DIR`: reads every config.json under
/// DIR (and every *_config.json, as tests/data/configs/2026 names them)
/// the way --model reads one, and lists each with its family, parameter
/// count, layers by kind (the layer descriptor) and how it was read: by its family's rules, partly guessed (a part
/// the planner does not model yet), guessed (no family rules), or refused.
/// A guessed reading lists the keys it assumed. Exit 0 when every file was
/// read, 1 when one was refused.
int runValidateConfigs(const std::string &folder, std::ostream &out, std::ostream &err);

} // namespace cli
