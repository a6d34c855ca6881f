// TestUi, what the window shows: the chart and breakdown are the engine's
// numbers, the sweep's crossings, the Why view, the cluster panel,
// presentation mode, the smallest window.

#include "tests/ui/tst_ui.h"

#include "core/base/units.h"
#include "core/io/builtin.h"
#include "ui/breakdownpanel.h"
#include "ui/clusterpanel.h"
#include "ui/controlspanel.h"
#include "ui/lessonpanel.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/scenariocontroller.h"
#include "ui/sweepchart.h"
#include "ui/termstyle.h"

#include <QLabel>
#include <QMenu>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUndoStack>
#include <QWidget>
#include <QtTest>

#include <cmath>

using namespace uitest;

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

    // DeepSeek-V3 in bf16 fits no GPU shown at any context: the curve is
    // drawn per GPU of the fewest H100s (the focus GPU) that fit, and each
    // crossing is that layout's longest context, as the engine finds it.
    window.controller()->usePreset("deepseek-v3");
    window.chartTabs()->setCurrentWidget(window.contextSweep());
    const core::EstimateWithFits &alone = window.controller()->result();
    const auto h100 = std::find_if(alone.fits.begin(), alone.fits.end(),
                                   [](const core::GpuFit &f) { return f.gpuId == "h100-sxm5-80gb"; });
    QVERIFY(h100 != alone.fits.end() && h100->gpusNeeded > 1);
    const int needed = h100->gpusNeeded;
    const core::EstimateWithFits spread =
        core::estimateWithFits(core::onGpus(window.controller()->scenario(), needed), window.controller()->catalog(),
                               {"h200-sxm-141gb"});
    QVERIFY(spread.fits.front().maxSequence > 0);
    const QStringList spreadLabels = window.contextSweep()->crossingLabels();
    const QString h200 = QStringLiteral("max context on H200 SXM 141GB: %1 tokens")
                             .arg(QString::fromStdString(core::groupDigits(spread.fits.front().maxSequence)));
    QVERIFY2(spreadLabels.contains(h200), qPrintable(spreadLabels.join(QLatin1Char('|'))));
    bool titled = false;
    for (const ui::ChartLabel &label : window.contextSweep()->labels())
        titled = titled
            || label.text.contains(QStringLiteral("Nothing shown fits one GPU as set: drawn per GPU of %1 × H100 SXM5 80GB")
                                       .arg(needed));
    QVERIFY(titled);
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
    // The plan says what it assumed of host memory; it stays while its rows
    // are tried, and goes with any other edit, undo included.
    QVERIFY(window.cluster()->planNote()->text().contains(QStringLiteral("DGX H100")));
    QVERIFY(window.cluster()->planTable()->rowCount() > 0);
    window.controller()->undoStack()->undo();
    QCOMPARE(window.cluster()->planTable()->rowCount(), 0);
    QVERIFY(window.cluster()->planNote()->text().isEmpty());
    // With the machine's host memory given, the plan uses it.
    window.controller()->update(QString(), [](core::Scenario &s) { s.hostMemoryGib = 512; });
    window.cluster()->plan();
    QVERIFY2(window.cluster()->planNote()->text().contains(QStringLiteral("512.00 GiB")),
             qPrintable(window.cluster()->planNote()->text()));
    // DeepSeek-V3 training on a 4 GB card: no layout up to 1,024 fits, and
    // the note says why, from the search the GPUs table uses.
    window.controller()->usePreset("deepseek-v3");
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.mode = core::Mode::Train;
        s.gpuId = "gtx-960";
    });
    window.cluster()->plan();
    QVERIFY2(window.cluster()->planNote()->text().contains(QStringLiteral("With ZeRO-3 over")),
             qPrintable(window.cluster()->planNote()->text()));
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

void TestUi::offeredChangesApplyInOneStep()
{
    // Llama 3 8B at batch 64 x 8k on an RTX 3070: nothing alone fits, so
    // the GPUs table's menu offers pairs; one click applies both inputs as
    // one undo step, after which the card fits, and Undo restores both.
    ui::MainWindow window;
    ui::ScenarioController *c = window.controller();
    c->usePreset("llama-3-8b");
    c->update(QString(), [](core::Scenario &s) {
        s.batch = 64;
        s.sequence = 8192;
    });
    const core::Scenario before = c->scenario();
    openPage(window, window.breakdown()->gpuTable());
    const auto &fits = c->result().fits;
    const auto at = std::find_if(fits.begin(), fits.end(), [](const core::GpuFit &f) { return f.gpuId == "rtx-3070"; });
    QVERIFY(at != fits.end() && !at->fits);
    QMenu menu;
    window.breakdown()->fillChangesMenu(menu, static_cast<int>(at - fits.begin()));
    QList<QAction *> offered;
    for (QAction *action : menu.actions())
        if (!action->isSeparator() && action->isEnabled())
            offered << action;
    QVERIFY(!offered.isEmpty());
    QVERIFY(core::FitSearch(before).suggestionsFor(*at).front().pair);
    // The section title says why: one layer per GPU is not enough.
    QVERIFY2(menu.actions().front()->text().startsWith(QStringLiteral("With one layer per GPU")),
             qPrintable(menu.actions().front()->text()));
    const int steps = c->undoStack()->count();
    offered.front()->trigger();
    QCOMPARE(c->undoStack()->count(), steps + 1);
    QVERIFY(c->scenario().batch != before.batch || c->scenario().sequence != before.sequence
            || c->scenario().gpus != before.gpus || c->scenario().weights != before.weights);
    const auto &after = c->result().fits;
    QVERIFY(std::find_if(after.begin(), after.end(), [](const core::GpuFit &f) {
                return f.gpuId == "rtx-3070" && f.fits;
            }) != after.end());
    c->undoStack()->undo();
    QCOMPARE(c->scenario().batch, before.batch);
    QCOMPARE(c->scenario().sequence, before.sequence);
    QCOMPARE(c->scenario().weights, before.weights);
    QCOMPARE(c->scenario().gpus, before.gpus);
    QCOMPARE(c->scenario().parallel.tp, before.parallel.tp);
    // The chart says why under the RTX 3070's "cannot fit": split as far
    // as it goes, each GPU is still over by the reason's bytes.
    const core::EstimateWithFits &stuck = c->result();
    const auto rtx = std::find_if(stuck.fits.begin(), stuck.fits.end(), [](const core::GpuFit &f) { return f.gpuId == "rtx-3070"; });
    const auto reason = core::FitSearch(stuck.scenario).reasonFor(stuck.estimate, *rtx);
    QVERIFY(reason && reason->splitFloor());
    const QString why = QStringLiteral("+%1 even split").arg(ui::bytesText(reason->over, core::ByteUnit::GiB, 1));
    QVERIFY2(window.chart()->whyLines().contains(why), qPrintable(window.chart()->whyLines().join(QLatin1Char('|'))));
    // A GPU that fits offers nothing.
    const auto fitting = std::find_if(c->result().fits.begin(), c->result().fits.end(), [](const core::GpuFit &f) { return f.fits; });
    QVERIFY(fitting != c->result().fits.end());
    QMenu none;
    window.breakdown()->fillChangesMenu(none, static_cast<int>(fitting - c->result().fits.begin()));
    QVERIFY(none.isEmpty());
}
