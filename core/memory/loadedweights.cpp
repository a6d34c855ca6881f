#include "core/memory/loadedweights.h"

#include "core/memory/cachingallocator.h"
#include "core/memory/formulatext.h"
#include "core/model/layerkinds.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace core {

bool isLayerLinear(TensorRole role)
{
    return role == TensorRole::AttentionLinear || role == TensorRole::MlpLinear || role == TensorRole::ExpertLinear;
}

namespace {

bool inLayers(const TensorGroup &g)
{
    return g.scope != LayerScope::None && g.layers > 0;
}

/// How many of `count` items the `index`-th of `slots` gets when they are
/// spread evenly (0 or more).
std::uint64_t evenShare(std::uint64_t count, std::uint64_t slots, std::uint64_t index)
{
    return (index + 1) * count / slots - index * count / slots;
}

/// Which fused tensor a group joins: q, k and v (QKVParallelLinear); gate
/// and up (MergedColumnParallelLinear, FusedMoE's w13); none.
enum class Fusion { None, Qkv, GateUp };

Fusion fusionOf(const TensorGroup &g)
{
    const std::string_view name = g.name;
    if (name == "q_proj" || name == "k_proj" || name == "v_proj")
        return Fusion::Qkv;
    if ((g.role == TensorRole::MlpLinear || g.role == TensorRole::ExpertLinear)
        && (g.slot == LinearSlot::Gate || g.slot == LinearSlot::Up))
        return Fusion::GateUp;
    return Fusion::None;
}

/// A layer's routed experts' weights or biases: FusedMoE holds each kind
/// as one tensor over all the experts (w13_weight, w2_weight, w13_bias,
/// w2_bias).
bool isExpertTensor(const TensorGroup &g)
{
    return g.role == TensorRole::ExpertLinear || (g.role == TensorRole::Bias && std::string_view(g.name) == "experts.bias");
}

bool isAttentionMixer(const TensorGroup &g)
{
    return g.scope == LayerScope::AttentionLayers || g.scope == LayerScope::WindowedAttentionLayers;
}

/// What one group adds to the sequence, worked out once: each tensor's
/// bytes on this rank and the fused tensor it joins.
struct GroupPlan
{
    const TensorGroup *group = nullptr;
    Fusion fusion = Fusion::None;
    bool experts = false;     ///< a layer's experts are one tensor (FusedMoE w13_weight, w2_weight)
    bool closesFusion = false; ///< the experts' up_proj completes w13
    double bytes = 0;         ///< one tensor, this rank's part
    double scaleBytes = 0;    ///< its scales, a tensor of their own (0: none that counts)
};

/// The rank's share of one tensor of `g` (tpSplitOf; the experts over the
/// TP and EP ranks, as the weights term splits them).
double rankSplit(const ModelSpec &m, const TensorGroup &g, const RankTensors &rank)
{
    const auto ranks = static_cast<double>(std::max(1, rank.tp));
    if (isExpertTensor(g))
        return ranks * static_cast<double>(std::max(1, rank.ep));
    switch (tpSplitOf(g)) {
    case TpSplit::Replicated:
        return 1.0;
    case TpSplit::KeyValueHeads: {
        const AttentionShape a =
            g.scope == LayerScope::WindowedAttentionLayers ? slidingAttentionShape(m) : fullAttentionShape(m);
        return std::min(ranks, static_cast<double>(std::max<std::uint64_t>(1, a.kvHeads)));
    }
    case TpSplit::Ranks:
        break;
    }
    return ranks;
}

GroupPlan planOf(const ModelSpec &m, const TensorGroup &g, const RankTensors &rank)
{
    GroupPlan plan;
    plan.group = &g;
    plan.fusion = fusionOf(g);
    plan.experts = isExpertTensor(g);
    plan.closesFusion = plan.experts && g.slot == LinearSlot::Up;
    const bool quantized = isLayerLinear(g.role)
        && (rank.quantizedTargets != 0 ? (quantTargetOf(g) & rank.quantizedTargets) != 0
                                       : !rank.expertsOnly || plan.experts);
    const double elements = static_cast<double>(g.rows) * static_cast<double>(g.cols) / rankSplit(m, g, rank);
    plan.bytes = elements * (quantized ? rank.quantizedBytes : rank.otherBytes);
    plan.scaleBytes = quantized ? elements * rank.scaleBytes : 0.0;
    return plan;
}

class Sequence
{
public:
    /// `tensors` tensors of a group.
    void add(const GroupPlan &plan, std::uint64_t tensors)
    {
        if (tensors == 0)
            return;
        if (plan.fusion != m_open)
            flush();
        double bytes = plan.bytes;
        double scales = plan.scaleBytes;
        if (plan.experts) {
            bytes *= static_cast<double>(tensors);
            scales *= static_cast<double>(tensors);
            tensors = 1;
        }
        if (plan.fusion != Fusion::None) {
            m_open = plan.fusion;
            m_fused += bytes * static_cast<double>(tensors);
            m_fusedScales += scales * static_cast<double>(tensors);
            if (plan.closesFusion)
                flush();
            return;
        }
        for (std::uint64_t i = 0; i < tensors; ++i) {
            push(bytes);
            push(scales);
        }
    }

    void push(double bytes)
    {
        flush();
        if (bytes >= 1.0)
            m_out.push_back(static_cast<std::uint64_t>(std::ceil(bytes)));
    }

    void flush()
    {
        if (m_open != Fusion::None) {
            if (m_fused >= 1.0)
                m_out.push_back(static_cast<std::uint64_t>(std::ceil(m_fused)));
            if (m_fusedScales >= 1.0)
                m_out.push_back(static_cast<std::uint64_t>(std::ceil(m_fusedScales)));
        }
        m_open = Fusion::None;
        m_fused = 0;
        m_fusedScales = 0;
    }

    std::vector<std::uint64_t> take()
    {
        flush();
        return std::move(m_out);
    }

private:
    std::vector<std::uint64_t> m_out;
    Fusion m_open = Fusion::None;
    double m_fused = 0;
    double m_fusedScales = 0;
};

} // namespace

std::vector<std::uint64_t> rankWeightTensors(const ModelSpec &m, const std::vector<TensorGroup> &tensors,
                                             const RankTensors &rank)
{
    std::vector<GroupPlan> ends;   // outside the layers: the embeddings, then the final norm and lm_head
    std::vector<GroupPlan> layers; // in the layers, in enumeration order
    std::size_t head = 0;          // of `ends`, those before the layers
    // MLA's q_a_proj and kv_a_proj_with_mqa are one tensor
    // (fused_qkv_a_proj_with_mqa where q_lora_rank is set), built first.
    std::optional<std::size_t> queryLatent; // index into `layers`
    for (const TensorGroup &g : tensors) {
        if (inLayers(g)) {
            const std::string_view name = g.name;
            if (name == "kv_a_proj_with_mqa" && queryLatent && layers[*queryLatent].group->count == g.count) {
                const GroupPlan latent = planOf(m, g, rank);
                layers[*queryLatent].bytes += latent.bytes;
                layers[*queryLatent].scaleBytes += latent.scaleBytes;
                continue;
            }
            if (name == "q_a_proj")
                queryLatent = layers.size();
            layers.push_back(planOf(m, g, rank));
            continue;
        }
        ends.push_back(planOf(m, g, rank));
        if (layers.empty())
            ++head;
    }
    Sequence out;
    if (rank.first)
        for (std::size_t i = 0; i < head; ++i)
            out.add(ends[i], ends[i].group->count);
    const std::uint64_t total = std::max<std::uint64_t>(1, m.layers);
    const std::uint64_t here = std::min(rank.layers, total);
    const std::uint64_t from = rank.first ? 0 : total - here;
    // Each stage builds its own rotary cache, in its first attention layer.
    bool bufferDue = rank.attentionBuffer > 0;
    for (std::uint64_t layer = from; layer < from + here; ++layer) {
        // The layer's own norms (input_layernorm, post_attention_layernorm)
        // come after its mixer and MLP.
        for (const bool layerNorms : {false, true}) {
            for (const GroupPlan &plan : layers) {
                const TensorGroup &g = *plan.group;
                if (layerNorms != (g.scope == LayerScope::AllLayers && g.role == TensorRole::Norm))
                    continue;
                if (bufferDue && !isAttentionMixer(g)) {
                    out.push(static_cast<double>(rank.attentionBuffer));
                    bufferDue = false;
                }
                // The scope's layers spread evenly over the model's; the
                // group's tensors over the scope's layers.
                if (evenShare(g.layers, total, layer) == 0)
                    continue;
                out.add(plan, evenShare(g.count, g.layers, layer * g.layers / total));
            }
        }
        out.flush();
    }
    if (rank.last)
        for (std::size_t i = head; i < ends.size(); ++i)
            out.add(ends[i], ends[i].group->count);
    return out.take();
}

Derived segmentTails(const ModelSpec &m, const std::vector<TensorGroup> &tensors, const RankTensors &rank,
                     FormulaStore *store)
{
    namespace w = text::weights;
    const std::vector<std::uint64_t> requests = rankWeightTensors(m, tensors, rank);
    double held = 0;
    for (const std::uint64_t bytes : requests)
        held += static_cast<double>(bytes);
    Formula tails(store);
    tails.product()
        .times(w::kSegmentsReserved, static_cast<double>(cachingAllocatorReserved(requests)))
        .product()
        .times(w::kTensorsHeld, held)
        .times(w::kLess, -1.0);
    return tails.note(w::kWhySegmentTails).cite(w::kFromCachingAllocator).derived();
}

Derived rotaryCache(const ModelSpec &m, double valueBytes, const char *source, FormulaStore *store)
{
    namespace w = text::weights;
    const std::uint64_t dims = m.isMla() ? m.ropeHeadDim : m.rotaryDims > 0 ? m.rotaryDims : m.headDim;
    if (m.noRope || m.learnedPositions > 0 || m.encoderOnly || m.attentionLayers() == 0 || m.maxPositions == 0
        || dims == 0)
        return {};
    Formula cache(store);
    cache.product()
        .times(w::kRotaryPositions, static_cast<double>(m.maxPositions))
        .times(w::kRotaryDims, static_cast<double>(dims))
        .times(w::kRotaryValueBytes, valueBytes);
    if (m.slidingRotaryDims > 0)
        cache.product(w::kPartSlidingRotaryCache)
            .times(w::kRotaryPositions, static_cast<double>(m.maxPositions))
            .times(w::kSlidingRotaryDims, static_cast<double>(m.slidingRotaryDims))
            .times(w::kRotaryValueBytes, valueBytes);
    return cache.cite(source).derived();
}

} // namespace core
