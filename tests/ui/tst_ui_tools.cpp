// TestUi, the Tools: calibration and the lessons.

#include "tests/ui/tst_ui.h"

#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "ui/calibrationdialog.h"
#include "ui/lessonpanel.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

using namespace uitest;

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
    // Numbers stay whole when the dock is narrow, and File > New closes the
    // lesson, whose scenario is gone.
    auto *view = window.lessonPanel()->findChild<QTextBrowser *>();
    QCOMPARE(view->wordWrapMode(), QTextOption::WordWrap);
    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("lessonDock"));
    QVERIFY(dock && !dock->isHidden());
    QAction *newAction = nullptr;
    for (QAction *menu : window.menuBar()->actions())
        for (QAction *item : menu->menu() ? menu->menu()->actions() : QList<QAction *>{})
            if (item->shortcut() == QKeySequence(QKeySequence::New))
                newAction = item;
    QVERIFY(newAction);
    newAction->trigger();
    QVERIFY(dock->isHidden());
}
