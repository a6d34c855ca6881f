#include "ui/mainwindow.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("VRAM Planner"));
    QApplication::setApplicationVersion(QStringLiteral(VRAMPLANNER_VERSION));
    QApplication::setOrganizationName(QStringLiteral("VRAM Planner"));
    ui::MainWindow window;
    window.show();
    return app.exec();
}
