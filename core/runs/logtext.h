#pragma once

// Helpers the run-log readers share: the cleaned lines of a log and the
// numbers printed in them.

#include "core/runs/runlog.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace core::runlog {

/// One line of a log with what loggers added removed: the line end (\r\n
/// too) and ANSI colour codes (ESC[...m, and syslog's "#033[...m").
struct LogLine
{
    std::string text;
    std::size_t number = 0; ///< 1-based
    bool last = false;      ///< the log's last line (it may be cut off)
    /// The worker that printed it, from a leading "(Name pid=507)" as vLLM's
    /// multiprocessing and Ray workers prefix their lines: "pid=507".
    std::string worker;
};
std::vector<LogLine> splitLogLines(const std::string &text);

/// A number as printf or Python printed it: "6378.40", "-3", "1,234,567".
struct PrintedNumber
{
    long double value = 0;
    int decimals = 0; ///< digits after the point
    bool negative = false;
};

/// Reads the number at `pos` (after any spaces), advancing `pos` past it.
/// `grouped`: accept Python's "{:,}" thousands commas.
std::optional<PrintedNumber> readNumber(const std::string &text, std::size_t &pos, bool grouped = false);
/// The number right after `anchor` (spaces allowed between); nullopt when
/// the anchor is absent or no number follows. `after` receives the position
/// after the number.
std::optional<PrintedNumber> numberAfter(const std::string &text, const std::string &anchor,
                                         std::size_t *after = nullptr, bool grouped = false);

/// Bytes of a number printed in units of `unit` bytes, rounded once.
Bytes bytesOf(const PrintedNumber &number, long double unit);
/// Half the last printed digit, in bytes (a %.2f figure is within it).
Bytes halfLastDigit(const PrintedNumber &number, long double unit);

constexpr long double kMiB = 1024.0L * 1024.0L;
constexpr long double kGiB = 1024.0L * 1024.0L * 1024.0L;

/// Leading and trailing blanks removed.
std::string trimmed(const std::string &text);
/// The text split at `separator`, each part trimmed.
std::vector<std::string> splitTrimmed(const std::string &text, char separator);
bool startsWith(const std::string &text, const std::string &prefix);
bool endsWith(const std::string &text, const std::string &suffix);

/// The number in a backend's name: 1 of "CUDA1".
int deviceNumber(const std::string &name);

/// The release a version string begins with, at most major.minor.patch:
/// "0.6.4.post1" -> "0.6.4", "1.1.0rc3" -> "1.1.0"; empty for no number.
std::string releaseNumber(const std::string &text);

/// "line 12: ..." for diagnostics.
std::string atLine(std::size_t line, const std::string &what);

} // namespace core::runlog
