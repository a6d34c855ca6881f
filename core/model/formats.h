#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core {

/// Storage formats for weights (and, where they make sense, the KV cache).
enum class WeightFormat {
    Fp32, Fp16, Bf16, Fp8,
    Int8, Int4,          ///< plain 8 and 4 bits: the seed notes' teaching figures (S2, S12)
    BnbInt8,             ///< bitsandbytes LLM.int8()
    Nf4, Nf4Dq, Fp4,     ///< bitsandbytes 4-bit, with/without double quantisation
    Gptq4, Awq4,
    Int4Group,           ///< compressed-tensors pack-quantized int4, symmetric: a scale per group
    Mxfp4,
    Nvfp4,               ///< NVIDIA ModelOpt NVFP4 checkpoints
    GgufQ8_0, GgufQ6K, GgufQ5KM, GgufQ4KM, GgufQ4_0, GgufQ3KM, GgufQ2K,
    // KV cache formats only, last so that the weight formats keep their places.
    Fp8PerTokenHead,     ///< vLLM fp8_per_token_head: 1 byte + an fp32 scale per token and head
    Int8PerTokenHead,    ///< vLLM int8_per_token_head: 1 byte + an fp32 scale per token and head
    Int4PerTokenHead,    ///< vLLM int4_per_token_head: two values a byte + an fp32 scale per token and head
    TurboquantK8V4,      ///< vLLM turboquant_k8v4: fp8 keys, 4-bit values
    Turboquant4BitNc,    ///< vLLM turboquant_4bit_nc: 4-bit keys and values
    TurboquantK3V4Nc,    ///< vLLM turboquant_k3v4_nc: 3-bit keys, 4-bit values
    Turboquant3BitNc,    ///< vLLM turboquant_3bit_nc: 3-bit keys and values
    // Checkpoint formats only, after them: no weight choice of their own.
    Mxfp8,               ///< OCP MXFP8: FP8 values, an E8M0 scale per 32 (ModelOpt MIXED_PRECISION parts)
};

/// Bits one stored weight costs, split into the value itself and the
/// scales/zero-points that travel with it.
struct FormatBits
{
    double data = 16.0;
    double overhead = 0.0;
    const char *overheadWhat = ""; ///< e.g. "fp32 absmax per 64-weight block"

    double total() const { return data + overhead; }
};

struct FormatInfo
{
    WeightFormat format;
    const char *id;     ///< CLI and file spelling: "nf4-dq"
    const char *label;  ///< human name: "bitsandbytes NF4 + double quant"
    /// Libraries that quantise only nn.Linear layers (bitsandbytes, GPTQ, AWQ,
    /// MXFP4 checkpoints) leave embeddings, lm_head, norms and biases at
    /// 16 bits; plain teaching formats and GGUF files quantise everything.
    bool keepsEmbeddingsUnquantized;
    bool usableForKvCache;
    bool takesGroupSize;
    const char *source;
    /// A KV cache format that holds no weights (vLLM's per-token-head and
    /// TurboQuant formats); the weight choices leave it out.
    bool cacheOnly = false;
    /// A format only a checkpoint's own quantisation config names for some
    /// of its modules (MXFP8 beside NVFP4 experts); no weight choice either.
    bool checkpointOnly = false;
};

const std::vector<FormatInfo> &allFormats();
const FormatInfo &formatInfo(WeightFormat format);
std::optional<WeightFormat> parseFormat(const std::string &id);
/// A format weights can be stored in: parseFormat without the KV-cache-only ones.
std::optional<WeightFormat> parseWeightFormat(const std::string &id);

/// Bits per weight for a linear layer with `inFeatures` inputs.
/// `groupSize` matters for GPTQ/AWQ only.
FormatBits formatBits(WeightFormat format, int groupSize, double inFeatures);

/// Bytes of one element when used as a compute/storage dtype for
/// activations or the KV cache (fp32 4, 16-bit 2, fp8/int8 1, int4 0.5).
double elementBytes(WeightFormat format);

/// Bytes the KV cache spends per cached element in `format`, scales
/// included, for heads of `headDim` elements: a per-token-head format adds
/// one fp32 scale per head of each token (vLLM AttentionSpec.page_size_bytes),
/// 4 / headDim bytes an element; NVFP4 packs head/2 bytes of values and
/// head/16 of E4M3 scales (nvfp4_kv_cache_full_dim), 0.5625; the others
/// as elementBytes. TurboQuant packs a token's key and value of one head
/// in one slot (turboquant/config.py): keys in fp8 (k8) or key_bits with an
/// fp16 norm, values in value_bits with an fp16 scale and zero point.
double cacheElementBytes(WeightFormat format, std::uint64_t headDim);

/// vLLM's TurboQuant KV formats, whose first and last two layers of a model
/// without recurrent layers keep the model's dtype.
bool isTurboquant(WeightFormat format);

/// bitsandbytes' 4-bit formats (Linear4bit: nf4, fp4, and nf4 with double quantisation).
bool isBitsandbytes4Bit(WeightFormat format);

/// True for fp32/fp16/bf16: formats that hold unquantised weights.
bool isFloatFormat(WeightFormat format);
/// A llama.cpp GGUF quantisation type: only a ggml runtime runs it as stored.
bool isGgufFormat(WeightFormat format);

} // namespace core
