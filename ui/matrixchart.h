#pragma once

#include "core/analysis/matrix.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"
#include "ui/chartview.h"

#include <string>
#include <vector>

namespace ui {

/// "Which quantisation fits?": core::formatMatrix as a heat map, a row per
/// weight format and a column per GPU. Each cell is coloured by its verdict
/// (bluish green fits, the greener the longer the context that fits; orange
/// needs several GPUs; vermillion cannot fit) and carries the report's cell
/// text; hovering names format, GPU, total, longest context and GPUs needed.
class MatrixChart : public ChartView
{
    Q_OBJECT

public:
    explicit MatrixChart(QWidget *parent = nullptr);

    /// Computes the matrix for the scenario in the default formats on `gpuIds` and draws it.
    void showMatrix(const core::Scenario &scenario, const core::Catalog &catalog, const std::vector<std::string> &gpuIds,
                    core::ByteUnit unit);

    /// The matrix drawn (for the CSV, Markdown and JSON exports).
    const core::FormatMatrix &matrix() const { return m_matrix; }
    const core::Scenario &scenario() const { return m_scenario; }
    /// A cell's text and tooltip as shown, for tests.
    QString cellText(std::size_t format, std::size_t gpu) const;
    QString toolTip(std::size_t format, std::size_t gpu) const;

private:
    void draw() override;
    bool hasContent() const override { return m_catalog != nullptr; }
    QString toolTipAt(const QPointF &pixel) const override;

    core::Scenario m_scenario;
    core::FormatMatrix m_matrix;
    const core::Catalog *m_catalog = nullptr;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
};

} // namespace ui
