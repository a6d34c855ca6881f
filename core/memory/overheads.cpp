#include "core/memory/overheads.h"

#include "core/memory/formulatext.h"
#include "core/scenario/servingruntime.h"

namespace core {

namespace o = text::overheads;

Quantity cudaOverhead(const Scenario &s, FormulaStore *store)
{
    Formula bytes(store);
    bytes.product().times(o::kContextMib, s.effectiveCudaOverheadMib()).times(o::kBytesPerMib, 1024.0 * 1024.0);
    if (s.cudaOverheadMib)
        bytes.note(o::kWhySetByUser);
    else
        bytes.note(s.cudaLoading == CudaLoading::Lazy ? o::kWhyLazyLoading : o::kWhyEagerLoading);
    return bytes.cite(o::kFromCudaContext).bytes();
}

namespace {

Quantity ncclBuffers(int gpus, FormulaStore *store)
{
    if (gpus <= 1)
        return none(store, o::kWhyNoNccl);
    Formula mib(store);
    mib.product()
        .times(o::kNcclBuffsize, 4.0)
        .times(o::kDirections, 2.0)
        .times(o::kChannels, 32.0)
        .times(o::kProtocols, 2.0);
    Formula bytes(store);
    bytes.product().times(o::kNcclMib, mib.derived()).times(o::kBytesPerMib, 1024.0 * 1024.0);
    return bytes.cite(o::kFromNccl).bytes();
}

} // namespace

Quantity commBuffers(const Scenario &s, FormulaStore *store)
{
    const Quantity nccl = ncclBuffers(s.gpus, store);
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    const double mib = runtime ? allReduceWorkspaceMib(s) : 0.0;
    if (mib <= 0 || s.parallel.tp <= 1)
        return nccl;
    Formula workspace(store);
    workspace.product()
        .times(o::kAllReduceBuffers, 4.0)
        .times(o::kAllReduceMib, mib)
        .times(text::shared::kTp, static_cast<double>(s.parallel.tp))
        .times(o::kBytesPerMib, 1024.0 * 1024.0);
    return together(store, {nccl, workspace.cite(o::kFromTrtllmAllReduce).bytes()});
}

} // namespace core
