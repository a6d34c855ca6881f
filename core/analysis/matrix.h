#pragma once

#include "core/engine/estimate.h"
#include "core/model/catalog.h"
#include "core/model/formats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace core {

/// One cell of a weight-format x GPU matrix: whether the scenario fits in
/// that format on that GPU, and the longest context that does.
struct MatrixCell
{
    bool fits = false;
    Bytes total;                   ///< per GPU at the scenario's context
    std::uint64_t maxSequence = 0; ///< 0: not even one token's context fits
    int gpusNeeded = 0;            ///< of that GPU, at the scenario's context; 0: none up to the search limit
};

/// The scenario estimated in each of `formats` and fitted to each of
/// `gpuIds`: "which quantisation fits, and how long a context does it
/// leave?". Cells are row-major: formats[i] x gpuIds[j] at i x gpus + j.
struct FormatMatrix
{
    std::vector<WeightFormat> formats;
    std::vector<std::string> gpuIds;
    std::vector<MatrixCell> cells;

    const MatrixCell &at(std::size_t format, std::size_t gpu) const { return cells[format * gpuIds.size() + gpu]; }
};

/// The formats a matrix shows unless asked for others: 16-bit, fp8, the
/// quantisation libraries' 8- and 4-bit formats and llama.cpp's K-quants.
const std::vector<WeightFormat> &defaultMatrixFormats();

/// `gpuIds` empty: the catalog's default GPUs and the scenario's own.
/// Invalid scenarios give an empty matrix.
FormatMatrix formatMatrix(const Scenario &scenario, const Catalog &catalog, const std::vector<WeightFormat> &formats,
                          const std::vector<std::string> &gpuIds = {});

} // namespace core
