#include "core/catalog.h"

#include <cstdlib>

namespace core {

double GpuSpec::computeCapabilityValue() const
{
    if (computeCapability.empty() || !(computeCapability[0] >= '0' && computeCapability[0] <= '9'))
        return 0;
    return std::strtod(computeCapability.c_str(), nullptr);
}

const GpuSpec *Catalog::find(const std::string &id) const
{
    for (const GpuSpec &gpu : gpus)
        if (gpu.id == id)
            return &gpu;
    return nullptr;
}

} // namespace core
