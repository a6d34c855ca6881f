#include "core/inference.h"

#include <algorithm>

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

} // namespace core
