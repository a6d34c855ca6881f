#pragma once

#include <QMainWindow>

class QAction;
class QMenu;

namespace ui {

class BreakdownPanel;
class ControlsPanel;
class MemoryChart;
class ScenarioController;
struct ChartExportOptions;

/// The planner window: controls on the left, the chart above the breakdown
/// on the right, scenario files, exports, languages.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    ScenarioController *controller() const { return m_controller; }
    MemoryChart *chart() const { return m_chart; }
    BreakdownPanel *breakdown() const { return m_breakdown; }
    ControlsPanel *controls() const { return m_controls; }

    /// Opens a scenario file or a config.json; on failure nothing changes.
    bool openFile(const QString &path, QString *error);
    bool saveTo(const QString &path, QString *error);
    /// Writes a chart or report; the format comes from the file suffix.
    bool exportFile(const QString &path, const ChartExportOptions &options, QString *error);
    /// Applies a calibration profile's CUDA context and reserve.
    bool applyProfile(const QString &path, QString *error);
    /// Restores the last session's scenario and view settings (QSettings).
    void restoreSession();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    void buildMenus();
    void showEstimate();
    void updateTitle();

    bool maybeSave();
    void newScenario();
    void openDialog();
    void openConfigDialog();
    bool save();
    bool saveAs();
    void exportDialog(const QString &filter, const QString &suffix);
    void applyProfileDialog();
    void copyChart();
    void printChart();
    void chooseGpus();
    void about();
    void addRecentFile(const QString &path);
    void fillRecentMenu();
    void saveSession() const;
    void showError(const QString &message);

    ScenarioController *m_controller;
    ControlsPanel *m_controls = nullptr;
    MemoryChart *m_chart = nullptr;
    BreakdownPanel *m_breakdown = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_logAxis = nullptr;
    bool m_rebuildQueued = false;
};

} // namespace ui
