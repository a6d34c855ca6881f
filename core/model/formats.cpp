#include "core/model/formats.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {
const char *const kBnbDocs = "bitsandbytes docs, https://huggingface.co/docs/bitsandbytes";
const char *const kGgufSource = "llama.cpp ggml/src/ggml-common.h block structs; tools/quantize/README.md";
const char *const kTurboquant =
    "vLLM model_executor/layers/quantization/turboquant/config.py (1471680) TQ_PRESETS and slot_size, "
    "v1/kv_cache_interface.py TQFullAttentionSpec (v0.20.0, PR 38479)";
const char *const kVllmPerTokenHead =
    "vLLM vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes (001cabc): the values (1 byte, or two a "
    "byte for int4), and one fp32 scale per token and KV head for K and for V, carved from the KV cache";
} // namespace

const std::vector<FormatInfo> &allFormats()
{
    static const std::vector<FormatInfo> formats = {
        {WeightFormat::Fp32, "fp32", "fp32", false, true, false, "IEEE 754 binary32: 4 bytes"},
        {WeightFormat::Fp16, "fp16", "fp16", false, true, false, "IEEE 754 binary16: 2 bytes"},
        {WeightFormat::Bf16, "bf16", "bf16", false, true, false, "bfloat16: 2 bytes"},
        {WeightFormat::Fp8, "fp8", "fp8 (E4M3)", false, true, false,
         "Micikevicius et al. 2022, FP8 Formats for Deep Learning; 1 byte, per-tensor scale"},
        {WeightFormat::Int8, "int8", "int8 (plain 8-bit)", false, true, false, "seed notes S2: 1 byte per parameter"},
        {WeightFormat::Int4, "int4", "int4 (plain 4-bit)", false, true, false, "seed notes S2: 0.5 byte per parameter"},
        {WeightFormat::BnbInt8, "bnb-int8", "bitsandbytes LLM.int8()", true, false, false,
         "Dettmers et al. 2022, LLM.int8() §3; Int8Params keeps one fp32 scale (SCB) per output row"},
        {WeightFormat::Nf4, "nf4", "bitsandbytes NF4", true, false, false,
         "Dettmers et al. 2023, QLoRA §3: blocksize 64, fp32 absmax"},
        {WeightFormat::Nf4Dq, "nf4-dq", "bitsandbytes NF4 + double quant", true, false, false,
         "Dettmers et al. 2023, QLoRA §3: 8/64 + 32/(64*256) = 0.127 bit/param of constants"},
        {WeightFormat::Fp4, "fp4", "bitsandbytes FP4", true, false, false, kBnbDocs},
        {WeightFormat::Gptq4, "gptq-4bit", "GPTQ 4-bit", true, false, true,
         "Frantar et al. 2023, GPTQ; AutoGPTQ packing: fp16 scale + 4-bit zero per group, int32 g_idx per input row"},
        {WeightFormat::Awq4, "awq-4bit", "AWQ 4-bit", true, false, true,
         "Lin et al. 2024, AWQ; GEMM packing: fp16 scale + 4-bit zero per group"},
        {WeightFormat::Int4Group, "int4-group", "int4 + group scale (compressed-tensors)", true, false, true,
         "compressed-tensors pack-quantized: eight int4 values per int32 (weight_packed), one 16-bit scale per "
         "group (weight_scale), no zero point when symmetric"},
        {WeightFormat::Mxfp4, "mxfp4", "MXFP4", true, false, false,
         "OCP Microscaling Formats (MX) v1.0 §5: 32 FP4 values share one 8-bit E8M0 scale"},
        {WeightFormat::Nvfp4, "nvfp4", "NVFP4", true, true, false,
         "NVIDIA, Introducing NVFP4 (2025) and TensorRT Model Optimizer: E2M1 values, one FP8 E4M3 scale per "
         "16 values and one fp32 scale per tensor; as a KV cache, vLLM's packed head of head/2 value bytes and "
         "head/16 scale bytes (vllm/utils/torch_utils.py nvfp4_kv_cache_full_dim)"},
        {WeightFormat::GgufQ8_0, "gguf-q8_0", "GGUF Q8_0", false, true, false, kGgufSource},
        {WeightFormat::GgufQ6K, "gguf-q6_k", "GGUF Q6_K", false, false, false, kGgufSource},
        {WeightFormat::GgufQ5KM, "gguf-q5_k_m", "GGUF Q5_K_M", false, false, false, kGgufSource},
        {WeightFormat::GgufQ4KM, "gguf-q4_k_m", "GGUF Q4_K_M", false, false, false, kGgufSource},
        {WeightFormat::GgufQ4_0, "gguf-q4_0", "GGUF Q4_0", false, true, false, kGgufSource},
        {WeightFormat::GgufQ3KM, "gguf-q3_k_m", "GGUF Q3_K_M", false, false, false, kGgufSource},
        {WeightFormat::GgufQ2K, "gguf-q2_k", "GGUF Q2_K", false, false, false, kGgufSource},
        {WeightFormat::Fp8PerTokenHead, "fp8-per-token-head", "fp8, a scale per token and head (KV cache)", false, true,
         false, kVllmPerTokenHead, true},
        {WeightFormat::Int8PerTokenHead, "int8-per-token-head", "int8, a scale per token and head (KV cache)", false,
         true, false, kVllmPerTokenHead, true},
        {WeightFormat::Int4PerTokenHead, "int4-per-token-head", "int4, a scale per token and head (KV cache)", false,
         true, false, kVllmPerTokenHead, true},
        {WeightFormat::TurboquantK8V4, "turboquant-k8v4", "TurboQuant fp8 keys, 4-bit values (KV cache)", false, true,
         false, kTurboquant, true},
        {WeightFormat::Turboquant4BitNc, "turboquant-4bit-nc", "TurboQuant 4-bit keys and values (KV cache)", false,
         true, false, kTurboquant, true},
        {WeightFormat::TurboquantK3V4Nc, "turboquant-k3v4-nc", "TurboQuant 3-bit keys, 4-bit values (KV cache)", false,
         true, false, kTurboquant, true},
        {WeightFormat::Turboquant3BitNc, "turboquant-3bit-nc", "TurboQuant 3-bit keys and values (KV cache)", false,
         true, false, kTurboquant, true},
        {WeightFormat::Mxfp8, "mxfp8", "MXFP8", true, false, false,
         "OCP Microscaling Formats (MX) v1.0 §5: 32 FP8 E4M3 values share one 8-bit E8M0 scale", false, true},
    };
    return formats;
}

const FormatInfo &formatInfo(WeightFormat format)
{
    return findByValue(allFormats(), &FormatInfo::format, format);
}

std::optional<WeightFormat> parseFormat(const std::string &id)
{
    return parseById(allFormats(), &FormatInfo::format, id);
}

FormatBits formatBits(WeightFormat format, int groupSize, double inFeatures)
{
    const double g = groupSize > 0 ? groupSize : 128;
    switch (format) {
    case WeightFormat::Fp32:
        return {32, 0, ""};
    case WeightFormat::Fp16:
    case WeightFormat::Bf16:
        return {16, 0, ""};
    case WeightFormat::Fp8:
        return {8, 0, QT_TRANSLATE_NOOP("Derivation", "one fp32 scale per tensor (negligible)")};
    case WeightFormat::Int8:
        return {8, 0, QT_TRANSLATE_NOOP("Derivation", "none (teaching figure)")};
    case WeightFormat::Int4:
        return {4, 0, QT_TRANSLATE_NOOP("Derivation", "none (teaching figure)")};
    case WeightFormat::BnbInt8:
        return {8, inFeatures > 0 ? 32.0 / inFeatures : 0, QT_TRANSLATE_NOOP("Derivation", "one fp32 scale per output row")};
    case WeightFormat::Nf4:
    case WeightFormat::Fp4:
        return {4, 32.0 / 64.0, QT_TRANSLATE_NOOP("Derivation", "fp32 absmax per 64-weight block")};
    case WeightFormat::Nf4Dq:
        return {4, 8.0 / 64.0 + 32.0 / (64.0 * 256.0), QT_TRANSLATE_NOOP("Derivation", "fp8 absmax per 64 weights + fp32 per 256 blocks")};
    case WeightFormat::Gptq4:
        // g_idx: one int32 per input row, i.e. 32/out_features bits per weight;
        // out_features is taken as the input width (square-ish layers).
        return {4, (16.0 + 4.0) / g + (inFeatures > 0 ? 32.0 / inFeatures : 0),
                QT_TRANSLATE_NOOP("Derivation", "fp16 scale + 4-bit zero per group, int32 g_idx per row")};
    case WeightFormat::Awq4:
        return {4, (16.0 + 4.0) / g, QT_TRANSLATE_NOOP("Derivation", "fp16 scale + 4-bit zero per group")};
    case WeightFormat::Int4Group:
        return {4, 16.0 / g, QT_TRANSLATE_NOOP("Derivation", "16-bit scale per group")};
    case WeightFormat::Mxfp4:
        return {4, 8.0 / 32.0, QT_TRANSLATE_NOOP("Derivation", "E8M0 scale per 32-weight block")};
    case WeightFormat::Nvfp4:
        return {4, 8.0 / 16.0, QT_TRANSLATE_NOOP("Derivation", "FP8 E4M3 scale per 16-weight block")};
    case WeightFormat::Mxfp8:
        return {8, 8.0 / 32.0, QT_TRANSLATE_NOOP("Derivation", "E8M0 scale per 32-weight block")};
    // GGUF: whole-file bits per weight of llama.cpp's mixes (token embeddings
    // and output included), tools/quantize/README.md for Llama-3.1-8B; Q4_0
    // and Q8_0 are single-type blocks of 32 with an fp16 scale.
    case WeightFormat::GgufQ8_0:
        return {8, 0.5, QT_TRANSLATE_NOOP("Derivation", "fp16 scale per 32-weight block")};
    case WeightFormat::GgufQ6K:
        return {6, 0.5633, QT_TRANSLATE_NOOP("Derivation", "K-quant super-block scales (whole-file average)")};
    case WeightFormat::GgufQ5KM:
        return {5, 0.7036, QT_TRANSLATE_NOOP("Derivation", "K-quant scales + Q6_K tensors in the mix (whole-file average)")};
    case WeightFormat::GgufQ4KM:
        return {4, 0.8944, QT_TRANSLATE_NOOP("Derivation", "K-quant scales + Q6_K tensors in the mix (whole-file average)")};
    case WeightFormat::GgufQ4_0:
        return {4, 0.5, QT_TRANSLATE_NOOP("Derivation", "fp16 scale per 32-weight block")};
    case WeightFormat::GgufQ3KM:
        // Llama-2-7B whole-file figure (older quantize README): 3.91 bpw.
        return {3, 0.91, QT_TRANSLATE_NOOP("Derivation", "K-quant scales + higher-precision tensors in the mix (whole-file average)")};
    case WeightFormat::GgufQ2K:
        return {2, 1.1593, QT_TRANSLATE_NOOP("Derivation", "K-quant scales + higher-precision tensors in the mix (whole-file average)")};
    case WeightFormat::Fp8PerTokenHead:
    case WeightFormat::Int8PerTokenHead:
        return {8, 0, QT_TRANSLATE_NOOP("Derivation", "an fp32 scale per token and head")};
    case WeightFormat::Int4PerTokenHead:
        return {4, 0, QT_TRANSLATE_NOOP("Derivation", "an fp32 scale per token and head")};
    case WeightFormat::TurboquantK8V4:
        return {6, 0, QT_TRANSLATE_NOOP("Derivation", "fp16 norms, scales and zero points per token and head")};
    case WeightFormat::Turboquant4BitNc:
        return {4, 0, QT_TRANSLATE_NOOP("Derivation", "fp16 norms, scales and zero points per token and head")};
    case WeightFormat::TurboquantK3V4Nc:
        return {3.5, 0, QT_TRANSLATE_NOOP("Derivation", "fp16 norms, scales and zero points per token and head")};
    case WeightFormat::Turboquant3BitNc:
        return {3, 0, QT_TRANSLATE_NOOP("Derivation", "fp16 norms, scales and zero points per token and head")};
    }
    return {16, 0, ""};
}

double elementBytes(WeightFormat format)
{
    switch (format) {
    case WeightFormat::Fp32:
        return 4;
    case WeightFormat::Fp16:
    case WeightFormat::Bf16:
        return 2;
    case WeightFormat::Fp8:
    case WeightFormat::Int8:
    case WeightFormat::Fp8PerTokenHead:
    case WeightFormat::Int8PerTokenHead:
        return 1;
    case WeightFormat::Int4:
        return 0.5;
    default:
        return formatBits(format, 128, 4096).total() / 8.0;
    }
}

std::optional<WeightFormat> parseWeightFormat(const std::string &id)
{
    const auto f = parseFormat(id);
    return f && !formatInfo(*f).cacheOnly ? f : std::nullopt;
}

double cacheElementBytes(WeightFormat format, std::uint64_t headDim)
{
    const double d = static_cast<double>(std::max<std::uint64_t>(1, headDim));
    // A TurboQuant slot: the key (fp8, or bits packed with an fp16 norm)
    // and the value (bits packed with an fp16 scale and zero point).
    const auto slot = [d](double keyBits, double valueBits) {
        const double key = keyBits == 8 ? d : std::ceil(d * keyBits / 8.0) + 2.0;
        return (key + std::ceil(d * valueBits / 8.0) + 4.0) / (2.0 * d);
    };
    switch (format) {
    case WeightFormat::Fp8PerTokenHead:
    case WeightFormat::Int8PerTokenHead:
        return 1.0 + 4.0 / d;
    case WeightFormat::Int4PerTokenHead:
        return 0.5 + 4.0 / d;
    case WeightFormat::TurboquantK8V4:
        return slot(8, 4);
    case WeightFormat::Turboquant4BitNc:
        return slot(4, 4);
    case WeightFormat::TurboquantK3V4Nc:
        return slot(3, 4);
    case WeightFormat::Turboquant3BitNc:
        return slot(3, 3);
    default:
        return elementBytes(format);
    }
}

bool isTurboquant(WeightFormat format)
{
    return format == WeightFormat::TurboquantK8V4 || format == WeightFormat::Turboquant4BitNc
        || format == WeightFormat::TurboquantK3V4Nc || format == WeightFormat::Turboquant3BitNc;
}

bool isBitsandbytes4Bit(WeightFormat f)
{
    return f == WeightFormat::Nf4 || f == WeightFormat::Nf4Dq || f == WeightFormat::Fp4;
}

bool isFloatFormat(WeightFormat format)
{
    return format == WeightFormat::Fp32 || format == WeightFormat::Fp16 || format == WeightFormat::Bf16;
}

bool isGgufFormat(WeightFormat format)
{
    switch (format) {
    case WeightFormat::GgufQ8_0:
    case WeightFormat::GgufQ6K:
    case WeightFormat::GgufQ5KM:
    case WeightFormat::GgufQ4KM:
    case WeightFormat::GgufQ4_0:
    case WeightFormat::GgufQ3KM:
    case WeightFormat::GgufQ2K:
        return true;
    default:
        return false;
    }
}

} // namespace core
