#include "core/overheads.h"

namespace core {

double cudaOverheadMib(const Scenario &s)
{
    if (s.cudaOverheadMib)
        return *s.cudaOverheadMib;
    return s.cudaLoading == CudaLoading::Lazy ? 512.0 : 1343.0;
}

double ncclBufferMib(int gpus)
{
    return gpus > 1 ? 4.0 * 2.0 * 32.0 * 2.0 : 0.0;
}

} // namespace core
