// Saves never lose the user's previous file: core::io::writeFileAtomically
// (the CLI's --save-scenario and --save-profile, the build's generated
// tables) replaces a file only once the new one is completely written.

#include "tests/support/testregistry.h"
#include "core/io/atomicfile.h"
#include "tests/support/filesizelimit.h"

#include <QtTest>

#include <fstream>
#include <sstream>

namespace {

std::string contentsOf(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

class TestSaves : public QObject
{
    Q_OBJECT

private slots:
    void replacesTheOldFile();
    void fullDiskKeepsTheOldFile();
    void missingFolderIsNamed();
    void readOnlyFolderIsNamed();
};

void TestSaves::replacesTheOldFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("scenario.json")).toStdString();
    std::string error;
    QVERIFY(core::io::writeFileAtomically(path, "old", error));
    QVERIFY(core::io::writeFileAtomically(path, "new", error));
    QCOMPARE(contentsOf(path), std::string("new"));
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
}

void TestSaves::fullDiskKeepsTheOldFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("scenario.json")).toStdString();
    std::string error;
    QVERIFY(core::io::writeFileAtomically(path, "the user's scenario", error));
    bool saved = true;
    {
        FileSizeLimit diskFull(4096);
        if (!diskFull.active())
            QSKIP("no file size limit on this platform");
        saved = core::io::writeFileAtomically(path, std::string(64 * 1024, 'x'), error);
    }
    QVERIFY(!saved);
    QVERIFY2(error.find(path) != std::string::npos, error.c_str());
    QVERIFY2(error.find("unchanged") != std::string::npos, error.c_str());
    QCOMPARE(contentsOf(path), std::string("the user's scenario"));
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
}

void TestSaves::missingFolderIsNamed()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("no/such/folder/scenario.json")).toStdString();
    std::string error;
    QVERIFY(!core::io::writeFileAtomically(path, "text", error));
    QVERIFY2(error.find(path) != std::string::npos, error.c_str());
}

void TestSaves::readOnlyFolderIsNamed()
{
    // /proc takes no new files, even from root (tests may run as root, for
    // whom a chmod'ed folder is still writable).
    if (!QFileInfo::exists(QStringLiteral("/proc/self")))
        QSKIP("no /proc on this platform");
    const std::string path = "/proc/vramplanner-saves-test.json";
    std::string error;
    QVERIFY(!core::io::writeFileAtomically(path, "text", error));
    QVERIFY2(error.find(path) != std::string::npos && error.find("unchanged") != std::string::npos, error.c_str());
}

VRAM_TEST_MAIN(tst_saves, TestSaves, None)
#include "tst_saves.moc"
