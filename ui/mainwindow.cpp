#include "ui/mainwindow.h"

#include "core/io/builtin.h"
#include "core/units.h"
#include "ui/scenariocontroller.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent),
      m_controller(new ScenarioController(core::io::builtinCatalog(), this)),
      m_preset(new QComboBox),
      m_mode(new QComboBox),
      m_report(new QPlainTextEdit)
{
    setWindowTitle(tr("VRAM Planner"));
    for (const core::io::ModelPreset &preset : core::io::builtinPresets())
        m_preset->addItem(QString::fromStdString(preset.name), QString::fromStdString(preset.id));
    for (const core::ModeInfo &mode : core::allModes())
        m_mode->addItem(QString::fromUtf8(mode.label), QString::fromUtf8(mode.id));
    m_report->setReadOnly(true);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto *form = new QFormLayout;
    form->addRow(tr("&Model:"), m_preset);
    form->addRow(tr("M&ode:"), m_mode);
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->addLayout(form);
    layout->addWidget(m_report);
    setCentralWidget(central);

    connect(m_preset, &QComboBox::currentIndexChanged, this, &MainWindow::applyChoices);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &MainWindow::applyChoices);
    connect(m_controller, &ScenarioController::estimateChanged, this, &MainWindow::showEstimate);
    applyChoices();
    resize(900, 640);
}

void MainWindow::applyChoices()
{
    const core::io::ModelPreset *preset = core::io::findPreset(m_preset->currentData().toString().toStdString());
    if (!preset)
        return;
    core::Scenario scenario;
    scenario.model = preset->model;
    scenario.source = {core::ModelSource::Kind::Preset, preset->id, "", 0};
    scenario.mode = core::parseMode(m_mode->currentData().toString().toStdString()).value_or(core::Mode::Inference);
    m_controller->setScenario(scenario);
}

void MainWindow::showEstimate()
{
    const core::Estimate &e = m_controller->result().estimate;
    QString text;
    for (core::TermId id : core::allTerms())
        text += QStringLiteral("%1 %2\n")
                    .arg(QString::fromUtf8(core::termId(id)), -20)
                    .arg(QString::fromStdString(core::formatBytes(e.term(id))), 14);
    text += QStringLiteral("%1 %2\n").arg(QStringLiteral("total"), -20).arg(QString::fromStdString(core::formatBytes(e.total)), 14);
    m_report->setPlainText(text);
}

} // namespace ui
