#include "core/model/layerkinds.h"

#include <algorithm>

namespace core {

namespace {

/// The shared-cache layers among the full-attention and the windowed
/// layers, in proportion (Gemma's pattern repeats through the shared tail).
struct SharedSplit
{
    std::uint64_t full = 0;
    std::uint64_t windowed = 0;
};

std::uint64_t windowedLayers(const ModelSpec &m)
{
    return m.slidingWindow > 0 ? std::min(m.attentionLayers(), m.slidingLayers) : 0;
}

SharedSplit sharedSplit(const ModelSpec &m)
{
    const std::uint64_t attention = m.attentionLayers();
    const std::uint64_t shared = std::min(attention, m.kvSharedLayers);
    SharedSplit split;
    split.windowed = attention == 0 ? 0 : windowedLayers(m) * shared / attention;
    split.full = shared - split.windowed;
    return split;
}

} // namespace

AttentionShape fullAttentionShape(const ModelSpec &m)
{
    AttentionShape a;
    a.kvHeads = m.kvHeads;
    a.headDim = m.headDim;
    a.valueDim = m.valueDim();
    a.keyIsValue = m.keyIsValue;
    a.queryHeads = m.heads;
    return a;
}

AttentionShape latentAsOneHead(const ModelSpec &m)
{
    return {1, m.kvLoraRank + m.ropeHeadDim, m.kvLoraRank, false, m.heads};
}

AttentionShape slidingAttentionShape(const ModelSpec &m)
{
    AttentionShape a;
    a.kvHeads = m.slidingKvHeads > 0 ? m.slidingKvHeads : m.kvHeads;
    a.headDim = m.slidingHeadDim > 0 ? m.slidingHeadDim : m.headDim;
    a.valueDim = m.slidingValueHeadDim > 0 ? m.slidingValueHeadDim : (m.slidingHeadDim > 0 ? a.headDim : m.valueDim());
    a.queryHeads = m.slidingHeads > 0 ? m.slidingHeads : m.heads;
    return a;
}

AttentionShape widestKeys(const ModelSpec &m)
{
    const AttentionShape full = fullAttentionShape(m);
    const AttentionShape windowed = slidingAttentionShape(m);
    return windowedLayers(m) > 0 && windowed.keyWidth() > full.keyWidth() ? windowed : full;
}

std::uint64_t widestQueries(const ModelSpec &m)
{
    const AttentionShape windowed = slidingAttentionShape(m);
    const std::uint64_t windowedWidth = windowedLayers(m) > 0 ? windowed.queryHeads * windowed.headDim : 0;
    return std::max(m.heads * m.headDim, windowedWidth);
}

std::uint64_t mostQueryHeads(const ModelSpec &m)
{
    return windowedLayers(m) > 0 ? std::max(m.heads, slidingAttentionShape(m).queryHeads) : m.heads;
}

std::uint64_t keyValueHeadsNotSplitBy(const ModelSpec &m, std::uint64_t tp)
{
    const auto uneven = [tp](std::uint64_t heads) { return heads > 0 && heads % tp != 0 && tp % heads != 0; };
    if (tp == 0 || m.isMla())
        return 0;
    if (uneven(m.kvHeads))
        return m.kvHeads;
    const std::uint64_t windowed = slidingAttentionShape(m).kvHeads;
    return windowedLayers(m) > 0 && uneven(windowed) ? windowed : 0;
}

std::uint64_t headsNotSplitBy(const ModelSpec &m, std::uint64_t tp)
{
    if (tp == 0)
        return 0;
    if (m.heads % tp != 0)
        return m.heads;
    const std::uint64_t windowed = slidingAttentionShape(m).queryHeads;
    return windowedLayers(m) > 0 && windowed % tp != 0 ? windowed : 0;
}

std::vector<LayerKind> describeLayers(const ModelSpec &m)
{
    std::vector<LayerKind> kinds;
    const auto add = [&](MixerKind mixer, std::uint64_t layers, std::uint64_t caching, AttentionShape attention,
                         std::uint64_t window) {
        if (layers > 0)
            kinds.push_back({mixer, layers, caching, attention, window, 0});
    };
    if (!m.compressRatios.empty()) {
        // DeepSeek-V4: every layer windowed, one kind per compression ratio.
        for (const CacheGroup &g : cacheGroups(m, m.layers))
            kinds.push_back({MixerKind::SlidingWindow, g.windowedLayers, g.windowedLayers, g.attention, g.window,
                             g.compressRatio});
        add(MixerKind::None, std::min(m.layers, m.layersWithoutMixer), 0, {}, 0);
        return kinds;
    }
    for (MixerKind mixer : {MixerKind::FullAttention, MixerKind::SlidingWindow})
        if (const LayerKind kind = attentionKind(m, mixer); kind.layers > 0)
            kinds.push_back(kind);
    add(MixerKind::LinearAttention, std::min(m.layers, m.linearLayers), 0, {}, 0);
    add(m.isMamba1() ? MixerKind::Mamba1 : MixerKind::Mamba2, std::min(m.layers, m.mambaLayers), 0, {}, 0);
    add(MixerKind::None, std::min(m.layers, m.layersWithoutMixer), 0, {}, 0);
    return kinds;
}

std::size_t distinctRatios(const std::vector<std::uint64_t> &ratios)
{
    std::vector<std::uint64_t> sorted = ratios;
    std::sort(sorted.begin(), sorted.end());
    return static_cast<std::size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

LayerKind attentionKind(const ModelSpec &m, MixerKind mixer)
{
    const bool full = mixer == MixerKind::FullAttention;
    LayerKind kind{mixer, 0, 0, full ? fullAttentionShape(m) : slidingAttentionShape(m), full ? 0 : m.slidingWindow, 0};
    if (!m.compressRatios.empty())
        return kind; // DeepSeek-V4: describeLayers has its ratio kinds
    const std::uint64_t windowed = windowedLayers(m);
    const SharedSplit shared = sharedSplit(m);
    kind.layers = full ? m.attentionLayers() - windowed : windowed;
    kind.cachingLayers = kind.layers - (full ? shared.full : shared.windowed);
    return kind;
}

CacheGroups cacheGroups(const ModelSpec &m, std::uint64_t layers)
{
    const AttentionShape fullShape = fullAttentionShape(m);
    CacheGroups groups;
    if (m.layers == 0) {
        groups.push({fullShape, 0, 0, 0, 0});
        return groups;
    }
    if (!m.compressRatios.empty()) {
        // One group per distinct ratio, ascending (at most kMaxCacheGroups:
        // the readers refuse more).
        std::uint64_t previous = 0;
        for (std::size_t g = 0; g < kMaxCacheGroups; ++g) {
            std::uint64_t ratio = ~0ull;
            std::uint64_t count = 0;
            for (std::uint64_t r : m.compressRatios)
                if ((g == 0 || r > previous) && r < ratio)
                    ratio = r;
            if (ratio == ~0ull)
                break;
            for (std::uint64_t r : m.compressRatios)
                count += r == ratio ? 1 : 0;
            groups.push({fullShape, 0, count * layers / m.layers, m.slidingWindow, ratio});
            previous = ratio;
        }
        return groups;
    }
    // The range takes the caching attention layers in proportion, and of
    // those the windowed ones in proportion.
    const SharedSplit shared = sharedSplit(m);
    const std::uint64_t caching = m.attentionLayers() - shared.full - shared.windowed;
    const std::uint64_t attention = caching * layers / m.layers;
    const std::uint64_t windowed = m.slidingWindow > 0
        ? std::min(attention, (windowedLayers(m) - shared.windowed) * layers / m.layers)
        : 0;
    const std::uint64_t full = attention - windowed;
    const AttentionShape windowShape = slidingAttentionShape(m);
    if (windowShape.cachesAs(fullShape) || windowed == 0) {
        groups.push({fullShape, full, windowed, m.slidingWindow, 0});
    } else if (full == 0) {
        groups.push({windowShape, 0, windowed, m.slidingWindow, 0});
    } else {
        groups.push({fullShape, full, 0, 0, 0});
        groups.push({windowShape, 0, windowed, m.slidingWindow, 0});
    }
    return groups;
}

} // namespace core
