// TestUi, languages: zh_CN complete, switched live, reports without English left.

#include "tests/ui/tst_ui.h"

#include "core/analysis/steptime.h"
#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "ui/breakdownpanel.h"
#include "ui/exporter.h"
#include "ui/language.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"
#include "ui/termstyle.h"

#include <QDomDocument>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace uitest;

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
    // A reason lists its terms with the full-width comma in Chinese.
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.batch = 64;
        s.sequence = 8192;
    });
    const core::EstimateWithFits &r = window.controller()->result();
    const auto short3070 = std::find_if(r.fits.begin(), r.fits.end(), [](const core::GpuFit &f) { return f.gpuId == "rtx-3070"; });
    QVERIFY(short3070 != r.fits.end());
    const QString why = ui::whatWouldFitLines(r, *short3070, core::ByteUnit::GiB).front();
    QVERIFY2(why.contains(QStringLiteral("，")) && !why.contains(QStringLiteral(", ")), qPrintable(why));
    ui::applyLanguage(QStringLiteral("en"));
    QTRY_COMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&File"));
}

void TestUi::scenarioProblemsAreTranslated()
{
    // A layout the engine refuses says why in the reader's language; the
    // CLI and the files keep the English (core::validateScenario).
    ui::MainWindow window;
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.gpus = 3;
        s.parallel.tp = 3;
    });
    const core::EstimateWithFits &r = window.controller()->result();
    QVERIFY(!r.estimate.isValid());
    const auto heads = QString::number(r.scenario.model.heads);
    QCOMPARE(QString::fromStdString(core::render(r.estimate.errors.front())),
             QStringLiteral("tp: must divide the attention heads (%1)").arg(heads));
    ui::applyLanguage(QStringLiteral("zh_CN"));
    const auto restore = qScopeGuard([] { ui::applyLanguage(QStringLiteral("en")); });
    QCOMPARE(ui::firstProblem(r.estimate), QStringLiteral("tp：必须整除注意力头数（%1）").arg(heads));

    // A problem with a typed list names the field, then why, both in
    // Chinese (the field's own check, not a sentence of its descriptor).
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.gpus = 1;
        s.parallel.tp = 1;
        s.kvSkipLayers = {"999"};
    });
    const core::EstimateWithFits &skipped = window.controller()->result();
    const auto layers = QString::number(skipped.scenario.model.layers);
    QCOMPARE(QString::fromStdString(core::render(skipped.estimate.errors.front())),
             QStringLiteral("kv_skip_layers: '999' is neither a layer index below %1 nor sliding_window").arg(layers));
    QCOMPARE(ui::firstProblem(skipped.estimate),
             QStringLiteral("kv_skip_layers：“999”既不是小于 %1 的层序号，也不是 sliding_window").arg(layers));

    // A range names its unit in the reader's language too.
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.kvSkipLayers.clear();
        s.sequence = 0;
    });
    const core::EstimateWithFits &unranged = window.controller()->result();
    const auto most = QString::number(core::field(core::FieldId::Sequence).max, 'f', 0);
    QCOMPARE(QString::fromStdString(core::render(unranged.estimate.errors.front())),
             QStringLiteral("sequence: must be between 1 and %1 tokens").arg(most));
    QCOMPARE(ui::firstProblem(unranged.estimate),
             QStringLiteral("sequence：必须在 1 到 %1 词元之间").arg(most));
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
        // The allocator reserve sums terms; their names are Chinese too.
        for (const char *term : {"[Weights]", "[Gradients]", "[Optimizer states]", "[Activations]"})
            QVERIFY2(!text.contains(QLatin1String(term)), term);
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
                                  "Hugging Face Trainer Transformers autocast vLLM DeepSpeed bitsandbytes torchtune LitGPT "
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
