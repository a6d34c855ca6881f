// Every malformed or hostile file in tests/data/errors/ is refused by its
// loader with a message that names the problem; nothing crashes, hangs or
// is accepted. A 100 MB input is refused before it is parsed.

#include "tests/support/testregistry.h"
#include "core/io/builtin.h"
#include "core/io/calibrationio.h"
#include "core/io/catalogio.h"
#include "core/io/hfconfig.h"
#include "core/io/lessonio.h"
#include "core/io/scenarioio.h"

#include <QDir>
#include <QtTest>

namespace {

std::vector<std::string> errorsFor(const QString &loader, const std::string &text)
{
    if (loader == QLatin1String("scenario"))
        return core::io::loadScenario(text, core::io::builtinPresets()).errors;
    if (loader == QLatin1String("config"))
        return core::io::parseHfConfig(text, "hostile").errors;
    if (loader == QLatin1String("catalog"))
        return core::io::loadCatalog(text).errors;
    if (loader == QLatin1String("lessons"))
        return core::io::loadLessons(text, core::io::builtinPresets()).errors;
    if (loader == QLatin1String("calibration"))
        return core::io::loadCalibration(text).errors;
    return {};
}

bool accepted(const QString &loader, const std::string &text)
{
    if (loader == QLatin1String("scenario"))
        return core::io::loadScenario(text, core::io::builtinPresets()).ok();
    if (loader == QLatin1String("config"))
        return core::io::parseHfConfig(text, "hostile").ok();
    if (loader == QLatin1String("catalog"))
        return core::io::loadCatalog(text).ok();
    if (loader == QLatin1String("lessons"))
        return core::io::loadLessons(text, core::io::builtinPresets()).ok();
    return core::io::loadCalibration(text).ok();
}

} // namespace

class TestHostileInputs : public QObject
{
    Q_OBJECT

private slots:
    void corpusIsRefused_data();
    void corpusIsRefused();
    void hundredMegabytesAreRefusedUnread_data();
    void hundredMegabytesAreRefusedUnread();
};

void TestHostileInputs::corpusIsRefused_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(VRAM_TEST_DATA_DIR "/errors"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 30);
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

void TestHostileInputs::corpusIsRefused()
{
    QFETCH(QString, file);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    const QString loader = QFileInfo(file).fileName().section(QLatin1Char('-'), 0, 0);
    const std::vector<std::string> errors = errorsFor(loader, text);
    QVERIFY2(!errors.empty(), qPrintable(QStringLiteral("accepted by the %1 loader").arg(loader)));
    QVERIFY(!accepted(loader, text));
    for (const std::string &e : errors) {
        // A message names where (a JSON pointer) or what (malformed, too deep, too large).
        const bool named = e.rfind('/', 0) == 0 || e.find(": ") != std::string::npos || e.find("malformed") != std::string::npos;
        QVERIFY2(named, e.c_str());
    }
}

void TestHostileInputs::hundredMegabytesAreRefusedUnread_data()
{
    QTest::addColumn<QString>("loader");
    for (const char *loader : {"scenario", "config", "catalog", "lessons", "calibration"})
        QTest::newRow(loader) << QString::fromLatin1(loader);
}

void TestHostileInputs::hundredMegabytesAreRefusedUnread()
{
    QFETCH(QString, loader);
    static const std::string huge = "{\"a\": \"" + std::string(100u * 1024u * 1024u, 'x') + "\"}";
    const std::vector<std::string> errors = errorsFor(loader, huge);
    QVERIFY(!errors.empty());
    QVERIFY2(errors.front().find("limit") != std::string::npos, errors.front().c_str());
}

VRAM_TEST_MAIN(tst_hostile_inputs, TestHostileInputs, None)
#include "tst_hostile_inputs.moc"
