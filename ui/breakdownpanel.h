#pragma once

#include "core/analysis/fit.h"
#include "core/analysis/suggest.h"
#include "core/engine/estimate.h"

#include <QWidget>

#include <array>

class QLabel;
class QMenu;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace ui {

/// The numbers behind the chart: every term (value, bytes per parameter,
/// share) and the total at the peak phase, warnings, the per-GPU fit table,
/// the rules of thumb, and a "why" view with the selected term's derivation.
/// Only the page on screen is filled on each change (a slider step must
/// repaint within a frame); the others when they are opened.
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
    /// Brings a page to the front by its position: 0 breakdown, 1 GPUs,
    /// 2 rules of thumb, then the added pages.
    void showPage(int index);
    QTextBrowser *whyView() const { return m_why; }
    /// Shows the derivation of `term` in the why view.
    void explain(core::TermId term);
    /// The GPUs table's context menu for `row`, a GPU short of "fits": why
    /// (the section title), and each change that would make it fit, one
    /// action each, emitting changesChosen. Nothing for a GPU that fits.
    void fillChangesMenu(QMenu &menu, int row);

signals:
    /// A change offered for a GPU short of "fits" was chosen (the GPUs
    /// table's context menu): apply `changes` as one undoable step.
    void changesChosen(const QString &what, const std::vector<core::FieldChange> &changes);

private:
    /// Opens fillChangesMenu's menu for the row under `at`.
    void offerChanges(const QPoint &at);
    /// Fills the current page if the estimate changed since it was filled.
    void refreshCurrentPage();
    void fillTerms();
    void fillGpus();
    void fillRules();
    void explainCurrentTerm();

    QTableWidget *m_terms;
    QTextBrowser *m_why;
    QLabel *m_warnings;
    QTableWidget *m_gpus;
    QTableWidget *m_rules;
    QTabWidget *m_tabs = nullptr;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    const core::Catalog *m_catalog = nullptr;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
    std::array<bool, 3> m_stalePages{}; ///< Breakdown, GPUs, Rules of Thumb
    QString m_whyHtml;
};

} // namespace ui
