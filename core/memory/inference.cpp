#include "core/memory/inference.h"

#include "core/memory/formulatext.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

namespace kv = text::kv;
namespace lg = text::logits;
namespace ws = text::workspace;
namespace sh = text::shared;

/// One tensor of vLLM's sampler warm-up, per row and vocabulary entry.
struct SamplerTensor
{
    const char *part;
    const Symbol *symbol;
    double bytes;
};

/// Sorted (apply_top_k_top_p before 0.17): alive together at the scatter.
const SamplerTensor kSortedSampler[] = {
    {lg::kPartFp32Logits, &sh::kFp32Bytes, 4.0},   {lg::kPartSortedValues, &sh::kFp32Bytes, 4.0},
    {lg::kPartSortedIndices, &lg::kInt64Bytes, 8.0}, {lg::kPartTopKMask, &lg::kBoolBytes, 1.0},
    {lg::kPartTopPMask, &lg::kBoolBytes, 1.0},       {lg::kPartSortedSoftmax, &sh::kFp32Bytes, 4.0},
    {lg::kPartScatter, &sh::kFp32Bytes, 4.0},
};
/// Triton's top-k and top-p in place (0.17 on): then the softmax and the
/// exponential draw of random_sample, alive with the fp32 logits.
const SamplerTensor kTritonSampler[] = {
    {lg::kPartFp32Logits, &sh::kFp32Bytes, 4.0},
    {lg::kPartProbs, &sh::kFp32Bytes, 4.0},
    {lg::kPartExponentialDraw, &sh::kFp32Bytes, 4.0},
};

} // namespace

Derived cachedLayerTokens(const CacheGroup &group, std::uint64_t context, FormulaStore *store)
{
    Formula tokens(store);
    if (group.fullLayers > 0)
        tokens.product(kv::kPartFullLayers)
            .times(kv::kFullLayers, static_cast<double>(group.fullLayers))
            .times(sh::kSequence, static_cast<double>(context));
    if (group.windowedLayers > 0)
        tokens.product(kv::kPartSlidingLayers)
            .times(kv::kSlidingLayers, static_cast<double>(group.windowedLayers))
            .times(kv::kWindow, static_cast<double>(std::min(context, group.window)))
            .cite(kv::kFromSlidingWindow);
    if (group.compressRatio > 0 && group.windowedLayers > 0)
        tokens.product(kv::kPartCompressedEntries)
            .times(kv::kCompressedLayers, static_cast<double>(group.windowedLayers))
            .times(kv::kCompressedEntries, static_cast<double>(context / group.compressRatio))
            .cite(kv::kFromCompressedAttention);
    return tokens.derived();
}

Derived cachedValuesPerLayerToken(const ModelSpec &m, const AttentionShape &a, const RuntimeBehaviour &runtime,
                                  double tp, FormulaStore *store)
{
    Formula values(store);
    if (!m.compressRatios.empty()) {
        // DeepSeek-V4: one head_dim-wide latent per entry, used as key and
        // value, the same on every rank (one KV head).
        values.product().times(sh::kHeadDim, static_cast<double>(a.headDim));
        return values.note(kv::kWhyCompressedAttention).cite(kv::kFromCompressedAttention).derived();
    }
    if (m.isMla()) {
        switch (runtime.mla) {
        case MlaCacheLayout::Latent:
            values.product(kv::kPartLatent).times(kv::kLatentRank, static_cast<double>(m.kvLoraRank));
            values.product(kv::kPartRopeKey).times(kv::kRopeKey, static_cast<double>(m.ropeHeadDim));
            return values.note(kv::kWhyMlaLatent).cite(kv::kFromMla).derived();
        case MlaCacheLayout::LatentKeyAndValue: {
            const AttentionShape head = latentAsOneHead(m);
            values.product(kv::kPartKeys).times(text::llamacpp::kKeyWidth, static_cast<double>(head.keyWidth()));
            values.product(kv::kPartValues).times(text::llamacpp::kValueWidth, static_cast<double>(head.valueWidth()));
            return values.note(kv::kWhyMlaLlamaCpp).cite(text::llamacpp::kFromKvCache).derived();
        }
        case MlaCacheLayout::RebuiltHeads:
            break;
        }
        const double heads = std::max(1.0, std::ceil(static_cast<double>(m.heads) / tp));
        values.product(kv::kPartKeys).times(kv::kHeadsHere, heads).times(kv::kKeyHeadDim, static_cast<double>(m.headDim));
        values.product(kv::kPartValues)
            .times(kv::kHeadsHere, heads)
            .times(kv::kValueHeadDim, static_cast<double>(m.valueHeadDim));
        return values.note(kv::kWhyMlaExpanded).cite(kv::kFromMlaExpanded).derived();
    }
    // Tensor parallelism splits the key-value heads; with fewer heads than
    // ranks each rank keeps a copy of one (vLLM, Megatron-LM). Pope et al.
    // 2022 §3.1: K and V, kv_heads x head_dim each (V x its own head size
    // where the model's differs).
    const double kvHeads = std::max(1.0, std::ceil(static_cast<double>(a.kvHeads) / tp));
    const Symbol &headsSymbol = tp > 1 ? sh::kKvHeadsHere : sh::kKvHeads;
    if (a.valueDim == a.headDim) {
        values.product()
            .times(sh::kKeyAndValue, 2.0)
            .times(headsSymbol, kvHeads)
            .times(sh::kHeadDim, static_cast<double>(a.headDim));
    } else {
        values.product(kv::kPartKeys).times(headsSymbol, kvHeads).times(sh::kHeadDim, static_cast<double>(a.headDim));
        values.product(kv::kPartValues)
            .times(headsSymbol, kvHeads)
            .times(kv::kValueHeadDim, static_cast<double>(a.valueDim));
    }
    if (static_cast<double>(a.kvHeads) < tp)
        values.note(kv::kWhyKvHeadCopy);
    return values.cite(kv::kFromPope).derived();
}

namespace {

/// DeepSeek-V4's fp32 compressor state of one sequence in a layer of ratio r
/// (inference/model.py Compressor kv_state and score_state: coff x r slots
/// of coff x head_dim entries and scores, coff = 2 where the windows
/// overlap, r = 4), with the indexer's compressor (8 slots of
/// 2 x 2 x index_head_dim) in the r = 4 layers.
double compressorStateBytes(const ModelSpec &m, std::uint64_t ratio)
{
    const std::uint64_t overlap = ratio == 4 ? 2 : 1;
    const std::uint64_t main = overlap * ratio * 2 * overlap * m.headDim;
    const std::uint64_t indexer = ratio == 4 ? 8 * 4 * m.indexHeadDim : 0;
    return 4.0 * static_cast<double>(main + indexer);
}

/// vLLM's fp8_ds_mla entry (deepseek_v4_attention.py head_bytes): the
/// non-RoPE part in fp8 with one scale byte per 64 values, the RoPE part in
/// bf16, and one pad byte.
double fp8DsMlaBytes(const ModelSpec &m)
{
    const std::uint64_t nope = m.headDim - std::min(m.headDim, m.ropeHeadDim);
    return static_cast<double>(nope + 2 * m.ropeHeadDim + nope / 64 + 1);
}

/// vLLM's fp8_ds_mla entry for DeepSeek-V3.2's sparse MLA (FlashMLA's
/// sparse kernels; tests/kernels concat_and_cache_ds_mla: entry_size =
/// kv_lora_rank + 4 x 4 + 2 x qk_rope_head_dim): the latent in fp8 with an
/// fp32 scale per 128 values, the RoPE key in bf16; 656 B for 512 and 64.
double sparseMlaFp8Bytes(const ModelSpec &m)
{
    return static_cast<double>(m.kvLoraRank + m.kvLoraRank / 128 * 4 + 2 * m.ropeHeadDim);
}

/// How `runtime` keeps one layer's indexer key per token: DeepSeek Sparse
/// Attention's as the runtime's row says (RuntimeBehaviour::dsaIndexKeys),
/// MiniMax Sparse Attention's likewise (RuntimeBehaviour::msaIndexKeys).
IndexerKeys indexerKeysOf(const ModelSpec &m, const RuntimeBehaviour &runtime)
{
    if (m.indexHeads == 0)
        return IndexerKeys::NotKept;
    return m.msaIndexer ? runtime.msaIndexKeys : runtime.dsaIndexKeys;
}

/// The bytes of one layer's indexer key per token kept as `keys`; 0: none.
double indexerKeyBytes(const Scenario &s, const ModelSpec &m, IndexerKeys keys)
{
    const auto width = static_cast<double>(m.indexHeadDim);
    switch (keys) {
    case IndexerKeys::Fp8Scaled:
        return width + static_cast<double>(m.indexHeadDim / 128 * 4);
    case IndexerKeys::ModelDtype:
        return width * computeDtypeBytes(s);
    case IndexerKeys::Fp32:
        return width * 4.0;
    case IndexerKeys::NotKept:
        break;
    }
    return 0;
}

/// The element bytes of a group's cache with vLLM's
/// kv_cache_dtype_skip_layers: the named layers at the model's dtype, the
/// rest at the KV cache format's. The descriptor counts kinds, not
/// positions, so named indices fall on each kind in proportion.
double groupElementBytes(const Scenario &s, const ModelSpec &m, const RuntimeBehaviour &runtime, const CacheGroup &g,
                         double kvElementBytes)
{
    if (!runtime.skipsKvQuantisationPerLayer || !s.kvDtype || g.layers() == 0)
        return kvElementBytes;
    const bool turboquant = isTurboquant(*s.kvDtype);
    if (s.kvSkipLayers.empty() && !turboquant)
        return kvElementBytes;
    KvSkipLayers skip = kvSkipLayers(s);
    if (turboquant) {
        // get_boundary_skip_layers: the first and last two layers of a model
        // without recurrent layers keep the model's dtype; a sliding-window
        // layer is never TurboQuant (its spec is built before the format's).
        if (m.linearLayers == 0 && m.mambaLayers == 0)
            skip.indexed = std::min<std::uint64_t>(m.layers, skip.indexed + 4);
        skip.slidingWindow = true;
    }
    const double indexed = std::min(1.0, static_cast<double>(skip.indexed) / static_cast<double>(std::max<std::uint64_t>(1, m.layers)));
    const double skipped = static_cast<double>(g.fullLayers) * indexed
        + static_cast<double>(g.windowedLayers) * (skip.slidingWindow ? 1.0 : indexed);
    return kvElementBytes + (computeDtypeBytes(s) - kvElementBytes) * skipped / static_cast<double>(g.layers());
}

} // namespace

double computeDtypeBytes(const Scenario &s)
{
    const WeightFormat wf = s.effectiveWeights();
    return isFloatFormat(wf) ? elementBytes(wf) : 2.0;
}

double addAttentionCache(Formula &kv, const Scenario &s, const ModelSpec &m, std::uint64_t layers, double tp,
                         double kvElementBytes, const CacheTerm &term, FormulaStore *store)
{
    struct GroupTerms
    {
        const CacheGroup *group = nullptr;
        Derived values;
        Derived tokens;
    };
    const CacheGroups groups = cacheGroups(m, layers);
    const bool compressed = !m.compressRatios.empty();
    const RuntimeBehaviour &runtime = runtimeBehaviour(s.serving);
    // vLLM's fp8_ds_mla entries: DeepSeek-V4's whatever the KV format;
    // DeepSeek-V3.2's sparse MLA by default (its "auto" is this custom fp8)
    // and for fp8, not for bf16.
    const bool sparseMlaFp8 = !compressed && m.isMla() && m.indexHeads > 0 && runtime.fp8DsMlaEntries
        && (!s.kvDtype || *s.kvDtype == WeightFormat::Fp8);
    const double entryBytes = compressed && runtime.fp8DsMlaEntries ? fp8DsMlaBytes(m)
        : sparseMlaFp8                                              ? sparseMlaFp8Bytes(m)
                                                                    : 0.0;
    std::array<GroupTerms, kMaxCacheGroups> terms;
    std::size_t termCount = 0;
    double perToken = 0;
    for (const CacheGroup &g : groups) {
        terms[termCount++] = {&g, cachedValuesPerLayerToken(m, g.attention, runtime, tp, store),
                              cachedLayerTokens(g, s.contextTokens(), store)};
        // What one more token adds: an entry in every layer, or in a
        // compressed layer one per ratio tokens (its window does not grow).
        const double layerEntries = static_cast<double>(g.layers()) * terms[termCount - 1].values.value;
        if (!compressed)
            perToken += entryBytes > 0 ? static_cast<double>(g.layers()) * entryBytes
                                       : layerEntries * groupElementBytes(s, m, runtime, g, kvElementBytes);
        else if (g.compressRatio > 0)
            perToken += (entryBytes > 0 ? static_cast<double>(g.layers()) * entryBytes : layerEntries * kvElementBytes)
                / static_cast<double>(g.compressRatio);
    }
    const auto rows = [&](Formula &f) {
        f.times(sh::kBatch, static_cast<double>(s.batch)).timesUnlessOne(sh::kBeams, static_cast<double>(s.beams));
    };
    for (std::size_t i = 0; i < termCount; ++i) {
        const GroupTerms &t = terms[i];
        // Layers of different heads (or ratios) cache different widths: one product each.
        const char *part = termCount == 1 ? term.part
            : t.group->fullLayers > 0        ? kv::kPartFullLayers
            : t.group->compressRatio > 0     ? kv::kPartCompressedLayers
                                             : kv::kPartSlidingLayers;
        kv.product(part);
        if (entryBytes > 0 && sparseMlaFp8)
            kv.times(kv::kSparseMlaEntryBytes, entryBytes).note(kv::kWhySparseMlaFp8).cite(kv::kFromSparseMlaFp8);
        else if (entryBytes > 0)
            kv.times(kv::kLatentEntryBytes, entryBytes).note(kv::kWhyFp8DsMla);
        else {
            const double elementBytes = groupElementBytes(s, m, runtime, *t.group, kvElementBytes);
            kv.times(*term.values, t.values).times(kv::kKvElementBytes, elementBytes);
            if (elementBytes != kvElementBytes)
                kv.note(kv::kWhySkipLayers);
            if (s.kvDtype && (formatInfo(*s.kvDtype).cacheOnly || *s.kvDtype == WeightFormat::Nvfp4))
                kv.note(kv::kWhyScaledCacheFormat).cite(formatInfo(*s.kvDtype).source);
        }
        kv.times(*term.tokens, t.tokens);
        rows(kv);
        const IndexerKeys keys = indexerKeysOf(m, runtime);
        const double keyBytes = indexerKeyBytes(s, m, keys);
        if (keyBytes > 0 && (!compressed || t.group->compressRatio == 4)) {
            // The indexer's own key cache: DSA's stored as uint8 whatever the
            // KV dtype (every token in DeepSeek-V3.2 and GLM-5, every
            // compressed entry of DeepSeek-V4's ratio-4 layers), MSA's
            // unquantised (MiniMax-M3's sparse layers).
            const bool scaled = keys == IndexerKeys::Fp8Scaled;
            kv.product(kv::kPartIndexerKeys).times(scaled ? kv::kIndexerKeyBytes : kv::kUnscaledIndexKeyBytes, keyBytes);
            // Layers that share an earlier indexer's top-k keep no keys (GLM-5.2).
            const double indexing = m.indexerLayers > 0 && m.layers > 0
                ? static_cast<double>(std::min(m.indexerLayers * layers / m.layers, t.group->layers()))
                : static_cast<double>(t.group->layers());
            if (compressed)
                kv.times(kv::kCompressedLayers, indexing)
                    .times(kv::kCompressedEntries, static_cast<double>(s.contextTokens() / 4));
            else if (m.indexerLayers > 0)
                kv.times(kv::kIndexerLayers, indexing).times(sh::kSequence, static_cast<double>(s.contextTokens()));
            else
                kv.times(*term.tokens, t.tokens);
            rows(kv);
            if (m.msaIndexer)
                kv.note(kv::kWhyMsaIndexCache).cite(kv::kFromMsaIndexCache);
            else if (scaled)
                kv.note(kv::kWhyIndexerCache).cite(kv::kFromIndexerCache);
            else
                kv.note(kv::kWhyIndexerCacheGenerate).cite(kv::kFromIndexerCacheGenerate);
            perToken += indexing * keyBytes / (compressed ? 4.0 : 1.0);
        }
        if (t.group->compressRatio > 0 && t.group->layers() > 0) {
            kv.product(kv::kPartCompressorState)
                .times(kv::kCompressedLayers, static_cast<double>(t.group->layers()))
                .times(kv::kCompressorState, compressorStateBytes(m, t.group->compressRatio));
            rows(kv);
        }
    }
    return perToken;
}

namespace {

/// The inputs a runtime keeps of a causal convolution of `kernel` taps.
double convInputsKept(const RuntimeBehaviour &runtime, std::uint64_t kernel)
{
    const std::uint64_t kept = runtime.convInputs == ConvInputs::Kernel ? kernel : kernel - std::min<std::uint64_t>(kernel, 1);
    return static_cast<double>(kept);
}

/// Multiplies a state's product by the bytes of one element in `dtype`.
void timesStateBytes(Formula &bytes, StateDtype dtype, const ModelSpec &m, double elementBytes)
{
    if (dtype == StateDtype::Fp32 || (dtype == StateDtype::ScanOrOwnCache && !m.ownStateCache))
        bytes.times(sh::kFp32Bytes, 4.0);
    else if (dtype == StateDtype::ConfigOrModel && m.ssmStateBytes > 0)
        bytes.times(kv::kSsmStateBytes, static_cast<double>(m.ssmStateBytes)).note(kv::kWhySsmCacheDtype);
    else
        bytes.times(kv::kStateBytes, elementBytes);
}

/// LFM2's short-convolution layers, per sequence: the conv's last inputs
/// over the hidden width, in the conv layers or, where the runtime's cache
/// has a slot in every layer, in all of them
/// (MambaStateShapeCalculator.short_conv_state_shape; llama.cpp n_embd_r,
/// f32; transformers Lfm2HybridConvCache).
void addShortConvState(Formula &bytes, const ModelSpec &m, const RuntimeBehaviour &runtime, double convLayers,
                       double allLayers, double tp, double elementBytes)
{
    const bool everyLayer = runtime.convStateInEveryLayer;
    bytes.product(kv::kPartConvState)
        .times(everyLayer ? kv::kCacheLayers : kv::kLinearLayers, everyLayer ? allLayers : convLayers)
        .times(kv::kConvState, convInputsKept(runtime, m.linearConvKernel) * static_cast<double>(m.hidden) / tp)
        .times(kv::kStateBytes, elementBytes)
        .note(everyLayer ? kv::kWhyHfShortConv : runtime.whyConvInputs)
        .cite(kv::kFromShortConvState);
}

/// Gated DeltaNet layers, per layer and sequence: the causal conv's last
/// inputs over q, k and v, and the delta rule's state, one key x value
/// matrix per value head; both split over tensor-parallel ranks. The
/// state's dtype is the runtime's; MiniMax's lightning attention has no
/// convolution and its own state dtype (vLLM linear_attention_state_dtype);
/// Kimi Delta Attention's state is fp32 in every runtime (vLLM and SGLang
/// kda_state_dtype, fla's kernels).
void addGatedDeltaNetState(Formula &bytes, const ModelSpec &m, const RuntimeBehaviour &runtime, double here,
                           double tp, double elementBytes)
{
    const double convWidth = static_cast<double>(2 * m.linearKeyHeads * m.linearKeyDim
                                                 + m.linearValueHeads * m.linearValueDim);
    const double conv = convInputsKept(runtime, m.linearConvKernel) * convWidth / tp;
    const double recurrent = static_cast<double>(m.linearValueHeads) / tp * static_cast<double>(m.linearKeyDim)
        * static_cast<double>(m.linearValueDim);
    const StateDtype dtype = m.kimiDeltaAttention ? StateDtype::Fp32
        : m.lightningAttention                  ? runtime.lightningState
                                                : runtime.deltaRuleState;
    if (m.linearConvKernel > 0)
        bytes.product(kv::kPartConvState)
            .times(kv::kLinearLayers, here)
            .times(kv::kConvState, conv)
            .times(kv::kStateBytes, elementBytes);
    bytes.product(kv::kPartRecurrentState).times(kv::kLinearLayers, here).times(kv::kRecurrentState, recurrent);
    timesStateBytes(bytes, dtype, m, elementBytes);
    bytes.note(kv::kWhyLinearState);
    if (!m.lightningAttention && runtime.whyDeltaRuleState)
        bytes.note(runtime.whyDeltaRuleState);
    else if (m.kimiDeltaAttention)
        bytes.note(kv::kWhyKdaFp32);
    bytes.cite(m.lightningAttention ? kv::kFromLightningState : kv::kFromLinearState);
}

/// Mamba layers, per layer and sequence; Mamba-1 as its Mamba-2 terms
/// (ModelSpec::mambaTimeStepRank) with its own state dtype (vLLM
/// MambaStateShapeCalculator.mamba2_state_shape; Hugging Face
/// LinearAttentionLayer as NemotronHMamba2Mixer fills it):
///   conv: inputs kept x (d_inner + 2 x groups x N) / t, in the model's dtype;
///   SSM:  heads / t x head_dim x N, in the runtime's SSM dtype.
/// Where the groups do not divide over the ranks, a runtime may give each
/// rank a copy of one. Hugging Face's scan returns its final state in
/// float32 (mamba_ssm _state_passing_fwd; the torch path computes in float32).
void addMambaState(Formula &bytes, const ModelSpec &m, const RuntimeBehaviour &runtime, double here, double tp,
                   double elementBytes)
{
    const auto ranks = static_cast<std::uint64_t>(std::max(1.0, tp));
    const std::uint64_t groups = runtime.replicatesSsmGroups && m.ssmGroups % ranks != 0 ? ranks : m.ssmGroups;
    const double conv = convInputsKept(runtime, m.mambaConvKernel)
        * static_cast<double>(m.mambaInner() + 2 * groups * m.ssmState) / tp;
    const double ssm = static_cast<double>(m.mambaHeads) / tp * static_cast<double>(m.mambaHeadDim)
        * static_cast<double>(m.ssmState);
    bytes.product(kv::kPartConvState)
        .times(kv::kMambaLayers, here)
        .times(kv::kMambaConvState, conv)
        .times(kv::kStateBytes, elementBytes);
    bytes.product(kv::kPartSsmState).times(kv::kMambaLayers, here).times(kv::kSsmState, ssm);
    const StateDtype ssmDtype = m.isMamba1() ? runtime.selectiveScanState : runtime.ssmState;
    timesStateBytes(bytes, ssmDtype, m, elementBytes);
    const bool ownCache = ssmDtype == StateDtype::ScanOrOwnCache && m.ownStateCache;
    if (ownCache)
        bytes.note(kv::kWhyOwnStateCache);
    else if ((ssmDtype == StateDtype::Fp32 || ssmDtype == StateDtype::ScanOrOwnCache) && runtime.whySsmState)
        bytes.note(runtime.whySsmState);
    bytes.note(kv::kWhyMambaState).note(runtime.whyConvInputs);
    bytes.cite(m.isMamba1() ? kv::kFromSelectiveScanState : kv::kFromMambaState);
}

} // namespace

Derived linearStatePerSequence(const ModelSpec &m, const RuntimeBehaviour &runtime, std::uint64_t layers,
                               double tp, double elementBytes, FormulaStore *store)
{
    Formula bytes(store);
    if (m.layers == 0)
        return bytes.derived();
    // Layers are taken in proportion, as for the attention cache.
    const double linear = static_cast<double>(m.linearLayers * layers / m.layers);
    const double mamba = static_cast<double>(m.mambaLayers * layers / m.layers);
    if (linear > 0 && m.shortConv)
        addShortConvState(bytes, m, runtime, linear, static_cast<double>(layers), tp, elementBytes);
    else if (linear > 0)
        addGatedDeltaNetState(bytes, m, runtime, linear, tp, elementBytes);
    if (mamba > 0)
        addMambaState(bytes, m, runtime, mamba, tp, elementBytes);
    return bytes.derived();
}

Derived prefillWorkspace(const ModelSpec &m, const Scenario &s, double e, FormulaStore *store)
{
    const double h = static_cast<double>(m.hidden);
    // The widest layer's: Gemma 4's global queries, its local keys.
    const double qw = static_cast<double>(widestQueries(m));
    const double kvw = static_cast<double>(widestKeys(m).keyWidth());
    const double I = static_cast<double>(m.moe.isMoe() ? m.moe.expertIntermediate : m.intermediate);
    const double mlpCopies = m.moe.isMoe() ? static_cast<double>(m.moe.expertsPerToken + m.moe.sharedExperts) : 1.0;
    // Attention: Q, K, V, the repeated K/V of Hugging Face's repeat_kv
    // (eager/SDPA), and the output.
    const auto attention = [&](Formula &f) {
        f.product(ws::kPartQueryAndOutput)
            .times(ws::kTwoTensors, 2.0)
            .times(sh::kActivationBytes, e)
            .times(sh::kQueryWidth, qw);
        f.product(ws::kPartKeyAndValue)
            .times(sh::kKeyAndValue, 2.0)
            .times(sh::kActivationBytes, e)
            .times(sh::kKeyValueWidth, kvw);
        if (s.attention != Attention::Flash && kvw < qw)
            f.product(ws::kPartRepeatedKv)
                .times(sh::kKeyAndValue, 2.0)
                .times(sh::kActivationBytes, e)
                .times(sh::kQueryWidth, qw);
    };
    // Gated MLP: gate, up and act(gate) alive at the product; then the
    // product replaces gate. Plain MLP: the up projection and its activation.
    const auto mlp = [&](Formula &f) {
        f.product(m.gatedMlp ? ws::kPartGatedMlp : ws::kPartPlainMlp)
            .times(ws::kMlpTensors, m.gatedMlp ? 3.0 : 2.0)
            .times(sh::kActivationBytes, e)
            .times(sh::kIntermediate, I)
            .timesUnlessOne(sh::kExpertsRun, mlpCopies);
    };
    // One layer's tensors per token: the residual stream, then the larger
    // of attention's and the MLP's intermediates (freed in between).
    Formula perToken(store);
    perToken.product(ws::kPartResidual)
        .times(ws::kTwoTensors, 2.0)
        .times(sh::kActivationBytes, e)
        .times(sh::kHidden, h);
    addLarger(perToken, attention, ws::kWhyAttentionLarger, mlp, ws::kWhyMlpLarger);

    const double tp = static_cast<double>(s.parallel.tp);
    const double b = static_cast<double>(s.batch);
    // generate() repeats each prompt num_beams / num_return_sequences times
    // before the prefill (transformers generation/utils.py, generate:
    // _expand_inputs_for_generation), so every row runs it.
    const double beams = static_cast<double>(s.beams);
    const double seq = static_cast<double>(s.contextTokens());
    Formula bytes(store);
    bytes.product(ws::kPartLayerTemporaries)
        .times(sh::kBatch, b)
        .timesUnlessOne(sh::kBeams, beams)
        .times(sh::kSequence, seq)
        .times(ws::kPrefillPerToken, perToken.derived())
        .overUnlessOne(sh::kTp, tp);
    if (s.attention == Attention::Eager) {
        // Scores in the activation dtype plus the fp32 softmax output alive
        // together (softmax(..., dtype=torch.float32) in the modeling code).
        Formula perScore(store);
        perScore.product(ws::kPartScores).times(sh::kActivationBytes, e);
        perScore.product(m.softmaxInFp32 ? ws::kPartFp32Softmax : ws::kPartSoftmax)
            .times(m.softmaxInFp32 ? sh::kFp32Bytes : sh::kActivationBytes, m.softmaxInFp32 ? 4.0 : e);
        bytes.product(ws::kPartScores)
            .times(sh::kBatch, b)
            .timesUnlessOne(sh::kBeams, beams)
            .times(sh::kHeads, static_cast<double>(mostQueryHeads(m)))
            .times(sh::kSequence, seq)
            .times(sh::kSequence, seq)
            .times(ws::kScoreBytes, perScore.derived())
            .overUnlessOne(sh::kTp, tp);
    }
    return bytes.cite(ws::kFromPrefill).derived();
}

VllmProfile vllmProfile(const ModelSpec &m, const Scenario &s, double e, FormulaStore *store)
{
    VllmProfile p;
    const double tokens = static_cast<double>(s.effectiveMaxBatchedTokens());
    const double tp = static_cast<double>(s.parallel.tp);
    const double h = static_cast<double>(m.hidden);
    const double qw = static_cast<double>(widestQueries(m));
    const AttentionShape keys = widestKeys(m);
    const double kvHeads = std::max(1.0, std::ceil(static_cast<double>(keys.kvHeads) / tp));
    // The profiling forward skips the attention kernel (no attention
    // metadata: FlashAttentionImpl.forward returns output.fill_(0)); a
    // layer holds the residual and the normed input (fused_add_rms_norm
    // works in place) and, in the MLP, merged gate_up (2I) and SiluAndMul's
    // output (I); a fused MoE layer its intermediate caches per routed token
    // (fused_moe: k x (2I + I + h)).
    const auto attention = [&](Formula &f) {
        f.product(ws::kPartQuery).times(sh::kQueryWidth, qw).overUnlessOne(sh::kTp, tp);
        f.product(ws::kPartKeyAndValue)
            .times(sh::kKeyAndValue, 2.0)
            .times(tp > 1 ? sh::kKvHeadsHere : sh::kKvHeads, kvHeads)
            .times(sh::kHeadDim, static_cast<double>(keys.headDim));
        f.product(ws::kPartAttentionOutput).times(sh::kQueryWidth, qw).overUnlessOne(sh::kTp, tp);
    };
    const auto mlp = [&](Formula &f) {
        if (m.moe.isMoe()) {
            const double I = static_cast<double>(m.moe.expertIntermediate);
            const double k = static_cast<double>(m.moe.expertsPerToken);
            f.product(ws::kPartRoutedExperts)
                .times(sh::kExpertsRun, k)
                .times(ws::kMlpTensors, 3.0)
                .times(sh::kIntermediate, I)
                .overUnlessOne(sh::kTp, tp);
            f.product(ws::kPartRoutedOutputs).times(sh::kExpertsRun, k).times(sh::kHidden, h);
            if (m.moe.sharedExperts > 0)
                f.product(ws::kPartSharedExperts)
                    .times(ws::kSharedExperts, static_cast<double>(m.moe.sharedExperts))
                    .times(ws::kMlpTensors, 3.0)
                    .times(sh::kIntermediate, I)
                    .overUnlessOne(sh::kTp, tp);
        } else if (m.gatedMlp) {
            const double I = static_cast<double>(m.intermediate);
            f.product(ws::kPartGateUp)
                .times(ws::kTwoTensors, 2.0)
                .times(sh::kIntermediate, I)
                .overUnlessOne(sh::kTp, tp);
            f.product(ws::kPartSiluAndMul).times(sh::kIntermediate, I).overUnlessOne(sh::kTp, tp);
        } else {
            const double I = static_cast<double>(m.intermediate);
            f.product(ws::kPartUp).times(sh::kIntermediate, I).overUnlessOne(sh::kTp, tp);
            f.product(ws::kPartMlpActivation).times(sh::kIntermediate, I).overUnlessOne(sh::kTp, tp);
        }
    };
    Formula width(store);
    width.product(ws::kPartResidual).times(ws::kTwoTensors, 2.0).times(sh::kHidden, h);
    addLarger(width, attention, ws::kWhyAttentionLarger, mlp, ws::kWhyMlpLarger);
    Formula forward(store);
    forward.product()
        .times(sh::kBatchedTokens, tokens)
        .times(sh::kActivationBytes, e)
        .times(ws::kProfileWidth, width.derived())
        .cite(runtimeBehaviour(s.serving).profileSource);
    if (!s.maxBatchedTokens || !s.maxNumSeqs)
        forward.note(servingBatchDefaults(s).why);
    p.forward = forward.derived();

    // Sampler warm-up (_dummy_sampler_run). On V1's model runner, forced
    // top-k and top-p: the 16-bit logits, their fp32 copy (Sampler.forward), and in
    // apply_top_k_top_p the sorted fp32 values and int64 indices, the top-k
    // and top-p bool masks, the fp32 softmax of the sorted values and the
    // fp32 scatter result, alive together: e + 4 + 4 + 8 + 1 + 1 + 4 + 4 B
    // per row and vocabulary entry (Triton's in-place kernel from 0.17: see
    // kTritonSampler); on Model Runner V2, greedy: the logits alone. Every
    // tensor-parallel rank holds the gathered vocabulary. The forward's
    // hidden states stay referenced.
    const bool seqsBound = static_cast<double>(s.effectiveMaxNumSeqs()) < tokens;
    p.samplerRows = std::min(tokens, static_cast<double>(s.effectiveMaxNumSeqs()));
    // Model Runner V2 samples its warm-up greedily; V1's apply_top_k_top_p
    // runs Triton's kernel on 8 rows or more from 0.17.
    const bool greedy = vllmModelRunnerV2(s);
    const bool triton = !greedy && p.samplerRows >= 8 && versionRuleHolds(s.versions, VersionRule::VllmTritonTopKTopP);
    Formula perElement(store);
    perElement.product(lg::kPartLogits).times(sh::kActivationBytes, e);
    if (triton)
        for (const SamplerTensor &t : kTritonSampler)
            perElement.product(t.part).times(*t.symbol, t.bytes);
    else if (!greedy)
        for (const SamplerTensor &t : kSortedSampler)
            perElement.product(t.part).times(*t.symbol, t.bytes);
    Formula sampler(store);
    sampler.product(lg::kPartSamplerRows)
        .times(lg::kSamplerRows, p.samplerRows)
        .times(sh::kVocab, static_cast<double>(m.vocab))
        .times(lg::kSamplerBytes, perElement.derived());
    sampler.product(lg::kPartHiddenStates)
        .times(sh::kBatchedTokens, tokens)
        .times(sh::kHidden, h)
        .times(sh::kActivationBytes, e);
    sampler.note(seqsBound ? lg::kWhyRowsAreSeqs : lg::kWhyRowsAreTokens)
        .cite(greedy ? lg::kFromVllmMrv2Sampler : triton ? lg::kFromVllmTritonSampler : lg::kFromVllmSampler);
    if (greedy)
        sampler.note(lg::kWhyGreedyWarmup);
    else if (triton)
        sampler.note(lg::kWhyTritonTopKTopP);
    if (!s.maxBatchedTokens || !s.maxNumSeqs)
        sampler.note(servingBatchDefaults(s).why);
    p.sampler = sampler.derived();
    return p;
}

} // namespace core
