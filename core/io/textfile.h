#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace core::io {

/// The whole of a file up to `limit` bytes; nullopt with `error` naming the
/// file and the problem (missing, unreadable, too large) otherwise.
std::optional<std::string> readTextFile(const std::string &path, std::size_t limit, std::string &error);

} // namespace core::io
