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

/// NCCL's device memory on the busiest rank of one communicator within a
/// node, connected at creation (NCCL_CUMEM_ENABLE=0 turns runtime
/// connection off): every channel's ring and tree connections, each a
/// 2 MiB send and a 10 MiB receive allocation (the three protocols'
/// buffers rounded up to CUDA_IPC_MIN; A100's read mode moves the Simple
/// buffer to the sender, 6 + 6 MiB), two each way on a middle rank of the
/// chain, one with two ranks; and the shared p2p buffers of
/// p2p channels x NCCL_SHARED_STEPS x chunk that sharedNetBuffersInit
/// allocates even on one node. NCCL's topology search gives 24 channels
/// and 32 p2p channels over NVLink and NVSwitch (2 to 8 GPUs), 4 and 4
/// over PCIe with peer access under one switch; without peer access
/// (SHM) the buffers are host memory and this overstates by the ring and
/// tree part.
Quantity eagerCommunicator(int ranks, GpuLink link, const Symbol &communicator, FormulaStore *store)
{
    struct Shape
    {
        double channels, p2pChannels, chunkMib;
    };
    const Shape shape = link == GpuLink::Nvlink ? Shape{24, 32, 0.5} : Shape{4, 4, 0.125};
    Formula mib(store);
    mib.product(o::kPartRingAndTree)
        .times(o::kNcclChannels, shape.channels)
        .times(o::kNcclConnections, ranks > 2 ? 2.0 : 1.0)
        .times(o::kNcclConnectionMib, 12.0);
    mib.product(o::kPartSharedBuffers)
        .times(o::kNcclP2pChannels, shape.p2pChannels)
        .times(o::kNcclSharedSteps, 16.0)
        .times(o::kNcclChunkMib, shape.chunkMib);
    Formula bytes(store);
    bytes.product().times(communicator, mib.derived()).times(o::kBytesPerMib, 1024.0 * 1024.0);
    return bytes.cite(o::kFromNcclSource).bytes();
}

/// SGLang's custom all-reduce (custom_all_reduce.py CustomAllreduce): on
/// 2, 4, 6 or 8 GPUs of one node, all on NVLink unless there are two.
bool usesCustomAllReduce(int tp, GpuLink link)
{
    const bool size = tp == 2 || tp == 4 || tp == 6 || tp == 8;
    return size && (link == GpuLink::Nvlink || tp == 2);
}

/// What an engine that connects its communicators before it measures
/// (RuntimeBehaviour::eagerNcclCommunicators) holds: its tensor- and
/// pipeline-parallel communicators and its custom all-reduce buffers.
Quantity eagerCommunicators(const Scenario &s, int stages, FormulaStore *store)
{
    const int tp = s.parallel.tp;
    const int pp = stages;
    const GpuLink link = s.servingCard.link;
    if (tp <= 1 && pp <= 1)
        return none(store, o::kWhyNoNccl);
    const Quantity tpCommunicator = tp > 1 ? eagerCommunicator(tp, link, o::kTpCommunicatorMib, store) : Quantity{};
    const Quantity ppCommunicator = pp > 1 ? eagerCommunicator(pp, link, o::kPpCommunicatorMib, store) : Quantity{};
    Quantity customAllReduce;
    if (usesCustomAllReduce(tp, link)) {
        Formula car(store);
        car.product().times(o::kCustomAllReduceMib, 10.0 + 8.0 + 8.0).times(o::kBytesPerMib, 1024.0 * 1024.0);
        customAllReduce = car.cite(o::kFromSglangCustomAllReduce).bytes();
    }
    return together(store, {tpCommunicator, ppCommunicator, customAllReduce});
}

} // namespace

Quantity commBuffers(const Scenario &s, int stages, FormulaStore *store)
{
    const RuntimeBehaviour *runtime = servingBehaviour(s);
    const bool eager = communicatorsFollowTheLink(s);
    if (eager && s.servingCard.link != GpuLink::NotCuda)
        return eagerCommunicators(s, stages, store);
    const Quantity nccl = eager && s.gpus > 1 ? noted(store, ncclBuffers(s.gpus, store), o::kWhyRcclNotRead)
                                              : ncclBuffers(s.gpus, store);
    if (fusesAllReduceOnItsCard(s)) {
        Formula fusion(store);
        fusion.product()
            .times(o::kFusionBuffers, 3.0)
            .times(o::kMulticastGranularityMib, 512.0)
            .times(o::kBytesPerMib, 1024.0 * 1024.0);
        return together(store, {nccl, fusion.note(o::kWhyMulticastGranularity).cite(o::kFromVllmAllReduceFusion).bytes()});
    }
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
