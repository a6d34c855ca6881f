#include "ui/language.h"

#include "core/engine/estimate.h"
#include "core/scenario/scenario.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFont>
#include <QGuiApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace ui {

std::vector<std::pair<QString, QString>> availableLanguages()
{
    return {{QString(), QCoreApplication::translate("Language", "System default")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

namespace {
QString g_current = QStringLiteral("en");
}

QString currentLanguage()
{
    return g_current;
}

void applyLanguage(const QString &code)
{
    static QTranslator *app = nullptr;
    static QTranslator *qt = nullptr;
    for (QTranslator **t : {&app, &qt}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    if (code == QLatin1String("en")) {
        g_current = QStringLiteral("en");
        // English is the source language; announce the change all the same.
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(QCoreApplication::instance(), &change);
        return;
    }
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    g_current = locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
    if (locale.language() == QLocale::Chinese) {
        // Prefer the Simplified Chinese glyph forms of Noto CJK over its
        // Japanese face, which fontconfig would otherwise pick first.
        QFont font = QGuiApplication::font();
        font.setFamilies({font.family(), QStringLiteral("Noto Sans CJK SC")});
        QGuiApplication::setFont(font);
    }
    app = new QTranslator;
    // Compiled translations are embedded under :/i18n by qt_add_translations.
    if (app->load(locale, QStringLiteral("vramplanner"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(app);
    qt = new QTranslator;
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

std::string translateForCore(const char *context, const char *text)
{
    return QCoreApplication::translate(context, text).toStdString();
}

QString firstProblem(const core::Estimate &estimate)
{
    return estimate.errors.empty() ? QString()
                                   : QString::fromStdString(core::render(estimate.errors.front(), translateForCore));
}

} // namespace ui
