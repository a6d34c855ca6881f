#pragma once

#include "core/base/units.h"
#include "core/model/catalog.h"
#include "core/scenario/scenario.h"
#include "ui/chartview.h"

#include <cstdint>
#include <string>
#include <vector>

class QCPColorMap;
class QCPColorScale;

namespace ui {

/// Memory per GPU over batch and context at once: a heat map on log-spaced
/// axes (core::batchContextGrid) with, for each selected GPU, its fit
/// boundary, the largest batch that fits at each context
/// (core::largestBatches), and the scenario's own point. Hovering names the
/// point, its total and the GPUs it fits.
class BatchContextChart : public ChartView
{
    Q_OBJECT

public:
    /// Points per axis. The engine computes a 48 x 48 grid well inside a
    /// frame; 256 x 256 once the estimate reuses its tensor table (issue 14).
    static constexpr int kGridPoints = 48;

    explicit BatchContextChart(QWidget *parent = nullptr);

    /// Computes the grid and the boundaries of `gpuIds` and draws them.
    void showGrid(const core::Scenario &scenario, const core::Catalog &catalog, const std::vector<std::string> &gpuIds,
                  core::ByteUnit unit);

    /// What was drawn, for tests: the grid's axes, the GPUs, and each GPU's
    /// largest fitting batch at each of `sequences()`.
    const std::vector<std::uint64_t> &batches() const { return m_batches; }
    const std::vector<std::uint64_t> &sequences() const { return m_sequences; }
    const std::vector<std::string> &gpuIds() const { return m_gpuIds; }
    const std::vector<std::uint64_t> &boundary(std::size_t gpu) const { return m_boundaries[gpu]; }
    /// The hover text at grid point batches()[i] x sequences()[j].
    QString toolTip(std::size_t batch, std::size_t sequence) const;

private:
    void draw() override;
    bool hasContent() const override { return m_catalog != nullptr; }
    QString toolTipAt(const QPointF &pixel) const override;

    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    core::Scenario m_scenario;
    const core::Catalog *m_catalog = nullptr;
    core::ByteUnit m_unit = core::ByteUnit::GiB;
    std::vector<std::uint64_t> m_batches;
    std::vector<std::uint64_t> m_sequences;
    std::vector<core::Bytes> m_totals; ///< row-major, batch x sequence
    std::vector<std::string> m_gpuIds;
    std::vector<std::vector<std::uint64_t>> m_boundaries;
};

} // namespace ui
