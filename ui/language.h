#pragma once

#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace core {
struct Estimate;
struct Scenario;
} // namespace core

namespace ui {

/// (code, native name) of each interface language; "" follows the system.
std::vector<std::pair<QString, QString>> availableLanguages();

/// Installs the translators for `code` ("", "en" or "zh_CN"); every window
/// receives a LanguageChange event and retranslates.
void applyLanguage(const QString &code);

/// The language the interface shows now: "zh_CN" or "en".
QString currentLanguage();

/// core::Translator for engine messages and reports: Qt's translation of
/// a string core marked with QT_TRANSLATE_NOOP.
std::string translateForCore(const char *context, const char *text);

/// An invalid estimate's first problem in the reader's language.
QString firstProblem(const core::Estimate &estimate);

} // namespace ui
