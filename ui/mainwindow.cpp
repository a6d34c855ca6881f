#include "ui/mainwindow.h"

#include "core/explain/report.h"
#include "core/io/builtin.h"
#include "core/io/calibrationio.h"
#include "core/io/lessonio.h"
#include "core/io/modelfiles.h"
#include "core/io/scenarioio.h"
#include "ui/batchcontextchart.h"
#include "ui/breakdownpanel.h"
#include "ui/calibrationdialog.h"
#include "ui/chartexportdialog.h"
#include "ui/clusterpanel.h"
#include "ui/controlspanel.h"
#include "ui/deployview.h"
#include "ui/exporter.h"
#include "ui/fieldeditor.h"
#include "ui/gpupicker.h"
#include "ui/language.h"
#include "ui/lessonpanel.h"
#include "ui/matrixchart.h"
#include "ui/memorychart.h"
#include "ui/myrunsdialog.h"
#include "ui/runcomparedialog.h"
#include "ui/scenariocontroller.h"
#include "ui/scenariofile.h"
#include "ui/sweepchart.h"
#include "ui/termstyle.h"
#include "ui/utilizationdialog.h"

#include <QActionGroup>
#include <QUndoStack>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPrintDialog>
#include <QPrinter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QUrl>
#include <QTabWidget>
#include <QTimer>
#include <qcustomplot.h>

namespace ui {

namespace {

constexpr int kMaxRecentFiles = 8;
const char *const kScenarioFilter = QT_TRANSLATE_NOOP("MainWindow", "VRAM Planner scenarios (*.vramplanner.json *.json)");

QString settingsKey(const char *key) { return QString::fromLatin1(key); }

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent),
      m_catalog(core::io::loadActiveCatalog()),
      m_controller(new ScenarioController(m_catalog.catalog, this))
{
    setAcceptDrops(true);
    setMinimumSize(1024, 700);
    buildUi();
    connect(m_controller, &ScenarioController::estimateChanged, this, &MainWindow::showEstimate);
    connect(m_controller, &ScenarioController::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_controller, &ScenarioController::unitChanged, this, &MainWindow::showEstimate);
    showEstimate();
    updateTitle();
    resize(1440, 900);
    reportUserCatalog();
}

void MainWindow::reportUserCatalog()
{
    const QString path = QString::fromStdString(core::io::userCatalogPath().string());
    if (m_catalog.problems.empty()) {
        if (m_catalog.userEntries > 0)
            statusBar()->showMessage(tr("Your GPUs were loaded from %1").arg(path), 10000);
        return;
    }
    QStringList problems;
    for (const std::string &problem : m_catalog.problems)
        problems << QString::fromStdString(problem);
    // Non-modal: the window stays usable with the built-in catalog.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Your GPU catalog was not loaded"),
                                tr("%1 could not be read; the built-in catalog is used.").arg(path), QMessageBox::Ok, this);
    box->setDetailedText(problems.join(QLatin1Char('\n')));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::openUserDataFolder()
{
    const QString folder = QString::fromStdString(core::io::userDataDirectory().string());
    if (folder.isEmpty() || !QDir().mkpath(folder)) {
        showError(tr("No user data folder could be created (%1).").arg(folder));
        return;
    }
    QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
}

void MainWindow::buildUi()
{
    m_controls = new ControlsPanel(m_controller);
    connect(m_controls, &ControlsPanel::openModelRequested, this, &MainWindow::openModelDialog);
    auto *scroll = new QScrollArea;
    m_controlsArea = scroll;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    // Wide enough for the panel and its scroll bar: nothing is ever clipped.
    scroll->setMinimumWidth(m_controls->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width()
                            + 2 * scroll->frameWidth());
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_chart = new MemoryChart;
    m_chart->setUnit(m_controller->unit());
    m_breakdown = new BreakdownPanel;
    connect(m_breakdown, &BreakdownPanel::changesChosen, this,
            [this](const QString &what, const std::vector<core::FieldChange> &changes) {
                m_controller->update(what, [&changes](core::Scenario &s) { core::applyChanges(s, changes); });
            });
    m_cluster = new ClusterPanel(m_controller);
    // Scrolls rather than widening the window below 1024 pixels.
    auto *clusterScroll = new QScrollArea;
    clusterScroll->setWidget(m_cluster);
    clusterScroll->setWidgetResizable(true);
    clusterScroll->setFrameShape(QFrame::NoFrame);
    m_breakdown->addPage(clusterScroll, tr("C&luster"));
    m_contextSweep = new SweepChart(core::SweepAxis::Sequence);
    m_batchSweep = new SweepChart(core::SweepAxis::Batch);
    m_chartTabs = new QTabWidget;
    m_chartTabs->addTab(m_chart, tr("Per &GPU"));
    m_chartTabs->addTab(m_contextSweep, tr("Memory vs &context"));
    m_chartTabs->addTab(m_batchSweep, tr("Memory vs &batch"));
    // The serving questions, the format matrix and the batch x context map
    // take the chart's room: each is a full view, exported like a chart.
    m_deploy = new DeployView;
    m_matrix = new MatrixChart;
    m_batchContext = new BatchContextChart;
    m_chartTabs->addTab(m_deploy, tr("&Deploy"));
    m_chartTabs->addTab(m_matrix, tr("Format matr&ix"));
    m_chartTabs->addTab(m_batchContext, tr("Batch × conte&xt"));
    connect(m_chartTabs, &QTabWidget::currentChanged, this, &MainWindow::updateExportActions);
    connect(m_chartTabs, &QTabWidget::currentChanged, this, &MainWindow::refreshCurrentChart);
    connect(m_deploy, &DeployView::planRequested, this, &MainWindow::planServing);
    connect(m_deploy, &DeployView::fitsRequested, this, [this] {
        m_deploy->dropPlan();
        refreshCurrentChart();
        updateExportActions();
    });

    auto *right = new QSplitter(Qt::Vertical);
    right->addWidget(m_chartTabs);
    right->addWidget(m_breakdown);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({380, 1060});
    setCentralWidget(split);
    buildMenus();
}

void MainWindow::buildMenus()
{
    menuBar()->clear();
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newScenario);
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    file->addAction(tr("Open &Model…"), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::openModelDialog);
    file->addAction(tr("Open Model &Folder…"), this, &MainWindow::openModelFolderDialog);
    file->addAction(tr("Compare with a &Run…"), this, &MainWindow::compareDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    fillRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("Chart as &PNG…"), this, [this] { exportDialog(tr("PNG images (*.png)"), QStringLiteral("png")); });
    exportMenu->addAction(tr("Chart as &SVG…"), this, [this] { exportDialog(tr("SVG drawings (*.svg)"), QStringLiteral("svg")); });
    exportMenu->addAction(tr("Chart as P&DF…"), this, [this] { exportDialog(tr("PDF documents (*.pdf)"), QStringLiteral("pdf")); });
    exportMenu->addSeparator();
    m_reportExports = {
        exportMenu->addAction(QString(), this, [this] { exportDialog(tr("Markdown (*.md)"), QStringLiteral("md")); }),
        exportMenu->addAction(QString(), this, [this] { exportDialog(tr("CSV (*.csv)"), QStringLiteral("csv")); }),
        exportMenu->addAction(QString(), this, [this] { exportDialog(tr("JSON (*.json)"), QStringLiteral("json")); })};
    exportMenu->addAction(tr("One-Page Report as PD&F…"), this,
                          [this] { exportDialog(tr("PDF documents (*.pdf)"), QStringLiteral("pdf"), true); });
    updateExportActions();
    file->addAction(tr("Cop&y Chart"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::copyChart);
    file->addAction(tr("&Print Chart…"), QKeySequence::Print, this, &MainWindow::printChart);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_controller->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction *redo = m_controller->undoStack()->createRedoAction(this, tr("&Redo"));
    // The platform's own keys (Ctrl+Y on Windows) and Ctrl+Shift+Z
    // everywhere, each once: on X11 the platform's Redo is Ctrl+Shift+Z, and
    // naming it twice made Qt drop the key as an ambiguous overload.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (const QKeySequence everywhere(tr("Ctrl+Shift+Z")); !redoKeys.contains(everywhere))
        redoKeys.prepend(everywhere);
    redo->setShortcuts(redoKeys);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("Paste &Log"), this, [this] {
        QString error;
        if (!compareLog(QApplication::clipboard()->text(), tr("the clipboard"), &error))
            showError(error);
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *units = new QActionGroup(view);
    QAction *gib = view->addAction(tr("Binary units (&GiB)"));
    QAction *gb = view->addAction(tr("Decimal units (G&B)"));
    for (QAction *a : {gib, gb}) {
        a->setCheckable(true);
        units->addAction(a);
    }
    (m_controller->unit() == core::ByteUnit::GiB ? gib : gb)->setChecked(true);
    connect(gib, &QAction::triggered, this, [this] { m_controller->setUnit(core::ByteUnit::GiB); });
    connect(gb, &QAction::triggered, this, [this] { m_controller->setUnit(core::ByteUnit::GB); });
    view->addSeparator();
    view->addAction(tr("Choose &GPUs…"), QKeySequence(tr("Ctrl+G")), this, &MainWindow::chooseGpus);
    m_presentation = view->addAction(tr("&Presentation Mode"));
    m_presentation->setShortcut(QKeySequence(Qt::Key_F11));
    m_presentation->setCheckable(true);
    connect(m_presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addSeparator();
    QMenu *language = view->addMenu(tr("&Language"));
    auto *languages = new QActionGroup(language);
    const QString current = QSettings().value(settingsKey("language")).toString();
    for (const auto &[code, name] : availableLanguages()) {
        QAction *a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == current);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [code = code] {
            QSettings().setValue(settingsKey("language"), code);
            applyLanguage(code);
        });
    }

    m_lessonsMenu = menuBar()->addMenu(tr("L&essons"));
    fillLessonsMenu();

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(tr("&Calibrate…"), this, [this] { CalibrationDialog(m_controller, this).exec(); });
    tools->addAction(tr("&Apply Calibration Profile…"), this, &MainWindow::applyProfileDialog);
    tools->addAction(tr("GPU &Utilisation…"), this, [this] { openTool(QStringLiteral("utilization")); });
    tools->addAction(tr("My &Runs…"), this, [this] { openTool(QStringLiteral("runs")); });
    tools->addSeparator();
    tools->addAction(tr("Open My &Data Folder"), this, &MainWindow::openUserDataFolder);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About VRAM Planner"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() != QEvent::LanguageChange || m_rebuildQueued)
        return;
    // Rebuild after the event has reached every child: the widgets hold
    // only presentation, the state lives in the controller.
    m_rebuildQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_rebuildQueued = false;
        buildUi();
        showEstimate();
        updateTitle();
        if (m_lesson && m_lessonDock) {
            m_lessonDock->setWindowTitle(tr("Lesson"));
            m_lessonPanel->showLesson(*m_lesson, m_controller->catalog(), currentLanguage(), m_controller->unit());
        }
    });
}

void MainWindow::showEstimate()
{
    const core::EstimateWithFits &r = m_controller->result();
    const core::Scenario &s = r.scenario; // as estimated: with a mixed device set's split
    m_chart->setUnit(m_controller->unit());
    m_chart->setTitle(scenarioSummary(s));
    m_chart->showEstimate(s, r, m_controller->catalog());
    m_breakdown->showEstimate(s, r, m_controller->catalog(), m_controller->unit());
    // A serving plan answered the scenario as it was.
    if (m_deploy->servingPlan()) {
        m_deploy->dropPlan();
        updateExportActions();
    }
    refreshCurrentChart();
}

void MainWindow::planServing()
{
    // A training run has no serving plan; the Deploy view says so.
    const core::Scenario &base = m_controller->scenario();
    if (base.isTraining())
        return;
    // Thousands of estimates: a moment, so it runs when asked, not per change.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    DeployView::ShownPlan shown{base, core::servingPlanRequest(base, m_controller->selectedGpuIds()), {}};
    shown.plan = core::planServing(base, m_controller->catalog(), shown.request);
    m_deploy->showServingPlan(std::move(shown), m_controller->catalog());
    QApplication::restoreOverrideCursor();
    updateExportActions();
}

void MainWindow::refreshCurrentChart()
{
    // Sweeps cost a hundred estimates, the views after them thousands: only
    // the one on screen is drawn.
    QWidget *current = m_chartTabs->currentWidget();
    const core::Scenario &s = m_controller->result().scenario; // as estimated: with a mixed device set's split
    const core::Catalog &catalog = m_controller->catalog();
    const core::ByteUnit unit = m_controller->unit();
    if (auto *sweep = qobject_cast<SweepChart *>(current))
        sweep->showSweep(s, m_controller->result(), catalog, unit);
    else if (current == m_deploy && !m_deploy->servingPlan())
        m_deploy->showDeployment(m_controller->deployment(), catalog, m_controller->selectedGpuIds(), unit);
    else if (current == m_matrix)
        m_matrix->showMatrix(s, catalog, m_controller->selectedGpuIds(), unit);
    else if (current == m_batchContext)
        m_batchContext->showGrid(s, catalog, m_controller->selectedGpuIds(), unit);
}

QCustomPlot *MainWindow::currentPlot() const
{
    QWidget *current = m_chartTabs->currentWidget();
    if (auto *sweep = qobject_cast<SweepChart *>(current))
        return sweep->plot();
    if (current == m_deploy)
        return m_deploy->plot();
    if (current == m_matrix)
        return m_matrix->plot();
    if (current == m_batchContext)
        return m_batchContext->plot();
    return m_chart->plot();
}

void MainWindow::updateExportActions()
{
    if (m_reportExports.size() != 3)
        return;
    const bool matrix = m_chartTabs->currentWidget() == m_matrix;
    const bool plan = m_chartTabs->currentWidget() == m_deploy && m_deploy->servingPlan();
    m_reportExports[0]->setText(matrix ? tr("Matrix as &Markdown…") : plan ? tr("Serving plan as &Markdown…") : tr("Report as &Markdown…"));
    m_reportExports[1]->setText(matrix ? tr("Matrix as &CSV…") : plan ? tr("Serving plan as &CSV…") : tr("Report as &CSV…"));
    m_reportExports[2]->setText(matrix ? tr("Matrix as &JSON…") : plan ? tr("Serving plan as &JSON…") : tr("Report as &JSON…"));
}

FieldEditor *MainWindow::fieldEditor(core::FieldId id) const
{
    for (FieldEditor *editor : findChildren<FieldEditor *>())
        if (editor->fieldId() == id)
            return editor;
    return nullptr;
}

void MainWindow::showLesson(const core::Lesson &lesson)
{
    m_controller->setFilePath(QString());
    m_controller->setScenario(lesson.scenario);
    if (!m_lessonDock) {
        m_lessonDock = new QDockWidget(this);
        m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
        m_lessonPanel = new LessonPanel;
        connect(m_lessonPanel, &LessonPanel::toolRequested, this, &MainWindow::openTool);
        m_lessonDock->setWidget(m_lessonPanel);
        addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    }
    m_lesson = lesson;
    m_lessonDock->setWindowTitle(tr("Lesson"));
    m_lessonPanel->showLesson(lesson, m_controller->catalog(), currentLanguage(), m_controller->unit());
    m_lessonDock->show();
    updateTitle();
}

void MainWindow::fillLessonsMenu()
{
    m_lessonsMenu->clear();
    const std::string language = currentLanguage().toStdString();
    const auto addLessons = [this, &language](const std::vector<core::Lesson> &lessons) {
        for (const core::Lesson &lesson : lessons) {
            QString seeds;
            for (const std::string &f : lesson.seedFacts)
                seeds += (seeds.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(f);
            m_lessonsMenu->addAction(QStringLiteral("%1  (%2)").arg(QString::fromStdString(core::localized(lesson.title, language)), seeds),
                                     this, [this, lesson] {
                                         if (maybeSave())
                                             showLesson(lesson);
                                     });
        }
    };
    addLessons(core::io::builtinLessons());
    if (!m_extraLessons.empty()) {
        m_lessonsMenu->addSeparator();
        addLessons(m_extraLessons);
    }
    m_lessonsMenu->addSeparator();
    m_lessonsMenu->addAction(tr("Open Lessons &File…"), this, &MainWindow::openLessonsDialog);
}

void MainWindow::openLessonsDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Lessons"), QString(), tr("Lessons (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    const auto text = scenariofile::readLimited(path, &error);
    if (!text) {
        showError(error);
        return;
    }
    const auto lessons = core::io::loadLessons(text->toStdString(), core::io::builtinPresets());
    if (!lessons.ok()) {
        QStringList problems;
        for (const std::string &e : lessons.errors)
            problems << QString::fromStdString(e);
        showError(tr("%1 is not a lessons file:\n%2").arg(QFileInfo(path).fileName(), problems.join(QLatin1Char('\n'))));
        return;
    }
    m_extraLessons = *lessons.value;
    fillLessonsMenu();
    if (!m_extraLessons.empty() && maybeSave())
        showLesson(m_extraLessons.front());
}

QDialog *MainWindow::openTool(const QString &name)
{
    QDialog *dialog = name == QLatin1String("utilization")
        ? static_cast<QDialog *>(new UtilizationDialog(m_controller->scenario(), m_controller->catalog(), this))
        : name == QLatin1String("runs") ? static_cast<QDialog *>(new MyRunsDialog(m_controller->unit(), this))
                                        : nullptr;
    if (!dialog)
        return nullptr;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

bool MainWindow::showChart(const QString &name)
{
    QWidget *tab = name == QLatin1String("context") ? static_cast<QWidget *>(m_contextSweep)
        : name == QLatin1String("batch")            ? static_cast<QWidget *>(m_batchSweep)
        : name == QLatin1String("gpus")             ? static_cast<QWidget *>(m_chart)
        : name == QLatin1String("deploy") || name == QLatin1String("serve-plan") ? static_cast<QWidget *>(m_deploy)
        : name == QLatin1String("matrix")           ? static_cast<QWidget *>(m_matrix)
        : name == QLatin1String("heatmap")          ? static_cast<QWidget *>(m_batchContext)
                                                    : nullptr;
    if (tab)
        m_chartTabs->setCurrentWidget(tab);
    // The Deploy view's Plan for Me, as if pressed.
    if (name == QLatin1String("serve-plan"))
        planServing();
    // The pages below the chart: the cluster layout and the rules of thumb.
    if (name == QLatin1String("cluster") || name == QLatin1String("rules"))
        m_breakdown->showPage(name == QLatin1String("rules") ? 2 : 3);
    return tab != nullptr || name == QLatin1String("cluster") || name == QLatin1String("rules");
}

void MainWindow::setChartsPresentation(bool on)
{
    m_chart->setPresentation(on);
    m_contextSweep->setPresentation(on);
    m_batchSweep->setPresentation(on);
    m_deploy->setPresentation(on);
    m_matrix->setPresentation(on);
    m_batchContext->setPresentation(on);
    refreshCurrentChart();
}

void MainWindow::setPresentationMode(bool on)
{
    m_controlsArea->setVisible(!on);
    m_breakdown->setVisible(!on);
    setChartsPresentation(on);
    // A lesson being taught stays beside the chart, in a size a room can read.
    if (m_lessonPanel) {
        QFont font = QApplication::font(m_lessonPanel);
        if (on)
            font.setPointSizeF(font.pointSizeF() * 1.5);
        m_lessonPanel->setFont(font);
    }
    if (on)
        showFullScreen();
    else
        showNormal();
    if (m_presentation && m_presentation->isChecked() != on)
        m_presentation->setChecked(on);
}

void MainWindow::updateTitle()
{
    const QString name = m_controller->filePath().isEmpty() ? tr("Untitled") : QFileInfo(m_controller->filePath()).fileName();
    setWindowTitle(tr("%1[*] — VRAM Planner").arg(name));
    setWindowModified(m_controller->isModified());
}

bool MainWindow::maybeSave()
{
    if (!m_controller->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                             tr("The scenario has been modified. Save your changes?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newScenario()
{
    if (!maybeSave())
        return;
    closeLesson();
    m_controller->setFilePath(QString());
    m_controller->setScenario(ScenarioController::defaultScenario());
    updateTitle();
}

void MainWindow::closeLesson()
{
    // A lesson explains its own scenario; another one makes it wrong.
    m_lesson.reset();
    if (m_lessonDock)
        m_lessonDock->hide();
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    // Weights are read by their headers only; a scenario or a config.json
    // is read whole.
    const QFileInfo info(path);
    const bool weights = info.isDir() || info.suffix().compare(QLatin1String("gguf"), Qt::CaseInsensitive) == 0
        || info.suffix().compare(QLatin1String("safetensors"), Qt::CaseInsensitive) == 0;
    if (!weights) {
        const auto text = scenariofile::readLimited(path, error);
        if (!text)
            return false;
        if (scenariofile::looksLikeScenario(*text)) {
            const auto scenario = scenariofile::load(path, error);
            if (!scenario)
                return false;
            closeLesson();
            m_controller->setFilePath(path);
            m_controller->setScenario(*scenario);
            addRecentFile(path);
            updateTitle();
            return true;
        }
    }
    return openModel(path, error);
}

bool MainWindow::openModel(const QString &path, QString *error)
{
    const auto files = core::io::loadModelFiles(path.toStdString());
    if (!files.ok()) {
        QStringList problems;
        for (const std::string &e : files.errors)
            problems << QString::fromStdString(e);
        *error = tr("%1 cannot be read as a model:\n%2").arg(QFileInfo(path).fileName(), problems.join(QLatin1Char('\n')));
        return false;
    }
    m_controller->useModel(files.value->model, {core::ModelSource::Kind::ConfigFile, "", path.toStdString(), 0},
                           files.value->checkpoint);
    addRecentFile(path);
    QStringList warnings;
    for (const std::string &w : files.warnings)
        warnings << QString::fromStdString(w);
    if (!warnings.isEmpty())
        statusBar()->showMessage(warnings.join(QStringLiteral("; ")), 15000);
    return true;
}

void MainWindow::openDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(), tr(kScenarioFilter));
    QString error;
    if (!path.isEmpty() && !openFile(path, &error))
        showError(error);
}

void MainWindow::openModelDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Model"), QString(),
        tr("Model files (config.json *.json *.gguf *.safetensors);;GGUF (*.gguf);;Hugging Face config (config.json *.json)"));
    QString error;
    if (!path.isEmpty() && !openModel(path, &error))
        showError(error);
}

void MainWindow::openModelFolderDialog()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open Model Folder"));
    QString error;
    if (!path.isEmpty() && !openModel(path, &error))
        showError(error);
}

bool MainWindow::saveTo(const QString &path, QString *error)
{
    if (!scenariofile::save(m_controller->scenario(), path, error))
        return false;
    m_controller->setFilePath(path);
    m_controller->setModified(false);
    addRecentFile(path);
    updateTitle();
    return true;
}

bool MainWindow::save()
{
    if (m_controller->filePath().isEmpty())
        return saveAs();
    QString error;
    if (saveTo(m_controller->filePath(), &error))
        return true;
    showError(error);
    return false;
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario"), m_controller->filePath(), tr(kScenarioFilter));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".vramplanner.json");
    QString error;
    if (saveTo(path, &error))
        return true;
    showError(error);
    return false;
}

bool MainWindow::exportFile(const QString &path, const ChartExportOptions &options, QString *error)
{
    const auto format = exportFormatForPath(path);
    if (!format) {
        *error = tr("Unknown export format for %1 (use .png, .svg, .pdf, .md, .csv or .json).").arg(path);
        return false;
    }
    // The chart on screen: a sweep or view is drawn for export even if never shown.
    refreshCurrentChart();
    if (m_chartTabs->currentWidget() == m_matrix && isReport(*format))
        return exportMatrix(path, *format, *m_controller, m_matrix->matrix(), error);
    if (const DeployView::ShownPlan *plan = m_chartTabs->currentWidget() == m_deploy ? m_deploy->servingPlan() : nullptr;
        plan && isReport(*format))
        return exportServingPlan(path, *format, *m_controller, plan->base, plan->plan, plan->request, error);
    return exportTo(path, *format, *m_controller, *m_chart, currentPlot(), options, error);
}

void MainWindow::exportDialog(const QString &filter, const QString &suffix, bool report)
{
    ChartExportOptions options;
    options.report = report;
    const auto format = exportFormatForPath(QStringLiteral("chart.") + suffix);
    if (format && !isReport(*format) && !report) {
        ChartExportDialog dialog(*format, this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        options = dialog.options();
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), QStringLiteral("vram-estimate.") + suffix, filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    QString error;
    if (exportFile(path, options, &error))
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    else
        showError(error);
}

bool MainWindow::applyProfile(const QString &path, QString *error)
{
    const auto text = scenariofile::readLimited(path, error);
    if (!text)
        return false;
    const auto profile = core::io::loadCalibration(text->toStdString());
    if (!profile.ok()) {
        QStringList problems;
        for (const std::string &e : profile.errors)
            problems << QString::fromStdString(e);
        *error = tr("%1 is not a calibration profile:\n%2").arg(QFileInfo(path).fileName(), problems.join(QLatin1Char('\n')));
        return false;
    }
    const core::CalibrationProfile p = *profile.value;
    m_controller->update(tr("Apply calibration"), [&p](core::Scenario &s) { s = core::withCalibration(s, p); });
    statusBar()->showMessage(tr("Calibration '%1' applied").arg(QString::fromStdString(p.name)), 5000);
    return true;
}

void MainWindow::applyProfileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Apply Calibration Profile"),
                                                      CalibrationDialog::profileDirectory(),
                                                      tr("Calibration profiles (*.json)"));
    QString error;
    if (!path.isEmpty() && !applyProfile(path, &error))
        showError(error);
}

void MainWindow::copyChart()
{
    QCustomPlot *plot = currentPlot();
    QApplication::clipboard()->setPixmap(plot->toPixmap(plot->width(), plot->height(), devicePixelRatioF()));
    statusBar()->showMessage(tr("Chart copied to the clipboard"), 3000);
}

void MainWindow::printChart()
{
    QPrinter printer(QPrinter::HighResolution);
    printer.setPageOrientation(QPageLayout::Landscape);
    QPrintDialog dialog(&printer, this);
    if (dialog.exec() == QDialog::Accepted)
        m_chart->print(&printer);
}

void MainWindow::chooseGpus()
{
    GpuPicker picker(m_controller->catalog(), m_controller->shownGpus(), this);
    if (picker.exec() == QDialog::Accepted)
        m_controller->setShownGpus(picker.chosen());
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About VRAM Planner"),
        tr("<h3>VRAM Planner %1</h3>"
           "<p>How much GPU memory does a large language model need, and which GPUs can run it?</p>"
           "<p>Every figure can be traced to its formula and source: select a term in the breakdown.</p>"
           "<p>VRAM Planner's own code is under the MIT license. This program links "
           "Qt %2 (LGPL v3), QCustomPlot (GPL v3) and nlohmann/json (MIT); "
           "as distributed, the program as a whole is therefore under the GPL v3.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(settingsKey("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(settingsKey("recentFiles"), recent);
    fillRecentMenu();
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(settingsKey("recentFiles")).toStringList();
    for (const QString &path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (!maybeSave())
                return;
            QString error;
            if (!openFile(path, &error))
                showError(error);
        })->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreSession()
{
    QSettings settings;
    const QString last = settings.value(settingsKey("lastScenario")).toString();
    if (!last.isEmpty()) {
        const auto loaded = core::io::loadScenario(last.toStdString(), core::io::builtinPresets());
        if (loaded.ok()) {
            m_controller->setScenario(*loaded.value);
            m_controller->setFilePath(settings.value(settingsKey("lastFile")).toString());
            m_controller->setModified(settings.value(settingsKey("lastModified")).toBool());
        }
    }
    const QStringList shown = settings.value(settingsKey("shownGpus")).toStringList();
    if (!shown.isEmpty())
        m_controller->setShownGpus(shown);
    m_controller->setUnit(settings.value(settingsKey("unit")).toString() == QLatin1String("gb") ? core::ByteUnit::GB
                                                                                               : core::ByteUnit::GiB);
    restoreGeometry(settings.value(settingsKey("geometry")).toByteArray());
    buildMenus();
    updateTitle();
}

void MainWindow::saveSession() const
{
    QSettings settings;
    settings.setValue(settingsKey("lastScenario"), QString::fromStdString(core::io::saveScenario(m_controller->scenario())));
    settings.setValue(settingsKey("lastFile"), m_controller->filePath());
    settings.setValue(settingsKey("lastModified"), m_controller->isModified());
    settings.setValue(settingsKey("shownGpus"), m_controller->shownGpus());
    settings.setValue(settingsKey("unit"), m_controller->unit() == core::ByteUnit::GB ? QStringLiteral("gb") : QStringLiteral("gib"));
    settings.setValue(settingsKey("geometry"), saveGeometry());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // The last scenario is restored on the next start, saved to a file or not.
    saveSession();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

QDialog *MainWindow::compareLog(const QString &text, const QString &logName, QString *error)
{
    auto *dialog = new RunCompareDialog(m_controller, this);
    if (!dialog->setLog(text, logName, error)) {
        delete dialog;
        return nullptr;
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

QDialog *MainWindow::compareLogFile(const QString &path, QString *error)
{
    const auto text = scenariofile::readLimited(path, error);
    return text ? compareLog(QString::fromUtf8(*text), QFileInfo(path).fileName(), error) : nullptr;
}

void MainWindow::compareDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with a Run"), QString(),
                                                      tr("Run logs (*.log *.txt *.out *.csv *.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !compareLogFile(path, &error))
        showError(error);
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = event->mimeData()->urls().first().toLocalFile();
    // Engines' and nvidia-smi's output, saved as text: a run to compare, not a scenario.
    static const QStringList kLogSuffixes = {QStringLiteral("log"), QStringLiteral("txt"), QStringLiteral("out"),
                                             QStringLiteral("csv")};
    if (kLogSuffixes.contains(QFileInfo(path).suffix(), Qt::CaseInsensitive)) {
        QString error;
        if (!compareLogFile(path, &error))
            showError(error);
        event->acceptProposedAction();
        return;
    }
    if (!maybeSave())
        return;
    QString error;
    if (!openFile(path, &error))
        showError(error);
    event->acceptProposedAction();
}

void MainWindow::showError(const QString &message)
{
    QMessageBox::warning(this, tr("VRAM Planner"), message);
}

} // namespace ui
