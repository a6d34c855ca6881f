// The command line: each input line is one argument to vramplanner-cli.
// Inputs that would write files (--save-*) are skipped so a run cannot
// litter the disk.

#include "fuzzinput.h"

#include "app/cli/cli.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text = fuzzText(data, size);
    if (text.find("save-") != std::string::npos)
        return -1; // not added to the corpus
    std::vector<std::string> args;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        args.push_back(line);
    std::ostringstream out, err;
    cli::runCli(args, out, err);
    return 0;
}
