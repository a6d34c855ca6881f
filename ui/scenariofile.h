#pragma once

#include "core/scenario/scenario.h"

#include <QString>

#include <optional>

namespace ui {

/// Scenario files on disk. Saves go through QSaveFile: the old file stays
/// intact until the new one is completely written (full disk, read-only
/// folder), and the error names the file and the reason.
namespace scenariofile {

bool save(const core::Scenario &scenario, const QString &path, QString *error);
std::optional<core::Scenario> load(const QString &path, QString *error);

/// Writes any text atomically (reports, exports).
bool writeText(const QString &path, const QByteArray &text, QString *error);

/// Reads a file of at most core::kMaxInputBytes.
std::optional<QByteArray> readLimited(const QString &path, QString *error);

/// True when the JSON text looks like a VRAM Planner scenario rather than a
/// Hugging Face config.json (for drag and drop and "Open").
bool looksLikeScenario(const QByteArray &text);

} // namespace scenariofile
} // namespace ui
