#pragma once

#include "core/explain/lessons.h"
#include "core/io/usercatalog.h"
#include "core/scenario/fields.h"

#include <QMainWindow>

#include <optional>
#include <vector>

class QAction;
class QCustomPlot;
class QDialog;
class QDockWidget;
class QMenu;
class QScrollArea;
class QTabWidget;


namespace ui {

class BatchContextChart;
class BreakdownPanel;
class ClusterPanel;
class DeployView;
class MatrixChart;
class ControlsPanel;
class FieldEditor;
class LessonPanel;
class MemoryChart;
class SweepChart;
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
    SweepChart *contextSweep() const { return m_contextSweep; }
    SweepChart *batchSweep() const { return m_batchSweep; }
    QTabWidget *chartTabs() const { return m_chartTabs; }
    LessonPanel *lessonPanel() const { return m_lessonPanel; }
    ClusterPanel *cluster() const { return m_cluster; }
    DeployView *deployView() const { return m_deploy; }
    MatrixChart *matrixChart() const { return m_matrix; }
    BatchContextChart *batchContextChart() const { return m_batchContext; }
    /// The editor of a scenario field, wherever the window places it.
    FieldEditor *fieldEditor(core::FieldId id) const;

    /// Loads a lesson's scenario and shows its question, answer and checks.
    void showLesson(const core::Lesson &lesson);
    /// Hides the lesson: File > New or another file replaced its scenario.
    void closeLesson();
    /// Opens a tool over the window: "utilization", the GPU utilisation
    /// calculator, prefilled from the scenario, or "runs", the user's kept
    /// runs. Null for another name.
    QDialog *openTool(const QString &name);
    /// Brings a chart to the front: "gpus", "context", "batch", "deploy",
    /// "matrix" or "heatmap"; or a page below it: "cluster", "rules".
    bool showChart(const QString &name);
    /// Large fonts, high contrast, chart only, full screen.
    void setPresentationMode(bool on);
    /// The charts alone in presentation style (for a scripted export).
    void setChartsPresentation(bool on);

    /// Opens a scenario file or a config.json; on failure nothing changes.
    /// A scenario file, or a model: a folder, config.json or .gguf.
    bool openFile(const QString &path, QString *error);
    /// A model from disk (see core::io::loadModelFiles).
    bool openModel(const QString &path, QString *error);
    bool saveTo(const QString &path, QString *error);
    /// Writes a chart or report; the format comes from the file suffix.
    bool exportFile(const QString &path, const ChartExportOptions &options, QString *error);
    /// Compares a run log (`logName`: its file name, or the clipboard) with
    /// the scenario in a dialog over the window; null with `error` naming
    /// the line and what was expected when it cannot be read, and nothing changes.
    QDialog *compareLog(const QString &text, const QString &logName, QString *error);
    /// compareLog on a file's text.
    QDialog *compareLogFile(const QString &path, QString *error);
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
    /// Draws the chart tab on screen: the sweeps, serving table, matrix and
    /// heat map cost many estimates, so those off screen wait.
    void refreshCurrentChart();
    /// The Deploy view's Plan for Me: the serving plan over the GPUs shown.
    void planServing();
    /// The current chart tab's plot (exports, copy, print).
    QCustomPlot *currentPlot() const;
    /// The report exports name what they write: on the matrix tab, the matrix.
    void updateExportActions();
    void updateTitle();
    void fillLessonsMenu();
    void openLessonsDialog();

    bool maybeSave();
    void newScenario();
    void openDialog();
    void openModelDialog();
    void openModelFolderDialog();
    void compareDialog();
    bool save();
    bool saveAs();
    void exportDialog(const QString &filter, const QString &suffix, bool report = false);
    void applyProfileDialog();
    void copyChart();
    void printChart();
    void chooseGpus();
    void about();
    void addRecentFile(const QString &path);
    void fillRecentMenu();
    void saveSession() const;
    void showError(const QString &message);
    void reportUserCatalog();
    void openUserDataFolder();

    /// Built-in GPUs plus the user's gpus.json; outlives the controller.
    const core::io::ActiveCatalog m_catalog;
    ScenarioController *m_controller;
    ControlsPanel *m_controls = nullptr;
    MemoryChart *m_chart = nullptr;
    BreakdownPanel *m_breakdown = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    SweepChart *m_contextSweep = nullptr;
    ClusterPanel *m_cluster = nullptr;
    SweepChart *m_batchSweep = nullptr;
    DeployView *m_deploy = nullptr;
    MatrixChart *m_matrix = nullptr;
    BatchContextChart *m_batchContext = nullptr;
    QList<QAction *> m_reportExports; ///< Markdown, CSV, JSON
    QScrollArea *m_controlsArea = nullptr;
    QDockWidget *m_lessonDock = nullptr;
    LessonPanel *m_lessonPanel = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_lessonsMenu = nullptr;
    QAction *m_presentation = nullptr;
    std::vector<core::Lesson> m_extraLessons;
    std::optional<core::Lesson> m_lesson; ///< the lesson on show, re-shown after a language change
    bool m_rebuildQueued = false;
};

} // namespace ui
