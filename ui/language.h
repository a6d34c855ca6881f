#pragma once

#include <QString>

#include <utility>
#include <vector>

namespace ui {

/// (code, native name) of each interface language; "" follows the system.
std::vector<std::pair<QString, QString>> availableLanguages();

/// Installs the translators for `code` ("", "en" or "zh_CN"); every window
/// receives a LanguageChange event and retranslates.
void applyLanguage(const QString &code);

/// The language the interface shows now: "zh_CN" or "en".
QString currentLanguage();

} // namespace ui
