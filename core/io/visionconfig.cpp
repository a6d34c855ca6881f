#include "core/io/visionconfig.h"

#include <algorithm>
#include <cmath>

namespace core::io {

namespace {

// Widths up to 1M, depths up to 1024: products stay far below 2^64.
constexpr std::uint64_t kMaxWidth = 1ull << 20;
constexpr std::uint64_t kMaxDepth = 1024;

/// The config's value for `key`, or the class default it omits.
std::uint64_t width(JsonReader &r, const char *key, std::uint64_t classDefault)
{
    return r.uint(key, 1, kMaxWidth, false).value_or(classDefault);
}

std::uint64_t depth(JsonReader &r, const char *key, std::uint64_t classDefault)
{
    return r.uint(key, 1, kMaxDepth, false).value_or(classDefault);
}

/// torch.nn.Linear(in, out, bias): an out x in weight and an out-long bias.
std::uint64_t linear(std::uint64_t in, std::uint64_t out, bool bias)
{
    return in * out + (bias ? out : 0);
}

/// The keys every ViT tower states, with its config class's defaults.
struct TowerShape
{
    std::uint64_t h, ffn, layers, channels, image, patch;
};

/// A Qwen vision tower: resolution is dynamic, (H/p)(W/p)/m^2 tokens for
/// H, W rounded to multiples of p x m (Qwen2VLImageProcessor
/// smart_resize); the configs state no size, so a 448 x 448 image stands in.
VisionTower dynamicResolutionTower(const char *kind, std::uint64_t parameters, std::uint64_t projector,
                                   std::uint64_t patch, std::uint64_t merge)
{
    VisionTower t;
    t.kind = kind;
    t.projectorParameters = projector;
    t.parameters = parameters;
    t.imageSize = 448;
    const std::uint64_t side = t.imageSize / (patch * merge);
    t.tokensPerImage = side * side;
    return t;
}

TowerShape readShape(JsonReader &v, const TowerShape &defaults)
{
    return {width(v, "hidden_size", defaults.h),       width(v, "intermediate_size", defaults.ffn),
            depth(v, "num_hidden_layers", defaults.layers), width(v, "num_channels", defaults.channels),
            width(v, "image_size", defaults.image),    width(v, "patch_size", defaults.patch)};
}

/// torch.nn.LayerNorm(n): weight and bias.
std::uint64_t layerNorm(std::uint64_t n)
{
    return 2 * n;
}

/// An RMSNorm(n) (Gemma3RMSNorm, MistralRMSNorm, Qwen2RMSNorm): weight only.
std::uint64_t rmsNorm(std::uint64_t n)
{
    return n;
}

/// Gemma 3: SigLIP tower (modeling_siglip.py SiglipVisionTransformer) and
/// Gemma3MultiModalProjector (modeling_gemma3.py). Defaults:
/// SiglipVisionConfig (configuration_siglip.py) and Gemma3Config.
VisionTower readSiglip(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const auto [h, ffn, layers, channels, image, patch] = readShape(v, {768, 3072, 12, 3, 224, 16});
    // SiglipVisionTransformer: use_head is True unless the config says
    // vision_use_head (Gemma 3 says false).
    const bool head = v.boolean("vision_use_head", false).value_or(true);

    const std::uint64_t side = image / patch;
    // SiglipVisionEmbeddings: Conv2d(C, h, p, stride p) with bias, and one
    // learned position per patch.
    const std::uint64_t embeddings = h * channels * patch * patch + h + side * side * h;
    // SiglipEncoderLayer: q, k, v, out_proj with biases; layer_norm1/2;
    // SiglipMLP fc1/fc2 with biases.
    const std::uint64_t mlp = linear(h, ffn, true) + linear(ffn, h, true);
    const std::uint64_t layer = 4 * linear(h, h, true) + 2 * layerNorm(h) + mlp;
    // SiglipMultiheadAttentionPoolingHead: probe, nn.MultiheadAttention
    // (packed in_proj 3h x h + 3h, out_proj), LayerNorm, SiglipMLP.
    const std::uint64_t poolingHead = head ? h + 3 * h * h + 3 * h + linear(h, h, true) + layerNorm(h) + mlp : 0;
    const std::uint64_t tower = embeddings + layers * layer + layerNorm(h) + poolingHead;

    // Gemma3MultiModalProjector: mm_input_projection_weight (h x text) and
    // mm_soft_emb_norm; the average pool has no weights.
    const std::uint64_t projector = h * textHidden + rmsNorm(h);
    VisionTower t;
    t.kind = "siglip";
    t.projectorParameters = projector;
    t.parameters = tower + projector;
    // Gemma3Config.mm_tokens_per_image (default 256): the pool's output per
    // image; the processor wraps them in <start_of_image>/<end_of_image>.
    t.tokensPerImage = config.uint("mm_tokens_per_image", 1, kMaxWidth, false).value_or(256);
    t.imageSize = image;
    return t;
}

/// Llama 4: Llama4VisionModel and Llama4MultiModalProjector
/// (modeling_llama4.py). Defaults: Llama4VisionConfig (configuration_llama4.py).
VisionTower readLlama4(JsonReader &v, std::uint64_t textHidden)
{
    const auto [h, ffn, layers, channels, image, patch] = readShape(v, {768, 5632, 34, 3, 448, 14});
    const std::uint64_t adapterIn = width(v, "projector_input_dim", 4096);
    const std::uint64_t adapterOut = width(v, "projector_output_dim", 4096);
    const std::uint64_t output = width(v, "vision_output_dim", 7680);
    const bool projectorBias = v.boolean("multi_modal_projector_bias", false).value_or(false);
    const double shuffle = v.number("pixel_shuffle_ratio", 1e-3, 1.0, false).value_or(0.5);

    const std::uint64_t patches = (image / patch) * (image / patch);
    // Llama4UnfoldConvolution: Linear(C*p*p, h) without bias; class_embedding
    // (h); positional_embedding_vlm ((patches + 1) x h).
    const std::uint64_t embeddings = channels * patch * patch * h + h + (patches + 1) * h;
    // Llama4VisionEncoderLayer: q, k, v, o with biases; Llama4VisionMLP fc1,
    // fc2 with biases; input_layernorm and post_attention_layernorm.
    const std::uint64_t layer = 4 * linear(h, h, true) + linear(h, ffn, true) + linear(ffn, h, true) + 2 * layerNorm(h);
    // Llama4VisionPixelShuffleMLP -> Llama4VisionMLP2: fc1 (intermediate ->
    // projector_input_dim), fc2 (projector_output_dim square), no biases.
    const std::uint64_t adapter = linear(ffn, adapterIn, false) + linear(adapterOut, adapterOut, false);
    const std::uint64_t tower = embeddings + 2 * layerNorm(h) + layers * layer + adapter;
    // Llama4MultiModalProjector: linear_1 (vision_output_dim -> text).
    const std::uint64_t projector = linear(output, textHidden, projectorBias);

    VisionTower t;
    t.kind = "llama4";
    t.projectorParameters = projector;
    t.parameters = tower + projector;
    // One tile: the patch grid, pixel-shuffled by `ratio` in each direction
    // (Llama4VisionPixelShuffleMLP), e.g. 24 x 24 x 0.5^2 = 144. Larger
    // images add tiles of the same size plus a global one (processing_llama4.py).
    t.tokensPerImage = static_cast<std::uint64_t>(std::llround(static_cast<double>(patches) * shuffle * shuffle));
    t.imageSize = image;
    return t;
}

/// Qwen2.5-VL: Qwen2_5_VisionTransformerPretrainedModel and its
/// Qwen2_5_VLPatchMerger (modeling_qwen2_5_vl.py). Defaults:
/// Qwen2_5_VLVisionConfig (configuration_qwen2_5_vl.py).
VisionTower readQwen25Vl(JsonReader &v, const char *kind)
{
    // The class default width is 3584 (not the 1280 every release uses).
    const std::uint64_t h = width(v, "hidden_size", 3584);
    const std::uint64_t ffn = width(v, "intermediate_size", 3420);
    const std::uint64_t layers = depth(v, "depth", 32);
    // Releases before transformers 4.50 spell it in_chans.
    const std::uint64_t channels = width(v, v.has("in_channels") ? "in_channels" : "in_chans", 3);
    const std::uint64_t patch = width(v, "patch_size", 14);
    const std::uint64_t temporal = width(v, "temporal_patch_size", 2);
    const std::uint64_t merge = width(v, "spatial_merge_size", 2);
    const std::uint64_t out = width(v, "out_hidden_size", 3584);

    // Qwen2_5_VisionPatchEmbed: Conv3d(C, h, (t, p, p)) without bias.
    const std::uint64_t embeddings = h * channels * temporal * patch * patch;
    // Qwen2_5_VLVisionBlock: norm1, norm2 (RMSNorm); attn.qkv (h -> 3h) and
    // attn.proj with biases; gated Qwen2_5_VLMLP gate/up/down with biases.
    // EXAONE 4.5's tower (modular_exaone4_5.py Exaone4_5_VisionAttention)
    // is the same with num_key_value_heads: qkv h -> h + 2 x kv heads x head dim.
    const std::uint64_t heads = width(v, "num_heads", 16);
    const std::uint64_t kvWidth = width(v, "num_key_value_heads", heads) * (h / heads);
    const std::uint64_t block = 2 * rmsNorm(h) + linear(h, h + 2 * kvWidth, true) + linear(h, h, true)
                                + 2 * linear(h, ffn, true) + linear(ffn, h, true);
    // Qwen2_5_VLPatchMerger: ln_q (RMSNorm h), then Linear(h*m^2, h*m^2) and
    // Linear(h*m^2, out), both with biases.
    const std::uint64_t merged = h * merge * merge;
    const std::uint64_t projector = rmsNorm(h) + linear(merged, merged, true) + linear(merged, out, true);

    // Qwen2.5-VL's 14-pixel patches: 32 x 32 / 4 = 256 tokens at 448 px.
    return dynamicResolutionTower(kind, embeddings + layers * block + projector, projector, patch, merge);
}

/// Qwen3-VL: Qwen3VLMoeVisionModel and its mergers (modeling_qwen3_vl_moe.py).
/// Defaults: Qwen3VLMoeVisionConfig (configuration_qwen3_vl_moe.py).
/// Qwen3.5 runs the same tower without deepstack mergers
/// (modular_qwen3_5.py Qwen3_5VisionModel deletes deepstack_merger_list,
/// whatever deepstack_visual_indexes says): `deepstackMergers` false.
VisionTower readQwen3Vl(JsonReader &v, bool deepstackMergers)
{
    const std::uint64_t h = width(v, "hidden_size", 1152);
    const std::uint64_t ffn = width(v, "intermediate_size", 4304);
    const std::uint64_t layers = depth(v, "depth", 27);
    const std::uint64_t channels = width(v, "in_channels", 3);
    const std::uint64_t patch = width(v, "patch_size", 16);
    const std::uint64_t temporal = width(v, "temporal_patch_size", 2);
    const std::uint64_t merge = width(v, "spatial_merge_size", 2);
    const std::uint64_t out = width(v, "out_hidden_size", 3584);
    const std::uint64_t positions = width(v, "num_position_embeddings", 2304);
    // deepstack_visual_indexes: one more merger per listed block (default
    // (8, 16, 24)); their outputs are added to the first language-model
    // layers' hidden states, so they add no context tokens.
    std::uint64_t deepstack = deepstackMergers ? 3 : 0;
    if (deepstackMergers && v.has("deepstack_visual_indexes") && v.json().at("deepstack_visual_indexes").is_array())
        deepstack = std::min<std::uint64_t>(v.json().at("deepstack_visual_indexes").size(), kMaxDepth);

    // Qwen3VLMoeVisionPatchEmbed: Conv3d(C, h, (t, p, p)) with bias; pos_embed:
    // nn.Embedding(num_position_embeddings, h), resampled to each image.
    const std::uint64_t embeddings = h * channels * temporal * patch * patch + h + positions * h;
    // Qwen3VLMoeVisionBlock: norm1, norm2 (LayerNorm); attn.qkv (h -> 3h) and
    // attn.proj with biases; Qwen3VLMoeVisionMLP linear_fc1/fc2 with biases.
    const std::uint64_t block =
        2 * layerNorm(h) + linear(h, 3 * h, true) + linear(h, h, true) + linear(h, ffn, true) + linear(ffn, h, true);
    // Qwen3VLMoeVisionPatchMerger: LayerNorm, then linear_fc1 (h*m^2 square)
    // and linear_fc2 (h*m^2 -> out), both with biases. The final merger norms
    // the h-wide patches; the deepstack mergers (use_postshuffle_norm) norm
    // the h*m^2-wide merged ones.
    const std::uint64_t merged = h * merge * merge;
    const std::uint64_t mergerLinears = linear(merged, merged, true) + linear(merged, out, true);
    const std::uint64_t projector = layerNorm(h) + mergerLinears + deepstack * (layerNorm(merged) + mergerLinears);

    // Qwen3-VL's 16-pixel patches: (448/16)^2 / 4 = 196 tokens at 448 px.
    return dynamicResolutionTower("qwen3_vl", embeddings + layers * block + projector, projector, patch, merge);
}

/// Mistral 3: PixtralVisionModel (modeling_pixtral.py) and
/// Mistral3MultiModalProjector (modeling_mistral3.py). Defaults:
/// PixtralVisionConfig (configuration_pixtral.py) and Mistral3Config.
VisionTower readPixtral(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const auto [h, ffn, layers, channels, image, patch] = readShape(v, {1024, 4096, 24, 3, 1024, 16});
    const std::uint64_t merge = width(config, "spatial_merge_size", 2);
    const bool bias = config.boolean("multimodal_projector_bias", false).value_or(false);
    // A list of feature layers concatenates them (Mistral3MultiModalProjector).
    std::uint64_t featureLayers = 1;
    if (config.has("vision_feature_layer") && config.json().at("vision_feature_layer").is_array())
        featureLayers = std::max<std::uint64_t>(1, config.json().at("vision_feature_layer").size());

    // patch_conv: Conv2d(C, h, p) without bias; ln_pre (RMSNorm). No
    // position table: 2D RoPE.
    const std::uint64_t embeddings = h * channels * patch * patch + rmsNorm(h);
    // PixtralAttentionLayer: attention_norm, ffn_norm (RMSNorm); q, k, v, o
    // (h x h, head_dim = h / heads) and gated gate/up/down, no biases.
    const std::uint64_t layer = 2 * rmsNorm(h) + 4 * linear(h, h, false) + 3 * linear(h, ffn, false);
    // norm (RMSNorm h); Mistral3PatchMerger.merging_layer (h*m^2 -> h, no
    // bias); linear_1 (h*features -> text) and linear_2 (text -> text).
    const std::uint64_t projector = rmsNorm(h) + linear(h * merge * merge, h, false)
                                    + linear(h * featureLayers, textHidden, bias) + linear(textHidden, textHidden, bias);

    VisionTower t;
    t.kind = "pixtral";
    t.projectorParameters = projector;
    t.parameters = embeddings + layers * layer + projector;
    // PixtralProcessor: rows of merged patches, each row closed by
    // [IMG_BREAK] (the last by [IMG_END]): n * (n + 1) for n = S / (p * m).
    const std::uint64_t side = image / (patch * merge);
    t.tokensPerImage = side * (side + 1);
    t.imageSize = image;
    return t;
}

/// Gemma 4: Gemma4VisionModel and embed_vision (modeling_gemma4.py,
/// transformers c49429ed; defaults Gemma4VisionConfig): the patch embedder
/// (input_proj, no bias, and a two-axis position table of
/// position_embedding_size), per layer q/k/v/o without biases, per-head
/// q_norm and k_norm, a gated MLP and four RMSNorms; with standardize the
/// std_bias and std_scale vectors; embed_vision.embedding_projection to the
/// text width (its norm has no weight). The clipped linears' scalar bounds
/// are 0-dimensional buffers the checkpoint stores and the model loads:
/// counted (the E2B checkpoint holds 448 in its tower).
VisionTower readGemma4Vision(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const std::uint64_t h = width(v, "hidden_size", 768);
    const std::uint64_t ffn = width(v, "intermediate_size", 3072);
    const std::uint64_t layers = depth(v, "num_hidden_layers", 16);
    const std::uint64_t patch = width(v, "patch_size", 16);
    const std::uint64_t positions = width(v, "position_embedding_size", 10240);
    const std::uint64_t heads = width(v, "num_attention_heads", 12);
    const std::uint64_t kvHeads = width(v, "num_key_value_heads", heads);
    const std::uint64_t headDim = width(v, "head_dim", h / heads);
    const std::uint64_t embeddings = 3 * patch * patch * h + 2 * positions * h;
    // With use_clipped_linears, each of a layer's seven linears
    // (Gemma4ClippableLinear) stores its input and output min and max.
    const std::uint64_t clips = v.boolean("use_clipped_linears", false).value_or(false) ? 7 * 4 : 0;
    const std::uint64_t layer = 2 * heads * headDim * h + 2 * kvHeads * headDim * h + 2 * rmsNorm(headDim)
                                + 3 * linear(h, ffn, false) + 4 * rmsNorm(h) + clips;
    const std::uint64_t standardize = v.boolean("standardize", false).value_or(false) ? 2 * h : 0;
    const std::uint64_t projector = linear(h, textHidden, false);
    VisionTower t;
    t.kind = "gemma4";
    t.projectorParameters = projector;
    t.parameters = embeddings + layers * layer + standardize + projector;
    // Gemma4Config.vision_soft_tokens_per_image: the pooled tokens per image.
    t.tokensPerImage = config.uint("vision_soft_tokens_per_image", 1, kMaxWidth, false)
                           .value_or(v.uint("default_output_length", 1, kMaxWidth, false).value_or(280));
    t.imageSize = 0;
    return t;
}

/// Gemma 4 12B (modeling_gemma4_unified.py Gemma4UnifiedVisionEmbedder):
/// no tower. Patches of (patch_size x pooling_kernel_size)^2 x 3 values
/// are normed (LayerNorm), projected by patch_dense (with bias) to
/// mm_embed_dim, normed, given a two-axis position table of mm_posemb_size,
/// normed again, and projected to the text width (multimodal_embedder).
VisionTower readGemma4UnifiedVision(JsonReader &v, std::uint64_t textHidden)
{
    const std::uint64_t side = width(v, "patch_size", 16) * width(v, "pooling_kernel_size", 3);
    const std::uint64_t patchValues = side * side * 3;
    const std::uint64_t embed = width(v, "mm_embed_dim", 3840);
    const std::uint64_t positions = width(v, "mm_posemb_size", 1120);
    const std::uint64_t out = width(v, "output_proj_dims", embed);
    const std::uint64_t projector = linear(out, textHidden, false);
    VisionTower t;
    t.kind = "gemma4_unified";
    t.projectorParameters = projector;
    t.parameters = layerNorm(patchValues) + linear(patchValues, embed, true) + 2 * layerNorm(embed)
                   + positions * 2 * embed + projector;
    t.tokensPerImage = v.uint("num_soft_tokens", 1, kMaxWidth, false).value_or(280);
    t.imageSize = 0;
    return t;
}

/// LFM2-VL: a SigLIP2 NaFlex tower (modeling_siglip2.py: a linear patch
/// embedding with bias over C x p x p values, num_patches learned
/// positions, SigLIP's encoder layers, post_layernorm; no head when
/// vision_use_head is false) and Lfm2VlMultiModalProjector: pixel unshuffle
/// by downsample_factor, an optional LayerNorm (projector_use_layernorm),
/// linear_1 to projector_hidden_size and linear_2 to the text width.
VisionTower readLfm2Vision(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const auto [h, ffn, layers, channels, image, patch] = readShape(v, {768, 3072, 12, 3, 224, 16});
    const std::uint64_t positions = width(v, "num_patches", 256);
    const std::uint64_t embeddings = linear(channels * patch * patch, h, true) + positions * h;
    const std::uint64_t layer =
        4 * linear(h, h, true) + 2 * layerNorm(h) + linear(h, ffn, true) + linear(ffn, h, true);
    const bool head = v.boolean("vision_use_head", false).value_or(true);
    if (head)
        v.error("vision_use_head", "true (SigLIP2's pooling head) is not modelled for LFM2-VL");
    const std::uint64_t factor = width(config, "downsample_factor", 2);
    const std::uint64_t merged = h * factor * factor;
    const std::uint64_t hidden = width(config, "projector_hidden_size", 2560);
    const bool bias = config.boolean("projector_bias", false).value_or(true);
    const bool norm = config.boolean("projector_use_layernorm", false).value_or(true);
    const std::uint64_t projector =
        (norm ? layerNorm(merged) : 0) + linear(merged, hidden, bias) + linear(hidden, textHidden, bias);
    VisionTower t;
    t.kind = "lfm2_vl";
    t.projectorParameters = projector;
    t.parameters = embeddings + layers * layer + layerNorm(h) + projector;
    // A 512-pixel tile: (512 / 16)^2 patches, unshuffled by 2 x 2.
    t.tokensPerImage = config.uint("max_image_tokens", 1, kMaxWidth, false).value_or(256);
    t.imageSize = config.uint("tile_size", 1, kMaxWidth, false).value_or(512);
    return t;
}

/// MoonViT, Kimi K2.5's and K3's tower (vLLM kimi_k25_vit.py @ 055e47c2
/// MoonViT3dPretrainedModel and KimiK25MultiModalProjector; sglang
/// kimi_k3_vl.py; Moonshot's modeling_kimi_k25.py / modeling_kimi_k3.py):
/// a p x p patch conv over 3 channels (with a bias unless
/// patch_embed_proj_bias is false), a learned Hp x Wp x D position table
/// (Learnable2DInterpPosEmbDivided_fixed; its time table is a sin-cos
/// buffer), L layers of two norms, a fused q/k/v of qkv_hidden_size
/// (default D) and its output (biases unless attn_bias is false), a plain
/// two-layer MLP (biases unless linear_bias is false), a final norm
/// (LayerNorm, or RMSNorm where norm_type says so). The projector merges
/// kh x kw patches: "patchmerger" is a LayerNorm over D and two biased
/// linears to text_hidden_size, "patchmergerv2" two linears without bias
/// and an RMSNorm over the text width.
VisionTower readMoonVit(JsonReader &v, std::uint64_t textHidden)
{
    const std::uint64_t D = width(v, "vt_hidden_size", 1152);
    const std::uint64_t I = width(v, "vt_intermediate_size", 4304);
    const std::uint64_t L = depth(v, "vt_num_hidden_layers", 27);
    const std::uint64_t Q = width(v, "qkv_hidden_size", D);
    const std::uint64_t patch = width(v, "patch_size", 14);
    const std::uint64_t T = width(v, "text_hidden_size", textHidden);
    std::uint64_t merge[2] = {2, 2};
    if (v.has("merge_kernel_size")) {
        const Json &kernel = v.json().at("merge_kernel_size");
        const bool pair = kernel.is_array() && kernel.size() == 2 && kernel[0].is_number_unsigned()
            && kernel[1].is_number_unsigned() && kernel[0].get<std::uint64_t>() == kernel[1].get<std::uint64_t>()
            && kernel[0].get<std::uint64_t>() >= 1 && kernel[0].get<std::uint64_t>() <= 64;
        if (!pair)
            v.error("merge_kernel_size", "expected two equal sizes from 1 to 64 (a square merge)");
        else
            merge[0] = merge[1] = kernel[0].get<std::uint64_t>();
    }
    const std::string normType = v.string("norm_type", false).value_or("layernorm");
    if (normType != "layernorm" && normType != "rmsnorm")
        v.error("norm_type", "expected \"layernorm\" or \"rmsnorm\"");
    const auto norm = [&](std::uint64_t n) { return normType == "rmsnorm" ? rmsNorm(n) : layerNorm(n); };
    const bool patchBias = v.boolean("patch_embed_proj_bias", false).value_or(true);
    const bool attentionBias = v.boolean("attn_bias", false).value_or(true);
    const bool mlpBias = v.boolean("linear_bias", false).value_or(true);
    const std::uint64_t positions = width(v, "init_pos_emb_height", 64) * width(v, "init_pos_emb_width", 64);
    const std::uint64_t embeddings = linear(3 * patch * patch, D, patchBias) + positions * D;
    const std::uint64_t layer =
        2 * norm(D) + linear(D, 3 * Q, attentionBias) + linear(Q, D, attentionBias) + linear(D, I, mlpBias)
        + linear(I, D, mlpBias);
    const std::uint64_t merged = merge[0] * merge[1] * D;
    const std::string projectorType = v.string("mm_projector_type", false).value_or("patchmerger");
    std::uint64_t projector = 0;
    if (projectorType == "patchmerger")
        projector = layerNorm(D) + linear(merged, merged, true) + linear(merged, T, true);
    else if (projectorType == "patchmergerv2")
        projector = linear(merged, merged, false) + linear(merged, T, false) + rmsNorm(T);
    else
        v.error("mm_projector_type", "expected \"patchmerger\" or \"patchmergerv2\"");
    return dynamicResolutionTower("moonvit", embeddings + L * layer + norm(D) + projector, projector, patch,
                                  merge[0]);
}

/// MiniMax-M3's tower (transformers modeling_minimax_m3_vl.py @ 0291279d:
/// MiniMaxM3VLVisionTransformer, MiniMaxM3VLMultiModalProjector,
/// MiniMaxM3VLPatchMerger). Defaults: MiniMaxM3VLVisionConfig and
/// MiniMaxM3VLConfig (configuration_minimax_m3_vl.py @ 01a05aad). The
/// released config writes the merge and temporal patch sizes in
/// img_token_compression_config.
VisionTower readMiniMaxM3Vision(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const auto [h, ffn, layers, channels, image, patch] = readShape(v, {1280, 5120, 32, 3, 2016, 14});
    (void)image; // dynamic resolution: the stand-in image below
    std::optional<JsonReader> compression = v.has("img_token_compression_config")
        ? v.object("img_token_compression_config", false)
        : config.object("img_token_compression_config", false);
    const auto size = [&](const char *key) {
        return v.has(key) ? width(v, key, 2) : compression ? width(*compression, key, 2) : 2;
    };
    const std::uint64_t temporal = size("temporal_patch_size");
    const std::uint64_t merge = size("spatial_merge_size");
    const std::uint64_t projection = width(config, "projector_hidden_size", 6144);
    const bool bias = config.boolean("multimodal_projector_bias", false).value_or(true);
    // MiniMaxM3VLVisionEmbeddings: Conv3d(C, h, (t, p, p)) without bias;
    // pre_layrnorm; CLIP encoder layers (layer_norm1, q/k/v/out_proj with
    // biases, layer_norm2, fc1/fc2 with biases); no post-norm.
    const std::uint64_t embeddings = h * channels * temporal * patch * patch + layerNorm(h);
    const std::uint64_t block = 2 * layerNorm(h) + 4 * linear(h, h, true) + linear(h, ffn, true) + linear(ffn, h, true);
    // The projector (h -> projector_hidden_size -> text hidden), then the
    // merger of merge^2 projected patches (text hidden x merge^2 ->
    // projector_hidden_size -> text hidden).
    const std::uint64_t projector = linear(h, projection, bias) + linear(projection, textHidden, bias)
        + linear(textHidden * merge * merge, projection, true) + linear(projection, textHidden, true);
    return dynamicResolutionTower("minimax_m3_vl", embeddings + layers * block + projector, projector, patch, merge);
}

/// Step3: Step3VisionTransformer and its projector (vLLM step3_vl.py
/// v0.20.1). Defaults: Step3VisionEncoderConfig
/// (transformers_utils/configs/step3_vl.py). A class token and one learned
/// position per patch and for it; a patch Conv2d with bias; per layer
/// qkv_proj and out_proj with biases, fc1/fc2 with biases, two LayerNorms;
/// then vit_downsampler (Conv2d h -> output_hidden_size, kernel 2, with
/// bias), vit_downsampler2 (-> 2 x output_hidden_size, kernel 3, with
/// bias) and vit_large_projector (into the text width, projector_bias).
VisionTower readStep3Vision(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const auto [h, ffn, layers, channels, image, patch] = readShape(v, {1792, 3072, 63, 3, 728, 14});
    const std::uint64_t out = width(v, "output_hidden_size", 4096);
    width(v, "num_attention_heads", 16);
    const std::uint64_t side = image / patch;
    const std::uint64_t embeddings = h + h * channels * patch * patch + h + (side * side + 1) * h;
    const std::uint64_t layer = linear(h, 3 * h, true) + linear(h, h, true) + linear(h, ffn, true)
        + linear(ffn, h, true) + 2 * layerNorm(h);
    const bool projectorBias = config.boolean("projector_bias", false).value_or(true);
    const std::uint64_t projector = h * out * 4 + out + out * 2 * out * 9 + 2 * out
        + linear(2 * out, textHidden, projectorBias);
    VisionTower t;
    t.kind = "step3";
    t.projectorParameters = projector;
    t.parameters = embeddings + layers * layer + projector;
    // Step3VLProcessor: image_token_len tokens for one image of image_size
    // (52 x 52 patches, halved twice by the downsamplers: 169).
    t.tokensPerImage = config.uint("image_token_len", 1, kMaxWidth, false).value_or(169);
    t.imageSize = image;
    return t;
}

/// Step-3.7: its Perception Encoder tower (transformers
/// modeling_step3p7.py Step3p7VisionEncoder, the vision_config's legacy
/// keys width, layers and heads beside hidden_size, num_hidden_layers and
/// num_attention_heads; Step3p7VisionConfig @ 09c24c15 for the defaults):
/// a patch Conv2d without bias, one learned position per patch (and for
/// the class token where use_cls_token), ln_pre (use_ln_pre); per layer
/// ln_1, a packed in_proj (3h x h) and out_proj with biases, ln_2, c_fc
/// and c_proj (h x mlp_ratio) with biases and the two layer scales
/// ls_1, ls_2; ln_post (use_ln_post); then vit_downsampler1 (Conv2d h ->
/// 2h, kernel 3, stride 2) and vit_downsampler2 (2h -> 4h), each with a
/// bias, and vit_large_projector (4h -> text hidden, projector_bias).
VisionTower readStep3p7Vision(JsonReader &config, JsonReader &v, std::uint64_t textHidden)
{
    const std::uint64_t h = width(v, v.has("width") ? "width" : "hidden_size", 1536);
    const std::uint64_t layers = depth(v, v.has("layers") ? "layers" : "num_hidden_layers", 47);
    width(v, v.has("heads") ? "heads" : "num_attention_heads", 16);
    const double ratio = v.number("mlp_ratio", 0.0, 64.0, false).value_or(8960.0 / 1536.0);
    const auto ffn = static_cast<std::uint64_t>(static_cast<double>(h) * ratio); // int(hidden_size * mlp_ratio)
    const std::uint64_t channels = width(v, "num_channels", 3);
    const std::uint64_t image = width(v, "image_size", 728);
    const std::uint64_t patch = width(v, "patch_size", 14);
    const bool cls = v.boolean("use_cls_token", false).value_or(false);
    const bool positions = v.boolean("use_abs_posemb", false).value_or(true);
    const bool lnPre = v.boolean("use_ln_pre", false).value_or(true);
    const bool lnPost = v.boolean("use_ln_post", false).value_or(false);
    const std::uint64_t side = image / patch;
    const std::uint64_t embeddings = h * channels * patch * patch + (cls ? h : 0)
        + (positions ? ((cls ? 1 : 0) + side * side) * h : 0) + (lnPre ? layerNorm(h) : 0);
    const std::uint64_t layer = 2 * layerNorm(h) + linear(h, 3 * h, true) + linear(h, h, true) + linear(h, ffn, true)
        + linear(ffn, h, true) + 2 * h;
    const std::uint64_t downsamplers = linear(h * 9, 2 * h, true) + linear(2 * h * 9, 4 * h, true);
    const std::uint64_t projector = linear(4 * h, textHidden, config.boolean("projector_bias", false).value_or(false));
    VisionTower t;
    t.kind = "step3p7";
    t.projectorParameters = projector;
    t.parameters = embeddings + layers * layer + (lnPost ? layerNorm(h) : 0) + downsamplers + projector;
    // Two stride-2 downsamplers: a 52 x 52 patch grid becomes 13 x 13.
    const std::uint64_t tokensSide = (((side + 1) / 2) + 1) / 2;
    t.tokensPerImage = tokensSide * tokensSide;
    t.imageSize = image;
    return t;
}

} // namespace

std::optional<VisionTower> readVisionTower(JsonReader &config, const std::string &modelType, std::uint64_t textHidden,
                                           std::vector<std::string> &warnings)
{
    std::optional<JsonReader> vision = config.object("vision_config", false);
    if (!vision)
        return std::nullopt;
    if (modelType == "gemma3")
        return readSiglip(config, *vision, textHidden);
    if (modelType == "llama4")
        return readLlama4(*vision, textHidden);
    if (modelType == "qwen2_5_vl")
        return readQwen25Vl(*vision, "qwen2_5_vl");
    if (modelType == "exaone4_5")
        return readQwen25Vl(*vision, "exaone4_5");
    if (modelType == "mistral3")
        return readPixtral(config, *vision, textHidden);
    // modeling_qwen3_vl.py Qwen3VLVisionModel is the MoE model's tower;
    // Qwen3.5 MoE runs Qwen3.5's (modular_qwen3_5_moe.py).
    if (modelType == "qwen3_vl_moe" || modelType == "qwen3_vl")
        return readQwen3Vl(*vision, true);
    if (modelType == "qwen3_5" || modelType == "qwen3_5_moe")
        return readQwen3Vl(*vision, false);
    if (modelType == "gemma4")
        return readGemma4Vision(config, *vision, textHidden);
    if (modelType == "lfm2_vl")
        return readLfm2Vision(config, *vision, textHidden);
    if (modelType == "gemma4_unified")
        return readGemma4UnifiedVision(*vision, textHidden);
    if (modelType == "kimi_k25" || modelType == "kimi_k3")
        return readMoonVit(*vision, textHidden);
    if (modelType == "minimax_m3_vl")
        return readMiniMaxM3Vision(config, *vision, textHidden);
    if (modelType == "step3_vl")
        return readStep3Vision(config, *vision, textHidden);
    if (modelType == "step3p7")
        return readStep3p7Vision(config, *vision, textHidden);

    std::string keys;
    for (const auto &item : vision->json().items())
        keys += (keys.empty() ? "" : ", ") + item.key();
    warnings.push_back(vision->pointer() + ": no vision rules for model_type '" + modelType
                       + "'; image encoder not counted; ignored keys: " + keys);
    return std::nullopt;
}

} // namespace core::io
