#include "core/io/atomicfile.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace core::io {

bool writeFileAtomically(const std::string &path, const std::string &text, std::string &error)
{
    const std::string temporary = path + ".tmp";
    std::error_code ignored;
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.close(); // a full disk may only show when the last block is written
        if (!out) {
            error = "cannot write '" + path + "' (writing '" + temporary + "' failed; the previous file is unchanged)";
            std::filesystem::remove(temporary, ignored);
            return false;
        }
    }
    // std::filesystem::rename replaces an existing target on every platform
    // (std::rename does not on Windows).
    std::error_code failed;
    std::filesystem::rename(temporary, path, failed);
    if (failed) {
        error = "cannot replace '" + path + "': " + failed.message() + " (the previous file is unchanged)";
        std::filesystem::remove(temporary, ignored);
        return false;
    }
    return true;
}

} // namespace core::io
