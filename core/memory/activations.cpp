#include "core/memory/activations.h"

#include "core/memory/formulatext.h"
#include "core/model/layerkinds.h"

#include <array>

namespace core {

namespace {

namespace a = text::activations;
namespace sh = text::shared;

/// Where a saved tensor lives across ranks. Korthikanti et al. Table 2:
/// norm inputs, block inputs and dropout masks are replicated across
/// tensor-parallel ranks (the "10" of 10 + 24/t) unless sequence
/// parallelism splits them too; the attention and MLP interiors are split.
/// An MoE layer's MLP runs once for each expert a token is routed to.
/// In a hybrid model a block of one kind sits in only some layers (Qwen3.5's
/// attention in one layer of four, Nemotron-H's MLP in a layer without a
/// mixer): its tensors count for `blockLayers` of the `layers`, as a share
/// of the per-layer mean.
struct Placement
{
    double tp = 1;
    bool split = false;
    double experts = 1;
    const Symbol *blocks = nullptr;
    double blockLayers = 0;
    double layers = 0;

    /// The same place, in `n` of the layers, named by `symbol`.
    Placement in(const Symbol &symbol, double n, double all) const
    {
        Placement p = *this;
        p.blocks = &symbol;
        p.blockLayers = n;
        p.layers = all;
        return p;
    }
};

/// Ends the open product of `f` with where its tensor lives.
inline void place(Formula &f, const Placement &p)
{
    f.timesUnlessOne(sh::kExpertsRun, p.experts);
    if (p.split)
        f.overUnlessOne(sh::kTp, p.tp);
    if (p.blocks && p.blockLayers != p.layers)
        f.times(*p.blocks, p.blockLayers).over(text::rank::kLayers, p.layers);
}

/// What one normalisation layer saves per token, `count` such norms.
/// ATen's fused LayerNorm keeps its input (plus per-row mean/rstd,
/// negligible). Hugging Face's Python RMSNorm (LlamaRMSNorm) computes in
/// fp32 and `pow` saves that fp32 tensor (the input itself when the
/// residual is fp32, else its fp32 copy); when the norm weight trains,
/// `weight * x.to(input_dtype)` also saves the normalised input in the
/// residual dtype. Liger's RMSNorm keeps its input and a per-row fp32 rstd
/// (negligible), as a fused LayerNorm does (liger_kernel ops/rms_norm.py
/// LigerRMSNormFunction: ctx.save_for_backward(X, RSTD)).
void normSaved(Formula &c, const text::activations::Norm &text, const ModelSpec &m, bool weightTrained,
               const ActivationDtypes &d, double count, const Placement &where, bool keepsInputOnly)
{
    const double h = static_cast<double>(m.hidden);
    if (m.norm == NormKind::LayerNorm || keepsInputOnly) {
        c.product(text.layerNormInput)
            .timesUnlessOne(a::kNorms, count)
            .times(a::kResidualBytes, d.residual)
            .times(sh::kHidden, h);
        place(c, where);
        return;
    }
    c.product(text.rmsNormFp32).timesUnlessOne(a::kNorms, count).times(sh::kFp32Bytes, 4.0).times(sh::kHidden, h);
    place(c, where);
    if (weightTrained) {
        c.product(text.rmsNormNormed)
            .timesUnlessOne(a::kNorms, count)
            .times(a::kResidualBytes, d.residual)
            .times(sh::kHidden, h);
        place(c, where);
    }
}

/// Bytes per b*a*s^2 element that eager attention saves: the softmax output
/// (fp32 when the model upcasts, or under AMP where autocast runs softmax in
/// fp32), the 16-bit copy the value matmul saves when dtypes differ or after
/// dropout, and the 1-byte dropout mask. Korthikanti et al. 2022 §4.1 count
/// 2 + 2 + 1 = 5 for a 16-bit softmax with dropout.
Derived scoreBytes(const ModelSpec &m, const ActivationDtypes &d, FormulaStore *store)
{
    const double e = d.attention;
    const bool upcast = m.softmaxInFp32 || d.autocast || e >= 4.0;
    const double softmaxOut = upcast ? 4.0 : e;
    const bool dropout = m.attentionDropout > 0.0;
    Formula bytes(store);
    bytes.product(a::kPartSoftmaxOutput).times(a::kSoftmaxBytes, softmaxOut);
    if (softmaxOut != e || dropout)
        bytes.product(a::kPartSoftmaxCopy).times(a::kAttentionBytes, e);
    if (dropout)
        bytes.product(a::kPartScoreMask).times(a::kMaskBytes, 1.0);
    return bytes.derived();
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
    InputSite(const Symbol &width, double widthValue, double dtype, bool savedAnyway,
              const text::activations::Site &text)
        : m_width(width), m_widthValue(widthValue), m_dtype(dtype), m_savedAnyway(savedAnyway), m_text(text)
    {
    }

    double dtype() const { return m_dtype; }

    /// A reader that keeps its input in `bytes` per element; `dropout` adds
    /// a private copy and a 1-byte mask, `copies` a private copy.
    void keptBy(double bytes, bool dropout, bool copies)
    {
        if (bytes == m_dtype && !dropout && !copies) {
            m_sharedNeeded = true;
            return;
        }
        for (std::size_t i = 0; i < m_kinds; ++i)
            if (m_copies[i].bytes == bytes && m_copies[i].dropout == dropout) {
                ++m_copies[i].readers;
                return;
            }
        m_copies[m_kinds++] = {bytes, dropout, 1};
    }

    /// The parts this site adds to what a layer saves per token.
    void addTo(Formula &c, const Placement &where) const
    {
        if (m_sharedNeeded && !m_savedAnyway) {
            c.product(m_text.shared).times(a::kInputBytes, m_dtype).times(m_width, m_widthValue);
            place(c, where);
        }
        for (std::size_t i = 0; i < m_kinds; ++i) {
            const Copy &copy = m_copies[i];
            const double readers = static_cast<double>(copy.readers);
            c.product(copy.dropout ? m_text.dropoutCopies : m_text.copies)
                .timesUnlessOne(a::kReaders, readers)
                .times(a::kCopyBytes, copy.bytes)
                .times(m_width, m_widthValue);
            place(c, where);
            if (copy.dropout) {
                c.product(m_text.masks)
                    .timesUnlessOne(a::kReaders, readers)
                    .times(a::kMaskBytes, 1.0)
                    .times(m_width, m_widthValue);
                place(c, where);
            }
        }
    }

private:
    struct Copy
    {
        double bytes;
        bool dropout;
        int readers;
    };
    const Symbol &m_width;
    double m_widthValue;
    double m_dtype;
    bool m_savedAnyway;
    const text::activations::Site &m_text;
    bool m_sharedNeeded = false;
    // The private copies by kind: the layers' own (autocast or a 4-bit
    // layer's cast) and their adapters' (addReaders): two kinds at most.
    std::array<Copy, 2> m_copies{};
    std::size_t m_kinds = 0;
};

/// The readers of one site among the projections `slots`: trained layers,
/// 4-bit layers that keep their input, and adapters (one for all `slots`
/// when they are one fused layer). An Unsloth-patched group is one autograd
/// function that saves the site as it is and nothing else.
void addReaders(InputSite &site, const Trainability &t, const ActivationDtypes &d,
                std::initializer_list<LinearSlot> slots, bool fusedAdapter, bool unslothGroup = false)
{
    if (unslothGroup) {
        site.keptBy(site.dtype(), false, false);
        return;
    }
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

/// The dense MLP layers' widths, as modelspec.cpp builds their groups:
/// Llama-Nemotron's one per layer, Gemma 4's kv-shared layers twice
/// intermediate_size. The mean sets the per-layer figure, the widest the
/// largest layer.
struct DenseWidths
{
    double mean;
    double widest;
};

DenseWidths denseMlpWidths(const ModelSpec &m)
{
    const double base = static_cast<double>(m.intermediate);
    if (!m.mlpWidths.empty()) {
        double sum = 0, widest = 0;
        for (std::uint64_t w : m.mlpWidths) {
            sum += static_cast<double>(w);
            widest = std::max(widest, static_cast<double>(w));
        }
        return {sum / static_cast<double>(m.mlpWidths.size()), widest};
    }
    const double layers = static_cast<double>(m.denseMlpLayers());
    const double wide = std::min(layers, static_cast<double>(m.wideMlpLayers));
    if (wide == 0)
        return {base, base};
    return {base * (layers + wide) / layers, 2 * base};
}

/// Gated DeltaNet: the linear-attention kind that is neither MiniMax's
/// lightning attention, LFM2's short convolution nor Kimi's delta attention.
bool gatedDeltaNet(const ModelSpec &m)
{
    return m.linearLayers > 0 && !m.lightningAttention && !m.shortConv && !m.kimiDeltaAttention;
}

/// What a Mamba block's kernels keep for backward, per token, as
/// transformers runs them in training without a cache: Mamba-2's fused
/// split-conv-scan (its gated norm and out_proj inside, their inputs
/// recomputed), Mamba-1's conv and selective scan (Jamba).
void mambaSaved(Formula &c, const ModelSpec &m, const ActivationDtypes &d, bool fullModel, const Placement &where)
{
    const double e = d.attention;
    const double inner = static_cast<double>(m.mambaInner());
    const double state = static_cast<double>(m.ssmState);
    if (!m.isMamba1()) {
        const double width = 2.0 * inner + 2.0 * static_cast<double>(m.ssmGroups) * state
            + static_cast<double>(m.mambaHeads);
        c.product(a::kPartMambaProjection).times(a::kAttentionBytes, e).times(a::kMambaProjWidth, width);
        place(c, where);
        c.product(a::kPartScanOutput).times(a::kAttentionBytes, e).times(a::kMambaInner, inner);
        place(c, where);
        if (m.mambaNorm) {
            c.product(a::kPartGroupNormStats)
                .times(sh::kFp32Bytes, 4.0)
                .times(a::kMambaGroups, static_cast<double>(std::max<std::uint64_t>(1, m.ssmGroups)));
            place(c, where);
        }
        c.cite(a::kFromMamba2Kernel);
        return;
    }
    const double rank = static_cast<double>(m.mambaTimeStepRank);
    c.product(a::kPartMambaOneProjection)
        .times(a::kAttentionBytes, e)
        .times(sh::kKeyAndValue, 2.0)
        .times(a::kMambaInner, inner);
    place(c, where);
    c.product(a::kPartScanCopies).times(a::kAttentionBytes, e).times(a::kScanCopies, 4.0).times(a::kMambaInner, inner);
    place(c, where);
    c.product(a::kPartStateProjections)
        .times(a::kAttentionBytes, e)
        .times(sh::kKeyAndValue, 2.0)
        .times(a::kMambaState, state);
    place(c, where);
    // Each norm keeps its fp32 input and one fp32 rsqrt a token.
    c.product(a::kPartInnerNorms).times(sh::kFp32Bytes, 4.0).times(a::kInnerNormWidth, rank + 2.0 * state + 3.0);
    place(c, where);
    // 8 d N bytes per 2,048 tokens of a sequence (fp32 pairs), taken per
    // token: a sequence that is no multiple of 2,048 has one more chunk.
    c.product(a::kPartScanIntermediates)
        .times(sh::kFp32Bytes, 4.0)
        .times(sh::kKeyAndValue, 2.0)
        .times(a::kMambaInner, inner)
        .times(a::kMambaState, state)
        .over(a::kScanChunk, 2048.0);
    place(c, where);
    // Trained, x_proj and out_proj keep copies of their transposed inputs,
    // dt_proj its input, and the inner norms their normalised inputs.
    if (fullModel) {
        c.product(a::kPartMambaOneTrained)
            .times(a::kAttentionBytes, e)
            .times(a::kMambaOneTrainedWidth, 2.0 * inner + 2.0 * rank + 2.0 * state);
        place(c, where);
    }
    c.cite(a::kFromMamba1Kernel);
}

/// What a Gated DeltaNet layer's kernels keep for backward, per token.
/// Qwen3-Next's transformers code runs fla's fused gated norm and repeats
/// q and k to the value heads; Qwen3.5's runs its torch gated norm and,
/// with fla 0.5, hands the kernel q and k at the key heads.
void gatedDeltaNetSaved(Formula &c, const ModelSpec &m, const ActivationDtypes &d, bool fullModel,
                        const Placement &where)
{
    const double e = d.attention;
    const bool fusedNorm = m.family == "qwen3_next";
    const double keyWidth = static_cast<double>(m.linearKeyHeads * m.linearKeyDim);
    const double valueHeads = static_cast<double>(m.linearValueHeads);
    const double valueWidth = valueHeads * static_cast<double>(m.linearValueDim);
    const double queryHeads = fusedNorm ? valueHeads : static_cast<double>(m.linearKeyHeads);
    c.product(a::kPartConvInput).times(a::kAttentionBytes, e).times(a::kDeltaConvWidth, 2.0 * keyWidth + valueWidth);
    place(c, where);
    c.product(a::kPartDeltaQueryKey)
        .times(sh::kKeyAndValue, 2.0)
        .times(a::kAttentionBytes, e)
        .times(a::kDeltaQueryHeads, queryHeads)
        .times(a::kDeltaKeyDim, static_cast<double>(m.linearKeyDim));
    place(c, where);
    c.product(a::kPartDeltaNormStats)
        .times(sh::kKeyAndValue, 2.0)
        .times(sh::kFp32Bytes, 4.0)
        .times(a::kDeltaQueryHeads, queryHeads);
    place(c, where);
    c.product(a::kPartDeltaValue).times(a::kAttentionBytes, e).times(a::kDeltaValueWidth, valueWidth);
    place(c, where);
    c.product(a::kPartDeltaDecay).times(sh::kFp32Bytes, 4.0).times(a::kDeltaValueHeads, valueHeads);
    place(c, where);
    c.product(a::kPartDeltaBeta).times(a::kAttentionBytes, e).times(a::kDeltaValueHeads, valueHeads);
    place(c, where);
    c.product(a::kPartDeltaTriangle)
        .times(a::kAttentionBytes, e)
        .times(a::kChunkRows, 64.0)
        .times(a::kDeltaValueHeads, valueHeads);
    place(c, where);
    c.product(a::kPartSoftplus)
        .times(sh::kFp32Bytes, fullModel ? 8.0 : 4.0)
        .times(a::kDeltaValueHeads, valueHeads);
    place(c, where);
    // fla's fused norm keeps its input and gate; the torch one the fp32
    // input, the product w x n (and n where its weight trains), the fp32
    // gate and its silu.
    const double normBytes = fusedNorm ? 2.0 * e : 12.0 + e + (fullModel ? e : 0.0);
    c.product(a::kPartGatedNorm).times(a::kNormCopies, normBytes).times(a::kDeltaValueWidth, valueWidth);
    place(c, where);
    c.product(a::kPartGatedNormStats).times(sh::kFp32Bytes, 4.0).times(a::kDeltaValueHeads, valueHeads);
    place(c, where);
    if (fullModel) {
        c.product(a::kPartMixerOutput).times(a::kAttentionBytes, e).times(a::kDeltaValueWidth, valueWidth);
        place(c, where);
    }
    c.cite(a::kFromDeltaKernel);
}

} // namespace

ActivationRates activationRates(const ModelSpec &m, const Scenario &s, const Trainability &t, const ActivationDtypes &d,
                                FormulaStore *store)
{
    const double h = static_cast<double>(m.hidden);
    const DenseWidths dense = denseMlpWidths(m);
    const double I = m.moe.isMoe() ? static_cast<double>(m.moe.expertIntermediate) : dense.mean;
    // A token in an MoE layer runs through k experts (plus the shared ones).
    const double mlpCopies = m.moe.isMoe()
        ? static_cast<double>(m.moe.expertsPerToken + m.moe.sharedExperts)
        : 1.0;
    // An MoE model's dense MLP layers (DeepSeek's first three, Jamba's
    // every other one) run one MLP of the dense width.
    const double denseInMoe = m.moe.isMoe() ? static_cast<double>(m.denseMlpLayers()) : 0.0;
    const double expertLayers = static_cast<double>(m.moeLayers());
    const double qw = static_cast<double>(widestQueries(m));
    const double kvw = static_cast<double>(m.kvWidth());
    const bool hiddenDropout = m.hiddenDropout > 0.0;
    const bool normsTrain = t.fullModel;
    const bool eager = s.attention == Attention::Eager;
    const double ea = d.attention;
    const double eo = d.linearOut;
    const double tp = static_cast<double>(s.parallel.tp);
    // Each block counts in the layers that have it (Placement::in): the
    // attention in the softmax layers, the pre-mixer norm in every mixer,
    // the MLP where there is one. A model whose layers all hold both is
    // unchanged.
    const double layers = static_cast<double>(m.layers);
    // Mamba and Gated DeltaNet blocks keep their kernels' tensors; the
    // other linear kinds are still taken as attention.
    const double deltaLayers = gatedDeltaNet(m) ? static_cast<double>(m.linearLayers) : 0.0;
    const double mambaLayers = static_cast<double>(m.mambaLayers);
    const double attending = static_cast<double>(m.attentionLayers() + m.linearLayers) - deltaLayers;
    const double mixing = static_cast<double>(m.mixerLayers());
    const double mlps = static_cast<double>(m.mlpLayers());
    const Placement replicated{tp, s.parallel.sequenceParallel, 1};
    const Placement mixerReplicated = replicated.in(a::kMixerLayers, mixing, layers);
    const Placement attentionReplicated = replicated.in(a::kAttentionLayers, attending, layers);
    const Placement mlpReplicated = replicated.in(a::kMlpLayers, mlps, layers);
    const Placement interior = Placement{tp, true, 1}.in(a::kAttentionLayers, attending, layers);
    const Placement mlpInterior = denseInMoe > 0
        ? Placement{tp, true, mlpCopies}.in(a::kMoeLayers, expertLayers, layers)
        : Placement{tp, true, mlpCopies}.in(a::kMlpLayers, mlps, layers);
    // Single-purpose blocks (Nemotron-H): each layer holds a mixer or an
    // MLP behind its one norm; a parallel block (Falcon-7B, Phi-2) feeds
    // both from that norm.
    const bool singlePurpose = m.layersWithoutMlp > 0 || m.layersWithoutMixer > 0;
    const bool parallelBlock = m.normsPerLayer == 1 && !singlePurpose;
    // A compiled layer (stack.h compiledLayers) saves what Liger's kernels
    // do: the min-cut partitioner recomputes a norm's fp32 work from its
    // input and act(gate) from gate, but never a tensor that a matrix
    // product or the attention kernel reads in backward
    // (torch/_functorch/config.py ban_recompute_materialized_backward):
    // the norms' outputs, the expanded K and V and the MLP product stay.
    const bool normKeepsInput = t.ligerKernels || t.compiledLayers || t.unslothRmsNorm;
    // Unsloth patches a group with its manual-autograd LoRA layer only
    // where every projection of it has an adapter and none a bias
    // (models/llama.py patch_peft_model): LoRA_QKV, LoRA_W, LoRA_MLP.
    const bool unsloth = t.unslothFusedLora && !t.fullModel;
    const bool unslothQkv = unsloth && t.slotTrained(LinearSlot::Q) && t.slotTrained(LinearSlot::K)
        && t.slotTrained(LinearSlot::V) && !m.qkvBias;
    const bool unslothO = unsloth && t.slotTrained(LinearSlot::O) && !m.attnOutBias;
    // Only a dense layer.mlp is patched, never an MoE block's experts.
    const bool unslothMlp = unsloth && m.gatedMlp && !m.moe.isMoe() && t.slotTrained(LinearSlot::Gate)
        && t.slotTrained(LinearSlot::Up) && t.slotTrained(LinearSlot::Down) && !m.mlpBias;

    // c: what one layer saves per token, tensor by tensor.
    Formula c(store);
    // What one layer of each block keeps (not shared out over the layers),
    // for the largest layer, which a full recompute rebuilds whole.
    double mark = 0;
    const auto since = [&](double blockLayers) {
        const double added = c.value() - mark;
        mark = c.value();
        return blockLayers > 0 ? added * layers / blockLayers : 0.0;
    };
    double mixerNormLayer = 0, attentionLayer = 0, mambaLayer = 0, deltaLayer = 0, ownInputLayer = 0;
    // The MLP's norm, input and dropout (mlpLayer); a dense layer's MLP
    // in an MoE model (denseMlpLayer); the experts' MLP, or a dense
    // model's (mainMlpLayer).
    double mlpLayer = 0, denseMlpLayer = 0, mainMlpLayer = 0;

    // --- attention block ---
    normSaved(c, a::kAttentionNorm, m, normsTrain, d, 1, mixerReplicated, normKeepsInput);
    mixerNormLayer = since(mixing);
    InputSite attentionInput(sh::kHidden, h, d.normOut, false, a::kAttentionInput);
    addReaders(attentionInput, t, d, {LinearSlot::Q, LinearSlot::K, LinearSlot::V}, t.fusedQkvAdapter, unslothQkv);
    // Hugging Face's eager and SDPA paths materialise K and V repeated to all
    // heads (repeat_kv) before the kernel, as LitGPT does for every kernel;
    // FlashAttention-2 takes GQA natively.
    const bool repeated = !(s.attention == Attention::Flash && !t.repeatsKvAlways) && kvw < qw;
    if (attending > 0) {
        c.product(a::kPartQuery).times(a::kAttentionBytes, ea).times(sh::kQueryWidth, qw);
        place(c, interior);
        c.product(repeated ? a::kPartKeyValueRepeated : a::kPartKeyValue)
            .times(sh::kKeyAndValue, 2.0)
            .times(a::kAttentionBytes, ea)
            .times(repeated ? sh::kQueryWidth : sh::kKeyValueWidth, repeated ? qw : kvw);
        place(c, interior);
        if (!eager) {
            // Memory-efficient/flash kernels save their output and an fp32
            // log-sum-exp per head and row instead of the s^2 probabilities
            // (Dao et al. 2022, FlashAttention §3.1). The output is o_proj's
            // input: the kernel writes it in (b, s, heads, d) order, so the
            // transpose back is a view.
            c.product(a::kPartKernelOutput).times(a::kAttentionBytes, ea).times(sh::kQueryWidth, qw);
            place(c, interior);
            c.product(a::kPartLogSumExp)
                .times(sh::kFp32Bytes, 4.0)
                .times(sh::kHeads, static_cast<double>(mostQueryHeads(m)));
            place(c, interior);
        }
        InputSite attentionOutput(sh::kQueryWidth, qw, ea, !eager, a::kAttentionOutput);
        addReaders(attentionOutput, t, d, {LinearSlot::O}, false, unslothO);
        attentionOutput.addTo(c, interior);
        if (hiddenDropout) {
            c.product(a::kPartAttentionDropout).times(a::kMaskBytes, 1.0).times(sh::kHidden, h);
            place(c, attentionReplicated);
        }
    }
    attentionLayer = since(attending);

    // --- recurrent mixers: what their kernels save, and the in_proj input
    // where the projections train (LoRA adapts none of them) ---
    const Placement recurrentInterior{tp, true, 1};
    if (mambaLayers > 0)
        mambaSaved(c, m, d, t.fullModel, recurrentInterior.in(a::kMambaLayers, mambaLayers, layers));
    mambaLayer = since(mambaLayers);
    if (deltaLayers > 0)
        gatedDeltaNetSaved(c, m, d, t.fullModel, recurrentInterior.in(a::kDeltaLayers, deltaLayers, layers));
    deltaLayer = since(deltaLayers);
    // A Mamba block beside the attention (Falcon-H1) reads the attention's
    // input, kept once; Zamba2's follows its shared block, behind a norm of
    // its own.
    const double besideAttention = m.sharedBlocks > 0 ? 0.0 : static_cast<double>(m.attendingMambaLayers);
    const double ownInputs = mambaLayers - besideAttention + deltaLayers;
    if (t.fullModel && ownInputs > 0) {
        c.product(a::kPartMixerInput).times(a::kInputBytes, d.autocast ? d.compute : d.normOut).times(sh::kHidden, h);
        place(c, replicated.in(a::kRecurrentInputs, ownInputs, layers));
    }
    ownInputLayer = since(ownInputs);

    // --- MLP block ---
    const int mlpNorms = singlePurpose && m.normsPerLayer == 1 ? 1 : m.normsPerLayer - 1;
    if (mlps > 0 && mlpNorms >= 1)
        normSaved(c, a::kMlpNorm, m, normsTrain, d, static_cast<double>(mlpNorms), mlpReplicated, normKeepsInput);
    mlpLayer = since(mlps);
    // A parallel block (one norm) feeds the MLP from the attention's input.
    InputSite separateMlpInput(sh::kHidden, h, d.normOut, false, a::kMlpInput);
    InputSite &mlpInput = parallelBlock ? attentionInput : separateMlpInput;
    if (mlps > 0)
        addReaders(mlpInput, t, d, {LinearSlot::Gate, LinearSlot::Up}, false, unslothMlp);
    if (attending > 0)
        attentionInput.addTo(c, attentionReplicated);
    attentionLayer += since(attending);
    if (mlps > 0 && !parallelBlock)
        separateMlpInput.addTo(c, mlpReplicated);
    mlpLayer += since(mlps);
    // Liger's SwiGLU keeps gate and up and recomputes the activation in
    // backward (liger_kernel ops/swiglu.py LigerSiLUMulFunction:
    // ctx.save_for_backward(a, b)): the product's two operands alone, as a
    // compiled layer and Unsloth's LoRA_MLP (e and g) do.
    const bool gateRecomputed = (t.ligerKernels || t.compiledLayers || unslothMlp) && m.gatedMlp;
    const auto mlpInteriorParts = [&](double width, const Placement &where) {
        if (!gateRecomputed) {
            c.product(a::kPartActivationFunction)
                .timesUnlessOne(a::kActivationSaves, static_cast<double>(m.activationSavedTensors))
                .times(a::kLinearOutBytes, eo)
                .times(sh::kIntermediate, width);
            place(c, where);
        }
        if (m.gatedMlp) {
            // act(gate) * up saves both operands; a fused SwiGLU gate and up.
            c.product(gateRecomputed ? a::kPartGateAndUp : a::kPartGatedProduct)
                .times(a::kOperands, 2.0)
                .times(a::kLinearOutBytes, eo)
                .times(sh::kIntermediate, width);
            place(c, where);
        }
        // LoRA_MLP recomputes the product in backward: down_proj keeps nothing.
        if (!unslothMlp) {
            InputSite mlpProduct(sh::kIntermediate, width, eo, false, a::kMlpProduct);
            addReaders(mlpProduct, t, d, {LinearSlot::Down}, false);
            mlpProduct.addTo(c, where);
        }
    };
    const double mlpKind = denseInMoe > 0 ? expertLayers : mlps;
    if (mlps > 0) {
        if (denseInMoe > 0)
            mlpInteriorParts(dense.mean, Placement{tp, true, 1}.in(a::kDenseMlpLayers, denseInMoe, layers));
        denseMlpLayer = since(denseInMoe);
        if (expertLayers > 0 || !m.moe.isMoe())
            mlpInteriorParts(I, mlpInterior);
        if (m.moe.isMoe() && expertLayers > 0) {
            c.product(a::kPartRouter).times(sh::kFp32Bytes, 4.0).times(a::kExperts, static_cast<double>(m.moe.experts));
            place(c, replicated.in(a::kMoeLayers, expertLayers, layers));
        }
        mainMlpLayer = since(mlpKind);
        if (hiddenDropout) {
            c.product(a::kPartMlpDropout).times(a::kMaskBytes, 1.0).times(sh::kHidden, h);
            place(c, mlpReplicated);
        }
        mlpLayer += since(mlps);
    }

    // --- LoRA: x*A (rank r) is saved for B's gradient, per adapted projection
    // (Unsloth's patched groups recompute it from X in backward).
    // The attention's adapters run once a token, the MLP's once per expert
    // it runs.
    if (!t.fullModel) {
        const auto adapted = [&](std::initializer_list<LinearSlot> group) {
            int n = 0;
            for (LinearSlot slot : group)
                n += t.slotTrained(slot) ? 1 : 0;
            return n;
        };
        const int attentionSlots = adapted({LinearSlot::Q, LinearSlot::K, LinearSlot::V, LinearSlot::O})
            - (unslothQkv ? 3 : 0) - (unslothO ? 1 : 0);
        const int mlpSlots = adapted({LinearSlot::Gate, LinearSlot::Up, LinearSlot::Down}) - (unslothMlp ? 3 : 0);
        const auto adapterOutputs = [&](int slots, const Placement &where) {
            if (slots <= 0)
                return;
            c.product(a::kPartAdapterOutputs)
                .times(a::kAdaptedSlots, static_cast<double>(slots))
                .times(a::kAdapterOutBytes, t.adapterOutputBytes)
                .times(text::lora::kRank, static_cast<double>(t.loraRank));
            place(c, where);
        };
        if (mlpCopies == 1 && attending == mlps) {
            adapterOutputs(attentionSlots + mlpSlots, attentionReplicated);
            attentionLayer += since(attending);
        } else {
            adapterOutputs(attentionSlots, attentionReplicated);
            attentionLayer += since(attending);
            if (denseInMoe > 0)
                adapterOutputs(mlpSlots, replicated.in(a::kDenseMlpLayers, denseInMoe, layers));
            denseMlpLayer += since(denseInMoe);
            const Placement perRun{tp, s.parallel.sequenceParallel, mlpCopies};
            adapterOutputs(mlpSlots, denseInMoe > 0 ? perRun.in(a::kMoeLayers, expertLayers, layers)
                                                    : perRun.in(a::kMlpLayers, mlps, layers));
            mainMlpLayer += since(mlpKind);
        }
    }

    ActivationRates rates;
    rates.perTokenPerLayer = c.cite(a::kFromKorthikanti).derived();
    // The largest layers, with softmax attention and without: the norm,
    // the mixer (Falcon-H1's and Zamba2's attention and Mamba together) and
    // the widest MLP (a dense MLP beside the experts counts both); where
    // every layer holds one block (Nemotron-H), one or the other.
    rates.layersDiffer = attending != layers || mlps != layers || mambaLayers > 0 || deltaLayers > 0
        || denseInMoe > 0 || static_cast<double>(m.attentionLayers()) != attending || dense.widest != dense.mean;
    const bool oneBlockPerLayer = m.layersWithoutMlp + m.layersWithoutMixer >= m.layers;
    // The dense MLPs were summed at their mean width; the largest runs the widest.
    const double widestDense = dense.widest / dense.mean;
    const double denseMlp = (m.moe.isMoe() ? denseMlpLayer : mainMlpLayer) * widestDense;
    const double expertMlp = m.moe.isMoe() ? mainMlpLayer : 0.0;
    const double mlp = mlps == 0 ? 0.0
        : mlpLayer + (m.moe.withDenseMlp ? denseMlp + expertMlp : std::max(denseMlp, expertMlp));
    const auto withMlp = [&](double mixer) {
        return oneBlockPerLayer ? std::max(mixerNormLayer + mixer, mlp) : mixerNormLayer + mixer + mlp;
    };
    if (!rates.layersDiffer) {
        rates.largestAttendingPerToken = rates.perTokenPerLayer.value;
    } else {
        const double recurrent = std::max(mambaLayers > 0 ? mambaLayer + ownInputLayer : 0.0,
                                          deltaLayers > 0 ? deltaLayer + ownInputLayer : 0.0);
        const double besideMamba =
            m.attendingMambaLayers > 0 ? mambaLayer + (m.sharedBlocks > 0 ? ownInputLayer : 0.0) : 0.0;
        if (attending > 0)
            rates.largestAttendingPerToken = withMlp(attentionLayer + besideMamba);
        if (recurrent > 0 || oneBlockPerLayer)
            rates.largestOtherPerToken = withMlp(recurrent);
    }
    if (eager)
        rates.scoreBytes = scoreBytes(m, d, store);

    Formula gradients(store);
    // The layer whose MLP is widest: an expert layer's k runs, or a dense one.
    const bool denseWider = !m.moe.isMoe() || (denseInMoe > 0 && dense.widest > I * mlpCopies);
    gradients.product(a::kPartMlpGradients)
        .times(a::kMlpGradients, 3.0)
        .times(a::kLinearOutBytes, eo)
        .times(sh::kIntermediate, denseWider ? dense.widest : I)
        .timesUnlessOne(sh::kExpertsRun, denseWider ? 1.0 : mlpCopies)
        .overUnlessOne(sh::kTp, tp);
    gradients.product(a::kPartIncomingGradient).times(a::kResidualBytes, d.residual).times(sh::kHidden, h);
    place(gradients, replicated);
    rates.gradientsPerToken = gradients.derived();

    // --- outside the layers ---
    // Offloading that hooks the whole forward takes the embedding side and
    // the final norm to host memory; the output layer's input stays.
    const bool offloadOutside = t.offloadsWholeForward && s.effectiveCheckpointing() == Checkpointing::Offloaded;
    Formula first(store);
    Formula last(store);
    Formula hostFirst(store);
    Formula hostLast(store);
    Formula &embeddingSide = offloadOutside ? hostFirst : first;
    if (hiddenDropout) {
        embeddingSide.product(a::kPartEmbeddingDropout).times(a::kMaskBytes, 1.0).times(sh::kHidden, h);
        place(embeddingSide, replicated);
    }
    if (m.embeddingNorm) {
        embeddingSide.product(a::kPartEmbeddingNorm).times(a::kResidualBytes, d.residual).times(sh::kHidden, h);
        place(embeddingSide, replicated);
    }
    // torchtune compiles each decoder layer, not the final norm (modelled
    // so for every stack; the Trainer's torch_compile compiles it too).
    // Liger's and Unsloth's RMSNorm replace it as well.
    if (m.finalNorm)
        normSaved(offloadOutside ? hostLast : last, a::kFinalNorm, m, normsTrain, d, 1, replicated,
                  t.ligerKernels || t.unslothRmsNorm);
    if (!m.encoderOnly && (t.fullModel || t.lmHeadKeepsInput)) {
        // A trained lm_head (or a bitsandbytes <= 0.43.1 4-bit one) keeps
        // its input, in its compute dtype.
        InputSite headInput(sh::kHidden, h, d.normOut, false, a::kHeadInput);
        headInput.keptBy(d.autocast || (!t.fullModel && t.baseCastsInput) ? d.compute : d.normOut, false, false);
        headInput.addTo(last, replicated);
    }
    rates.hostFirstPerToken = hostFirst.derived();
    rates.hostLastPerToken = hostLast.derived();
    rates.firstPerToken = first.derived();
    rates.lastPerToken = last.derived();
    return rates;
}

ActivationBreakdown trainingActivations(const ModelSpec &m, const Scenario &s, const ActivationDtypes &d,
                                        const ActivationRates &rates, FormulaStore *store)
{
    const double h = static_cast<double>(m.hidden);
    const bool eager = s.attention == Attention::Eager;
    const double tp = static_cast<double>(s.parallel.tp);
    const Placement replicated{tp, s.parallel.sequenceParallel, 1};
    const double b = static_cast<double>(s.batch);
    const double seq = static_cast<double>(s.contextTokens());
    // Selective recompute (Korthikanti et al. 2022 §4.2) drops exactly the
    // s^2 terms, so both are kept apart.
    ActivationBreakdown out;
    out.perTokenPerLayer = rates.perTokenPerLayer;
    if (eager) {
        Formula scores(store);
        scores.product()
            .times(sh::kBatch, b)
            .times(sh::kHeads, static_cast<double>(mostQueryHeads(m)))
            .times(sh::kSequence, seq)
            .times(sh::kSequence, seq)
            .times(a::kScoreBytes, rates.scoreBytes);
        place(scores, Placement{tp, true, 1}.in(a::kAttentionLayers, static_cast<double>(m.attentionLayers()),
                                                static_cast<double>(m.layers)));
        out.scoresPerLayer = scores.derived();
    }
    Formula layer(store);
    layer.product(a::kPartPerTokenTensors)
        .times(sh::kBatch, b)
        .times(sh::kSequence, seq)
        .times(a::kPerToken, out.perTokenPerLayer);
    if (eager)
        layer.product(a::kPartScores).times(a::kScores, out.scoresPerLayer);
    out.perLayer = layer.derived();

    Formula layerGradients(store);
    layerGradients.product()
        .times(sh::kBatch, b)
        .times(sh::kSequence, seq)
        .times(a::kGradientsPerToken, rates.gradientsPerToken);
    out.layerGradientPeak = layerGradients.derived();

    const auto outside = [&](const Derived &perToken, const Symbol &symbol) {
        Formula bytes(store);
        if (perToken.value > 0)
            bytes.product().times(sh::kBatch, b).times(sh::kSequence, seq).times(symbol, perToken);
        return bytes.derived();
    };
    out.outsideFirst = outside(rates.firstPerToken, a::kFirstPerToken);
    out.outsideLast = outside(rates.lastPerToken, a::kLastPerToken);
    out.hostFirst = outside(rates.hostFirstPerToken, a::kFirstPerToken);
    out.hostLast = outside(rates.hostLastPerToken, a::kLastPerToken);

    // A layer's input, which full checkpointing keeps (on the GPU or in
    // host memory).
    const auto layerInput = [&](Formula &f) {
        f.product(a::kPartLayerInput)
            .times(sh::kBatch, b)
            .times(sh::kSequence, seq)
            .times(a::kResidualBytes, d.residual)
            .times(sh::kHidden, h);
        place(f, replicated);
    };
    // A full recompute rebuilds one layer at a time: where the layers
    // differ, the largest, with its own scores where it attends.
    Derived largestLayer = out.perLayer;
    if (rates.layersDiffer) {
        const double heads = static_cast<double>(mostQueryHeads(m));
        const bool scored = eager && m.attentionLayers() > 0 && rates.largestAttendingPerToken > 0;
        const double oneLayersScores = scored ? b * heads * seq * seq * rates.scoreBytes.value / tp : 0.0;
        const bool attends = b * seq * rates.largestAttendingPerToken + oneLayersScores
            >= b * seq * rates.largestOtherPerToken;
        Formula peak(store);
        peak.product(a::kPartLargestLayer)
            .times(sh::kBatch, b)
            .times(sh::kSequence, seq)
            .times(a::kLargestPerToken, attends ? rates.largestAttendingPerToken : rates.largestOtherPerToken);
        if (attends && scored)
            peak.product(a::kPartScores)
                .times(sh::kBatch, b)
                .times(sh::kHeads, heads)
                .times(sh::kSequence, seq)
                .times(sh::kSequence, seq)
                .times(a::kScoreBytes, rates.scoreBytes)
                .overUnlessOne(sh::kTp, tp);
        largestLayer = peak.derived();
    }
    Formula kept(store);
    switch (s.effectiveCheckpointing()) {
    case Checkpointing::None:
        out.keptPerLayer = out.perLayer;
        break;
    case Checkpointing::Selective:
        // Korthikanti et al. 2022 §4.2: recompute only the attention core,
        // dropping the s^2 terms; nothing changes without them (SDPA/flash).
        kept.product().times(sh::kBatch, b).times(sh::kSequence, seq).times(a::kPerToken, out.perTokenPerLayer);
        out.keptPerLayer = kept.note(a::kWhySelective).derived();
        break;
    case Checkpointing::Full:
        // Each layer keeps only its input (Korthikanti Table 2: 2sbh at
        // 16 bits); during backward one layer is recomputed at a time.
        layerInput(kept);
        out.keptPerLayer = kept.note(a::kWhyFullRecompute).derived();
        out.recomputePeak = largestLayer;
        break;
    case Checkpointing::Offloaded: {
        // Unsloth's Unsloth_Offloaded_Gradient_Checkpointer: forward copies
        // each layer's input to the CPU (hidden_states.to("cpu",
        // non_blocking=True)) and saves only that copy; backward brings
        // one back and recomputes the layer. The GPU keeps none.
        Formula host(store);
        layerInput(host);
        out.hostPerLayer = host.cite(a::kFromUnslothCheckpoint).derived();
        out.keptPerLayer = kept.note(a::kWhyOffloadedCheckpoint).derived();
        out.recomputePeak = largestLayer;
        break;
    }
    }
    return out;
}

ActivationBreakdown trainingActivations(const ModelSpec &m, const Scenario &s, const Trainability &t,
                                        const ActivationDtypes &d, FormulaStore *store)
{
    return trainingActivations(m, s, d, activationRates(m, s, t, d, store), store);
}

} // namespace core
