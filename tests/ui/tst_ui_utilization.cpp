// The GPU utilisation calculator: the Tools menu and the utilisation
// lessons open it, it starts from the window's scenario, and what it shows
// is the hand calculation of the seed notes' examples (S14, S15) and of the
// reference run's model FLOPs utilisation (PaLM App. B).

#include "tests/support/testregistry.h"
#include "core/io/builtin.h"
#include "ui/lessonpanel.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"
#include "ui/utilizationdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

#include <algorithm>

namespace {

const core::Lesson &lesson(const char *id)
{
    const auto &lessons = core::io::builtinLessons();
    return *std::find_if(lessons.begin(), lessons.end(), [id](const core::Lesson &l) { return l.id == id; });
}

QString shown(const ui::UtilizationDialog &dialog, const char *result)
{
    const auto *label = dialog.findChild<QLabel *>(QLatin1String(result));
    return label ? label->text() : QString();
}

void type(QAbstractSpinBox *box, const QString &text)
{
    box->selectAll();
    QTest::keyClicks(box, text);
}

} // namespace

class TestUtilizationDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void toolsMenuOpensIt();
    void notesExamplesByHand();
    void enteredValuesChangeTheResults();
    void precisionWithoutAPeak();
    void utilisationLessonsOpenIt();
};

void TestUtilizationDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // keep the user's settings out of it
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("offscreen"));
}

void TestUtilizationDialog::toolsMenuOpensIt()
{
    ui::MainWindow window;
    QAction *action = nullptr;
    for (QAction *menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Tools"))
            for (QAction *a : menu->menu()->actions())
                if (a->text() == QStringLiteral("GPU &Utilisation…"))
                    action = a;
    QVERIFY(action);
    QVERIFY(!window.findChild<ui::UtilizationDialog *>());
    action->trigger();
    const auto *dialog = window.findChild<ui::UtilizationDialog *>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY(!window.openTool(QStringLiteral("profiler"))); // not a tool
}

void TestUtilizationDialog::notesExamplesByHand()
{
    // S15's lesson loads LLaMA 7B training on an A100 80GB.
    ui::MainWindow window;
    window.showLesson(lesson("s15-throughput-ratio"));
    ui::UtilizationDialog dialog(window.controller()->scenario(), window.controller()->catalog());
    // Prefilled: LLaMA 7B's 6,738,415,616 parameters, 32 layers, h = 4096, s = 2048, bf16 on the A100.
    QCOMPARE(dialog.findChild<QDoubleSpinBox *>(QStringLiteral("parameters"))->value(), 6.738);
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("gpu"))->currentData().toString(),
        QStringLiteral("a100-sxm4-80gb"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("precision"))->currentText(), QStringLiteral("bf16"));
    QVERIFY(dialog.findChild<QCheckBox *>(QStringLiteral("attention"))->isChecked());
    // S14: 100 / 312 = 32.05 %. S15: 1536 / 3300 = 46.55 % (0.465454...).
    QVERIFY(shown(dialog, "flopsRatio").contains(QStringLiteral("32.05 %")));
    QVERIFY(shown(dialog, "flopsRatio").contains(QStringLiteral("100.0 TFLOPS ÷ 312.0 TFLOPS")));
    QVERIFY(shown(dialog, "throughputRatio").contains(QStringLiteral("46.55 %")));
    QVERIFY(shown(dialog, "throughputRatio").contains(QStringLiteral("1,536 ÷ 3,300")));
    // With N = 6.74e9, as the notes round it: FLOPs per token
    // 6 x 6.74e9 + 12 x 32 x 4096 x 2048 = 40.44e9 + 3.22e9 = 43.66 GFLOP;
    // 1536 x 43.66e9 / 312e12 = 21.49 %, 3300 x 43.66e9 / 312e12 = 46.18 %.
    type(dialog.findChild<QDoubleSpinBox *>(QStringLiteral("parameters")), QStringLiteral("6.74"));
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("21.49 %")));
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("6 × 6.740e9 + 12 × 32 × 4,096 × 2,048")));
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("43.66 GFLOP")));
    QVERIFY(shown(dialog, "referenceMfu").contains(QStringLiteral("46.18 %")));
    QVERIFY(shown(dialog, "referenceMfu").contains(QStringLiteral("3,300 × 43.66 GFLOP ÷ 312.0 TFLOPS")));
    // The caveat: 46.5 % of a run at 46.2 % MFU is 21.5 % of the peak.
    QVERIFY(shown(dialog, "caveat").contains(QStringLiteral("46.2 % MFU")));
    QVERIFY(shown(dialog, "caveat").contains(QStringLiteral("46.5 % of the reference is 21.5 %")));
    // 6N alone: 6 x 6.74e9 x 3300 / 312e12 = 42.77 %; x 1536: 19.91 %.
    dialog.findChild<QCheckBox *>(QStringLiteral("attention"))->setChecked(false);
    QVERIFY(shown(dialog, "referenceMfu").contains(QStringLiteral("42.77 %")));
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("19.91 %")));
}

void TestUtilizationDialog::enteredValuesChangeTheResults()
{
    ui::MainWindow window;
    window.showLesson(lesson("s14-flops-utilization"));
    ui::UtilizationDialog dialog(window.controller()->scenario(), window.controller()->catalog());
    // 150 TFLOPS on an A100 in tf32 (156 dense): 96.15 %.
    type(dialog.findChild<QDoubleSpinBox *>(QStringLiteral("achievedTflops")), QStringLiteral("150"));
    auto *precision = dialog.findChild<QComboBox *>(QStringLiteral("precision"));
    precision->setCurrentIndex(precision->findText(QStringLiteral("tf32")));
    QVERIFY(shown(dialog, "flopsRatio").contains(QStringLiteral("96.15 %")));
    // A V100 has no bf16: fp16 at 125 TFLOPS, 150 / 125 = 120.00 %.
    auto *gpu = dialog.findChild<QComboBox *>(QStringLiteral("gpu"));
    gpu->setCurrentIndex(gpu->findData(QStringLiteral("v100-sxm2-32gb")));
    QCOMPARE(precision->currentText(), QStringLiteral("fp16"));
    QVERIFY(shown(dialog, "flopsRatio").contains(QStringLiteral("120.00 %")));
    // Forward only: 2N. 10,000 tokens/s x 2 x 7e9 / 125e12 = 112.00 %.
    dialog.findChild<QCheckBox *>(QStringLiteral("attention"))->setChecked(false);
    auto *work = dialog.findChild<QComboBox *>(QStringLiteral("work"));
    work->setCurrentIndex(1);
    type(dialog.findChild<QDoubleSpinBox *>(QStringLiteral("parameters")), QStringLiteral("7"));
    type(dialog.findChild<QDoubleSpinBox *>(QStringLiteral("tokensPerSecond")), QStringLiteral("10000"));
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("112.00 %")));
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("2N = 2 × 7.000e9")));
    // 10,000 / 3,300 = 303.03 %.
    QVERIFY(shown(dialog, "throughputRatio").contains(QStringLiteral("303.03 %")));
}

void TestUtilizationDialog::precisionWithoutAPeak()
{
    ui::MainWindow window;
    ui::UtilizationDialog dialog(window.controller()->scenario(), window.controller()->catalog());
    auto *gpu = dialog.findChild<QComboBox *>(QStringLiteral("gpu"));
    gpu->setCurrentIndex(gpu->findData(QStringLiteral("a100-sxm4-80gb")));
    auto *precision = dialog.findChild<QComboBox *>(QStringLiteral("precision"));
    precision->setCurrentIndex(precision->findText(QStringLiteral("fp8"))); // Ampere has no fp8
    QVERIFY(shown(dialog, "mfu").contains(QStringLiteral("no fp8 peak")));
    QVERIFY(!shown(dialog, "flopsRatio").contains(QStringLiteral("%")));
    QVERIFY(shown(dialog, "throughputRatio").contains(QStringLiteral("46.55 %"))); // needs no peak
}

void TestUtilizationDialog::utilisationLessonsOpenIt()
{
    ui::MainWindow window;
    for (const char *id : { "s14-flops-utilization", "s15-throughput-ratio" }) {
        window.showLesson(lesson(id));
        auto *button = window.lessonPanel()->findChild<QPushButton *>();
        QVERIFY2(button && !button->isHidden(), id);
        const int before = window.findChildren<ui::UtilizationDialog *>().size();
        button->click();
        QCOMPARE(window.findChildren<ui::UtilizationDialog *>().size(), before + 1);
    }
    window.showLesson(lesson("s1-fp16-rule")); // names no tool
    QVERIFY(window.lessonPanel()->findChild<QPushButton *>()->isHidden());
}

VRAM_TEST_MAIN(tst_ui_utilization, TestUtilizationDialog, Widgets)
#include "tst_ui_utilization.moc"
