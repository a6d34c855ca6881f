// A monkey drives the window for thousands of random steps (sliders, exact
// fields, mode buttons, presets, advanced settings, unit and axis toggles,
// undo and redo, hostile files, a language switch) and after every step the
// totals shown must be the engine's for the controller's scenario: the
// breakdown's total and every chart bar. The seed is fixed, so a failure
// replays; VRAM_MONKEY_STEPS in the environment sets the number of steps.

#include "tests/support/testregistry.h"
#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "ui/breakdownpanel.h"
#include "ui/controlspanel.h"
#include "ui/language.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/scenariocontroller.h"
#include "ui/sliderfields.h"
#include "ui/termstyle.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QUndoStack>
#include <QtTest>

class TestMonkey : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void randomStepsKeepTheDisplayTrue();
};

void TestMonkey::randomStepsKeepTheDisplayTrue()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ui::ControlsPanel *c = window.controls();
    QRandomGenerator random(20261130); // fixed: a failure replays
    const QList<QSlider *> sliders = {c->parametersField()->slider(), c->precisionField()->slider(),
                                      c->optimizerField()->slider(), c->batchField()->slider(),
                                      c->sequenceField()->slider()};
    const QList<QLineEdit *> fields = {c->parametersField()->field(), c->batchField()->field(),
                                       c->sequenceField()->field()};
    const QStringList typed = {QStringLiteral("7B"), QStringLiteral("0"), QStringLiteral("1e300"), QStringLiteral("32k"),
                               QStringLiteral("-5"), QStringLiteral("abc"), QStringLiteral("4096"), QStringLiteral("1M")};
    const QList<QSpinBox *> spins = c->advancedSection()->findChildren<QSpinBox *>();
    const QList<QComboBox *> combos = c->advancedSection()->findChildren<QComboBox *>();
    ui::ScenarioController *controller = window.controller();
    // Files that must be refused whole, the scenario left as it was.
    const QDir errors(QStringLiteral(VRAM_TEST_DATA_DIR "/errors"));
    const QStringList hostile = errors.entryList({QStringLiteral("scenario-*.json"), QStringLiteral("config-*.json")}, QDir::Files);
    QVERIFY(!hostile.isEmpty());
    const int steps = qEnvironmentVariableIsSet("VRAM_MONKEY_STEPS") ? qEnvironmentVariableIntValue("VRAM_MONKEY_STEPS")
                                                                    : VRAM_MONKEY_STEPS;

    for (int step = 0; step < steps; ++step) {
        switch (random.bounded(11)) {
        case 0:
        case 1: {
            QSlider *s = sliders[random.bounded(sliders.size())];
            s->setValue(random.bounded(s->minimum(), s->maximum() + 1));
            break;
        }
        case 2: {
            QLineEdit *f = fields[random.bounded(fields.size())];
            f->setText(typed[random.bounded(typed.size())]);
            emit f->editingFinished();
            break;
        }
        case 3:
            c->modeGroup()->button(random.bounded(4))->click();
            break;
        case 4: {
            QComboBox *model = c->modelCombo();
            const int i = random.bounded(model->count());
            if (!model->itemText(i).isEmpty())
                emit model->activated(i);
            break;
        }
        case 5: {
            QSpinBox *spin = spins[random.bounded(spins.size())];
            spin->setValue(random.bounded(spin->minimum(), std::min(spin->maximum(), 64) + 1));
            break;
        }
        case 6: {
            QComboBox *combo = combos[random.bounded(combos.size())];
            const int i = random.bounded(combo->count());
            combo->setCurrentIndex(i);
            emit combo->activated(i);
            break;
        }
        case 7:
            controller->setUnit(random.bounded(2) ? core::ByteUnit::GB : core::ByteUnit::GiB);
            break;
        case 8:
            if (random.bounded(2))
                controller->undoStack()->undo();
            else
                controller->undoStack()->redo();
            break;
        case 9: {
            const std::string before = core::io::saveScenario(controller->scenario());
            QString error;
            const QString file = errors.filePath(hostile[random.bounded(hostile.size())]);
            const bool opened = window.openFile(file, &error);
            // A config that reads is a model (the unknown-type one): else
            // the window says why and keeps its scenario.
            if (!opened)
                QCOMPARE(core::io::saveScenario(controller->scenario()), before);
            break;
        }
        default:
            // Every label is retranslated and back; the checks read English.
            ui::applyLanguage(QStringLiteral("zh_CN"));
            ui::applyLanguage(QStringLiteral("en"));
            break;
        }

        std::vector<std::string> ids;
        for (const QString &id : controller->shownGpus())
            ids.push_back(id.toStdString());
        const core::EstimateWithFits engine = core::estimateWithFits(controller->scenario(), controller->catalog(), ids);
        const core::ByteUnit unit = controller->unit();
        if (!engine.estimate.isValid())
            continue; // the window says why instead of showing totals
        // The total row, followed by llama.cpp's host memory where it applies.
        QTableWidget *terms = window.breakdown()->termTable();
        int total = terms->rowCount() - 1;
        while (total > 0 && !terms->item(total, 0)->text().startsWith(QStringLiteral("Total")))
            --total;
        QCOMPARE(terms->item(total, 1)->text(), ui::bytesText(engine.estimate.total, unit));
        // One bar per shown GPU (per device of a mixed set), then host RAM
        // where the host side holds anything: one machine's GPUs' share.
        std::vector<core::TermBytes> expected;
        for (const core::GpuFit &fit : engine.fits)
            expected.push_back(fit.layoutTerms);
        if (!engine.deviceSet.devices.empty()) {
            expected.clear();
            for (const core::DeviceFit &device : engine.deviceSet.devices)
                expected.push_back(device.terms);
        }
        const core::Scenario &s = engine.scenario;
        if (core::hostBytesPerMachine(s, engine.estimate) > 0) {
            core::TermBytes host{};
            for (std::size_t t = 0; t < core::kTermCount; ++t)
                host[t] = core::Bytes::fromDouble(static_cast<double>(engine.estimate.details.hostTermsPerGpu[t].count())
                                                  * std::min(s.gpus, s.parallel.gpusPerNode));
            expected.push_back(host);
        }
        for (core::TermId id : core::allTerms()) {
            const QVector<double> bars = window.chart()->barValues(id);
            QCOMPARE(bars.size(), static_cast<int>(expected.size()));
            for (int i = 0; i < bars.size(); ++i)
                QCOMPARE(bars[i], core::toGiga(expected[static_cast<std::size_t>(i)][static_cast<std::size_t>(id)], unit));
        }
    }
}

VRAM_TEST_MAIN(tst_monkey, TestMonkey, Widgets)
#include "tst_monkey.moc"
