#include "core/activations.h"

namespace core {

namespace {

/// Bytes per token one normalisation layer saves. ATen's fused LayerNorm
/// keeps its input (plus per-row mean/rstd, negligible). Hugging Face's
/// Python RMSNorm (LlamaRMSNorm) computes in fp32 and `pow` saves that
/// fp32 tensor (the input itself when the residual is fp32, else its fp32
/// copy); when the norm weight trains, `weight * x.to(input_dtype)` also
/// saves the normalised input in the residual dtype.
double normSaved(const ModelSpec &m, bool weightTrained, const ActivationDtypes &d)
{
    const double h = static_cast<double>(m.hidden);
    if (m.norm == NormKind::LayerNorm)
        return d.residual * h;
    return 4.0 * h + (weightTrained ? d.residual * h : 0.0);
}

/// Bytes per b*a*s^2 element that eager attention saves: the softmax output
/// (fp32 when the model upcasts, or under AMP where autocast runs softmax in
/// fp32), the 16-bit copy the value matmul saves when dtypes differ or after
/// dropout, and the 1-byte dropout mask. Korthikanti et al. 2022 §4.1 count
/// 2 + 2 + 1 = 5 for a 16-bit softmax with dropout.
double scoreBytes(const ModelSpec &m, const ActivationDtypes &d)
{
    const double e = d.attention;
    const bool upcast = m.softmaxInFp32 || d.autocast || e >= 4.0;
    const double softmaxOut = upcast ? 4.0 : e;
    const bool dropout = m.attentionDropout > 0.0;
    const double copy = (softmaxOut != e || dropout) ? e : 0.0;
    return softmaxOut + copy + (dropout ? 1.0 : 0.0);
}

/// One tensor that linear layers read (a norm's output, the attention
/// output, the MLP product), and what its readers keep of it for backward.
/// A reader that computes in the tensor's own dtype keeps the tensor itself,
/// once for all such readers; a reader that casts (autocast, a 4-bit
/// layer's compute_dtype, PEFT's cast to the adapter dtype) or applies
/// dropout keeps a private copy of its own.
class InputSite
{
public:
    InputSite(double width, double dtype, bool savedAnyway) : m_width(width), m_dtype(dtype), m_savedAnyway(savedAnyway) {}

    double dtype() const { return m_dtype; }

    /// A reader that keeps its input in `bytes` per element; `dropout` adds
    /// a private copy and a 1-byte mask, `copies` a private copy.
    void keptBy(double bytes, bool dropout, bool copies)
    {
        if (bytes == m_dtype && !dropout && !copies)
            m_sharedNeeded = true;
        else
            m_private += m_width * (bytes + (dropout ? 1.0 : 0.0));
    }

    /// Bytes per token this site adds to what is saved.
    double saved() const { return m_private + (m_sharedNeeded && !m_savedAnyway ? m_width * m_dtype : 0.0); }

private:
    double m_width;
    double m_dtype;
    bool m_savedAnyway;
    bool m_sharedNeeded = false;
    double m_private = 0;
};

/// The readers of one site among the projections `slots`: trained layers,
/// 4-bit layers that keep their input, and adapters (one for all `slots`
/// when they are one fused layer).
void addReaders(InputSite &site, const Trainability &t, const ActivationDtypes &d,
                std::initializer_list<LinearSlot> slots, bool fusedAdapter)
{
    bool adapterCounted = false;
    for (LinearSlot slot : slots) {
        // A trained layer keeps its input in the dtype it computes in:
        // autocast casts an input of another dtype once per layer (ATen
        // autocast_mode.cpp cached_cast caches only fp32 leaves), as does
        // Linear4bit's x.to(compute_dtype); MatMul8bitLt keeps A as given.
        if (t.fullModel)
            site.keptBy(d.autocast ? d.compute : site.dtype(), false, false);
        else if (t.baseKeepsInputs)
            site.keptBy(t.baseCastsInput ? d.compute : site.dtype(), false, false);
        if (!t.fullModel && t.slotTrained(slot) && !(fusedAdapter && adapterCounted)) {
            const double bytes = d.autocast ? d.compute : t.adapterDtypeBytes;
            site.keptBy(bytes, t.adapterDropout, t.adapterCastsInput && t.adapterDtypeBytes != site.dtype());
            adapterCounted = true;
        }
    }
}

} // namespace

ActivationBreakdown trainingActivations(const ModelSpec &m, const Scenario &s, const Trainability &t,
                                        const ActivationDtypes &d)
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
    const bool eager = s.attention == Attention::Eager;
    const double ea = d.attention;
    const double eo = d.linearOut;

    // Korthikanti et al. Table 2: norm inputs, block inputs and dropout
    // masks are replicated across tensor-parallel ranks (the "10" of
    // 10 + 24/t); the attention and MLP interiors are split.
    double replicated = 0;
    double sharded = 0;

    // --- attention block ---
    replicated += normSaved(m, normsTrain, d);
    InputSite attentionInput(h, d.normOut, false);
    addReaders(attentionInput, t, d, {LinearSlot::Q, LinearSlot::K, LinearSlot::V}, t.fusedQkvAdapter);
    // Hugging Face's eager and SDPA paths materialise K and V repeated to all
    // heads (repeat_kv) before the kernel, as LitGPT does for every kernel;
    // FlashAttention-2 takes GQA natively.
    const double kvSaved = s.attention == Attention::Flash && !t.repeatsKvAlways ? kvw : qw;
    sharded += ea * (qw + 2.0 * kvSaved);
    if (!eager) {
        // Memory-efficient/flash kernels save their output and an fp32
        // log-sum-exp per head and row instead of the s^2 probabilities
        // (Dao et al. 2022, FlashAttention §3.1). The output is o_proj's
        // input: the kernel writes it in (b, s, heads, d) order, so the
        // transpose back is a view.
        sharded += ea * qw + 4.0 * static_cast<double>(m.heads);
    }
    InputSite attentionOutput(qw, ea, !eager);
    addReaders(attentionOutput, t, d, {LinearSlot::O}, false);
    sharded += attentionOutput.saved();
    if (hiddenDropout)
        replicated += h; // 1-byte mask after the output projection

    // --- MLP block ---
    if (m.normsPerLayer >= 2)
        replicated += static_cast<double>(m.normsPerLayer - 1) * normSaved(m, normsTrain, d);
    // A parallel block (one norm) feeds the MLP from the attention's input.
    InputSite separateMlpInput(h, d.normOut, false);
    InputSite &mlpInput = m.normsPerLayer == 1 ? attentionInput : separateMlpInput;
    addReaders(mlpInput, t, d, {LinearSlot::Gate, LinearSlot::Up}, false);
    replicated += attentionInput.saved() + (m.normsPerLayer == 1 ? 0.0 : separateMlpInput.saved());
    double mlp = static_cast<double>(m.activationSavedTensors) * eo * I; // activation function's saves
    if (m.gatedMlp)
        mlp += 2.0 * eo * I; // act(gate) * up saves both operands
    InputSite mlpProduct(I, eo, false);
    addReaders(mlpProduct, t, d, {LinearSlot::Down}, false);
    mlp += mlpProduct.saved();
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
        replicated += static_cast<double>(slots) * t.adapterOutputBytes * static_cast<double>(t.loraRank) * mlpCopies;
    }

    const double tp = static_cast<double>(s.parallel.tp);
    const double replicatedShare = s.parallel.sequenceParallel ? 1.0 / tp : 1.0;
    const double perToken = replicated * replicatedShare + sharded / tp;

    const double tokens = static_cast<double>(s.batch) * static_cast<double>(s.sequence);
    ActivationBreakdown out;
    out.perTokenPerLayer = perToken;
    if (eager)
        out.scoresPerLayer = static_cast<double>(s.batch) * static_cast<double>(m.heads)
            * static_cast<double>(s.sequence) * static_cast<double>(s.sequence) * scoreBytes(m, d) / tp;
    out.perLayer = perToken * tokens + out.scoresPerLayer;
    out.layerGradientPeak = tokens * (3.0 * eo * I * mlpCopies / tp + d.residual * h * replicatedShare);

    // --- outside the layers ---
    double first = 0;
    if (hiddenDropout)
        first += h; // embedding dropout mask
    if (m.embeddingNorm)
        first += d.residual * h;
    double last = 0;
    if (m.finalNorm)
        last += normSaved(m, normsTrain, d);
    if (!m.encoderOnly && (t.fullModel || t.lmHeadKeepsInput)) {
        // A trained lm_head (or a bitsandbytes <= 0.43.1 4-bit one) keeps
        // its input, in its compute dtype.
        InputSite headInput(h, d.normOut, false);
        headInput.keptBy(d.autocast || (!t.fullModel && t.baseCastsInput) ? d.compute : d.normOut, false, false);
        last += headInput.saved();
    }
    out.outsideFirst = first * tokens * replicatedShare;
    out.outsideLast = last * tokens * replicatedShare;
    out.outsideLayers = out.outsideFirst + out.outsideLast;

    switch (s.effectiveCheckpointing()) {
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
        out.keptPerLayer = d.residual * h * tokens * replicatedShare;
        out.recomputePeak = out.perLayer;
        break;
    }
    out.saved = static_cast<double>(m.layers) * out.keptPerLayer + out.outsideLayers;
    return out;
}

} // namespace core
