#pragma once

#include "core/base/translatable.h"
#include "core/memory/formula.h"
#include "core/memory/terms.h"

// Every string a derivation shows: the symbols with their units and
// meanings, the names of the parts of a sum, the notes on which case of a
// rule applied, and the sources, gathered per term so that a translation
// pass can give each an id. English only; the engine never formats them.

namespace core::text {

/// The symbol a term's own formula defines ("KV", "W"), in TermId order.
inline const Symbol &termSymbol(TermId id)
{
    static constexpr Symbol kSymbols[] = {
        {"W", "B", QT_TRANSLATE_NOOP("Derivation", "weights")},
        {"W_LoRA", "B", QT_TRANSLATE_NOOP("Derivation", "LoRA adapters")},
        {"M", "B", QT_TRANSLATE_NOOP("Derivation", "fp32 master weights")},
        {"G", "B", QT_TRANSLATE_NOOP("Derivation", "gradients")},
        {"S", "B", QT_TRANSLATE_NOOP("Derivation", "optimizer states")},
        {"A", "B", QT_TRANSLATE_NOOP("Derivation", "activations saved for backward")},
        {"Logits", "B", QT_TRANSLATE_NOOP("Derivation", "logits and loss")},
        {"KV", "B", QT_TRANSLATE_NOOP("Derivation", "KV cache")},
        {"WS", "B", QT_TRANSLATE_NOOP("Derivation", "workspace: transient tensors")},
        {"Gather", "B", QT_TRANSLATE_NOOP("Derivation", "ZeRO-3 gather buffer")},
        {"NCCL", "B", QT_TRANSLATE_NOOP("Derivation", "NCCL buffers")},
        {"CUDA", "B", QT_TRANSLATE_NOOP("Derivation", "CUDA context")},
        {"R", "B", QT_TRANSLATE_NOOP("Derivation", "allocator reserve")},
    };
    static_assert(sizeof kSymbols / sizeof kSymbols[0] == kTermCount);
    return kSymbols[static_cast<std::size_t>(id)];
}

// --- used by several terms ---
namespace shared {
inline constexpr Symbol kBatch{"b", "", QT_TRANSLATE_NOOP("Derivation", "micro-batch size")};
inline constexpr Symbol kBeams{"n", "", QT_TRANSLATE_NOOP("Derivation", "sequences generated per prompt: beams or samples")};
inline constexpr Symbol kSequence{"s", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "sequence length")};
inline constexpr Symbol kVocab{"V", "", QT_TRANSLATE_NOOP("Derivation", "vocabulary size")};
inline constexpr Symbol kHidden{"h", "", QT_TRANSLATE_NOOP("Derivation", "hidden size")};
inline constexpr Symbol kHeads{"a", "", QT_TRANSLATE_NOOP("Derivation", "attention heads")};
inline constexpr Symbol kQueryWidth{"h_q", "", QT_TRANSLATE_NOOP("Derivation", "query width: heads x head_dim")};
inline constexpr Symbol kKeyValueWidth{"h_kv", "", QT_TRANSLATE_NOOP("Derivation", "key/value width: kv_heads x head_dim")};
inline constexpr Symbol kKvHeads{"n_kv", "", QT_TRANSLATE_NOOP("Derivation", "key-value heads")};
inline constexpr Symbol kKvHeadsHere{"n_kv,rank", "", QT_TRANSLATE_NOOP("Derivation", "key-value heads on this rank: ceil(kv_heads / t), at least 1")};
inline constexpr Symbol kHeadDim{"d", "", QT_TRANSLATE_NOOP("Derivation", "head dimension")};
inline constexpr Symbol kKeyAndValue{"2", "", QT_TRANSLATE_NOOP("Derivation", "K and V")};
inline constexpr Symbol kIntermediate{"I", "", QT_TRANSLATE_NOOP("Derivation", "MLP intermediate size (of one expert in an MoE layer)")};
inline constexpr Symbol kExpertsRun{"k", "", QT_TRANSLATE_NOOP("Derivation", "experts each token runs through (routed top-k plus shared)")};
inline constexpr Symbol kFp32Bytes{"4", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an fp32 element")};
inline constexpr Symbol kActivationBytes{"e", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an activation element")};
inline constexpr Symbol kTp{"t", "", QT_TRANSLATE_NOOP("Derivation", "tensor-parallel ranks")};
inline constexpr Symbol kDp{"N", "", QT_TRANSLATE_NOOP("Derivation", "data-parallel ranks ZeRO/FSDP shards over")};
inline constexpr Symbol kLayersHere{"L_rank", "", QT_TRANSLATE_NOOP("Derivation", "decoder layers on this rank")};
inline constexpr Symbol kParams{"P", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the model")};
inline constexpr Symbol kTrainableParams{"P_train", "", QT_TRANSLATE_NOOP("Derivation", "parameters that train")};
inline constexpr Symbol kModelWeights{"W_model", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of the whole model")};
inline constexpr Symbol kRankShare{"f", "", QT_TRANSLATE_NOOP("Derivation", "this rank's share of the parameters")};
inline constexpr Symbol kWeightShare{"f_w", "", QT_TRANSLATE_NOOP("Derivation", "this rank's share of the weight bytes")};
inline constexpr Symbol kAdapterShare{"f_A", "", QT_TRANSLATE_NOOP("Derivation", "this rank's share of the adapters: its layers' share / t")};
inline constexpr Symbol kLargestLayer{"P_layer", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the largest layer (or embedding table)")};
inline constexpr Symbol kLmHeadParams{"P_head", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the lm_head")};
inline constexpr Symbol kLogitsElementBytes{"c", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per logits element: the tensors alive together")};
inline constexpr Symbol kBatchedTokens{"T", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "vLLM max_num_batched_tokens")};
inline constexpr const char *kWhyStatesOffloaded =
    QT_TRANSLATE_NOOP("Derivation", "ZeRO-Offload keeps the fp32 master weights and optimizer states in host memory and steps on the CPU");
} // namespace shared

// --- this rank's share of the model (tp, pp, ep) ---
namespace rank {
inline constexpr Symbol kLayers{"L", "", QT_TRANSLATE_NOOP("Derivation", "decoder layers of the model")};
inline constexpr Symbol kLayerShare{"f_L", "", QT_TRANSLATE_NOOP("Derivation", "this rank's share of the decoder layers")};
inline constexpr Symbol kParamsHere{"P_rank", "", QT_TRANSLATE_NOOP("Derivation", "parameters on this rank before tensor parallelism")};
inline constexpr Symbol kLayerParams{"P_layers", "", QT_TRANSLATE_NOOP("Derivation", "parameters of all decoder layers, experts excepted")};
inline constexpr Symbol kExpertParams{"P_experts", "", QT_TRANSLATE_NOOP("Derivation", "parameters of all routed experts")};
inline constexpr Symbol kEp{"ep", "", QT_TRANSLATE_NOOP("Derivation", "expert-parallel ranks")};
inline constexpr Symbol kEmbeddingParams{"P_embed", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the embedding tables")};
inline constexpr Symbol kEndParams{"P_ends", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the embeddings and the lm_head")};
inline constexpr Symbol kStages{"p", "", QT_TRANSLATE_NOOP("Derivation", "pipeline stages: micro-batches the first stage holds (1F1B)")};
inline constexpr Symbol kInterleaveWarmup{"g", "", QT_TRANSLATE_NOOP("Derivation", "interleaving's extra warm-up: 1 + (p - 1) / (p x v)")};
inline constexpr const char *kPartLayers = QT_TRANSLATE_NOOP("Derivation", "decoder layers here");
inline constexpr const char *kPartExperts = QT_TRANSLATE_NOOP("Derivation", "this rank's experts");
inline constexpr const char *kPartEmbedding = QT_TRANSLATE_NOOP("Derivation", "embedding (first stage)");
inline constexpr const char *kPartLmHead = QT_TRANSLATE_NOOP("Derivation", "lm_head (last stage)");
inline constexpr const char *kPartEnds = QT_TRANSLATE_NOOP("Derivation", "embedding and lm_head");
inline constexpr Symbol kReplicatedParams{"P_repl", "", QT_TRANSLATE_NOOP("Derivation", "parameters every tensor-parallel rank holds whole: routers, norms, MLA's down-projections, the sparse-attention indexer")};
inline constexpr Symbol kKeyValueParams{"P_kv", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the key and value projections")};
inline constexpr Symbol kKeyValueSplit{"h_kv", "", QT_TRANSLATE_NOOP("Derivation", "key-value heads of the layer kind, fewer than t: each held by t / h_kv ranks")};
inline constexpr const char *kPartReplicated = QT_TRANSLATE_NOOP("Derivation", "replicated on every rank");
inline constexpr Symbol kBytesHere{"B_rank", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes on this rank before tensor parallelism")};
inline constexpr Symbol kLayerBytes{"B_layers", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of all decoder layers, experts excepted")};
inline constexpr Symbol kExpertBytes{"B_experts", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of all routed experts")};
inline constexpr Symbol kEmbeddingBytes{"B_embed", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of the embedding tables")};
inline constexpr Symbol kLmHeadBytes{"B_head", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of the lm_head")};
inline constexpr Symbol kEndBytes{"B_ends", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of the embeddings and the lm_head")};
inline constexpr Symbol kReplicatedBytes{"B_repl", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes every tensor-parallel rank holds whole: routers, norms, MLA's down-projections, the sparse-attention indexer")};
inline constexpr Symbol kKeyValueBytes{"B_kv", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of the key and value projections")};
inline constexpr const char *kWhyShareOfBytes = QT_TRANSLATE_NOOP("Derivation", "a share of the bytes, not of the parameters: the format's layers and the unquantised tables and norms each at their own width");
inline constexpr const char *kPartKeyValue = QT_TRANSLATE_NOOP("Derivation", "key and value projections");
inline constexpr const char *kFromReplicated =
    "vLLM vllm/model_executor/layers/linear.py (ReplicatedLinear; QKVParallelLinear num_kv_head_replicas), "
    "models/deepseek_v2.py (MLA's q_a_proj and kv_a_proj_with_mqa, Indexer); SGLang alike";
inline constexpr const char *kWhyPipeline = QT_TRANSLATE_NOOP("Derivation", "pipeline parallelism: ceil(L / p) layers on each stage");
inline constexpr const char *kWhyDeviceMap = QT_TRANSLATE_NOOP("Derivation", "device_map=\"auto\": ceil(L / GPUs) layers on each GPU");
inline constexpr const char *kFromSplit =
    "Shoeybi et al. 2019 (Megatron-LM) §3; Narayanan et al. 2021 §2 (pipeline stages)";
inline constexpr const char *kFromInFlight = "Korthikanti et al. 2022, arXiv:2205.05198 §4.2.3 (1F1B in flight)";
} // namespace rank

// --- weights ---
namespace weights {
inline constexpr Symbol kCheckpointBytes{"B_file", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of this dtype's tensors, from the checkpoint's tensor table")};
inline constexpr const char *kWhyCheckpointBytes = QT_TRANSLATE_NOOP("Derivation", "read from the checkpoint on disk: the exact bytes the loader reads, by dtype");
inline constexpr Symbol kMtpBytes{"B_mtp", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of the multi-token-prediction layers in the files")};
inline constexpr const char *kPartMtp = QT_TRANSLATE_NOOP("Derivation", "MTP layers");
inline constexpr const char *kWhyMtpSkipped = QT_TRANSLATE_NOOP("Derivation", "the multi-token-prediction layers in the files are not loaded");
inline constexpr const char *kFromSafetensorsTable = "safetensors format: 8-byte header length, JSON tensor table with dtype, shape, data_offsets (huggingface/safetensors README)";
inline constexpr const char *kFromGgufTable = "GGUF tensor infos with ggml type sizes (ggml docs/gguf.md; ggml.c type_traits)";
inline constexpr Symbol kWeightBytes{"b_w", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a 16-bit (or fp32) weight")};
inline constexpr Symbol kQuantizedParams{"P_q", "", QT_TRANSLATE_NOOP("Derivation", "parameters stored in the weight format")};
inline constexpr Symbol kBitsPerWeight{"bpw", QT_TRANSLATE_NOOP("Derivation", "bits"), QT_TRANSLATE_NOOP("Derivation", "bits per stored weight")};
inline constexpr Symbol kValueBits{"bits", QT_TRANSLATE_NOOP("Derivation", "bits"), QT_TRANSLATE_NOOP("Derivation", "bits of the value itself")};
inline constexpr Symbol kScaleBits{"bits_scale", QT_TRANSLATE_NOOP("Derivation", "bits"), QT_TRANSLATE_NOOP("Derivation", "scales and zero-points per weight")};
inline constexpr Symbol kBitsPerByte{"8", QT_TRANSLATE_NOOP("Derivation", "bits/B"), QT_TRANSLATE_NOOP("Derivation", "bits per byte")};
inline constexpr Symbol kUnquantizedParams{"P_rest", "", QT_TRANSLATE_NOOP("Derivation", "embeddings, norms, biases (and usually lm_head), unquantised")};
inline constexpr Symbol kUnquantizedBytes{"b_rest", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an unquantised parameter")};
inline constexpr const char *kPartQuantized = QT_TRANSLATE_NOOP("Derivation", "quantised weights");
inline constexpr const char *kPartUnquantized = QT_TRANSLATE_NOOP("Derivation", "unquantised weights");
inline constexpr Symbol kRestParams{"P_lin", "", QT_TRANSLATE_NOOP("Derivation", "the layers' other linear weights, in the checkpoint's second format")};
inline constexpr const char *kPartRestFormat = QT_TRANSLATE_NOOP("Derivation", "other linear weights");
inline constexpr const char *kWhyRestFormat = QT_TRANSLATE_NOOP("Derivation", "the checkpoint ships its other linear weights in a second quantised format (DeepSeek-V4: block fp8 beside MXFP4 experts)");
inline constexpr const char *kPartValueBits = QT_TRANSLATE_NOOP("Derivation", "value");
inline constexpr const char *kWhyKbitUpcast =
    QT_TRANSLATE_NOOP("Derivation", "b_rest = 4: PEFT prepare_model_for_kbit_training casts the unquantised weights to fp32");
inline constexpr const char *kWhyParamsOffloaded =
    QT_TRANSLATE_NOOP("Derivation", "ZeRO-Infinity keeps the parameters in host memory and gathers a layer at a time");
inline constexpr const char *kFromZeroModelStates = "Rajbhandari et al. 2020 (ZeRO) §III-A";
// What an engine that measures its weights by the free memory counts as weights.
inline constexpr const char *kPartSegmentTails = QT_TRANSLATE_NOOP("Derivation", "caching allocator's segment tails");
inline constexpr Symbol kSegmentTails{"B_tails", "B", QT_TRANSLATE_NOOP("Derivation", "the caching allocator's segments on this rank less the tensors in them")};
inline constexpr Symbol kRotaryCacheBytes{"B_rope", "B", QT_TRANSLATE_NOOP("Derivation", "the rotary cos/sin cache")};
inline constexpr Symbol kSegmentsReserved{"B_seg", "B", QT_TRANSLATE_NOOP("Derivation", "the caching allocator's segments once this rank's weight tensors and rotary cache are allocated, in the order the model builds them")};
inline constexpr Symbol kTensorsHeld{"B_t", "B", QT_TRANSLATE_NOOP("Derivation", "this rank's weight tensors, q/k/v, gate/up and each layer's experts fused")};
inline constexpr Symbol kLess{"-1", "", QT_TRANSLATE_NOOP("Derivation", "less")};
inline constexpr const char *kWhySegmentTails = QT_TRANSLATE_NOOP("Derivation", "the engine measures its weights with the driver's free memory after emptying the cache: the unused tails of the segments the tensors share count as weights (tensors of 1 to 10 MiB take 20 MiB segments, larger ones round up to 2 MiB, those up to 1 MiB share 2 MiB)");
inline constexpr const char *kFromCachingAllocator =
    "c10/cuda/CUDACachingAllocator.cpp (pytorch 001074d2: get_allocation_size, get_free_block, should_split); "
    "SGLang model_runner.py load_model, get_available_gpu_memory (v0.4.9.post2 eb118d8, main 8905cbd)";
inline constexpr const char *kPartRotaryCache = QT_TRANSLATE_NOOP("Derivation", "rotary cos/sin cache");
inline constexpr Symbol kRotaryPositions{"n_pos", "", QT_TRANSLATE_NOOP("Derivation", "positions the cache holds: max_position_embeddings")};
inline constexpr Symbol kRotaryDims{"d_rot", "", QT_TRANSLATE_NOOP("Derivation", "rotary dimensions: head_dim, or its rotated part (partial_rotary_factor; MLA: qk_rope_head_dim), a cos and a sin for each pair")};
inline constexpr const char *kPartSlidingRotaryCache = QT_TRANSLATE_NOOP("Derivation", "the sliding-window layers' own cache");
inline constexpr Symbol kSlidingRotaryDims{"d_rot,swa", "", QT_TRANSLATE_NOOP("Derivation", "rotary dimensions of the sliding-window layers, whose RoPE is their own")};
inline constexpr Symbol kRotaryValueBytes{"b_rope", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a cached value: fp32 in SGLang, the model's dtype in vLLM")};
} // namespace weights

// --- LoRA adapters ---
namespace lora {
inline constexpr Symbol kRank{"r", "", QT_TRANSLATE_NOOP("Derivation", "LoRA rank")};
inline constexpr Symbol kInPlusOut{"d_io", "", QT_TRANSLATE_NOOP("Derivation", "input plus output features of the adapted projection")};
inline constexpr Symbol kMatrices{"n", "", QT_TRANSLATE_NOOP("Derivation", "such projections in the model")};
/// Indexed by LinearSlot.
inline constexpr const char *kPartAdapters[] = {"",
                                                QT_TRANSLATE_NOOP("Derivation", "q_proj adapters"),
                                                QT_TRANSLATE_NOOP("Derivation", "k_proj adapters"),
                                                QT_TRANSLATE_NOOP("Derivation", "v_proj adapters"),
                                                QT_TRANSLATE_NOOP("Derivation", "o_proj adapters"),
                                                QT_TRANSLATE_NOOP("Derivation", "gate_proj adapters"),
                                                QT_TRANSLATE_NOOP("Derivation", "up_proj adapters"),
                                                QT_TRANSLATE_NOOP("Derivation", "down_proj adapters")};
inline constexpr const char *kFromLora = "Hu et al. 2021, LoRA, arXiv:2106.09685 §4.1";
} // namespace lora

// --- master weights ---
namespace master {
inline constexpr Symbol kMasterBytes{"b_m", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of the fp32 master copy per parameter")};
inline constexpr const char *kWhyNoMaster = QT_TRANSLATE_NOOP("Derivation", "this regime keeps no separate master copy");
inline constexpr const char *kWhyTrainedInFp32 =
    QT_TRANSLATE_NOOP("Derivation", "the trained weights are fp32 already, so there is no separate master copy");
inline constexpr const char *kFromMaster = "Micikevicius et al. 2018, Mixed Precision Training §3.1; ZeRO §III-A";
} // namespace master

// --- gradients ---
namespace gradients {
inline constexpr Symbol kGradientBytes{"b_g", "B", QT_TRANSLATE_NOOP("Derivation", "gradient bytes per parameter")};
inline constexpr Symbol kReduceBucket{"5e8", QT_TRANSLATE_NOOP("Derivation", "elements"), QT_TRANSLATE_NOOP("Derivation", "DeepSpeed reduce_bucket_size")};
inline constexpr const char *kWhyReduceBucket =
    QT_TRANSLATE_NOOP("Derivation", "offloaded: gradients stream to the host through one reduce bucket");
inline constexpr const char *kWhyFirstHeadGradients =
    QT_TRANSLATE_NOOP("Derivation", "start of backward: only the first gradients exist, the lm_head's (larger than any layer's)");
inline constexpr const char *kWhyFirstLayerGradients =
    QT_TRANSLATE_NOOP("Derivation", "start of backward: only the first gradients exist, those of one layer (the largest)");
inline constexpr const char *kWhyFirstAdapterGradients =
    QT_TRANSLATE_NOOP("Derivation", "start of backward: only the first gradients exist, the last layer's adapters");
inline constexpr const char *kWhyAccumulated = QT_TRANSLATE_NOOP("Derivation", "gradient accumulation keeps every gradient between micro-batches");
inline constexpr const char *kFromReduceBucket = "DeepSpeed configuration docs, zero_optimization.reduce_bucket_size";
} // namespace gradients

// --- optimizer states ---
namespace optimizer {
inline constexpr Symbol kOptimizerStates{"S_all", "B", QT_TRANSLATE_NOOP("Derivation", "optimizer states of all trainable parameters")};
inline constexpr Symbol kStates{"n_s", "", QT_TRANSLATE_NOOP("Derivation", "full-size states per parameter")};
inline constexpr Symbol kStateBytes{"b_s", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of one state element")};
inline constexpr Symbol kFixedStateBytes{"b_s", "B", QT_TRANSLATE_NOOP("Derivation", "state bytes per parameter (8-bit states)")};
inline constexpr Symbol kRowsPlusCols{"n_rc", "", QT_TRANSLATE_NOOP("Derivation", "row and column accumulators of every matrix")};
inline constexpr Symbol kVectorElements{"n_vec", "", QT_TRANSLATE_NOOP("Derivation", "elements of every vector parameter")};
inline constexpr const char *kPartFactoredMoments = QT_TRANSLATE_NOOP("Derivation", "factored second moments of the matrices");
inline constexpr const char *kPartVectorMoments = QT_TRANSLATE_NOOP("Derivation", "second moments of the vectors");
} // namespace optimizer

// --- activations ---
namespace activations {
/// The tensors that linear layers read, and what their readers keep.
struct Site
{
    const char *shared;        ///< the tensor itself, kept once for its readers
    const char *copies;        ///< private casts, one per reader
    const char *dropoutCopies; ///< adapter dropout copies
    const char *masks;         ///< adapter dropout masks
};
inline constexpr Site kAttentionInput{QT_TRANSLATE_NOOP("Derivation", "attention input (kept once for its readers)"),
                                      QT_TRANSLATE_NOOP("Derivation", "attention input: private casts of q, k, v"),
                                      QT_TRANSLATE_NOOP("Derivation", "attention input: adapter dropout copies"),
                                      QT_TRANSLATE_NOOP("Derivation", "attention input: adapter dropout masks")};
inline constexpr Site kMlpInput{QT_TRANSLATE_NOOP("Derivation", "MLP input (kept once for its readers)"), QT_TRANSLATE_NOOP("Derivation", "MLP input: private casts of gate, up"),
                                QT_TRANSLATE_NOOP("Derivation", "MLP input: adapter dropout copies"), QT_TRANSLATE_NOOP("Derivation", "MLP input: adapter dropout masks")};
inline constexpr Site kAttentionOutput{QT_TRANSLATE_NOOP("Derivation", "o_proj input (the attention output)"), QT_TRANSLATE_NOOP("Derivation", "o_proj input: private cast"),
                                       QT_TRANSLATE_NOOP("Derivation", "o_proj input: adapter dropout copy"), QT_TRANSLATE_NOOP("Derivation", "o_proj input: adapter dropout mask")};
inline constexpr Site kMlpProduct{QT_TRANSLATE_NOOP("Derivation", "down_proj input (the MLP product)"), QT_TRANSLATE_NOOP("Derivation", "down_proj input: private cast"),
                                  QT_TRANSLATE_NOOP("Derivation", "down_proj input: adapter dropout copy"), QT_TRANSLATE_NOOP("Derivation", "down_proj input: adapter dropout mask")};
inline constexpr Site kHeadInput{QT_TRANSLATE_NOOP("Derivation", "lm_head input"), QT_TRANSLATE_NOOP("Derivation", "lm_head input: private cast"), QT_TRANSLATE_NOOP("Derivation", "lm_head input: dropout copy"),
                                 QT_TRANSLATE_NOOP("Derivation", "lm_head input: dropout mask")};
/// What a norm saves: a LayerNorm its input; an RMSNorm its fp32 input
/// and, when its weight trains, the normalised input.
struct Norm
{
    const char *layerNormInput;
    const char *rmsNormFp32;
    const char *rmsNormNormed;
};
inline constexpr Norm kAttentionNorm{QT_TRANSLATE_NOOP("Derivation", "attention norm input"), QT_TRANSLATE_NOOP("Derivation", "attention norm: fp32 input that pow saves"),
                                     QT_TRANSLATE_NOOP("Derivation", "attention norm: normalised input for its trained weight")};
inline constexpr Norm kMlpNorm{QT_TRANSLATE_NOOP("Derivation", "MLP norm input"), QT_TRANSLATE_NOOP("Derivation", "MLP norm: fp32 input that pow saves"),
                               QT_TRANSLATE_NOOP("Derivation", "MLP norm: normalised input for its trained weight")};
inline constexpr Norm kFinalNorm{QT_TRANSLATE_NOOP("Derivation", "final norm input"), QT_TRANSLATE_NOOP("Derivation", "final norm: fp32 input that pow saves"),
                                 QT_TRANSLATE_NOOP("Derivation", "final norm: normalised input for its trained weight")};

inline constexpr Symbol kAttentionLayers{"L_att", "", QT_TRANSLATE_NOOP("Derivation", "layers with softmax attention")};
inline constexpr Symbol kMixerLayers{"L_mix", "", QT_TRANSLATE_NOOP("Derivation", "layers with a token mixer")};
inline constexpr Symbol kMlpLayers{"L_mlp", "", QT_TRANSLATE_NOOP("Derivation", "layers with an MLP")};
inline constexpr Symbol kDenseMlpLayers{"L_dense", "", QT_TRANSLATE_NOOP("Derivation", "layers with a dense MLP")};
inline constexpr Symbol kMoeLayers{"L_moe", "", QT_TRANSLATE_NOOP("Derivation", "layers with experts")};
inline constexpr Symbol kMambaLayers{"L_ssm", "", QT_TRANSLATE_NOOP("Derivation", "layers with a Mamba block")};
inline constexpr Symbol kDeltaLayers{"L_gdn", "", QT_TRANSLATE_NOOP("Derivation", "layers with Gated DeltaNet")};
inline constexpr Symbol kMambaProjWidth{"w_zxbcdt", "", QT_TRANSLATE_NOOP("Derivation", "Mamba-2 in_proj output width: 2 d_inner + 2 groups x state + heads")};
inline constexpr Symbol kMambaInner{"d_inner", "", QT_TRANSLATE_NOOP("Derivation", "Mamba's inner width")};
inline constexpr Symbol kMambaGroups{"g_ssm", "", QT_TRANSLATE_NOOP("Derivation", "norm groups of Mamba-2's gated RMSNorm")};
inline constexpr Symbol kMambaState{"N_ssm", "", QT_TRANSLATE_NOOP("Derivation", "SSM state size")};
inline constexpr Symbol kMambaOneTrainedWidth{"w_trained", "", QT_TRANSLATE_NOOP("Derivation", "inputs of a trained Mamba-1 block's x_proj, out_proj, dt_proj and inner norms: 2 d_inner + 2 x the time-step rank + 2 N_ssm")};
inline constexpr Symbol kRecurrentInputs{"L_rec", "", QT_TRANSLATE_NOOP("Derivation", "recurrent blocks with an input of their own")};
inline constexpr Symbol kScanCopies{"4", "", QT_TRANSLATE_NOOP("Derivation", "u, delta, z and the scan output")};
inline constexpr Symbol kInnerNormWidth{"w_norms", "", QT_TRANSLATE_NOOP("Derivation", "widths of the dt, B and C norms (the time-step rank + 2 N_ssm) and their three rsqrt")};
inline constexpr Symbol kScanChunk{"2048", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "tokens of a scan chunk (a shorter last chunk is taken at its length)")};
inline constexpr Symbol kDeltaConvWidth{"w_conv", "", QT_TRANSLATE_NOOP("Derivation", "conv width: 2 x key width + value width")};
inline constexpr Symbol kDeltaQueryHeads{"H_q", "", QT_TRANSLATE_NOOP("Derivation", "q and k heads the kernel takes")};
inline constexpr Symbol kDeltaKeyDim{"d_k", "", QT_TRANSLATE_NOOP("Derivation", "linear attention key head size")};
inline constexpr Symbol kDeltaValueHeads{"H_v", "", QT_TRANSLATE_NOOP("Derivation", "linear attention value heads")};
inline constexpr Symbol kDeltaValueWidth{"V_lin", "", QT_TRANSLATE_NOOP("Derivation", "linear attention value width: value heads x value head size")};
inline constexpr Symbol kChunkRows{"64", "", QT_TRANSLATE_NOOP("Derivation", "columns of a 64-token chunk's triangle, one row a token")};
inline constexpr Symbol kNormCopies{"e_norm", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per element of the V_lin-wide tensors the gated norm keeps, summed")};
inline constexpr Symbol kPerToken{"c_layer", QT_TRANSLATE_NOOP("Derivation", "B/token"), QT_TRANSLATE_NOOP("Derivation", "bytes one layer saves per token, scores excepted")};
inline constexpr Symbol kScores{"S_scores", "B", QT_TRANSLATE_NOOP("Derivation", "eager attention's score tensors of one layer")};
inline constexpr Symbol kScoreBytes{"e_sc", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per score element: the tensors softmax leaves")};
inline constexpr Symbol kKeptPerLayer{"A_layer", "B", QT_TRANSLATE_NOOP("Derivation", "bytes each layer keeps for backward")};
inline constexpr Symbol kInFlight{"n_mb", "", QT_TRANSLATE_NOOP("Derivation", "micro-batches in flight on this stage")};
inline constexpr Symbol kEmbeddingSide{"A_first", "B", QT_TRANSLATE_NOOP("Derivation", "saved on the embedding side (first stage)")};
inline constexpr Symbol kHeadSide{"A_last", "B", QT_TRANSLATE_NOOP("Derivation", "saved by the final norm and the lm_head (last stage)")};
inline constexpr Symbol kFirstPerToken{"c_first", QT_TRANSLATE_NOOP("Derivation", "B/token"), QT_TRANSLATE_NOOP("Derivation", "bytes per token the embedding side saves")};
inline constexpr Symbol kLastPerToken{"c_last", QT_TRANSLATE_NOOP("Derivation", "B/token"), QT_TRANSLATE_NOOP("Derivation", "bytes per token the final norm and lm_head save")};
inline constexpr Symbol kGradientsPerToken{"c_grad", QT_TRANSLATE_NOOP("Derivation", "B/token"), QT_TRANSLATE_NOOP("Derivation", "gradient bytes per token alive inside one layer's backward")};
inline constexpr Symbol kMlpGradients{"3", "", QT_TRANSLATE_NOOP("Derivation", "the MLP's I-wide gradients: of act(gate) x up, act(gate) and up")};
inline constexpr Symbol kResidualBytes{"e_res", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a residual-stream element")};
inline constexpr Symbol kAttentionBytes{"e_att", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an attention tensor element")};
inline constexpr Symbol kLinearOutBytes{"e_out", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a projection output element")};
inline constexpr Symbol kInputBytes{"e_in", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of the input element as its readers keep it")};
inline constexpr Symbol kCopyBytes{"e_copy", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per element of a reader's private copy")};
inline constexpr Symbol kSoftmaxBytes{"e_sm", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of the softmax output element")};
inline constexpr Symbol kMaskBytes{"1", "B", QT_TRANSLATE_NOOP("Derivation", "a dropout mask byte")};
inline constexpr Symbol kNorms{"n_norm", "", QT_TRANSLATE_NOOP("Derivation", "such norms in the layer")};
inline constexpr Symbol kReaders{"n_readers", "", QT_TRANSLATE_NOOP("Derivation", "readers that keep such a copy")};
inline constexpr Symbol kActivationSaves{"n_act", "", QT_TRANSLATE_NOOP("Derivation", "I-wide tensors the activation function saves")};
inline constexpr Symbol kOperands{"2", "", QT_TRANSLATE_NOOP("Derivation", "operands of act(gate) x up")};
inline constexpr Symbol kExperts{"E", "", QT_TRANSLATE_NOOP("Derivation", "routed experts (router logits per token)")};
inline constexpr Symbol kAdaptedSlots{"n_A", "", QT_TRANSLATE_NOOP("Derivation", "adapted projections per layer")};
inline constexpr Symbol kAdapterOutBytes{"e_A", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an element of x·A")};
inline constexpr const char *kPartQuery = QT_TRANSLATE_NOOP("Derivation", "q (saved by attention)");
inline constexpr const char *kPartKeyValue = QT_TRANSLATE_NOOP("Derivation", "k and v (saved by attention)");
inline constexpr const char *kPartKeyValueRepeated = QT_TRANSLATE_NOOP("Derivation", "k and v repeated to every head (repeat_kv)");
inline constexpr const char *kPartKernelOutput = QT_TRANSLATE_NOOP("Derivation", "attention kernel output");
inline constexpr const char *kPartLogSumExp = QT_TRANSLATE_NOOP("Derivation", "fp32 log-sum-exp per head");
inline constexpr const char *kPartAttentionDropout = QT_TRANSLATE_NOOP("Derivation", "dropout mask after o_proj");
inline constexpr const char *kPartActivationFunction = QT_TRANSLATE_NOOP("Derivation", "activation function's saved inputs");
inline constexpr const char *kPartGatedProduct = QT_TRANSLATE_NOOP("Derivation", "act(gate) and up, saved by their product");
inline constexpr const char *kPartGateAndUp = QT_TRANSLATE_NOOP("Derivation", "gate and up, from which backward recomputes act(gate)");
inline constexpr const char *kPartRouter = QT_TRANSLATE_NOOP("Derivation", "fp32 router logits");
inline constexpr const char *kPartMlpDropout = QT_TRANSLATE_NOOP("Derivation", "dropout mask after the MLP");
inline constexpr const char *kPartAdapterOutputs = QT_TRANSLATE_NOOP("Derivation", "x·A of each adapter, saved for B");
inline constexpr const char *kPartMambaProjection = QT_TRANSLATE_NOOP("Derivation", "in_proj output, which the fused Mamba-2 kernel saves");
inline constexpr const char *kPartScanOutput = QT_TRANSLATE_NOOP("Derivation", "scan output before the gated norm");
inline constexpr const char *kPartGroupNormStats = QT_TRANSLATE_NOOP("Derivation", "fp32 rstd of each norm group");
inline constexpr const char *kPartMambaOneProjection = QT_TRANSLATE_NOOP("Derivation", "in_proj output, kept alive by the conv's saved view");
inline constexpr const char *kPartScanCopies = QT_TRANSLATE_NOOP("Derivation", "the selective scan's copies and output");
inline constexpr const char *kPartStateProjections = QT_TRANSLATE_NOOP("Derivation", "B and C, the scan's copies");
inline constexpr const char *kPartInnerNorms = QT_TRANSLATE_NOOP("Derivation", "fp32 inputs of the dt, B and C norms and their rsqrt");
inline constexpr const char *kPartMambaOneTrained = QT_TRANSLATE_NOOP("Derivation", "inputs the trained projections and inner norms keep");
inline constexpr const char *kPartScanIntermediates = QT_TRANSLATE_NOOP("Derivation", "fp32 scan intermediates, per 2,048-token chunk");
inline constexpr const char *kPartMixerInput = QT_TRANSLATE_NOOP("Derivation", "in_proj input (the projections train)");
inline constexpr const char *kPartMixerOutput = QT_TRANSLATE_NOOP("Derivation", "out_proj input (out_proj trains)");
inline constexpr const char *kPartConvInput = QT_TRANSLATE_NOOP("Derivation", "conv input, which causal_conv1d saves");
inline constexpr const char *kPartDeltaQueryKey = QT_TRANSLATE_NOOP("Derivation", "q and k after the kernel's L2 norm");
inline constexpr const char *kPartDeltaNormStats = QT_TRANSLATE_NOOP("Derivation", "fp32 rstd of q and k");
inline constexpr const char *kPartDeltaValue = QT_TRANSLATE_NOOP("Derivation", "v, the kernel's contiguous copy");
inline constexpr const char *kPartDeltaDecay = QT_TRANSLATE_NOOP("Derivation", "fp32 decay g after the chunk cumsum");
inline constexpr const char *kPartDeltaBeta = QT_TRANSLATE_NOOP("Derivation", "beta, the sigmoid's output");
inline constexpr const char *kPartDeltaTriangle = QT_TRANSLATE_NOOP("Derivation", "A: each 64-token chunk's solved triangle");
inline constexpr const char *kPartSoftplus = QT_TRANSLATE_NOOP("Derivation", "fp32 softplus input (and output, where A_log trains)");
inline constexpr const char *kPartGatedNorm = QT_TRANSLATE_NOOP("Derivation", "gated norm: its input, gate and outputs");
inline constexpr const char *kPartGatedNormStats = QT_TRANSLATE_NOOP("Derivation", "gated norm: fp32 rstd per value head");
inline constexpr const char *kFromMamba2Kernel =
    "mamba_ssm ops/triton/ssd_combined.py @ e9594ce MambaSplitConv1dScanCombinedFn (save_for_backward: zxbcdt, out_x, "
    "rstd), as transformers' Mamba-2 mixers call it in training without a cache";
inline constexpr const char *kFromMamba1Kernel =
    "transformers JambaMambaMixer.cuda_kernels_forward: causal_conv1d_fn then mamba_ssm selective_scan_fn "
    "(SelectiveScanFn save_for_backward, scan intermediates per 2,048 tokens)";
inline constexpr const char *kFromDeltaKernel =
    "fla @ bc3b101 ops/gated_delta_rule/chunk.py ChunkGatedDeltaRuleFunction (save_for_backward: q, q_rstd, k, k_rstd, "
    "v, g, beta, A; h recomputed); causal-conv1d @ 0d2252d CausalConv1dFn; transformers Qwen3NextGatedDeltaNet @ "
    "01cdc608 (fla's FusedRMSNormGated, q and k repeated to the value heads), Qwen3_5GatedDeltaNet @ 009e78d6 (its "
    "torch gated norm, q and k at the key heads with fla 0.5)";
inline constexpr const char *kPartSoftmaxOutput = QT_TRANSLATE_NOOP("Derivation", "softmax output");
inline constexpr const char *kPartSoftmaxCopy = QT_TRANSLATE_NOOP("Derivation", "copy the value matmul saves");
inline constexpr const char *kPartScoreMask = QT_TRANSLATE_NOOP("Derivation", "attention dropout mask");
inline constexpr const char *kPartPerTokenTensors = QT_TRANSLATE_NOOP("Derivation", "tensors per token");
inline constexpr const char *kPartScores = QT_TRANSLATE_NOOP("Derivation", "attention scores");
inline constexpr const char *kPartMlpGradients = QT_TRANSLATE_NOOP("Derivation", "MLP gradients");
inline constexpr const char *kPartIncomingGradient = QT_TRANSLATE_NOOP("Derivation", "incoming gradient");
inline constexpr const char *kPartEmbeddingDropout = QT_TRANSLATE_NOOP("Derivation", "embedding dropout mask");
inline constexpr const char *kPartEmbeddingNorm = QT_TRANSLATE_NOOP("Derivation", "embedding LayerNorm input");
inline constexpr const char *kPartLargestLayer = QT_TRANSLATE_NOOP("Derivation", "the largest layer, which the recompute rebuilds");
inline constexpr Symbol kLargestPerToken{"c_max", QT_TRANSLATE_NOOP("Derivation", "B/token"), QT_TRANSLATE_NOOP("Derivation", "bytes per token the largest layer saves, scores excepted")};
inline constexpr const char *kPartLayerInput = QT_TRANSLATE_NOOP("Derivation", "layer input (all that full recompute keeps)");
inline constexpr const char *kPartLayers = QT_TRANSLATE_NOOP("Derivation", "layers on this rank");
inline constexpr const char *kPartEmbeddingSide = QT_TRANSLATE_NOOP("Derivation", "embedding side");
inline constexpr const char *kPartHeadSide = QT_TRANSLATE_NOOP("Derivation", "final norm and lm_head");
inline constexpr const char *kWhySelective = QT_TRANSLATE_NOOP("Derivation", "selective recompute: the attention scores are recomputed");
inline constexpr const char *kWhyFullRecompute = QT_TRANSLATE_NOOP("Derivation", "full recompute: each layer keeps only its input");
inline constexpr const char *kWhyOffloadedCheckpoint = QT_TRANSLATE_NOOP("Derivation", "offloaded checkpointing: each layer's input waits in host memory, the GPU keeps none");
inline constexpr const char *kFromUnslothCheckpoint =
    "unsloth_zoo gradient_checkpointing.py Unsloth_Offloaded_Gradient_Checkpointer (hidden_states.to(\"cpu\", "
    "non_blocking=True); ctx.save_for_backward(saved_hidden_states))";
inline constexpr const char *kFromKorthikanti =
    "Korthikanti et al. 2022, arXiv:2205.05198 §4.1 (sbh(34 + 5as/h) per GPT layer), generalised";
} // namespace activations

// --- logits and loss ---
namespace logits {
inline constexpr Symbol kLogitsBytes{"e_l", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a logits element as the lm_head emits it")};
inline constexpr Symbol kChunks{"8", "", QT_TRANSLATE_NOOP("Derivation", "chunks of the chunked loss")};
inline constexpr Symbol kSamplerRows{"rows", "", QT_TRANSLATE_NOOP("Derivation", "sampler warm-up rows: min(max_num_batched_tokens, max_num_seqs)")};
inline constexpr Symbol kSamplerBytes{"c_sampler", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per row and vocabulary entry in the sampler")};
inline constexpr Symbol kInt64Bytes{"8", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an int64 index")};
inline constexpr Symbol kBoolBytes{"1", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a bool mask element")};
inline constexpr const char *kPartLogits = QT_TRANSLATE_NOOP("Derivation", "logits");
inline constexpr const char *kPartKeptLogits = QT_TRANSLATE_NOOP("Derivation", "logits the training loop keeps");
inline constexpr const char *kPartKeptFp32Logits = QT_TRANSLATE_NOOP("Derivation", "fp32 logits the training loop keeps");
inline constexpr const char *kPartFp32Logits = QT_TRANSLATE_NOOP("Derivation", "fp32 logits");
inline constexpr const char *kPartFp32Copy = QT_TRANSLATE_NOOP("Derivation", "fp32 copy (.float())");
inline constexpr const char *kPartShiftedCopy = QT_TRANSLATE_NOOP("Derivation", "shifted contiguous copy");
inline constexpr const char *kPartLogSoftmax = QT_TRANSLATE_NOOP("Derivation", "log-softmax output");
inline constexpr const char *kPartSavedLogSoftmax = QT_TRANSLATE_NOOP("Derivation", "saved log-softmax");
inline constexpr const char *kPartGradientIn = QT_TRANSLATE_NOOP("Derivation", "gradient from nll_loss");
inline constexpr const char *kPartGradientOut = QT_TRANSLATE_NOOP("Derivation", "gradient out of log_softmax");
inline constexpr const char *kPartChunkLogits = QT_TRANSLATE_NOOP("Derivation", "one chunk's logits");
inline constexpr const char *kPartChunkFp32Copy = QT_TRANSLATE_NOOP("Derivation", "one chunk's fp32 copy");
inline constexpr const char *kPartChunkGradientIn = QT_TRANSLATE_NOOP("Derivation", "one chunk's fp32 gradient in");
inline constexpr const char *kPartChunkGradientOut = QT_TRANSLATE_NOOP("Derivation", "one chunk's fp32 gradient out");
inline constexpr const char *kPartChunkLogitsGradient = QT_TRANSLATE_NOOP("Derivation", "one chunk's logits gradient");
inline constexpr const char *kPartSamplerRows = QT_TRANSLATE_NOOP("Derivation", "sampler rows");
inline constexpr const char *kPartHiddenStates = QT_TRANSLATE_NOOP("Derivation", "hidden states the forward left");
inline constexpr const char *kPartSortedValues = QT_TRANSLATE_NOOP("Derivation", "sorted fp32 values");
inline constexpr const char *kPartSortedIndices = QT_TRANSLATE_NOOP("Derivation", "int64 sort indices");
inline constexpr const char *kPartTopKMask = QT_TRANSLATE_NOOP("Derivation", "top-k mask");
inline constexpr const char *kPartTopPMask = QT_TRANSLATE_NOOP("Derivation", "top-p mask");
inline constexpr const char *kPartSortedSoftmax = QT_TRANSLATE_NOOP("Derivation", "fp32 softmax of the sorted values");
inline constexpr const char *kPartScatter = QT_TRANSLATE_NOOP("Derivation", "fp32 scatter result");
inline constexpr const char *kPartProbs = QT_TRANSLATE_NOOP("Derivation", "fp32 probabilities (softmax)");
inline constexpr const char *kPartExponentialDraw = QT_TRANSLATE_NOOP("Derivation", "fp32 exponential draw (random_sample's q)");
inline constexpr const char *kWhyTritonTopKTopP = QT_TRANSLATE_NOOP("Derivation", "top-k and top-p applied in place by vLLM's Triton kernel (0.17 on, 8 rows or more): no sort; the kernel's buffer of at most one row per SM is not planned");
inline constexpr const char *kWhyEncoderOnly = QT_TRANSLATE_NOOP("Derivation", "encoder-only: no causal-LM head, no logits");
inline constexpr const char *kWhyHeadElsewhere = QT_TRANSLATE_NOOP("Derivation", "the lm_head and its logits live on the last pipeline stage");
inline constexpr const char *kWhyOneTokenPerRequest = QT_TRANSLATE_NOOP("Derivation", "each of the profile's dummy requests samples one token: its logits (a row a request) are not planned");
inline constexpr const char *kWhyRowsAreSeqs = QT_TRANSLATE_NOOP("Derivation", "rows = max_num_seqs (fewer than the token budget)");
inline constexpr const char *kWhyRowsAreTokens = QT_TRANSLATE_NOOP("Derivation", "rows = max_num_batched_tokens (fewer than max_num_seqs)");
inline constexpr const char *kFromHfLoss = "Hugging Face transformers loss_utils.ForCausalLMLoss (logits.float())";
inline constexpr const char *kFromShiftedLoss =
    "transformers <= 4.45 LlamaForCausalLM.forward (logits.float(), shifted copy); torchtune before its chunked loss";
inline constexpr const char *kFromNativeLoss = "LitGPT chunked_cross_entropy in the logits' dtype";
inline constexpr const char *kFromChunkedLoss = "torchtune LinearCrossEntropyLoss (num_output_chunks = 8)";
inline constexpr const char *kFromFusedLoss = "torchtune training/_compile.py compile_loss; Inductor: the upcast fused into the row reductions, the gradient written in the logits' dtype";
inline constexpr const char *kFromGenerate = "Hugging Face generate() (logits_to_keep = 1)";
inline constexpr Symbol kChunkTokens{"T_c", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "tokens of one chunk: the next power of two of b x s / ceil(V / h), at most b x s")};
inline constexpr const char *kPartHiddenGradient = QT_TRANSLATE_NOOP("Derivation", "hidden states' gradient, computed in the forward");
inline constexpr const char *kPartTokenLosses = QT_TRANSLATE_NOOP("Derivation", "fp32 loss per token");
inline constexpr const char *kPartHeadWeightGradient = QT_TRANSLATE_NOOP("Derivation", "output layer's weight gradient, filled in the forward");
inline constexpr const char *kWhyFusedLinear = QT_TRANSLATE_NOOP("Derivation", "the output layer and the loss run a chunk of tokens at a time: the logits never exist whole");
inline constexpr const char *kFromLigerFlce =
    "liger_kernel ops/fused_linear_cross_entropy.py fused_linear_cross_entropy_forward (inc_factor = cdiv(V, H), "
    "chunk_size = next_power_of_2(cdiv(BT, inc_factor)), grad_input = zeros_like(_input), loss_1d fp32)";
inline constexpr const char *kFromVllmSampler =
    "vllm v1 gpu_model_runner.py _dummy_sampler_run; v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p";
inline constexpr const char *kWhyGreedyWarmup = QT_TRANSLATE_NOOP("Derivation", "Model Runner V2's warm-up samples greedily (temperature 0, no top-k or top-p, no fp32 copy): the logits only; a request with top-k or top-p needs more than was profiled");
inline constexpr const char *kFromVllmMrv2Sampler =
    "vllm v1/worker/gpu/model_runner.py _dummy_sampler_run (InputBatch.make_dummy: default SamplingStates, "
    "temperature 0, top_k = vocab, top_p = 1; \"the sampler may skip top_k, top_p, and logprobs\"), main 4f819f80";
inline constexpr const char *kFromVllmTritonSampler =
    "vllm v0.17.0 v1/sample/ops/topk_topp_triton.py apply_top_k_top_p_triton (in place on the fp32 logits, PR "
    "33538); topk_topp_sampler.py forward_native and random_sample (probs.div_(q))";
} // namespace logits

// --- KV cache ---
namespace kv {
inline constexpr Symbol kKvElementBytes{"e_kv", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a cached element")};
inline constexpr Symbol kCachedTokens{"T_cache", QT_TRANSLATE_NOOP("Derivation", "layer-tokens"), QT_TRANSLATE_NOOP("Derivation", "tokens cached, summed over this rank's layers")};
inline constexpr Symbol kFullLayers{"L_full", "", QT_TRANSLATE_NOOP("Derivation", "full-attention layers on this rank")};
inline constexpr Symbol kSlidingLayers{"L_window", "", QT_TRANSLATE_NOOP("Derivation", "sliding-window layers on this rank")};
inline constexpr Symbol kWindow{"w", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "sliding window, at most the context")};
inline constexpr const char *kPartFullLayers = QT_TRANSLATE_NOOP("Derivation", "full-attention layers");
inline constexpr const char *kPartSlidingLayers = QT_TRANSLATE_NOOP("Derivation", "sliding-window layers");
inline constexpr const char *kWhyKvHeadCopy = QT_TRANSLATE_NOOP("Derivation", "fewer key-value heads than ranks: each rank keeps a copy of one");
inline constexpr const char *kWhyEncoderOnly = QT_TRANSLATE_NOOP("Derivation", "encoder-only: no KV cache");
inline constexpr Symbol kCachedValues{"c_kv", "", QT_TRANSLATE_NOOP("Derivation", "values one token caches in one attention layer on this rank")};
inline constexpr Symbol kLatentRank{"d_c", "", QT_TRANSLATE_NOOP("Derivation", "latent width (kv_lora_rank)")};
inline constexpr Symbol kRopeKey{"d_rope", "", QT_TRANSLATE_NOOP("Derivation", "shared RoPE key width (qk_rope_head_dim)")};
inline constexpr Symbol kHeadsHere{"n_h,rank", "", QT_TRANSLATE_NOOP("Derivation", "attention heads on this rank")};
inline constexpr Symbol kKeyHeadDim{"d_qk", "", QT_TRANSLATE_NOOP("Derivation", "key head dimension (qk_nope_head_dim + qk_rope_head_dim)")};
inline constexpr Symbol kValueHeadDim{"d_v", "", QT_TRANSLATE_NOOP("Derivation", "value head dimension (v_head_dim)")};
inline constexpr Symbol kLinearLayers{"L_linear", "", QT_TRANSLATE_NOOP("Derivation", "linear-attention layers on this rank")};
inline constexpr Symbol kConvState{"s_conv", "", QT_TRANSLATE_NOOP("Derivation", "convolution state values per layer: (kernel - 1) x (2 key heads x key dim + value heads x value dim) / t")};
inline constexpr Symbol kRecurrentState{"s_rec", "", QT_TRANSLATE_NOOP("Derivation", "recurrent state values per layer: value heads / t x key dim x value dim")};
inline constexpr Symbol kStateBytes{"e_state", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a state element")};
inline constexpr Symbol kMambaLayers{"L_mamba", "", QT_TRANSLATE_NOOP("Derivation", "Mamba layers on this rank")};
inline constexpr Symbol kMambaConvState{"s_conv", "", QT_TRANSLATE_NOOP("Derivation", "convolution state values per layer: inputs kept x (d_inner + 2 x groups x state size) / t")};
inline constexpr Symbol kSsmState{"s_ssm", "", QT_TRANSLATE_NOOP("Derivation", "SSM state values per layer: Mamba heads / t x head dim x state size")};
inline constexpr Symbol kSsmStateBytes{"e_ssm", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an SSM state element (the config's mamba_ssm_cache_dtype)")};
inline constexpr Symbol kStatePerSequence{"S_seq", "B", QT_TRANSLATE_NOOP("Derivation", "fixed state (linear attention, Mamba) of one sequence on this rank")};
inline constexpr const char *kPartAttentionCache = QT_TRANSLATE_NOOP("Derivation", "attention layers' cache");
inline constexpr const char *kPartLinearState = QT_TRANSLATE_NOOP("Derivation", "fixed state (linear attention, Mamba)");
inline constexpr const char *kPartSsmState = QT_TRANSLATE_NOOP("Derivation", "SSM state");
inline constexpr Symbol kIndexerKeyBytes{"b_idx", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of the sparse-attention indexer's key per layer and token: index_head_dim fp8 values and one fp32 scale per 128")};
inline constexpr Symbol kIndexerLayers{"L_idx", "", QT_TRANSLATE_NOOP("Derivation", "layers on this rank with an indexer of their own")};
inline constexpr const char *kPartIndexerKeys = QT_TRANSLATE_NOOP("Derivation", "sparse-attention indexer's keys");
inline constexpr const char *kWhyIndexerCache = QT_TRANSLATE_NOOP("Derivation", "DeepSeek Sparse Attention: vLLM keeps the lightning indexer's keys in a cache of their own, in every layer, for the whole context");
inline constexpr Symbol kUnscaledIndexKeyBytes{"b_idx", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of the sparse-attention indexer's key per layer and token: index_head_dim values in the model's dtype (llama.cpp: f32), one key head on every rank")};
inline constexpr const char *kWhyIndexerCacheGenerate = QT_TRANSLATE_NOOP("Derivation", "DeepSeek Sparse Attention: transformers keeps the lightning indexer's keys in its cache beside the rebuilt keys and values, in the model's dtype, for the whole context");
inline constexpr const char *kFromIndexerCacheGenerate =
    "transformers cache_utils.py DynamicIndexedLayer (DYNAMIC_LAYER_TYPE_MAPPING \"deepseek_sparse_attention\"); "
    "models/deepseek_v32/modeling_deepseek_v32.py (01f8fa55) Indexer: past_key_values.update_indexer(k) of k_norm's "
    "output, one head of index_head_dim; glm_moe_dsa in its \"full\" layers; deepseek_v4 (01976081) "
    "DeepseekV4CSACache: one compressed entry per 4 tokens";
inline constexpr const char *kWhyMsaIndexCache = QT_TRANSLATE_NOOP("Derivation", "MiniMax Sparse Attention: every runtime keeps the indexer's key of each sparse layer beside the K/V cache, unquantised whatever the KV format, for the whole context");
inline constexpr const char *kFromMsaIndexCache =
    "transformers models/minimax_m3_vl/modeling_minimax_m3_vl.py (0291279d) MiniMaxM3VLSparseCacheLayer idx_keys; "
    "vLLM vllm/models/minimax_m3/common/indexer.py (0484480b) MiniMaxM3IndexerCache (MLAAttentionSpec, one head, "
    "indexer_kv_dtype bf16); SGLang mem_cache/memory_pool.py MiniMaxSparseKVPool index_k_pool (the model's dtype); "
    "TensorRT-LLM _torch/attention_backend/sparse/minimax_m3/cache_manager.py (0462117e) Role.INDEX_KEY; llama.cpp "
    "src/models/minimax-m3.cpp (PR 24908) f32 index cache";
inline constexpr const char *kFromIndexerCache =
    "vLLM model_executor/models/deepseek_v2.py Indexer (k_cache head_dim + head_dim // quant_block_size * 4, "
    "quant_block_size 128) and DeepseekV32IndexerCache (MLAAttentionSpec, one uint8 vector per token)";
inline constexpr Symbol kCompressedLayers{"L_r", "", QT_TRANSLATE_NOOP("Derivation", "compressed layers of this ratio on this rank")};
inline constexpr Symbol kCompressedEntries{"T_c", "", QT_TRANSLATE_NOOP("Derivation", "compressed entries of the context, floor(T / r)")};
inline constexpr Symbol kLatentEntryBytes{"b_entry", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of one cached entry in vLLM's fp8_ds_mla layout: fp8 values of the non-RoPE part, bf16 RoPE part, one scale per 64, one pad byte")};
inline constexpr Symbol kCompressorState{"S_comp", "B", QT_TRANSLATE_NOOP("Derivation", "fp32 compressor state of one sequence in one layer: the current (and, for ratio 4, the previous) window's entries and scores, and the indexer's")};
inline constexpr const char *kPartCompressedEntries = QT_TRANSLATE_NOOP("Derivation", "compressed entries");
inline constexpr const char *kPartCompressedLayers = QT_TRANSLATE_NOOP("Derivation", "compressed layers");
inline constexpr const char *kPartCompressorState = QT_TRANSLATE_NOOP("Derivation", "compressor state");
inline constexpr const char *kWhyCompressedAttention = QT_TRANSLATE_NOOP("Derivation", "DeepSeek-V4: every layer keeps a window of raw entries and, where its ratio r is set, one compressed entry per r tokens; one latent serves as key and value");
inline constexpr const char *kWhyFp8DsMla = QT_TRANSLATE_NOOP("Derivation", "vLLM stores DeepSeek-V4's cache as fp8_ds_mla whatever the KV dtype");
inline constexpr Symbol kSparseMlaEntryBytes{"b_entry", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of one cached entry in vLLM's fp8_ds_mla layout for sparse MLA: the fp8 latent, an fp32 scale per 128 of its values, the bf16 RoPE key")};
inline constexpr const char *kWhySparseMlaFp8 = QT_TRANSLATE_NOOP("Derivation", "vLLM keeps DeepSeek Sparse Attention's latent as fp8_ds_mla unless the KV cache format is bf16");
inline constexpr const char *kFromSparseMlaFp8 =
    "vLLM model_executor/models/config.py DeepseekV32ForCausalLM (fp8 becomes fp8_ds_mla, bfloat16 auto); "
    "v1/kv_cache_interface.py MLAAttentionSpec (656 B a token for fp8_ds_mla); vllm-project/recipes "
    "DeepSeek-V3_2.md (\"The default config uses a custom fp8 kvcache\")";
inline constexpr const char *kWhyScaledCacheFormat = QT_TRANSLATE_NOOP("Derivation", "e_kv counts the format's scales with its values: per token and head, per 16 values (NVFP4) or per slot (TurboQuant)");
inline constexpr const char *kWhySkipLayers = QT_TRANSLATE_NOOP("Derivation", "--kv-cache-dtype-skip-layers: the named layers cache in the model's dtype, the others in the KV cache format; e_kv is the mean over this group's layers (layer indices counted in proportion to the kinds)");
inline constexpr const char *kFromCompressedAttention =
    "DeepSeek-V4 inference/model.py (Attention kv_cache [win + S // ratio, head_dim], Compressor state, "
    "Indexer kv_cache [S // 4, index_head_dim]); vLLM deepseek_v4_attention.py (fp8_ds_mla head_bytes, "
    "DeepseekV4IndexerCache) and deepseek_compressor.py";
inline constexpr const char *kPartLatent = QT_TRANSLATE_NOOP("Derivation", "latent");
inline constexpr const char *kPartRopeKey = QT_TRANSLATE_NOOP("Derivation", "shared RoPE key");
inline constexpr const char *kPartKeys = QT_TRANSLATE_NOOP("Derivation", "keys");
inline constexpr const char *kPartValues = QT_TRANSLATE_NOOP("Derivation", "values");
inline constexpr const char *kPartConvState = QT_TRANSLATE_NOOP("Derivation", "convolution state");
inline constexpr const char *kPartRecurrentState = QT_TRANSLATE_NOOP("Derivation", "recurrent state");
inline constexpr const char *kWhyMlaLatent = QT_TRANSLATE_NOOP("Derivation", "multi-head latent attention: vLLM caches the compressed latent and the shared RoPE key, the same on every tensor-parallel rank");
inline constexpr const char *kWhyMlaExpanded = QT_TRANSLATE_NOOP("Derivation", "multi-head latent attention under Hugging Face generate: the cache holds every head's rebuilt key and value");
inline constexpr const char *kWhyMlaLlamaCpp = QT_TRANSLATE_NOOP("Derivation", "multi-head latent attention under llama.cpp: K holds the latent and the RoPE key, V the latent again");
inline constexpr const char *kWhyLinearState = QT_TRANSLATE_NOOP("Derivation", "linear-attention layers keep a fixed-size state per sequence instead of a growing cache");
inline constexpr const char *kWhyOwnStateCache = QT_TRANSLATE_NOOP("Derivation", "transformers' own cache for this family (Zamba2HybridDynamicCache) preallocates the conv and SSM states in the model's dtype");
inline constexpr const char *kWhyMambaState = QT_TRANSLATE_NOOP("Derivation", "Mamba layers keep a fixed-size state per sequence: the causal convolution's last inputs and one head dim x state size matrix per head (Mamba-1: one state-size row per inner channel)");
inline constexpr const char *kWhySsmCacheDtype = QT_TRANSLATE_NOOP("Derivation", "vLLM keeps the SSM state in the dtype the config's mamba_ssm_cache_dtype names");
inline constexpr const char *kFromMla = "DeepSeek-AI 2024, DeepSeek-V2 (arXiv:2405.04434) §2.1.2-2.1.3; vLLM MLAAttentionSpec";
inline constexpr const char *kFromMlaExpanded = "transformers modeling_deepseek_v3.py DeepseekV3Attention (past_key_values.update with rebuilt keys and values)";
inline constexpr const char *kFromLinearState =
    "Yang et al. 2024, Gated Delta Networks (arXiv:2412.06464); transformers modeling_qwen3_next.py "
    "Qwen3NextGatedDeltaNet; vLLM MambaStateShapeCalculator.gated_delta_net_state_shape and "
    "Qwen3_5ForConditionalGenerationConfig (mamba_ssm_cache_dtype from the config's mamba_ssm_dtype)";
inline constexpr const char *kFromMambaState =
    "Dao & Gu 2024, Transformers are SSMs (arXiv:2405.21060) §7; vLLM MambaStateShapeCalculator.mamba2_state_shape "
    "and NemotronHForCausalLMConfig.update_mamba_ssm_cache_dtype; transformers modeling_nemotron_h.py "
    "NemotronHMamba2Mixer with cache_utils.py LinearAttentionLayer; mamba_ssm _state_passing_fwd (fp32 final_states)";
inline constexpr const char *kFromSelectiveScanState =
    "Gu & Dao 2023, Mamba (arXiv:2312.00752) §3.2; vLLM v0.19.1 MambaStateShapeCalculator.mamba1_state_shape and "
    "MambaStateDtypeCalculator.mamba1_state_dtype; transformers modeling_jamba.py HybridMambaAttentionDynamicCache "
    "(@ 008f5c8c)";
inline constexpr Symbol kCacheLayers{"L", "", QT_TRANSLATE_NOOP("Derivation", "layers on this rank, each with a cache slot")};
inline constexpr const char *kWhyKdaFp32 = QT_TRANSLATE_NOOP("Derivation", "vLLM and SGLang keep Kimi Delta Attention's recurrent state in fp32 (kda_state_dtype)");
inline constexpr const char *kWhyHfShortConv = QT_TRANSLATE_NOOP("Derivation", "Hugging Face's Lfm2HybridConvCache keeps conv_L_cache inputs for every layer, attention layers included");
inline constexpr const char *kFromShortConvState =
    "transformers modeling_lfm2.py Lfm2ShortConv and Lfm2HybridConvCache; vLLM "
    "MambaStateShapeCalculator.short_conv_state_shape";
inline constexpr const char *kFromLightningState =
    "MiniMax 2025, MiniMax-01 (arXiv:2501.08313) §2.2 lightning attention; vLLM minimax_text_01.py "
    "MiniMaxText01LinearAttention and MambaStateShapeCalculator.linear_attention_state_shape";
inline constexpr const char *kFromPope = "Pope et al. 2022, Efficiently Scaling Transformer Inference §3.1";
inline constexpr const char *kFromSlidingWindow =
    "Beltagy et al. 2020, Longformer §3.1; Jiang et al. 2023, Mistral 7B §2 (rolling buffer cache)";
} // namespace kv

// --- workspace (transients) ---
namespace workspace {
inline constexpr Symbol kAutocastCopies{"b_cast", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of autocast's cached 16-bit copies per parameter")};
inline constexpr Symbol kCastBytes{"2", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a 16-bit cast")};
inline constexpr Symbol kLinearParams{"P_linear", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the layers' linear weights")};
inline constexpr Symbol kDequantBytes{"e_dq", "B", QT_TRANSLATE_NOOP("Derivation", "bytes a dequantisation allocates per weight element (bitsandbytes: one "
                                      "16-bit copy; torchao NF4: two int64 index tensors of n/2 and three half-size "
                                      "16-bit intermediates; compiled: one 16-bit copy)")};
inline constexpr Symbol kLargestMatrix{"m_max", "", QT_TRANSLATE_NOOP("Derivation", "elements of the largest quantised matrix")};
inline constexpr Symbol kRecomputedLayer{"A_recompute", "B", QT_TRANSLATE_NOOP("Derivation", "one layer's activations, recomputed")};
inline constexpr Symbol kLayerGradients{"G_layer", "B", QT_TRANSLATE_NOOP("Derivation", "gradients alive inside one layer's backward")};
inline constexpr Symbol kStepTemporaryBytes{"b_tmp", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per parameter of the step's full-size temporary")};
inline constexpr Symbol kTwoTensors{"2", "", QT_TRANSLATE_NOOP("Derivation", "two such tensors")};
inline constexpr Symbol kMlpTensors{"n_mlp", "", QT_TRANSLATE_NOOP("Derivation", "I-wide tensors alive together in the MLP")};
inline constexpr Symbol kPrefillPerToken{"c_prefill", QT_TRANSLATE_NOOP("Derivation", "B/token"), QT_TRANSLATE_NOOP("Derivation", "one layer's temporaries per token")};
inline constexpr Symbol kScoreBytes{"e_sc", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per score element: scores and softmax output")};
inline constexpr Symbol kSharedExperts{"n_shared", "", QT_TRANSLATE_NOOP("Derivation", "shared experts")};
inline constexpr Symbol kProfileWidth{"w", "", QT_TRANSLATE_NOOP("Derivation", "elements per token alive in one profiled layer")};
inline constexpr const char *kPartWeightCasts = QT_TRANSLATE_NOOP("Derivation", "autocast's 16-bit copies of the weights");
inline constexpr const char *kPartLoadTransient = QT_TRANSLATE_NOOP("Derivation", "the last weight's 16-bit copy, quantised on the GPU");
inline constexpr Symbol kLargestQuantisedWeight{"P_q,max", "", QT_TRANSLATE_NOOP("Derivation", "elements of the largest quantised weight (the lm_head where the stack quantises it)")};
inline constexpr const char *kFromQuantisedLoad =
    "transformers quantizers/quantizer_bnb_4bit.py create_quantized_param (Params4bit(param).to(device), one "
    "parameter at a time); Lightning plugins/precision/bitsandbytes.py _quantize_on_load_hook "
    "(weight.to(device, dtype=torch.half)); torchao NF4Tensor copy_ (to_nf4)";
inline constexpr const char *kPartAdapterCasts = QT_TRANSLATE_NOOP("Derivation", "autocast's 16-bit copies of the fp32 adapters");
inline constexpr const char *kPartFrozenLinearCasts = QT_TRANSLATE_NOOP("Derivation", "16-bit casts of the frozen fp32 linear weights");
inline constexpr const char *kPartFrozenHeadCast = QT_TRANSLATE_NOOP("Derivation", "16-bit cast of the frozen fp32 lm_head");
inline constexpr const char *kPartDequant = QT_TRANSLATE_NOOP("Derivation", "dequantised base weight");
inline constexpr const char *kPartHeadDequant = QT_TRANSLATE_NOOP("Derivation", "dequantised lm_head (or a larger layer weight)");
inline constexpr const char *kPartRecomputedLayer = QT_TRANSLATE_NOOP("Derivation", "recomputed layer");
inline constexpr const char *kPartLayerGradients = QT_TRANSLATE_NOOP("Derivation", "layer gradients");
inline constexpr const char *kPartResidual = QT_TRANSLATE_NOOP("Derivation", "layer input and its normed copy");
inline constexpr const char *kPartQueryAndOutput = QT_TRANSLATE_NOOP("Derivation", "Q and the attention output");
inline constexpr const char *kPartKeyAndValue = QT_TRANSLATE_NOOP("Derivation", "K and V");
inline constexpr const char *kPartRepeatedKv = QT_TRANSLATE_NOOP("Derivation", "K and V repeated to every head (repeat_kv)");
inline constexpr const char *kPartGatedMlp = QT_TRANSLATE_NOOP("Derivation", "gate, up and act(gate)");
inline constexpr const char *kPartPlainMlp = QT_TRANSLATE_NOOP("Derivation", "up projection and its activation");
inline constexpr const char *kPartLayerTemporaries = QT_TRANSLATE_NOOP("Derivation", "one layer's temporaries");
inline constexpr const char *kPartScores = QT_TRANSLATE_NOOP("Derivation", "attention scores");
inline constexpr const char *kPartSoftmax = QT_TRANSLATE_NOOP("Derivation", "softmax output");
inline constexpr const char *kPartFp32Softmax = QT_TRANSLATE_NOOP("Derivation", "fp32 softmax output");
inline constexpr const char *kPartQuery = QT_TRANSLATE_NOOP("Derivation", "q");
inline constexpr const char *kPartAttentionOutput = QT_TRANSLATE_NOOP("Derivation", "attention output");
inline constexpr const char *kPartRoutedExperts = QT_TRANSLATE_NOOP("Derivation", "routed experts' gate_up and activation");
inline constexpr const char *kPartRoutedOutputs = QT_TRANSLATE_NOOP("Derivation", "routed experts' outputs");
inline constexpr const char *kPartSharedExperts = QT_TRANSLATE_NOOP("Derivation", "shared experts");
inline constexpr const char *kPartGateUp = QT_TRANSLATE_NOOP("Derivation", "merged gate_up");
inline constexpr const char *kPartSiluAndMul = QT_TRANSLATE_NOOP("Derivation", "SiluAndMul output");
inline constexpr const char *kPartUp = QT_TRANSLATE_NOOP("Derivation", "up projection");
inline constexpr const char *kPartMlpActivation = QT_TRANSLATE_NOOP("Derivation", "activation output");
inline constexpr const char *kWhyAttentionLarger = QT_TRANSLATE_NOOP("Derivation", "attention's intermediates outweigh the MLP's");
inline constexpr const char *kWhyMlpLarger = QT_TRANSLATE_NOOP("Derivation", "the MLP's intermediates outweigh attention's");
inline constexpr const char *kWhyForeachTemporary =
    QT_TRANSLATE_NOOP("Derivation", "multi-tensor (foreach) Adam: _foreach_sqrt of the second moments into a new full-size list");
inline constexpr const char *kWhyNoStepTemporary = QT_TRANSLATE_NOOP("Derivation", "fused or per-parameter step: no full-size temporary");
inline constexpr const char *kFromAutocast = "ATen autocast_mode.cpp cached_cast (fp32 leaves only)";
inline constexpr const char *kFromDequant = "bitsandbytes dequantize_4bit; torchao NF4Tensor.get_original_weight";
inline constexpr const char *kFromCheckpoint = "torch.utils.checkpoint; autograd of LlamaMLP / GPT2MLP";
inline constexpr const char *kFromOptimizerStep = "torch/optim/adam.py _multi_tensor_adam";
inline constexpr const char *kFromPrefill = "Hugging Face modeling_llama.py forward, without autograd";
} // namespace workspace

// --- ZeRO-3 gather buffer ---
namespace gather {
inline constexpr Symbol kGatheredUnits{"2", "", QT_TRANSLATE_NOOP("Derivation", "the current and the prefetched unit")};
inline constexpr Symbol kGatheredBytes{"b_gather", "B", QT_TRANSLATE_NOOP("Derivation", "bytes per gathered parameter (stored format)")};
inline constexpr const char *kWhyNoGather = QT_TRANSLATE_NOOP("Derivation", "not used: below ZeRO stage 3 every GPU holds whole layers");
inline constexpr const char *kFromGather =
    "DeepSpeed stage3.py estimate_zero3_model_states_mem_needs (4 x largest layer params)";
inline constexpr const char *kFromShardedLoad =
    "torch FSDP sync_module_states: each unit moved to the GPU, broadcast from rank 0 and sharded before the next "
    "(distributed/fsdp/_init_utils.py); transformers _load_state_dict_into_zero3_model: "
    "deepspeed.zero.GatheredParameters over one module at a time";
} // namespace gather

// --- CUDA context, NCCL buffers, allocator reserve ---
namespace overheads {
inline constexpr Symbol kContextMib{"M_cuda", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "CUDA context and library workspaces")};
inline constexpr Symbol kBytesPerMib{"1,048,576", QT_TRANSLATE_NOOP("Derivation", "B/MiB"), QT_TRANSLATE_NOOP("Derivation", "bytes per MiB")};
inline constexpr Symbol kNcclMib{"M_nccl", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "NCCL buffers")};
inline constexpr Symbol kNcclBuffsize{"NCCL_BUFFSIZE", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "NCCL buffer per channel and direction")};
inline constexpr Symbol kDirections{"2", "", QT_TRANSLATE_NOOP("Derivation", "send and receive")};
inline constexpr Symbol kChannels{"32", "", QT_TRANSLATE_NOOP("Derivation", "channels")};
inline constexpr Symbol kProtocols{"2", "", QT_TRANSLATE_NOOP("Derivation", "protocols")};
inline constexpr Symbol kTensorBytes{"M_tensors", "B", QT_TRANSLATE_NOOP("Derivation", "the GPU tensors at this moment")};
inline constexpr Symbol kReserveShare{"r", "", QT_TRANSLATE_NOOP("Derivation", "allocator reserve, as a share of the tensors")};
inline constexpr const char *kWhySetByUser = QT_TRANSLATE_NOOP("Derivation", "set by the user");
inline constexpr const char *kWhyLazyLoading = QT_TRANSLATE_NOOP("Derivation", "lazy CUDA module loading");
inline constexpr const char *kWhyEagerLoading = QT_TRANSLATE_NOOP("Derivation", "eager CUDA module loading");
inline constexpr const char *kWhyNoNccl = QT_TRANSLATE_NOOP("Derivation", "not used: one GPU creates no NCCL communicator");
inline constexpr const char *kFromCudaContext =
    "PyTorch PR #86509 (lazy: 287 MB); HF Model training anatomy (eager: 1343 MiB), seed S11";
inline constexpr const char *kFromNccl = "NCCL environment variables docs (NCCL_BUFFSIZE)";
inline constexpr Symbol kNcclChannels{"n_ch", "", QT_TRANSLATE_NOOP("Derivation", "NCCL channels: 24 over NVLink and NVSwitch, 4 over PCIe")};
inline constexpr Symbol kNcclConnections{"c", "", QT_TRANSLATE_NOOP("Derivation", "connections each way on the busiest rank: ring and tree (one with two ranks)")};
inline constexpr Symbol kNcclConnectionMib{"12", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "a send (2 MiB) and a receive buffer (LL 0.5 + LL128 4.69 + Simple 4 MiB, to 10 MiB)")};
inline constexpr Symbol kNcclP2pChannels{"n_p2p", "", QT_TRANSLATE_NOOP("Derivation", "NCCL p2p channels: 32 over NVLink and NVSwitch, 4 over PCIe")};
inline constexpr Symbol kNcclSharedSteps{"16", "", QT_TRANSLATE_NOOP("Derivation", "NCCL_SHARED_STEPS")};
inline constexpr Symbol kNcclChunkMib{"chunk", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "p2p chunk: 0.5 MiB over NVLink, 0.125 MiB over PCIe")};
inline constexpr const char *kPartRingAndTree = QT_TRANSLATE_NOOP("Derivation", "ring and tree buffers");
inline constexpr const char *kPartSharedBuffers = QT_TRANSLATE_NOOP("Derivation", "shared p2p buffers");
inline constexpr Symbol kTpCommunicatorMib{"M_tp", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "tensor-parallel communicator")};
inline constexpr Symbol kPpCommunicatorMib{"M_pp", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "pipeline communicator")};
inline constexpr const char *kFromNcclSource =
    "NCCL v2.26.2-1 and v2.28.9-1: transport/p2p.cc p2pSendSetup/p2pRecvSetup (buffers rounded to CUDA_IPC_MIN), "
    "init.cc computeBuffSizes and the eager ring/tree connect and sharedNetBuffersInit when runtimeConn is off "
    "(NCCL_CUMEM_ENABLE=0), graph/search.cc and connect.cc ncclTopoPostset (channels)";
inline constexpr Symbol kCustomAllReduceMib{"M_car", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "custom all-reduce: signal and buffer (8 MiB + 3,456 B, to 10 MiB), buffer 8 MiB, rank data 8 MiB")};
inline constexpr const char *kFromSglangCustomAllReduce =
    "SGLang custom_all_reduce.py CustomAllreduce (v0.4.9.post2 eb118d8): _MAX_CAR_SIZE 8 MiB, "
    "create_shared_buffer(meta_size() + max_size) and (max_size), rank_data torch.empty(8 MiB)";
inline constexpr const char *kWhyRcclNotRead = QT_TRANSLATE_NOOP("Derivation", "another vendor's collective library (RCCL, HCCL): its buffers were not read; NCCL_BUFFSIZE's rule");
inline constexpr Symbol kAllReduceMib{"M_ar", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "all-reduce workspace per rank")};
inline constexpr Symbol kAllReduceBuffers{"4", "", QT_TRANSLATE_NOOP("Derivation", "IPC buffers and three Lamport buffers")};
inline constexpr const char *kFromTrtllmAllReduce =
    "TensorRT-LLM tensorrt_llm/_torch/distributed/allreduce_helper.py (4fb601b): 64 MiB a rank, IPC buffers of "
    "size x tp and Lamport buffers of 3 x size x tp, cudaMalloc'd while the model is built";
inline constexpr const char *kFromAllocator =
    "PyTorch CUDA caching allocator docs (reserved >= allocated); ZeRO §III-B fragmentation";
inline constexpr Symbol kFusionBuffers{"3", "", QT_TRANSLATE_NOOP("Derivation", "FlashInfer's all-reduce fusion buffers: the IPC buffer, its flags, the Lamport buffer")};
inline constexpr Symbol kMulticastGranularityMib{"g_mc", QT_TRANSLATE_NOOP("Derivation", "MiB"), QT_TRANSLATE_NOOP("Derivation", "each buffer rounded up to the driver's recommended multicast granularity")};
inline constexpr const char *kWhyMulticastGranularity = QT_TRANSLATE_NOOP("Derivation", "vLLM's all-reduce fusion on Hopper or Blackwell: FlashInfer rounds each buffer up to the multicast granularity, a driver value taken as 512 MiB (the peers' buffers of a published TP 2 start lie 512 MiB apart), so the three take 1.5 GiB whatever the model");
inline constexpr const char *kFromVllmAllReduceFusion =
    "vLLM v0.17.0-v0.20.1 config/vllm.py enable_allreduce_rms_fusion, compilation/passes/allreduce_rms_fusion.py; "
    "FlashInfer v0.6.6 comm/trtllm_ar.py (3 buffers) and comm/mnnvl.py SymmDeviceMemory "
    "(cuMulticastGetGranularity RECOMMENDED); the 512 MiB stride in sglang PR 18341's TP 2 log";
} // namespace overheads

// --- llama.cpp (the llama_context and llama_model::load_tensors rules) ---
// --- a speculative-decoding draft model (weights and kv_cache) ---
namespace draft {
inline constexpr Symbol kDraftWeights{"W_draft", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of the whole draft model, in the scenario's weight format")};
inline constexpr Symbol kDraftCachedValues{"c_kv,draft", "", QT_TRANSLATE_NOOP("Derivation", "values one token caches in one of the draft's attention layers on this rank")};
inline constexpr Symbol kDraftCachedTokens{"T_cache,draft", QT_TRANSLATE_NOOP("Derivation", "layer-tokens"), QT_TRANSLATE_NOOP("Derivation", "tokens the draft caches, summed over its layers")};
inline constexpr Symbol kTargetPart{"X_target", "B", QT_TRANSLATE_NOOP("Derivation", "the target model's part on this GPU")};
inline constexpr Symbol kDraftPart{"X_draft", "B", QT_TRANSLATE_NOOP("Derivation", "the draft model's part on this GPU, laid out as llama.cpp lays out the target")};
inline constexpr const char *kPartTarget = QT_TRANSLATE_NOOP("Derivation", "target model");
inline constexpr const char *kPartDraft = QT_TRANSLATE_NOOP("Derivation", "draft model");
inline constexpr const char *kWhyDraftF16Cache = QT_TRANSLATE_NOOP("Derivation", "llama.cpp keeps the draft's cache in f16 unless -ctkd/-ctvd say otherwise");
} // namespace draft

// --- weights in host memory, run on the GPU (host offload for inference) ---
namespace offload {
inline constexpr Symbol kModuleParams{"P_module", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the largest offloaded module: a decoder layer, or the lm_head when it is offloaded")};
inline constexpr Symbol kBytesPerParam{"b_W", "B", QT_TRANSLATE_NOOP("Derivation", "the model's weight bytes per parameter")};
inline constexpr Symbol kOffloadBudget{"B_offload", "B", QT_TRANSLATE_NOOP("Derivation", "--cpu-offload-gb of each GPU, in bytes (GiB x 2^30)")};
inline constexpr Symbol kLayerBytesHere{"W_layers", "B", QT_TRANSLATE_NOOP("Derivation", "this GPU's decoder-layer weight bytes: all that vLLM can offload")};
inline constexpr Symbol kOffloaded{"W_host", "B", QT_TRANSLATE_NOOP("Derivation", "weight bytes of this GPU kept in host memory")};
inline constexpr Symbol kTakenAway{"-1", "", QT_TRANSLATE_NOOP("Derivation", "taken away from the GPU")};
inline constexpr const char *kPartRunning = QT_TRANSLATE_NOOP("Derivation", "offloaded module while it runs");
inline constexpr const char *kPartOffloaded = QT_TRANSLATE_NOOP("Derivation", "kept in host memory");
inline constexpr const char *kPartEmbeddingOnly = QT_TRANSLATE_NOOP("Derivation", "embedding (the lm_head in host memory)");
inline constexpr const char *kWhyDeviceMapOffload = QT_TRANSLATE_NOOP("Derivation", "device_map with CPU offload: the first --gpu-layers layers on the GPUs, the rest and the lm_head in host memory");
inline constexpr const char *kWhyOneModuleAtATime = QT_TRANSLATE_NOOP("Derivation", "accelerate copies an offloaded module's weights to the GPU before it runs and frees them after: one module at a time");
inline constexpr const char *kWhyBudgetCapped = QT_TRANSLATE_NOOP("Derivation", "the budget exceeds this GPU's decoder layers: all of them are offloaded");
inline constexpr const char *kWhyPerParameter = QT_TRANSLATE_NOOP("Derivation", "vLLM moves whole parameters, the first layers' first, until the budget is reached: the last one moved may pass it by up to one tensor");
inline constexpr const char *kFromAccelerate =
    "accelerate src/accelerate/utils/modeling.py infer_auto_device_map (modules in order onto the GPUs, then cpu; "
    "no_split_module_classes keep decoder layers whole); big_modeling.py dispatch_model (execution_device = the "
    "main GPU for cpu modules) and hooks.py AlignDevicesHook(offload=True) pre_forward/post_forward";
inline constexpr const char *kFromVllm =
    "vLLM vllm/model_executor/offloader/uva.py UVAOffloader (per-parameter offload of the layers make_layers "
    "builds, pinned host memory, a UVA view the kernels read); vllm/config/offload.py cpu_offload_gb (GiB per GPU)";
} // namespace offload

namespace llamacpp {
inline constexpr Symbol kLayerBytesHere{"B_layers", "B", QT_TRANSLATE_NOOP("Derivation", "CUDA allocations of the blk.N tensors of the layers on this GPU (128-byte aligned, quantised rows padded to 512)")};
inline constexpr Symbol kOutputBytes{"B_output", "B", QT_TRANSLATE_NOOP("Derivation", "CUDA allocations of output and output_norm (a copy of token_embd when tied)")};
inline constexpr Symbol kLayerParams{"P_layers", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the repeating layers")};
inline constexpr Symbol kLayers{"L", "", QT_TRANSLATE_NOOP("Derivation", "repeating layers")};
inline constexpr Symbol kLayersHere{"L_gpu", "", QT_TRANSLATE_NOOP("Derivation", "repeating layers on this GPU (-ngl: the last ones)")};
inline constexpr Symbol kLayerParamsHere{"P_gpu", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the repeating layers on this GPU")};
inline constexpr Symbol kKeptShare{"f_gpu", "", QT_TRANSLATE_NOOP("Derivation", "share of these layers' parameters left after --n-cpu-moe keeps their routed experts on the CPU")};
inline constexpr Symbol kOutputParams{"P_out", "", QT_TRANSLATE_NOOP("Derivation", "parameters of the output layer (token_embd's copy when tied)")};
inline constexpr Symbol kSequences{"n_seq", "", QT_TRANSLATE_NOOP("Derivation", "parallel sequences, one KV stream each")};
inline constexpr Symbol kCells{"n_ctx_seq", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "KV cells per sequence: the context rounded up to 256")};
inline constexpr Symbol kSlidingCells{"n_swa_cells", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "cells of a sliding-window layer: min(n_ctx_seq, window + n_ubatch) rounded up to 256")};
inline constexpr Symbol kFullLayers{"L_full", "", QT_TRANSLATE_NOOP("Derivation", "full-attention layers on this GPU")};
inline constexpr Symbol kSlidingLayers{"L_swa", "", QT_TRANSLATE_NOOP("Derivation", "sliding-window layers on this GPU")};
inline constexpr Symbol kKeyElementBytes{"e_k", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a cached K value: -ctk (f16 2, q8_0 34/32, q4_0 18/32)")};
inline constexpr Symbol kValueElementBytes{"e_v", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of a cached V value: -ctv, as -ctk unless set")};
inline constexpr Symbol kRowBytes{"r_kv", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of one token's K row and V row in one layer: ggml_row_size(type_k, n_embd_k) + ggml_row_size(type_v, n_embd_v)")};
inline constexpr Symbol kKeyWidth{"n_embd_k", "", QT_TRANSLATE_NOOP("Derivation", "K values per token and layer")};
inline constexpr Symbol kValueWidth{"n_embd_v", "", QT_TRANSLATE_NOOP("Derivation", "V values per token and layer")};
inline constexpr Symbol kUbatch{"n_ubatch", QT_TRANSLATE_NOOP("Derivation", "tokens"), QT_TRANSLATE_NOOP("Derivation", "tokens of the micro-batch the compute buffer is reserved for")};
inline constexpr Symbol kHiddenRows{"4", "", QT_TRANSLATE_NOOP("Derivation", "hidden-wide f32 rows alive at the scores: residual, normed input, Q and roped Q")};
inline constexpr Symbol kExpertWidth{"w_exp", "", QT_TRANSLATE_NOOP("Derivation", "f32 values alive per routed token: max(gate and up = 2 I, their product and down's output = I + h)")};
inline constexpr Symbol kF16Bytes{"2", "B", QT_TRANSLATE_NOOP("Derivation", "bytes of an f16 element")};
inline constexpr const char *kPartLayers = QT_TRANSLATE_NOOP("Derivation", "repeating layers");
inline constexpr const char *kPartOutput = QT_TRANSLATE_NOOP("Derivation", "output layer");
inline constexpr const char *kPartScores = QT_TRANSLATE_NOOP("Derivation", "KQ scores (f32, softmax in place)");
inline constexpr const char *kPartMask = QT_TRANSLATE_NOOP("Derivation", "KQ mask (f32)");
inline constexpr const char *kPartMaskF16 = QT_TRANSLATE_NOOP("Derivation", "KQ mask (f16, for flash attention)");
inline constexpr const char *kPartHiddenRows = QT_TRANSLATE_NOOP("Derivation", "hidden-wide rows");
inline constexpr const char *kPartResidual = QT_TRANSLATE_NOOP("Derivation", "residual");
inline constexpr const char *kPartGateUp = QT_TRANSLATE_NOOP("Derivation", "gate and up outputs");
inline constexpr const char *kPartMlpOutputs = QT_TRANSLATE_NOOP("Derivation", "up, gate and their product (ungated: up)");
inline constexpr const char *kPartLogits = QT_TRANSLATE_NOOP("Derivation", "logits of every micro-batch token (f32)");
inline constexpr const char *kPartOutputInput = QT_TRANSLATE_NOOP("Derivation", "normed input of the output matmul");
inline constexpr const char *kWhyFromFile = QT_TRANSLATE_NOOP("Derivation", "the GGUF file's tensor table, placed as llama.cpp places it");
inline constexpr const char *kWhyFromFormat = QT_TRANSLATE_NOOP("Derivation", "no GGUF file: the weight format's bytes per parameter, placed as llama.cpp places them");
inline constexpr const char *kWhyInputOnHost = QT_TRANSLATE_NOOP("Derivation", "token_embd stays in host memory (llama.cpp never offloads the input layer)");
inline constexpr const char *kWhyOutputOnHost = QT_TRANSLATE_NOOP("Derivation", "-ngl 0: the output layer stays on the CPU");
inline constexpr const char *kWhyOutputOnLastGpu = QT_TRANSLATE_NOOP("Derivation", "the output layer is on the last GPU of the split");
inline constexpr const char *kWhyExpertsOnHost = QT_TRANSLATE_NOOP("Derivation", "--n-cpu-moe: the routed experts of the first layers stay in host memory");
inline constexpr const char *kWhyKvOnHost = QT_TRANSLATE_NOOP("Derivation", "--no-kv-offload: the KV cache lives in host memory");
inline constexpr const char *kWhyNoNccl = QT_TRANSLATE_NOOP("Derivation", "llama.cpp's layer split copies activations between GPUs itself: no NCCL communicator");
inline constexpr const char *kWhyNoReserve = QT_TRANSLATE_NOOP("Derivation", "llama.cpp allocates its buffers once, at start-up: no caching allocator");
inline constexpr const char *kWhyNoFlash = QT_TRANSLATE_NOOP("Derivation", "eager attention (-fa off): the KQ matrix is materialised");
inline constexpr const char *kWhyFlash = QT_TRANSLATE_NOOP("Derivation", "flash attention: no KQ matrix; the mask is made in f16");
inline constexpr const char *kWhyUnchecked = QT_TRANSLATE_NOOP("Derivation", "graph-order estimate, not checked against a llama.cpp log");
inline constexpr const char *kFromPlacement = "llama.cpp ec98e2002 src/llama-model.cpp llama_model::load_tensors (i_gpu_start, dev_input, dev_output); ggml-cuda.cu get_alloc_size";
inline constexpr const char *kFromKvCache = "llama.cpp ec98e2002 src/llama-context.cpp (n_ctx padded to 256), src/llama-kv-cache.cpp, src/llama-kv-cache-iswa.cpp";
inline constexpr const char *kFromCompute = "llama.cpp ec98e2002 src/llama-graph.cpp build_attn_mha / build_ffn / build_moe_ffn; ggml-alloc.c gallocr (peak of live tensors in graph order)";
} // namespace llamacpp

} // namespace core::text
