#include "ui/memorychart.h"

#include "core/explain.h"
#include "ui/termstyle.h"

#include <QPrinter>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

constexpr double kBarWidth = 0.62;

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

QColor verdictColor(const core::GpuFit &fit)
{
    // Okabe-Ito: bluish green = fits, orange = needs several, vermillion = cannot.
    if (fit.fits)
        return QColor(0x00, 0x7A, 0x5A);
    return fit.gpusNeeded > 0 ? QColor(0xB0, 0x6A, 0x00) : QColor(0xC0, 0x3A, 0x00);
}

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_title(new QCPTextElement(m_plot))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(420, 260);

    m_plot->plotLayout()->insertRow(0);
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_plot->plotLayout()->addElement(0, 0, m_title);

    // The legend sits in its own column so it never hides a bar.
    m_plot->legend->setVisible(true);
    auto *legendCell = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 1, legendCell);
    legendCell->addElement(0, 0, m_plot->legend);
    legendCell->addElement(1, 0, new QCPLayoutElement(m_plot)); // pushes the legend to the top
    legendCell->setRowStretchFactor(1, 10);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);

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
    applyPalette();
    rebuildAxes();
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
    m_presentation = on;
    applyPalette();
    for (core::TermId id : core::allTerms())
        m_bars[static_cast<std::size_t>(id)]->setBrush(on ? hatchedBrush(id) : QBrush(termColor(id)));
    QFont font = this->font();
    if (on)
        font.setPointSizeF(font.pointSizeF() * 1.5);
    QFont bold = font;
    bold.setBold(true);
    m_title->setFont(bold);
    m_plot->legend->setFont(font);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
    }
    for (QCPItemText *text : m_verdicts)
        text->setFont(bold);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryChart::applyPalette()
{
    const QPalette p = palette();
    const QColor text = m_presentation ? QColor(Qt::black) : p.color(QPalette::Text);
    m_plot->setBackground(m_presentation ? QBrush(Qt::white) : p.brush(QPalette::Base));
    m_title->setTextColor(text);
    m_plot->legend->setTextColor(text);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        QColor grid = text;
        grid.setAlpha(60);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
    for (QCPItemLine *line : m_capacity)
        line->setPen(QPen(text, m_presentation ? 4 : 2, Qt::DashLine));
}

void MemoryChart::setTitle(const QString &title, const QString &subtitle)
{
    m_title->setText(subtitle.isEmpty() ? title : title + QLatin1Char('\n') + subtitle);
}

void MemoryChart::setUnit(core::ByteUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (m_catalog)
        showEstimate(m_scenario, m_result, *m_catalog);
}

void MemoryChart::setLogScale(bool logarithmic)
{
    m_log = logarithmic;
    rebuildAxes();
    m_plot->replot();
}

void MemoryChart::rebuildAxes()
{
    const QString unit = QString::fromUtf8(core::gigaSuffix(m_unit));
    m_plot->yAxis->setLabel(tr("Memory per GPU (%1)").arg(unit));
    if (m_log) {
        m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    double top = 1;
    for (const core::GpuFit &fit : m_result.fits)
        top = std::max({top, core::toGiga(fit.layoutTotal, m_unit), core::toGiga(fit.capacity, m_unit)});
    top = std::min(top, 1e9); // saturated totals ("exceeds") stay on the chart
    const double bottom = m_log ? 0.05 : 0.0;
    for (QCPBars *bars : m_bars)
        bars->setBaseValue(bottom);
    m_plot->yAxis->setRange(bottom, m_log ? top * 3 : top * 1.18);
    m_plot->xAxis->setRange(0.4, std::max<double>(1, m_categoryNames.size()) + 0.6);
}

void MemoryChart::layoutItems(int count)
{
    while (m_capacity.size() < count) {
        auto *line = new QCPItemLine(m_plot);
        line->setPen(QPen(palette().color(QPalette::Text), 2, Qt::DashLine));
        line->setHead(QCPLineEnding::esNone);
        m_capacity.push_back(line);
        auto *text = new QCPItemText(m_plot);
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setPadding(QMargins(0, 0, 0, 4));
        QFont bold = font();
        bold.setBold(true);
        text->setFont(bold);
        m_verdicts.push_back(text);
    }
    for (int i = 0; i < m_capacity.size(); ++i) {
        m_capacity[i]->setVisible(i < count);
        m_verdicts[i]->setVisible(i < count);
    }
}

void MemoryChart::showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                               const core::Catalog &catalog)
{
    m_scenario = scenario;
    m_result = result;
    m_catalog = &catalog;
    const int n = static_cast<int>(result.fits.size());
    QVector<double> keys(n);
    m_categoryNames.clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int i = 0; i < n; ++i) {
        const core::GpuFit &fit = result.fits[static_cast<std::size_t>(i)];
        keys[i] = i + 1;
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        const QString name = gpu ? shortGpuName(*gpu) : QString::fromStdString(fit.gpuId);
        m_categoryNames << name;
        QString label = name;
        label.replace(QLatin1Char(' '), QLatin1Char('\n'));
        if (fit.layoutGpus > 1)
            label += QStringLiteral("\n× %1").arg(fit.layoutGpus);
        ticker->addTick(i + 1, label);
    }
    if (n > 0 || !catalog.gpus.empty())
        m_plot->xAxis->setTicker(ticker);

    // The legend lists the drawn terms in stacking order, bottom first.
    m_plot->legend->clearItems();
    for (core::TermId id : core::allTerms()) {
        QVector<double> values(n);
        bool any = false;
        for (int i = 0; i < n; ++i) {
            values[i] = core::toGiga(result.fits[static_cast<std::size_t>(i)].layoutTerms[static_cast<std::size_t>(id)], m_unit);
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
        const core::GpuFit &fit = result.fits[static_cast<std::size_t>(i)];
        const double capacity = core::toGiga(fit.capacity, m_unit);
        m_capacity[i]->start->setCoords(i + 1 - kBarWidth / 2 - 0.08, capacity);
        m_capacity[i]->end->setCoords(i + 1 + kBarWidth / 2 + 0.08, capacity);
        const double top = std::max(capacity, std::min(core::toGiga(fit.layoutTotal, m_unit), 1e9));
        m_verdicts[i]->position->setCoords(i + 1, top);
        m_verdicts[i]->setText(verdictText(fit));
        m_verdicts[i]->setColor(verdictColor(fit));
    }
    rebuildAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QVector<double> MemoryChart::barValues(core::TermId term) const
{
    QVector<double> values;
    for (auto it = m_bars[static_cast<std::size_t>(term)]->data()->constBegin();
         it != m_bars[static_cast<std::size_t>(term)]->data()->constEnd(); ++it)
        values << it->value;
    return values;
}

QStringList MemoryChart::verdicts() const
{
    QStringList texts;
    for (int i = 0; i < m_categoryNames.size(); ++i)
        texts << m_verdicts[i]->text();
    return texts;
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
        if (fit.layoutGpus == m_scenario.gpus) {
            const core::Derivation why = core::explainTerm(m_scenario, m_result.estimate, id);
            text += QStringLiteral("<br><code>%1</code><br><small>%2<br>%3</small>")
                        .arg(QString::fromStdString(why.formula).toHtmlEscaped(),
                             QString::fromStdString(why.note).toHtmlEscaped(),
                             QString::fromStdString(why.source).toHtmlEscaped());
        } else {
            text += QStringLiteral("<br>") + tr("per GPU, with %1 GPUs").arg(fit.layoutGpus);
        }
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
        return;
    }
    QToolTip::hideText();
}

QString MemoryChart::title() const
{
    return m_title->text();
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
