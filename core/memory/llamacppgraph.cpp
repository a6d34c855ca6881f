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

} // namespace

std::optional<double> llamaCppCpuComputeBuffer(const Scenario &s, const LlamaCppLayout &l)
{
    const ModelSpec &m = s.model;
    if (!knownGraph(m) || l.gpuLayers > 0 || l.outputOnGpu)
        return std::nullopt;
    // Sizes past what 64 bits count, or more layers than any model has,
    // are left to the per-layer rule, which saturates.
    const double largest = 4.0 * static_cast<double>(std::max<std::uint64_t>(l.cells * m.heads, m.vocab))
        * static_cast<double>(l.ubatch);
    if (largest > 1e18 || m.layers > kMostLayers)
        return std::nullopt;
    const std::uint64_t ub = l.ubatch, h = m.hidden, d = m.headDim, cells = l.cells;
    const std::uint64_t qBytes = kF32 * m.heads * d * ub, kvBytes = kF32 * m.kvHeads * d * ub;
    const bool rotateK = quantised(s.kvDtype) && d % 64 == 0;
    const bool rotateV = quantised(s.valueCacheDtype()) && d % 64 == 0;
    ggml::ComputeGraph g;
    // build_inp_embd: the token rows, and the vector-embeddings input that
    // ggml_build_forward_select puts in the graph unused (never freed).
    const int tokens = g.leaf(4 * ub, true);
    const int vectors = g.leaf(kF32 * h * ub, true);
    const int rows = g.op(kF32 * h * ub, {g.weight(), tokens});
    g.expand(rows);
    g.expand(vectors);
    const int positions = g.leaf(4 * ub, true);
    const int kIdxs = g.leaf(8 * ub, true);
    // Without flash attention V is cached transposed: one index per value.
    const int vIdxs = g.leaf(8 * ub * (l.flash ? 1 : m.kvHeads * d), true);
    const int mask = g.leaf((l.flash ? 2 : kF32) * cells * ub, true);
    const int outIds = g.leaf(4 * ub, true);
    const int kRot = rotateK ? g.leaf(kF32 * rotationOrder(d, false) * rotationOrder(d, false), true) : -1;
    const int vRot = rotateV ? g.leaf(kF32 * rotationOrder(d, true) * rotationOrder(d, true), true) : -1;
    int layerIn = rows;
    for (std::uint64_t il = 0; il < m.layers; ++il) {
        int residual = layerIn;
        int cur = g.op(kF32 * h * ub, {layerIn}, true);
        cur = g.op(kF32 * h * ub, {cur, g.weight()}, true);
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
            q = g.op(qBytes, {g.op(qBytes, {q}, true, qBytes | kPerHead), g.weight()}, true, qBytes | kPerHead);
            k = g.op(kvBytes, {g.op(kvBytes, {k}, true, kvBytes | kPerHead), g.weight()}, true, kvBytes | kPerHead);
        }
        q = g.op(qBytes, {q, positions}, true, qBytes | kPerHead);
        k = g.op(kvBytes, {k, positions}, true, kvBytes | kPerHead);
        if (rotateK) {
            q = hadamard(g, q, kRot);
            k = hadamard(g, k, kRot);
        }
        if (rotateV)
            v = hadamard(g, v, vRot);
        g.expand(q);
        g.expand(v);
        g.expand(k);
        const int kCache = g.weight(), vCache = g.weight();
        g.expand(g.setRows(kCache, {g.view(k), kIdxs}));
        g.expand(g.setRows(vCache, {l.flash ? g.view(v) : g.view(g.view(v)), vIdxs}));
        const int qHeads = g.view(g.view(q));
        const int kHeads = g.view(g.view(kCache)), vHeads = g.view(g.view(vCache));
        if (l.flash) {
            cur = g.view(g.op(qBytes, {qHeads, kHeads, vHeads, mask}));
        } else {
            const int scores = g.op(kF32 * cells * m.heads * ub, {kHeads, qHeads});
            const int softmax = g.op(kF32 * cells * m.heads * ub, {scores, mask}, true);
            const int kqv = g.op(qBytes, {vHeads, softmax});
            cur = g.op(qBytes, {g.view(kqv)});
        }
        g.expand(cur);
        if (rotateV)
            cur = hadamard(g, cur, vRot);
        cur = g.op(kF32 * h * ub, {g.weight(), cur});
        if (il + 1 == m.layers) {
            cur = g.op(kF32 * h * ub, {cur, outIds});
            residual = g.op(kF32 * h * ub, {residual, outIds});
        }
        const int ffnIn = g.op(kF32 * h * ub, {cur, residual}, true);
        cur = g.op(kF32 * h * ub, {ffnIn}, true);
        cur = g.op(kF32 * h * ub, {cur, g.weight()}, true);
        if (m.moe.isMoe()) {
            cur = moeFeedForward(g, m, cur, ub);
        } else {
            const std::uint64_t ffBytes = kF32 * m.intermediate * ub;
            const int up = g.op(ffBytes, {g.weight(), cur});
            const int gate = g.op(ffBytes, {g.weight(), cur});
            const int product = g.op(ffBytes, {gate, up}); // GGML_OP_GLU: not in place
            cur = g.op(kF32 * h * ub, {g.weight(), product});
        }
        layerIn = g.op(kF32 * h * ub, {cur, ffnIn}, true);
    }
    int cur = g.op(kF32 * h * ub, {layerIn}, true);
    cur = g.op(kF32 * h * ub, {cur, g.weight()}, true);
    g.expand(g.op(kF32 * m.vocab * ub, {g.weight(), cur}));
    return static_cast<double>(ggml::computeBufferBytes(g, kCpuAlignment));
}

} // namespace core
