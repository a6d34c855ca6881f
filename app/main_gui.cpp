// vramplanner: the planner window, or (with --export) a scripted export
// that renders offscreen, writes the file and exits.

#include "core/io/builtin.h"
#include "ui/exporter.h"
#include "ui/language.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QMessageBox>
#include <QSettings>
#include <QTimer>

#include <algorithm>

#include <cstdio>
#include <cstring>

namespace {

/// A scripted export and the help and version texts need no display: pick
/// the offscreen platform before Qt starts, so that they run where no
/// window system is (a terminal over ssh, CI) instead of aborting.
void preferOffscreenWithoutWindow(int argc, char **argv)
{
    static const char *const kNoWindow[] = {"--export", "--help", "-h", "--help-all", "--version", "-v"};
    for (int i = 1; i < argc; ++i)
        for (const char *option : kNoWindow)
            if (std::strcmp(argv[i], option) == 0 && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
}

int fail(const QString &message)
{
    std::fprintf(stderr, "vramplanner: %s\n", qPrintable(message));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    preferOffscreenWithoutWindow(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("VRAM Planner"));
    QApplication::setApplicationVersion(QStringLiteral(VRAMPLANNER_VERSION));
    QApplication::setOrganizationName(QStringLiteral("VRAM Planner"));
    QApplication::setDesktopFileName(QStringLiteral("vramplanner"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("VRAM Planner: GPU memory for large language models"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Open a scenario or config.json file."),
                                  QStringLiteral("file"));
    const QCommandLineOption exportTo(QStringLiteral("export"),
                                      QStringLiteral("Write the chart (.png .svg .pdf) or report (.md .csv .json; with --view matrix, the matrix) and exit."),
                                      QStringLiteral("file"));
    const QCommandLineOption lang(QStringLiteral("lang"), QStringLiteral("Interface language: en or zh_CN."),
                                  QStringLiteral("code"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Chart export size, default 1600x1000; with --screenshot, the window's size."),
                                  QStringLiteral("WxH"));
    QStringList pageIds;
    for (const ui::ExportPage &page : ui::exportPages())
        pageIds << QString::fromLatin1(page.id);
    const QCommandLineOption page(QStringLiteral("page"),
                                  QStringLiteral("Lay the chart out for a printed size instead of --size: %1 "
                                                 "(landscape pages; text keeps its point size; .pdf and .svg default to a4).")
                                      .arg(pageIds.join(QStringLiteral(", "))),
                                  QStringLiteral("size"));
    const QCommandLineOption report(QStringLiteral("report"),
                                    QStringLiteral("With --export FILE.pdf: the one-page report (chart, breakdown, fits, "
                                                   "what would fit, assumptions, sources), on --page (portrait; default a4)."));
    const QCommandLineOption dpi(QStringLiteral("dpi"), QStringLiteral("PNG resolution with --page, default 300."),
                                 QStringLiteral("N"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a screenshot of the window once shown, then exit."),
                                        QStringLiteral("file"));
    const QCommandLineOption lesson(QStringLiteral("lesson"), QStringLiteral("Open a lesson by id (see the Lessons menu)."),
                                    QStringLiteral("id"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("Chart or page to show: gpus, context, batch, deploy, serve-plan (Deploy with Plan for Me), matrix, heatmap, cluster or rules."),
                                  QStringLiteral("chart"));
    const QCommandLineOption presentation(QStringLiteral("presentation"), QStringLiteral("Start in presentation mode."));
    const QCommandLineOption tool(QStringLiteral("tool"),
                                  QStringLiteral("Open a tool over the window: utilization or runs (the screenshot shows it)."),
                                  QStringLiteral("name"));
    const QCommandLineOption compareLog(QStringLiteral("compare-log"),
                                        QStringLiteral("Compare a run's log with the scenario (the screenshot shows it)."),
                                        QStringLiteral("file"));
    parser.addOptions({open, exportTo, lang, size, page, dpi, report, screenshot, lesson, view, presentation, tool, compareLog});
    parser.process(app);

    const QString language = parser.isSet(lang) ? parser.value(lang) : QSettings().value(QStringLiteral("language")).toString();
    ui::applyLanguage(language);

    ui::MainWindow window;
    if (!parser.isSet(exportTo) && !parser.isSet(open))
        window.restoreSession();
    if (parser.isSet(open)) {
        QString error;
        if (!window.openFile(parser.value(open), &error)) {
            if (parser.isSet(exportTo))
                return fail(error);
            QTimer::singleShot(0, &window, [&window, error] { QMessageBox::warning(&window, window.windowTitle(), error); });
        }
    }

    if (parser.isSet(lesson)) {
        const std::string id = parser.value(lesson).toStdString();
        const auto &lessons = core::io::builtinLessons();
        const auto it = std::find_if(lessons.begin(), lessons.end(), [&id](const core::Lesson &l) { return l.id == id; });
        if (it == lessons.end())
            return fail(QStringLiteral("--lesson: no lesson '%1'").arg(parser.value(lesson)));
        window.showLesson(*it);
    }
    if (parser.isSet(view)) {
        if (!window.showChart(parser.value(view)))
            return fail(QStringLiteral("--view: expected gpus, context, batch, deploy, serve-plan, matrix, heatmap, cluster or rules"));
    }

    QSize requestedSize;
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        bool okW = false;
        bool okH = false;
        if (wh.size() == 2)
            requestedSize = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || requestedSize.width() < 100 || requestedSize.height() < 100
            || requestedSize.width() > 20000 || requestedSize.height() > 20000)
            return fail(QStringLiteral("--size: expected WxH between 100 and 20000, e.g. 1600x1000"));
    }

    if (parser.isSet(exportTo)) {
        ui::ChartExportOptions options;
        if (requestedSize.isValid())
            options.size = requestedSize;
        const auto format = ui::exportFormatForPath(parser.value(exportTo));
        const ui::ExportPage *printed = parser.isSet(page) ? ui::findExportPage(parser.value(page))
            : parser.isSet(size) || !format                ? nullptr
                                                           : ui::defaultExportPage(*format);
        if (parser.isSet(page) && !printed)
            return fail(QStringLiteral("--page: expected %1").arg(pageIds.join(QStringLiteral(", "))));
        if (printed) {
            bool okDpi = true;
            const int perInch = parser.isSet(dpi) ? parser.value(dpi).toInt(&okDpi) : 300;
            if (!okDpi || perInch < 72 || perInch > 1200)
                return fail(QStringLiteral("--dpi: expected a whole number between 72 and 1200"));
            options = ui::pageOptions(*printed, perInch);
        }
        if (parser.isSet(report)) {
            if (format != ui::ExportFormat::Pdf)
                return fail(QStringLiteral("--report: the one-page report is a PDF; name a .pdf file"));
            options.report = true;
        }
        window.resize(options.size);
        if (parser.isSet(presentation))
            window.setChartsPresentation(true);
        QString error;
        if (!window.exportFile(parser.value(exportTo), options, &error))
            return fail(error);
        return 0;
    }

    if (requestedSize.isValid())
        window.resize(requestedSize);
    window.show();
    if (parser.isSet(presentation))
        window.setPresentationMode(true);
    QWidget *shown = &window;
    if (parser.isSet(tool)) {
        shown = window.openTool(parser.value(tool));
        if (!shown)
            return fail(QStringLiteral("--tool: expected utilization or runs"));
    }
    if (parser.isSet(compareLog)) {
        QString error;
        shown = window.compareLogFile(parser.value(compareLog), &error);
        if (!shown)
            return fail(QStringLiteral("--compare-log: ") + error);
    }
    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        QTimer::singleShot(800, &window, [&window, shown, path] {
            if (!shown->grab().save(path))
                std::fprintf(stderr, "vramplanner: cannot write %s\n", qPrintable(path));
            window.close();
        });
    }
    return app.exec();
}
