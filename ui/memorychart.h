#pragma once

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "ui/chartlabels.h"
#include "ui/plotframe.h"

#include <QVector>
#include <QWidget>

#include <array>

class QCPBars;
class QCPItemLine;
class QCPItemText;
class QCustomPlot;
class QPrinter;

namespace ui {

/// The stacked-bar chart: one category per shown GPU, one bar set per term,
/// each GPU's capacity as a dashed marker, the bar's total above it and the
/// verdict above both. The memory axis is linear: on a logarithmic one the
/// stacked terms' heights would not show their shares.
/// A QCustomPlot adapter: it draws what it is given and computes nothing.
class MemoryChart : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryChart(QWidget *parent = nullptr);

    void showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                      const core::Catalog &catalog);
    void setUnit(core::ByteUnit unit);
    /// Projector and greyscale-print friendly: large text, thick lines,
    /// black on white, and a hatch per term so greys stay apart.
    void setPresentation(bool on);
    bool isPresentation() const { return m_frame.isPresentation(); }
    /// Title line: the scenario summary.
    void setTitle(const QString &title);

    QString title() const;
    QPixmap toPixmap(int width, int height, double scale = 1.0);
    void print(QPrinter *printer);

    // What is drawn, for tests.
    int barSetCount() const { return static_cast<int>(m_bars.size()); }
    QVector<double> barValues(core::TermId term) const;
    QStringList categories() const { return m_categoryNames; }
    QStringList verdicts() const { return m_verdictTexts; }
    /// The line under each verdict that says why ("+1.5 GiB even split"
    /// under "cannot fit"; empty for others), shown where there is room.
    QStringList whyLines() const { return m_whyTexts; }
    /// Every text (title, legend, totals, verdicts, GPU names) where the
    /// last layout put it, for tests of the layout.
    QList<ChartLabel> labels() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    /// Background, axes, text and markers follow the system palette.
    void applyPalette();
    void showToolTip(QMouseEvent *event);
    void layoutItems(int count);
    /// Once laid out: sizes the text to the bars' slots, leaves room above
    /// the highest bar for its labels and places them.
    void fitToSize();
    void placeAnnotations();

    QCustomPlot *m_plot;
    PlotFrame m_frame;
    std::array<QCPBars *, core::kTermCount> m_bars{};
    QVector<QCPItemLine *> m_capacity;
    QVector<QCPItemText *> m_totals;
    QVector<QCPItemText *> m_verdicts;
    QStringList m_categoryNames;
    QStringList m_verdictTexts;
    QStringList m_whyTexts;
    QStringList m_totalTexts;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    int m_hostBar = -1; ///< index of the host RAM bar in m_result.fits; -1: none
    const core::Catalog *m_catalog = nullptr;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
};

} // namespace ui
