#include "core/io/textfile.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace core::io {

std::optional<std::string> readTextFile(const std::string &path, std::size_t limit, std::string &error)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        error = "cannot read '" + path + "': " + ec.message();
        return std::nullopt;
    }
    if (size > limit) {
        error = "'" + path + "' is " + std::to_string(size / (1024 * 1024)) + " MiB; the limit is "
            + std::to_string(limit / (1024 * 1024)) + " MiB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open '" + path + "'";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace core::io
