// File > Compare with a Run: a log written here with llama.cpp's and
// vLLM's own format strings, compared in the dialog; its table and chart
// hold core::compareRun's figures, "Keep" writes runs.json, and a log that
// cannot be read leaves the window as it was.

#include "core/io/runarchive.h"
#include "core/io/textfile.h"
#include "tests/support/printedlog.h"
#include "tests/support/testregistry.h"
#include "ui/calibrationdialog.h"
#include "ui/mainwindow.h"
#include "ui/myrunsdialog.h"
#include "ui/runcomparechart.h"
#include "ui/runcomparedialog.h"
#include "ui/scenariocontroller.h"

#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <qcustomplot.h>

#include <algorithm>

using namespace testsupport;

namespace {

/// llama-server on two RTX 4090s: Llama 3 8B layers split over CUDA0 and CUDA1.
std::string twoGpuLlamaLog()
{
    return "ggml_cuda_init: found 2 CUDA devices:\n" + printed(kCudaDevice, 0, "NVIDIA GeForce RTX 4090", 8, 9, "yes")
        + printed(kCudaDevice, 1, "NVIDIA GeForce RTX 4090", 8, 9, "yes") + printed(kOffloaded, "load_tensors", 33, 33)
        + printed(kModelBuffer, "load_tensors", "CUDA0", 3891.24) + printed(kModelBuffer, "load_tensors", "CUDA1", 3766.99)
        + printed(kModelBuffer, "load_tensors", "CPU_Mapped", 410.98)
        + printed(kContextCount, "llama_context", "n_seq_max    ", 1u)
        + printed(kContextCount, "llama_context", "n_ctx        ", 16384u)
        + printed(kContextCount, "llama_context", "n_ubatch     ", 512u) + "llama_context: flash_attn    = enabled\n"
        + printed(kKvBuffer, "llama_kv_cache", "CUDA0", 1088.0) + printed(kKvBuffer, "llama_kv_cache", "CUDA1", 1024.0)
        + printed(kKvSize, "llama_kv_cache", 2112.0, 16384u, 32, 1u, 1u, "f16", 1056.0, "f16", 1056.0)
        + printed(kComputeBuffer, "sched_reserve", "CUDA0", 296.01) + printed(kComputeBuffer, "sched_reserve", "CUDA1", 304.02)
        + printed(kComputeBuffer, "sched_reserve", "CUDA_Host", 40.02);
}

std::string vllmLog()
{
    const std::string prefix = "(VllmWorkerProcess pid=507) INFO 04-12 08:21:19 [worker.py:267] ";
    return prefix + printed(kVllmInstance, 79.15, 0.90, 71.24) + prefix + printed(kVllmTerms, 14.99, 0.25, 1.25, 54.75);
}

ui::RunCompareDialog *compared(ui::MainWindow &w, const std::string &log)
{
    QString error;
    auto *dialog = qobject_cast<ui::RunCompareDialog *>(w.compareLog(QString::fromStdString(log), QStringLiteral("run.log"), &error));
    if (!dialog)
        qFatal("compareLog failed: %s", qPrintable(error));
    return dialog;
}

core::RunComparison expectedComparison(const ui::MainWindow &w, const std::string &text)
{
    const auto log = core::runlog::readRunLog(text);
    const core::Catalog &catalog = w.controller()->catalog();
    return core::compareRun(core::scenarioFromLog(w.controller()->scenario(), *log.value, catalog, {}), *log.value, catalog);
}

} // namespace

class TestRunCompare : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void tableHoldsTheComparison();
    void chartHasBarsPerDevice();
    void useTheLogsSettingsIsOneUndoableStep();
    void calibrateFromTheRun();
    void keepWritesRunsJson();
    void unreadableLogChangesNothing();
    void pasteLogFromTheClipboard();

private:
    QTemporaryDir *m_data = nullptr;
};

void TestRunCompare::initTestCase() { QStandardPaths::setTestModeEnabled(true); }

void TestRunCompare::init()
{
    m_data = new QTemporaryDir;
    qputenv("VRAMPLANNER_DATA_DIR", m_data->path().toLocal8Bit());
}

void TestRunCompare::cleanup()
{
    qunsetenv("VRAMPLANNER_DATA_DIR");
    delete m_data;
    m_data = nullptr;
}

void TestRunCompare::tableHoldsTheComparison()
{
    ui::MainWindow w;
    const std::string text = twoGpuLlamaLog();
    const core::RunComparison expected = expectedComparison(w, text);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("llama-server.log"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(text));
    file.close();
    QString error;
    auto *dialog = qobject_cast<ui::RunCompareDialog *>(w.compareLogFile(path, &error));
    QVERIFY2(dialog, qPrintable(error));
    QVERIFY(dialog->windowTitle().contains(QStringLiteral("llama-server.log")));

    QTableWidget *table = dialog->table();
    QCOMPARE(table->rowCount(), static_cast<int>(expected.rows.size()));
    bool sawKvOnCuda1 = false;
    for (int i = 0; i < table->rowCount(); ++i) {
        const core::ComparisonRow &r = expected.rows[static_cast<std::size_t>(i)];
        QCOMPARE(table->item(i, ui::RunCompareDialog::DeviceColumn)->text(), QString::fromStdString(r.device));
        QCOMPARE(table->item(i, ui::RunCompareDialog::TermColumn)->text(), QString::fromStdString(r.term));
        if (r.isCount)
            continue;
        QCOMPARE(table->item(i, ui::RunCompareDialog::MeasuredColumn)->data(Qt::UserRole).toULongLong(), r.measured.count());
        if (r.planned)
            QCOMPARE(table->item(i, ui::RunCompareDialog::PlannedColumn)->data(Qt::UserRole).toULongLong(), r.planned->count());
        if (r.quantity == "llamacpp.kv_buffer" && r.device == "CUDA1") {
            // "1024.00 MiB" = 1024 x 1,048,576 = 1,073,741,824 B.
            QCOMPARE(r.measured.count(), 1073741824ull);
            sawKvOnCuda1 = true;
        }
    }
    QVERIFY(sawKvOnCuda1);
    // The dialog's scenario took n_ctx from the log; the window's did not change.
    QCOMPARE(dialog->comparison().scenario.sequence, 16384ull);
    QVERIFY(w.controller()->scenario().sequence != 16384ull);
    QVERIFY(dialog->tableCsv().startsWith(QStringLiteral("Quantity,Device,Measured,Planned")));
    QCOMPARE(static_cast<int>(dialog->tableCsv().count(QLatin1Char('\n'))), table->rowCount() + 1);
}

void TestRunCompare::chartHasBarsPerDevice()
{
    ui::MainWindow w;
    auto *dialog = compared(w, twoGpuLlamaLog());
    std::size_t bytesRows = 0;
    std::size_t planned = 0;
    for (const core::ComparisonRow &r : dialog->comparison().rows) {
        bytesRows += r.isCount ? 0 : 1;
        planned += !r.isCount && r.planned ? 1 : 0;
    }
    QVERIFY(planned >= 6); // model, KV and compute buffers on each of two GPUs
    ui::RunCompareChart *chart = dialog->chart();
    QCOMPARE(static_cast<std::size_t>(chart->measuredBars()->data()->size()), bytesRows);
    QCOMPARE(static_cast<std::size_t>(chart->plannedBars()->data()->size()), planned);
    QCOMPARE(static_cast<std::size_t>(chart->differenceLabels().size()), planned);
    // The ticks name each device of the multi-GPU log.
    const auto ticks = chart->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
    QStringList names(ticks.begin(), ticks.end());
    QVERIFY(names.filter(QStringLiteral("CUDA0")).size() >= 3);
    QVERIFY(names.filter(QStringLiteral("CUDA1")).size() >= 3);
    // Each label says the plan's difference from what the log measured.
    for (const core::ComparisonRow &r : dialog->comparison().rows)
        if (!r.isCount && r.planned && r.quantity == "llamacpp.kv_buffer" && r.device == "CUDA1") {
            const QString label = ui::differenceText(r, w.controller()->unit());
            QVERIFY(label.contains(QStringLiteral("%")));
            bool found = false;
            for (QCPItemText *text : chart->differenceLabels())
                found = found || text->text().replace(QLatin1Char('\n'), QLatin1Char(' ')) == label;
            QVERIFY(found);
        }
}

void TestRunCompare::useTheLogsSettingsIsOneUndoableStep()
{
    ui::MainWindow w;
    const core::Scenario before = w.controller()->scenario();
    auto *dialog = compared(w, twoGpuLlamaLog());
    const int steps = w.controller()->undoStack()->count();
    dialog->useLogSettings();
    QCOMPARE(w.controller()->undoStack()->count(), steps + 1);
    QCOMPARE(w.controller()->scenario().sequence, 16384ull);
    QCOMPARE(w.controller()->scenario().serving, core::ServingEngine::LlamaCpp);
    QCOMPARE(w.controller()->scenario().gpuId, std::string("rtx-4090"));
    // The dialog now plans the window's scenario, which is the run's.
    QCOMPARE(dialog->comparison().scenario.sequence, 16384ull);
    w.controller()->undoStack()->undo();
    QCOMPARE(w.controller()->scenario().sequence, before.sequence);
    QCOMPARE(w.controller()->scenario().serving, before.serving);
}

void TestRunCompare::calibrateFromTheRun()
{
    ui::MainWindow w;
    auto *dialog = compared(w, vllmLog());
    QVERIFY(dialog->chart()->plannedBars()->data()->size() > 0);
    dialog->calibrate();
    auto *calibration = dialog->findChild<ui::CalibrationDialog *>();
    QVERIFY(calibration);
    // vLLM measured weights plus activation peak as torch's allocated peak:
    // 14.99 + 1.25 = 16.24 GiB = 16,629.76 MiB.
    const auto fields = calibration->findChildren<QLineEdit *>();
    QVERIFY(std::any_of(fields.begin(), fields.end(),
                        [](const QLineEdit *f) { return f->text() == QStringLiteral("16629.76 MiB"); }));
    QVERIFY(calibration->result().tensorErrorPercent.has_value());
}

void TestRunCompare::keepWritesRunsJson()
{
    ui::MainWindow w;
    auto *dialog = compared(w, twoGpuLlamaLog());
    QString error;
    QVERIFY2(dialog->keep(&error), qPrintable(error));
    QVERIFY2(dialog->keep(&error), qPrintable(error));
    const std::filesystem::path path = core::io::runArchivePath();
    QCOMPARE(QString::fromStdString(path.parent_path().string()), m_data->path());
    std::string readError;
    const auto text = core::io::readTextFile(path.string(), core::kMaxInputBytes, readError);
    QVERIFY(text);
    const auto archive = core::io::loadRunArchive(*text);
    QVERIFY(archive.ok());
    QCOMPARE(archive.value->runs.size(), std::size_t(2));
    const core::io::KeptRun expected = core::io::keptRunOf(dialog->comparison(), "", "run.log");
    QCOMPARE(archive.value->runs[0].rows.size(), expected.rows.size());
    QCOMPARE(archive.value->runs[0].log, std::string("run.log"));
    QCOMPARE(archive.value->runs[0].rows[0].measuredBytes, expected.rows[0].measuredBytes);

    auto *runs = qobject_cast<ui::MyRunsDialog *>(w.openTool(QStringLiteral("runs")));
    QVERIFY(runs);
    QCOMPARE(runs->table()->rowCount(), static_cast<int>(2 * expected.rows.size()));
    QCOMPARE(runs->table()->item(0, ui::MyRunsDialog::TermColumn)->text(), QString::fromStdString(expected.rows[0].term));
}

void TestRunCompare::unreadableLogChangesNothing()
{
    ui::MainWindow w;
    const core::Scenario before = w.controller()->scenario();
    const int steps = w.controller()->undoStack()->count();
    QString error;
    QVERIFY(!w.compareLog(QStringLiteral("hello\nload_tensors:        CUDA0 model buffer size = lots MiB\n"),
                          QStringLiteral("garbage.log"), &error));
    QVERIFY(error.contains(QStringLiteral("garbage.log")));
    QVERIFY2(error.contains(QStringLiteral("line 2")), qPrintable(error));
    QVERIFY(error.contains(QStringLiteral("expected")));
    QVERIFY(w.findChildren<ui::RunCompareDialog *>().isEmpty());
    QCOMPARE(w.controller()->undoStack()->count(), steps);
    QCOMPARE(w.controller()->scenario().sequence, before.sequence);
    QVERIFY(!w.controller()->isModified());
}

void TestRunCompare::pasteLogFromTheClipboard()
{
    ui::MainWindow w;
    QApplication::clipboard()->setText(QString::fromStdString(vllmLog()));
    QAction *paste = nullptr;
    for (QAction *menu : w.menuBar()->actions())
        for (QAction *a : menu->menu()->actions())
            if (a->text() == ui::MainWindow::tr("Paste &Log"))
                paste = a;
    QVERIFY(paste);
    paste->trigger();
    auto *dialog = w.findChild<ui::RunCompareDialog *>();
    QVERIFY(dialog);
    QVERIFY(dialog->table()->rowCount() > 0);
    QCOMPARE(dialog->comparison().scenario.serving, core::ServingEngine::Vllm);
}

VRAM_TEST_MAIN(tst_runcompare, TestRunCompare, Widgets)
#include "tst_runcompare.moc"
