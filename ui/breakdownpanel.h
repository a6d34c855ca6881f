#pragma once

#include "core/estimate.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace ui {

/// The numbers behind the chart: every term (value, bytes per parameter,
/// share), the peak phase, warnings, the per-GPU fit table, and a "why"
/// view with the selected term's derivation.
class BreakdownPanel : public QWidget
{
    Q_OBJECT

public:
    explicit BreakdownPanel(QWidget *parent = nullptr);

    void showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                      const core::Catalog &catalog, core::ByteUnit unit);

    QTableWidget *termTable() const { return m_terms; }
    QTableWidget *gpuTable() const { return m_gpus; }
    QTableWidget *rulesTable() const { return m_rules; }
    /// Adds a page next to Breakdown, GPUs and Rules of Thumb.
    void addPage(QWidget *page, const QString &title);
    QTextBrowser *whyView() const { return m_why; }
    /// Shows the derivation of `term` in the why view.
    void explain(core::TermId term);

private:
    void fillTerms();
    void fillGpus(const core::Catalog &catalog);
    void fillRules();

    QLabel *m_headline;
    QTableWidget *m_terms;
    QTextBrowser *m_why;
    QLabel *m_warnings;
    QTableWidget *m_gpus;
    QTableWidget *m_rules;
    QTabWidget *m_tabs = nullptr;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
};

} // namespace ui
