// The Deploy view, the format matrix and the batch x context heat map,
// offscreen: each shows the engine's figures for a known scenario, the heat
// map's boundaries are where the engine stops fitting, --view reaches them
// and each exports as PNG, SVG and PDF (the matrix also as text).

#include "core/analysis/matrix.h"
#include "core/analysis/performance.h"
#include "core/analysis/sweep.h"
#include "core/explain/report.h"
#include "core/explain/servingplanreport.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"
#include "ui/batchcontextchart.h"
#include "ui/deployview.h"
#include "ui/exporter.h"
#include "ui/language.h"
#include "ui/mainwindow.h"
#include "ui/matrixchart.h"
#include "ui/scenariocontroller.h"
#include "ui/servingtext.h"
#include "ui/termstyle.h"

#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

class TestDeploy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void deployShowsTheServingFigures();
    void planForMeShowsTheServingPlan();
    void matrixCellsAreTheEnginesFits();
    void heatMapBoundariesAreWhereTheEngineStopsFitting();
    void viewsExport_data();
    void viewsExport();
    void matrixExportsAsText_data();
    void matrixExportsAsText();
    void hiddenViewsWaitUntilShown();
};

namespace {

/// Llama 3 8B served at 8,192 tokens, batch 8, on an H100 at $2.50 per
/// GPU-hour, compared with an RTX 4090.
void serveLlama3(ui::ScenarioController &c)
{
    c.usePreset("llama-3-8b");
    c.update(QString(), [](core::Scenario &s) {
        s.mode = core::Mode::Inference;
        s.sequence = 8192;
        s.batch = 8;
        s.gpuId = "h100-sxm5-80gb";
        s.workload.pricePerGpuHour = 2.5;
    });
    c.setShownGpus({QStringLiteral("rtx-4090"), QStringLiteral("h100-sxm5-80gb")});
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

void TestDeploy::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    ui::applyLanguage(QStringLiteral("en"));
}

void TestDeploy::deployShowsTheServingFigures()
{
    ui::MainWindow window;
    serveLlama3(*window.controller());
    QVERIFY(window.showChart(QStringLiteral("deploy")));
    const ui::DeployView *view = window.deployView();
    const core::Scenario &s = window.controller()->scenario();
    // The scenario's GPU first, then the others shown.
    QCOMPARE(window.controller()->selectedGpuIds(), (std::vector<std::string>{"h100-sxm5-80gb", "rtx-4090"}));
    QCOMPARE(view->rowCount(), 2);
    QCOMPARE(view->cell(0, ui::DeployView::Gpu), QStringLiteral("H100 SXM5 80GB"));
    // The engine's figures (core's tests check each against a hand
    // calculation), as the cluster page writes them.
    const core::EstimateWithFits r = core::estimateWithFits(s, window.controller()->catalog(), {"h100-sxm5-80gb"});
    const core::GpuFit &fit = r.fits.front();
    const core::GpuSpec &h100 = *window.controller()->catalog().find("h100-sxm5-80gb");
    const core::Performance p = core::performance(s, r.estimate, h100);
    QVERIFY(fit.fits && fit.concurrentSequences > s.batch);
    QCOMPARE(view->cell(0, ui::DeployView::Fit), ui::verdictText(fit));
    QCOMPARE(view->cell(0, ui::DeployView::KvBudget), ui::groupedCount(static_cast<double>(fit.kvTokens)));
    QCOMPARE(view->cell(0, ui::DeployView::Sequences), ui::groupedCount(static_cast<double>(fit.concurrentSequences)));
    // Hand check of the budget: the sequences are the KV tokens over 8,192.
    QCOMPARE(fit.concurrentSequences, fit.kvTokens / 8192);
    QCOMPARE(view->cell(0, ui::DeployView::FirstToken), QString::number(p.ttftSeconds, 'f', 2));
    QCOMPARE(view->cell(0, ui::DeployView::DecodeAtBatch),
             QStringLiteral("%1 / %2").arg(QString::number(p.decodeTokensPerSecondPerSequence, 'f', 1), ui::groupedCount(p.decodeTokensPerSecond)));
    // Per sequence is the batch's rate over its 8 sequences; the cost is
    // $2.50 per hour over the tokens of an hour, per million.
    QCOMPARE(p.decodeTokensPerSecondPerSequence, p.decodeTokensPerSecond / 8);
    QVERIFY(qAbs(p.costPerMillionTokens - 2.5 / (p.decodeTokensPerSecond * 3600) * 1e6) < 1e-9);
    QVERIFY(view->cell(0, ui::DeployView::Cost).startsWith(QStringLiteral("$") + QString::number(p.costPerMillionTokens, 'f', 2) + QStringLiteral(" / $")));
    // At full concurrency: the figures of the batch the KV budget holds.
    const core::Scenario full = core::withAxis(s, core::SweepAxis::Batch, fit.concurrentSequences);
    const ui::ServingNumbers n = ui::servingNumbers(core::performance(full, core::estimate(full), h100));
    QCOMPARE(view->cell(0, ui::DeployView::DecodeAtFull), QStringLiteral("%1 / %2").arg(n.perSequence, n.aggregate));
    QVERIFY(view->heading().contains(QStringLiteral("$2.50 per GPU-hour")));
    QVERIFY(view->heading().contains(QStringLiteral("host memory beside each GPU: none")));
    // llama.cpp keeps token_embd in host memory: the heading says how much.
    window.controller()->update(QString(), [](core::Scenario &s) { s.serving = core::ServingEngine::LlamaCpp; });
    const core::Estimate llama = core::estimate(window.controller()->scenario());
    QVERIFY(llama.details.hostBytesPerGpu > 0);
    QVERIFY2(view->heading().contains(ui::hostMemoryText(llama, core::ByteUnit::GiB)), qPrintable(view->heading()));
    // A training mode has no serving figures: the view says what it shows
    // instead of rows of zeros.
    window.controller()->update(QString(), [](core::Scenario &s) { s.mode = core::Mode::Lora; });
    QCOMPARE(view->rowCount(), 0);
    QVERIFY2(view->heading().contains(QStringLiteral("switch the mode to Inference")), qPrintable(view->heading()));
}

void TestDeploy::planForMeShowsTheServingPlan()
{
    ui::MainWindow window;
    serveLlama3(*window.controller());
    window.controller()->update(QString(), [](core::Scenario &s) {
        s.serving = core::ServingEngine::Vllm;
        s.workload.requestRate = 4;
        s.workload.outputTokens = 512;
        s.workload.ttftTargetSeconds = 1;
        s.workload.tpotTargetSeconds = 0.03;
    });
    QVERIFY(window.showChart(QStringLiteral("serve-plan")));
    const ui::DeployView *view = window.deployView();
    QVERIFY(view->servingPlan());
    // The plan `plan --serve` makes over the GPUs shown, the scenario's first.
    const core::Scenario &s = window.controller()->scenario();
    const core::ServingPlanRequest request = core::servingPlanRequest(s, {"h100-sxm5-80gb", "rtx-4090"});
    const core::ServingPlan plan = core::planServing(s, window.controller()->catalog(), request);
    const core::ServingPlanTable table = core::servingPlanTable(plan, window.controller()->catalog());
    QVERIFY(!table.rows.empty());
    QCOMPARE(view->rowCount(), static_cast<int>(table.rows.size()));
    for (int r = 0; r < view->rowCount(); ++r)
        for (std::size_t c = 0; c < table.headers.size(); ++c)
            QCOMPARE(view->cell(r, static_cast<int>(c)), QString::fromStdString(table.rows[static_cast<std::size_t>(r)][c]));
    // Every layout kept meets the targets at the request rate.
    for (const core::ServingLayout &l : plan.layouts) {
        QVERIFY(l.load.tpotSeconds <= 0.03 && l.load.ttftSeconds <= 1);
        QVERIFY(l.capacity.requestRate * l.replicas >= 4);
    }
    QVERIFY2(view->heading().contains(QStringLiteral("4.00 requests/s")), qPrintable(view->heading()));
    // Exports: the drawing and the plan's own text.
    QTemporaryDir dir;
    QString error;
    const QString md = dir.filePath(QStringLiteral("plan.md"));
    QVERIFY2(window.exportFile(md, {}, &error), qPrintable(error));
    QVERIFY(readAll(md).startsWith("# Serving plan"));
    const QString csv = dir.filePath(QStringLiteral("plan.csv"));
    QVERIFY2(window.exportFile(csv, {}, &error), qPrintable(error));
    QCOMPARE(QString::fromUtf8(readAll(csv)), QString::fromStdString(core::servingPlanCsv(plan)));
    const QString png = dir.filePath(QStringLiteral("plan.png"));
    ui::ChartExportOptions options;
    options.size = QSize(1200, 750);
    QVERIFY2(window.exportFile(png, options, &error), qPrintable(error));
    QCOMPARE(QImage::fromData(readAll(png), "PNG").size(), QSize(1200, 750));
    // A change to the scenario answers a different question: back to the fits.
    window.controller()->update(QString(), [](core::Scenario &s) { s.workload.requestRate = 8; });
    QVERIFY(!view->servingPlan());
    QCOMPARE(view->rowCount(), 2);
}

void TestDeploy::matrixCellsAreTheEnginesFits()
{
    ui::MainWindow window;
    serveLlama3(*window.controller());
    QVERIFY(window.showChart(QStringLiteral("matrix")));
    const ui::MatrixChart *chart = window.matrixChart();
    const core::FormatMatrix expected = core::formatMatrix(window.controller()->scenario(), window.controller()->catalog(),
                                                           core::defaultMatrixFormats(), window.controller()->selectedGpuIds());
    const core::FormatMatrix &shown = chart->matrix();
    QCOMPARE(shown.gpuIds, expected.gpuIds);
    QCOMPARE(shown.formats.size(), core::defaultMatrixFormats().size());
    for (std::size_t i = 0; i < shown.formats.size(); ++i)
        for (std::size_t j = 0; j < shown.gpuIds.size(); ++j) {
            QCOMPARE(shown.at(i, j).total, expected.at(i, j).total);
            QCOMPARE(shown.at(i, j).maxSequence, expected.at(i, j).maxSequence);
            QCOMPARE(chart->cellText(i, j), QString::fromStdString(core::matrixCellText(expected.at(i, j))));
        }
    // Llama 3 8B in bf16 at 8,192 tokens x 8 needs two RTX 4090s; the tooltip says so.
    const auto column = static_cast<std::size_t>(std::find(shown.gpuIds.begin(), shown.gpuIds.end(), "rtx-4090") - shown.gpuIds.begin());
    QVERIFY(!shown.at(0, column).fits);
    const QString tip = chart->toolTip(0, column);
    QVERIFY2(tip.contains(QStringLiteral("bf16")) && tip.contains(QStringLiteral("RTX 4090")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("GPUs needed: %1").arg(shown.at(0, column).gpusNeeded)), qPrintable(tip));
    QVERIFY2(tip.contains(ui::bytesText(shown.at(0, column).total, core::ByteUnit::GiB)), qPrintable(tip));
}

void TestDeploy::heatMapBoundariesAreWhereTheEngineStopsFitting()
{
    ui::MainWindow window;
    serveLlama3(*window.controller());
    QVERIFY(window.showChart(QStringLiteral("heatmap")));
    const ui::BatchContextChart *chart = window.batchContextChart();
    QCOMPARE(chart->gpuIds(), window.controller()->selectedGpuIds());
    QVERIFY(chart->batches().size() > 20 && chart->sequences().size() > 20);
    QCOMPARE(chart->batches().front(), std::uint64_t(1));
    QCOMPARE(chart->sequences().back(), std::uint64_t(8192)); // Llama 3's context length
    const core::Scenario &s = window.controller()->scenario();
    const core::Catalog &catalog = window.controller()->catalog();
    for (std::size_t g = 0; g < chart->gpuIds().size(); ++g) {
        const core::Bytes capacity = catalog.find(chart->gpuIds()[g])->capacity();
        bool someFit = false;
        for (std::size_t j = 0; j < chart->sequences().size(); ++j) {
            const std::uint64_t b = chart->boundary(g)[j];
            const core::Scenario at = core::withAxis(s, core::SweepAxis::Sequence, chart->sequences()[j]);
            if (b > 0)
                QVERIFY(core::estimate(core::withAxis(at, core::SweepAxis::Batch, b)).total <= capacity);
            if (b < chart->batches().back())
                QVERIFY(core::estimate(core::withAxis(at, core::SweepAxis::Batch, b + 1)).total > capacity);
            someFit = someFit || b > 0;
        }
        QVERIFY(someFit);
    }
    // At the scenario's context the boundary is the fit table's largest batch.
    const core::EstimateWithFits fits = core::estimateWithFits(s, catalog, chart->gpuIds());
    for (const core::GpuFit &fit : fits.fits) {
        const auto g = static_cast<std::size_t>(std::find(chart->gpuIds().begin(), chart->gpuIds().end(), fit.gpuId) - chart->gpuIds().begin());
        QCOMPARE(chart->boundary(g).back(), std::min<std::uint64_t>(fit.maxBatch, chart->batches().back()));
    }
    // The hover text names the point, its total and where it fits.
    const QString tip = chart->toolTip(0, 0);
    QVERIFY2(tip.contains(QStringLiteral("Batch 1 × 128 tokens")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("Fits: H100 SXM5 80GB, RTX 4090")), qPrintable(tip));
}

void TestDeploy::viewsExport_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("suffix");
    for (const char *view : {"deploy", "matrix", "heatmap"})
        for (const char *suffix : {"png", "svg", "pdf"})
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(view), QLatin1String(suffix))))
                << QString::fromLatin1(view) << QString::fromLatin1(suffix);
}

void TestDeploy::viewsExport()
{
    QFETCH(QString, view);
    QFETCH(QString, suffix);
    ui::MainWindow window;
    serveLlama3(*window.controller());
    QVERIFY(window.showChart(view));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("view.") + suffix);
    ui::ChartExportOptions options;
    options.size = QSize(1200, 750);
    QString error;
    QVERIFY2(window.exportFile(path, options, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.size() > 1000);
    if (suffix == QLatin1String("png")) {
        const QImage image = QImage::fromData(bytes, "PNG");
        QCOMPARE(image.size(), QSize(1200, 750));
        // Not the per-GPU chart: the view on screen was drawn.
        window.showChart(QStringLiteral("gpus"));
        const QString bars = dir.filePath(QStringLiteral("bars.png"));
        QVERIFY(window.exportFile(bars, options, &error));
        QVERIFY(QImage(bars) != image);
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
    }
}

void TestDeploy::matrixExportsAsText_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("csv") << "csv";
    QTest::newRow("md") << "md";
    QTest::newRow("json") << "json";
}

void TestDeploy::matrixExportsAsText()
{
    QFETCH(QString, suffix);
    ui::MainWindow window;
    serveLlama3(*window.controller());
    QVERIFY(window.showChart(QStringLiteral("matrix")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("matrix.") + suffix);
    QString error;
    QVERIFY2(window.exportFile(path, {}, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    const core::FormatMatrix &m = window.matrixChart()->matrix();
    if (suffix == QLatin1String("csv"))
        QCOMPARE(bytes, QByteArray::fromStdString(core::matrixCsv(m)));
    else if (suffix == QLatin1String("md"))
        QVERIFY(bytes.contains("| gguf-q4_k_m |"));
    else
        QVERIFY(bytes.contains("\"rtx-4090\""));
    // The menu names what it writes.
    bool named = false;
    for (QAction *a : window.menuBar()->findChildren<QAction *>())
        named = named || a->text() == QStringLiteral("Matrix as &CSV…");
    QVERIFY(named);
}

void TestDeploy::hiddenViewsWaitUntilShown()
{
    ui::MainWindow window;
    serveLlama3(*window.controller());
    // Off screen the views compute nothing; opened, they show the scenario.
    QCOMPARE(window.deployView()->rowCount(), 0);
    QVERIFY(window.matrixChart()->matrix().cells.empty());
    QVERIFY(window.batchContextChart()->gpuIds().empty());
    window.chartTabs()->setCurrentWidget(window.deployView());
    QCOMPARE(window.deployView()->rowCount(), 2);
    window.controller()->update(QString(), [](core::Scenario &s) { s.batch = 16; });
    QVERIFY(window.deployView()->cell(0, ui::DeployView::DecodeAtBatch).isEmpty() == false);
    QVERIFY(window.deployView()->heading().contains(QStringLiteral("batch 16")));
}

VRAM_TEST_MAIN(tst_deploy, TestDeploy, Widgets)
#include "tst_deploy.moc"
