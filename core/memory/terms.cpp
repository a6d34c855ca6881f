#include "core/memory/terms.h"

#include "core/base/translatable.h"

namespace core {

namespace {

struct TermName
{
    TermId id;
    const char *key;
    const char *label;
};

const TermName kTermNames[] = {
    {TermId::Weights, "weights", QT_TRANSLATE_NOOP("Terms", "Weights")},
    {TermId::Lora, "lora", QT_TRANSLATE_NOOP("Terms", "LoRA adapters")},
    {TermId::MasterWeights, "master_weights", QT_TRANSLATE_NOOP("Terms", "Master weights")},
    {TermId::Gradients, "gradients", QT_TRANSLATE_NOOP("Terms", "Gradients")},
    {TermId::Optimizer, "optimizer", QT_TRANSLATE_NOOP("Terms", "Optimizer states")},
    {TermId::Activations, "activations", QT_TRANSLATE_NOOP("Terms", "Activations")},
    {TermId::Logits, "logits", QT_TRANSLATE_NOOP("Terms", "Logits and loss")},
    {TermId::KvCache, "kv_cache", QT_TRANSLATE_NOOP("Terms", "KV cache")},
    {TermId::Workspace, "workspace", QT_TRANSLATE_NOOP("Terms", "Workspace")},
    {TermId::GatherBuffer, "gather_buffer", QT_TRANSLATE_NOOP("Terms", "ZeRO-3 gather buffer")},
    {TermId::CommBuffers, "comm_buffers", QT_TRANSLATE_NOOP("Terms", "NCCL buffers")},
    {TermId::CudaOverhead, "cuda_overhead", QT_TRANSLATE_NOOP("Terms", "CUDA context")},
    {TermId::AllocatorReserve, "allocator_reserve", QT_TRANSLATE_NOOP("Terms", "Allocator reserve")},
};

} // namespace

const char *termId(TermId id) { return kTermNames[termIndex(id)].key; }
const char *termLabel(TermId id) { return kTermNames[termIndex(id)].label; }

std::optional<TermId> parseTermId(const std::string &id)
{
    for (TermId t : allTerms())
        if (id == termId(t))
            return t;
    return std::nullopt;
}

const std::array<TermId, kTermCount> &allTerms()
{
    static const std::array<TermId, kTermCount> terms = [] {
        std::array<TermId, kTermCount> all{};
        for (std::size_t i = 0; i < kTermCount; ++i)
            all[i] = static_cast<TermId>(i);
        return all;
    }();
    return terms;
}

const char *phaseId(Phase phase)
{
    switch (phase) {
    case Phase::Forward:
        return "forward";
    case Phase::Backward:
        return "backward";
    case Phase::OptimizerStep:
        return "optimizer_step";
    case Phase::Inference:
        return "inference";
    case Phase::Load:
        return "load";
    }
    return "inference";
}

} // namespace core
