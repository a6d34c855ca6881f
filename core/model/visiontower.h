#pragma once

#include <cstdint>
#include <string>

namespace core {

/// A multimodal checkpoint's image encoder, as far as memory depends on it.
/// Read from a config.json's `vision_config` by core/io/visionconfig.
struct VisionTower
{
    std::string kind;                      ///< "siglip", "llama4", "qwen2_5_vl", "qwen3_vl", "pixtral", "moonvit", ...
    std::uint64_t parameters = 0;          ///< every tensor of the tower plus the projector
    std::uint64_t projectorParameters = 0; ///< of `parameters`, the projector into the language model
    /// Language-model context positions one square image of `imageSize`
    /// pixels takes: the image's embeddings plus any tokens that grow with
    /// the image (Pixtral's row breaks), not the fixed begin/end markers.
    std::uint64_t tokensPerImage = 0;
    /// Side in pixels of the square image `tokensPerImage` is for: the
    /// config's `image_size` (Llama 4: one tile; Pixtral: the largest side
    /// the processor keeps); Qwen2.5-VL and Qwen3-VL have none, so 448 stands in.
    std::uint64_t imageSize = 0;
};

} // namespace core
