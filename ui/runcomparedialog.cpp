#include "ui/runcomparedialog.h"

#include "core/io/runarchive.h"
#include "ui/calibrationdialog.h"
#include "ui/runcomparechart.h"
#include "ui/scenariocontroller.h"
#include "ui/termstyle.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDate>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ui {

namespace {

QString fieldName(core::FieldId id) { return QCoreApplication::translate("Field", core::field(id).label); }

/// A count or ratio as the log printed it: "442,368", "13.50".
QString countText(double value)
{
    return value == std::floor(value) && value < 1e15 ? QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(value)))
                                                      : QString::number(value, 'f', 2);
}

QTableWidgetItem *bytesItem(core::Bytes bytes, core::ByteUnit unit)
{
    auto *item = new QTableWidgetItem(bytesText(bytes, unit));
    item->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(bytes.count()));
    item->setToolTip(RunCompareDialog::tr("%1 bytes").arg(QString::fromStdString(core::groupDigits(bytes.count()))));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

} // namespace

RunCompareDialog::RunCompareDialog(ScenarioController *controller, QWidget *parent)
    : QDialog(parent), m_controller(controller), m_summary(new QLabel), m_table(new QTableWidget(0, 7)),
      m_chart(new RunCompareChart)
{
    setWindowTitle(tr("Compare with a Run"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_table->setHorizontalHeaderLabels(
        {tr("Quantity"), tr("Device"), tr("Measured"), tr("Planned"), tr("Difference"), tr("Line"), tr("Planner term")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *use = buttons->addButton(tr("&Use the Log's Settings"), QDialogButtonBox::ApplyRole);
    QPushButton *calibrateButton = buttons->addButton(tr("&Calibrate from This Run…"), QDialogButtonBox::ActionRole);
    QPushButton *keepButton = buttons->addButton(tr("&Keep in My Runs"), QDialogButtonBox::ActionRole);
    QPushButton *copy = buttons->addButton(tr("Copy &Table"), QDialogButtonBox::ActionRole);
    use->setToolTip(tr("Take the settings the log states into the window's scenario (undoable)"));
    keepButton->setToolTip(tr("Add this comparison to runs.json in your data folder (Tools > My Runs)"));
    copy->setToolTip(tr("Copy the table as CSV"));
    connect(use, &QPushButton::clicked, this, &RunCompareDialog::useLogSettings);
    connect(calibrateButton, &QPushButton::clicked, this, &RunCompareDialog::calibrate);
    connect(keepButton, &QPushButton::clicked, this, [this, keepButton] {
        QString error;
        if (keep(&error))
            keepButton->setEnabled(false);
        else
            QMessageBox::warning(this, windowTitle(), error);
    });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(tableCsv()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_controller, &ScenarioController::estimateChanged, this, &RunCompareDialog::recompare);

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_table);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(1000, 720);
}

bool RunCompareDialog::setLog(const QString &text, const QString &logName, QString *error)
{
    const auto read = core::runlog::readRunLog(text.toStdString());
    if (!read.ok()) {
        QStringList problems;
        for (const std::string &e : read.errors)
            problems << QString::fromStdString(e);
        *error = tr("%1 is not a run log VRAM Planner can read:\n%2").arg(logName, problems.join(QLatin1Char('\n')));
        return false;
    }
    m_log = *read.value;
    m_logName = logName;
    m_warnings.clear();
    for (const std::string &w : read.warnings)
        m_warnings << QString::fromStdString(w);
    setWindowTitle(tr("Compare with a Run — %1").arg(logName));
    recompare();
    return true;
}

void RunCompareDialog::recompare()
{
    if (!m_log)
        return;
    const core::Catalog &catalog = m_controller->catalog();
    m_run = core::scenarioFromLog(m_controller->scenario(), *m_log, catalog, {});
    m_comparison = core::compareRun(m_run, *m_log, catalog);
    fill();
}

void RunCompareDialog::fill()
{
    const core::ByteUnit unit = m_controller->unit();
    QStringList taken;
    QStringList kept;
    for (const core::LogSetting &s : m_comparison.settings) {
        const QString item = s.line > 0
            ? tr("%1 = %2 (line %3)").arg(fieldName(s.field), QString::fromStdString(s.value)).arg(s.line)
            : tr("%1 = %2 (by the log's format)").arg(fieldName(s.field), QString::fromStdString(s.value));
        (s.applied ? taken : kept) << item;
    }
    QString summary = tr("Plan: %1").arg(scenarioSummary(m_comparison.scenario).toHtmlEscaped());
    summary += QStringLiteral("<br>")
        + (taken.isEmpty() ? tr("The log states no setting the scenario takes.")
                           : tr("From the log: %1").arg(taken.join(QStringLiteral(", ")).toHtmlEscaped()));
    if (!kept.isEmpty())
        summary += QStringLiteral("<br>") + tr("Kept as you set them: %1").arg(kept.join(QStringLiteral(", ")).toHtmlEscaped());
    for (const std::string &note : m_comparison.notes)
        summary += QStringLiteral("<br>⚠ ") + QString::fromStdString(note).toHtmlEscaped();
    for (const QString &warning : std::as_const(m_warnings))
        summary += QStringLiteral("<br>⚠ ") + warning.toHtmlEscaped();
    m_summary->setText(summary);

    m_table->setRowCount(0);
    for (const core::ComparisonRow &r : m_comparison.rows) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, QuantityColumn, new QTableWidgetItem(quantityName(r)));
        m_table->setItem(row, DeviceColumn, new QTableWidgetItem(QString::fromStdString(r.device)));
        if (r.isCount) {
            m_table->setItem(row, MeasuredColumn, new QTableWidgetItem(countText(r.measuredNumber)));
            m_table->setItem(row, PlannedColumn, new QTableWidgetItem(countText(r.plannedNumber)));
            const double percent = r.measuredNumber != 0 ? 100.0 * (r.plannedNumber - r.measuredNumber) / r.measuredNumber : 0;
            m_table->setItem(row, DifferenceColumn, new QTableWidgetItem(tr("%1 %").arg(percent, 0, 'f', 1)));
        } else {
            m_table->setItem(row, MeasuredColumn, bytesItem(r.measured, unit));
            m_table->setItem(row, PlannedColumn, r.planned ? bytesItem(*r.planned, unit) : new QTableWidgetItem(tr("not planned")));
            m_table->setItem(row, DifferenceColumn, new QTableWidgetItem(differenceText(r, unit)));
        }
        m_table->setItem(row, TermColumn, new QTableWidgetItem(QString::fromStdString(r.term)));
        m_table->setItem(row, LineColumn, new QTableWidgetItem(QString::number(r.line)));
    }
    m_table->resizeColumnsToContents();
    m_chart->setRows(m_comparison.rows, unit);
}

void RunCompareDialog::useLogSettings()
{
    if (!m_log)
        return;
    const core::runlog::RunLog &log = *m_log;
    const core::Catalog &catalog = m_controller->catalog();
    m_controller->update(tr("Use the log's settings"),
                         [&log, &catalog](core::Scenario &s) { s = core::scenarioFromLog(s, log, catalog, {}).scenario; });
}

void RunCompareDialog::calibrate()
{
    if (!m_log)
        return;
    auto *dialog = new CalibrationDialog(m_controller, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setRunScenario(m_run.scenario);
    dialog->setMeasurement(core::measurementFromLog(*m_log));
    dialog->open();
}

bool RunCompareDialog::keep(QString *error)
{
    const std::filesystem::path path = core::io::runArchivePath();
    if (path.empty()) {
        *error = tr("There is no user data folder to keep runs in.");
        return false;
    }
    const std::string created = QDate::currentDate().toString(Qt::ISODate).toStdString();
    std::string problem;
    if (!core::io::keepRun(path, core::io::keptRunOf(m_comparison, created, m_logName.toStdString()), problem)) {
        *error = QString::fromStdString(problem);
        return false;
    }
    return true;
}

QString RunCompareDialog::tableCsv() const
{
    QStringList lines;
    QStringList cells;
    for (int c = 0; c < m_table->columnCount(); ++c)
        cells << csvField(m_table->horizontalHeaderItem(c)->text());
    lines << cells.join(QLatin1Char(','));
    for (int r = 0; r < m_table->rowCount(); ++r) {
        cells.clear();
        for (int c = 0; c < m_table->columnCount(); ++c)
            cells << csvField(m_table->item(r, c) ? m_table->item(r, c)->text() : QString());
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace ui
