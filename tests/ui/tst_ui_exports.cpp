// TestUi, exports: charts and reports in every format, the scripted export.

#include "tests/ui/tst_ui.h"

#include "tests/support/pdftextsizes.h"

#include "ui/exporter.h"
#include "ui/reportpdf.h"
#include "ui/mainwindow.h"
#include "ui/scenariocontroller.h"

#include <QApplication>
#include <QDomDocument>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextList>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace uitest;

void TestUi::chartExports_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("png") << "chart.png";
    QTest::newRow("svg") << "chart.svg";
    QTest::newRow("pdf") << "chart.pdf";
}

void TestUi::chartExports()
{
    QFETCH(QString, file);
    ui::MainWindow window;
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    ui::ChartExportOptions options;
    options.size = QSize(1200, 750);
    options.scale = 2.0;
    options.dpi = 192;
    QString error;
    QVERIFY2(window.exportFile(path, options, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.size() > 1000);
    if (file.endsWith(QLatin1String(".png"))) {
        const QImage image = QImage::fromData(bytes, "PNG");
        QCOMPARE(image.size(), QSize(2400, 1500)); // 1200 x 750 at pixel ratio 2
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
    } else if (file.endsWith(QLatin1String(".svg"))) {
        QDomDocument svg;
        QVERIFY(svg.setContent(bytes));
        QCOMPARE(svg.documentElement().tagName(), QStringLiteral("svg"));
        QCOMPARE(svg.documentElement().attribute(QStringLiteral("viewBox")), QStringLiteral("0 0 1200 750"));
        // The assumptions footer: engine, KV cache, planner version; drawn
        // for the file only.
        for (const QString &part : {QStringLiteral("Serving engine: "), QStringLiteral("KV cache format: "),
                                    QStringLiteral("VRAM Planner ") + QCoreApplication::applicationVersion()})
            QVERIFY2(bytes.contains(part.toUtf8()), qPrintable(part));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.contains("/MediaBox [0 0 900")); // 1200 px at 96 dpi = 900 pt
    }
}

void TestUi::printedPageExports()
{
    ui::MainWindow window;
    QTemporaryDir dir;
    QString error;
    // A4 landscape is 297 x 210 mm: 841.9 x 595.3 pt.
    const QString pdf = dir.filePath(QStringLiteral("a4.pdf"));
    QVERIFY2(window.exportFile(pdf, ui::pageOptions(*ui::findExportPage(QStringLiteral("a4")), 96), &error),
             qPrintable(error));
    const QByteArray bytes = readAll(pdf);
    const QSizeF landscape = testsupport::pdfPageSize(bytes);
    QVERIFY(std::abs(landscape.width() - 841.9) < 1.0);
    QVERIFY(std::abs(landscape.height() - 595.3) < 1.0);
    // A 16 cm column at 300 dpi: 160 / 25.4 x 300 = 1,889.8 pixels wide.
    const QString png = dir.filePath(QStringLiteral("column.png"));
    QVERIFY2(window.exportFile(png, ui::pageOptions(*ui::findExportPage(QStringLiteral("column")), 300), &error),
             qPrintable(error));
    const QImage image(png);
    QVERIFY2(std::abs(image.width() - 1890) <= 1, qPrintable(QString::number(image.width())));
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
    // Laid out at the printed size, the chart's text prints at its own
    // point size: none under 8 points, as a PDF reader places it.
    QVERIFY(testsupport::pdfTextSizes(bytes).size() > 20);
    const double smallestInChart = testsupport::smallestTextSize(bytes);
    QVERIFY2(smallestInChart >= 8.0 - 1e-6, qPrintable(QString::number(smallestInChart)));

    // The report for a proposal: the default scenario's chart, tables,
    // assumptions and sources on one A4 page standing (595.3 x 841.9 pt).
    ui::ChartExportOptions report;
    report.report = true;
    const QString onePage = dir.filePath(QStringLiteral("report.pdf"));
    QVERIFY2(window.exportFile(onePage, report, &error), qPrintable(error));
    const QByteArray reportBytes = readAll(onePage);
    const QSizeF standing = testsupport::pdfPageSize(reportBytes);
    QVERIFY(std::abs(standing.width() - 595.3) < 1.0);
    QVERIFY(std::abs(standing.height() - 841.9) < 1.0);
    QVERIFY2(reportBytes.contains("/Count 1"), "the default scenario's report is one page");
    // A list's last item before a heading stays in its list (the heading's
    // spacing once took it out: its bullet was gone from the page).
    QTextDocument listed;
    ui::setReportText(listed, QStringLiteral("Text.\n\n- one\n- two\n\n## Next\n\nMore.\n"));
    int items = 0;
    for (QTextBlock block = listed.begin(); block.isValid(); block = block.next())
        if (block.text() == QLatin1String("one") || block.text() == QLatin1String("two")) {
            QVERIFY2(block.textList(), qPrintable(block.text()));
            ++items;
        }
    QCOMPARE(items, 2);
    QVERIFY(testsupport::pdfTextSizes(reportBytes).size() > 20);
    const double smallestInReport = testsupport::smallestTextSize(reportBytes);
    QVERIFY2(smallestInReport >= 8.0 - 1e-6, qPrintable(QString::number(smallestInReport)));
}

void TestUi::reportExports_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("markdown") << "report.md";
    QTest::newRow("csv") << "report.csv";
    QTest::newRow("json") << "report.json";
}

void TestUi::reportExports()
{
    QFETCH(QString, file);
    ui::MainWindow window;
    window.controller()->update(QString(), [](core::Scenario &s) { s.mode = core::Mode::Qlora; });
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    QString error;
    QVERIFY2(window.exportFile(path, {}, &error), qPrintable(error));
    const QString text = QString::fromUtf8(readAll(path));
    const core::Estimate &e = window.controller()->result().estimate;
    if (file.endsWith(QLatin1String(".json"))) {
        const QJsonObject j = QJsonDocument::fromJson(text.toUtf8()).object();
        for (core::TermId id : core::allTerms())
            QCOMPARE(j.value("per_gpu_bytes").toObject().value(QLatin1String(core::termId(id))).toDouble(),
                     static_cast<double>(e.term(id).count()));
        return;
    }
    if (file.endsWith(QLatin1String(".csv"))) {
        QVERIFY(text.startsWith(QStringLiteral("section,item,field,value\n")));
        for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(line.count(QLatin1Char(',')) >= 3, qPrintable(line));
        for (core::TermId id : core::allTerms())
            QVERIFY(text.contains(QStringLiteral("term,%1,bytes,%2").arg(QLatin1String(core::termId(id))).arg(e.term(id).count())));
        QVERIFY(text.contains(QStringLiteral("input,Mode,value,QLoRA")));
        return;
    }
    for (core::TermId id : core::allTerms())
        QVERIFY2(text.contains(QStringLiteral("| %1 |").arg(QLatin1String(core::termLabel(id)))), core::termId(id));
    QVERIFY(text.contains(QStringLiteral("## Assumptions")));
    QVERIFY(text.contains(QStringLiteral("| Mode | QLoRA |")));
    QVERIFY(text.contains(QStringLiteral("| Checkpointing | full (default) |")));
    // Terms nothing holds (QLoRA keeps no master weights) end without
    // empty "Symbols: ." or "Source:" stubs.
    QVERIFY(!text.contains(QStringLiteral("Symbols: .")));
    QVERIFY(!text.contains(QRegularExpression(QStringLiteral("Source: *\n"))));
}

void TestUi::scriptedExport()
{
    QTemporaryDir dir;
    ui::MainWindow window;
    QString error;
    const QString scenario = dir.filePath(QStringLiteral("s.json"));
    QVERIFY(window.saveTo(scenario, &error));
    const QString out = dir.filePath(QStringLiteral("out.png"));
    QProcess app;
    app.start(QStringLiteral(VRAM_GUI_BINARY), {QStringLiteral("--open"), scenario, QStringLiteral("--export"), out,
                                                QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--size"),
                                                QStringLiteral("800x500")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(QImage(out).size(), QSize(800, 500));
    // --view and --presentation reach the file: each export differs.
    const auto exported = [&](const QStringList &extra) {
        const QString file = dir.filePath(QStringLiteral("view-%1.png").arg(extra.join(QLatin1Char('-'))));
        app.start(QStringLiteral(VRAM_GUI_BINARY),
                  QStringList{QStringLiteral("--open"), scenario, QStringLiteral("--export"), file,
                              QStringLiteral("--size"), QStringLiteral("800x500")}
                      + extra);
        return app.waitForFinished(60000) && app.exitCode() == 0 ? QImage(file) : QImage();
    };
    const QImage gpus = exported({});
    const QImage context = exported({QStringLiteral("--view"), QStringLiteral("context")});
    const QImage batch = exported({QStringLiteral("--view"), QStringLiteral("batch")});
    const QImage presentation = exported({QStringLiteral("--presentation")});
    QVERIFY(!gpus.isNull() && !context.isNull() && !batch.isNull() && !presentation.isNull());
    QVERIFY(context != gpus);
    QVERIFY(batch != context);
    QVERIFY(presentation != gpus);
    // The help and version texts need no display: without one (no
    // platform named, no X server) they print and exit 0 instead of
    // aborting in the platform plugin.
    QProcessEnvironment bare = QProcessEnvironment::systemEnvironment();
    bare.remove(QStringLiteral("QT_QPA_PLATFORM"));
    bare.remove(QStringLiteral("DISPLAY"));
    bare.remove(QStringLiteral("WAYLAND_DISPLAY"));
    for (const QString &option : {QStringLiteral("--help"), QStringLiteral("--version")}) {
        QProcess plain;
        plain.setProcessEnvironment(bare);
        plain.start(QStringLiteral(VRAM_GUI_BINARY), {option});
        QVERIFY(plain.waitForFinished(60000));
        QCOMPARE(plain.exitStatus(), QProcess::NormalExit);
        QCOMPARE(plain.exitCode(), 0);
        QVERIFY(plain.readAllStandardOutput().contains(option == QStringLiteral("--help") ? "--export" : "VRAM Planner"));
    }
    // A failure exits non-zero with a message.
    app.start(QStringLiteral(VRAM_GUI_BINARY), {QStringLiteral("--open"), dir.filePath(QStringLiteral("missing.json")),
                                                QStringLiteral("--export"), out});
    QVERIFY(app.waitForFinished(60000));
    QVERIFY(app.exitCode() != 0);
    QVERIFY(app.readAllStandardError().contains("missing.json"));
}
