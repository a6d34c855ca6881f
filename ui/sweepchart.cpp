#include "ui/sweepchart.h"

#include "core/scenario/servingruntime.h"
#include "ui/sweeprange.h"
#include "ui/termstyle.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace ui {

namespace {

constexpr int kPoints = 120;
/// The memory axis stops at this multiple of the largest capacity shown, so
/// the crossings stay readable when the total runs on to terabytes.
constexpr double kClipAbove = 1.5;
/// Capacity labels take at most this share of the plot's width: most stay
/// on one line, which fits between neighbouring capacity lines.
constexpr double kLabelShare = 0.6;
/// Where the labels find no room otherwise, their type shrinks this much.
constexpr double kSmallTextScale = 0.8;
/// Beside the legend the plot keeps at least this many lines' height of
/// width, else the legend goes below it.
constexpr double kMinPlotWidthInLines = 28;

/// Powers of two on a logarithmic axis, written as people write counts
/// ("4,096"): batches and context lengths come in powers of two.
class CountTicker : public QCPAxisTickerLog
{
public:
    CountTicker()
    {
        setLogBase(2);
        setSubTickCount(0);
    }

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(std::llround(tick))));
    }
};

/// The top of the memory axis: the whole curve and the first card that
/// holds all of it, with room for its label, so the crossings below are
/// not squeezed by far larger cards; where no card holds the curve, it
/// stops at kClipAbove x the largest card.
double memoryTop(double tallest, const std::vector<double> &capacities)
{
    if (capacities.empty())
        return std::max(1.0, tallest * 1.1);
    const double largest = *std::max_element(capacities.begin(), capacities.end());
    if (tallest > largest)
        return std::clamp(tallest * 1.05, largest * 1.15, largest * kClipAbove);
    double holding = largest;
    for (double capacity : capacities)
        if (capacity >= tallest)
            holding = std::min(holding, capacity);
    return std::max(tallest * 1.05, holding * 1.15);
}

/// A label that stays legible over the stacked areas.
QCPItemText *addLabel(QCustomPlot *plot, const QColor &ink, QColor paper)
{
    auto *text = new QCPItemText(plot);
    text->position->setType(QCPItemPosition::ptAbsolute);
    text->position->setCoords(0, 0);
    text->setColor(ink);
    paper.setAlpha(215);
    text->setBrush(paper);
    text->setPadding(QMargins(3, 1, 3, 1));
    text->setTextAlignment(Qt::AlignLeft);
    return text;
}

} // namespace

SweepChart::SweepChart(core::SweepAxis axis, QWidget *parent)
    : QWidget(parent), m_axis(axis), m_plot(new QCustomPlot(this)), m_frame(m_plot, false)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(420, 260);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<CountTicker>(new CountTicker));
    m_plot->yAxis->grid()->setSubGridVisible(false);
    // Every layout (screen or export) fits the labels to the size drawn.
    connect(m_plot, &QCustomPlot::afterLayout, this, &SweepChart::fitToSize);
}

void SweepChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_catalog)
        draw();
}

void SweepChart::setPresentation(bool on)
{
    m_frame.setPresentation(on);
    if (m_catalog)
        draw();
}

void SweepChart::showSweep(const core::Scenario &scenario, const core::EstimateWithFits &result,
                           const core::Catalog &catalog, core::ByteUnit unit)
{
    m_scenario = scenario;
    m_result = result;
    m_catalog = &catalog;
    m_unit = unit;
    spreadWhereNothingFits();
    draw();
}

void SweepChart::spreadWhereNothingFits()
{
    m_spread = {};
    const bool batch = m_axis == core::SweepAxis::Batch;
    const auto &fits = m_result.fits;
    if (fits.empty()
        || std::any_of(fits.begin(), fits.end(), [batch](const core::GpuFit &f) { return (batch ? f.maxBatch : f.maxSequence) > 0; }))
        return;
    const core::GpuSpec *focus = core::focusGpu(m_scenario, *m_catalog);
    const core::GpuFit *fit = focus ? m_result.fitFor(focus->id) : nullptr;
    if (!fit || fit->gpusNeeded <= m_scenario.gpus) {
        const auto some = std::find_if(fits.begin(), fits.end(), [this](const core::GpuFit &f) {
            return f.gpusNeeded > m_scenario.gpus;
        });
        fit = some == fits.end() ? nullptr : &*some;
    }
    const core::GpuSpec *gpu = fit ? m_catalog->find(fit->gpuId) : nullptr;
    if (!gpu)
        return;
    std::vector<std::string> shown;
    for (const core::GpuFit &f : fits)
        shown.push_back(f.gpuId);
    m_spread = {m_scenario.gpus, fit->gpusNeeded, shortGpuName(*gpu)};
    m_scenario = core::onGpus(m_scenario, fit->gpusNeeded);
    m_result = core::estimateWithFits(m_scenario, *m_catalog, shown);
}

void SweepChart::draw()
{
    const bool batch = m_axis == core::SweepAxis::Batch;
    const std::uint64_t current = batch ? m_scenario.batch : m_scenario.sequence;
    const auto [from, to] = sweepRange(m_scenario, m_axis);
    const std::vector<core::SweepPoint> points = core::sweep(m_scenario, m_axis, from, to, kPoints);

    m_frame.applyPalette();
    m_plot->clearGraphs();
    m_plot->clearItems();
    const QVector<double> totals = drawStack(points);
    double tallest = 0;
    for (double v : totals)
        tallest = std::max(tallest, std::min(v, 1e9)); // saturated totals ("exceeds") stay finite
    std::vector<double> capacities;
    for (const core::GpuFit &fit : m_result.fits)
        capacities.push_back(core::toGiga(fit.capacity, m_unit));
    const double top = memoryTop(tallest, capacities);
    QStringList summary;
    // Written here, so a language switch redraws it in the new language.
    if (!m_spread.card.isEmpty()) {
        const QString layout = tr("%1 × %2").arg(m_spread.gpus).arg(m_spread.card);
        summary << (m_spread.asSet == 1
                        ? tr("Nothing shown fits one GPU as set: drawn per GPU of %1, the fewest that fit").arg(layout)
                        : tr("Nothing shown fits %1 GPUs as set: drawn per GPU of %2, the fewest that fit")
                              .arg(m_spread.asSet)
                              .arg(layout));
    }
    drawCapacities(to, top, &summary);
    // vLLM's batch defaults follow the card, SGLang's communicators its
    // link: the curve is the focus GPU's.
    if (!m_result.otherCards.empty()) {
        QStringList others;
        for (const core::GpuFit &fit : m_result.fits)
            if (const core::GpuSpec *gpu = m_catalog->find(fit.gpuId); gpu && !m_result.onFocusCard(*gpu))
                others << shortGpuName(*gpu);
        summary << (core::defaultsFollowTheCard(m_result.scenario)
                        ? tr("The curve is on vLLM's defaults for the focus GPU; %1 start with other defaults and are "
                             "marked where their own estimate crosses")
                        : tr("The curve is on the focus GPU's link; %1 connect over another link and are marked where "
                             "their own estimate crosses"))
                       .arg(others.join(QStringLiteral(", ")));
    }
    drawScenario(current, from, to);
    summary << drawClipped(points, totals, top);
    summary.removeAll(QString());
    m_frame.setTitle(summary.join(QLatin1Char('\n')));

    m_plot->xAxis->setLabel(batch ? tr("Batch size (per GPU)") : tr("Context length (tokens)"));
    m_plot->yAxis->setLabel(tr("Memory per GPU (%1)").arg(QString::fromUtf8(core::gigaSuffix(m_unit))));
    m_plot->xAxis->setRange(static_cast<double>(from), static_cast<double>(to));
    m_plot->yAxis->setRange(0, top);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QVector<double> SweepChart::drawStack(const std::vector<core::SweepPoint> &points)
{
    QVector<double> keys;
    for (const core::SweepPoint &p : points)
        keys << static_cast<double>(p.value);
    // Stacked areas: each graph is the running sum and fills down to the one below.
    QVector<double> running(keys.size(), 0.0);
    QCPGraph *below = nullptr;
    for (core::TermId id : core::allTerms()) {
        bool any = false;
        for (int i = 0; i < keys.size(); ++i) {
            const double v = core::toGiga(points[static_cast<std::size_t>(i)].terms[static_cast<std::size_t>(id)], m_unit);
            any = any || v > 0;
            running[i] += v;
        }
        if (!any)
            continue;
        QCPGraph *g = m_plot->addGraph();
        g->setName(termName(id));
        g->setData(keys, running, true);
        QColor fill = termColor(id);
        g->setPen(QPen(fill.darker(140), penWidth()));
        g->setBrush(fill);
        if (below)
            g->setChannelFillGraph(below);
        below = g;
    }
    return running;
}

void SweepChart::drawCapacities(std::uint64_t to, double top, QStringList *summary)
{
    const bool batch = m_axis == core::SweepAxis::Batch;
    const QColor ink = m_frame.ink();
    // Cards sold with the same memory and the same verdict share a label;
    // each keeps its own line at what it really has (the driver's usable
    // memory can differ by a fraction of a percent).
    struct Capacity
    {
        core::Bytes nominal;
        int verdict; // 0: nothing fits, 1: a crossing, 2: the whole range fits
        QStringList names;
        std::vector<const core::GpuFit *> fits;
    };
    std::vector<Capacity> capacities;
    QStringList everywhere;
    QStringList nowhere;
    m_labels.clear();
    for (const core::GpuFit &fit : m_result.fits) {
        const core::GpuSpec *gpu = m_catalog->find(fit.gpuId);
        if (!gpu)
            continue;
        const std::uint64_t crossing = batch ? fit.maxBatch : fit.maxSequence;
        const QString name = shortGpuName(*gpu);
        const QString count = QString::fromStdString(core::groupDigits(crossing));
        // Lists of cards wrap between names, never inside one.
        const QString unbroken = QString(name).replace(QLatin1Char(' '), QChar::Nbsp);
        const int verdict = crossing == 0 ? 0 : crossing >= to ? 2 : 1;
        if (verdict == 0) {
            m_labels << (batch ? tr("%1: not even batch 1").arg(name) : tr("%1: no context fits").arg(name));
            nowhere << unbroken;
        } else if (verdict == 2) {
            m_labels << (batch ? tr("%1: every batch up to %2 fits").arg(name, QString::fromStdString(core::groupDigits(to)))
                               : tr("%1: the whole range fits").arg(name));
            everywhere << unbroken;
        } else {
            m_labels << (batch ? tr("max batch on %1: %2").arg(name, count)
                               : tr("max context on %1: %2 tokens").arg(name, count));
        }
        const auto same = std::find_if(capacities.begin(), capacities.end(), [gpu, verdict](const Capacity &c) {
            return c.nominal == gpu->memory && c.verdict == verdict;
        });
        if (same == capacities.end()) {
            capacities.push_back({gpu->memory, verdict, {unbroken}, {&fit}});
        } else {
            same->names << unbroken;
            same->fits.push_back(&fit);
        }
    }
    // Those that fit everywhere or nowhere are named above the plot too.
    if (!everywhere.isEmpty())
        *summary << (batch ? tr("Every batch fits: %1") : tr("The whole range fits: %1")).arg(everywhere.join(QStringLiteral(", ")));
    if (!nowhere.isEmpty())
        *summary << (batch ? tr("Not even batch 1 fits: %1") : tr("No context fits: %1")).arg(nowhere.join(QStringLiteral(", ")));

    // Cards whose lines lie above the chart fit the whole range: the
    // summary names them.
    m_capacityLabels.clear();
    for (const Capacity &c : capacities) {
        const bool above = std::all_of(c.fits.begin(), c.fits.end(),
                                       [this, top](const core::GpuFit *fit) { return core::toGiga(fit->capacity, m_unit) > top; });
        if (above)
            continue;
        double highest = 0;
        std::uint64_t fewest = std::numeric_limits<std::uint64_t>::max();
        std::uint64_t most = 0;
        for (const core::GpuFit *fit : c.fits) {
            const double capacity = core::toGiga(fit->capacity, m_unit);
            highest = std::max(highest, capacity);
            auto *line = new QCPItemStraightLine(m_plot);
            line->point1->setCoords(1, capacity);
            line->point2->setCoords(2, capacity);
            line->setPen(QPen(ink, penWidth(), Qt::DashLine));
            const std::uint64_t crossing = batch ? fit->maxBatch : fit->maxSequence;
            fewest = std::min(fewest, crossing);
            most = std::max(most, crossing);
            if (c.verdict == 1) {
                auto *marker = new QCPItemLine(m_plot);
                marker->start->setCoords(static_cast<double>(crossing), 0);
                marker->end->setCoords(static_cast<double>(crossing), capacity);
                marker->setPen(QPen(ink, std::max(1.0, penWidth() * 0.8), Qt::DotLine));
            }
        }
        const QString names = c.names.join(QStringLiteral(" · "));
        QString text = names;
        if (c.verdict == 1) {
            const QString count = QString::fromStdString(core::groupDigits(fewest))
                + (most > fewest ? QStringLiteral("–") + QString::fromStdString(core::groupDigits(most)) : QString());
            text = batch ? tr("max batch on %1: %2").arg(names, count) : tr("max context on %1: %2 tokens").arg(names, count);
        }
        auto *leader = new QCPItemLine(m_plot);
        leader->start->setType(QCPItemPosition::ptAbsolute);
        leader->end->setType(QCPItemPosition::ptAbsolute);
        leader->setPen(QPen(ink, 1));
        m_capacityLabels.push_back({nullptr, leader, text, highest, c.verdict == 1 ? static_cast<double>(fewest) : 0.0});
    }
    // Labels come after every line and leader, so they are drawn above them.
    for (CapacityLabel &label : m_capacityLabels)
        label.item = addLabel(m_plot, ink, m_frame.paper());
    // Lowest first: the crowded lines near the bottom choose their places first.
    std::sort(m_capacityLabels.begin(), m_capacityLabels.end(),
              [](const CapacityLabel &a, const CapacityLabel &b) { return a.capacity < b.capacity; });
}

void SweepChart::drawScenario(std::uint64_t current, std::uint64_t from, std::uint64_t to)
{
    // A line at the scenario's own value, labelled above the plot.
    const QColor ink = m_frame.ink();
    auto *marker = new QCPItemStraightLine(m_plot);
    marker->point1->setCoords(static_cast<double>(current), 0);
    marker->point2->setCoords(static_cast<double>(current), 1);
    marker->setPen(QPen(ink, penWidth() * 1.5));
    m_current = addLabel(m_plot, ink, m_frame.paper());
    m_current->setBrush(Qt::NoBrush);
    m_current->setClipToAxisRect(false);
    m_current->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_current->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_current->position->setCoords(static_cast<double>(current), 0);
    // Written away from the nearer end, so it stays on the chart.
    const double along = std::log(static_cast<double>(current) / static_cast<double>(from))
        / std::log(static_cast<double>(std::max(to, from + 1)) / static_cast<double>(from));
    m_current->setPositionAlignment((along < 0.5 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
    const QString value = QString::fromStdString(core::groupDigits(current));
    m_current->setText(m_axis == core::SweepAxis::Batch ? tr("this scenario: batch %1").arg(value)
                                                         : tr("this scenario: %1 tokens").arg(value));
}

QString SweepChart::drawClipped(const std::vector<core::SweepPoint> &points, const QVector<double> &totals, double top)
{
    // A red edge where the total leaves the chart, and a note of how far it goes.
    const auto beyond = std::find_if(totals.begin(), totals.end(), [top](double v) { return v > top; });
    if (beyond == totals.end())
        return QString();
    auto *edge = new QCPItemLine(m_plot);
    edge->start->setCoords(static_cast<double>(points[static_cast<std::size_t>(beyond - totals.begin())].value), top);
    edge->end->setCoords(static_cast<double>(points.back().value), top);
    edge->setPen(QPen(QColor(0xC0, 0x3A, 0x00), penWidth() * 4)); // Okabe-Ito vermillion, as "cannot fit"
    const auto most = std::max_element(points.begin(), points.end(),
                                       [](const core::SweepPoint &a, const core::SweepPoint &b) { return a.total < b.total; });
    const QString total = bytesText(most->total, m_unit, 1);
    const QString at = QString::fromStdString(core::groupDigits(most->value));
    return m_axis == core::SweepAxis::Batch ? tr("Above the chart: up to %1 at batch %2").arg(total, at)
                                            : tr("Above the chart: up to %1 at %2 tokens").arg(total, at);
}

double SweepChart::penWidth() const
{
    return m_frame.isPresentation() ? 2.5 : 1.2;
}

void SweepChart::fitToSize()
{
    const QFont font = m_frame.font();
    bool moved = m_frame.fit(kMinPlotWidthInLines * QFontMetricsF(font).height());
    // A strip above the plot for the scenario's marker label, and room at
    // the right for half the last tick label, which is centred on the end.
    int strip = 0;
    if (m_current) {
        m_current->setFont(font);
        strip = static_cast<int>(std::ceil(boxSize(m_current).height())) + 2;
    }
    const QString last = QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(m_plot->xAxis->range().upper)));
    const QMargins margins(0, strip, static_cast<int>(std::ceil(textWidth(last, m_plot->xAxis->tickLabelFont()) / 2)) + 2, 0);
    if (m_plot->axisRect()->minimumMargins() != margins) {
        m_plot->axisRect()->setMinimumMargins(margins);
        moved = true;
    }
    if (moved)
        relayout(m_plot);
    // Labels wrap to part of the plot's width; where they do not all find
    // room they try again on whole-width lines, then in smaller type.
    const QRectF area = QRectF(m_plot->axisRect()->rect()).adjusted(2, 2, -2, -2);
    // Last, the lines without a crossing go unlabelled: the summary above
    // the plot names their cards.
    const struct
    {
        double share;
        double scale;
        bool crossingsOnly;
    } attempts[] = {{kLabelShare, 1.0, false}, {1.0, 1.0, false}, {1.0, kSmallTextScale, false}, {1.0, kSmallTextScale, true}};
    for (const auto &attempt : attempts) {
        QFont text = font;
        text.setPointSizeF(font.pointSizeF() * attempt.scale);
        if (placeLabels(area, text, area.width() * attempt.share, attempt.crossingsOnly))
            break;
    }
}

bool SweepChart::placeLabels(const QRectF &area, const QFont &font, double width, bool crossingsOnly)
{
    // Each capacity label on its line where free, ending at its crossing,
    // else nearest to it.
    std::vector<LineLabel> lines;
    QVector<CapacityLabel> shown;
    for (const CapacityLabel &label : m_capacityLabels) {
        label.item->setVisible(!crossingsOnly || label.crossing > 0);
        label.leader->setVisible(false);
        if (!label.item->visible())
            continue;
        shown << label;
        label.item->setFont(font);
        label.item->setText(wrapText(label.text, font, width - 6));
        const QSizeF size = boxSize(label.item);
        const double crossing = label.crossing > 0 ? m_plot->xAxis->coordToPixel(label.crossing) : area.left();
        lines.push_back({size, m_plot->yAxis->coordToPixel(label.capacity), crossing - size.width()});
    }
    const LinePlacement placement = placeOnLines(lines, area);
    for (int i = 0; i < shown.size(); ++i) {
        const CapacityLabel &label = shown[i];
        const QRectF &rect = placement.rects[static_cast<std::size_t>(i)];
        const double lineY = lines[static_cast<std::size_t>(i)].lineY;
        label.item->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label.item->position->setCoords(rect.topLeft());
        // A label away from its line points to it.
        const bool away = rect.bottom() < lineY - 1 || rect.top() > lineY + 1;
        label.leader->setVisible(away);
        const double x = rect.left() + 6;
        label.leader->start->setCoords(x, rect.bottom() < lineY ? rect.bottom() : rect.top());
        label.leader->end->setCoords(x, lineY);
    }
    return placement.complete;
}

QList<ChartLabel> SweepChart::labels() const
{
    return m_frame.labels() + itemLabels(m_plot) + tickLabels(m_plot->xAxis);
}

} // namespace ui
