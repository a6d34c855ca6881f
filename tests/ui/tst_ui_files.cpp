// TestUi, files: saving and opening scenarios, bad and full-disk files,
// config.json, the user catalog.

#include "tests/ui/tst_ui.h"

#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "tests/support/filesizelimit.h"
#include "ui/breakdownpanel.h"
#include "ui/clusterpanel.h"
#include "ui/controlspanel.h"
#include "ui/fieldeditor.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"
#include "ui/scenariofile.h"
#include "ui/sliderfields.h"

#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace uitest;

void TestUi::saveOpenRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.vramplanner.json"));
    ui::MainWindow first;
    first.controller()->usePreset("mixtral-8x7b");
    first.controller()->update(QString(), [](core::Scenario &s) {
        s.mode = core::Mode::Lora;
        s.sequence = 12288;
        s.gpus = 4;
        s.zeroStage = 3;
        s.lora.rank = 64;
    });
    QString error;
    QVERIFY2(first.saveTo(path, &error), qPrintable(error));
    QVERIFY(!first.controller()->isModified());
    ui::MainWindow second;
    QVERIFY2(second.openFile(path, &error), qPrintable(error));
    QCOMPARE(core::io::saveScenario(second.controller()->scenario()), core::io::saveScenario(first.controller()->scenario()));
    QCOMPARE(second.controller()->result().estimate.total, first.controller()->result().estimate.total);
    QCOMPARE(second.controls()->sequenceField()->value(), 12288ull);
}

void TestUi::badFilesChangeNothing_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::newRow("malformed") << QByteArray("{\"schema_version\": 1, \"mode\": ") << "malformed JSON";
    QTest::newRow("wrong version") << QByteArray(R"({"schema_version": 99, "kind": "vramplanner-scenario"})") << "schema_version";
    QTest::newRow("bad value") << QByteArray(R"({"schema_version": 1, "kind": "vramplanner-scenario",
        "model": {"kind": "params", "params": 7000000000}, "batch": -3})") << "/batch";
}

void TestUi::badFilesChangeNothing()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    ui::MainWindow window;
    const std::string before = core::io::saveScenario(window.controller()->scenario());
    QSignalSpy spy(window.controller(), &ui::ScenarioController::estimateChanged);
    QString error;
    QVERIFY(!window.openFile(path, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QCOMPARE(core::io::saveScenario(window.controller()->scenario()), before);
    QCOMPARE(spy.count(), 0);
}

void TestUi::configJsonOpens()
{
    ui::MainWindow window;
    QString error;
    QVERIFY2(window.openFile(QStringLiteral(VRAM_TEST_DATA_DIR "/configs/qwen2-qwen2.5-7b.json"), &error), qPrintable(error));
    QCOMPARE(window.controller()->scenario().source.kind, core::ModelSource::Kind::ConfigFile);
    QCOMPARE(window.controls()->parametersField()->value(), 7615616512ull);
    QVERIFY(window.controls()->modelCombo()->currentText().contains(QStringLiteral("config.json")));

    // A GGUF's tables switch the engine to llama.cpp in the same undo step
    // (a safetensors folder leaves it as it was).
    core::CheckpointWeights gguf;
    gguf.format = "gguf";
    gguf.path = "model.gguf";
    ui::ScenarioController *c = window.controller();
    QCOMPARE(c->scenario().serving, core::ServingEngine::Generate);
    c->useModel(c->scenario().model, {core::ModelSource::Kind::ConfigFile, "", "model.gguf", 0}, gguf);
    QCOMPARE(c->scenario().serving, core::ServingEngine::LlamaCpp);
    c->undoStack()->undo();
    QCOMPARE(c->scenario().serving, core::ServingEngine::Generate);
    core::CheckpointWeights safetensors = gguf;
    safetensors.format = "safetensors";
    c->useModel(c->scenario().model, {core::ModelSource::Kind::ConfigFile, "", "folder", 0}, safetensors);
    QCOMPARE(c->scenario().serving, core::ServingEngine::Generate);
}

void TestUi::savedFocusGpuReachesTheWindow()
{
    // A scenario file's "gpu" is the Cluster tab's focus GPU, the GPU the
    // time and cost figures use, and the row the GPUs table sets in bold.
    ui::MainWindow window;
    // None chosen, the field names the GPU the figures use, not "none".
    auto *focus = window.fieldEditor(core::FieldId::Gpu)->findChild<QComboBox *>();
    QCOMPARE(focus->currentIndex(), 0);
    QCOMPARE(focus->currentText(), QStringLiteral("default: %1").arg(QString::fromStdString(window.controller()->focusGpu()->name)));
    QVERIFY(focus->currentText().contains(QStringLiteral("H100")));
    openPage(window, window.cluster());
    core::Scenario s = ui::ScenarioController::defaultScenario();
    s.gpuId = "rtx-3090";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("focus.vramplanner.json"));
    window.controller()->setScenario(s);
    QString error;
    QVERIFY2(window.saveTo(path, &error), qPrintable(error));
    window.controller()->setScenario(ui::ScenarioController::defaultScenario());
    QVERIFY2(window.openFile(path, &error), qPrintable(error));
    QCOMPARE(window.fieldEditor(core::FieldId::Gpu)->value(), core::FieldValue(std::string("rtx-3090")));
    QVERIFY(window.cluster()->figures()->text().contains(QStringLiteral("RTX 3090")));
    window.breakdown()->showPage(1);
    QTableWidget *gpus = window.breakdown()->gpuTable();
    int bold = 0;
    for (int row = 0; row < gpus->rowCount(); ++row)
        if (gpus->item(row, 0)->font().bold()) {
            ++bold;
            QVERIFY(gpus->item(row, 0)->text().contains(QStringLiteral("3090")));
        }
    QCOMPARE(bold, 1);
}

void TestUi::fullDiskKeepsTheSavedScenario()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.vramplanner.json"));
    core::Scenario scenario;
    scenario.model = core::io::findPreset("llama-2-7b")->model;
    QString error;
    QVERIFY(ui::scenariofile::save(scenario, path, &error));
    const QByteArray saved = ui::scenariofile::readLimited(path, &error).value_or(QByteArray());
    scenario.batch = 8;
    bool ok = true;
    {
        FileSizeLimit diskFull(256); // smaller than any scenario file
        if (!diskFull.active())
            QSKIP("no file size limit on this platform");
        ok = ui::scenariofile::save(scenario, path, &error);
    }
    QVERIFY(!ok);
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("unchanged")), qPrintable(error));
    QCOMPARE(ui::scenariofile::readLimited(path, &error).value_or(QByteArray()), saved);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left behind
}

void TestUi::userCatalogReachesTheWindow()
{
    QTemporaryDir dir;
    qputenv("VRAMPLANNER_DATA_DIR", dir.path().toLocal8Bit());
    const auto restore = qScopeGuard([] { qunsetenv("VRAMPLANNER_DATA_DIR"); });
    QFile file(dir.filePath(QStringLiteral("gpus.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"schema_version": 1, "gpus": [{"id": "lab-card-24g", "name": "Lab card 24G",
        "memory_bytes": 25769803776, "source": "our lab", "default_shown": true}]})");
    file.close();
    {
        ui::MainWindow window;
        QVERIFY(window.controller()->catalog().find("lab-card-24g"));
        QVERIFY(window.findChildren<QMessageBox *>().isEmpty());
    }
    // A broken file: the window opens with the built-in catalog and says
    // which file and which value, without blocking (non-modal).
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"schema_version": 1, "gpus": [{"id": "x", "name": "x", "source": "y"}]})");
    file.close();
    ui::MainWindow window;
    QVERIFY(!window.controller()->catalog().find("x"));
    const auto boxes = window.findChildren<QMessageBox *>();
    QCOMPARE(boxes.size(), 1);
    QVERIFY(boxes.front()->text().contains(file.fileName()));
    QVERIFY(boxes.front()->detailedText().contains(QStringLiteral("/gpus/0/memory_bytes")));
}
