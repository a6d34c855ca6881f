// The charts laid out offscreen at the sizes the window gives them, for the
// default GPUs and scenarios from inference to a 70B model that needs many
// GPUs: no two texts overlap, none is clipped, every legend entry shows
// whole; the sweeps mark the scenario and every capacity, the bars carry
// their totals.

#include "core/analysis/sweep.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"
#include "ui/chartlabels.h"
#include "ui/language.h"
#include "ui/memorychart.h"
#include "ui/scenariocontroller.h"
#include "ui/sweepchart.h"
#include "ui/termstyle.h"

#include <QStandardPaths>
#include <QtTest>
#include <qcustomplot.h>

#include <functional>
#include <memory>

namespace {

/// The scenarios the charts are checked with (the controller shows the
/// catalog's default GPUs).
void useScenario(ui::ScenarioController &c, const QString &name)
{
    if (name == QLatin1String("inference")) {
        c.usePreset("llama-3-8b");
    } else if (name == QLatin1String("qlora")) {
        c.usePreset("llama-3-8b");
        c.update(QString(), [](core::Scenario &s) {
            s.mode = core::Mode::Qlora;
            s.batch = 2;
        });
    } else if (name == QLatin1String("training-70b")) {
        // Fits no single card; an MI300X needs 20 (ZeRO-3).
        c.usePreset("llama-2-70b");
        c.update(QString(), [](core::Scenario &s) {
            s.mode = core::Mode::Train;
            s.sequence = 4096;
        });
    } else {
        c.usePreset("baichuan-7b");
        c.update(QString(), [](core::Scenario &s) { s.weights = core::WeightFormat::Int4; });
    }
}

/// A label's text as one line with plain spaces, for comparisons.
QString plain(const ui::ChartLabel &label)
{
    return QString(label.text).replace(QChar::Nbsp, QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

QString describe(const ui::ChartLabel &label)
{
    const QRectF r = label.rect;
    return QStringLiteral("\"%1\" at %2,%3 %4x%5").arg(label.text).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

/// A chart of the window, shown at a size, drawing the controller's scenario.
struct Shown
{
    std::unique_ptr<QWidget> widget;
    std::function<QList<ui::ChartLabel>()> labels;
    QCustomPlot *plot;
};

Shown show(const QString &chart, const ui::ScenarioController &c, QSize size, bool presentation)
{
    Shown shown;
    if (chart == QLatin1String("gpus")) {
        auto *bars = new ui::MemoryChart;
        bars->setPresentation(presentation);
        bars->showEstimate(c.scenario(), c.result(), c.catalog());
        shown = {std::unique_ptr<QWidget>(bars), [bars] { return bars->labels(); }, bars->plot()};
    } else {
        auto *sweep = new ui::SweepChart(chart == QLatin1String("batch") ? core::SweepAxis::Batch : core::SweepAxis::Sequence);
        sweep->setPresentation(presentation);
        sweep->showSweep(c.scenario(), c.result(), c.catalog(), c.unit());
        shown = {std::unique_ptr<QWidget>(sweep), [sweep] { return sweep->labels(); }, sweep->plot()};
    }
    shown.widget->resize(size);
    shown.widget->show();
    return shown;
}

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void textNeitherOverlapsNorClips_data();
    void textNeitherOverlapsNorClips();
    void sweepsMarkTheScenarioAndEveryCapacity_data();
    void sweepsMarkTheScenarioAndEveryCapacity();
    void equalCardsShareALabel();
    void memoryAxisStopsNearTheLargestCard();
    void barsCarryTheirTotals();
};

void TestCharts::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("offscreen"));
}

void TestCharts::textNeitherOverlapsNorClips_data()
{
    QTest::addColumn<QString>("chart");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    QTest::addColumn<QString>("language");
    // The chart's share of a 1600 x 1000 window, with the lesson panel
    // open, of a 1440 x 900 window with the panel, a narrow one, that of
    // the smallest window (1024 x 700) with the panel, and the default
    // export in presentation style (measured offscreen).
    const struct
    {
        const char *name;
        QSize size;
        bool presentation;
    } sizes[] = {{"window", {1212, 539}, false},
                 {"lesson", {950, 539}, false},
                 {"small window with lesson", {790, 481}, false},
                 {"narrow", {600, 480}, false},
                 {"smallest", {420, 365}, false},
                 {"presentation", {1600, 1000}, true}};
    for (const char *chart : {"gpus", "context", "batch"})
        for (const char *scenario : {"inference", "qlora", "training-70b", "baichuan-int4"}) {
            for (const auto &size : sizes)
                QTest::addRow("%s, %s, %s", chart, scenario, size.name) << QString::fromLatin1(chart)
                    << QString::fromLatin1(scenario) << size.size << size.presentation << QStringLiteral("en");
            // Chinese text has no spaces to wrap at.
            QTest::addRow("%s, %s, narrow, zh_CN", chart, scenario)
                << QString::fromLatin1(chart) << QString::fromLatin1(scenario) << QSize(600, 480) << false << QStringLiteral("zh_CN");
        }
}

void TestCharts::textNeitherOverlapsNorClips()
{
    QFETCH(QString, chart);
    QFETCH(QString, scenario);
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    QFETCH(QString, language);
    ui::applyLanguage(language);
    const auto english = qScopeGuard([font = QGuiApplication::font()] {
        ui::applyLanguage(QStringLiteral("en"));
        QGuiApplication::setFont(font); // zh_CN adds a CJK family
    });
    ui::ScenarioController c(core::io::builtinCatalog());
    useScenario(c, scenario);
    const Shown shown = show(chart, c, size, presentation);
    QVERIFY(QTest::qWaitForWindowExposed(shown.widget.get()));
    shown.plot->replot();
    QCOMPARE(shown.plot->viewport().size(), size);

    const QList<ui::ChartLabel> labels = shown.labels();
    QVERIFY(labels.size() > static_cast<qsizetype>(c.result().fits.size())); // a label per GPU, and the legend
    for (const ui::ChartLabel &label : labels)
        QVERIFY2(label.clip.contains(label.rect), qPrintable(QStringLiteral("clipped: ") + describe(label)));
    // A pixel apart at least, so neighbours never read as one.
    for (int i = 0; i < labels.size(); ++i)
        for (int j = i + 1; j < labels.size(); ++j)
            QVERIFY2(!labels[i].rect.adjusted(-1, -1, 1, 1).intersects(labels[j].rect),
                     qPrintable(QStringLiteral("overlap: ") + describe(labels[i]) + QStringLiteral(" / ") + describe(labels[j])));
    // The legend's entries are among them: whole, and clear of the rest.
    int entries = 0;
    for (const ui::ChartLabel &label : labels)
        for (core::TermId id : core::allTerms())
            entries += label.text == ui::termName(id);
    QVERIFY(entries >= 4);
}

void TestCharts::sweepsMarkTheScenarioAndEveryCapacity_data()
{
    QTest::addColumn<QString>("chart");
    QTest::addColumn<QString>("marker");
    QTest::newRow("context") << "context" << "this scenario: 2,048 tokens";
    QTest::newRow("batch") << "batch" << "this scenario: batch 1";
}

void TestCharts::sweepsMarkTheScenarioAndEveryCapacity()
{
    QFETCH(QString, chart);
    QFETCH(QString, marker);
    // Inference of an 8B model: every card fits the whole context range
    // or none of it, and still each card within the memory axis has its
    // line; every card is named, in a label or in the summary.
    ui::ScenarioController c(core::io::builtinCatalog());
    useScenario(c, QStringLiteral("inference"));
    const Shown shown = show(chart, c, {1212, 539}, false);
    shown.plot->replot();
    QStringList texts;
    for (const ui::ChartLabel &label : shown.labels())
        texts << plain(label);
    QVERIFY2(texts.contains(marker), qPrintable(texts.join(QLatin1Char('|'))));
    for (const core::GpuFit &fit : c.result().fits) {
        const QString name = ui::shortGpuName(*c.catalog().find(fit.gpuId));
        QVERIFY2(!texts.filter(name).isEmpty(), qPrintable(name + QStringLiteral(" unnamed: ") + texts.join(QLatin1Char('|'))));
    }
    QList<double> lines;
    for (int i = 0; i < shown.plot->itemCount(); ++i) {
        const auto *line = qobject_cast<QCPItemStraightLine *>(shown.plot->item(i));
        if (line && line->point1->coords().y() == line->point2->coords().y())
            lines << line->point1->coords().y();
    }
    int within = 0;
    for (const core::GpuFit &fit : c.result().fits) {
        const double capacity = core::toGiga(fit.capacity, core::ByteUnit::GiB);
        if (capacity > shown.plot->yAxis->range().upper)
            continue;
        ++within;
        QVERIFY2(lines.contains(capacity), fit.gpuId.c_str());
    }
    QVERIFY(within >= 5); // the 4, 8, 16 and 24 GB cards at least
}

void TestCharts::equalCardsShareALabel()
{
    // A100 and H100 are both 80 GB cards: one label names both.
    ui::ScenarioController c(core::io::builtinCatalog());
    useScenario(c, QStringLiteral("qlora"));
    const Shown shown = show(QStringLiteral("batch"), c, {1212, 539}, false);
    shown.plot->replot();
    const QString shared = QStringLiteral("A100 SXM4 80GB · H100 SXM5 80GB");
    int mentions = 0;
    for (const ui::ChartLabel &label : shown.labels()) {
        const QString text = plain(label);
        mentions += text.contains(QStringLiteral("A100")) + text.contains(QStringLiteral("H100"));
        if (text.contains(QStringLiteral("A100")))
            QVERIFY2(text.contains(shared), qPrintable(text));
    }
    QCOMPARE(mentions, 2);
}

void TestCharts::memoryAxisStopsNearTheLargestCard()
{
    // QLoRA at batch 4,096 needs terabytes; the axis stops at 1.5 x the
    // MI300X's 192 GB and says how far the total goes.
    ui::ScenarioController c(core::io::builtinCatalog());
    useScenario(c, QStringLiteral("qlora"));
    const Shown shown = show(QStringLiteral("batch"), c, {1212, 539}, false);
    shown.plot->replot();
    double largest = 0;
    for (const core::GpuFit &fit : c.result().fits)
        largest = std::max(largest, core::toGiga(fit.capacity, core::ByteUnit::GiB));
    QCOMPARE(shown.plot->yAxis->range().upper, largest * 1.5);
    const core::Bytes most = core::estimate(core::withAxis(c.scenario(), core::SweepAxis::Batch, 4096)).total;
    const QString note = QStringLiteral("Above the chart: up to %1 at batch 4,096").arg(ui::bytesText(most, core::ByteUnit::GiB, 1));
    QStringList texts;
    for (const ui::ChartLabel &label : shown.labels())
        texts << plain(label);
    QVERIFY2(!texts.filter(note).isEmpty(), qPrintable(texts.join(QLatin1Char('|')))); // in the summary above the plot
}

void TestCharts::barsCarryTheirTotals()
{
    // Each bar's total in the window's unit, as core::formatBytes writes it.
    for (core::ByteUnit unit : {core::ByteUnit::GiB, core::ByteUnit::GB}) {
        ui::ScenarioController c(core::io::builtinCatalog());
        useScenario(c, QStringLiteral("training-70b"));
        ui::MemoryChart chart;
        chart.setUnit(unit);
        chart.showEstimate(c.scenario(), c.result(), c.catalog());
        chart.resize(1212, 539);
        chart.show();
        chart.plot()->replot();
        QStringList texts;
        for (const ui::ChartLabel &label : chart.labels())
            texts << plain(label);
        for (const core::GpuFit &fit : c.result().fits) {
            const QString total = QString::fromStdString(core::formatBytes(fit.layoutTotal, unit, 1));
            QVERIFY2(texts.contains(total), qPrintable(total + QStringLiteral(" missing: ") + texts.join(QLatin1Char('|'))));
        }
    }
}

VRAM_TEST_MAIN(tst_charts, TestCharts, Widgets)
#include "tst_charts.moc"
