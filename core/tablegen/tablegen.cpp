// vramplanner-tablegen: reads resources/gpus.json and resources/models.json
// with the programs' own loaders and writes them out as C++ tables
// (core/tablegen/tablewriter.h). Run by the build; a data file the loaders
// reject fails the build with the loaders' messages.
//
// Usage: vramplanner-tablegen <gpus.json> <models.json> <output.cpp>

#include "core/io/atomicfile.h"
#include "core/io/catalogio.h"
#include "core/io/presets.h"
#include "core/tablegen/tablewriter.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace {

bool readFile(const char *path, std::string &text)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    return in.good() || in.eof();
}

template <typename T>
bool reportErrors(const char *path, const core::LoadResult<T> &result)
{
    for (const std::string &e : result.errors)
        std::cerr << path << ": " << e << '\n';
    return result.ok();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::cerr << "usage: vramplanner-tablegen <gpus.json> <models.json> <output.cpp>\n";
        return 2;
    }
    std::string catalogText, presetsText;
    if (!readFile(argv[1], catalogText) || !readFile(argv[2], presetsText)) {
        std::cerr << "vramplanner-tablegen: cannot read " << argv[1] << " or " << argv[2] << '\n';
        return 1;
    }
    const auto catalog = core::io::loadCatalog(catalogText);
    const auto presets = core::io::loadPresets(presetsText);
    if (!reportErrors(argv[1], catalog) || !reportErrors(argv[2], presets))
        return 1;

    std::ostringstream tables;
    core::tablegen::writeBuiltinTables(tables, *catalog.value, *presets.value);
    // Atomic, so an interrupted build never leaves a half-written source.
    std::string error;
    if (!core::io::writeFileAtomically(argv[3], tables.str(), error)) {
        std::cerr << "vramplanner-tablegen: " << error << '\n';
        return 1;
    }
    return 0;
}
