#include "core/io/audioconfig.h"

#include <algorithm>
#include <initializer_list>

namespace core::io {

namespace {

constexpr std::uint64_t kMaxWidth = 1ull << 20;
constexpr std::uint64_t kMaxDepth = 1024;

/// The first of `keys` present (Gemma 4's audio config has a current and a
/// Gemma-3n-era spelling of most keys), or `classDefault`.
std::uint64_t firstOf(JsonReader &r, std::initializer_list<const char *> keys, std::uint64_t max,
                      std::uint64_t classDefault)
{
    for (const char *key : keys)
        if (r.has(key))
            return r.uint(key, 1, max, false).value_or(classDefault);
    return classDefault;
}

/// Gemma 4 E2B / E4B (transformers modeling_gemma4.py @ 0246b4f3:
/// Gemma4AudioModel, Gemma4MultimodalEmbedder; convert_gemma4_weights.py
/// @ 0f3f0632): the subsampling projection (two 3 x 3 convolutions of C0
/// and C1 channels without bias, each with a LayerNorm weight, and
/// input_proj_linear from (C0 / 4) x C1 to H); L conformer layers of two
/// feed-forward blocks (H -> 4H -> H with their norms), attention (q, k,
/// v, o, the relative-position projection, per-dimension scales of a head)
/// and a light convolution (linear_start H -> 2H, a depthwise conv of K
/// taps, linear_end), with four clip scalars stored for each of the ten
/// clippable linears where use_clipped_linears; output_proj H -> P with a
/// bias; then embed_audio P -> the text width (its RMSNorm has no weight).
/// The checkpoint of google/gemma-4-E2B-it holds exactly these 752 tensors.
std::uint64_t gemma4Audio(JsonReader &a, std::uint64_t textHidden)
{
    const std::uint64_t H = firstOf(a, {"hidden_size", "conf_hidden_size"}, kMaxWidth, 1536);
    const std::uint64_t L = firstOf(a, {"num_hidden_layers", "conf_num_hidden_layers"}, kMaxDepth, 12);
    const std::uint64_t heads = firstOf(a, {"num_attention_heads", "conf_num_attention_heads"}, kMaxWidth, 8);
    const std::uint64_t K = firstOf(a, {"conv_kernel_size", "conf_conv_kernel_size"}, kMaxWidth, 5);
    const std::uint64_t P = firstOf(a, {"output_proj_dims"}, kMaxWidth, 1536);
    std::uint64_t channels[2] = {128, 32};
    for (const char *key : {"subsampling_conv_channels", "sscp_conv_channel_size"}) {
        if (!a.has(key))
            continue;
        const Json &c = a.json().at(key);
        if (!c.is_array() || c.size() != 2 || !c[0].is_number_unsigned() || !c[1].is_number_unsigned()
            || c[0].get<std::uint64_t>() == 0 || c[1].get<std::uint64_t>() == 0
            || c[0].get<std::uint64_t>() > kMaxWidth || c[1].get<std::uint64_t>() > kMaxWidth)
            a.error(key, "expected two channel counts from 1 to " + std::to_string(kMaxWidth));
        else
            channels[0] = c[0].get<std::uint64_t>(), channels[1] = c[1].get<std::uint64_t>();
        break;
    }
    if (heads == 0 || H % heads != 0)
        a.error("num_attention_heads", "does not divide hidden_size");
    const bool clipped = a.boolean("use_clipped_linears", false).value_or(true);
    const std::uint64_t C0 = channels[0], C1 = channels[1];
    const std::uint64_t subsampling = 9 * C0 + C0 + 9 * C0 * C1 + C1 + H * (C0 / 4 * C1);
    const std::uint64_t layer = 24 * H * H + 9 * H + K * H + H / std::max<std::uint64_t>(1, heads) + (clipped ? 40 : 0);
    return subsampling + L * layer + P * H + P + P * textHidden;
}

/// Voxtral (transformers modular_voxtral.py @ 00aa0f5d: VoxtralEncoder is
/// Qwen2AudioEncoder, a Whisper encoder): conv1 (mel bins -> D, 3 taps)
/// and conv2 (D -> D, 3 taps), each with a bias; the positions' table
/// (max_source_positions x D, kept in fp32); L layers of q, v and o with
/// biases and k without, two LayerNorms, fc1 D -> F and fc2 F -> D with
/// biases; a final LayerNorm. VoxtralMultiModalProjector: linear_1 from F
/// (four frames of D) to the text width and linear_2 text -> text, no
/// biases.
std::uint64_t voxtralAudio(JsonReader &a, std::uint64_t textHidden)
{
    const std::uint64_t D = a.uint("hidden_size", 1, kMaxWidth, true).value_or(1280);
    const std::uint64_t L = a.uint("num_hidden_layers", 1, kMaxDepth, true).value_or(32);
    const std::uint64_t F = a.uint("intermediate_size", 1, kMaxWidth, true).value_or(5120);
    const std::uint64_t mels = a.uint("num_mel_bins", 1, kMaxWidth, false).value_or(128);
    const std::uint64_t positions = a.uint("max_source_positions", 1, kMaxWidth, false).value_or(1500);
    const std::uint64_t convolutions = (mels * D * 3 + D) + (D * D * 3 + D);
    const std::uint64_t layer = 4 * D * D + 3 * D + 4 * D + 2 * D * F + F + D;
    return convolutions + positions * D + L * layer + 2 * D + F * textHidden + textHidden * textHidden;
}

} // namespace

std::optional<std::uint64_t> readAudioEncoder(JsonReader &config, const std::string &modelType,
                                              std::uint64_t textHidden, std::vector<std::string> &warnings)
{
    std::optional<JsonReader> audio = config.object("audio_config", false);
    if (!audio)
        return std::nullopt;
    if (modelType == "gemma4")
        return gemma4Audio(*audio, textHidden);
    if (modelType == "voxtral")
        return voxtralAudio(*audio, textHidden);
    // Gemma 4 12B (modeling_gemma4_unified.py @ 2a4f1d4f: "no audio tower"):
    // raw waveform frames of output_proj_dims samples go straight into
    // embed_audio, one linear to the text width.
    if (modelType == "gemma4_unified")
        return firstOf(*audio, {"output_proj_dims"}, kMaxWidth, 640) * textHidden;
    warnings.push_back(audio->pointer() + ": no audio rules for model_type '" + modelType
                       + "'; audio encoder not counted");
    return std::nullopt;
}

} // namespace core::io
