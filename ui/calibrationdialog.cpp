#include "ui/calibrationdialog.h"

#include "core/io/calibrationio.h"
#include "core/io/usercatalog.h"
#include "ui/scenariocontroller.h"
#include "ui/scenariofile.h"
#include "ui/termstyle.h"

#include <QDate>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

namespace ui {

namespace {

std::optional<core::Bytes> sizeFrom(const QLineEdit *field, bool *invalid)
{
    const QString text = field->text().trimmed();
    if (text.isEmpty())
        return std::nullopt;
    const auto bytes = core::parseBytes(text.toStdString());
    if (!bytes)
        *invalid = true;
    return bytes;
}

} // namespace

CalibrationDialog::CalibrationDialog(ScenarioController *controller, QWidget *parent)
    : QDialog(parent), m_controller(controller), m_allocated(new QLineEdit), m_reserved(new QLineEdit),
      m_smi(new QLineEdit), m_name(new QLineEdit), m_report(new QLabel)
{
    setWindowTitle(tr("Calibrate"));
    auto *intro = new QLabel(tr("Run the current scenario on your GPU and enter what you measured. Any subset works; "
                                "sizes take a unit, e.g. <i>14949 MiB</i> or <i>15.2 GB</i>."));
    intro->setWordWrap(true);
    m_allocated->setPlaceholderText(tr("torch.cuda.max_memory_allocated()"));
    m_reserved->setPlaceholderText(tr("torch.cuda.max_memory_reserved()"));
    m_smi->setPlaceholderText(tr("nvidia-smi, memory used by the process"));
    m_name->setText(QString::fromStdString(controller->scenario().gpuId.empty() ? "my-gpu" : controller->scenario().gpuId));
    m_report->setTextFormat(Qt::RichText);
    m_report->setWordWrap(true);
    m_report->setMinimumHeight(120);

    auto *form = new QFormLayout;
    form->addRow(tr("&Allocated:"), m_allocated);
    form->addRow(tr("&Reserved:"), m_reserved);
    form->addRow(tr("&nvidia-smi:"), m_smi);
    form->addRow(tr("Profile &name:"), m_name);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *applyButton = buttons->addButton(tr("A&pply to Scenario"), QDialogButtonBox::ApplyRole);
    QPushButton *saveButton = buttons->addButton(tr("&Save Profile…"), QDialogButtonBox::ActionRole);
    connect(applyButton, &QPushButton::clicked, this, &CalibrationDialog::apply);
    connect(saveButton, &QPushButton::clicked, this, [this] {
        QDir().mkpath(profileDirectory());
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save Calibration Profile"), QDir(profileDirectory()).filePath(m_name->text() + QStringLiteral(".json")),
            tr("Calibration profiles (*.json)"));
        QString error;
        if (!path.isEmpty() && !saveProfile(path, &error))
            QMessageBox::warning(this, windowTitle(), error);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit *field : {m_allocated, m_reserved, m_smi, m_name})
        connect(field, &QLineEdit::textChanged, this, &CalibrationDialog::refit);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_report);
    layout->addWidget(buttons);
    refit();
}

QString CalibrationDialog::profileDirectory()
{
    // Beside the user's gpus.json, where the CLI finds them too.
    return QDir(QString::fromStdString(core::io::userDataDirectory().string())).filePath(QStringLiteral("calibration"));
}

void CalibrationDialog::setMeasured(const QString &allocated, const QString &reserved, const QString &nvidiaSmi)
{
    m_allocated->setText(allocated);
    m_reserved->setText(reserved);
    m_smi->setText(nvidiaSmi);
}

void CalibrationDialog::setMeasurement(const core::Measurement &measurement)
{
    const auto mib = [](const std::optional<core::Bytes> &bytes) {
        return bytes ? QStringLiteral("%1 MiB").arg(static_cast<double>(bytes->count()) / 1048576.0, 0, 'f', 2) : QString();
    };
    setMeasured(mib(measurement.allocated), mib(measurement.reserved), mib(measurement.nvidiaSmi));
}

void CalibrationDialog::setRunScenario(const core::Scenario &scenario)
{
    m_runScenario = scenario;
    refit();
}

void CalibrationDialog::refit()
{
    bool invalid = false;
    core::Measurement m;
    m.allocated = sizeFrom(m_allocated, &invalid);
    m.reserved = sizeFrom(m_reserved, &invalid);
    m.nvidiaSmi = sizeFrom(m_smi, &invalid);
    if (invalid) {
        m_report->setText(tr("<b>A size could not be read.</b> Write a number with a unit, e.g. 14949 MiB."));
        return;
    }
    // The window's scenario as its engine starts on the focus GPU (a run's
    // is on the card its log measured already).
    core::Scenario scenario = m_runScenario ? *m_runScenario : m_controller->scenario();
    if (const core::GpuSpec *focus = m_runScenario ? nullptr : core::focusGpu(scenario, m_controller->catalog()))
        scenario = core::onServingCard(scenario, *focus);
    m_result = core::calibrate(scenario, m, m_name->text().toStdString());
    const core::ByteUnit unit = m_controller->unit();
    QString text = tr("Predicted tensors: <b>%1</b>").arg(bytesText(m_result.predictedTensors, unit));
    if (m_result.tensorErrorPercent)
        text += tr(" (%1 % against the measured allocation)").arg(*m_result.tensorErrorPercent, 0, 'f', 1);
    text += QStringLiteral("<br>")
        + tr("Fitted CUDA context: <b>%1 MiB</b>, allocator reserve: <b>%2 %</b>")
              .arg(m_result.profile.cudaOverheadMib, 0, 'f', 0)
              .arg(m_result.profile.reservePercent, 0, 'f', 1)
        + QStringLiteral("<br>")
        + tr("Total per GPU: %1 before, <b>%2</b> calibrated")
              .arg(bytesText(m_result.predictedTotal, unit), bytesText(m_result.calibratedTotal, unit));
    for (const std::string &note : m_result.notes)
        text += QStringLiteral("<br>⚠ ") + QString::fromStdString(note).toHtmlEscaped();
    m_report->setText(text);
}

void CalibrationDialog::apply()
{
    if (!m_result.notes.empty())
        return;
    const core::CalibrationProfile profile = m_result.profile;
    m_controller->update(tr("Apply calibration"), [&profile](core::Scenario &s) { s = core::withCalibration(s, profile); });
}

bool CalibrationDialog::saveProfile(const QString &path, QString *error)
{
    const std::string created = QDate::currentDate().toString(Qt::ISODate).toStdString();
    return scenariofile::writeText(path, QByteArray::fromStdString(core::io::saveCalibration(m_result.profile, created)),
                                   error);
}

} // namespace ui
