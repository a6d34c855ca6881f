#include "core/model/modelspec.h"

#include "core/base/units.h"
#include "core/model/layerkinds.h"

#include <algorithm>
#include <cmath>
#include <string_view>

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
    std::uint64_t scopeLayers = 0;       ///< the layers that scope spans

    void enter(LayerScope next, std::uint64_t layers)
    {
        scope = next;
        scopeLayers = layers;
    }

    /// Adds nothing for an empty group (most families' optional tensors):
    /// the name is copied only for a group that is kept.
    void add(std::string_view name, TensorRole role, std::uint64_t rows, std::uint64_t cols,
             std::uint64_t count, LinearSlot slot = LinearSlot::None, std::uint64_t activeCount = ~0ull)
    {
        if (rows == 0 || cols == 0 || count == 0)
            return;
        TensorGroup g;
        g.name = std::string(name);
        g.role = role;
        g.slot = slot;
        g.rows = rows;
        g.cols = cols;
        g.count = count;
        g.activeCount = activeCount == ~0ull ? count : activeCount;
        g.scope = scope;
        g.layers = scopeLayers;
        groups.push_back(std::move(g));
    }

    /// The groups from `first` on are shared blocks (Zamba2): a token runs
    /// them once in each layer of their scope.
    void runInEveryLayer(std::size_t first)
    {
        for (std::size_t i = first; i < groups.size(); ++i)
            groups[i].activeCount = groups[i].layers;
    }
};

std::uint64_t normElements(const ModelSpec &m, std::uint64_t width)
{
    // LayerNorm has a weight and a bias; RMSNorm only a weight.
    return m.norm == NormKind::LayerNorm ? 2 * width : width;
}

/// One MLP (dense, shared expert or routed expert) of width `inner` on a
/// stream `outer` wide (0: the hidden width).
void addMlp(GroupBuilder &b, const ModelSpec &m, const char *name, TensorRole role, std::uint64_t inner,
            std::uint64_t count, std::uint64_t activeCount, bool bias, std::uint64_t outer = 0)
{
    const std::uint64_t h = outer > 0 ? outer : m.hidden;
    if (count == 0 || inner == 0)
        return;
    const std::string prefix = name;
    if (m.gatedMlp)
        b.add(prefix + ".gate_proj", role, inner, h, count, LinearSlot::Gate, activeCount);
    b.add(prefix + ".up_proj", role, inner, h, count, LinearSlot::Up, activeCount);
    b.add(prefix + ".down_proj", role, h, inner, count, LinearSlot::Down, activeCount);
    if (bias) {
        const std::uint64_t biasPerMlp = (m.gatedMlp ? 2 * inner : inner) + h;
        b.add(prefix + ".bias", TensorRole::Bias, biasPerMlp, 1, count, LinearSlot::None, activeCount);
    }
    // Scalars every tensor-parallel rank holds whole and no format quantises, as a norm's.
    b.add(prefix + ".act_fn", TensorRole::Norm, m.mlpActivationParams, 1, count, LinearSlot::None, activeCount);
}

/// Softmax attention of `layers` layers with `a`'s key-value heads, of
/// which `caching` project keys and values of their own (the others reuse
/// an earlier layer's): grouped-query (Vaswani et al. 2017 §3.2; Ainslie et
/// al. 2023 §2) or multi-head latent attention. `sinks`: the layers have
/// attention sinks.
void addAttention(GroupBuilder &b, const ModelSpec &m, std::uint64_t layers, std::uint64_t caching,
                  const AttentionShape &a, bool sinks)
{
    const std::uint64_t h = m.hidden;
    // Zamba2's shared blocks attend over the hidden state joined to the input embeddings.
    const std::uint64_t in = m.sharedBlocks > 0 ? 2 * h : h;
    // The layers with a sparse-attention indexer of their own (all, unless
    // the config names fewer: GLM-5.2's shared ones, MiniMax-M3's dense ones).
    const std::uint64_t indexed = m.indexerLayers > 0 ? std::min(layers, m.indexerLayers) : layers;
    // Queries through a low-rank pair, normed between (DeepSeek-V2 §2.1.2's
    // q_a_proj, q_a_layernorm, q_b_proj; Step3's share_q_dim: the q part of
    // qkv_proj, inter_norm and wq in vLLM step3_text.py).
    const auto addLowRankQueries = [&](std::uint64_t queryWidth) {
        b.add("q_a_proj", TensorRole::AttentionLinear, m.qLoraRank, h, layers, LinearSlot::Q);
        b.add("q_a_layernorm", TensorRole::Norm, m.qLoraRank, 1, layers);
        b.add("q_b_proj", TensorRole::AttentionLinear, queryWidth, m.qLoraRank, layers, LinearSlot::Q);
    };
    if (m.isMla()) {
        // DeepSeek-V2 §2.1.2 as modeling_deepseek_v3.py DeepseekV3Attention
        // builds it: queries through an optional low-rank pair, keys and
        // values from one latent (kv_a_proj_with_mqa also yields the shared
        // RoPE key), each latent normed before its up-projection.
        if (m.qLoraRank > 0)
            addLowRankQueries(m.qWidth());
        else
            b.add("q_proj", TensorRole::AttentionLinear, m.qWidth(), h, layers, LinearSlot::Q);
        b.add("kv_a_proj_with_mqa", TensorRole::AttentionLinear, m.kvLoraRank + m.ropeHeadDim, h, layers,
              LinearSlot::K);
        b.add("kv_a_layernorm", TensorRole::Norm, m.kvLoraRank, 1, layers);
        const std::uint64_t nope = m.headDim - std::min(m.headDim, m.ropeHeadDim);
        b.add("kv_b_proj", TensorRole::AttentionLinear, m.heads * (nope + m.valueHeadDim), m.kvLoraRank, layers,
              LinearSlot::V);
        if (m.indexHeads > 0) {
            // DeepSeek Sparse Attention's lightning indexer (DeepSeek-V3.2-Exp
            // inference/model.py Indexer; transformers modeling_deepseek_v32.py):
            // wq_b from the query latent, wk and weights_proj from the hidden
            // state, k_norm a LayerNorm with bias.
            const std::uint64_t queryIn = m.qLoraRank > 0 ? m.qLoraRank : h;
            b.add("indexer.wq_b", TensorRole::AttentionLinear, m.indexHeads * m.indexHeadDim, queryIn, indexed);
            b.add("indexer.wk", TensorRole::AttentionLinear, m.indexHeadDim, h, indexed);
            b.add("indexer.k_norm", TensorRole::Norm, 2 * m.indexHeadDim, 1, indexed);
            b.add("indexer.weights_proj", TensorRole::AttentionLinear, m.indexHeads, h, indexed);
        }
        // Kimi K3 mla_use_output_gate: a sigmoid gate over the heads' output.
        if (m.gatedAttention)
            b.add("g_proj", TensorRole::AttentionLinear, m.heads * m.valueHeadDim, h, layers);
    } else {
        // Qwen3-Next's gated attention: q_proj also yields the output gate.
        const std::uint64_t qWidth = a.queryHeads * a.headDim;
        const std::uint64_t qRows = m.gatedAttention ? 2 * qWidth : qWidth;
        // Gemma 4's K = V layers project the values with k_proj.
        const std::uint64_t vRows = a.keyIsValue ? 0 : a.valueWidth();
        if (m.qLoraRank > 0)
            addLowRankQueries(qRows);
        else
            b.add("q_proj", TensorRole::AttentionLinear, qRows, in, layers, LinearSlot::Q);
        b.add("k_proj", TensorRole::AttentionLinear, a.keyWidth(), in, caching, LinearSlot::K);
        b.add("v_proj", TensorRole::AttentionLinear, vRows, in, caching, LinearSlot::V);
        if (m.qkvBias)
            b.add("qkv_bias", TensorRole::Bias, qWidth + a.keyWidth() + vRows, 1, caching);
        if (m.indexHeads > 0 && m.msaIndexer) {
            // MiniMax Sparse Attention's lightning indexer in its sparse
            // layers (transformers modeling_minimax_m3_vl.py
            // MiniMaxM3VLIndexer): index_n_heads query heads and one key
            // head from the hidden state, each normed per head.
            b.add("indexer.q_proj", TensorRole::AttentionLinear, m.indexHeads * m.indexHeadDim, h, indexed);
            b.add("indexer.k_proj", TensorRole::AttentionLinear, m.indexHeadDim, h, indexed);
            b.add("indexer.qk_norm", TensorRole::Norm, 2 * m.indexHeadDim, 1, indexed);
        }
    }
    const std::uint64_t outWidth = m.isMla() ? m.attentionOutWidth() : a.queryHeads * a.valueDim;
    b.add("o_proj", TensorRole::AttentionLinear, h, outWidth, layers, LinearSlot::O);
    // Laguna's softplus output gate, per head or per element.
    b.add("g_proj", TensorRole::AttentionLinear, a.queryHeads * m.outputGatePerHead, h, layers);
    if (m.attnOutBias)
        b.add("o_bias", TensorRole::Bias, h, 1, layers);
    if (m.qkNorm) {
        // Per head (Qwen3, Gemma 3): one head_dim-wide weight each for q and
        // k; over the whole projection (OLMo 3, MiniMax-M2): q and k widths.
        // Layers that reuse another's keys have no k_norm.
        const std::uint64_t qNorm = m.qkNormWholeProjection ? a.queryHeads * a.headDim : a.headDim;
        const std::uint64_t kNorm = m.qkNormWholeProjection ? a.keyWidth() : a.headDim;
        b.add("qk_norm", TensorRole::Norm, qNorm + kNorm, 1, caching);
        b.add("q_norm", TensorRole::Norm, qNorm, 1, layers - caching);
    }
    if (sinks)
        b.add("sinks", TensorRole::Other, a.queryHeads, 1, layers);
}

/// DeepSeek-V4's attention (inference/model.py Attention, Compressor and
/// Indexer as the repository ships them; vLLM deepseek_v4.py): queries
/// through the low-rank wq_a, q_norm and wq_b; one head_dim-wide latent
/// (wkv, kv_norm) serving as key and value; the grouped output wo_a (one
/// o_lora_rank-wide projection per group of heads) and wo_b; a sink per
/// head. A layer of ratio r > 0 adds a compressor (ape, wkv, wgate,
/// norm; twice as wide where its windows overlap, r = 4), and the r = 4
/// layers the lightning indexer with a compressor of its own.
void addCompressedAttention(GroupBuilder &b, const ModelSpec &m)
{
    const std::uint64_t h = m.hidden;
    const std::uint64_t L = m.attentionLayers();
    const std::uint64_t hd = m.headDim;
    const std::uint64_t groups = std::max<std::uint64_t>(1, m.outputGroups);
    b.add("wq_a", TensorRole::AttentionLinear, m.qLoraRank, h, L, LinearSlot::Q);
    b.add("q_norm", TensorRole::Norm, m.qLoraRank, 1, L);
    b.add("wq_b", TensorRole::AttentionLinear, m.qWidth(), m.qLoraRank, L, LinearSlot::Q);
    b.add("wkv", TensorRole::AttentionLinear, hd, h, L, LinearSlot::K);
    b.add("kv_norm", TensorRole::Norm, hd, 1, L);
    b.add("wo_a", TensorRole::AttentionLinear, groups * m.outputLoraRank, m.qWidth() / groups, L, LinearSlot::O);
    b.add("o_proj", TensorRole::AttentionLinear, h, groups * m.outputLoraRank, L, LinearSlot::O);
    b.add("sinks", TensorRole::Other, m.heads, 1, L);
    // The layers of each compression ratio are the cache groups of the whole model.
    for (const CacheGroup &group : cacheGroups(m, m.layers)) {
        const std::uint64_t ratio = group.compressRatio;
        const std::uint64_t layers = group.windowedLayers;
        if (ratio == 0)
            continue;
        const std::uint64_t width = (ratio == 4 ? 2 : 1) * hd; // Compressor: overlap = compress_ratio == 4
        b.add("compressor.ape", TensorRole::Other, ratio, width, layers);
        b.add("compressor.wkv_and_wgate", TensorRole::AttentionLinear, 2 * width, h, layers);
        b.add("compressor.norm", TensorRole::Norm, hd, 1, layers);
        if (ratio != 4)
            continue;
        const std::uint64_t indexWidth = 2 * m.indexHeadDim;
        b.add("indexer.wq_b", TensorRole::AttentionLinear, m.indexHeads * m.indexHeadDim, m.qLoraRank, layers);
        b.add("indexer.weights_proj", TensorRole::AttentionLinear, m.indexHeads, h, layers);
        b.add("indexer.compressor.ape", TensorRole::Other, ratio, indexWidth, layers);
        b.add("indexer.compressor.wkv_and_wgate", TensorRole::AttentionLinear, 2 * indexWidth, h, layers);
        b.add("indexer.compressor.norm", TensorRole::Norm, m.indexHeadDim, 1, layers);
    }
}

/// Gated DeltaNet layers (modeling_qwen3_next.py Qwen3NextGatedDeltaNet):
/// one projection to q, k, v and the output gate z, one to the per-head
/// beta and decay inputs, a depthwise causal conv over q, k and v, per-head
/// dt_bias and A_log, a gated RMSNorm over each value head, and out_proj.
void addLinearAttention(GroupBuilder &b, const ModelSpec &m)
{
    const std::uint64_t h = m.hidden;
    if (m.kimiDeltaAttention) {
        const std::uint64_t heads = m.linearValueHeads;
        const std::uint64_t dim = m.linearValueDim;
        const std::uint64_t width = heads * dim;
        const std::uint64_t n = m.linearLayers;
        b.add("q_k_v_proj", TensorRole::AttentionLinear, 3 * width, h, n);
        b.add("q_k_v_conv1d", TensorRole::Other, 3 * width, m.linearConvKernel, n);
        b.add("f_a_proj", TensorRole::AttentionLinear, dim, h, n);
        b.add("f_b_proj", TensorRole::AttentionLinear, width, dim, n);
        b.add("dt_bias_and_A_log", TensorRole::Bias, width + heads, 1, n);
        b.add("b_proj", TensorRole::AttentionLinear, heads, h, n);
        if (m.fullRankOutputGate) {
            b.add("g_proj", TensorRole::AttentionLinear, width, h, n);
        } else {
            b.add("g_a_proj", TensorRole::AttentionLinear, dim, h, n);
            b.add("g_b_proj", TensorRole::AttentionLinear, width, dim, n);
        }
        b.add("o_norm", TensorRole::Norm, dim, 1, n);
        b.add("out_proj", TensorRole::AttentionLinear, h, width, n);
        return;
    }
    if (m.shortConv) {
        b.add("conv_in_proj", TensorRole::AttentionLinear, 3 * h, h, m.linearLayers);
        b.add("conv1d", TensorRole::Other, h, m.linearConvKernel, m.linearLayers);
        b.add("out_proj", TensorRole::AttentionLinear, h, h, m.linearLayers);
        return;
    }
    if (m.lightningAttention) {
        // MiniMaxText01LinearAttention: qkv_proj (3 x heads x head_dim),
        // output_gate, out_proj, and an RMSNorm over heads x head_dim.
        const std::uint64_t inner = m.linearValueHeads * m.linearValueDim;
        b.add("qkv_proj", TensorRole::AttentionLinear, 3 * inner, h, m.linearLayers);
        b.add("output_gate", TensorRole::AttentionLinear, inner, h, m.linearLayers);
        b.add("linear_norm", TensorRole::Norm, inner, 1, m.linearLayers);
        b.add("out_proj", TensorRole::AttentionLinear, h, inner, m.linearLayers);
        return;
    }
    const std::uint64_t keyWidth = m.linearKeyHeads * m.linearKeyDim;
    const std::uint64_t valueWidth = m.linearValueHeads * m.linearValueDim;
    const std::uint64_t n = m.linearLayers;
    b.add("in_proj_qkvz", TensorRole::AttentionLinear, 2 * keyWidth + 2 * valueWidth, h, n);
    b.add("in_proj_ba", TensorRole::AttentionLinear, 2 * m.linearValueHeads, h, n);
    b.add("conv1d", TensorRole::Other, 2 * keyWidth + valueWidth, m.linearConvKernel, n);
    b.add("dt_bias_and_A_log", TensorRole::Bias, 2 * m.linearValueHeads, 1, n);
    b.add("linear_norm", TensorRole::Norm, m.linearValueDim, 1, n);
    b.add("out_proj", TensorRole::AttentionLinear, h, valueWidth, n);
}

/// Mamba-1 layers (Gu & Dao 2023, arXiv:2312.00752 §3.2, Algorithm 2) as
/// transformers' modeling_jamba.py JambaMambaMixer (@ 008f5c8c) and vLLM's
/// mamba_mixer.py MambaMixer (v0.19.1) build them: in_proj to x and the gate
/// z (2 x d_inner); a depthwise causal conv1d over x; x_proj to dt (its
/// rank R), B and C (N each); dt_proj back to d_inner with a bias; A_log
/// (d_inner x N) and D; RMSNorms over dt, B and C; out_proj.
void addSelectiveScan(GroupBuilder &b, const ModelSpec &m)
{
    const std::uint64_t n = m.mambaLayers;
    const std::uint64_t inner = m.mambaInner();
    const std::uint64_t rank = m.mambaTimeStepRank;
    b.add("mamba_in_proj", TensorRole::AttentionLinear, 2 * inner, m.hidden, n);
    if (m.mambaProjBias)
        b.add("mamba_proj_bias", TensorRole::Bias, 2 * inner + m.hidden, 1, n);
    b.add("mamba_conv1d", TensorRole::Other, inner, m.mambaConvKernel, n);
    if (m.mambaConvBias)
        b.add("mamba_conv1d_bias", TensorRole::Bias, inner, 1, n);
    b.add("mamba_x_proj", TensorRole::AttentionLinear, rank + 2 * m.ssmState, inner, n);
    b.add("mamba_dt_proj", TensorRole::AttentionLinear, inner, rank, n);
    b.add("mamba_dt_proj_bias_and_D", TensorRole::Bias, 2 * inner, 1, n);
    b.add("mamba_A_log", TensorRole::Bias, inner, m.ssmState, n); // as Mamba-2's: split over TP, never quantised
    b.add("mamba_dt_B_C_norms", TensorRole::Norm, rank + 2 * m.ssmState, 1, n);
    b.add("mamba_out_proj", TensorRole::AttentionLinear, m.hidden, inner, n);
}

/// Mamba-2 layers (Dao & Gu 2024, arXiv:2405.21060 §7.1, parallel
/// projections) as modeling_nemotron_h.py NemotronHMamba2Mixer builds them:
/// in_proj to the gate z (d_inner), x, B and C (the conv width) and dt (one
/// per head); a depthwise causal conv1d over x, B and C, with a bias when
/// use_conv_bias; per-head dt_bias, A_log and D; a gated RMSNorm over
/// d_inner (Zamba2RMSNormGated; Falcon-H1's FalconH1Mixer only with
/// mamba_rms_norm); out_proj back to the hidden size.
void addMamba(GroupBuilder &b, const ModelSpec &m)
{
    const std::uint64_t n = m.mambaLayers;
    if (m.isMamba1()) {
        addSelectiveScan(b, m);
        return;
    }
    const std::uint64_t conv = m.mambaConvWidth();
    b.add("mamba_in_proj", TensorRole::AttentionLinear, m.mambaInner() + conv + m.mambaHeads, m.hidden, n);
    if (m.mambaProjBias)
        b.add("mamba_proj_bias", TensorRole::Bias, m.mambaInner() + conv + m.mambaHeads + m.hidden, 1, n);
    b.add("mamba_conv1d", TensorRole::Other, conv, m.mambaConvKernel, n);
    if (m.mambaConvBias)
        b.add("mamba_conv1d_bias", TensorRole::Bias, conv, 1, n);
    b.add("dt_bias_A_log_and_D", TensorRole::Bias, 3 * m.mambaHeads, 1, n);
    if (m.mambaNorm)
        b.add("mamba_norm", TensorRole::Norm, m.mambaInner(), 1, n);
    b.add("mamba_out_proj", TensorRole::AttentionLinear, m.hidden, m.mambaInner(), n);
}

/// How many copies `layers` layers' attention or MLP weights are: one a
/// layer, or Zamba2's shared blocks.
std::uint64_t sharedCopies(const ModelSpec &m, std::uint64_t layers)
{
    return m.sharedBlocks > 0 ? std::min(layers, m.sharedBlocks) : layers;
}

} // namespace

std::vector<TensorGroup> enumerateTensors(const ModelSpec &m)
{
    GroupBuilder b;
    b.groups.reserve(40); // more than any architecture adds: no regrowth
    const std::uint64_t h = m.hidden;
    const std::uint64_t L = m.layers;

    b.add("embed_tokens", TensorRole::Embedding, m.vocab, h, 1);
    b.add("embed_positions", TensorRole::Embedding, m.learnedPositions, h, 1);
    b.add("embed_token_types", TensorRole::Embedding, m.tokenTypes, h, 1);
    // Gemma 4 Gemma4TextModel: embed_tokens_per_layer, per_layer_model_projection
    // and per_layer_projection_norm.
    b.add("embed_tokens_per_layer", TensorRole::Embedding, m.perLayerInputVocab, L * m.perLayerInputWidth, 1);
    b.add("per_layer_model_projection", TensorRole::Other, L * m.perLayerInputWidth, h, 1);
    b.add("per_layer_projection_norm", TensorRole::Norm, m.perLayerInputWidth, 1, 1);
    if (m.embeddingNorm)
        b.add("embed_norm", TensorRole::Norm, normElements(m, h), 1, 1);

    // The attention kinds of the layer descriptor: one group of tensors,
    // or the sliding-window layers apart where their heads (or sinks) differ.
    LayerKind full = attentionKind(m, MixerKind::FullAttention);
    LayerKind windowed = attentionKind(m, MixerKind::SlidingWindow);
    if (windowed.attention == full.attention && !m.sinksWindowedOnly) {
        full.layers += windowed.layers;
        full.cachingLayers += windowed.cachingLayers;
        windowed.layers = windowed.cachingLayers = 0;
    }
    if (!m.compressRatios.empty()) {
        b.enter(LayerScope::AttentionLayers, m.attentionLayers());
        addCompressedAttention(b, m);
    } else {
        b.enter(LayerScope::AttentionLayers, full.layers);
        const std::size_t firstAttention = b.groups.size();
        addAttention(b, m, sharedCopies(m, full.layers), sharedCopies(m, full.cachingLayers), full.attention,
                     m.attentionSinks && !m.sinksWindowedOnly);
        if (m.sharedBlocks > 0) {
            // Zamba2 (modeling_zamba2.py): each shared block's input_layernorm
            // over the joined 2 x hidden and its pre_ff_layernorm; each
            // attention layer's own linear after the block, its LoRA adapter
            // on the block's gate_up (Zamba2MLP builds it always) and, where
            // use_shared_attention_adapter, on q, k and v.
            const std::uint64_t r = m.adapterRank;
            b.add("shared_block_norms", TensorRole::Norm, 3 * h, 1, sharedCopies(m, full.layers));
            b.add("hybrid_linear", TensorRole::AttentionLinear, h, h, full.layers);
            b.add("mlp_adapter", TensorRole::Other, r * h + (m.gatedMlp ? 2 : 1) * m.intermediate * r, 1, full.layers);
            b.add("qkv_adapters", TensorRole::Other, 3 * (r * 2 * h + 2 * h * r), 1,
                  m.attentionAdapters ? full.layers : 0);
            b.runInEveryLayer(firstAttention);
        }
        b.enter(LayerScope::WindowedAttentionLayers, windowed.layers);
        if (windowed.layers > 0)
            addAttention(b, m, windowed.layers, windowed.cachingLayers, windowed.attention, m.attentionSinks);
    }
    b.enter(LayerScope::LinearLayers, std::min(m.layers, m.linearLayers));
    addLinearAttention(b, m);
    b.enter(LayerScope::MambaLayers, std::min(m.layers, m.mambaLayers));
    addMamba(b, m);
    b.enter(LayerScope::AllLayers, L);
    const std::uint64_t norms = m.normPerBlock
        ? m.mixerLayers() + m.mixersAsLinear + m.mlpLayers() + m.mlpsAsLinear
        : L * static_cast<std::uint64_t>(m.normsPerLayer);
    b.add("layer_norms", TensorRole::Norm, normElements(m, h), 1, norms);
    b.add("linear_attn", TensorRole::AttentionLinear, h, h, m.mixersAsLinear);
    b.add("linear_mlp", TensorRole::MlpLinear, h, h, m.mlpsAsLinear);
    if (m.layerScalars)
        b.add("layer_scalar", TensorRole::Other, 1, 1, L);
    // DeepSeek-V4's hyper-connections around attention and the MLP: per
    // block a fn map ((2 + hc) x hc rows over the hc x h stream), its base
    // and three scales (inference/model.py Block hc_attn_*, hc_ffn_*).
    // Kimi K3's block attention residuals: two norms and two pseudo-queries a layer.
    b.add("attention_residuals", TensorRole::Norm, 4 * h, 1, m.blockAttentionResiduals ? L : 0);
    const std::uint64_t hc = m.hyperConnections;
    b.add("hyper_connections", TensorRole::Other, 2 * ((2 + hc) * hc * (hc * h + 1) + 3), 1, hc > 0 ? L : 0);

    // MLP: dense layers, then MoE layers (Shazeer et al. 2017; Fedus et al.
    // 2022 §2; DeepSeekMoE, Dai et al. 2024 §3 for shared experts).
    const std::uint64_t denseLayers = m.denseMlpLayers();
    const std::uint64_t moeLayers = m.moeLayers();
    const std::uint64_t wide = std::min(denseLayers, m.wideMlpLayers);
    b.enter(LayerScope::DenseLayers, denseLayers);
    if (m.mlpWidths.empty()) {
        const std::uint64_t plain = sharedCopies(m, denseLayers - wide);
        const std::size_t firstMlp = b.groups.size();
        addMlp(b, m, "mlp", TensorRole::MlpLinear, m.intermediate, plain, plain, m.mlpBias);
        if (m.sharedBlocks > 0)
            b.runInEveryLayer(firstMlp);
    } else {
        // One group per width, widest first.
        std::vector<std::uint64_t> widths = m.mlpWidths;
        std::sort(widths.rbegin(), widths.rend());
        for (auto first = widths.begin(); first != widths.end();) {
            const auto last = std::find_if(first, widths.end(), [&](std::uint64_t w) { return w != *first; });
            const auto count = static_cast<std::uint64_t>(last - first);
            addMlp(b, m, "mlp", TensorRole::MlpLinear, *first, count, count, m.mlpBias);
            first = last;
        }
    }
    addMlp(b, m, "mlp_wide", TensorRole::MlpLinear, 2 * m.intermediate, wide, wide, m.mlpBias);
    if (m.perLayerInputWidth > 0) {
        // Gemma 4's per-layer inputs (modeling_gemma4.py Gemma4TextDecoderLayer):
        // per_layer_input_gate and per_layer_projection in every layer.
        b.enter(LayerScope::AllLayers, L);
        b.add("per_layer_input_gate", TensorRole::Other, m.perLayerInputWidth, h, L);
        b.add("per_layer_projection", TensorRole::Other, h, m.perLayerInputWidth, L);
    }
    if (moeLayers > 0) {
        const auto E = static_cast<std::uint64_t>(m.moe.experts);
        const auto k = static_cast<std::uint64_t>(m.moe.expertsPerToken);
        b.enter(LayerScope::MoeLayers, moeLayers);
        b.add("router", TensorRole::Router, E, h, moeLayers);
        // Hash-routed layers look their experts up in tid2eid instead.
        const std::uint64_t hashed = std::min(moeLayers, m.hashRoutedLayers);
        if (m.moe.routerBias)
            b.add("router_bias", TensorRole::Bias, E, 1, moeLayers - hashed);
        // A lookup: no weight of it is multiplied per token.
        b.add("tid2eid", TensorRole::Other, m.vocab, k, hashed, LinearSlot::None, 0);
        if (m.moe.routerScales)
            b.add("router_scales", TensorRole::Bias, h + E, 1, moeLayers);
        addMlp(b, m, "experts", TensorRole::ExpertLinear, m.moe.expertIntermediate, E * moeLayers,
               k * moeLayers, m.moe.expertBias, m.moe.latentWidth);
        b.add("fc1_latent_proj", TensorRole::MlpLinear, m.moe.latentWidth, h, moeLayers);
        b.add("latent_norm", TensorRole::Norm, m.moe.latentNorm ? m.moe.latentWidth : 0, 1, moeLayers);
        b.add("fc2_latent_proj", TensorRole::MlpLinear, h, m.moe.latentWidth, moeLayers);
        if (m.moe.sharedExperts > 0)
            addMlp(b, m, "shared_experts", TensorRole::MlpLinear,
                   m.moe.expertIntermediate * static_cast<std::uint64_t>(m.moe.sharedExperts), moeLayers,
                   moeLayers, false);
        if (m.moe.sharedExpertGate)
            b.add("shared_expert_gate", TensorRole::Router, 1, h, moeLayers);
    }

    b.enter(LayerScope::None, 0);
    if (m.finalNorm)
        b.add("final_norm", TensorRole::Norm, normElements(m, h), 1, 1);
    if (m.pooler) {
        b.add("pooler", TensorRole::Other, h, h, 1);
        b.add("pooler_bias", TensorRole::Bias, h, 1, 1);
    }
    b.add("output_attention_residual", TensorRole::Norm, 2 * h, 1, m.blockAttentionResiduals ? 1 : 0);
    // Hyper-connections' head map (hc_head_fn, base, scale) before the head.
    b.add("hyper_connections_head", TensorRole::Other, hc * (hc * h + 1) + 1, 1, hc > 0 ? 1 : 0);
    if (!m.encoderOnly && !m.tiedEmbeddings)
        b.add("lm_head", TensorRole::LmHead, m.vocab, h, 1);
    if (!m.encoderOnly && m.lmHeadBias)
        b.add("lm_head_bias", TensorRole::Bias, m.vocab, 1, 1);
    if (m.loadMtp && m.mtpLayers > 0) {
        // DeepSeek-V3 README_WEIGHTS.md: each MTP module is one more decoder
        // layer (as the last main layer) plus enorm, hnorm, eh_proj (h x 2h)
        // and shared_head.norm; it shares the embedding and output head.
        // A token runs k of the module's routed experts, as in the main layers.
        // Step-3.5's modules each keep an output head of their own.
        const std::uint64_t perModule =
            mtpModuleLayer(m, b.groups) + 2 * h * h + 3 * h + (m.mtpOwnHead ? m.vocab * h : 0);
        const std::uint64_t expertWidth = m.moe.latentWidth > 0 ? m.moe.latentWidth : h;
        const std::uint64_t perExpert = (m.gatedMlp ? 3 : 2) * m.moe.expertIntermediate * expertWidth;
        const std::uint64_t idle = m.moe.isMoe() && !m.mtpDenseMlp
            ? static_cast<std::uint64_t>(m.moe.experts - m.moe.expertsPerToken) * perExpert
            : 0;
        b.add("mtp", TensorRole::Other, perModule - std::min(perModule, idle), 1, m.mtpLayers);
        b.add("mtp_idle_experts", TensorRole::Other, idle, 1, m.mtpLayers, LinearSlot::None, 0);
    }
    // The image encoder runs per image, not per text token.
    b.add("vision_tower", TensorRole::Other, m.visionParameters, 1, 1, LinearSlot::None, 0);
    b.add("audio_tower", TensorRole::Other, m.audioParameters, 1, 1, LinearSlot::None, 0);
    // What a heuristic shape cannot place of a declared parameter count.
    b.add("unplaced", TensorRole::Other, m.unplacedParameters, 1, 1);
    return b.groups;
}

ParameterCounts countParameters(const ModelSpec &m)
{
    return countParameters(m, enumerateTensors(m));
}

unsigned quantTargetOf(const TensorGroup &g)
{
    switch (g.role) {
    case TensorRole::AttentionLinear:
        return g.name == "o_proj" || g.name == "out_proj" || g.name == "mamba_out_proj" ? kQuantMixerOut
                                                                                         : kQuantMixerIn;
    case TensorRole::MlpLinear:
        return g.name.rfind("shared_experts", 0) == 0 ? kQuantSharedExperts : kQuantDenseMlp;
    case TensorRole::ExpertLinear:
        return kQuantExperts;
    case TensorRole::Router:
        return kQuantRouter;
    case TensorRole::LmHead:
        return kQuantLmHead;
    case TensorRole::Embedding:
        return g.name == "embed_tokens" ? kQuantEmbedding : 0u;
    case TensorRole::Norm:
    case TensorRole::Bias:
    case TensorRole::Other:
        return 0;
    }
    return 0;
}

TpSplit tpSplitOf(const TensorGroup &g)
{
    switch (g.role) {
    case TensorRole::Router:
        return TpSplit::Replicated;
    case TensorRole::Norm: {
        // Mamba-2's and lightning attention's gated norms run over the
        // inner width each rank holds a slice of (vLLM Mixer2RMSNormGated,
        // MiniMaxText01RMSNormTP); every other norm is whole.
        const std::string_view name = g.name;
        return name == std::string_view("mamba_norm") || name == std::string_view("linear_norm") ? TpSplit::Ranks
                                                                                                 : TpSplit::Replicated;
    }
    case TensorRole::Bias:
        return std::string_view(g.name) == std::string_view("router_bias") ? TpSplit::Replicated : TpSplit::Ranks;
    case TensorRole::AttentionLinear: {
        // Compared as string_views: lengths first (an estimate classifies
        // every group).
        const std::string_view name = g.name;
        if (name == std::string_view("k_proj") || name == std::string_view("v_proj"))
            return TpSplit::KeyValueHeads;
        // vllm/model_executor/models/deepseek_v2.py (DeepseekV2MLAAttention
        // and DeepSeek Sparse Attention's Indexer: "no tensor parallel, just
        // replicated"), deepseek_v4 (fused_wqa_wkv with disable_tp, its
        // Indexer's wq_b and weights_proj, compressor.py's fused_wkv_wgate
        // with disable_tp); SGLang alike. Zamba2's per-layer linear after
        // its shared block (zamba2.py Zamba2HybridLayer: ReplicatedLinear).
        static constexpr std::string_view replicated[] = {"q_a_proj",
                                                          "hybrid_linear",
                                                          "kv_a_proj_with_mqa",
                                                          "wq_a",
                                                          "wkv",
                                                          "indexer.wq_b",
                                                          "indexer.wk",
                                                          "indexer.weights_proj",
                                                          "compressor.wkv_and_wgate",
                                                          "indexer.compressor.wkv_and_wgate"};
        for (const std::string_view r : replicated)
            if (name == r)
                return TpSplit::Replicated;
        return TpSplit::Ranks;
    }
    case TensorRole::Other: {
        // DeepSeek-V4's compressors keep their position biases whole too.
        const std::string_view name = g.name;
        return name == std::string_view("compressor.ape") || name == std::string_view("indexer.compressor.ape")
            ? TpSplit::Replicated
            : TpSplit::Ranks;
    }
    default:
        return TpSplit::Ranks;
    }
}

namespace {

WeightPlacement placementOf(const TensorGroup &g)
{
    switch (g.role) {
    case TensorRole::Embedding:
        return WeightPlacement::Embedding;
    case TensorRole::LmHead:
        return WeightPlacement::LmHead;
    case TensorRole::ExpertLinear:
        return WeightPlacement::Experts;
    default:
        break;
    }
    switch (tpSplitOf(g)) {
    case TpSplit::Replicated:
        return WeightPlacement::Replicated;
    case TpSplit::KeyValueHeads:
        return g.scope == LayerScope::WindowedAttentionLayers ? WeightPlacement::WindowedKeyValue : WeightPlacement::KeyValue;
    case TpSplit::Ranks:
        break;
    }
    return WeightPlacement::Layers;
}

/// Of group `g`'s `n` elements (of kind `target`), those a format covering
/// `targets` in every layer and `partial` in some holds: all where the kind
/// is covered throughout, the covered layers' share where only some of the
/// scope's layers are.
std::uint64_t coveredElements(std::uint64_t targets, const std::vector<PartialQuantization> &partial,
                              const TensorGroup &g, unsigned target, std::uint64_t n)
{
    if (target == 0)
        return 0;
    if (targets & target)
        return n;
    for (const PartialQuantization &p : partial)
        if (p.target == target && p.scope == g.scope && g.layers > 0)
            return n / g.layers * std::min(p.quantizedLayers, g.layers);
    return 0;
}

} // namespace

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
        // The encoders and MTP modules are the "other" groups (named once in
        // enumerateTensors); the names are compared for those only.
        if (g.role == TensorRole::Other) {
            if (g.name == "vision_tower")
                c.vision = n;
            else if (g.name == "audio_tower")
                c.audio = n;
            else if (g.name.rfind("mtp", 0) == 0)
                c.mtp += n;
        }
        c.active = saturatingAdd(c.active, g.activeElements());
        constexpr unsigned layerLinears
            = kQuantMixerIn | kQuantMixerOut | kQuantDenseMlp | kQuantSharedExperts | kQuantExperts;
        const unsigned target = m.checkpointFormat.empty() ? 0u : quantTargetOf(g);
        const std::uint64_t quantized
            = coveredElements(m.checkpointQuantizedTargets, m.checkpointPartialTargets, g, target, n);
        FormatSums &placed = c.byPlacement[static_cast<std::size_t>(placementOf(g))];
        placed.total = saturatingAdd(placed.total, n);
        placed.checkpointQuantized = saturatingAdd(placed.checkpointQuantized, quantized);
        // The rest are "the other" modules only beside the ones the config
        // names: those its rest scheme names, where it names them.
        if ((target & layerLinears) && m.namesQuantizedModules()) {
            const std::uint64_t rest = m.namesRestModules()
                ? std::min(n - quantized,
                    coveredElements(m.checkpointRestTargets, m.checkpointRestPartialTargets, g, target, n))
                : n - quantized;
            placed.checkpointRestLinear = saturatingAdd(placed.checkpointRestLinear, rest);
        }
        switch (g.role) {
        case TensorRole::Embedding:
            c.embedding += n;
            break;
        case TensorRole::LmHead:
            placed.lmHead += n;
            break;
        case TensorRole::AttentionLinear:
        case TensorRole::MlpLinear:
        case TensorRole::Router:
        case TensorRole::Other:
            placed.linear = saturatingAdd(placed.linear, n);
            break;
        case TensorRole::ExpertLinear:
            placed.linear = saturatingAdd(placed.linear, n);
            placed.experts = saturatingAdd(placed.experts, n);
            break;
        case TensorRole::Norm:
        case TensorRole::Bias:
            c.small += n;
            break;
        }
    }
    // The model's sums: those of every placement together.
    for (const FormatSums &p : c.byPlacement) {
        c.total = saturatingAdd(c.total, p.total);
        c.linear = saturatingAdd(c.linear, p.linear);
        c.experts = saturatingAdd(c.experts, p.experts);
        c.lmHead = saturatingAdd(c.lmHead, p.lmHead);
        c.checkpointQuantized = saturatingAdd(c.checkpointQuantized, p.checkpointQuantized);
        c.checkpointRestLinear = saturatingAdd(c.checkpointRestLinear, p.checkpointRestLinear);
    }
    c.largestLayer = std::max(parametersPerLayer(m, tensors), largestTable);
    return c;
}

std::uint64_t parametersPerLayer(const ModelSpec &m)
{
    return parametersPerLayer(m, enumerateTensors(m));
}

namespace {

/// Parameters per layer of each scope's groups.
struct ScopeSums
{
    std::uint64_t perScope[8] = {};

    std::uint64_t at(LayerScope scope) const { return perScope[static_cast<int>(scope)]; }
    /// The largest token mixer of a layer: both blocks of a layer that
    /// attends and runs Mamba (Falcon-H1, Zamba2's hybrid layers).
    std::uint64_t mixer(const ModelSpec &m) const
    {
        const std::uint64_t attention
            = std::max(at(LayerScope::AttentionLayers), at(LayerScope::WindowedAttentionLayers));
        if (m.attendingMambaLayers > 0)
            return std::max(attention, at(LayerScope::LinearLayers)) + at(LayerScope::MambaLayers);
        return std::max({ attention, at(LayerScope::LinearLayers), at(LayerScope::MambaLayers) });
    }
    std::uint64_t mlp(const ModelSpec &m) const
    {
        return m.moe.withDenseMlp ? at(LayerScope::DenseLayers) + at(LayerScope::MoeLayers)
                                  : std::max(at(LayerScope::DenseLayers), at(LayerScope::MoeLayers));
    }
};

ScopeSums scopeSums(const std::vector<TensorGroup> &tensors)
{
    ScopeSums sums;
    for (const TensorGroup &g : tensors)
        if (g.layers > 0)
            sums.perScope[static_cast<int>(g.scope)] +=
                g.sharedAcrossLayers() ? g.rows * g.cols : g.elements() / g.layers;
    return sums;
}

/// No layer has both a mixer and an MLP (Nemotron-H's single-purpose blocks).
bool singlePurposeBlocks(const ModelSpec &m)
{
    return m.mixerLayers() + m.mlpLayers() <= m.layers;
}

} // namespace

std::uint64_t mtpModuleLayer(const ModelSpec &m, const std::vector<TensorGroup> &tensors)
{
    if (!m.compressRatios.empty()) {
        // DeepSeek-V4's MTP block (inference/model.py MTPBlock): a layer of
        // ratio 0 (window only: no compressor, no indexer) that is not
        // hash-routed, with a hyper-connection head of its own.
        ModelSpec block = m;
        block.compressRatios.assign(m.layers, 0);
        block.hashRoutedLayers = 0;
        block.loadMtp = false;
        const std::uint64_t hc = m.hyperConnections;
        return parametersPerLayer(block, enumerateTensors(block)) + (hc > 0 ? hc * (hc * m.hidden + 1) + 1 : 0);
    }
    const ScopeSums sums = scopeSums(tensors);
    if (m.mtpWindowed || m.mtpDenseMlp) {
        // Step-3.5's (vLLM step3p5_mtp.py): a sliding-window layer with a
        // dense MLP of intermediate_size (whether or not a main layer has one).
        const std::uint64_t windowed = sums.at(LayerScope::WindowedAttentionLayers);
        const std::uint64_t mixer = m.mtpWindowed && windowed > 0 ? windowed : sums.at(LayerScope::AttentionLayers);
        const std::uint64_t denseMlp = (m.gatedMlp ? 3 : 2) * m.hidden * m.intermediate;
        return sums.at(LayerScope::AllLayers) + mixer + (m.mtpDenseMlp ? denseMlp : sums.mlp(m));
    }
    if (!singlePurposeBlocks(m)) {
        // An MTP layer attends in full: Qwen3-Next's and Qwen3.5's are built
        // as full_attention layers (vLLM qwen3_next_mtp.py, qwen3_5_mtp.py),
        // so a hybrid's linear-attention mixers do not size it.
        if (m.linearLayers > 0 && sums.at(LayerScope::AttentionLayers) > 0)
            return sums.at(LayerScope::AllLayers) + sums.at(LayerScope::AttentionLayers) + sums.mlp(m);
        return parametersPerLayer(m, tensors);
    }
    // Nemotron 3's MTP module (vLLM nemotron_h_mtp.py, mtp_hybrid_override_pattern
    // "*E"): an attention block and an MLP block, each with its norm.
    return sums.at(LayerScope::AttentionLayers) + sums.mlp(m) + 2 * sums.at(LayerScope::AllLayers);
}

std::uint64_t parametersPerLayer(const ModelSpec &m, const std::vector<TensorGroup> &tensors)
{
    const ScopeSums sums = scopeSums(tensors);
    // The largest token mixer with the larger MLP: exact when every layer
    // has the same kinds, an upper bound for hybrids. Where no layer has
    // both (Nemotron-H's single-purpose blocks) the largest block is one or
    // the other.
    return sums.at(LayerScope::AllLayers)
        + (singlePurposeBlocks(m) ? std::max(sums.mixer(m), sums.mlp(m)) : sums.mixer(m) + sums.mlp(m));
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
