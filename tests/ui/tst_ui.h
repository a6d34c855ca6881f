#pragma once

// The main window's tests: one class, TestUi (one CTest case, tst_ui), its
// functions split by feature over tst_ui_*.cpp; the helpers they share.

#include "core/analysis/fit.h"
#include "core/scenario/fields.h"

#include <QObject>
#include <QTabWidget>

#include <vector>

namespace ui {
class MainWindow;
class ScenarioController;
} // namespace ui

Q_DECLARE_METATYPE(core::EstimateWithFits)
Q_DECLARE_METATYPE(std::vector<core::FieldId>)

namespace uitest {

/// The estimate the engine gives for the controller's scenario, fresh.
core::EstimateWithFits engineFor(const ui::ScenarioController &controller);
/// The file's bytes, or nothing if it cannot be read.
QByteArray readAll(const QString &path);
/// Opens the breakdown panel's page holding `page` (the panels fill a page
/// only while it is on screen).
void openPage(ui::MainWindow &window, QWidget *page);

} // namespace uitest

class TestUi : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void slidersDriveTheController_data();
    void slidersDriveTheController();
    void exactEntryStaysInSync();
    void chartShowsTheEngineNumbers();
    void breakdownListsEveryNonZeroTerm();
    void chartExports_data();
    void chartExports();
    void printedPageExports();
    void reportExports_data();
    void reportExports();
    void saveOpenRoundTrip();
    void badFilesChangeNothing_data();
    void badFilesChangeNothing();
    void configJsonOpens();
    void scriptedExport();
    void fitsIn1024x700();
    void chineseIsComplete();
    void languageSwitchesLive();
    void scenarioProblemsAreTranslated();
    void calibrationFitsAppliesAndShares();
    void lessonsLoadAndAgree();
    void sweepLabelsAreTheEngineCrossings();
    void whyViewExplainsWithValues();
    void presentationMode();
    void clusterPanelPlansAndApplies();
    void clusterFiguresReadAsPeopleWriteThem();
    void hiddenPagesCatchUpWhenOpened();
    void advancedSettingsFollowOtherPanels();
    void advancedFieldsTakeTheEnginesRanges();
    void wheelScrollsPastUnfocusedFields();
    void qloraShowsItsStackDefaults();
    void everyEditorShowsTheScenario();
    void editsUndoAndRedo();
    void savedFocusGpuReachesTheWindow();
    void chineseReportsHaveNoEnglishLeft_data();
    void chineseReportsHaveNoEnglishLeft();
    void fullDiskKeepsTheSavedScenario();
    void extremeScenarioSaysExceeds();
    void offeredChangesApplyInOneStep();
    void userCatalogReachesTheWindow();
};
