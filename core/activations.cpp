#include "core/activations.h"

namespace core {

namespace {

/// Bytes per token one normalisation layer saves. ATen's fused LayerNorm
/// keeps its input (plus per-row mean/rstd, negligible). Hugging Face's
/// Python RMSNorm (LlamaRMSNorm) upcasts to fp32 and `pow` saves that copy;
/// when the norm weight trains, `weight * x_normed` also saves the
/// normalised input in the activation dtype.
double normSaved(const ModelSpec &m, bool weightTrained, double e, double r)
{
    const double h = static_cast<double>(m.hidden);
    if (m.norm == NormKind::LayerNorm)
        return r * h;
    return 4.0 * h + (weightTrained ? e * h : 0.0);
}

/// Bytes per b*a*s^2 element that eager attention saves: the softmax output
/// (fp32 when the model upcasts, or under AMP where autocast runs softmax in
/// fp32), the 16-bit copy the value matmul saves when dtypes differ or after
/// dropout, and the 1-byte dropout mask. Korthikanti et al. 2022 §4.1 count
/// 2 + 2 + 1 = 5 for a 16-bit softmax with dropout.
double scoreBytes(const ModelSpec &m, const Scenario &s, double e)
{
    const bool upcast = m.softmaxInFp32 || s.regime == Regime::Amp || e >= 4.0;
    const double softmaxOut = upcast ? 4.0 : e;
    const bool dropout = m.attentionDropout > 0.0;
    const double copy = (softmaxOut != e || dropout) ? e : 0.0;
    return softmaxOut + copy + (dropout ? 1.0 : 0.0);
}

} // namespace

ActivationBreakdown trainingActivations(const ModelSpec &m, const Scenario &s, const Trainability &t, double e,
                                        double r)
{
    const double h = static_cast<double>(m.hidden);
    const double I = static_cast<double>(m.moe.isMoe() ? m.moe.expertIntermediate : m.intermediate);
    // A token in an MoE layer runs through k experts (plus the shared ones).
    const double mlpCopies = m.moe.isMoe()
        ? static_cast<double>(m.moe.expertsPerToken + m.moe.sharedExperts)
        : 1.0;
    const double qw = static_cast<double>(m.qWidth());
    const double kvw = static_cast<double>(m.kvWidth());
    const bool hiddenDropout = m.hiddenDropout > 0.0;
    const bool normsTrain = t.fullModel;

    // Korthikanti et al. Table 2: norm inputs, block inputs and dropout
    // masks are replicated across tensor-parallel ranks (the "10" of
    // 10 + 24/t); the attention and MLP interiors are split.
    double replicated = 0;
    double sharded = 0;

    // --- attention block ---
    replicated += normSaved(m, normsTrain, e, r);
    const bool qkvTrained = t.slotTrained(LinearSlot::Q) || t.slotTrained(LinearSlot::K) || t.slotTrained(LinearSlot::V);
    if (qkvTrained)
        replicated += e * h; // input of the q/k/v projections
    // Hugging Face's eager and SDPA paths materialise K and V repeated to all
    // heads (repeat_kv) before the kernel; FlashAttention-2 takes GQA natively.
    const double kvSaved = s.attention == Attention::Flash ? kvw : qw;
    sharded += e * (qw + 2.0 * kvSaved);
    if (s.attention == Attention::Eager) {
        if (t.slotTrained(LinearSlot::O))
            sharded += e * qw; // o_proj input
    } else {
        // Memory-efficient/flash kernels save their output and an fp32
        // log-sum-exp per head and row instead of the s^2 probabilities
        // (Dao et al. 2022, FlashAttention §3.1).
        sharded += e * qw + 4.0 * static_cast<double>(m.heads);
    }
    if (hiddenDropout)
        replicated += h; // 1-byte mask after the output projection

    // --- MLP block ---
    if (m.normsPerLayer >= 2)
        replicated += static_cast<double>(m.normsPerLayer - 1) * normSaved(m, normsTrain, e, r);
    const bool upTrained = t.slotTrained(LinearSlot::Up) || t.slotTrained(LinearSlot::Gate);
    const bool sharesInput = m.normsPerLayer == 1 && qkvTrained;
    if (upTrained && !sharesInput)
        replicated += e * h;
    double mlp = static_cast<double>(m.activationSavedTensors) * e * I; // activation function's saves
    if (m.gatedMlp)
        mlp += 2.0 * e * I; // act(gate) * up saves both operands
    if (t.slotTrained(LinearSlot::Down))
        mlp += e * I; // down_proj input
    sharded += mlp * mlpCopies;
    if (m.moe.isMoe())
        replicated += 4.0 * static_cast<double>(m.moe.experts); // fp32 router logits/softmax
    if (hiddenDropout)
        replicated += h;

    // --- LoRA: x*A (rank r) is saved for B's gradient, per adapted projection
    if (!t.fullModel) {
        int slots = 0;
        for (unsigned bit = 0; bit < 8; ++bit)
            slots += (t.loraSlots >> bit) & 1u;
        replicated += static_cast<double>(slots) * e * static_cast<double>(t.loraRank) * mlpCopies;
    }

    const double tp = static_cast<double>(s.parallel.tp);
    const double replicatedShare = s.parallel.sequenceParallel ? 1.0 / tp : 1.0;
    const double perToken = replicated * replicatedShare + sharded / tp;

    const double tokens = static_cast<double>(s.batch) * static_cast<double>(s.sequence);
    ActivationBreakdown out;
    out.perTokenPerLayer = perToken;
    if (s.attention == Attention::Eager)
        out.scoresPerLayer = static_cast<double>(s.batch) * static_cast<double>(m.heads)
            * static_cast<double>(s.sequence) * static_cast<double>(s.sequence) * scoreBytes(m, s, e) / tp;
    out.perLayer = perToken * tokens + out.scoresPerLayer;

    // --- outside the layers ---
    double first = 0;
    if (hiddenDropout)
        first += h; // embedding dropout mask
    if (m.embeddingNorm)
        first += r * h;
    double last = 0;
    if (m.finalNorm)
        last += normSaved(m, normsTrain, e, r);
    if (!m.encoderOnly && t.fullModel)
        last += e * h; // lm_head input
    out.outsideFirst = first * tokens * replicatedShare;
    out.outsideLast = last * tokens * replicatedShare;
    out.outsideLayers = out.outsideFirst + out.outsideLast;

    switch (s.checkpointing) {
    case Checkpointing::None:
        out.keptPerLayer = out.perLayer;
        break;
    case Checkpointing::Selective:
        // Korthikanti et al. 2022 §4.2: recompute only the attention core,
        // dropping the s^2 terms; nothing changes without them (SDPA/flash).
        out.keptPerLayer = perToken * tokens;
        break;
    case Checkpointing::Full:
        // Each layer keeps only its input (Korthikanti Table 2: 2sbh at
        // 16 bits); during backward one layer is recomputed at a time.
        out.keptPerLayer = r * h * tokens * replicatedShare;
        out.recomputePeak = out.perLayer;
        break;
    }
    out.saved = static_cast<double>(m.layers) * out.keptPerLayer + out.outsideLayers;
    return out;
}

} // namespace core
