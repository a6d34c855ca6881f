// Accuracy you can show: every published measurement the engine can express
// (tests/validation/published-cases.json) and every exact CPU measurement of
// tests/validation/measure_torch.py (torch-cpu-results.json), run through
// `vramplanner-cli validate`, i.e. the estimate command's own option
// parsing. The table is printed; the targets decide pass or fail.

#include "tests/support/testregistry.h"
#include "app/cli/cli.h"

#include <QtTest>

#include <sstream>

class TestValidation : public QObject
{
    Q_OBJECT

private slots:
    void targetsHold();
    void gpuMeasurementsWhenCommitted();
    void badFilesAreNamed();
};

void TestValidation::targetsHold()
{
    std::ostringstream out;
    std::ostringstream err;
    const int code = cli::runCli({"validate", "--published", VRAM_VALIDATION_DIR "/published-cases.json", "--measured",
                                  VRAM_VALIDATION_DIR "/torch-cpu-results.json"},
                                 out, err);
    qInfo().noquote() << "\n" << QString::fromStdString(out.str());
    QVERIFY2(err.str().empty(), err.str().c_str());
    QCOMPARE(code, 0);
    // Every expressible published case and every measured quantity is listed.
    QVERIFY(out.str().find("hf-octocoder-bf16") != std::string::npos);
    QVERIFY(out.str().find("saved_total_bytes") != std::string::npos);
    QVERIFY(out.str().find("kv_cache_bytes") != std::string::npos);
}

void TestValidation::gpuMeasurementsWhenCommitted()
{
    const char *const cuda = VRAM_VALIDATION_DIR "/torch-cuda-results.json";
    if (!QFile::exists(QString::fromUtf8(cuda)))
        QSKIP("no torch-cuda-results.json yet: run tests/validation/measure_torch.py --cuda on a GPU machine");
    std::ostringstream out;
    std::ostringstream err;
    const int code = cli::runCli({"validate", "--published", VRAM_VALIDATION_DIR "/published-cases.json", "--measured", cuda},
                                 out, err);
    qInfo().noquote() << "\n" << QString::fromStdString(out.str());
    QCOMPARE(code, 0);
}

void TestValidation::badFilesAreNamed()
{
    std::ostringstream out;
    std::ostringstream err;
    QCOMPARE(cli::runCli({"validate", "--published", "/nonexistent.json", "--measured", "/nonexistent.json"}, out, err), 2);
    QVERIFY(err.str().find("--published") != std::string::npos);
}

VRAM_TEST_MAIN(tst_validation, TestValidation, None)
#include "tst_validation.moc"
