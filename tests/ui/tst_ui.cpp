// The planner window, offscreen: controls drive the controller and emit one
// estimateChanged carrying the engine's numbers; the chart shows what the
// engine computed; files and exports round-trip; zh_CN is complete.

#include "core/analysis/steptime.h"
#include "core/base/units.h"
#include "core/explain/rulesofthumb.h"
#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "tests/support/filesizelimit.h"
#include "tests/support/testregistry.h"
#include "ui/breakdownpanel.h"
#include "ui/calibrationdialog.h"
#include "ui/clusterpanel.h"
#include "ui/controlspanel.h"
#include "ui/exporter.h"
#include "ui/fieldeditor.h"
#include "ui/language.h"
#include "ui/lessonpanel.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/scenariocontroller.h"
#include "ui/scenariofile.h"
#include "ui/sliderfields.h"
#include "ui/sweepchart.h"
#include "ui/termstyle.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDomDocument>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

Q_DECLARE_METATYPE(core::EstimateWithFits)
Q_DECLARE_METATYPE(std::vector<core::FieldId>)

namespace {

/// The estimate the engine gives for the controller's scenario, fresh.
core::EstimateWithFits engineFor(const ui::ScenarioController &c)
{
    std::vector<std::string> ids;
    for (const QString &id : c.shownGpus())
        ids.push_back(id.toStdString());
    return core::estimateWithFits(c.scenario(), c.catalog(), ids);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestUi : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void slidersDriveTheController_data();
    void slidersDriveTheController();
    void exactEntryStaysInSync();
    void chartShowsTheEngineNumbers();
    void breakdownListsEveryNonZeroTerm();
    void chartExports_data();
    void chartExports();
    void reportExports_data();
    void reportExports();
    void saveOpenRoundTrip();
    void badFilesChangeNothing_data();
    void badFilesChangeNothing();
    void configJsonOpens();
    void scriptedExport();
    void fitsIn1024x700();
    void chineseIsComplete();
    void languageSwitchesLive();
    void calibrationFitsAppliesAndShares();
    void lessonsLoadAndAgree();
    void sweepLabelsAreTheEngineCrossings();
    void whyViewExplainsWithValues();
    void presentationMode();
    void clusterPanelPlansAndApplies();
    void clusterFiguresReadAsPeopleWriteThem();
    void hiddenPagesCatchUpWhenOpened();
    void advancedSettingsFollowOtherPanels();
    void advancedFieldsTakeTheEnginesRanges();
    void qloraShowsItsStackDefaults();
    void everyEditorShowsTheScenario();
    void editsUndoAndRedo();
    void savedFocusGpuReachesTheWindow();
    void chineseReportsHaveNoEnglishLeft_data();
    void chineseReportsHaveNoEnglishLeft();
    void fullDiskKeepsTheSavedScenario();
    void extremeScenarioSaysExceeds();
    void userCatalogReachesTheWindow();
};

void TestUi::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // keep the user's settings out of it
    QCoreApplication::setOrganizationName(QStringLiteral("VRAM Planner tests"));
    QCoreApplication::setApplicationVersion(QStringLiteral("test"));
    qRegisterMetaType<core::EstimateWithFits>();
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("offscreen"));
}

void TestUi::slidersDriveTheController_data()
{
    QTest::addColumn<QString>("control");
    QTest::addColumn<int>("position");
    QTest::newRow("parameters") << "parameters" << 800;
    QTest::newRow("precision") << "precision" << 10;
    QTest::newRow("optimizer") << "optimizer" << 3;
    QTest::newRow("batch") << "batch" << 500;
    QTest::newRow("sequence") << "sequence" << 900;
}

void TestUi::slidersDriveTheController()
{
    QFETCH(QString, control);
    QFETCH(int, position);
    ui::MainWindow window;
    ui::ScenarioController *c = window.controller();
    ui::ControlsPanel *controls = window.controls();
    c->update(QString(), [](core::Scenario &s) { s.mode = core::Mode::Lora; }); // every main control active
    QSignalSpy spy(c, &ui::ScenarioController::estimateChanged);
    const core::Scenario before = c->scenario();

    QSlider *slider = control == QLatin1String("parameters") ? controls->parametersField()->slider()
        : control == QLatin1String("precision")             ? controls->precisionField()->slider()
        : control == QLatin1String("optimizer")             ? controls->optimizerField()->slider()
        : control == QLatin1String("batch")                 ? controls->batchField()->slider()
                                                            : controls->sequenceField()->slider();
    slider->setValue(position);

    QCOMPARE(spy.count(), 1);
    const core::Scenario &after = c->scenario();
    if (control == QLatin1String("parameters")) {
        QVERIFY(core::countParameters(after.model).total != core::countParameters(before.model).total);
        QCOMPARE(after.source.kind, core::ModelSource::Kind::ParameterCount);
    } else if (control == QLatin1String("precision")) {
        QCOMPARE(after.effectiveWeights(), core::allFormats()[10].format);
    } else if (control == QLatin1String("optimizer")) {
        QCOMPARE(after.optimizer, core::allOptimizers()[3].optimizer);
    } else if (control == QLatin1String("batch")) {
        QCOMPARE(after.batch, controls->batchField()->value());
        QVERIFY(after.batch > 1);
    } else {
        QCOMPARE(after.sequence, controls->sequenceField()->value());
        QVERIFY(after.sequence > before.sequence);
    }
    // The signal carries what the engine gives for the new scenario.
    const auto emitted = spy.takeFirst().at(0).value<core::EstimateWithFits>();
    const core::EstimateWithFits engine = engineFor(*c);
    QCOMPARE(emitted.estimate.total, engine.estimate.total);
    QCOMPARE(emitted.fits.size(), engine.fits.size());
    for (std::size_t i = 0; i < engine.fits.size(); ++i)
        QCOMPARE(emitted.fits[i].fits, engine.fits[i].fits);
}

void TestUi::exactEntryStaysInSync()
{
    ui::MainWindow window;
    ui::LogSliderField *seq = window.controls()->sequenceField();
    QSignalSpy spy(window.controller(), &ui::ScenarioController::estimateChanged);
    seq->field()->setText(QStringLiteral("32k"));
    emit seq->field()->editingFinished();
    QCOMPARE(window.controller()->scenario().sequence, 32000ull);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(seq->field()->text(), QStringLiteral("32,000"));
    // Below the slider's span but within the engine's range: accepted.
    seq->field()->setText(QStringLiteral("5"));
    emit seq->field()->editingFinished();
    QCOMPARE(window.controller()->scenario().sequence, 5ull);
    QCOMPARE(spy.count(), 2);
    // Beyond the engine's range (2^24 tokens): refused, nothing changes.
    seq->field()->setText(QStringLiteral("20M"));
    emit seq->field()->editingFinished();
    QCOMPARE(window.controller()->scenario().sequence, 5ull);
    QCOMPARE(spy.count(), 2);
}

void TestUi::chartShowsTheEngineNumbers()
{
    ui::MainWindow window;
    ui::ScenarioController *c = window.controller();
    c->usePreset("llama-2-7b");
    c->update(QString(), [](core::Scenario &s) {
        s.mode = core::Mode::Train;
        s.batch = 4;
    });
    const core::EstimateWithFits engine = engineFor(*c);
    ui::MemoryChart *chart = window.chart();
    QCOMPARE(chart->barSetCount(), static_cast<int>(core::kTermCount));
    QCOMPARE(chart->categories().size(), c->shownGpus().size());
    for (core::TermId id : core::allTerms()) {
        const QVector<double> values = chart->barValues(id);
        QCOMPARE(values.size(), static_cast<int>(engine.fits.size()));
        for (int i = 0; i < values.size(); ++i)
            QCOMPARE(values[i], core::toGiga(engine.fits[static_cast<std::size_t>(i)].layoutTerms[static_cast<std::size_t>(id)],
                                             core::ByteUnit::GiB));
    }
    QStringList expected;
    for (const core::GpuFit &fit : engine.fits)
        expected << ui::verdictText(fit);
    QCOMPARE(chart->verdicts(), expected);
    // Training a 7B model does not fit a 24 GB card alone: a verdict says so.
    QVERIFY(!expected.filter(QStringLiteral("needs")).isEmpty() || !expected.filter(QStringLiteral("cannot")).isEmpty());
}

void TestUi::breakdownListsEveryNonZeroTerm()
{
    ui::MainWindow window;
    const core::Estimate &e = window.controller()->result().estimate;
    int nonZero = 0;
    for (core::TermId id : core::allTerms())
        nonZero += e.term(id).count() > 0;
    QTableWidget *table = window.breakdown()->termTable();
    QCOMPARE(table->rowCount(), nonZero + 1); // + total
    QCOMPARE(table->item(nonZero, 1)->text(), ui::bytesText(e.total, core::ByteUnit::GiB));
    window.breakdown()->explain(core::TermId::KvCache);
    QVERIFY(window.breakdown()->whyView()->toPlainText().contains(QStringLiteral("Pope et al.")));
}

void TestUi::chartExports_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("png") << "chart.png";
    QTest::newRow("svg") << "chart.svg";
    QTest::newRow("pdf") << "chart.pdf";
}

void TestUi::chartExports()
{
    QFETCH(QString, file);
    ui::MainWindow window;
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    ui::ChartExportOptions options;
    options.size = QSize(1200, 750);
    options.scale = 2.0;
    options.dpi = 192;
    QString error;
    QVERIFY2(window.exportFile(path, options, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.size() > 1000);
    if (file.endsWith(QLatin1String(".png"))) {
        const QImage image = QImage::fromData(bytes, "PNG");
        QCOMPARE(image.size(), QSize(2400, 1500)); // 1200 x 750 at pixel ratio 2
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
    } else if (file.endsWith(QLatin1String(".svg"))) {
        QDomDocument svg;
        QVERIFY(svg.setContent(bytes));
        QCOMPARE(svg.documentElement().tagName(), QStringLiteral("svg"));
        QCOMPARE(svg.documentElement().attribute(QStringLiteral("viewBox")), QStringLiteral("0 0 1200 750"));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.contains("/MediaBox [0 0 900")); // 1200 px at 96 dpi = 900 pt
    }
}

void TestUi::reportExports_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("markdown") << "report.md";
    QTest::newRow("csv") << "report.csv";
    QTest::newRow("json") << "report.json";
}

void TestUi::reportExports()
{
    QFETCH(QString, file);
    ui::MainWindow window;
    window.controller()->update(QString(), [](core::Scenario &s) { s.mode = core::Mode::Qlora; });
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    QString error;
    QVERIFY2(window.exportFile(path, {}, &error), qPrintable(error));
    const QString text = QString::fromUtf8(readAll(path));
    const core::Estimate &e = window.controller()->result().estimate;
    if (file.endsWith(QLatin1String(".json"))) {
        const QJsonObject j = QJsonDocument::fromJson(text.toUtf8()).object();
        for (core::TermId id : core::allTerms())
            QCOMPARE(j.value("per_gpu_bytes").toObject().value(QLatin1String(core::termId(id))).toDouble(),
                     static_cast<double>(e.term(id).count()));
        return;
    }
    if (file.endsWith(QLatin1String(".csv"))) {
        QVERIFY(text.startsWith(QStringLiteral("section,item,field,value\n")));
        for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(line.count(QLatin1Char(',')) >= 3, qPrintable(line));
        for (core::TermId id : core::allTerms())
            QVERIFY(text.contains(QStringLiteral("term,%1,bytes,%2").arg(QLatin1String(core::termId(id))).arg(e.term(id).count())));
        QVERIFY(text.contains(QStringLiteral("input,Mode,value,QLoRA")));
        return;
    }
    for (core::TermId id : core::allTerms())
        QVERIFY2(text.contains(QStringLiteral("| %1 |").arg(QLatin1String(core::termLabel(id)))), core::termId(id));
    QVERIFY(text.contains(QStringLiteral("## Assumptions")));
    QVERIFY(text.contains(QStringLiteral("| Mode | QLoRA |")));
    QVERIFY(text.contains(QStringLiteral("| Checkpointing | full (default) |")));
}

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
}

void TestUi::scriptedExport()
{
    QTemporaryDir dir;
    ui::MainWindow window;
    QString error;
    const QString scenario = dir.filePath(QStringLiteral("s.json"));
    QVERIFY(window.saveTo(scenario, &error));
    const QString out = dir.filePath(QStringLiteral("out.png"));
    QProcess app;
    app.start(QStringLiteral(VRAM_GUI_BINARY), {QStringLiteral("--open"), scenario, QStringLiteral("--export"), out,
                                                QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--size"),
                                                QStringLiteral("800x500")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(QImage(out).size(), QSize(800, 500));
    // --view and --presentation reach the file: each export differs.
    const auto exported = [&](const QStringList &extra) {
        const QString file = dir.filePath(QStringLiteral("view-%1.png").arg(extra.join(QLatin1Char('-'))));
        app.start(QStringLiteral(VRAM_GUI_BINARY),
                  QStringList{QStringLiteral("--open"), scenario, QStringLiteral("--export"), file,
                              QStringLiteral("--size"), QStringLiteral("800x500")}
                      + extra);
        return app.waitForFinished(60000) && app.exitCode() == 0 ? QImage(file) : QImage();
    };
    const QImage gpus = exported({});
    const QImage context = exported({QStringLiteral("--view"), QStringLiteral("context")});
    const QImage batch = exported({QStringLiteral("--view"), QStringLiteral("batch")});
    const QImage presentation = exported({QStringLiteral("--presentation")});
    QVERIFY(!gpus.isNull() && !context.isNull() && !batch.isNull() && !presentation.isNull());
    QVERIFY(context != gpus);
    QVERIFY(batch != context);
    QVERIFY(presentation != gpus);
    // A failure exits non-zero with a message.
    app.start(QStringLiteral(VRAM_GUI_BINARY), {QStringLiteral("--open"), dir.filePath(QStringLiteral("missing.json")),
                                                QStringLiteral("--export"), out});
    QVERIFY(app.waitForFinished(60000));
    QVERIFY(app.exitCode() != 0);
    QVERIFY(app.readAllStandardError().contains("missing.json"));
}

void TestUi::fitsIn1024x700()
{
    ui::MainWindow window;
    QVERIFY(window.minimumSizeHint().width() <= 1024);
    QVERIFY(window.minimumSizeHint().height() <= 700);
    window.resize(1024, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), QSize(1024, 700));
}

void TestUi::chineseIsComplete()
{
    QFile ts(QStringLiteral(VRAM_TS_FILE));
    QVERIFY(ts.open(QIODevice::ReadOnly));
    QDomDocument doc;
    QVERIFY(doc.setContent(&ts));
    const QDomNodeList messages = doc.elementsByTagName(QStringLiteral("message"));
    QVERIFY(messages.count() > 100);
    for (int i = 0; i < messages.count(); ++i) {
        const QDomElement message = messages.at(i).toElement();
        const QDomElement translation = message.firstChildElement(QStringLiteral("translation"));
        const QString source = message.firstChildElement(QStringLiteral("source")).text();
        QVERIFY2(translation.attribute(QStringLiteral("type")).isEmpty(), qPrintable(QStringLiteral("unfinished: ") + source));
        QVERIFY2(!translation.text().trimmed().isEmpty(), qPrintable(QStringLiteral("empty: ") + source));
        // Fixed terminology: a token is 词元 (令牌 reads as an access token),
        // a lesson is a worked example, 例题 (课程 is a course).
        QVERIFY2(!translation.text().contains(QStringLiteral("令牌")), qPrintable(source));
        QVERIFY2(!translation.text().contains(QStringLiteral("课程")), qPrintable(source));
    }
    for (const core::Lesson &lesson : core::io::builtinLessons())
        for (const core::LocalizedText *text : {&lesson.title, &lesson.question, &lesson.answer, &lesson.explanation}) {
            const QString zh = QString::fromStdString(core::localized(*text, "zh_CN"));
            QVERIFY2(!zh.contains(QStringLiteral("令牌")) && !zh.contains(QStringLiteral("课程")), lesson.id.c_str());
        }
    ui::applyLanguage(QStringLiteral("zh_CN"));
    QCOMPARE(ui::termName(core::TermId::Weights), QStringLiteral("权重"));
    ui::applyLanguage(QStringLiteral("en"));
    QCOMPARE(ui::termName(core::TermId::Weights), QStringLiteral("Weights"));
}

void TestUi::languageSwitchesLive()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const std::string before = core::io::saveScenario(window.controller()->scenario());
    ui::applyLanguage(QStringLiteral("zh_CN"));
    QTRY_COMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
    QVERIFY(window.breakdown()->termTable()->item(0, 0)->text() == QStringLiteral("权重"));
    QCOMPARE(core::io::saveScenario(window.controller()->scenario()), before); // the state survives the rebuild
    ui::applyLanguage(QStringLiteral("en"));
    QTRY_COMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&File"));
}

void TestUi::calibrationFitsAppliesAndShares()
{
    ui::MainWindow window;
    ui::CalibrationDialog dialog(window.controller());
    dialog.setMeasured(QString(), QString(), QStringLiteral("20000 MiB"));
    QVERIFY(dialog.result().notes.empty());
    QSignalSpy spy(window.controller(), &ui::ScenarioController::estimateChanged);
    dialog.apply();
    QCOMPARE(spy.count(), 1);
    // The calibrated scenario reproduces the measured 20,000 MiB.
    QVERIFY(std::abs(static_cast<double>(window.controller()->result().estimate.total.count()) - 20000.0 * 1048576) < 4096);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("profile.json"));
    QString error;
    QVERIFY2(dialog.saveProfile(path, &error), qPrintable(error));
    ui::MainWindow other;
    QVERIFY2(other.applyProfile(path, &error), qPrintable(error));
    QCOMPARE(other.controller()->result().estimate.total, window.controller()->result().estimate.total);
    // A file that is not a profile is refused with its name.
    QVERIFY(!other.applyProfile(QStringLiteral(VRAM_TEST_DATA_DIR "/configs/gpt2-gpt2.json"), &error));
    QVERIFY(error.contains(QStringLiteral("gpt2-gpt2.json")));
}

void TestUi::lessonsLoadAndAgree()
{
    ui::MainWindow window;
    for (const core::Lesson &lesson : core::io::builtinLessons()) {
        window.showLesson(lesson);
        QCOMPARE(core::io::saveScenario(window.controller()->scenario()), core::io::saveScenario(lesson.scenario));
        const QString text = window.lessonPanel()->text();
        QVERIFY2(text.contains(QString::fromStdString(core::localized(lesson.question, "en"))), lesson.id.c_str());
        QVERIFY2(!text.contains(QStringLiteral("✘")), lesson.id.c_str());
        QCOMPARE(text.count(QStringLiteral("✔")), static_cast<int>(lesson.checks.size()));
        // The check table's byte figures ("13.04 GiB (14,000,000,000 B)") are in
        // the window's unit, GiB, as the lessons' own text is.
        QVERIFY2(!text.contains(QRegularExpression(QStringLiteral(" GB \\([0-9,]+ B\\)"))), lesson.id.c_str());
        const bool bytes = std::any_of(lesson.checks.begin(), lesson.checks.end(), [](const core::LessonCheck &c) {
            return c.quantity.find("bytes") != std::string::npos;
        });
        QCOMPARE(text.contains(QRegularExpression(QStringLiteral(" GiB \\([0-9,]+ B\\)"))), bytes);
    }
    // A check on a changed setting names the setting and the term.
    for (const core::Lesson &lesson : core::io::builtinLessons())
        if (lesson.id == "s9-optimizer-states")
            window.showLesson(lesson);
    QVERIFY(window.lessonPanel()->text().contains(QStringLiteral("term bytes (optimizer) [optimizer: sgd-momentum]")));
}

void TestUi::sweepLabelsAreTheEngineCrossings()
{
    ui::MainWindow window;
    window.controller()->usePreset("baichuan-7b");
    window.controller()->update(QString(), [](core::Scenario &s) { s.weights = core::WeightFormat::Int8; });
    window.chartTabs()->setCurrentWidget(window.contextSweep());
    const core::EstimateWithFits &r = window.controller()->result();
    const QStringList labels = window.contextSweep()->crossingLabels();
    QCOMPARE(labels.size(), static_cast<int>(r.fits.size()));
    for (const core::GpuFit &fit : r.fits) {
        if (fit.gpuId != "rtx-3070")
            continue;
        const QString expected = QStringLiteral("max context on %1: %2 tokens")
                                     .arg(ui::shortGpuName(*window.controller()->catalog().find(fit.gpuId)),
                                          QString::fromStdString(core::groupDigits(fit.maxSequence)));
        QVERIFY2(labels.contains(expected), qPrintable(labels.join(QLatin1Char('|'))));
    }
    window.chartTabs()->setCurrentWidget(window.batchSweep());
    QCOMPARE(window.batchSweep()->crossingLabels().size(), static_cast<int>(r.fits.size()));
}

void TestUi::whyViewExplainsWithValues()
{
    ui::MainWindow window;
    window.breakdown()->explain(core::TermId::KvCache);
    const QString why = window.breakdown()->whyView()->toPlainText();
    QVERIFY(why.contains(QStringLiteral("keys and values")));  // the plain-language paragraph
    QVERIFY(why.contains(QStringLiteral("65,536 layer-tokens"))); // 32 layers x 2,048 tokens, Llama 3 8B
}

void TestUi::presentationMode()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setPresentationMode(true);
    QVERIFY(window.chart()->isPresentation());
    QVERIFY(!window.controls()->isVisible());
    QVERIFY(!window.breakdown()->isVisible());
    window.setPresentationMode(false);
    QVERIFY(window.controls()->isVisible());
    // A lesson open while presenting stays, in larger type.
    window.showLesson(core::io::builtinLessons().front());
    const qreal normal = window.lessonPanel()->font().pointSizeF();
    window.setPresentationMode(true);
    QVERIFY(window.lessonPanel()->isVisible());
    QVERIFY(window.lessonPanel()->font().pointSizeF() > normal * 1.4);
    window.setPresentationMode(false);
    QCOMPARE(window.lessonPanel()->font().pointSizeF(), normal);
}

namespace {

/// Opens the breakdown panel's page holding `page` (the panels fill a page
/// only while it is on screen).
void openPage(ui::MainWindow &window, QWidget *page)
{
    auto *tabs = window.breakdown()->findChild<QTabWidget *>();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) == page || tabs->widget(i)->isAncestorOf(page))
            tabs->setCurrentIndex(i);
}

} // namespace

void TestUi::clusterPanelPlansAndApplies()
{
    ui::MainWindow window;
    openPage(window, window.cluster());
    window.controller()->usePreset("llama-2-70b");
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.mode = core::Mode::Train;
        s.gpuId = "a100-sxm4-80gb";
    });
    QVERIFY(window.cluster()->figures()->text().contains(QStringLiteral("does not fit")));
    window.cluster()->plan();
    QVERIFY(window.cluster()->planTable()->rowCount() > 0);
    QSignalSpy spy(window.controller(), &ui::ScenarioController::estimateChanged);
    window.cluster()->applyPlanRow(0);
    QCOMPARE(spy.count(), 1);
    // The applied layout fits the GPU the plan was made for.
    const core::GpuSpec *a100 = window.controller()->catalog().find("a100-sxm4-80gb");
    QVERIFY(window.controller()->result().estimate.total <= a100->capacity());
    QVERIFY(window.cluster()->figures()->text().contains(QStringLiteral("fits")));
}

void TestUi::clusterFiguresReadAsPeopleWriteThem()
{
    ui::MainWindow window;
    openPage(window, window.cluster());
    window.controller()->usePreset("llama-2-7b");
    core::Scenario opened = window.controller()->scenario(); // as a file would bring it
    opened.mode = core::Mode::Train;
    opened.gpuId = "a100-sxm4-80gb";
    opened.workload.trainingTokens = 2e12;
    opened.workload.pricePerGpuHour = 2.5;
    window.controller()->setScenario(opened);
    const QString one = window.cluster()->figures()->text();
    QVERIFY2(one.contains(QStringLiteral("<b>1 GPU</b>")), qPrintable(one));
    // GPU-hours and cost with thousands separators, never "2e+12" or "$2126783".
    const QRegularExpression grouped(QStringLiteral("\\d{1,3}(,\\d{3})+ GPU-hours"));
    QVERIFY2(grouped.match(one).hasMatch(), qPrintable(one));
    QVERIFY(QRegularExpression(QStringLiteral("\\$\\d{1,3}(,\\d{3})+")).match(one).hasMatch());
    QVERIFY(!window.cluster()->findChildren<QLineEdit *>().isEmpty());
    bool tokensShown = false;
    for (const QLineEdit *field : window.cluster()->findChildren<QLineEdit *>())
        tokensShown = tokensShown || field->text() == QStringLiteral("2,000,000,000,000");
    QVERIFY(tokensShown);
    window.controller()->update(QString(), [](core::Scenario &s) { s.gpus = 8; });
    QVERIFY(window.cluster()->figures()->text().contains(QStringLiteral("<b>8 GPUs</b>")));
}


void TestUi::hiddenPagesCatchUpWhenOpened()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // Changed while the Breakdown page is open: the GPU table, rules table
    // and cluster figures are filled when their pages are opened.
    window.controller()->usePreset("llama-2-70b");
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.mode = core::Mode::Train;
        s.gpuId = "a100-sxm4-80gb";
    });
    const core::EstimateWithFits &r = window.controller()->result();
    openPage(window, window.breakdown()->gpuTable());
    QCOMPARE(window.breakdown()->gpuTable()->rowCount(), static_cast<int>(r.fits.size()));
    QCOMPARE(window.breakdown()->gpuTable()->item(0, 2)->text(), ui::verdictText(r.fits.front()));
    openPage(window, window.breakdown()->rulesTable());
    QCOMPARE(window.breakdown()->rulesTable()->item(0, 4)->text(),
             ui::bytesText(core::compareRulesOfThumb(window.controller()->scenario()).front().detailed, core::ByteUnit::GiB));
    openPage(window, window.cluster());
    QVERIFY(window.cluster()->figures()->text().contains(ui::bytesText(r.estimate.total, core::ByteUnit::GiB)));
}

void TestUi::advancedSettingsFollowOtherPanels()
{
    // A cluster plan or a calibration profile changes the scenario from
    // outside the controls; the advanced settings must show the result.
    ui::MainWindow window;
    ui::FieldEditor *gpus = window.fieldEditor(core::FieldId::Gpus);
    QCOMPARE(gpus->value(), core::FieldValue(1.0));
    window.controller()->update(QString(), [](core::Scenario &s) { s.gpus = 8; });
    QCOMPARE(gpus->value(), core::FieldValue(8.0));
    QCOMPARE(window.controller()->scenario().gpus, 8); // and showing it changed nothing back
}

void TestUi::advancedFieldsTakeTheEnginesRanges()
{
    // What a scenario file may hold, the window shows unchanged: the
    // engine's ranges, not narrower ones of the widgets' own.
    ui::MainWindow window;
    core::Scenario opened = window.controller()->scenario();
    opened.groupSize = 8;
    opened.cudaOverheadMib = 100000;
    window.controller()->setScenario(opened);
    QCOMPARE(window.fieldEditor(core::FieldId::GroupSize)->value(), core::FieldValue(8.0));
    QCOMPARE(window.fieldEditor(core::FieldId::CudaOverheadMib)->value(), core::FieldValue(100000.0));
    QCOMPARE(window.controller()->scenario().groupSize, 8);
    // Unset, it shows the default the engine uses: 1343 MiB with eager loading.
    opened.cudaOverheadMib.reset();
    opened.cudaLoading = core::CudaLoading::Eager;
    window.controller()->setScenario(opened);
    ui::FieldEditor *cuda = window.fieldEditor(core::FieldId::CudaOverheadMib);
    QVERIFY(cuda->defaultBox()->isChecked());
    QCOMPARE(qobject_cast<QDoubleSpinBox *>(cuda->input())->value(), 1343.0);
    QVERIFY(!window.controller()->scenario().cudaOverheadMib);
}

void TestUi::qloraShowsItsStackDefaults()
{
    // Clicking QLoRA: the precision shows the format the engine uses
    // (nf4-dq) and the stack line says checkpointing is on by default.
    ui::MainWindow window;
    ui::ControlsPanel *controls = window.controls();
    controls->modeGroup()->button(int(core::Mode::Qlora))->click();
    const core::Scenario &s = window.controller()->scenario();
    QCOMPARE(s.effectiveWeights(), core::WeightFormat::Nf4Dq);
    QCOMPARE(core::allFormats()[static_cast<std::size_t>(controls->precisionField()->index())].format,
             core::WeightFormat::Nf4Dq);
    QVERIFY(!controls->stackNote()->isHidden());
    QVERIFY2(controls->stackNote()->text().contains(QStringLiteral("checkpointing full (default)")),
             qPrintable(controls->stackNote()->text()));
    QVERIFY(controls->stackNote()->text().contains(QStringLiteral("prepare_model_for_kbit_training")));
    window.controller()->update(QString(), [](core::Scenario &scenario) { scenario.stack = core::TrainingStack::LitGpt; });
    QVERIFY(controls->stackNote()->text().contains(QStringLiteral("checkpointing none (default)")));
    controls->modeGroup()->button(int(core::Mode::Inference))->click();
    QVERIFY(controls->stackNote()->isHidden());
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

void TestUi::extremeScenarioSaysExceeds()
{
    // 2T parameters, 1M-token context, batch 65,536, 1,024 GPUs: more bytes
    // than 64 bits count. The window says "exceeds" and "cannot fit", draws
    // finite bars, and prints no wrapped, clamped, nan or inf figure.
    ui::MainWindow window;
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.model = core::modelFromParameterCount(2'000'000'000'000ull);
        s.mode = core::Mode::Train;
        s.sequence = 1'048'576;
        s.batch = 65536;
        s.gpus = 1024;
    });
    QVERIFY(window.controller()->result().estimate.total.isSaturated());
    const QRegularExpression nonsense(QStringLiteral("\\b-?(nan|inf)\\b"));
    QTableWidget *terms = window.breakdown()->termTable();
    QCOMPARE(terms->item(terms->rowCount() - 1, 1)->text(), QStringLiteral("exceeds"));
    openPage(window, window.breakdown()->gpuTable());
    QTableWidget *gpus = window.breakdown()->gpuTable();
    QVERIFY(gpus->rowCount() > 0);
    for (QTableWidget *table : {terms, gpus})
        for (int row = 0; row < table->rowCount(); ++row)
            for (int column = 0; column < table->columnCount(); ++column)
                QVERIFY(!table->item(row, column) || !table->item(row, column)->text().contains(nonsense));
    for (int row = 0; row < gpus->rowCount(); ++row) {
        QCOMPARE(gpus->item(row, 2)->text(), QStringLiteral("cannot fit"));
        QCOMPARE(gpus->item(row, 3)->text(), QStringLiteral("exceeds"));
    }
    for (core::TermId id : core::allTerms())
        for (double value : window.chart()->barValues(id))
            QVERIFY(std::isfinite(value));
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

void TestUi::everyEditorShowsTheScenario()
{
    // Every field has exactly one editor in the window, and after every
    // mode switch and every file load each editor holds what the scenario
    // holds (unset where the field follows its default).
    ui::MainWindow window;
    for (const core::FieldDescriptor &f : core::allFields())
        if (f.id != core::FieldId::Mode && f.id != core::FieldId::Weights && f.id != core::FieldId::Optimizer
            && f.id != core::FieldId::Batch && f.id != core::FieldId::Sequence)
            QVERIFY2(window.fieldEditor(f.id), f.key); // the main sliders are the others' editors
    const auto expectEditorsShow = [&window](const char *when) {
        const core::Scenario &s = window.controller()->scenario();
        for (ui::FieldEditor *editor : window.findChildren<ui::FieldEditor *>()) {
            const core::FieldDescriptor &f = core::field(editor->fieldId());
            QVERIFY2(editor->value() == f.stored(s), qPrintable(QStringLiteral("%1 after %2").arg(f.key, when)));
        }
        QCOMPARE(window.controls()->batchField()->value(), s.batch);
        QCOMPARE(window.controls()->sequenceField()->value(), s.sequence);
        QCOMPARE(core::allFormats()[static_cast<std::size_t>(window.controls()->precisionField()->index())].format,
                 s.effectiveWeights());
    };
    QRandomGenerator random(12);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("random.vramplanner.json"));
    for (int round = 0; round < 20; ++round) {
        // A random valid scenario: each field set to a random accepted value.
        core::Scenario s = ui::ScenarioController::defaultScenario();
        for (const core::FieldDescriptor &f : core::allFields()) {
            core::Scenario trial = s;
            if (f.kind == core::FieldKind::Choice && !f.choices.empty())
                f.assign(trial, std::string(f.choices[random.bounded(static_cast<int>(f.choices.size()))].id));
            else if (f.kind == core::FieldKind::Flag)
                f.assign(trial, random.bounded(2) == 1);
            else if (f.kind == core::FieldKind::Number)
                f.assign(trial, std::round((f.min + random.generateDouble() * (std::min(f.max, 1e4) - f.min)) * 100) / 100);
            else if (f.kind == core::FieldKind::Integer && f.choices.empty())
                f.assign(trial, std::floor(f.min + random.generateDouble() * (std::min(f.max, 64.0) - f.min)));
            if (f.optional() && random.bounded(3) == 0)
                f.assign(trial, core::FieldValue());
            if (core::validateScenario(trial).empty())
                s = trial;
        }
        window.controller()->setScenario(s);
        expectEditorsShow("setScenario");
        QString error;
        QVERIFY2(window.saveTo(path, &error), qPrintable(error));
        window.controller()->setScenario(ui::ScenarioController::defaultScenario());
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        expectEditorsShow("opening a file");
        for (int mode = 0; mode < 4; ++mode) {
            window.controls()->modeGroup()->button(mode)->click();
            expectEditorsShow("a mode switch");
        }
    }
}

void TestUi::editsUndoAndRedo()
{
    ui::MainWindow window;
    ui::ScenarioController *c = window.controller();
    QUndoStack *undo = c->undoStack();
    QVERIFY(!undo->canUndo());
    QSignalSpy changed(c, &ui::ScenarioController::fieldsChanged);
    // A slider drag is many edits of one field: one step to undo.
    QSlider *batch = window.controls()->batchField()->slider();
    for (int position = batch->value() + 10; position < batch->value() + 200; position += 10)
        batch->setValue(position);
    const std::uint64_t dragged = c->scenario().batch;
    QVERIFY(dragged > 1);
    QCOMPARE(undo->count(), 1);
    QCOMPARE(changed.last().at(0).value<std::vector<core::FieldId>>(), std::vector<core::FieldId>{core::FieldId::Batch});
    // A different field is a step of its own.
    window.fieldEditor(core::FieldId::Gpus)->findChild<QSpinBox *>()->setValue(4);
    QCOMPARE(undo->count(), 2);
    QVERIFY(c->isModified());

    // Edit > Undo is Ctrl+Z; Redo answers Ctrl+Shift+Z.
    QAction *undoAction = nullptr;
    QAction *redoAction = nullptr;
    for (QAction *a : window.menuBar()->actions())
        for (QAction *item : a->menu() ? a->menu()->actions() : QList<QAction *>{}) {
            if (item->shortcuts().contains(QKeySequence(QKeySequence::Undo)))
                undoAction = item;
            if (item->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+Shift+Z"))))
                redoAction = item;
        }
    QVERIFY(undoAction && redoAction);
    undoAction->trigger();
    QCOMPARE(c->scenario().gpus, 1);
    QCOMPARE(window.fieldEditor(core::FieldId::Gpus)->value(), core::FieldValue(1.0));
    undoAction->trigger();
    QCOMPARE(c->scenario().batch, 1ull);
    QCOMPARE(window.controls()->batchField()->value(), 1ull);
    QVERIFY(!c->isModified()); // back where the document started
    redoAction->trigger();
    QCOMPARE(c->scenario().batch, dragged);
    QCOMPARE(window.controls()->batchField()->value(), dragged);
    // Opening another scenario starts a new history.
    c->setScenario(ui::ScenarioController::defaultScenario());
    QVERIFY(!undo->canUndo() && !undo->canRedo());
}

void TestUi::savedFocusGpuReachesTheWindow()
{
    // A scenario file's "gpu" is the Cluster tab's focus GPU, the GPU the
    // time and cost figures use, and the row the GPUs table sets in bold.
    ui::MainWindow window;
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

void TestUi::chineseReportsHaveNoEnglishLeft_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("markdown") << "report.md";
    QTest::newRow("csv") << "report.csv";
}

void TestUi::chineseReportsHaveNoEnglishLeft()
{
    // A zh_CN report is Chinese except for what is a name or a symbol: the
    // allow-list below. The JSON report is data for programs and stays
    // English by design (README, "Use the window").
    QFETCH(QString, file);
    ui::applyLanguage(QStringLiteral("zh_CN"));
    const auto restore = qScopeGuard([] { ui::applyLanguage(QStringLiteral("en")); });
    ui::MainWindow window;
    for (const core::Mode mode : {core::Mode::Qlora, core::Mode::Train, core::Mode::Inference}) {
        core::Scenario s = ui::ScenarioController::defaultScenario();
        s.mode = mode;
        s.gpus = mode == core::Mode::Train ? 8 : 1;
        s.zeroStage = mode == core::Mode::Train ? 3 : 0;
        s.gpuId = "a100-sxm4-80gb";
        s.workload.trainingTokens = 1e9;
        s.workload.pricePerGpuHour = 2;
        window.controller()->setScenario(s);
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        QString error;
        QVERIFY2(window.exportFile(path, {}, &error), qPrintable(error));
        QString text = QString::fromUtf8(readAll(path));
        // Names and symbols: GPU and model names, ids and file spellings of
        // inputs and terms (the CSV's key columns), formats, units, library
        // and paper names in source citations, and formula symbols.
        // Formula symbols are allowed wherever they appear (the legend names them).
        QStringList symbols;
        const QRegularExpression formula(QStringLiteral("`([^`]*)`|term,\\w+,formula,([^\\n]*)"));
        for (auto it = formula.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            symbols << (m.captured(1) + m.captured(2)).split(QRegularExpression(QStringLiteral("[^A-Za-z]+")));
        }
        text.remove(formula);
        text.remove(QRegularExpression(QStringLiteral("term,\\w+,source,[^\\n]*"))); // citations in CSV
        // Code identifiers: prepare_model_for_kbit_training, lm_head, torch.pow, .float().
        text.remove(QRegularExpression(QStringLiteral("[A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Za-z]*\\.[A-Za-z]\\w*(\\(\\))?")));
        text.remove(QRegularExpression(QStringLiteral("来源：[^\\n]*")));        // citations: author, title, section
        QStringList allowed = {QStringLiteral("VRAM"), QStringLiteral("Planner"), QStringLiteral("GPU"), QStringLiteral("GPUs"),
                               QCoreApplication::applicationVersion()};
        allowed << symbols;
        for (const core::GpuSpec &gpu : window.controller()->catalog().gpus)
            allowed << QString::fromStdString(gpu.name).split(QRegularExpression(QStringLiteral("[^A-Za-z]+")));
        allowed << QString::fromStdString(s.model.name).split(QLatin1Char(' '));
        for (const core::FieldDescriptor &f : core::allFields()) {
            allowed << QString::fromUtf8(f.key).split(QRegularExpression(QStringLiteral("[^A-Za-z]+")));
            for (const core::FieldChoice &c : f.choices)
                allowed << QString::fromUtf8(c.id).split(QRegularExpression(QStringLiteral("[^A-Za-z]+")));
        }
        for (core::TermId id : core::allTerms())
            allowed << QString::fromUtf8(core::termId(id)).split(QLatin1Char('_'));
        for (core::StepPart part : core::allStepParts())
            allowed << QString::fromUtf8(core::stepPartId(part)).split(QLatin1Char('_'));
        // Product, library and unit names a Chinese text keeps as they are.
        allowed << QStringLiteral("GiB MiB KiB TiB GB MB TB TFLOPS GFLOP FLOPs MFU LoRA QLoRA CUDA NCCL ZeRO FSDP SDPA PEFT "
                                  "Hugging Face Trainer Transformers vLLM DeepSpeed bitsandbytes torchtune LitGPT "
                                  "FlashAttention AMP Logits KV Llama adamw fp bf nf dq int gguf mxfp tp pp dp ep sp "
                                  "section item field value meta report title date version summary input term bytes "
                                  "share percent formula substituted source total peak phase name memory verdict "
                                  "headroom needed max batch seq kv tokens performance tflops step compute seconds "
                                  "communication bound training hours cost decode per second warning text forward backward optimizer inference note legend MoE generate")
                       .split(QLatin1Char(' '));
        QStringList english;
        const QRegularExpression word(QStringLiteral("[A-Za-z]{3,}"));
        for (auto it = word.globalMatch(text); it.hasNext();) {
            const QString w = it.next().captured();
            if (!allowed.contains(w, Qt::CaseInsensitive) && !english.contains(w))
                english << w;
        }
        QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("%1 in %2: %3").arg(file, core::modeId(mode), english.join(QLatin1Char(' ')))));
    }
}

VRAM_TEST_MAIN(tst_ui, TestUi, Widgets)
#include "tst_ui.moc"
