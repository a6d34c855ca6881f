#include "core/memory/llamacppgraph.h"

#include "core/memory/ggmlalloc.h"

#include <algorithm>
#include <array>
#include <vector>

namespace core {

namespace {

/// TENSOR_ALIGNMENT: the CPU buffer type's alignment (ggml-backend.cpp).
constexpr std::uint64_t kCpuAlignment = 32;
constexpr std::uint64_t kF32 = 4;
/// More layers than any released model: the replay's graph grows with them.
constexpr std::uint64_t kMostLayers = 4096;
/// Room for one layer's tensors, MoE routing and rotations included.
constexpr std::size_t kTensorsPerLayer = 96;
/// A per-head 3-D tensor's layout differs from a 2-D one of the same bytes.
constexpr std::uint64_t kPerHead = 1ull << 63;

/// The families whose llama.cpp graph this builder writes: dense ones, and
/// Qwen3's MoE (every layer routed, softmax gating, no shared expert).
bool knownGraph(const ModelSpec &m)
{
    static constexpr std::array<const char *, 4> kDense = {"llama", "mistral", "qwen2", "qwen3"};
    const bool dense = !m.moe.isMoe()
        && std::any_of(kDense.begin(), kDense.end(), [&m](const char *f) { return m.family == f; });
    const MoeSpec &e = m.moe;
    const bool qwen3Moe = m.family == "qwen3_moe" && e.isMoe() && e.sharedExperts == 0 && e.denseLayers == 0
        && !e.routerBias && !e.expertBias && !e.withDenseMlp && !e.routerScales && e.latentWidth == 0;
    return (dense || qwen3Moe) && m.slidingWindow == 0 && !m.isMla() && !m.hasRecurrentState() && m.gatedMlp
        && !m.attnOutBias && !m.mlpBias && !m.lmHeadBias && !m.qkNormWholeProjection && !m.encoderOnly;
}

/// Gemma 3's window pattern in llama.cpp (models/gemma3.cpp): every sixth
/// layer attends to the whole context (set_swa_pattern(6)).
constexpr std::uint64_t kGemma3Period = 6;

bool gemma3SlidingLayer(std::uint64_t il) { return il % kGemma3Period < kGemma3Period - 1; }

bool knownGemma3Graph(const ModelSpec &m)
{
    std::uint64_t sliding = 0;
    for (std::uint64_t il = 0; il < m.layers; ++il)
        sliding += gemma3SlidingLayer(il) ? 1 : 0;
    return m.family == "gemma3_text" && m.slidingWindow > 0 && m.slidingLayers == sliding && !m.moe.isMoe()
        && !m.isMla() && !m.hasRecurrentState() && m.gatedMlp && m.qkNorm && !m.qkvBias && !m.encoderOnly;
}

/// build_moe_ffn (llama-graph.cpp) as Qwen3-MoE calls it: softmax gating,
/// top-k by argsort, the k weights normalised, up, gate and down for the k
/// experts of each token (MUL_MAT_ID), weighted, then summed expert by
/// expert.
int moeFeedForward(ggml::ComputeGraph &g, const ModelSpec &m, int cur, std::uint64_t ub)
{
    const auto experts = static_cast<std::uint64_t>(m.moe.experts);
    const auto used = static_cast<std::uint64_t>(m.moe.expertsPerToken);
    const int logits = g.op(kF32 * experts * ub, {g.weight(), cur});
    const int probs = g.op(kF32 * experts * ub, {logits}, true);
    const int selected = g.view(g.op(4 * experts * ub, {probs})); // argsort, its first k
    const int weights = g.op(kF32 * used * ub, {g.view(probs), selected});
    const int rows = g.view(weights);
    const int sum = g.op(kF32 * ub, {g.op(kF32 * ub, {rows})}, true); // sum_rows, then clamp in place
    const int normalised = g.view(g.op(kF32 * used * ub, {rows, sum}, true));
    g.expand(normalised);
    const int input = g.view(cur);
    const std::uint64_t ffBytes = kF32 * m.moe.expertIntermediate * used * ub;
    const int up = g.op(ffBytes, {g.weight(), input, selected});
    const int gate = g.op(ffBytes, {g.weight(), input, selected});
    const int product = g.op(ffBytes, {gate, up});
    const int down = g.op(kF32 * m.hidden * used * ub, {g.weight(), product, selected});
    const int weighted = g.op(kF32 * m.hidden * used * ub, {down, normalised}, true);
    g.expand(weighted);
    std::vector<int> each;
    for (std::uint64_t i = 0; i < used; ++i) {
        each.push_back(g.view(weighted));
        g.expand(each.back());
    }
    int out = each.front();
    for (std::size_t i = 1; i < each.size(); ++i) {
        out = g.op(kF32 * m.hidden * ub, {out, each[i]}, true);
        g.expand(out);
    }
    return used == 1 ? g.op(kF32 * m.hidden * ub, {out}) : out;
}

bool quantised(const std::optional<WeightFormat> &cache)
{
    return cache && (*cache == WeightFormat::GgufQ8_0 || *cache == WeightFormat::GgufQ4_0);
}

/// llama_kv_cache::build_input_k_rot: the largest power of two from 64
/// that divides the head (V: 64).
std::uint64_t rotationOrder(std::uint64_t headDim, bool smallest)
{
    std::uint64_t n = 64;
    while (!smallest && headDim % (n * 2) == 0)
        n *= 2;
    return n;
}

/// llama_mul_mat_hadamard: reshape, multiply by the rotation, reshape back.
int hadamard(ggml::ComputeGraph &g, int tensor, int rotation)
{
    const int rows = g.view(tensor);
    const int rotated = g.op(g.tensors()[static_cast<std::size_t>(tensor)].bytes, {rotation, rows});
    return g.view(rotated);
}

/// One KV cache's inputs: the store indices, the mask over its cells, the
/// Hadamard rotations of a quantised cache (llama_kv_cache build_input_*).
struct CacheInputs
{
    int kIdxs = -1, vIdxs = -1, mask = -1, kRot = -1, vRot = -1;
    std::uint64_t cells = 0;
};

CacheInputs cacheInputs(ggml::ComputeGraph &g, const Scenario &s, const LlamaCppLayout &l, std::uint64_t cells)
{
    const ModelSpec &m = s.model;
    const std::uint64_t ub = l.ubatch, d = m.headDim;
    CacheInputs c;
    c.cells = cells;
    c.kIdxs = g.leaf(8 * ub, true);
    // Without flash attention V is cached transposed: one index per value.
    c.vIdxs = g.leaf(8 * ub * (l.flash ? 1 : m.kvHeads * d), true);
    c.mask = g.leaf((l.flash ? 2 : kF32) * cells * ub, true);
    if (quantised(s.kvDtype) && d % 64 == 0)
        c.kRot = g.leaf(kF32 * rotationOrder(d, false) * rotationOrder(d, false), true);
    if (quantised(s.valueCacheDtype()) && d % 64 == 0)
        c.vRot = g.leaf(kF32 * rotationOrder(d, true) * rotationOrder(d, true), true);
    return c;
}

/// build_attn with a KV cache (llama-graph.cpp): the rotations, Q, K and V
/// into the graph (`kFirst`: the iSWA order q, k, v; else q, v, k), K and V
/// stored, then flash or eager attention over the cache and V's rotation
/// undone. Returns the attention's output, before wo.
int attention(ggml::ComputeGraph &g, const ModelSpec &m, const LlamaCppLayout &l, const CacheInputs &c, int q, int k,
              int v, bool kFirst)
{
    const std::uint64_t ub = l.ubatch, qBytes = kF32 * m.heads * m.headDim * ub;
    if (c.kRot >= 0) {
        q = hadamard(g, q, c.kRot);
        k = hadamard(g, k, c.kRot);
    }
    if (c.vRot >= 0)
        v = hadamard(g, v, c.vRot);
    g.expand(q);
    g.expand(kFirst ? k : v);
    g.expand(kFirst ? v : k);
    const int kCache = g.weight(), vCache = g.weight();
    g.expand(g.setRows(kCache, {g.view(k), c.kIdxs}));
    g.expand(g.setRows(vCache, {l.flash ? g.view(v) : g.view(g.view(v)), c.vIdxs}));
    const int qHeads = g.view(g.view(q));
    const int kHeads = g.view(g.view(kCache)), vHeads = g.view(g.view(vCache));
    int cur = -1;
    if (l.flash) {
        cur = g.view(g.op(qBytes, {qHeads, kHeads, vHeads, c.mask}));
    } else {
        const int scores = g.op(kF32 * c.cells * m.heads * ub, {kHeads, qHeads});
        const int softmax = g.op(kF32 * c.cells * m.heads * ub, {scores, c.mask}, true);
        const int kqv = g.op(qBytes, {vHeads, softmax});
        cur = g.op(qBytes, {g.view(kqv)});
    }
    g.expand(cur);
    return c.vRot >= 0 ? hadamard(g, cur, c.vRot) : cur;
}

/// build_norm with RMS and a weight: the norm, then the weight in place.
int rmsNorm(ggml::ComputeGraph &g, int x, std::uint64_t bytes, std::uint64_t shape = 0)
{
    return g.op(bytes, {g.op(bytes, {x}, true, shape), g.weight()}, true, shape);
}

/// build_inp_embd: the token rows, and the vector-embeddings input that
/// ggml_build_forward_select puts in the graph unused (never freed).
int tokenRows(ggml::ComputeGraph &g, const ModelSpec &m, std::uint64_t ub)
{
    const int tokens = g.leaf(4 * ub, true);
    const int vectors = g.leaf(kF32 * m.hidden * ub, true);
    const int rows = g.op(kF32 * m.hidden * ub, {g.weight(), tokens});
    g.expand(rows);
    g.expand(vectors);
    return rows;
}

/// The gated MLP: up, gate, their GLU product (GGML_OP_GLU, never in
/// place), down.
int gatedMlp(ggml::ComputeGraph &g, const ModelSpec &m, int x, std::uint64_t ub)
{
    const std::uint64_t ffBytes = kF32 * m.intermediate * ub;
    const int up = g.op(ffBytes, {g.weight(), x});
    const int gate = g.op(ffBytes, {g.weight(), x});
    return g.op(kF32 * m.hidden * ub, {g.weight(), g.op(ffBytes, {gate, up})});
}

/// The tokens a layer's second half works on: all of them, or in the last
/// layer only the outputs, its attention output and residual gathered by
/// out_ids (get_rows).
std::uint64_t keepOutputRows(ggml::ComputeGraph &g, const ModelSpec &m, bool last, std::uint64_t ub,
                             std::uint64_t outputs, int outIds, int &cur, int &residual)
{
    if (!last)
        return ub;
    const std::uint64_t bytes = kF32 * m.hidden * outputs;
    cur = g.op(bytes, {cur, outIds});
    residual = g.op(bytes, {residual, outIds});
    return outputs;
}

/// The llama / qwen2 / qwen3 (and Qwen3-MoE) graph.
void llamaGraph(ggml::ComputeGraph &g, const Scenario &s, const LlamaCppLayout &l, std::uint64_t outputs)
{
    const ModelSpec &m = s.model;
    const std::uint64_t ub = l.ubatch, h = m.hidden, d = m.headDim, hBytes = kF32 * h * ub;
    const std::uint64_t qBytes = kF32 * m.heads * d * ub, kvBytes = kF32 * m.kvHeads * d * ub;
    const std::uint64_t outBytes = kF32 * h * outputs;
    int layerIn = tokenRows(g, m, ub);
    const int positions = g.leaf(4 * ub, true);
    const CacheInputs cache = cacheInputs(g, s, l, l.cells);
    const int outIds = g.leaf(4 * outputs, true);
    for (std::uint64_t il = 0; il < m.layers; ++il) {
        int residual = layerIn;
        int cur = rmsNorm(g, layerIn, hBytes);
        int q = g.op(qBytes, {g.weight(), cur});
        int k = g.op(kvBytes, {g.weight(), cur});
        int v = g.op(kvBytes, {g.weight(), cur});
        if (m.qkvBias) {
            q = g.op(qBytes, {q, g.weight()}, true);
            k = g.op(kvBytes, {k, g.weight()}, true);
            v = g.op(kvBytes, {v, g.weight()}, true);
        }
        q = g.view(q);
        k = g.view(k);
        v = g.view(v);
        if (m.qkNorm) {
            q = rmsNorm(g, q, qBytes, qBytes | kPerHead);
            k = rmsNorm(g, k, kvBytes, kvBytes | kPerHead);
        }
        q = g.op(qBytes, {q, positions}, true, qBytes | kPerHead);
        k = g.op(kvBytes, {k, positions}, true, kvBytes | kPerHead);
        cur = g.op(hBytes, {g.weight(), attention(g, m, l, cache, q, k, v, false)});
        const std::uint64_t rows = keepOutputRows(g, m, il + 1 == m.layers, ub, outputs, outIds, cur, residual);
        const std::uint64_t rowBytes = kF32 * h * rows;
        const int ffnIn = g.op(rowBytes, {cur, residual}, true);
        cur = rmsNorm(g, ffnIn, rowBytes);
        cur = m.moe.isMoe() ? moeFeedForward(g, m, cur, rows) : gatedMlp(g, m, cur, rows);
        layerIn = g.op(rowBytes, {cur, ffnIn}, true);
    }
    const int cur = rmsNorm(g, layerIn, outBytes);
    g.expand(g.op(kF32 * m.vocab * outputs, {g.weight(), cur}));
}

/// Gemma 3 (models/gemma3.cpp): scaled embeddings, per-head norms, the
/// query scaled, a window cache for five layers in six (llama_kv_cache_iswa,
/// its own inputs), norms after attention and after the MLP.
void gemma3Graph(ggml::ComputeGraph &g, const Scenario &s, const LlamaCppLayout &l, std::uint64_t outputs)
{
    const ModelSpec &m = s.model;
    const std::uint64_t ub = l.ubatch, h = m.hidden, d = m.headDim, hBytes = kF32 * h * ub;
    const std::uint64_t qBytes = kF32 * m.heads * d * ub, kvBytes = kF32 * m.kvHeads * d * ub;
    const std::uint64_t outBytes = kF32 * h * outputs;
    int layerIn = g.op(hBytes, {tokenRows(g, m, ub)}, true); // ggml_scale by sqrt(n_embd)
    const int positions = g.leaf(4 * ub, true);
    const CacheInputs full = cacheInputs(g, s, l, l.cells);
    const CacheInputs window = cacheInputs(g, s, l, l.slidingCells);
    const int outIds = g.leaf(4 * outputs, true);
    for (std::uint64_t il = 0; il < m.layers; ++il) {
        int cur = rmsNorm(g, layerIn, hBytes);
        int q = g.view(g.op(qBytes, {g.weight(), cur}));
        int k = g.view(g.op(kvBytes, {g.weight(), cur}));
        const int v = g.view(g.op(kvBytes, {g.weight(), cur}));
        q = rmsNorm(g, q, qBytes, qBytes | kPerHead);
        q = g.op(qBytes, {q, positions}, true, qBytes | kPerHead);
        k = rmsNorm(g, k, kvBytes, kvBytes | kPerHead);
        k = g.op(kvBytes, {k, positions}, true, kvBytes | kPerHead);
        q = g.op(qBytes, {q}, true, qBytes | kPerHead); // the query's scale
        const CacheInputs &cache = gemma3SlidingLayer(il) ? window : full;
        cur = g.op(hBytes, {g.weight(), attention(g, m, l, cache, q, k, v, true)});
        const std::uint64_t rows = keepOutputRows(g, m, il + 1 == m.layers, ub, outputs, outIds, cur, layerIn);
        const std::uint64_t rowBytes = kF32 * h * rows;
        cur = rmsNorm(g, cur, rowBytes);
        const int attended = g.op(rowBytes, {cur, layerIn}, true);
        cur = rmsNorm(g, gatedMlp(g, m, rmsNorm(g, attended, rowBytes), rows), rowBytes);
        layerIn = g.op(rowBytes, {cur, attended}, true);
    }
    const int cur = rmsNorm(g, layerIn, outBytes);
    g.expand(g.op(kF32 * m.vocab * outputs, {g.weight(), cur}));
}

} // namespace

std::optional<double> llamaCppCpuComputeBuffer(const Scenario &s, const LlamaCppLayout &l)
{
    const ModelSpec &m = s.model;
    const bool gemma3 = knownGemma3Graph(m);
    if ((!knownGraph(m) && !gemma3) || l.gpuLayers > 0 || l.outputOnGpu)
        return std::nullopt;
    // Sizes past what 64 bits count, or more layers than any model has,
    // are left to the per-layer rule, which saturates.
    const double largest = 4.0 * static_cast<double>(std::max<std::uint64_t>(l.cells * m.heads, m.vocab))
        * static_cast<double>(l.ubatch);
    if (largest > 1e18 || m.layers > kMostLayers)
        return std::nullopt;
    // graph_reserve (llama-context.cpp): every sequence gets the same
    // number of tokens, so n_tokens rounds up to a multiple of them; every
    // token of the micro-batch is an output.
    LlamaCppLayout batch = l;
    const std::uint64_t outputs = l.ubatch;
    batch.ubatch = (l.ubatch + l.sequences - 1) / l.sequences * l.sequences;
    ggml::ComputeGraph g;
    g.reserve(static_cast<std::size_t>(m.layers) * kTensorsPerLayer + kTensorsPerLayer);
    if (gemma3)
        gemma3Graph(g, s, batch, outputs);
    else
        llamaGraph(g, s, batch, outputs);
    return static_cast<double>(ggml::computeBufferBytes(g, kCpuAlignment));
}

} // namespace core
