#include "core/modelspec.h"

#include "core/units.h"

#include <algorithm>
#include <cmath>

namespace core {

std::uint64_t TensorGroup::elements() const
{
    return saturatingMul(saturatingMul(rows, cols), count);
}

std::uint64_t TensorGroup::activeElements() const
{
    return saturatingMul(saturatingMul(rows, cols), activeCount);
}

namespace {

struct GroupBuilder
{
    std::vector<TensorGroup> groups;
    LayerScope scope = LayerScope::None; ///< applied to groups added from now on

    void add(std::string name, TensorRole role, std::uint64_t rows, std::uint64_t cols,
             std::uint64_t count, LinearSlot slot = LinearSlot::None, std::uint64_t activeCount = ~0ull)
    {
        if (rows == 0 || cols == 0 || count == 0)
            return;
        TensorGroup g;
        g.name = std::move(name);
        g.role = role;
        g.slot = slot;
        g.rows = rows;
        g.cols = cols;
        g.count = count;
        g.activeCount = activeCount == ~0ull ? count : activeCount;
        g.scope = scope;
        groups.push_back(std::move(g));
    }
};

std::uint64_t normElements(const ModelSpec &m, std::uint64_t width)
{
    // LayerNorm has a weight and a bias; RMSNorm only a weight.
    return m.norm == NormKind::LayerNorm ? 2 * width : width;
}

/// One MLP (dense, shared expert or routed expert) of width `inner`.
void addMlp(GroupBuilder &b, const ModelSpec &m, const std::string &prefix, TensorRole role,
            std::uint64_t inner, std::uint64_t count, std::uint64_t activeCount, bool bias)
{
    const std::uint64_t h = m.hidden;
    if (m.gatedMlp)
        b.add(prefix + ".gate_proj", role, inner, h, count, LinearSlot::Gate, activeCount);
    b.add(prefix + ".up_proj", role, inner, h, count, LinearSlot::Up, activeCount);
    b.add(prefix + ".down_proj", role, h, inner, count, LinearSlot::Down, activeCount);
    if (bias) {
        const std::uint64_t biasPerMlp = (m.gatedMlp ? 2 * inner : inner) + h;
        b.add(prefix + ".bias", TensorRole::Bias, biasPerMlp, 1, count, LinearSlot::None, activeCount);
    }
}

} // namespace

std::vector<TensorGroup> enumerateTensors(const ModelSpec &m)
{
    GroupBuilder b;
    b.groups.reserve(32); // more than any architecture adds: no regrowth
    const std::uint64_t h = m.hidden;
    const std::uint64_t L = m.layers;

    b.add("embed_tokens", TensorRole::Embedding, m.vocab, h, 1);
    b.add("embed_positions", TensorRole::Embedding, m.learnedPositions, h, 1);
    b.add("embed_token_types", TensorRole::Embedding, m.tokenTypes, h, 1);
    if (m.embeddingNorm)
        b.add("embed_norm", TensorRole::Norm, normElements(m, h), 1, 1);

    b.scope = LayerScope::AllLayers;
    // Attention (Vaswani et al. 2017 §3.2; GQA: Ainslie et al. 2023 §2).
    b.add("q_proj", TensorRole::AttentionLinear, m.qWidth(), h, L, LinearSlot::Q);
    b.add("k_proj", TensorRole::AttentionLinear, m.kvWidth(), h, L, LinearSlot::K);
    b.add("v_proj", TensorRole::AttentionLinear, m.kvWidth(), h, L, LinearSlot::V);
    b.add("o_proj", TensorRole::AttentionLinear, h, m.qWidth(), L, LinearSlot::O);
    if (m.qkvBias)
        b.add("qkv_bias", TensorRole::Bias, m.qWidth() + 2 * m.kvWidth(), 1, L);
    if (m.attnOutBias)
        b.add("o_bias", TensorRole::Bias, h, 1, L);
    if (m.qkNorm)
        b.add("qk_norm", TensorRole::Norm, 2 * m.headDim, 1, L);
    if (m.attentionSinks)
        b.add("sinks", TensorRole::Other, m.heads, 1, L);
    b.add("layer_norms", TensorRole::Norm, normElements(m, h), 1, L * static_cast<std::uint64_t>(m.normsPerLayer));

    // MLP: dense layers, then MoE layers (Shazeer et al. 2017; Fedus et al.
    // 2022 §2; DeepSeekMoE, Dai et al. 2024 §3 for shared experts).
    const std::uint64_t denseLayers =
        m.moe.isMoe() ? std::min<std::uint64_t>(L, static_cast<std::uint64_t>(m.moe.firstDenseLayers)) : L;
    const std::uint64_t moeLayers = L - denseLayers;
    b.scope = LayerScope::DenseLayers;
    addMlp(b, m, "mlp", TensorRole::MlpLinear, m.intermediate, denseLayers, denseLayers, m.mlpBias);
    if (moeLayers > 0) {
        const auto E = static_cast<std::uint64_t>(m.moe.experts);
        const auto k = static_cast<std::uint64_t>(m.moe.expertsPerToken);
        b.scope = LayerScope::MoeLayers;
        b.add("router", TensorRole::Router, E, h, moeLayers);
        if (m.moe.routerBias)
            b.add("router_bias", TensorRole::Bias, E, 1, moeLayers);
        addMlp(b, m, "experts", TensorRole::ExpertLinear, m.moe.expertIntermediate, E * moeLayers,
               k * moeLayers, m.moe.expertBias);
        if (m.moe.sharedExperts > 0)
            addMlp(b, m, "shared_experts", TensorRole::MlpLinear,
                   m.moe.expertIntermediate * static_cast<std::uint64_t>(m.moe.sharedExperts), moeLayers,
                   moeLayers, false);
    }

    b.scope = LayerScope::None;
    if (m.finalNorm)
        b.add("final_norm", TensorRole::Norm, normElements(m, h), 1, 1);
    if (m.pooler) {
        b.add("pooler", TensorRole::Other, h, h, 1);
        b.add("pooler_bias", TensorRole::Bias, h, 1, 1);
    }
    if (!m.encoderOnly && !m.tiedEmbeddings)
        b.add("lm_head", TensorRole::LmHead, m.vocab, h, 1);
    if (!m.encoderOnly && m.lmHeadBias)
        b.add("lm_head_bias", TensorRole::Bias, m.vocab, 1, 1);
    // What a heuristic shape cannot place of a declared parameter count.
    b.add("unplaced", TensorRole::Other, m.unplacedParameters, 1, 1);
    return b.groups;
}

ParameterCounts countParameters(const ModelSpec &m)
{
    return countParameters(m, enumerateTensors(m));
}

ParameterCounts countParameters(const ModelSpec &m, const std::vector<TensorGroup> &tensors)
{
    ParameterCounts c;
    // ZeRO-3 gathers one module at a time: a decoder layer or a single
    // embedding table or lm_head (DeepSpeed estimate_zero3_model_states_mem_needs
    // takes the largest module's own parameters, module.parameters(recurse=False)).
    std::uint64_t largestTable = 0;
    for (const TensorGroup &g : tensors) {
        const std::uint64_t n = g.elements();
        if (g.role == TensorRole::Embedding || g.role == TensorRole::LmHead)
            largestTable = std::max(largestTable, g.rows * g.cols);
        c.total = saturatingAdd(c.total, n);
        c.active = saturatingAdd(c.active, g.activeElements());
        switch (g.role) {
        case TensorRole::Embedding:
            c.embedding += n;
            break;
        case TensorRole::LmHead:
            c.lmHead += n;
            break;
        case TensorRole::AttentionLinear:
        case TensorRole::MlpLinear:
        case TensorRole::Router:
        case TensorRole::Other:
            c.linear = saturatingAdd(c.linear, n);
            break;
        case TensorRole::ExpertLinear:
            c.linear = saturatingAdd(c.linear, n);
            c.experts = saturatingAdd(c.experts, n);
            break;
        case TensorRole::Norm:
        case TensorRole::Bias:
            c.small += n;
            break;
        }
    }
    c.largestLayer = std::max(parametersPerLayer(m, tensors), largestTable);
    return c;
}

std::uint64_t parametersPerLayer(const ModelSpec &m)
{
    return parametersPerLayer(m, enumerateTensors(m));
}

std::uint64_t parametersPerLayer(const ModelSpec &m, const std::vector<TensorGroup> &tensors)
{
    const std::uint64_t moeLayers =
        m.moe.isMoe() ? m.layers - std::min<std::uint64_t>(m.layers, static_cast<std::uint64_t>(m.moe.firstDenseLayers)) : 0;
    const std::uint64_t denseLayers = m.layers - moeLayers;
    std::uint64_t dense = 0;
    std::uint64_t moe = 0;
    for (const TensorGroup &g : tensors) {
        switch (g.scope) {
        case LayerScope::None:
            break;
        case LayerScope::AllLayers:
            dense += g.elements() / m.layers;
            moe += g.elements() / m.layers;
            break;
        case LayerScope::DenseLayers:
            dense += g.elements() / denseLayers;
            break;
        case LayerScope::MoeLayers:
            moe += g.elements() / moeLayers;
            break;
        }
    }
    return std::max(moeLayers > 0 ? moe : 0, denseLayers > 0 ? dense : 0);
}

ModelSpec modelFromParameterCount(std::uint64_t parameters)
{
    ModelSpec best;
    std::uint64_t bestError = ~0ull;
    for (std::uint64_t layers = 1; layers <= 256; ++layers) {
        ModelSpec m;
        m.family = "heuristic";
        m.layers = layers;
        m.hidden = 128 * layers;
        m.headDim = 128;
        m.heads = m.hidden / m.headDim;
        m.kvHeads = m.hidden >= 8192 ? 8 : m.heads;
        m.intermediate = (m.hidden * 8 / 3 + 255) / 256 * 256;
        m.vocab = 32000;
        m.gatedMlp = true;
        m.norm = NormKind::RmsNorm;
        const std::uint64_t n = countParameters(m).total;
        const std::uint64_t error = n > parameters ? n - parameters : parameters - n;
        if (error < bestError) {
            bestError = error;
            best = m;
        }
    }
    // Fit the MLP width so the shape holds exactly `parameters`: what is left
    // over (less than one column of the MLP per layer) is kept unplaced.
    ModelSpec withoutMlp = best;
    withoutMlp.intermediate = 0;
    const std::uint64_t fixed = countParameters(withoutMlp).total;
    const std::uint64_t perUnitWidth = 3 * best.hidden * best.layers;
    best.intermediate = parameters > fixed ? (parameters - fixed) / perUnitWidth : 0;
    const std::uint64_t placed = countParameters(best).total;
    best.unplacedParameters = parameters > placed ? parameters - placed : 0;
    best.name = formatFixed(static_cast<double>(parameters) / 1e9, 2) + "B parameters (Llama-shaped guess)";
    best.declaredParameters = parameters;
    return best;
}

} // namespace core
