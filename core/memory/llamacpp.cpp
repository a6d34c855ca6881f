#include "core/memory/llamacpp.h"

#include "core/memory/formulatext.h"
#include "core/memory/inference.h"
#include "core/memory/llamacppgraph.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

namespace lc = text::llamacpp;
namespace sh = text::shared;

/// GGML_PAD(n, 256): llama_context rounds every context up to 256 cells
/// (llama-context.cpp, since llama.cpp PR #17046).
constexpr std::uint64_t kCellPad = 256;
/// common_params n_batch: the largest batch one decode call takes.
constexpr std::uint64_t kDefaultBatch = 2048;
/// ggml computes activations in f32.
constexpr double kF32 = 4.0;

std::uint64_t padCells(std::uint64_t n) { return (n + kCellPad - 1) / kCellPad * kCellPad; }

/// Bytes per cached K and per cached V value: -ctk and -ctv, f16 by default.
double cacheBytes(const std::optional<WeightFormat> &format) { return format ? elementBytes(*format) : 2.0; }

/// Values one token caches per layer in K and in V (llama_hparams
/// n_embd_k_gqa / n_embd_v_gqa) for layers of `a`'s heads; latent
/// attention as one head (latentAsOneHead).
std::pair<double, double> cachedWidths(const ModelSpec &m, const AttentionShape &a)
{
    const AttentionShape cached = m.isMla() ? latentAsOneHead(m) : a;
    return {static_cast<double>(cached.keyWidth()), static_cast<double>(cached.valueWidth())};
}

/// Layers of [first, first + count) whose experts --n-cpu-moe keeps on the
/// CPU (layers 0 .. cpuMoe - 1).
std::uint64_t cpuExpertLayers(std::uint64_t first, std::uint64_t count, std::uint64_t cpuMoe)
{
    return first >= cpuMoe ? 0 : std::min(count, cpuMoe - first);
}

/// Routed-expert parameters of one layer, on average (experts are spread
/// over the MoE layers; dense layers have none).
double expertParamsPerLayer(const ModelSpec &m, const ParameterCounts &pc)
{
    return static_cast<double>(pc.experts) / static_cast<double>(std::max<std::uint64_t>(1, m.layers));
}

/// The CPU backend's copies of the weights that stay on the host: the CPU
/// layers, the routed experts --n-cpu-moe keeps, a CPU output layer
/// (cpuBufferCopy's rule for `build`, summed per group in the placement).
double hostCopies(const GgufPlacement &p, std::uint64_t layers, std::uint64_t cpuLayers, const LlamaCppLayout &l,
                  CpuBuild build)
{
    double bytes = static_cast<double>(p.input.hostCopy(build));
    for (std::uint64_t i = 0; i < layers && i < p.layers.size() && i < p.experts.size(); ++i) {
        if (i < cpuLayers)
            bytes += static_cast<double>(p.layers[i].hostCopy(build));
        else if (i < l.cpuMoeLayers)
            bytes += static_cast<double>(p.experts[i].hostCopy(build));
    }
    if (!l.outputOnGpu)
        bytes += static_cast<double>(p.output.hostCopy(build));
    return bytes;
}

/// The host compute buffer. Everything on the CPU, in a graph the replay
/// knows: ggml-alloc's own figure (llamacppgraph.h). Else the token
/// embeddings' rows (get_rows runs where token_embd is) and the KQ mask
/// input, f16 with flash attention and f32 without
/// (build_attn_inp_kq_mask), plus the larger of a CPU layer's peak (CPU
/// layers, CPU experts, a host KV cache) and a CPU output layer's.
double llamaCppHostCompute(const Scenario &s, const LlamaCppLayout &l, std::uint64_t cpuLayers)
{
    if (const auto replayed = llamaCppCpuComputeBuffer(s, l))
        return *replayed;
    const ModelSpec &m = s.model;
    const double ub = static_cast<double>(l.ubatch);
    const double maskBytes = l.flash ? 2.0 : kF32;
    const double inputs = ub * (kF32 * static_cast<double>(m.hidden) + maskBytes * static_cast<double>(l.cells));
    const double layer = cpuLayers > 0 || s.kvOnHost || l.cpuMoeLayers > 0 ? llamaCppLayerCompute(s, l).value : 0.0;
    const double head = l.outputOnGpu ? 0.0 : llamaCppOutputCompute(s, l).value;
    return inputs + std::max(layer, head);
}

} // namespace

LlamaCppLayout llamaCppLayout(const Scenario &s)
{
    const ModelSpec &m = s.model;
    LlamaCppLayout l;
    l.sequences = std::max<std::uint64_t>(1, s.generatedRows());
    const std::uint64_t context = std::max<std::uint64_t>(1, s.contextTokens());
    l.cells = padCells(context);
    // n_batch and n_ubatch are clamped against the unpadded total context.
    const std::uint64_t batch = std::min(context * l.sequences, kDefaultBatch);
    l.ubatch = std::max<std::uint64_t>(1, std::min(s.ubatch, batch));
    // llama_kv_cache_iswa with swa_full off (common_params): one window
    // plus one micro-batch per stream.
    if (m.slidingWindow > 0)
        l.slidingCells = padCells(std::min(l.cells, m.slidingWindow + l.ubatch));
    // -ngl counts units from the back, the output layer first: load_tensors'
    // i_gpu_start = n_layer + 1 - n_gpu_layers (llama.cpp PR 18148,
    // December 2025; before it the repeating layers went first and the
    // output layer only above n_layer).
    const std::uint64_t ngl = s.gpuLayers.value_or(m.layers + 1);
    l.outputOnGpu = ngl > 0;
    l.gpuLayers = ngl > 0 ? std::min(ngl - 1, m.layers) : 0;
    l.flash = s.attention != Attention::Eager;
    l.cpuMoeLayers = m.moe.isMoe() ? std::min(s.cpuMoeLayers, m.layers) : 0;
    return l;
}

LlamaCppShare llamaCppShare(const Scenario &s, const LlamaCppLayout &l, int device)
{
    // Units are the GPU layers, then the output layer; unit u lands on the
    // first device whose cumulative split exceeds u / units (load_tensors:
    // upper_bound over the normalised cumulative --tensor-split, which
    // defaults to each device's free memory).
    const std::uint64_t units = l.gpuLayers + (l.outputOnGpu ? 1 : 0);
    const std::size_t n = static_cast<std::size_t>(std::max(1, s.gpus));
    const auto d = std::min(static_cast<std::size_t>(std::max(0, device)), n - 1);
    // Equal shares unless --tensor-split gives one per GPU.
    const bool uneven = s.tensorSplit.size() == n;
    double total = static_cast<double>(n);
    double before = static_cast<double>(d);
    if (uneven) {
        total = 0;
        before = 0;
        for (std::size_t i = 0; i < n; ++i) {
            total += s.tensorSplit[i];
            before += i < d ? s.tensorSplit[i] : 0.0;
        }
    }
    const double upTo = before + (uneven ? s.tensorSplit[d] : 1.0);
    // Device d holds the units u with before / total <= u / units < upTo / total.
    const auto firstUnit = [units, total](double cumulative) {
        const double exact = cumulative / total * static_cast<double>(units);
        return std::min(units, static_cast<std::uint64_t>(std::ceil(exact - 1e-9)));
    };
    const std::uint64_t begin = firstUnit(before);
    const std::uint64_t end = d + 1 == n ? units : firstUnit(upTo);
    LlamaCppShare share;
    share.firstLayer = s.model.layers - l.gpuLayers + std::min(begin, l.gpuLayers);
    share.layers = std::min(end, l.gpuLayers) - std::min(begin, l.gpuLayers);
    share.output = l.outputOnGpu && end == units && end > begin;
    return share;
}

Derived llamaCppGpuWeights(const Scenario &s, const ParameterCounts &pc, double modelWeightBytes,
                           const LlamaCppShare &share, FormulaStore *store)
{
    Formula bytes(store);
    const LlamaCppLayout layout = llamaCppLayout(s);
    const std::uint64_t cpuExperts = cpuExpertLayers(share.firstLayer, share.layers, layout.cpuMoeLayers);
    const CheckpointWeights *files = s.checkpointInUse();
    if (files && files->placement) {
        const GgufPlacement &p = *files->placement;
        double layers = 0;
        for (std::uint64_t i = share.firstLayer; i < share.firstLayer + share.layers && i < p.layers.size(); ++i) {
            layers += static_cast<double>(p.layers[i].device);
            if (i < layout.cpuMoeLayers && i < p.experts.size())
                layers -= static_cast<double>(p.experts[i].device);
        }
        bytes.product(lc::kPartLayers).times(lc::kLayerBytesHere, layers);
        if (share.output)
            bytes.product(lc::kPartOutput).times(lc::kOutputBytes, static_cast<double>(p.output.device));
        bytes.note(lc::kWhyFromFile);
    } else {
        // The format's bytes spread over the parameters: W_model x P_part / P.
        const double total = static_cast<double>(std::max<std::uint64_t>(1, pc.total));
        const double layerParams = std::max(0.0, static_cast<double>(pc.total) - static_cast<double>(pc.embedding + pc.lmHead));
        const double here = layerParams * static_cast<double>(share.layers)
                / static_cast<double>(std::max<std::uint64_t>(1, s.model.layers))
            - expertParamsPerLayer(s.model, pc) * static_cast<double>(cpuExperts);
        Formula params(store);
        params.product()
            .times(lc::kLayerParams, layerParams)
            .times(lc::kLayersHere, static_cast<double>(share.layers))
            .over(lc::kLayers, static_cast<double>(std::max<std::uint64_t>(1, s.model.layers)));
        if (cpuExperts > 0)
            params.times(lc::kKeptShare, here / std::max(1.0, params.value()));
        bytes.product(lc::kPartLayers)
            .times(sh::kModelWeights, modelWeightBytes)
            .times(lc::kLayerParamsHere, params.derived())
            .over(sh::kParams, total);
        if (share.output)
            bytes.product(lc::kPartOutput)
                .times(sh::kModelWeights, modelWeightBytes)
                .times(lc::kOutputParams, static_cast<double>(s.model.tiedEmbeddings ? pc.embedding : pc.lmHead))
                .over(sh::kParams, total);
        bytes.note(lc::kWhyFromFormat);
    }
    if (cpuExperts > 0)
        bytes.note(lc::kWhyExpertsOnHost);
    bytes.note(lc::kWhyInputOnHost);
    if (!share.output)
        bytes.note(layout.outputOnGpu ? lc::kWhyOutputOnLastGpu : lc::kWhyOutputOnHost);
    return bytes.cite(lc::kFromPlacement).derived();
}

Derived llamaCppKvCache(const Scenario &s, const LlamaCppLayout &l, std::uint64_t layers, FormulaStore *store)
{
    const ModelSpec &m = s.model;
    Formula bytes(store);
    if (m.encoderOnly || layers == 0)
        return bytes.derived();
    const double keyBytes = cacheBytes(s.kvDtype);
    const double valueBytes = cacheBytes(s.valueCacheDtype());
    // llama_memory_hybrid sizes its attention cache by n_ctx, the whole
    // context of every stream, in each stream (llama-model.cpp create_memory).
    const double streamCells = static_cast<double>(m.hasRecurrentState() ? l.cells * l.sequences : l.cells);
    for (const CacheGroup &group : cacheGroups(m, layers)) {
        const auto [keyWidth, valueWidth] = cachedWidths(m, group.attention);
        Formula row(store);
        row.product(text::kv::kPartKeys).times(lc::kKeyWidth, keyWidth).times(lc::kKeyElementBytes, keyBytes);
        row.product(text::kv::kPartValues).times(lc::kValueWidth, valueWidth).times(lc::kValueElementBytes, valueBytes);
        const Derived rowBytes = row.derived();
        if (group.fullLayers > 0)
            bytes.product(text::kv::kPartFullLayers)
                .times(lc::kFullLayers, static_cast<double>(group.fullLayers))
                .times(lc::kCells, streamCells)
                .times(lc::kSequences, static_cast<double>(l.sequences))
                .times(lc::kRowBytes, rowBytes);
        if (group.windowedLayers > 0)
            bytes.product(text::kv::kPartSlidingLayers)
                .times(lc::kSlidingLayers, static_cast<double>(group.windowedLayers))
                .times(lc::kSlidingCells, static_cast<double>(l.slidingCells))
                .times(lc::kSequences, static_cast<double>(l.sequences))
                .times(lc::kRowBytes, rowBytes);
    }
    if (m.hasRecurrentState())
        bytes.product(text::kv::kPartLinearState)
            .times(text::kv::kStatePerSequence,
                   linearStatePerSequence(m, runtimeBehaviour(ServingEngine::LlamaCpp), layers, 1.0, kF32, store))
            .times(lc::kSequences, static_cast<double>(l.sequences));
    if (s.kvOnHost)
        bytes.note(lc::kWhyKvOnHost);
    return bytes.cite(lc::kFromKvCache).derived();
}

Derived llamaCppLayerCompute(const Scenario &s, const LlamaCppLayout &l, FormulaStore *store)
{
    const ModelSpec &m = s.model;
    const double ub = static_cast<double>(l.ubatch);
    const double h = static_cast<double>(m.hidden);
    // The scores span every cell of a stream: the full layers' cache, or a
    // window's where every attention layer is local.
    const bool allSliding = m.slidingWindow > 0 && m.slidingLayers >= m.attentionLayers();
    const double cells = static_cast<double>(allSliding ? l.slidingCells : l.cells);
    const auto attention = [&](Formula &f) {
        if (!l.flash)
            f.product(lc::kPartScores)
                .times(sh::kFp32Bytes, kF32)
                .times(lc::kUbatch, ub)
                .times(lc::kCells, cells)
                .times(sh::kHeads, static_cast<double>(m.heads));
        // The mask is made in the type the kernel reads: f16 for flash
        // attention, f32 for soft_max (llama-graph.cpp build_attn_inp_kq_mask).
        if (l.flash)
            f.product(lc::kPartMaskF16).times(lc::kF16Bytes, 2.0).times(lc::kUbatch, ub).times(lc::kCells, cells);
        else
            f.product(lc::kPartMask).times(sh::kFp32Bytes, kF32).times(lc::kUbatch, ub).times(lc::kCells, cells);
        f.product(lc::kPartHiddenRows)
            .times(lc::kHiddenRows, 4.0)
            .times(sh::kFp32Bytes, kF32)
            .times(lc::kUbatch, ub)
            .times(sh::kHidden, h);
        f.note(l.flash ? lc::kWhyFlash : lc::kWhyNoFlash);
    };
    // Gated MLP: the residual, then up, gate and their product alive
    // together (ggml_swiglu_split is GGML_OP_GLU, which ggml-alloc never
    // runs in place: ggml_op_can_inplace); ungated, the activation reuses up
    // (GGML_OP_UNARY is in place). An MoE layer's k experts each hold gate
    // and up, then their product and the down outputs (build_moe_ffn).
    const auto mlp = [&](Formula &f) {
        f.product(lc::kPartResidual).times(sh::kFp32Bytes, kF32).times(lc::kUbatch, ub).times(sh::kHidden, h);
        if (m.moe.isMoe()) {
            const double I = static_cast<double>(m.moe.expertIntermediate);
            f.product(lc::kPartGateUp)
                .times(sh::kFp32Bytes, kF32)
                .times(lc::kUbatch, ub)
                .times(sh::kExpertsRun, static_cast<double>(m.moe.expertsPerToken))
                .times(lc::kExpertWidth, std::max(2.0 * I, I + h));
            f.note(lc::kWhyUnchecked);
        } else {
            f.product(lc::kPartMlpOutputs)
                .times(sh::kFp32Bytes, kF32)
                .times(lc::kUbatch, ub)
                .times(text::workspace::kMlpTensors, m.gatedMlp ? 3.0 : 1.0)
                .times(sh::kIntermediate, static_cast<double>(m.intermediate));
        }
    };
    Formula bytes(store);
    addLarger(bytes, attention, text::workspace::kWhyAttentionLarger, mlp, text::workspace::kWhyMlpLarger);
    return bytes.cite(lc::kFromCompute).derived();
}

Derived llamaCppOutputCompute(const Scenario &s, const LlamaCppLayout &l, FormulaStore *store)
{
    const double ub = static_cast<double>(l.ubatch);
    Formula bytes(store);
    bytes.product(lc::kPartLogits)
        .times(sh::kFp32Bytes, kF32)
        .times(lc::kUbatch, ub)
        .times(sh::kVocab, static_cast<double>(s.model.vocab));
    bytes.product(lc::kPartOutputInput)
        .times(sh::kFp32Bytes, kF32)
        .times(lc::kUbatch, ub)
        .times(sh::kHidden, static_cast<double>(s.model.hidden));
    return bytes.cite(lc::kFromCompute).derived();
}

LlamaCppHost llamaCppHost(const Scenario &s, const ParameterCounts &pc, double modelWeightBytes, const LlamaCppLayout &l)
{
    const ModelSpec &m = s.model;
    const std::uint64_t cpuLayers = m.layers - l.gpuLayers;
    const std::uint64_t cpuExperts = cpuExpertLayers(cpuLayers, l.gpuLayers, l.cpuMoeLayers);
    LlamaCppHost host;
    // Mapped weights: the input layer, the CPU layers (the first ones), the
    // experts --n-cpu-moe keeps, and the output layer when it stays.
    const CheckpointWeights *files = s.checkpointInUse();
    if (files && files->placement) {
        const GgufPlacement &p = *files->placement;
        host.input = static_cast<double>(p.input.file);
        host.weights = host.input;
        for (std::uint64_t i = 0; i < m.layers && i < p.layers.size() && i < p.experts.size(); ++i) {
            if (i < cpuLayers)
                host.weights += static_cast<double>(p.layers[i].file);
            else if (i < l.cpuMoeLayers)
                host.weights += static_cast<double>(p.experts[i].file);
            if (i < cpuLayers || i < l.cpuMoeLayers)
                host.experts += static_cast<double>(p.experts[i].file);
        }
        if (!l.outputOnGpu)
            host.weights += static_cast<double>(p.output.file);
        host.repacked = hostCopies(p, m.layers, cpuLayers, l, s.cpuBuild);
    } else {
        const double perParam = pc.total > 0 ? modelWeightBytes / static_cast<double>(pc.total) : 0.0;
        const double layerParams = std::max(0.0, static_cast<double>(pc.total - pc.embedding - pc.lmHead));
        const double perLayer = layerParams / static_cast<double>(std::max<std::uint64_t>(1, m.layers));
        const double experts = expertParamsPerLayer(m, pc);
        host.input = perParam * static_cast<double>(pc.embedding);
        host.weights = perParam
            * (static_cast<double>(pc.embedding) + perLayer * static_cast<double>(cpuLayers)
               + experts * static_cast<double>(cpuExperts) + (l.outputOnGpu ? 0.0 : static_cast<double>(pc.lmHead)));
        host.experts = perParam * experts * static_cast<double>(cpuLayers + cpuExperts);
        // Without a file only Q4_0 is certain: every matmul weight repacks
        // on each of the builds that repack (layers and a CPU output layer).
        if (s.weights == WeightFormat::GgufQ4_0 && s.cpuBuild != CpuBuild::None)
            host.repacked = host.weights - host.input;
    }
    host.weights += host.repacked;
    host.compute = llamaCppHostCompute(s, l, cpuLayers);
    // The output buffer keeps one f32 logits row per sequence.
    host.output = kF32 * static_cast<double>(m.vocab) * static_cast<double>(l.sequences);
    host.kvCache = llamaCppKvCache(s, l, s.kvOnHost ? m.layers : cpuLayers).value;
    return host;
}

double llamaCppGpuExpertBytes(const Scenario &s, const ParameterCounts &pc, double modelWeightBytes,
                              const LlamaCppShare &share)
{
    const std::uint64_t cpuMoe = llamaCppLayout(s).cpuMoeLayers;
    const CheckpointWeights *files = s.checkpointInUse();
    if (files && files->placement) {
        double bytes = 0;
        const std::vector<PlacedBytes> &experts = files->placement->experts;
        for (std::uint64_t i = std::max(share.firstLayer, cpuMoe); i < share.firstLayer + share.layers && i < experts.size(); ++i)
            bytes += static_cast<double>(experts[i].device);
        return bytes;
    }
    const double perParam = pc.total > 0 ? modelWeightBytes / static_cast<double>(pc.total) : 0.0;
    const std::uint64_t kept = share.layers - cpuExpertLayers(share.firstLayer, share.layers, cpuMoe);
    return perParam * expertParamsPerLayer(s.model, pc) * static_cast<double>(kept);
}

} // namespace core
