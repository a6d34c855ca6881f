#pragma once

#include "core/model/modelspec.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace core {

/// A decoder layer's token mixer.
enum class MixerKind {
    FullAttention,   ///< softmax over the whole context
    SlidingWindow,   ///< softmax over the last `window` tokens (or a chunk of them)
    LinearAttention, ///< Gated DeltaNet: a fixed-size state per sequence
    Mamba2,          ///< a state-space block: a fixed-size state per sequence
    Mamba1,          ///< Mamba-1's selective scan (Jamba): a fixed-size state per sequence
    None,            ///< an MLP-only block (Nemotron-H)
};

/// The heads of a kind of softmax-attention layer: what one token caches.
struct AttentionShape
{
    std::uint64_t kvHeads = 0;
    std::uint64_t headDim = 0;  ///< query and key head size
    std::uint64_t valueDim = 0; ///< value head size
    bool keyIsValue = false;    ///< no v_proj: the values are projected by k_proj
    std::uint64_t queryHeads = 0;

    std::uint64_t keyWidth() const { return kvHeads * headDim; }
    std::uint64_t valueWidth() const { return kvHeads * valueDim; }
    bool operator==(const AttentionShape &o) const
    {
        return kvHeads == o.kvHeads && headDim == o.headDim && valueDim == o.valueDim && keyIsValue == o.keyIsValue
            && queryHeads == o.queryHeads;
    }
    bool operator!=(const AttentionShape &o) const { return !(*this == o); }
    /// One token caches the same here and in `o` (the query heads aside).
    bool cachesAs(const AttentionShape &o) const
    {
        return kvHeads == o.kvHeads && headDim == o.headDim && valueDim == o.valueDim && keyIsValue == o.keyIsValue;
    }
};

/// The full-attention layers' heads, and the windowed layers' (their own
/// where the config gives them, else the same).
AttentionShape fullAttentionShape(const ModelSpec &model);
AttentionShape slidingAttentionShape(const ModelSpec &model);
/// Multi-head latent attention cached as one head whose key is the latent
/// and the shared RoPE key and whose value is the latent again, as
/// llama.cpp keeps it (convert_hf_to_gguf writes key_length = kv_lora_rank
/// + n_rot, value_length = kv_lora_rank, head_count_kv = 1).
AttentionShape latentAsOneHead(const ModelSpec &model);

/// The attention kind with the widest keys, and the widest queries of any
/// kind (heads x head size): a layer's transient peak is the wider one's
/// (Gemma 4: the global layers' queries, the local layers' keys).
AttentionShape widestKeys(const ModelSpec &model);
std::uint64_t widestQueries(const ModelSpec &model);
/// The most query heads of any attention kind (Laguna's sliding layers):
/// the heads of the largest per-head score and softmax statistics.
std::uint64_t mostQueryHeads(const ModelSpec &model);
/// The query heads of an attention kind that `tp` ranks cannot split
/// evenly (vLLM and transformers' TP plans assert each layer's heads
/// divide); 0 when every kind's do.
std::uint64_t headsNotSplitBy(const ModelSpec &model, std::uint64_t tp);
/// The key-value heads of an attention kind that `tp` ranks can neither
/// split nor repeat evenly (vLLM QKVParallelLinear asserts that the heads
/// divide tp or tp divides them); 0 when every kind's can.
std::uint64_t keyValueHeadsNotSplitBy(const ModelSpec &model, std::uint64_t tp);

/// The model's decoder layers by kind, each kind once with how many layers
/// have it (a layer that attends and runs Mamba, Falcon-H1's or Zamba2's
/// hybrid ones, is counted in both kinds): the per-layer descriptor every engine's cache
/// rule reads. A layer range (a pipeline stage, llama.cpp's GPU layers)
/// takes each kind in proportion (`inRange`), which is exact where the
/// kinds repeat in a pattern that the range spans whole.
struct LayerKind
{
    MixerKind mixer = MixerKind::FullAttention;
    std::uint64_t layers = 0;  ///< layers of this kind
    /// Of those, the layers that keep a cache of their own (the rest reuse
    /// an earlier layer's: ModelSpec::kvSharedLayers).
    std::uint64_t cachingLayers = 0;
    AttentionShape attention;  ///< softmax kinds only
    std::uint64_t window = 0;  ///< SlidingWindow: tokens kept
    std::uint64_t compressRatio = 0; ///< DeepSeek-V4: one compressed entry per this many tokens besides the window
};

std::vector<LayerKind> describeLayers(const ModelSpec &model);

/// The full-attention or the sliding-window kind of the model (its
/// `layers` 0 where it has none), without building the whole list.
LayerKind attentionKind(const ModelSpec &model, MixerKind mixer);

/// The softmax-attention layers of a range of `layers` layers that cache
/// one width per token: those of the full-attention and the windowed kinds
/// with the same heads.
struct CacheGroup
{
    AttentionShape attention;
    std::uint64_t fullLayers = 0;
    std::uint64_t windowedLayers = 0;
    std::uint64_t window = 0;
    /// DeepSeek-V4: the windowed layers also keep one compressed entry per
    /// this many tokens (0: none).
    std::uint64_t compressRatio = 0;

    std::uint64_t layers() const { return fullLayers + windowedLayers; }
};

/// At most this many cache groups (DeepSeek-V4's distinct compression
/// ratios are checked against it where the model is read).
constexpr std::size_t kMaxCacheGroups = 8;

/// The cache groups of a layer range, held inline: the estimate's hot path
/// builds them for every point.
class CacheGroups
{
public:
    void push(const CacheGroup &g)
    {
        if (m_size < m_groups.size())
            m_groups[m_size++] = g;
    }
    const CacheGroup *begin() const { return m_groups.data(); }
    const CacheGroup *end() const { return m_groups.data() + m_size; }
    std::size_t size() const { return m_size; }

private:
    std::array<CacheGroup, kMaxCacheGroups> m_groups{};
    std::size_t m_size = 0;
};

/// One group where every attention layer has the same heads (most models),
/// else one per shape (full-attention layers first); DeepSeek-V4 one per
/// compression ratio, ascending.
CacheGroups cacheGroups(const ModelSpec &model, std::uint64_t layers);

/// Distinct values in a layer's compression ratios (DeepSeek-V4).
std::size_t distinctRatios(const std::vector<std::uint64_t> &ratios);

} // namespace core
