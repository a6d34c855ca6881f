#pragma once

#include "core/estimate.h"
#include "core/sweep.h"

#include <QWidget>

class QCPTextElement;
class QCustomPlot;

namespace ui {

/// Memory against context length or batch size: stacked areas per term,
/// each shown GPU's capacity as a line, and where they cross labelled with
/// the engine's largest fitting value ("max context on RTX 3070: 731 tokens").
class SweepChart : public QWidget
{
    Q_OBJECT

public:
    explicit SweepChart(core::SweepAxis axis, QWidget *parent = nullptr);

    void showSweep(const core::Scenario &scenario, const core::EstimateWithFits &result, const core::Catalog &catalog,
                   core::ByteUnit unit);
    void setPresentation(bool on);

    /// The crossing labels drawn, for tests.
    QStringList crossingLabels() const { return m_labels; }
    QCustomPlot *plot() const { return m_plot; }

private:
    core::SweepAxis m_axis;
    QCustomPlot *m_plot;
    QCPTextElement *m_summary = nullptr;
    QStringList m_labels;
    bool m_presentation = false;
};

} // namespace ui
