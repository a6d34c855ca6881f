#include "ui/breakdownpanel.h"

#include "core/explain/explain.h"
#include "core/explain/report.h"
#include "core/explain/rulesofthumb.h"
#include "core/scenario/servingruntime.h"
#include "ui/language.h"
#include "ui/termexplanations.h"
#include "ui/termstyle.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ui {

namespace {

QTableWidgetItem *cell(const QString &text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

/// Sets a cell's text, creating the item on first use. An unchanged text
/// leaves the item alone, so the view repaints only the cells that changed.
QTableWidgetItem *setCell(QTableWidget *table, int row, int column, const QString &text,
                          Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    QTableWidgetItem *item = table->item(row, column);
    if (!item)
        table->setItem(row, column, item = cell(text, alignment));
    else if (item->text() != text)
        item->setText(text);
    return item;
}

QTableWidget *makeTable(const QStringList &headers)
{
    auto *table = new QTableWidget(0, static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Columns are fitted once per fill (fitColumns), not in ResizeToContents
    // mode: that re-measures every cell on each single cell's change.
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

void fitColumns(QTableWidget *table)
{
    for (int column = 0; column + 1 < table->columnCount(); ++column)
        table->resizeColumnToContents(column);
}

QString countText(std::uint64_t n) { return n ? QString::fromStdString(core::groupDigits(n)) : QStringLiteral("–"); }

} // namespace

BreakdownPanel::BreakdownPanel(QWidget *parent)
    : QWidget(parent), m_terms(makeTable({tr("Term"), tr("Memory"), tr("Bytes/param"), tr("Share")})),
      m_why(new QTextBrowser), m_warnings(new QLabel),
      m_gpus(makeTable({tr("GPU"), tr("Memory"), tr("Verdict"), tr("Headroom"), tr("Max batch"), tr("Max context"),
                        tr("KV tokens")})),
      m_rules(makeTable({tr("Rule of thumb"), tr("Seed"), tr("Formula"), tr("Rule gives"), tr("Detailed (1 GPU)"),
                         tr("Difference")}))
{
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::RichText);
    m_why->setOpenExternalLinks(true);
    m_why->setPlaceholderText(tr("Select a term to see how it is computed."));

    auto *breakdown = new QWidget;
    auto *breakdownLayout = new QVBoxLayout(breakdown);
    breakdownLayout->setContentsMargins(0, 0, 0, 0);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_terms);
    split->addWidget(m_why);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    breakdownLayout->addWidget(split, 1);
    breakdownLayout->addWidget(m_warnings);

    auto *tabs = new QTabWidget;
    m_tabs = tabs;
    tabs->addTab(breakdown, tr("&Breakdown"));
    tabs->addTab(m_gpus, tr("&GPUs"));
    tabs->addTab(m_rules, tr("&Rules of Thumb"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs);

    m_gpus->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_gpus, &QTableWidget::customContextMenuRequested, this, &BreakdownPanel::offerChanges);
    connect(m_terms, &QTableWidget::currentCellChanged, this, &BreakdownPanel::explainCurrentTerm);
    connect(m_tabs, &QTabWidget::currentChanged, this, &BreakdownPanel::refreshCurrentPage);
}

void BreakdownPanel::showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                                  const core::Catalog &catalog, core::ByteUnit unit)
{
    m_scenario = scenario;
    m_result = result;
    m_catalog = &catalog;
    m_unit = unit;
    const core::Estimate &e = result.estimate;
    // An invalid scenario keeps the last valid figures and says why below them.
    QStringList notes;
    if (!e.isValid())
        notes << tr("<b>Invalid scenario:</b> %1").arg(firstProblem(e).toHtmlEscaped());
    for (const core::Message &w : e.warnings)
        notes << QStringLiteral("⚠ ") + QString::fromStdString(core::render(w, translateForCore)).toHtmlEscaped();
    m_warnings->setText(notes.join(QStringLiteral("<br>")));
    m_warnings->setVisible(!notes.isEmpty());
    // Only the page on screen is filled now; the others when they are opened.
    m_stalePages = {true, true, true};
    refreshCurrentPage();
}

void BreakdownPanel::refreshCurrentPage()
{
    const int page = m_tabs->currentIndex();
    if (page < 0 || page >= static_cast<int>(m_stalePages.size()) || !m_stalePages[static_cast<std::size_t>(page)]
        || !m_result.estimate.isValid())
        return;
    m_stalePages[static_cast<std::size_t>(page)] = false;
    if (m_tabs->widget(page) == m_gpus)
        fillGpus();
    else if (m_tabs->widget(page) == m_rules)
        fillRules();
    else
        fillTerms();
}

void BreakdownPanel::fillTerms()
{
    const core::Estimate &e = m_result.estimate;
    const core::EstimateDetails &d = e.details;
    QFont boldFont = m_terms->font();
    boldFont.setBold(true);
    int row = 0;
    const auto termRow = [&](const QString &name, const QString &memory, const QString &perParam, const QString &share,
                             const QVariant &id, const QVariant &color) {
        if (row >= m_terms->rowCount())
            m_terms->insertRow(row);
        QTableWidgetItem *nameItem = setCell(m_terms, row, 0, name, Qt::AlignLeft | Qt::AlignVCenter);
        nameItem->setData(Qt::UserRole, id);
        nameItem->setData(Qt::DecorationRole, color);
        QTableWidgetItem *memoryItem = setCell(m_terms, row, 1, memory);
        setCell(m_terms, row, 2, perParam);
        setCell(m_terms, row, 3, share);
        // The total row is bold; an invalid font leaves a row in the table's own.
        const QVariant font = id.isValid() ? QVariant() : QVariant(boldFont);
        nameItem->setData(Qt::FontRole, font);
        memoryItem->setData(Qt::FontRole, font);
        ++row;
    };
    for (core::TermId id : core::allTerms()) {
        const core::Bytes b = e.term(id);
        if (b.count() == 0)
            continue;
        // Bytes per parameter where the term scales with parameters; for
        // the weights, as the model stores them (a split or an offload
        // changes where they live, not what each costs).
        double perParam = 0;
        if (id == core::TermId::Weights && d.params.total)
            perParam = d.weightBytesTotal / static_cast<double>(d.params.total);
        else if ((id == core::TermId::MasterWeights || id == core::TermId::Gradients || id == core::TermId::Optimizer
                  || id == core::TermId::Lora)
                 && d.trainableParams)
            perParam = static_cast<double>(b.count()) / static_cast<double>(d.trainableParams);
        // A term held at more in another phase says so: the peak's
        // gradients of full training are only the first ones.
        termRow(ui::termName(id), markGuess(bytesText(b, m_unit), m_scenario.model), perParam > 0 ? QString::number(perParam, 'f', 2) : QString(),
                QString::fromStdString(core::termShareText(e, id, m_unit, translateForCore)), static_cast<int>(id), termColor(id));
    }
    const int terms = row;
    // The total is the peak over the phases; its row says which phase.
    termRow(tr("Total (%1 peak)").arg(ui::phaseName(e.peakPhase)), markGuess(bytesText(e.total, m_unit), m_scenario.model), QString(),
            QStringLiteral("100 %"), QVariant(), QVariant());
    // llama.cpp keeps token_embd, the CPU layers and its host buffers in
    // RAM; generate() and vLLM the weights they offload.
    if (core::usesGgmlBuffers(m_scenario) || (!m_scenario.isTraining() && d.hostBytesPerGpu > 0))
        termRow(tr("Host memory (beside the GPUs)"),
                markGuess(bytesText(core::Bytes::fromDouble(d.hostBytesPerGpu * m_scenario.gpus), m_unit), m_scenario.model),
                QString(), QString(), QVariant(), QVariant());
    m_terms->setRowCount(row);
    // The selection stays on its row; never on the total row.
    const int current = m_terms->currentRow();
    if (current < 0 || current >= terms)
        m_terms->setCurrentCell(std::clamp(current, 0, std::max(0, terms - 1)), 0);
    fitColumns(m_terms);
    explainCurrentTerm();
}

void BreakdownPanel::fillGpus()
{
    // Only the focus GPU's changes are searched: some tens of estimates.
    const core::GpuSpec *focusSpec = core::focusGpu(m_scenario, *m_catalog);
    const std::string focus = focusSpec ? focusSpec->id : std::string();
    m_gpus->setRowCount(static_cast<int>(m_result.fits.size()));
    int row = 0;
    for (const core::GpuFit &fit : m_result.fits) {
        const core::GpuSpec *gpu = m_catalog->find(fit.gpuId);
        QString name = gpu ? QString::fromStdString(gpu->name) : QString::fromStdString(fit.gpuId);
        QStringList tips;
        for (const core::Message &w : fit.warnings)
            tips << QString::fromStdString(core::render(w, translateForCore));
        if (!tips.isEmpty())
            name += QStringLiteral(" ⚠");
        setCell(m_gpus, row, 0, name, Qt::AlignLeft | Qt::AlignVCenter)->setToolTip(tips.join(QLatin1Char('\n')));
        setCell(m_gpus, row, 1, bytesText(fit.capacity, m_unit, 1));
        setCell(m_gpus, row, 2, ui::verdictText(fit), Qt::AlignCenter)
            ->setToolTip(fit.fits                ? QString()
                         : fit.gpuId == focus ? whatWouldFitLines(m_result, fit, m_unit).join(QLatin1Char('\n'))
                                                   + QLatin1Char('\n') + tr("Right-click to apply a change.")
                                              : tr("Right-click for why, and what would fit."));
        // A card that starts the engine with other defaults (vLLM's follow
        // the card) or other communicators (SGLang's follow the link) was
        // fitted on its own estimate: the headroom says so.
        QTableWidgetItem *headroom = setCell(m_gpus, row, 3, headroomText(fit, m_unit));
        if (gpu && !m_result.onFocusCard(*gpu))
            headroom->setToolTip(
                tr("Fitted on its own estimate, %1 per GPU: %2")
                    .arg(bytesText(m_result.estimateOn(*gpu).total, m_unit),
                         QCoreApplication::translate("Derivation",
                                                     core::ownEstimateWhy(m_result.scenarioOn(*gpu), m_result.scenario))));
        setCell(m_gpus, row, 4, countText(fit.maxBatch));
        setCell(m_gpus, row, 5, countText(fit.maxSequence));
        setCell(m_gpus, row, 6, fit.hasKvTokens ? countText(fit.kvTokens) : QString());
        // The scenario's focus GPU (Cluster tab, a saved file's "gpu") stands out.
        for (int column = 0; column < m_gpus->columnCount(); ++column) {
            QFont font = m_gpus->item(row, column)->font();
            font.setBold(fit.gpuId == m_scenario.gpuId);
            m_gpus->item(row, column)->setFont(font);
        }
        ++row;
    }
    fitColumns(m_gpus);
}

void BreakdownPanel::offerChanges(const QPoint &at)
{
    QMenu menu(this);
    fillChangesMenu(menu, m_gpus->rowAt(at.y()));
    if (!menu.isEmpty())
        menu.exec(m_gpus->viewport()->mapToGlobal(at));
}

void BreakdownPanel::fillChangesMenu(QMenu &menu, int row)
{
    if (row < 0 || row >= static_cast<int>(m_result.fits.size()) || m_result.fits[row].fits)
        return;
    const core::GpuFit &fit = m_result.fits[row];
    core::FitSearch search(m_result.scenario);
    if (const auto reason = search.reasonFor(m_result.estimate, fit))
        menu.addSection(QString::fromStdString(core::fitReasonText(*reason, m_unit, translateForCore)));
    const std::vector<core::FitSuggestion> found = search.suggestionsFor(fit);
    for (const core::FitSuggestion &suggestion : found) {
        const QString text =
            QString::fromStdString(core::suggestionText(m_result.scenario, suggestion, m_unit, translateForCore));
        connect(menu.addAction(text), &QAction::triggered, this, [this, text, changes = suggestion.changes] {
            emit changesChosen(tr("Make it fit: %1").arg(text), changes);
        });
    }
    if (found.empty())
        menu.addAction(tr("No change of one or two inputs makes it fit"))->setEnabled(false);
}

void BreakdownPanel::showPage(int index) { m_tabs->setCurrentIndex(index); }

void BreakdownPanel::addPage(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

void BreakdownPanel::fillRules()
{
    static const char *const names[] = {
        QT_TR_NOOP("fp16 inference: 2 bytes per parameter"), QT_TR_NOOP("mixed-precision Adam: 16 bytes per parameter"),
        QT_TR_NOOP("practical training minimum: 20 bytes per parameter"), QT_TR_NOOP("3 × the fp32 weights"),
        QT_TR_NOOP("4 × the fp32 weights"),
        QT_TR_NOOP("activations per sample: (hidden + intermediate) × context × layers")};
    const auto checks = core::compareRulesOfThumb(m_scenario);
    m_rules->setRowCount(static_cast<int>(checks.size()));
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const core::rules::RuleCheck &c = checks[i];
        const int row = static_cast<int>(i);
        setCell(m_rules, row, 0, tr(names[i]), Qt::AlignLeft | Qt::AlignVCenter);
        setCell(m_rules, row, 1, QString::fromUtf8(c.seedFact), Qt::AlignCenter);
        setCell(m_rules, row, 2, QString::fromUtf8(c.formula), Qt::AlignLeft | Qt::AlignVCenter);
        setCell(m_rules, row, 3, bytesText(c.rule, m_unit));
        setCell(m_rules, row, 4, bytesText(c.detailed, m_unit));
        const double d = c.differencePercent();
        setCell(m_rules, row, 5, QStringLiteral("%1%2 %").arg(d >= 0 ? QStringLiteral("+") : QString()).arg(d, 0, 'f', 1));
    }
    fitColumns(m_rules);
}

void BreakdownPanel::explainCurrentTerm()
{
    const QTableWidgetItem *name = m_terms->item(m_terms->currentRow(), 0);
    const QVariant id = name ? name->data(Qt::UserRole) : QVariant();
    if (id.isValid())
        explain(static_cast<core::TermId>(id.toInt()));
}

void BreakdownPanel::explain(core::TermId term)
{
    const core::Derivation why = core::explainTerm(m_result, term, translateForCore);
    const auto text = [](std::string_view s) {
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped();
    };
    // The symbols a formula defines follow it after "; ", one to a line here.
    const auto lines = [&text](std::string_view s) {
        return text(s).replace(QStringLiteral("; "), QStringLiteral("<br>"));
    };
    QString html = QStringLiteral("<h3>%1</h3><p>%2</p><p><b>%3</b><br><code>%4</code></p><p>%5<br><code>%6</code></p>"
                                  "<p><b>%7</b> %8<br><small>%9</small></p>")
                       .arg(ui::termName(term).toHtmlEscaped(), termExplanation(term).toHtmlEscaped(), tr("Formula"),
                           lines(why.formula), tr("With this scenario's values:"), lines(why.substituted),
                           tr("Result:"), text(why.result), text(why.note));
    if (!why.legend.empty())
        html += QStringLiteral("<p><small><b>%1</b> %2</small></p>").arg(tr("Symbols:"), text(why.legend));
    if (!why.source.empty())
        html += QStringLiteral("<p><small>%1 %2</small></p>").arg(tr("Source:"), text(why.source));
    // Laying out and painting the rich text costs more than the rest of a
    // slider step; most steps leave the selected term's derivation as it was.
    if (html == m_whyHtml)
        return;
    m_whyHtml = html;
    m_why->setHtml(html);
}

} // namespace ui
