#include "ui/breakdownpanel.h"

#include "core/explain.h"
#include "core/rulesofthumb.h"
#include "ui/termexplanations.h"
#include "ui/termstyle.h"

#include <QHeaderView>
#include <QLabel>
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

QTableWidget *makeTable(const QStringList &headers)
{
    auto *table = new QTableWidget(0, static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

QString countText(std::uint64_t n) { return n ? QString::fromStdString(core::groupDigits(n)) : QStringLiteral("–"); }

} // namespace

BreakdownPanel::BreakdownPanel(QWidget *parent)
    : QWidget(parent), m_headline(new QLabel), m_terms(makeTable({tr("Term"), tr("Memory"), tr("Bytes/param"), tr("Share")})),
      m_why(new QTextBrowser), m_warnings(new QLabel),
      m_gpus(makeTable({tr("GPU"), tr("Memory"), tr("Verdict"), tr("Headroom"), tr("Max batch"), tr("Max context"),
                        tr("KV tokens")})),
      m_rules(makeTable({tr("Rule of thumb"), tr("Seed"), tr("Formula"), tr("Rule gives"), tr("Detailed (1 GPU)"),
                         tr("Difference")}))
{
    m_headline->setTextFormat(Qt::RichText);
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
    breakdownLayout->addWidget(m_headline);
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

    connect(m_terms, &QTableWidget::currentCellChanged, this, [this](int row) {
        const QVariant id = m_terms->item(row, 0) ? m_terms->item(row, 0)->data(Qt::UserRole) : QVariant();
        if (id.isValid())
            explain(static_cast<core::TermId>(id.toInt()));
    });
}

void BreakdownPanel::showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                                  const core::Catalog &catalog, core::ByteUnit unit)
{
    m_scenario = scenario;
    m_result = result;
    m_unit = unit;
    const core::Estimate &e = result.estimate;
    if (!e.isValid()) {
        m_headline->setText(tr("<b>Invalid scenario:</b> %1").arg(QString::fromStdString(e.errors.front()).toHtmlEscaped()));
        return;
    }
    m_headline->setText(tr("Per GPU: <b>%1</b> at the peak (%2 phase)")
                            .arg(bytesText(e.total, unit), phaseName(e.peakPhase)));
    fillTerms();
    fillGpus(catalog);
    fillRules();
    QStringList warnings;
    for (const std::string &w : e.warnings)
        warnings << QStringLiteral("⚠ ") + QString::fromStdString(w).toHtmlEscaped();
    m_warnings->setText(warnings.join(QStringLiteral("<br>")));
    m_warnings->setVisible(!warnings.isEmpty());
}

void BreakdownPanel::fillTerms()
{
    const core::Estimate &e = m_result.estimate;
    const core::EstimateDetails &d = e.details;
    const int previous = m_terms->currentRow();
    m_terms->setRowCount(0);
    for (core::TermId id : core::allTerms()) {
        const core::Bytes b = e.term(id);
        if (b.count() == 0)
            continue;
        const int row = m_terms->rowCount();
        m_terms->insertRow(row);
        QTableWidgetItem *name = cell(termName(id), Qt::AlignLeft | Qt::AlignVCenter);
        name->setData(Qt::UserRole, static_cast<int>(id));
        name->setData(Qt::DecorationRole, termColor(id));
        m_terms->setItem(row, 0, name);
        m_terms->setItem(row, 1, cell(bytesText(b, m_unit)));
        // Bytes per parameter where the term scales with parameters.
        double perParam = 0;
        if (id == core::TermId::Weights && d.params.total)
            perParam = static_cast<double>(b.count()) / static_cast<double>(d.params.total);
        else if ((id == core::TermId::MasterWeights || id == core::TermId::Gradients || id == core::TermId::Optimizer
                  || id == core::TermId::Lora)
                 && d.trainableParams)
            perParam = static_cast<double>(b.count()) / static_cast<double>(d.trainableParams);
        m_terms->setItem(row, 2, cell(perParam > 0 ? QString::number(perParam, 'f', 2) : QString()));
        m_terms->setItem(row, 3, cell(QStringLiteral("%1 %").arg(100.0 * static_cast<double>(b.count()) / static_cast<double>(e.total.count()), 0, 'f', 1)));
    }
    const int row = m_terms->rowCount();
    m_terms->insertRow(row);
    QTableWidgetItem *total = cell(tr("Total"), Qt::AlignLeft | Qt::AlignVCenter);
    QFont bold = total->font();
    bold.setBold(true);
    total->setFont(bold);
    m_terms->setItem(row, 0, total);
    m_terms->setItem(row, 1, cell(bytesText(e.total, m_unit)));
    m_terms->item(row, 1)->setFont(bold);
    m_terms->setItem(row, 2, cell(QString()));
    m_terms->setItem(row, 3, cell(QStringLiteral("100 %")));
    m_terms->setCurrentCell(std::clamp(previous, 0, row - 1), 0);
}

void BreakdownPanel::fillGpus(const core::Catalog &catalog)
{
    m_gpus->setRowCount(0);
    for (const core::GpuFit &fit : m_result.fits) {
        const int row = m_gpus->rowCount();
        m_gpus->insertRow(row);
        const core::GpuSpec *gpu = catalog.find(fit.gpuId);
        QTableWidgetItem *name = cell(gpu ? QString::fromStdString(gpu->name) : QString::fromStdString(fit.gpuId),
                                      Qt::AlignLeft | Qt::AlignVCenter);
        if (!fit.warnings.empty()) {
            QStringList tips;
            for (const std::string &w : fit.warnings)
                tips << QString::fromStdString(w);
            name->setToolTip(tips.join(QLatin1Char('\n')));
            name->setText(name->text() + QStringLiteral(" ⚠"));
        }
        m_gpus->setItem(row, 0, name);
        m_gpus->setItem(row, 1, cell(bytesText(fit.capacity, m_unit, 1)));
        m_gpus->setItem(row, 2, cell(verdictText(fit), Qt::AlignCenter));
        const core::Bytes gap = core::Bytes::fromCount(static_cast<std::uint64_t>(std::llabs(fit.headroomBytes)));
        m_gpus->setItem(row, 3, cell((fit.headroomBytes < 0 ? QStringLiteral("−") : QString()) + bytesText(gap, m_unit, 1)));
        m_gpus->setItem(row, 4, cell(countText(fit.maxBatch)));
        m_gpus->setItem(row, 5, cell(countText(fit.maxSequence)));
        m_gpus->setItem(row, 6, cell(fit.hasKvTokens ? countText(fit.kvTokens) : QString()));
    }
}

void BreakdownPanel::addPage(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

void BreakdownPanel::fillRules()
{
    static const char *const names[] = {
        QT_TR_NOOP("fp16 inference: 2 bytes per parameter"), QT_TR_NOOP("mixed-precision Adam: 16 bytes per parameter"),
        QT_TR_NOOP("practical training minimum: 20 bytes per parameter"), QT_TR_NOOP("3 × the fp32 weights"),
        QT_TR_NOOP("4 × the fp32 weights")};
    const auto checks = core::compareRulesOfThumb(m_scenario);
    m_rules->setRowCount(0);
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const core::rules::RuleCheck &c = checks[i];
        const int row = m_rules->rowCount();
        m_rules->insertRow(row);
        m_rules->setItem(row, 0, cell(tr(names[i]), Qt::AlignLeft | Qt::AlignVCenter));
        m_rules->setItem(row, 1, cell(QString::fromUtf8(c.seedFact), Qt::AlignCenter));
        m_rules->setItem(row, 2, cell(QString::fromUtf8(c.formula), Qt::AlignLeft | Qt::AlignVCenter));
        m_rules->setItem(row, 3, cell(bytesText(c.rule, m_unit)));
        m_rules->setItem(row, 4, cell(bytesText(c.detailed, m_unit)));
        const double d = c.differencePercent();
        m_rules->setItem(row, 5, cell(QStringLiteral("%1%2 %").arg(d >= 0 ? QStringLiteral("+") : QString()).arg(d, 0, 'f', 1)));
    }
}

void BreakdownPanel::explain(core::TermId term)
{
    const core::Derivation why = core::explainTerm(m_scenario, m_result.estimate, term);
    m_why->setHtml(QStringLiteral("<h3>%1</h3><p>%10</p><p><b>%2</b><br><code>%3</code></p><p>%4<br><code>%5</code></p>"
                                  "<p><b>%6</b> %7</p><p><small>%8 %9</small></p>")
                       .arg(termName(term).toHtmlEscaped(), tr("Formula"),
                            QString::fromStdString(why.formula).toHtmlEscaped(), tr("With this scenario's values:"),
                            QString::fromStdString(why.substituted).toHtmlEscaped(), tr("Result:"),
                            QString::fromStdString(why.result).toHtmlEscaped(), tr("Source:"),
                            QString::fromStdString(why.source).toHtmlEscaped(), termExplanation(term).toHtmlEscaped()));
}

} // namespace ui
