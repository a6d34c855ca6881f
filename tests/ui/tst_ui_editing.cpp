// TestUi, the controls: sliders and exact entry drive the one controller,
// every editor shows the scenario, undo and redo, the advanced settings and
// the stacks' defaults.

#include "tests/ui/tst_ui.h"

#include "core/base/units.h"
#include "core/explain/rulesofthumb.h"
#include "ui/breakdownpanel.h"
#include "ui/clusterpanel.h"
#include "ui/controlspanel.h"
#include "ui/fieldeditor.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"
#include "ui/sliderfields.h"
#include "ui/termstyle.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QWheelEvent>
#include <QWidget>
#include <QtTest>

#include <cmath>

using namespace uitest;

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
    // A 32k context is 32,768 tokens, as context lengths are written.
    QCOMPARE(window.controller()->scenario().sequence, 32768ull);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(seq->field()->text(), QStringLiteral("32,768"));
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

void TestUi::wheelScrollsPastUnfocusedFields()
{
    // The wheel over the settings scrolls them: an input that has no focus
    // leaves the event to its parents (Qt hands an ignored wheel event up
    // to the scroll area) and keeps its value; once a click or Tab has
    // focused it, the wheel steps it as usual.
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto wheelUp = [](QWidget *w) {
        const QPointF at(w->width() / 2.0, w->height() / 2.0);
        QWheelEvent wheel(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &wheel);
        return wheel.isAccepted();
    };
    auto *attention = window.fieldEditor(core::FieldId::Attention)->findChild<QComboBox *>();
    auto *gpus = window.fieldEditor(core::FieldId::Gpus)->findChild<QSpinBox *>();
    QSlider *batch = window.controls()->batchField()->slider();
    const core::Scenario before = window.controller()->scenario();
    for (QWidget *input : std::initializer_list<QWidget *>{attention, gpus, batch}) {
        QVERIFY(input && !input->hasFocus());
        QVERIFY2(!wheelUp(input), input->metaObject()->className());
    }
    QCOMPARE(window.controller()->scenario().attention, before.attention);
    QCOMPARE(window.controller()->scenario().gpus, before.gpus);
    QCOMPARE(window.controller()->scenario().batch, before.batch);
    QVERIFY(!window.controller()->undoStack()->canUndo());
    gpus->setFocus();
    QVERIFY(gpus->hasFocus());
    QVERIFY(wheelUp(gpus));
    QVERIFY(window.controller()->scenario().gpus != before.gpus);
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
    // Every key the platform binds to Redo answers, and none is named twice
    // (a duplicate is an "ambiguous shortcut overload" and does nothing).
    const QList<QKeySequence> redoKeys = redoAction->shortcuts();
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::Redo))
        QVERIFY2(redoKeys.contains(key), qPrintable(key.toString()));
    for (const QKeySequence &key : redoKeys)
        QCOMPARE(redoKeys.count(key), 1);
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
