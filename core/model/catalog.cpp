#include "core/model/catalog.h"

namespace core {

const std::vector<PrecisionInfo> &allPrecisions()
{
    static const std::vector<PrecisionInfo> precisions = {
        {Precision::Fp32, "fp32"}, {Precision::Tf32, "tf32"}, {Precision::Fp16, "fp16"}, {Precision::Bf16, "bf16"},
        {Precision::Fp8, "fp8"},   {Precision::Int8, "int8"}, {Precision::Fp4, "fp4"}};
    return precisions;
}

std::optional<double> PeakThroughput::at(Precision precision) const
{
    switch (precision) {
    case Precision::Fp32: return fp32;
    case Precision::Tf32: return tf32;
    case Precision::Fp16: return fp16;
    case Precision::Bf16: return bf16;
    case Precision::Fp8: return fp8;
    case Precision::Int8: return int8;
    case Precision::Fp4: return fp4;
    }
    return std::nullopt;
}

const GpuSpec *Catalog::find(const std::string &id) const
{
    for (const GpuSpec &gpu : gpus)
        if (gpu.id == id)
            return &gpu;
    return nullptr;
}

} // namespace core
