#include "core/analysis/matrix.h"

#include "core/analysis/fit.h"

namespace core {

const std::vector<WeightFormat> &defaultMatrixFormats()
{
    static const std::vector<WeightFormat> formats = {
        WeightFormat::Bf16,     WeightFormat::Fp8,      WeightFormat::BnbInt8,  WeightFormat::GgufQ8_0,
        WeightFormat::GgufQ6K,  WeightFormat::GgufQ5KM, WeightFormat::GgufQ4KM, WeightFormat::Awq4,
        WeightFormat::Gptq4,    WeightFormat::Nf4,      WeightFormat::GgufQ3KM, WeightFormat::GgufQ2K};
    return formats;
}

FormatMatrix formatMatrix(const Scenario &scenario, const Catalog &catalog, const std::vector<WeightFormat> &formats,
                          const std::vector<std::string> &gpuIds)
{
    FormatMatrix matrix;
    matrix.formats = formats;
    std::vector<std::string> ids = gpuIds;
    if (ids.empty())
        for (const GpuSpec &gpu : catalog.gpus)
            if (gpu.defaultShown || gpu.id == scenario.gpuId)
                ids.push_back(gpu.id);
    for (WeightFormat format : formats) {
        Scenario s = scenario;
        s.weights = format;
        const EstimateWithFits result = estimateWithFits(s, catalog, ids);
        if (!result.estimate.isValid())
            return {};
        if (matrix.gpuIds.empty())
            for (const GpuFit &fit : result.fits)
                matrix.gpuIds.push_back(fit.gpuId);
        for (const GpuFit &fit : result.fits)
            matrix.cells.push_back({fit.fits, result.estimateOn(fit.gpu).total, fit.maxSequence, fit.gpusNeeded});
    }
    return matrix;
}

} // namespace core
