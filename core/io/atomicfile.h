#pragma once

#include <string>

namespace core::io {

/// Writes `text` to `path` through a temporary file beside it that is then
/// renamed over the target, so a failed write (full disk, read-only folder)
/// leaves the old file intact. On failure returns false and sets `error` to
/// a message naming the file.
bool writeFileAtomically(const std::string &path, const std::string &text, std::string &error);

} // namespace core::io
