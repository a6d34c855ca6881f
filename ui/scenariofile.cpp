#include "ui/scenariofile.h"

#include "core/base/loadresult.h"
#include "core/io/builtin.h"
#include "core/io/scenarioio.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace ui::scenariofile {

bool writeText(const QString &path, const QByteArray &text, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QCoreApplication::translate("ScenarioFile", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const auto failed = [&](const QString &reason) {
        *error = QCoreApplication::translate("ScenarioFile", "Could not save %1 (%2). The previous file is unchanged.")
                     .arg(path, reason);
        return false;
    };
    // Flushed before commit(): with Qt 6.4.2, when the last buffered write
    // is cut short (a full disk), commit() still renames the truncated file
    // over the old one and returns true. Cancelling keeps the old file.
    if (file.write(text) != text.size() || !file.flush()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return failed(reason);
    }
    return file.commit() || failed(file.errorString());
}

bool save(const core::Scenario &scenario, const QString &path, QString *error)
{
    return writeText(path, QByteArray::fromStdString(core::io::saveScenario(scenario)), error);
}

std::optional<QByteArray> readLimited(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("ScenarioFile", "Cannot open %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > static_cast<qint64>(core::kMaxInputBytes)) {
        *error = QCoreApplication::translate("ScenarioFile", "%1 is too large (%2 MiB; the limit is %3 MiB).")
                     .arg(path)
                     .arg(file.size() / (1024 * 1024))
                     .arg(core::kMaxInputBytes / (1024 * 1024));
        return std::nullopt;
    }
    return file.readAll();
}

std::optional<core::Scenario> load(const QString &path, QString *error)
{
    const auto text = readLimited(path, error);
    if (!text)
        return std::nullopt;
    const auto result = core::io::loadScenario(text->toStdString(), core::io::builtinPresets());
    if (!result.ok()) {
        QStringList problems;
        for (const std::string &e : result.errors)
            problems << QString::fromStdString(e);
        *error = QCoreApplication::translate("ScenarioFile", "%1 is not a valid scenario:\n%2")
                     .arg(QFileInfo(path).fileName(), problems.join(QLatin1Char('\n')));
        return std::nullopt;
    }
    return result.value;
}

bool looksLikeScenario(const QByteArray &text)
{
    return text.contains("\"vramplanner-scenario\"") || !text.contains("\"model_type\"");
}

} // namespace ui::scenariofile
