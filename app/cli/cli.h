#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cli {

/// Exit codes of vramplanner-cli.
enum ExitCode { Ok = 0, Failure = 1, BadArguments = 2 };

/// The whole command-line tool, minus main(): `args` excludes the program
/// name. Output goes to `out`, messages to `err`; tests call this directly.
int runCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace cli
