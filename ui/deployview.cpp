#include "ui/deployview.h"

#include "core/analysis/llamafit.h"
#include "core/analysis/performance.h"
#include "core/analysis/sweep.h"
#include "core/explain/servingplanreport.h"
#include "core/scenario/servingruntime.h"
#include "ui/chartlabels.h"
#include "ui/language.h"
#include "ui/plotframe.h"
#include "ui/servingtext.h"
#include "ui/termstyle.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

/// Pixels around each cell's text.
const QMargins kCellMargins(8, 4, 8, 4);

/// "42.1 / 1,554": tokens/s of each sequence and of the whole batch.
QString eachAndAll(const ServingNumbers &n)
{
    return QStringLiteral("%1 / %2").arg(n.perSequence, n.aggregate);
}

QString dollars(const QString &amount)
{
    return amount.isEmpty() ? QStringLiteral("—") : QStringLiteral("$") + amount;
}

} // namespace

DeployView::DeployView(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot), m_title(new QCPTextElement(m_plot)), m_table(new QCPLayoutGrid),
      m_footer(new QCPTextElement(m_plot)), m_planButton(new QPushButton(tr("Plan for &Me"))),
      m_fitsButton(new QPushButton(tr("Show the &fits")))
{
    // No axes: a title over a table and its footnote, with room below to spare.
    QCPLayoutGrid *layout = m_plot->plotLayout();
    layout->clear();
    layout->addElement(0, 0, m_title);
    layout->addElement(1, 0, m_table);
    layout->addElement(2, 0, m_footer);
    layout->addElement(3, 0, new QCPLayoutElement(m_plot));
    layout->setRowStretchFactors({0.001, 0.001, 0.001, 1});
    for (QCPTextElement *text : {m_title, m_footer}) {
        text->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        text->setMargins(QMargins(8, 8, 8, 8));
    }
    m_table->setRowSpacing(0);
    m_table->setColumnSpacing(0);

    m_planButton->setToolTip(tr("The cheapest GPUs and layouts per serving engine for the request rate, output tokens "
                                "and the time to first token and per output token targets (plan --serve)"));
    m_fitsButton->setVisible(false);
    connect(m_planButton, &QPushButton::clicked, this, &DeployView::planRequested);
    connect(m_fitsButton, &QPushButton::clicked, this, &DeployView::fitsRequested);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(8, 4, 8, 0);
    bar->addWidget(m_planButton);
    bar->addWidget(m_fitsButton);
    bar->addStretch(1);

    auto *scroll = new QScrollArea;
    scroll->setWidget(m_plot);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->addLayout(bar);
    box->addWidget(scroll);
    setMinimumSize(420, 260);
    connect(m_plot, &QCustomPlot::afterLayout, this, &DeployView::fitToSize);
}

void DeployView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_rows.empty())
        fill();
}

void DeployView::setPresentation(bool on)
{
    m_presentation = on;
    if (!m_rows.empty())
        fill();
}

void DeployView::showDeployment(const core::EstimateWithFits &result, const core::Catalog &catalog,
                                const std::vector<std::string> &gpuIds, core::ByteUnit unit)
{
    const core::Scenario &s = result.scenario;
    dropPlan();
    m_rows.clear();
    m_textColumns = {Gpu};
    m_verdictColumn = Fit;
    m_footnote.clear();
    m_planButton->setEnabled(!s.isTraining());
    const QString batch = groupedCount(static_cast<double>(s.batch));
    // Headers on three short lines keep the table within the chart's width.
    m_headers = {tr("GPU"),
                 tr("Fit"),
                 tr("KV cache\nbudget\n(tokens)"),
                 tr("Sequences\nat %1\ntokens").arg(groupedCount(static_cast<double>(s.contextTokens()))),
                 tr("First\ntoken\n(s)"),
                 tr("Decode at\nbatch %1 (tok/s)\neach / in all").arg(batch),
                 tr("Decode at full\nconcurrency (tok/s)\neach / in all"),
                 tr("$ per million\ntokens\nbatch %1 / full").arg(batch),
                 s.workload.requestRate > 0 ? tr("Requests/s\n(GPUs for\n%1 per second)").arg(QString::number(s.workload.requestRate, 'f', 2))
                                            : tr("Requests/s\nof %1\noutput tokens").arg(groupedCount(static_cast<double>(s.workload.outputTokens)))};
    QStringList lines{scenarioSummary(s)};
    if (s.isTraining()) {
        // Serving figures of a training run would read as zeros.
        lines << tr("Deploy shows what serving the model takes: switch the mode to Inference to see it.");
        m_heading = lines.join(QLatin1Char('\n'));
        fill();
        return;
    }
    if (!result.estimate.isValid()) {
        lines << tr("Layout not valid: %1").arg(firstProblem(result.estimate));
    } else {
        const QString host = hostMemoryText(result.estimate, unit);
        lines << tr("Per GPU %1; host memory beside each GPU: %2")
                     .arg(bytesText(result.estimate.total, unit), host.isEmpty() ? tr("none") : host);
        if (const core::DeviceSetFit &set = result.deviceSet; !set.devices.empty()) {
            // The rows below ask "what if every GPU were this one"; the set itself is this line.
            QStringList devices;
            for (const core::DeviceFit &device : set.devices)
                devices << (device.fits ? shortGpuName(*catalog.find(device.gpuId))
                                        : tr("%1 (does not fit)").arg(shortGpuName(*catalog.find(device.gpuId))));
            lines << (set.hasKvTokens ? tr("Mixed set: %1; room for %2 KV tokens").arg(devices.join(QStringLiteral(" + ")),
                                                                                        groupedCount(static_cast<double>(set.kvTokens)))
                                      : tr("Mixed set: %1").arg(devices.join(QStringLiteral(" + "))));
        }
        lines << (s.workload.pricePerGpuHour > 0
                      ? tr("Costs at $%1 per GPU-hour; full concurrency fills the KV cache budget.")
                            .arg(QString::number(s.workload.pricePerGpuHour, 'f', 2))
                      : tr("No costs: set a price per GPU-hour on the Cluster page."));
        // vLLM's batch defaults follow the card, SGLang's communicators its
        // link: say which rows run which.
        if (!result.otherCards.empty()) {
            QStringList batches;
            const bool defaults = core::defaultsFollowTheCard(s);
            const auto batchOf = [&](const core::Scenario &on, const core::Estimate &e, const QStringList &names) {
                const QString cards = names.size() > 2
                    ? tr("%1 and %2 more").arg(names.mid(0, 2).join(QStringLiteral(", "))).arg(names.size() - 2)
                    : names.join(QStringLiteral(", "));
                if (!defaults)
                    return tr("%1 per GPU on %2").arg(bytesText(e.total, unit), cards);
                return tr("%1 sequences, %2 tokens a step, %3 per GPU on %4")
                    .arg(groupedCount(static_cast<double>(on.effectiveMaxNumSeqs())),
                         groupedCount(static_cast<double>(on.effectiveMaxBatchedTokens())), bytesText(e.total, unit), cards);
            };
            const auto namesOn = [&](const core::Scenario &on) {
                QStringList names;
                for (const std::string &id : gpuIds)
                    if (const core::GpuSpec *gpu = catalog.find(id); gpu && &result.scenarioOn(*gpu) == &on)
                        names << shortGpuName(*gpu);
                return names;
            };
            batches << batchOf(s, result.estimate, namesOn(s));
            for (const core::EstimateWithFits::OnCard &other : result.otherCards)
                batches << batchOf(other.scenario, other.estimate, namesOn(other.scenario));
            lines << (defaults ? tr("vLLM's defaults follow the card: %1")
                               : tr("The engine's NCCL communicators follow each card's link: %1"))
                         .arg(batches.join(tr("; ")));
        }
    }
    m_heading = lines.join(QLatin1Char('\n'));
    // The fits come in catalog order; the rows follow `gpuIds`, the scenario's GPU first.
    for (const std::string &id : gpuIds) {
        const auto fit = std::find_if(result.fits.begin(), result.fits.end(), [&id](const core::GpuFit &f) { return f.gpuId == id; });
        const core::GpuSpec *gpu = catalog.find(id);
        if (fit == result.fits.end() || !gpu)
            continue;
        // Each row on the estimate its fit was made with (vLLM's defaults
        // follow the card, SGLang's communicators its link).
        const core::Scenario &onCard = result.scenarioOn(*gpu);
        const ServingNumbers atBatch = servingNumbers(core::performance(onCard, result.estimateOn(*gpu), *gpu));
        QString full = QStringLiteral("—");
        QString fullCost;
        if (fit->concurrentSequences > 0) {
            const core::Scenario filled = core::withAxis(onCard, core::SweepAxis::Batch, fit->concurrentSequences);
            const core::Estimate atFull =
                result.onFocusCard(*gpu) ? core::estimateVariant(result, filled) : core::estimate(filled);
            const ServingNumbers n = servingNumbers(core::performance(filled, atFull, *gpu));
            full = eachAndAll(n);
            fullCost = n.costPerMillion;
        }
        QStringList row(ColumnCount);
        row[Gpu] = shortGpuName(*gpu);
        row[Fit] = ui::verdictText(*fit);
        // Where layers can stay in host memory: how many fit on this GPU,
        // when that is news (some layers do not, or offloading was asked).
        const bool allLayers = fit->maxGpuLayers >= 0 && static_cast<std::uint64_t>(fit->maxGpuLayers) > s.model.layers;
        if (fit->hasGpuLayers && (!allLayers || s.gpuLayers))
            // llama.cpp's -ngl N: the output layer first, then N - 1 layers;
            // generate()'s device_map: the first N layers.
            row[Fit] += QLatin1Char('\n')
                + (fit->maxGpuLayers < 0  ? tr("no layers fit")
                   : allLayers            ? tr("all layers fit")
                   : !core::usesGgmlBuffers(s) ? tr("%1 of %2 layers fit").arg(fit->maxGpuLayers).arg(s.model.layers)
                   : fit->maxGpuLayers == 0 ? tr("only -ngl 0 fits: every layer in host memory")
                       : tr("the output layer and %1 of %2 layers fit").arg(fit->maxGpuLayers - 1).arg(s.model.layers));
        // What llama-server would choose itself (--fit, -c and -ngl unset),
        // wrapped to the width of the verdicts.
        if (core::fitsItselfAtLoad(s))
            row[Fit] += QLatin1Char('\n')
                + wrapText(tr("--fit: %1")
                               .arg(QString::fromStdString(core::render(
                                   core::llamaServerFitMessage(core::llamaServerFit(s, *gpu), s.model), translateForCore))),
                           font(), 340);
        // What the card cannot run of the scenario, or why the engine would
        // not start on it (the GPUs table's warnings), under the verdict.
        for (const core::Message &warning : fit->warnings)
            row[Fit] += QLatin1Char('\n')
                + wrapText(QStringLiteral("! ") + QString::fromStdString(core::render(warning, translateForCore)), font(), 220);
        row[KvBudget] = fit->hasKvTokens ? groupedCount(static_cast<double>(fit->kvTokens)) : QStringLiteral("—");
        row[Sequences] = fit->hasKvTokens ? groupedCount(static_cast<double>(fit->concurrentSequences)) : QStringLiteral("—");
        row[FirstToken] = atBatch.ttftSeconds;
        row[DecodeAtBatch] = eachAndAll(atBatch);
        row[DecodeAtFull] = full;
        row[Cost] = QStringLiteral("%1 / %2").arg(dollars(atBatch.costPerMillion), dollars(fullCost));
        // A replica is the scenario's GPUs: where they cannot hold it, none serves.
        row[Requests] = !fit->fits                    ? QStringLiteral("—")
                        : atBatch.gpusForRate.isEmpty() ? atBatch.requestsPerSecond
                                                        : QStringLiteral("%1 (%2)").arg(atBatch.requestsPerSecond, atBatch.gpusForRate);
        m_rows.push_back({row, fit->fits, verdictColor(*fit)});
    }
    fill();
}

void DeployView::showServingPlan(ShownPlan shown, const core::Catalog &catalog)
{
    const core::ServingPlanTable table = core::servingPlanTable(shown.plan, catalog, translateForCore);
    m_headers.clear();
    for (const std::string &header : table.headers)
        m_headers << wrapText(QString::fromStdString(header), font(), 110);
    m_rows.clear();
    for (const std::vector<std::string> &cells : table.rows) {
        QStringList row;
        for (const std::string &cell : cells)
            row << QString::fromStdString(cell);
        m_rows.push_back({row, true, QColor()});
    }
    m_textColumns.clear();
    for (std::size_t c = 0; c < table.textColumns.size(); ++c)
        if (table.textColumns[c])
            m_textColumns.push_back(static_cast<int>(c));
    m_verdictColumn = -1;
    const auto text = [](const std::string &line) { return QString::fromStdString(line); };
    QStringList lines{text(core::labelled(core::servingPlanTitle(translateForCore),
                                          core::servingPlanHeading(shown.base, translateForCore), translateForCore)),
                      scenarioSummary(shown.base)};
    if (table.rows.empty())
        lines << text(core::servingPlanNone(translateForCore));
    const std::vector<std::string> rejected =
        core::servingPlanRejections(shown.plan, shown.request, catalog, translateForCore);
    if (!rejected.empty())
        lines << text(core::listTitle(core::servingPlanRejectedTitle(translateForCore), translateForCore));
    for (const std::string &line : rejected)
        lines << QStringLiteral("  ") + QString::fromStdString(line);
    m_heading = lines.join(QLatin1Char('\n'));
    QStringList notes;
    notes << text(core::listTitle(core::servingPlanAssumptionsTitle(translateForCore), translateForCore));
    for (const std::string &line : core::servingPlanAssumptions(shown.base, translateForCore))
        notes << QStringLiteral("• ") + text(line);
    m_footnote = notes.join(QLatin1Char('\n'));
    m_plan = std::move(shown);
    m_fitsButton->setVisible(true);
    fill();
}

void DeployView::dropPlan()
{
    m_plan.reset();
    m_fitsButton->setVisible(false);
}

void DeployView::fill()
{
    QFont font = m_plot->font();
    if (m_presentation)
        font.setPointSizeF(font.pointSizeF() * PlotFrame::kPresentationScale);
    const QColor ink = m_presentation ? QColor(Qt::black) : palette().color(QPalette::Text);
    QColor faint = ink;
    faint.setAlpha(140); // figures of a GPU the scenario does not fit are what-ifs
    m_plot->setBackground(m_presentation ? QColor(Qt::white) : palette().color(QPalette::Base));
    QFont bold = font;
    bold.setBold(true);
    m_title->setFont(font);
    m_title->setTextColor(ink);
    m_title->setText(m_heading);

    m_table->clear();
    const auto add = [this](int row, int column, const QString &text, const QFont &f, const QColor &color, Qt::Alignment align) {
        auto *cell = new QCPTextElement(m_plot, text, f);
        cell->setTextColor(color);
        cell->setTextFlags(static_cast<int>(align | Qt::AlignVCenter));
        cell->setMargins(kCellMargins);
        m_table->addElement(row, column, cell);
    };
    const auto align = [this](int column) {
        return std::find(m_textColumns.begin(), m_textColumns.end(), column) != m_textColumns.end() ? Qt::AlignLeft
                                                                                                  : Qt::AlignRight;
    };
    const int columns = static_cast<int>(m_headers.size());
    for (int c = 0; c < columns; ++c)
        add(0, c, m_headers[c], bold, ink, align(c));
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const bool focus = r == 0; // the scenario's own GPU, or the cheapest layout
        const Row &row = m_rows[r];
        for (int c = 0; c < columns; ++c)
            add(static_cast<int>(r) + 1, c, row.cells[c], focus ? bold : font,
                c == m_verdictColumn ? row.verdict : row.fits ? ink : faint, align(c));
    }
    m_footer->setFont(font);
    m_footer->setTextColor(ink);
    m_footer->setText(m_footnote);
    m_footer->setVisible(!m_footnote.isEmpty());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void DeployView::fitToSize()
{
    // The table never squeezes: the plot is as large as the table and its
    // heading (wrapped to the table's width) need, and the view scrolls.
    const QSize table = m_table->minimumOuterSizeHint();
    const int width = std::max(table.width(), 400) - 16;
    bool changed = false;
    for (auto [element, text] : {std::pair{m_title, &m_heading}, std::pair{m_footer, &m_footnote}}) {
        const QString wrapped = wrapText(*text, element->font(), width);
        if (wrapped != element->text()) {
            element->setText(wrapped);
            changed = true;
        }
    }
    if (changed)
        relayout(m_plot);
    const QSize needed = m_plot->plotLayout()->minimumOuterSizeHint();
    if (m_plot->minimumSize() != needed)
        m_plot->setMinimumSize(needed);
}

} // namespace ui
