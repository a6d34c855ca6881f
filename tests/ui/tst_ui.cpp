#include "tests/ui/tst_ui.h"

#include "tests/support/testregistry.h"
#include "ui/breakdownpanel.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"

#include <QFile>
#include <QStandardPaths>
#include <QtTest>

namespace uitest {

/// The estimate the engine gives for the controller's scenario, fresh.
core::EstimateWithFits engineFor(const ui::ScenarioController &c)
{
    std::vector<std::string> ids;
    for (const QString &id : c.shownGpus())
        ids.push_back(id.toStdString());
    return core::estimateWithFits(c.scenario(), c.catalog(), ids);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Opens the breakdown panel's page holding `page` (the panels fill a page
/// only while it is on screen).
void openPage(ui::MainWindow &window, QWidget *page)
{
    auto *tabs = window.breakdown()->findChild<QTabWidget *>();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) == page || tabs->widget(i)->isAncestorOf(page))
            tabs->setCurrentIndex(i);
}

} // namespace uitest

void TestUi::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // keep the user's settings out of it
    QCoreApplication::setOrganizationName(QStringLiteral("VRAM Planner tests"));
    QCoreApplication::setApplicationVersion(QStringLiteral("test"));
    qRegisterMetaType<core::EstimateWithFits>();
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("offscreen"));
}

VRAM_TEST_MAIN(tst_ui, TestUi, Widgets)
