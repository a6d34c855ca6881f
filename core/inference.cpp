#include "core/inference.h"

#include <algorithm>
#include <cmath>

namespace core {

std::uint64_t cachedLayerTokens(const ModelSpec &m, std::uint64_t layers, std::uint64_t context)
{
    if (m.layers == 0)
        return 0;
    // Layers are taken in proportion: a share of this range is sliding-window.
    const std::uint64_t sliding = m.slidingWindow > 0 ? m.slidingLayers * layers / m.layers : 0;
    const std::uint64_t full = layers - std::min(layers, sliding);
    const std::uint64_t window = m.slidingWindow > 0 ? std::min(context, m.slidingWindow) : context;
    return full * context + sliding * window;
}

double prefillWorkspaceBytes(const ModelSpec &m, const Scenario &s, double e)
{
    const double tokens = static_cast<double>(s.batch) * static_cast<double>(s.sequence);
    const double h = static_cast<double>(m.hidden);
    const double qw = static_cast<double>(m.qWidth());
    const double kvw = static_cast<double>(m.kvWidth());
    const double I = static_cast<double>(m.moe.isMoe() ? m.moe.expertIntermediate : m.intermediate);
    const double residual = 2.0 * e * h; // layer input and the normed copy
    // Attention: Q, K, V, the repeated K/V of Hugging Face's repeat_kv
    // (eager/SDPA), and the output.
    double attention = e * (2.0 * qw + 2.0 * kvw);
    if (s.attention != Attention::Flash && kvw < qw)
        attention += 2.0 * e * qw;
    double scores = 0;
    if (s.attention == Attention::Eager) {
        // Scores in the activation dtype plus the fp32 softmax output alive
        // together (softmax(..., dtype=torch.float32) in the modeling code).
        const double perElement = m.softmaxInFp32 ? e + 4.0 : 2.0 * e;
        scores = static_cast<double>(s.batch) * static_cast<double>(m.heads) * static_cast<double>(s.sequence)
            * static_cast<double>(s.sequence) * perElement;
    }
    // Gated MLP: gate, up and act(gate) alive at the product; then the
    // product replaces gate. Plain MLP: the up projection and its activation.
    const double mlpCopies = m.moe.isMoe() ? static_cast<double>(m.moe.expertsPerToken + m.moe.sharedExperts) : 1.0;
    const double mlp = (m.gatedMlp ? 3.0 : 2.0) * e * I * mlpCopies;
    return tokens * (residual + std::max(attention, mlp)) + scores;
}

VllmProfile vllmProfile(const ModelSpec &m, const Scenario &s, double e)
{
    VllmProfile p;
    const double tokens = static_cast<double>(s.maxBatchedTokens);
    const double tp = static_cast<double>(s.parallel.tp);
    const double h = static_cast<double>(m.hidden);
    const double qw = static_cast<double>(m.qWidth()) / tp;
    const double kvw = std::max(1.0, std::ceil(static_cast<double>(m.kvHeads) / tp)) * static_cast<double>(m.headDim);
    // The profiling forward skips the attention kernel (no attention
    // metadata: FlashAttentionImpl.forward returns output.fill_(0)); a
    // layer holds the residual and the normed input (fused_add_rms_norm
    // works in place) and, in the MLP, merged gate_up (2I) and SiluAndMul's
    // output (I); a fused MoE layer its intermediate caches per routed token
    // (fused_moe: k x (2I + I + h)).
    const double attention = qw + 2.0 * kvw + qw;
    double mlp = 0;
    if (m.moe.isMoe()) {
        const double I = static_cast<double>(m.moe.expertIntermediate) / tp;
        mlp = static_cast<double>(m.moe.expertsPerToken) * (3.0 * I + h)
            + static_cast<double>(m.moe.sharedExperts) * 3.0 * I;
    } else {
        mlp = (m.gatedMlp ? 3.0 : 2.0) * static_cast<double>(m.intermediate) / tp;
    }
    p.forwardBytes = tokens * e * (2.0 * h + std::max(attention, mlp));
    // Sampler warm-up (_dummy_sampler_run, forced top-k and top-p): the
    // 16-bit logits, their fp32 copy (Sampler.forward), and in
    // apply_top_k_top_p the sorted fp32 values and int64 indices, the top-k
    // and top-p bool masks, the fp32 softmax of the sorted values and the
    // fp32 scatter result, alive together: e + 4 + 4 + 8 + 1 + 1 + 4 + 4 B
    // per row and vocabulary entry; every tensor-parallel rank holds the
    // gathered vocabulary. The forward's hidden states stay referenced.
    p.samplerRows = std::min(tokens, static_cast<double>(s.maxNumSeqs));
    p.samplerBytes = p.samplerRows * static_cast<double>(m.vocab) * (e + 26.0) + tokens * h * e;
    return p;
}

} // namespace core
