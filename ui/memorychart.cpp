#include "ui/memorychart.h"

#include "core/analysis/suggest.h"
#include "core/explain/explain.h"
#include "ui/language.h"
#include "ui/termstyle.h"

#include <QPrinter>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

constexpr double kBarWidth = 0.62;
/// Share of a bar's slot its labels may take, leaving a gap to the next.
constexpr double kSlotShare = 0.85;
/// Labels shrink to fit narrow slots, but no further than this.
constexpr double kMinTextScale = 0.7;
/// Labels above the bars take at most this share of the plot's height.
constexpr double kMaxLabelShare = 0.6;

QFont scaled(QFont font, double scale, bool bold)
{
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(bold);
    return font;
}

/// The term's colour with a hatch of its own, so neighbouring terms stay
/// distinct when printed in grey or shown on a washed-out projector.
QBrush hatchedBrush(core::TermId id)
{
    QPixmap tile(12, 12);
    tile.fill(termColor(id));
    QPainter painter(&tile);
    painter.setPen(QPen(QColor(0, 0, 0, 110), 1.5));
    // Neighbours in the stack and the large terms get different hatches.
    enum Hatch { Solid, Slash, Backslash, Horizontal, Vertical, Cross, Dots };
    static const Hatch hatches[core::kTermCount] = {Solid,     Slash, Horizontal, Cross,  Backslash, Vertical, Dots,
                                                    Slash,     Solid, Backslash,  Cross,  Horizontal, Solid};
    switch (hatches[static_cast<std::size_t>(id)]) {
    case Slash:
        painter.drawLine(0, 12, 12, 0);
        break;
    case Backslash:
        painter.drawLine(0, 0, 12, 12);
        break;
    case Horizontal:
        painter.drawLine(0, 6, 12, 6);
        break;
    case Vertical:
        painter.drawLine(6, 0, 6, 12);
        break;
    case Cross:
        painter.drawLine(0, 0, 12, 12);
        painter.drawLine(0, 12, 12, 0);
        break;
    case Dots:
        painter.drawPoint(3, 3);
        painter.drawPoint(9, 9);
        break;
    case Solid:
        break;
    }
    return QBrush(tile);
}

/// The room a label takes above its bar: none when hidden.
QSizeF annotationSize(const QCPItemText *text)
{
    return text->visible() ? boxSize(text) : QSizeF();
}

/// The verdict as it may wrap: "needs 20 ×" breaks, but never before its "×".
QString unbroken(QString verdict)
{
    return verdict.replace(QStringLiteral(" ×"), QStringLiteral("\u00a0×"));
}

/// A mixed set's devices as the chart's bars: each device's own share
/// against its own memory, one GPU each.
std::vector<core::GpuFit> deviceBars(const core::DeviceSetFit &set)
{
    std::vector<core::GpuFit> bars;
    for (const core::DeviceFit &device : set.devices) {
        core::GpuFit bar;
        bar.gpuId = device.gpuId;
        bar.capacity = device.capacity;
        bar.fits = device.fits;
        bar.headroom = device.headroom;
        bar.shortfall = device.shortfall;
        bar.gpusNeeded = device.fits ? 1 : 0;
        bar.layoutTerms = device.terms;
        bar.layoutTotal = device.total;
        bars.push_back(bar);
    }
    return bars;
}

/// The host side of one machine as a bar: its terms, against the host
/// memory the scenario gives (none: no capacity line).
core::GpuFit hostBar(const core::Scenario &s, const core::Estimate &e)
{
    const int perMachine = std::min(s.gpus, std::max(1, s.parallel.gpusPerNode));
    core::GpuFit bar;
    for (std::size_t t = 0; t < core::kTermCount; ++t)
        bar.layoutTerms[t] = core::Bytes::fromDouble(static_cast<double>(e.details.hostTermsPerGpu[t].count()) * perMachine);
    bar.layoutTotal = core::Bytes::fromDouble(core::hostBytesPerMachine(s, e));
    bar.capacity = core::Bytes::fromDouble(s.hostMemoryGib * 1024 * 1024 * 1024);
    bar.fits = s.hostMemoryGib <= 0 || bar.layoutTotal <= bar.capacity;
    bar.headroom = bar.capacity - bar.layoutTotal;
    bar.shortfall = bar.fits ? core::Bytes() : bar.layoutTotal - bar.capacity;
    bar.layoutGpus = 0; // not a GPU: no derivation of a GPU's term
    return bar;
}

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_frame(m_plot, true)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(420, 260);

    QCPBars *below = nullptr;
    for (core::TermId id : core::allTerms()) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(termName(id));
        bars->setWidth(kBarWidth);
        bars->setBrush(termColor(id));
        bars->setPen(QPen(termColor(id).darker(130), 1));
        bars->setAntialiased(false);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_bars[static_cast<std::size_t>(id)] = bars;
    }
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLength(0, 4);
    m_plot->yAxis->grid()->setSubGridVisible(false);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &MemoryChart::showToolTip);
    // Every layout (screen, export, print) fits the text to the size drawn.
    connect(m_plot, &QCustomPlot::afterLayout, this, &MemoryChart::fitToSize);
    applyPalette();
}

void MemoryChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MemoryChart::setPresentation(bool on)
{
    m_frame.setPresentation(on);
    for (core::TermId id : core::allTerms())
        m_bars[static_cast<std::size_t>(id)]->setBrush(on ? hatchedBrush(id) : QBrush(termColor(id)));
    applyPalette();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryChart::applyPalette()
{
    m_frame.applyPalette();
    for (QCPItemLine *line : m_capacity)
        line->setPen(QPen(m_frame.ink(), isPresentation() ? 4 : 2, Qt::DashLine));
    for (QCPItemText *total : m_totals)
        total->setColor(m_frame.ink());
}

void MemoryChart::setTitle(const QString &title) { m_frame.setTitle(title); }

void MemoryChart::setUnit(core::ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (m_catalog)
        showEstimate(m_scenario, m_result, *m_catalog);
}

void MemoryChart::layoutItems(int count)
{
    while (m_capacity.size() < count) {
        auto *line = new QCPItemLine(m_plot);
        line->setHead(QCPLineEnding::esNone);
        m_capacity.push_back(line);
        for (QVector<QCPItemText *> *texts : {&m_totals, &m_verdicts}) {
            auto *text = new QCPItemText(m_plot);
            text->position->setType(QCPItemPosition::ptAbsolute);
            text->position->setCoords(0, 0);
            text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            text->setPadding(QMargins(0, 0, 0, 2));
            texts->push_back(text);
        }
    }
    for (int i = 0; i < m_capacity.size(); ++i) {
        m_capacity[i]->setVisible(i < count);
        m_totals[i]->setVisible(i < count);
        m_verdicts[i]->setVisible(i < count);
    }
    applyPalette();
}

void MemoryChart::showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                               const core::Catalog &catalog)
{
    m_scenario = scenario;
    m_result = result;
    m_catalog = &catalog;
    // A mixed set shows its own devices, each against its own memory.
    const bool devices = !result.deviceSet.devices.empty();
    if (devices)
        m_result.fits = deviceBars(result.deviceSet);
    // Host RAM beside the GPUs (llama.cpp's host side, ZeRO-Offload's
    // states) is a bar of its own, against the host memory given.
    const double host = result.estimate.isValid() ? core::hostBytesPerMachine(scenario, result.estimate) : 0.0;
    m_hostBar = host > 0 ? static_cast<int>(m_result.fits.size()) : -1;
    if (m_hostBar >= 0)
        m_result.fits.push_back(hostBar(scenario, result.estimate));
    const std::vector<core::GpuFit> &fits = m_result.fits;
    const int n = static_cast<int>(fits.size());
    QVector<double> keys(n);
    m_categoryNames.clear();
    m_verdictTexts.clear();
    m_whyTexts.clear();
    m_totalTexts.clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    // One search for every bar: the GPUs that cannot fit share its split.
    core::FitSearch search(scenario);
    for (int i = 0; i < n; ++i) {
        const core::GpuFit &fit = fits[static_cast<std::size_t>(i)];
        keys[i] = i + 1;
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        const QString name = i == m_hostBar ? tr("Host RAM") : gpu ? shortGpuName(*gpu) : QString::fromStdString(fit.gpuId);
        m_categoryNames << name;
        QString label = name;
        label.replace(QLatin1Char(' '), QLatin1Char('\n'));
        if (devices && i != m_hostBar)
            label.prepend(tr("GPU %1").arg(i) + QLatin1Char('\n'));
        if (fit.layoutGpus > 1)
            label += QStringLiteral("\n× %1").arg(fit.layoutGpus);
        ticker->addTick(i + 1, label);
        // Without a host memory given, the RAM bar has no verdict.
        m_verdictTexts << (i == m_hostBar && scenario.hostMemoryGib <= 0 ? QString() : verdictText(fit));
        // Under "cannot fit", why in a line: each GPU is still over by
        // this much split as far as it goes ("needs N ×" draws one of the
        // N, under its line). The tool tip has the whole story.
        m_whyTexts << QString();
        if (i != m_hostBar && !fit.fits && fit.gpusNeeded <= 0)
            if (const auto reason = search.reasonFor(result.estimate, fit); reason && reason->splitFloor())
                m_whyTexts.back() = tr("+%1 even split").arg(bytesText(reason->over, m_unit, 1));
        m_totalTexts << markGuess(bytesText(fit.layoutTotal, m_unit, 1), scenario.model);
    }
    if (n > 0 || !catalog.gpus.empty())
        m_plot->xAxis->setTicker(ticker);

    // The legend lists the drawn terms in stacking order, bottom first.
    m_plot->legend->clearItems();
    for (core::TermId id : core::allTerms()) {
        QVector<double> values(n);
        bool any = false;
        for (int i = 0; i < n; ++i) {
            values[i] = core::toGiga(fits[static_cast<std::size_t>(i)].layoutTerms[static_cast<std::size_t>(id)], m_unit);
            any = any || values[i] > 0;
        }
        QCPBars *bars = m_bars[static_cast<std::size_t>(id)];
        bars->setData(keys, values, true);
        bars->setName(termName(id));
        if (any)
            bars->addToLegend();
    }

    layoutItems(n);
    for (int i = 0; i < n; ++i) {
        const double capacity = core::toGiga(fits[static_cast<std::size_t>(i)].capacity, m_unit);
        m_capacity[i]->start->setCoords(i + 1 - kBarWidth / 2 - 0.08, capacity);
        m_capacity[i]->end->setCoords(i + 1 + kBarWidth / 2 + 0.08, capacity);
        m_capacity[i]->setVisible(capacity > 0); // a host RAM bar with no memory given
        m_verdicts[i]->setColor(verdictColor(fits[static_cast<std::size_t>(i)]));
    }
    m_plot->yAxis->setLabel(tr("Memory per GPU (%1)").arg(QString::fromUtf8(core::gigaSuffix(m_unit))));
    m_plot->xAxis->setRange(0.4, std::max(1, n) + 0.6);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryChart::fitToSize()
{
    const int n = static_cast<int>(m_result.fits.size());
    const QFont font = m_frame.font();
    // The widest word a slot must hold at full size: GPU names are one
    // word a line, totals and verdicts wrap between words.
    const QFont bold = scaled(font, 1, true);
    const auto names = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    double widest = 1;
    for (int i = 0; i < n && names; ++i)
        widest = std::max({widest, textWidth(names->ticks().value(i + 1), font),
                           textWidth(wrapText(unbroken(m_verdictTexts[i]), bold, 1), bold),
                           textWidth(wrapText(m_totalTexts[i], font, 1), font)});
    const double span = std::max(1, n) + 0.2; // the x range, 0.4 to n + 0.6
    if (m_frame.fit(widest / kSlotShare * span))
        relayout(m_plot);
    const double room = m_plot->axisRect()->width() / span * kSlotShare;
    const double scale = std::clamp(room / widest, kMinTextScale, 1.0);
    const QFont text = scaled(font, scale, false);
    if (m_plot->xAxis->tickLabelFont() != text) {
        m_plot->xAxis->setTickLabelFont(text);
        relayout(m_plot);
    }
    // Room above each bar and marker for its total and verdict, twice over
    // where even the smallest type overflows the slots and neighbours'
    // labels take turns in height.
    // In the smallest charts two tiers of both would squash the bars to
    // nothing: the why lines give way first, then the totals.
    const int tiers = widest * scale > room + 0.5 ? 2 : 1;
    const double height = m_plot->axisRect()->height();
    const auto labelBlock = [&](bool why) {
        double block = 0;
        for (int i = 0; i < n; ++i) {
            m_totals[i]->setFont(text);
            m_totals[i]->setText(wrapText(m_totalTexts[i], text, room));
            m_verdicts[i]->setFont(scaled(font, scale, true));
            const QString verdict = why && !m_whyTexts[i].isEmpty() ? m_verdictTexts[i] + QLatin1Char('\n') + m_whyTexts[i]
                                                                   : m_verdictTexts[i];
            m_verdicts[i]->setText(wrapText(unbroken(verdict), m_verdicts[i]->font(), room));
            block = std::max(block, boxSize(m_totals[i]).height() + boxSize(m_verdicts[i]).height() + 5);
        }
        return block;
    };
    double block = labelBlock(tiers == 1);
    if (tiers == 1 && block > height * kMaxLabelShare)
        block = labelBlock(false);
    const bool totals = tiers * block <= height * kMaxLabelShare;
    double top = 1;
    for (int i = 0; i < n; ++i) {
        m_totals[i]->setVisible(totals);
        const core::GpuFit &fit = m_result.fits[static_cast<std::size_t>(i)];
        // Saturated totals ("exceeds") stay on the chart.
        const double value = std::max(core::toGiga(fit.capacity, m_unit), std::min(core::toGiga(fit.layoutTotal, m_unit), 1e9));
        const double labels = tiers * (annotationSize(m_totals[i]).height() + boxSize(m_verdicts[i]).height() + 5);
        top = std::max(top, value * height / std::max(height - labels, height * (1 - kMaxLabelShare)));
    }
    const QCPRange range(0, top * 1.02);
    if (m_plot->yAxis->range() != range) {
        m_plot->yAxis->setRange(range);
        relayout(m_plot);
    }
    placeAnnotations();
}

void MemoryChart::placeAnnotations()
{
    QList<QRectF> placed;
    for (int i = 0; i < static_cast<int>(m_result.fits.size()); ++i) {
        const core::GpuFit &fit = m_result.fits[static_cast<std::size_t>(i)];
        const double x = m_plot->xAxis->coordToPixel(i + 1);
        const double bar = m_plot->yAxis->coordToPixel(std::min(core::toGiga(fit.layoutTotal, m_unit), 1e9));
        const double capacity = m_plot->yAxis->coordToPixel(core::toGiga(fit.capacity, m_unit));
        // The total sits on its bar where it fits under the capacity
        // marker, else above both; the verdict tops the marker and the total.
        const QSizeF totalSize = annotationSize(m_totals[i]);
        const QSizeF verdictSize = boxSize(m_verdicts[i]);
        double total = bar - totalSize.height() >= capacity + 2 || bar <= capacity ? bar : capacity;
        double verdict = std::min(total - totalSize.height() - 1, capacity);
        // Where a neighbour's labels are in the way, both rise above them.
        for (bool clear = false; !clear;) {
            const QRectF totalRect(x - totalSize.width() / 2, total - totalSize.height(), totalSize.width(), totalSize.height());
            const QRectF verdictRect(x - verdictSize.width() / 2, verdict - verdictSize.height(), verdictSize.width(),
                                     verdictSize.height());
            clear = true;
            for (const QRectF &other : placed) {
                const QRectF apart = other.adjusted(-2, -2, 2, 2);
                if (apart.intersects(totalRect) || apart.intersects(verdictRect)) {
                    const double rise = std::max(totalRect, verdictRect, [](const QRectF &a, const QRectF &b) {
                                            return a.bottom() < b.bottom();
                                        }).bottom() - apart.top() + 1;
                    total -= rise;
                    verdict -= rise;
                    clear = false;
                    break;
                }
            }
            if (clear)
                placed << totalRect << verdictRect;
        }
        m_totals[i]->position->setCoords(x, total);
        m_verdicts[i]->position->setCoords(x, verdict);
    }
}

QList<ChartLabel> MemoryChart::labels() const
{
    return m_frame.labels() + itemLabels(m_plot) + tickLabels(m_plot->xAxis);
}

QVector<double> MemoryChart::barValues(core::TermId term) const
{
    QVector<double> values;
    for (auto it = m_bars[static_cast<std::size_t>(term)]->data()->constBegin();
         it != m_bars[static_cast<std::size_t>(term)]->data()->constEnd(); ++it)
        values << it->value;
    return values;
}

void MemoryChart::showToolTip(QMouseEvent *event)
{
    for (core::TermId id : core::allTerms()) {
        QCPBars *bars = m_bars[static_cast<std::size_t>(id)];
        QVariant details;
        if (bars->selectTest(event->pos(), false, &details) < 0)
            continue;
        const QCPDataSelection hit = details.value<QCPDataSelection>();
        if (hit.isEmpty())
            continue;
        const int index = hit.dataRange().begin();
        if (index < 0 || index >= static_cast<int>(m_result.fits.size()))
            continue;
        const core::GpuFit &fit = m_result.fits[static_cast<std::size_t>(index)];
        const core::Bytes bytes = fit.layoutTerms[static_cast<std::size_t>(id)];
        QString text = QStringLiteral("<b>%1</b> — %2<br>%3 (%4 B)")
                           .arg(m_categoryNames.value(index), termName(id), bytesText(bytes, m_unit),
                                QString::fromStdString(core::groupDigits(bytes.count())));
        if (index == m_hostBar) {
            text += QStringLiteral("<br>") + tr("in host memory, for the GPUs of one machine");
        } else if (fit.layoutGpus == m_scenario.gpus) {
            const core::Derivation why = core::explainTerm(m_result, id, translateForCore);
            const auto escaped = [](std::string_view s) {
                return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped();
            };
            text += QStringLiteral("<br><code>%1</code><br><small>%2<br>%3</small>")
                        .arg(escaped(why.formula), escaped(why.note), escaped(why.source));
        } else {
            text += QStringLiteral("<br>") + tr("per GPU, with %1 GPUs").arg(fit.layoutGpus);
        }
        // A verdict short of "fits" says why and what would fit (searched
        // on hover only).
        if (index != m_hostBar)
            for (const QString &line : whatWouldFitLines(m_result, fit, m_unit))
                text += QStringLiteral("<br>") + line.toHtmlEscaped();
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
        return;
    }
    QToolTip::hideText();
}

QString MemoryChart::title() const
{
    return m_frame.title();
}

QPixmap MemoryChart::toPixmap(int width, int height, double scale)
{
    return m_plot->toPixmap(width, height, scale);
}

void MemoryChart::print(QPrinter *printer)
{
    QCPPainter painter;
    if (!painter.begin(printer))
        return;
    const QRect page = printer->pageLayout().paintRectPixels(printer->resolution());
    const double scale = std::min(page.width() / 1200.0, page.height() / 800.0);
    painter.scale(scale, scale);
    m_plot->toPainter(&painter, 1200, 800);
    painter.end();
}

} // namespace ui
