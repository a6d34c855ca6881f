#pragma once

#include "core/runs/calibration.h"
#include "core/scenario/scenario.h"

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;

namespace ui {

class ScenarioController;

/// "What did you measure?": fits the CUDA context and allocator reserve to
/// the user's nvidia-smi / torch figures for the current scenario, shows
/// estimate against measurement, applies the fit and saves it as a profile.
class CalibrationDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CalibrationDialog(ScenarioController *controller, QWidget *parent = nullptr);

    /// Fills the measured fields (as typed: "14949 MiB", "15.2 GB").
    void setMeasured(const QString &allocated, const QString &reserved, const QString &nvidiaSmi);
    /// Fills the measured fields from figures read off a run (MiB, two decimals).
    void setMeasurement(const core::Measurement &measurement);
    /// Fits against the scenario that ran (a run log's) instead of the
    /// window's; applying still changes only the window's overheads.
    void setRunScenario(const core::Scenario &scenario);
    const core::CalibrationResult &result() const { return m_result; }
    void apply();
    bool saveProfile(const QString &path, QString *error);

    /// Where profiles live by default: the user's data directory, kept
    /// across upgrades.
    static QString profileDirectory();

private:
    void refit();

    ScenarioController *m_controller;
    std::optional<core::Scenario> m_runScenario;
    QLineEdit *m_allocated;
    QLineEdit *m_reserved;
    QLineEdit *m_smi;
    QLineEdit *m_name;
    QLabel *m_report;
    core::CalibrationResult m_result;
};

} // namespace ui
