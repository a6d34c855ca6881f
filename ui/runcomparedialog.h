#pragma once

#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"

#include <QDialog>

#include <optional>

class QLabel;
class QTableWidget;

namespace ui {

class RunCompareChart;
class ScenarioController;

/// File > Compare with a Run: a run log read with core::runlog, the
/// window's scenario with the log's settings, and each measured quantity
/// beside the plan in a table and a bar chart. From here the user takes
/// the log's settings, calibrates from the run or keeps it in runs.json.
class RunCompareDialog : public QDialog
{
    Q_OBJECT

public:
    explicit RunCompareDialog(ScenarioController *controller, QWidget *parent = nullptr);

    /// Reads `text` (a log named `logName`: its file name, or "clipboard")
    /// and compares. An unreadable log sets `error` (naming the line and
    /// what was expected) and leaves the dialog and the window as they were.
    bool setLog(const QString &text, const QString &logName, QString *error);

    const core::RunComparison &comparison() const { return m_comparison; }
    QTableWidget *table() const { return m_table; }
    RunCompareChart *chart() const { return m_chart; }

    /// The log's settings into the window's scenario: one undoable step.
    void useLogSettings();
    /// Opens the calibration with the log's figures, fitted to the run's scenario.
    void calibrate();
    /// Appends the comparison to the user's runs.json; false with `error` on failure.
    bool keep(QString *error);
    /// The table as CSV (as shown, one header row).
    QString tableCsv() const;

    /// Table columns; the measured and planned cells hold their bytes in Qt::UserRole.
    enum Column { QuantityColumn, DeviceColumn, MeasuredColumn, PlannedColumn, DifferenceColumn, LineColumn, TermColumn };

private:
    /// Compares the log against the window's scenario as it is now.
    void recompare();
    void fill();

    ScenarioController *m_controller;
    QLabel *m_summary;
    QTableWidget *m_table;
    RunCompareChart *m_chart;
    QString m_logName;
    std::optional<core::runlog::RunLog> m_log;
    core::RunScenario m_run;
    core::RunComparison m_comparison;
    QStringList m_warnings;
};

} // namespace ui
