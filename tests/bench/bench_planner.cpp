// Benchmarks (not tests: no thresholds). Run build/tests/bench/bench_planner;
// figures go to BENCHMARKS.md with the machine they came from.

#include "core/analysis/fit.h"
#include "core/analysis/plan.h"
#include "core/analysis/sweep.h"
#include "core/engine/estimate.h"
#include "core/engine/preparedscenario.h"
#include "core/explain/explain.h"
#include "core/memory/formularecord.h"
#include "core/io/builtin.h"
#include "ui/controlspanel.h"
#include "ui/exporter.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/scenariocontroller.h"
#include "ui/sliderfields.h"

#include <QProcess>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

Q_DECLARE_METATYPE(core::Scenario)

namespace {

core::Scenario training7b()
{
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.mode = core::Mode::Train;
    s.batch = 4;
    return s;
}

// One slider step as the user sees it; a function of its own so callgrind can
// count just this (--toggle-collect='*moveSliderAndRepaint*').
Q_NEVER_INLINE void moveSliderAndRepaint(ui::MainWindow &window, QSlider *slider, int position)
{
    slider->setValue(position); // controller -> engine -> chart + breakdown
    QCoreApplication::sendPostedEvents(); // the chart's queued replot
    // What the event loop does next: paint every region marked dirty and
    // nothing else. (Sent to the widget: an UpdateRequest to its QWindow
    // would repaint the whole window.)
    QEvent paintRequest(QEvent::UpdateRequest);
    QCoreApplication::sendEvent(&window, &paintRequest);
}

} // namespace

class BenchPlanner : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void estimateNumbersOnly();
    void estimatePreparedPoint();
    void estimateWithDerivations_data();
    void estimateWithDerivations();
    void fullCatalogFit_data();
    void fullCatalogFit();
    void servingPlanDefaultGpus();
    void batchContextSweep256x256_data();
    void batchContextSweep256x256();
    void sliderToRepaint();
    void fullWindowRepaint();
    void chartExport_data();
    void chartExport();
    void cliEstimateProcess();
    void coldStartToRenderedChart();
};

void BenchPlanner::estimateNumbersOnly()
{
    const core::Scenario s = training7b();
    QBENCHMARK {
        const core::Estimate e = core::estimate(s);
        QVERIFY(e.isValid());
    }
}

void BenchPlanner::estimateWithDerivations_data()
{
    QTest::addColumn<bool>("kept");
    QTest::addColumn<bool>("everyTerm");
    // A report from the window: the estimate kept its formulas, every
    // term's derivation is rendered from them.
    QTest::newRow("every term, formulas kept") << true << true;
    // A report from the CLI, whose estimate kept none: recorded again.
    QTest::newRow("every term, recorded again") << false << true;
    // A slider step in the window: the estimate keeps its formulas and the
    // breakdown renders the one term the user opened.
    QTest::newRow("the opened term, formulas kept") << true << false;
}

void BenchPlanner::estimateWithDerivations()
{
    QFETCH(bool, kept);
    QFETCH(bool, everyTerm);
    const core::Scenario s = training7b();
    QBENCHMARK {
        core::EstimateWithFits result;
        result.scenario = s;
        if (kept) {
            auto record = std::make_shared<core::FormulaRecord>();
            result.estimate = core::estimate(s, core::PreparedScenario(s, record.get()), *record);
            result.formulas = std::move(record);
        } else {
            result.estimate = core::estimate(s);
        }
        if (everyTerm) {
            for (const core::Derivation &why : core::explainTerms(result))
                QVERIFY(!why.formula.empty());
        } else {
            QVERIFY(!core::explainTerm(result, core::TermId::Activations).formula.empty());
        }
    }
}

void BenchPlanner::estimatePreparedPoint()
{
    core::Scenario s = training7b();
    const core::PreparedScenario prepared(s);
    std::uint64_t batch = 0;
    QBENCHMARK {
        s.batch = 1 + batch++ % 64; // another point each time, as in a sweep
        const core::Estimate e = core::estimate(s, prepared);
        QVERIFY(e.isValid());
    }
}

void BenchPlanner::fullCatalogFit_data()
{
    QTest::addColumn<core::Scenario>("scenario");
    QTest::newRow("training") << training7b();
    // vLLM's batch defaults follow the card: the cards under 70 GiB and the
    // A100s get an estimate of their own.
    core::Scenario vllm;
    vllm.model = core::io::findPreset("llama-3-8b")->model;
    vllm.serving = core::ServingEngine::Vllm;
    vllm.sequence = 8192;
    QTest::newRow("vllm") << vllm;
    // SGLang's weights follow the caching allocator's segments: each
    // estimate allocates one rank's 94 layers of tensors in order.
    core::Scenario sglang;
    sglang.model = core::io::findPreset("qwen3-235b-a22b")->model;
    sglang.weights = core::WeightFormat::Fp8;
    sglang.serving = core::ServingEngine::Sglang;
    sglang.gpus = 4;
    sglang.parallel.tp = 4;
    QTest::newRow("sglang") << sglang;
}

void BenchPlanner::fullCatalogFit()
{
    QFETCH(core::Scenario, scenario);
    QBENCHMARK {
        const core::EstimateWithFits r = core::estimateWithFits(scenario, core::io::builtinCatalog());
        QVERIFY(!r.fits.empty());
    }
}

/// What Plan for Me runs: the serving plan for Llama 3 8B at 20 requests/s
/// over the catalog's default GPUs and the three batching engines.
void BenchPlanner::servingPlanDefaultGpus()
{
    core::Scenario s;
    s.model = core::io::findPreset("llama-3-8b")->model;
    s.serving = core::ServingEngine::Vllm;
    s.sequence = 8192;
    s.workload.outputTokens = 512;
    s.workload.requestRate = 20;
    s.workload.ttftTargetSeconds = 1;
    s.workload.tpotTargetSeconds = 0.05;
    std::vector<std::string> gpus;
    for (const core::GpuSpec &gpu : core::io::builtinCatalog().gpus)
        if (gpu.defaultShown)
            gpus.push_back(gpu.id);
    const core::ServingPlanRequest request = core::servingPlanRequest(s, gpus);
    QBENCHMARK {
        const core::ServingPlan plan = core::planServing(s, core::io::builtinCatalog(), request);
        QVERIFY(!plan.layouts.empty());
    }
}

void BenchPlanner::batchContextSweep256x256_data()
{
    QTest::addColumn<bool>("grid");
    QTest::newRow("batchContextGrid") << true;
    QTest::newRow("estimate per point") << false; // the figure before the grid, for comparison
}

void BenchPlanner::batchContextSweep256x256()
{
    QFETCH(bool, grid);
    core::Scenario s = training7b();
    std::vector<std::uint64_t> batches;
    std::vector<std::uint64_t> sequences;
    for (std::uint64_t i = 1; i <= 256; ++i) {
        batches.push_back(i);
        sequences.push_back(i * 128);
    }
    QBENCHMARK {
        std::uint64_t sum = 0;
        if (grid) {
            for (core::Bytes total : core::batchContextGrid(s, batches, sequences))
                sum += total.count() >> 20;
        } else {
            for (std::uint64_t b : batches)
                for (std::uint64_t q : sequences) {
                    s.batch = b;
                    s.sequence = q;
                    sum += core::estimate(s).total.count() >> 20;
                }
        }
        QVERIFY(sum > 0);
    }
}

void BenchPlanner::sliderToRepaint()
{
    ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSlider *slider = window.controls()->batchField()->slider();
    int position = 0;
    QBENCHMARK {
        position = (position + 37) % 1000;
        moveSliderAndRepaint(window, slider, position);
    }
}

void BenchPlanner::fullWindowRepaint()
{
    ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QBENCHMARK {
        window.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        window.repaint(); // every widget, as after the window is uncovered
    }
}

void BenchPlanner::chartExport_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("png") << QStringLiteral("chart.png");
    QTest::newRow("pdf") << QStringLiteral("chart.pdf");
    QTest::newRow("svg") << QStringLiteral("chart.svg");
}

void BenchPlanner::chartExport()
{
    QFETCH(QString, file);
    ui::MainWindow window;
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    QBENCHMARK {
        QString error;
        QVERIFY(window.exportFile(path, {}, &error));
    }
}

void BenchPlanner::cliEstimateProcess()
{
    // The whole process, as a script calling the CLI sees it.
    QBENCHMARK {
        QProcess cli;
        cli.start(QStringLiteral(VRAM_CLI_BINARY), {QStringLiteral("estimate"), QStringLiteral("--preset"),
                                                    QStringLiteral("llama-2-7b"), QStringLiteral("--mode"),
                                                    QStringLiteral("train"), QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished());
        QCOMPARE(cli.exitCode(), 0);
    }
}

void BenchPlanner::coldStartToRenderedChart()
{
    // A new process builds the whole window (every panel, the estimate and
    // the fits), lays out and renders the chart to a file, and exits. As a
    // new user: no saved session, no user catalog.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("VRAMPLANNER_DATA_DIR"), dir.filePath(QStringLiteral("data")));
    QBENCHMARK {
        QProcess gui;
        gui.setProcessEnvironment(environment);
        gui.start(QStringLiteral(VRAM_GUI_BINARY), {QStringLiteral("--export"), path});
        QVERIFY(gui.waitForFinished());
        QCOMPARE(gui.exitCode(), 0);
    }
}

QTEST_MAIN(BenchPlanner)
#include "bench_planner.moc"
