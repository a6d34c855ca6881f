#pragma once

#include "core/estimate.h"

#include <QVector>
#include <QWidget>

#include <array>

class QCPBars;
class QCPItemLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QPrinter;

namespace ui {

/// The stacked-bar chart: one category per shown GPU, one bar set per term,
/// each GPU's capacity as a dashed marker and its verdict above the bar.
/// A QCustomPlot adapter: it draws what it is given and computes nothing.
class MemoryChart : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryChart(QWidget *parent = nullptr);

    void showEstimate(const core::Scenario &scenario, const core::EstimateWithFits &result,
                      const core::Catalog &catalog);
    void setUnit(core::ByteUnit unit);
    void setLogScale(bool logarithmic);
    /// Projector and greyscale-print friendly: large text, thick lines,
    /// black on white, and a hatch per term so greys stay apart.
    void setPresentation(bool on);
    bool isPresentation() const { return m_presentation; }
    bool isLogScale() const { return m_log; }
    /// Title line (the scenario summary) and an optional subtitle (date).
    void setTitle(const QString &title, const QString &subtitle = QString());

    QString title() const;
    QPixmap toPixmap(int width, int height, double scale = 1.0);
    void print(QPrinter *printer);

    // What is drawn, for tests.
    int barSetCount() const { return static_cast<int>(m_bars.size()); }
    QVector<double> barValues(core::TermId term) const;
    QStringList categories() const { return m_categoryNames; }
    QStringList verdicts() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    /// Background, axes and text follow the system palette (light or dark).
    void applyPalette();
    void rebuildAxes();
    void showToolTip(QMouseEvent *event);
    void layoutItems(int count);

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    std::array<QCPBars *, core::kTermCount> m_bars{};
    QVector<QCPItemLine *> m_capacity;
    QVector<QCPItemText *> m_verdicts;
    QStringList m_categoryNames;
    core::Scenario m_scenario;
    core::EstimateWithFits m_result;
    const core::Catalog *m_catalog = nullptr;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
    bool m_log = false;
    bool m_presentation = false;
};

} // namespace ui
