#pragma once

#include <QMainWindow>

class QComboBox;
class QPlainTextEdit;

namespace ui {

class ScenarioController;

/// Placeholder window until the planner window lands: pick a preset and a
/// mode, read the per-GPU terms the engine computes.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

private:
    void applyChoices();
    void showEstimate();

    ScenarioController *m_controller;
    QComboBox *m_preset;
    QComboBox *m_mode;
    QPlainTextEdit *m_report;
};

} // namespace ui
