#pragma once

#include "core/estimate.h"
#include "core/formula.h"

// Every string a derivation shows: the symbols with their units and
// meanings, the names of the parts of a sum, the notes on which case of a
// rule applied, and the sources, gathered per term so that a translation
// pass can give each an id. English only; the engine never formats them.

namespace core::text {

/// The symbol a term's own formula defines ("KV", "W"), in TermId order.
inline const Symbol &termSymbol(TermId id)
{
    static constexpr Symbol kSymbols[] = {
        {"W", "B", "weights"},
        {"W_LoRA", "B", "LoRA adapters"},
        {"M", "B", "fp32 master weights"},
        {"G", "B", "gradients"},
        {"S", "B", "optimizer states"},
        {"A", "B", "activations saved for backward"},
        {"Logits", "B", "logits and loss"},
        {"KV", "B", "KV cache"},
        {"WS", "B", "workspace: transient tensors"},
        {"Gather", "B", "ZeRO-3 gather buffer"},
        {"NCCL", "B", "NCCL buffers"},
        {"CUDA", "B", "CUDA context"},
        {"R", "B", "allocator reserve"},
    };
    static_assert(sizeof kSymbols / sizeof kSymbols[0] == kTermCount);
    return kSymbols[static_cast<std::size_t>(id)];
}

// --- used by several terms ---
namespace shared {
inline constexpr Symbol kBatch{"b", "", "micro-batch size"};
inline constexpr Symbol kSequence{"s", "tokens", "sequence length"};
inline constexpr Symbol kVocab{"V", "", "vocabulary size"};
inline constexpr Symbol kHidden{"h", "", "hidden size"};
inline constexpr Symbol kHeads{"a", "", "attention heads"};
inline constexpr Symbol kQueryWidth{"h_q", "", "query width: heads x head_dim"};
inline constexpr Symbol kKeyValueWidth{"h_kv", "", "key/value width: kv_heads x head_dim"};
inline constexpr Symbol kKvHeads{"n_kv", "", "key-value heads"};
inline constexpr Symbol kKvHeadsHere{"n_kv,rank", "", "key-value heads on this rank: ceil(kv_heads / t), at least 1"};
inline constexpr Symbol kHeadDim{"d", "", "head dimension"};
inline constexpr Symbol kKeyAndValue{"2", "", "K and V"};
inline constexpr Symbol kIntermediate{"I", "", "MLP intermediate size (of one expert in an MoE layer)"};
inline constexpr Symbol kExpertsRun{"k", "", "experts each token runs through (routed top-k plus shared)"};
inline constexpr Symbol kFp32Bytes{"4", "B", "bytes of an fp32 element"};
inline constexpr Symbol kActivationBytes{"e", "B", "bytes of an activation element"};
inline constexpr Symbol kTp{"t", "", "tensor-parallel ranks"};
inline constexpr Symbol kDp{"N", "", "data-parallel ranks ZeRO/FSDP shards over"};
inline constexpr Symbol kLayersHere{"L_rank", "", "decoder layers on this rank"};
inline constexpr Symbol kParams{"P", "", "parameters of the model"};
inline constexpr Symbol kTrainableParams{"P_train", "", "parameters that train"};
inline constexpr Symbol kModelWeights{"W_model", "B", "weight bytes of the whole model"};
inline constexpr Symbol kRankShare{"f", "", "this rank's share of the parameters"};
inline constexpr Symbol kAdapterShare{"f_A", "", "this rank's share of the adapters: its layers' share / t"};
inline constexpr Symbol kLargestLayer{"P_layer", "", "parameters of the largest layer (or embedding table)"};
inline constexpr Symbol kLmHeadParams{"P_head", "", "parameters of the lm_head"};
inline constexpr Symbol kLogitsElementBytes{"c", "B", "bytes per logits element: the tensors alive together"};
inline constexpr Symbol kBatchedTokens{"T", "tokens", "vLLM max_num_batched_tokens"};
inline constexpr const char *kWhyStatesOffloaded =
    "ZeRO-Offload keeps the fp32 master weights and optimizer states in host memory and steps on the CPU";
} // namespace shared

// --- this rank's share of the model (tp, pp, ep) ---
namespace rank {
inline constexpr Symbol kLayers{"L", "", "decoder layers of the model"};
inline constexpr Symbol kLayerShare{"f_L", "", "this rank's share of the decoder layers"};
inline constexpr Symbol kParamsHere{"P_rank", "", "parameters on this rank before tensor parallelism"};
inline constexpr Symbol kLayerParams{"P_layers", "", "parameters of all decoder layers, experts excepted"};
inline constexpr Symbol kExpertParams{"P_experts", "", "parameters of all routed experts"};
inline constexpr Symbol kEp{"ep", "", "expert-parallel ranks"};
inline constexpr Symbol kEmbeddingParams{"P_embed", "", "parameters of the embedding tables"};
inline constexpr Symbol kEndParams{"P_ends", "", "parameters of the embeddings and the lm_head"};
inline constexpr Symbol kStages{"p", "", "pipeline stages: micro-batches the first stage holds (1F1B)"};
inline constexpr Symbol kInterleaveWarmup{"g", "", "interleaving's extra warm-up: 1 + (p - 1) / (p x v)"};
inline constexpr const char *kPartLayers = "decoder layers here";
inline constexpr const char *kPartExperts = "this rank's experts";
inline constexpr const char *kPartEmbedding = "embedding (first stage)";
inline constexpr const char *kPartLmHead = "lm_head (last stage)";
inline constexpr const char *kPartEnds = "embedding and lm_head";
inline constexpr const char *kWhyPipeline = "pipeline parallelism: ceil(L / p) layers on each stage";
inline constexpr const char *kWhyDeviceMap = "device_map=\"auto\": ceil(L / GPUs) layers on each GPU";
inline constexpr const char *kFromSplit =
    "Shoeybi et al. 2019 (Megatron-LM) §3; Narayanan et al. 2021 §2 (pipeline stages)";
inline constexpr const char *kFromInFlight = "Korthikanti et al. 2022, arXiv:2205.05198 §4.2.3 (1F1B in flight)";
} // namespace rank

// --- weights ---
namespace weights {
inline constexpr Symbol kWeightBytes{"b_w", "B", "bytes of a 16-bit (or fp32) weight"};
inline constexpr Symbol kQuantizedParams{"P_q", "", "parameters stored in the weight format"};
inline constexpr Symbol kBitsPerWeight{"bpw", "bits", "bits per stored weight"};
inline constexpr Symbol kValueBits{"bits", "bits", "bits of the value itself"};
inline constexpr Symbol kScaleBits{"bits_scale", "bits", "scales and zero-points per weight"};
inline constexpr Symbol kBitsPerByte{"8", "bits/B", "bits per byte"};
inline constexpr Symbol kUnquantizedParams{"P_rest", "",
                                           "embeddings, norms, biases (and usually lm_head), unquantised"};
inline constexpr Symbol kUnquantizedBytes{"b_rest", "B", "bytes of an unquantised parameter"};
inline constexpr const char *kPartQuantized = "quantised weights";
inline constexpr const char *kPartUnquantized = "unquantised weights";
inline constexpr const char *kPartValueBits = "value";
inline constexpr const char *kWhyKbitUpcast =
    "b_rest = 4: PEFT prepare_model_for_kbit_training casts the unquantised weights to fp32";
inline constexpr const char *kWhyParamsOffloaded =
    "ZeRO-Infinity keeps the parameters in host memory and gathers a layer at a time";
inline constexpr const char *kFromZeroModelStates = "Rajbhandari et al. 2020 (ZeRO) §III-A";
} // namespace weights

// --- LoRA adapters ---
namespace lora {
inline constexpr Symbol kRank{"r", "", "LoRA rank"};
inline constexpr Symbol kInPlusOut{"in + out", "", "input plus output features of the adapted projection"};
inline constexpr Symbol kMatrices{"n", "", "such projections in the model"};
/// Indexed by LinearSlot.
inline constexpr const char *kPartAdapters[] = {"",
                                                "q_proj adapters",
                                                "k_proj adapters",
                                                "v_proj adapters",
                                                "o_proj adapters",
                                                "gate_proj adapters",
                                                "up_proj adapters",
                                                "down_proj adapters"};
inline constexpr const char *kFromLora = "Hu et al. 2021, LoRA, arXiv:2106.09685 §4.1";
} // namespace lora

// --- master weights ---
namespace master {
inline constexpr Symbol kMasterBytes{"b_m", "B", "bytes of the fp32 master copy per parameter"};
inline constexpr const char *kWhyNoMaster = "this regime keeps no separate master copy";
inline constexpr const char *kFromMaster = "Micikevicius et al. 2018, Mixed Precision Training §3.1; ZeRO §III-A";
} // namespace master

// --- gradients ---
namespace gradients {
inline constexpr Symbol kGradientBytes{"b_g", "B", "gradient bytes per parameter"};
inline constexpr Symbol kReduceBucket{"5e8", "elements", "DeepSpeed reduce_bucket_size"};
inline constexpr const char *kWhyReduceBucket =
    "offloaded: gradients stream to the host through one reduce bucket";
inline constexpr const char *kWhyFirstHeadGradients =
    "start of backward: only the first gradients exist, the lm_head's (larger than any layer's)";
inline constexpr const char *kWhyFirstLayerGradients =
    "start of backward: only the first gradients exist, those of one layer (the largest)";
inline constexpr const char *kWhyFirstAdapterGradients =
    "start of backward: only the first gradients exist, the last layer's adapters";
inline constexpr const char *kWhyAccumulated = "gradient accumulation keeps every gradient between micro-batches";
inline constexpr const char *kFromReduceBucket = "DeepSpeed configuration docs, zero_optimization.reduce_bucket_size";
} // namespace gradients

// --- optimizer states ---
namespace optimizer {
inline constexpr Symbol kOptimizerStates{"S_all", "B", "optimizer states of all trainable parameters"};
inline constexpr Symbol kStates{"n_s", "", "full-size states per parameter"};
inline constexpr Symbol kStateBytes{"b_s", "B", "bytes of one state element"};
inline constexpr Symbol kFixedStateBytes{"b_s", "B", "state bytes per parameter (8-bit states)"};
inline constexpr Symbol kRowsPlusCols{"sum(rows + cols)", "", "row and column accumulators of every matrix"};
inline constexpr Symbol kVectorElements{"sum(vector)", "", "elements of every vector parameter"};
inline constexpr const char *kPartFactoredMoments = "factored second moments of the matrices";
inline constexpr const char *kPartVectorMoments = "second moments of the vectors";
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
inline constexpr Site kAttentionInput{"attention input (kept once for its readers)",
                                      "attention input: private casts of q, k, v",
                                      "attention input: adapter dropout copies",
                                      "attention input: adapter dropout masks"};
inline constexpr Site kMlpInput{"MLP input (kept once for its readers)", "MLP input: private casts of gate, up",
                                "MLP input: adapter dropout copies", "MLP input: adapter dropout masks"};
inline constexpr Site kAttentionOutput{"o_proj input (the attention output)", "o_proj input: private cast",
                                       "o_proj input: adapter dropout copy", "o_proj input: adapter dropout mask"};
inline constexpr Site kMlpProduct{"down_proj input (the MLP product)", "down_proj input: private cast",
                                  "down_proj input: adapter dropout copy", "down_proj input: adapter dropout mask"};
inline constexpr Site kHeadInput{"lm_head input", "lm_head input: private cast", "lm_head input: dropout copy",
                                 "lm_head input: dropout mask"};
/// What a norm saves: a LayerNorm its input; an RMSNorm its fp32 input
/// and, when its weight trains, the normalised input.
struct Norm
{
    const char *layerNormInput;
    const char *rmsNormFp32;
    const char *rmsNormNormed;
};
inline constexpr Norm kAttentionNorm{"attention norm input", "attention norm: fp32 input that pow saves",
                                     "attention norm: normalised input for its trained weight"};
inline constexpr Norm kMlpNorm{"MLP norm input", "MLP norm: fp32 input that pow saves",
                               "MLP norm: normalised input for its trained weight"};
inline constexpr Norm kFinalNorm{"final norm input", "final norm: fp32 input that pow saves",
                                 "final norm: normalised input for its trained weight"};

inline constexpr Symbol kPerToken{"c_layer", "B/token", "bytes one layer saves per token, scores excepted"};
inline constexpr Symbol kScores{"S_scores", "B", "eager attention's score tensors of one layer"};
inline constexpr Symbol kScoreBytes{"e_sc", "B", "bytes per score element: the tensors softmax leaves"};
inline constexpr Symbol kKeptPerLayer{"A_layer", "B", "bytes each layer keeps for backward"};
inline constexpr Symbol kInFlight{"n_mb", "", "micro-batches in flight on this stage"};
inline constexpr Symbol kEmbeddingSide{"A_first", "B", "saved on the embedding side (first stage)"};
inline constexpr Symbol kHeadSide{"A_last", "B", "saved by the final norm and the lm_head (last stage)"};
inline constexpr Symbol kFirstPerToken{"c_first", "B/token", "bytes per token the embedding side saves"};
inline constexpr Symbol kLastPerToken{"c_last", "B/token", "bytes per token the final norm and lm_head save"};
inline constexpr Symbol kGradientsPerToken{"c_grad", "B/token",
                                           "gradient bytes per token alive inside one layer's backward"};
inline constexpr Symbol kMlpGradients{"3", "", "the MLP's I-wide gradients: of act(gate) x up, act(gate) and up"};
inline constexpr Symbol kResidualBytes{"e_res", "B", "bytes of a residual-stream element"};
inline constexpr Symbol kAttentionBytes{"e_att", "B", "bytes of an attention tensor element"};
inline constexpr Symbol kLinearOutBytes{"e_out", "B", "bytes of a projection output element"};
inline constexpr Symbol kInputBytes{"e_in", "B", "bytes of the input element as its readers keep it"};
inline constexpr Symbol kCopyBytes{"e_copy", "B", "bytes per element of a reader's private copy"};
inline constexpr Symbol kSoftmaxBytes{"e_sm", "B", "bytes of the softmax output element"};
inline constexpr Symbol kMaskBytes{"1", "B", "a dropout mask byte"};
inline constexpr Symbol kNorms{"n_norm", "", "such norms in the layer"};
inline constexpr Symbol kReaders{"n_readers", "", "readers that keep such a copy"};
inline constexpr Symbol kActivationSaves{"n_act", "", "I-wide tensors the activation function saves"};
inline constexpr Symbol kOperands{"2", "", "operands of act(gate) x up"};
inline constexpr Symbol kExperts{"E", "", "routed experts (router logits per token)"};
inline constexpr Symbol kAdaptedSlots{"n_A", "", "adapted projections per layer"};
inline constexpr Symbol kAdapterOutBytes{"e_A", "B", "bytes of an element of x·A"};
inline constexpr const char *kPartQuery = "q (saved by attention)";
inline constexpr const char *kPartKeyValue = "k and v (saved by attention)";
inline constexpr const char *kPartKeyValueRepeated = "k and v repeated to every head (repeat_kv)";
inline constexpr const char *kPartKernelOutput = "attention kernel output";
inline constexpr const char *kPartLogSumExp = "fp32 log-sum-exp per head";
inline constexpr const char *kPartAttentionDropout = "dropout mask after o_proj";
inline constexpr const char *kPartActivationFunction = "activation function's saved inputs";
inline constexpr const char *kPartGatedProduct = "act(gate) and up, saved by their product";
inline constexpr const char *kPartRouter = "fp32 router logits";
inline constexpr const char *kPartMlpDropout = "dropout mask after the MLP";
inline constexpr const char *kPartAdapterOutputs = "x·A of each adapter, saved for B";
inline constexpr const char *kPartSoftmaxOutput = "softmax output";
inline constexpr const char *kPartSoftmaxCopy = "copy the value matmul saves";
inline constexpr const char *kPartScoreMask = "attention dropout mask";
inline constexpr const char *kPartPerTokenTensors = "tensors per token";
inline constexpr const char *kPartScores = "attention scores";
inline constexpr const char *kPartMlpGradients = "MLP gradients";
inline constexpr const char *kPartIncomingGradient = "incoming gradient";
inline constexpr const char *kPartEmbeddingDropout = "embedding dropout mask";
inline constexpr const char *kPartEmbeddingNorm = "embedding LayerNorm input";
inline constexpr const char *kPartLayerInput = "layer input (all that full recompute keeps)";
inline constexpr const char *kPartLayers = "layers on this rank";
inline constexpr const char *kPartEmbeddingSide = "embedding side";
inline constexpr const char *kPartHeadSide = "final norm and lm_head";
inline constexpr const char *kWhySelective = "selective recompute: the attention scores are recomputed";
inline constexpr const char *kWhyFullRecompute = "full recompute: each layer keeps only its input";
inline constexpr const char *kFromKorthikanti =
    "Korthikanti et al. 2022, arXiv:2205.05198 §4.1 (sbh(34 + 5as/h) per GPT layer), generalised";
} // namespace activations

// --- logits and loss ---
namespace logits {
inline constexpr Symbol kLogitsBytes{"e_l", "B", "bytes of a logits element as the lm_head emits it"};
inline constexpr Symbol kChunks{"8", "", "chunks of the chunked loss"};
inline constexpr Symbol kChunkFp32Bytes{"8", "B", "fp32 bytes per element of one chunk's work (copy and exp)"};
inline constexpr Symbol kSamplerRows{"rows", "", "sampler warm-up rows: min(max_num_batched_tokens, max_num_seqs)"};
inline constexpr Symbol kSamplerBytes{"c_sampler", "B", "bytes per row and vocabulary entry in the sampler"};
inline constexpr Symbol kInt64Bytes{"8", "B", "bytes of an int64 index"};
inline constexpr Symbol kBoolBytes{"1", "B", "bytes of a bool mask element"};
inline constexpr const char *kPartLogits = "logits";
inline constexpr const char *kPartKeptLogits = "logits the training loop keeps";
inline constexpr const char *kPartKeptFp32Logits = "fp32 logits the training loop keeps";
inline constexpr const char *kPartFp32Logits = "fp32 logits";
inline constexpr const char *kPartFp32Copy = "fp32 copy (.float())";
inline constexpr const char *kPartShiftedCopy = "shifted contiguous copy";
inline constexpr const char *kPartLogSoftmax = "log-softmax output";
inline constexpr const char *kPartSavedLogSoftmax = "saved log-softmax";
inline constexpr const char *kPartGradientIn = "gradient from nll_loss";
inline constexpr const char *kPartGradientOut = "gradient out of log_softmax";
inline constexpr const char *kPartChunkLogits = "one chunk's logits";
inline constexpr const char *kPartChunkFp32Copy = "one chunk's fp32 copy";
inline constexpr const char *kPartChunkGradientIn = "one chunk's fp32 gradient in";
inline constexpr const char *kPartChunkGradientOut = "one chunk's fp32 gradient out";
inline constexpr const char *kPartChunkLogitsGradient = "one chunk's logits gradient";
inline constexpr const char *kPartChunkFp32Work = "one chunk's fp32 work";
inline constexpr const char *kPartChunkGradient = "one chunk's fp32 gradient";
inline constexpr const char *kPartSamplerRows = "sampler rows";
inline constexpr const char *kPartHiddenStates = "hidden states the forward left";
inline constexpr const char *kPartSortedValues = "sorted fp32 values";
inline constexpr const char *kPartSortedIndices = "int64 sort indices";
inline constexpr const char *kPartTopKMask = "top-k mask";
inline constexpr const char *kPartTopPMask = "top-p mask";
inline constexpr const char *kPartSortedSoftmax = "fp32 softmax of the sorted values";
inline constexpr const char *kPartScatter = "fp32 scatter result";
inline constexpr const char *kWhyEncoderOnly = "encoder-only: no causal-LM head, no logits";
inline constexpr const char *kWhyHeadElsewhere = "the lm_head and its logits live on the last pipeline stage";
inline constexpr const char *kWhyRowsAreSeqs = "rows = max_num_seqs (fewer than the token budget)";
inline constexpr const char *kWhyRowsAreTokens = "rows = max_num_batched_tokens (fewer than max_num_seqs)";
inline constexpr const char *kFromHfLoss = "Hugging Face transformers loss_utils.ForCausalLMLoss (logits.float())";
inline constexpr const char *kFromShiftedLoss =
    "transformers <= 4.44 LlamaForCausalLM.forward (logits.float(), shifted copy); torchtune before its chunked loss";
inline constexpr const char *kFromNativeLoss = "LitGPT chunked_cross_entropy in the logits' dtype";
inline constexpr const char *kFromChunkedLoss = "torchtune LinearCrossEntropyLoss (num_output_chunks = 8)";
inline constexpr const char *kFromFusedLoss = "torch.compile'd torchtune loss: 16-bit logits, log-sum-exp per row";
inline constexpr const char *kFromGenerate = "Hugging Face generate() (logits_to_keep = 1)";
inline constexpr const char *kFromVllmSampler =
    "vllm v1 gpu_model_runner.py _dummy_sampler_run; v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p";
} // namespace logits

// --- KV cache ---
namespace kv {
inline constexpr Symbol kKvElementBytes{"e_kv", "B", "bytes of a cached element"};
inline constexpr Symbol kCachedTokens{"T_cache", "layer-tokens", "tokens cached, summed over this rank's layers"};
inline constexpr Symbol kFullLayers{"L_full", "", "full-attention layers on this rank"};
inline constexpr Symbol kSlidingLayers{"L_window", "", "sliding-window layers on this rank"};
inline constexpr Symbol kWindow{"w", "tokens", "sliding window, at most the context"};
inline constexpr const char *kPartFullLayers = "full-attention layers";
inline constexpr const char *kPartSlidingLayers = "sliding-window layers";
inline constexpr const char *kWhyKvHeadCopy = "fewer key-value heads than ranks: each rank keeps a copy of one";
inline constexpr const char *kWhyEncoderOnly = "encoder-only: no KV cache";
inline constexpr const char *kFromPope = "Pope et al. 2022, Efficiently Scaling Transformer Inference §3.1";
inline constexpr const char *kFromSlidingWindow =
    "Beltagy et al. 2020, Longformer §3.1; Jiang et al. 2023, Mistral 7B §2 (rolling buffer cache)";
} // namespace kv

// --- workspace (transients) ---
namespace workspace {
inline constexpr Symbol kAutocastCopies{"b_cast", "B", "bytes of autocast's cached 16-bit copies per parameter"};
inline constexpr Symbol kCastBytes{"2", "B", "bytes of a 16-bit cast"};
inline constexpr Symbol kLinearParams{"P_linear", "", "parameters of the layers' linear weights"};
inline constexpr Symbol kDequantBytes{"e_dq", "B",
                                      "bytes a dequantisation allocates per weight element (bitsandbytes: one "
                                      "16-bit copy; torchao NF4: two int64 index tensors of n/2 and three half-size "
                                      "16-bit intermediates)"};
inline constexpr Symbol kLargestMatrix{"rows x cols", "", "elements of the largest quantised matrix"};
inline constexpr Symbol kRecomputedLayer{"A_recompute", "B", "one layer's activations, recomputed"};
inline constexpr Symbol kLayerGradients{"G_layer", "B", "gradients alive inside one layer's backward"};
inline constexpr Symbol kStepTemporaryBytes{"b_tmp", "B", "bytes per parameter of the step's full-size temporary"};
inline constexpr Symbol kTwoTensors{"2", "", "two such tensors"};
inline constexpr Symbol kMlpTensors{"n_mlp", "", "I-wide tensors alive together in the MLP"};
inline constexpr Symbol kPrefillPerToken{"c_prefill", "B/token", "one layer's temporaries per token"};
inline constexpr Symbol kScoreBytes{"e_sc", "B", "bytes per score element: scores and softmax output"};
inline constexpr Symbol kSharedExperts{"n_shared", "", "shared experts"};
inline constexpr Symbol kProfileWidth{"w", "", "elements per token alive in one profiled layer"};
inline constexpr const char *kPartWeightCasts = "autocast's 16-bit copies of the weights";
inline constexpr const char *kPartAdapterCasts = "autocast's 16-bit copies of the fp32 adapters";
inline constexpr const char *kPartFrozenLinearCasts = "16-bit casts of the frozen fp32 linear weights";
inline constexpr const char *kPartFrozenHeadCast = "16-bit cast of the frozen fp32 lm_head";
inline constexpr const char *kPartDequant = "dequantised base weight";
inline constexpr const char *kPartHeadDequant = "dequantised lm_head (or a larger layer weight)";
inline constexpr const char *kPartRecomputedLayer = "recomputed layer";
inline constexpr const char *kPartLayerGradients = "layer gradients";
inline constexpr const char *kPartResidual = "layer input and its normed copy";
inline constexpr const char *kPartQueryAndOutput = "Q and the attention output";
inline constexpr const char *kPartKeyAndValue = "K and V";
inline constexpr const char *kPartRepeatedKv = "K and V repeated to every head (repeat_kv)";
inline constexpr const char *kPartGatedMlp = "gate, up and act(gate)";
inline constexpr const char *kPartPlainMlp = "up projection and its activation";
inline constexpr const char *kPartLayerTemporaries = "one layer's temporaries";
inline constexpr const char *kPartScores = "attention scores";
inline constexpr const char *kPartSoftmax = "softmax output";
inline constexpr const char *kPartFp32Softmax = "fp32 softmax output";
inline constexpr const char *kPartQuery = "q";
inline constexpr const char *kPartAttentionOutput = "attention output";
inline constexpr const char *kPartRoutedExperts = "routed experts' gate_up and activation";
inline constexpr const char *kPartRoutedOutputs = "routed experts' outputs";
inline constexpr const char *kPartSharedExperts = "shared experts";
inline constexpr const char *kPartGateUp = "merged gate_up";
inline constexpr const char *kPartSiluAndMul = "SiluAndMul output";
inline constexpr const char *kPartUp = "up projection";
inline constexpr const char *kPartMlpActivation = "activation output";
inline constexpr const char *kWhyAttentionLarger = "attention's intermediates outweigh the MLP's";
inline constexpr const char *kWhyMlpLarger = "the MLP's intermediates outweigh attention's";
inline constexpr const char *kWhyForeachTemporary =
    "multi-tensor (foreach) Adam: _foreach_sqrt of the second moments into a new full-size list";
inline constexpr const char *kWhyNoStepTemporary = "fused or per-parameter step: no full-size temporary";
inline constexpr const char *kFromAutocast = "ATen autocast_mode.cpp cached_cast (fp32 leaves only)";
inline constexpr const char *kFromDequant = "bitsandbytes dequantize_4bit; torchao NF4Tensor.get_original_weight";
inline constexpr const char *kFromCheckpoint = "torch.utils.checkpoint; autograd of LlamaMLP / GPT2MLP";
inline constexpr const char *kFromOptimizerStep = "torch/optim/adam.py _multi_tensor_adam";
inline constexpr const char *kFromPrefill = "Hugging Face modeling_llama.py forward, without autograd";
inline constexpr const char *kFromVllmProfile =
    "vllm v1 gpu_model_runner.py profile_run (_dummy_run; attention skipped while profiling)";
} // namespace workspace

// --- ZeRO-3 gather buffer ---
namespace gather {
inline constexpr Symbol kGatheredUnits{"2", "", "the current and the prefetched unit"};
inline constexpr Symbol kGatheredBytes{"b_gather", "B", "bytes per gathered parameter (stored format)"};
inline constexpr const char *kWhyNoGather = "not used: below ZeRO stage 3 every GPU holds whole layers";
inline constexpr const char *kFromGather =
    "DeepSpeed stage3.py estimate_zero3_model_states_mem_needs (4 x largest layer params)";
} // namespace gather

// --- CUDA context, NCCL buffers, allocator reserve ---
namespace overheads {
inline constexpr Symbol kContextMib{"M_cuda", "MiB", "CUDA context and library workspaces"};
inline constexpr Symbol kBytesPerMib{"1,048,576", "B/MiB", "bytes per MiB"};
inline constexpr Symbol kNcclMib{"M_nccl", "MiB", "NCCL buffers"};
inline constexpr Symbol kNcclBuffsize{"NCCL_BUFFSIZE", "MiB", "NCCL buffer per channel and direction"};
inline constexpr Symbol kDirections{"2", "", "send and receive"};
inline constexpr Symbol kChannels{"32", "", "channels"};
inline constexpr Symbol kProtocols{"2", "", "protocols"};
inline constexpr Symbol kTensorBytes{"M_tensors", "B", "the GPU tensors at this moment"};
inline constexpr Symbol kReserveShare{"r", "", "allocator reserve, as a share of the tensors"};
inline constexpr const char *kWhySetByUser = "set by the user";
inline constexpr const char *kWhyLazyLoading = "lazy CUDA module loading";
inline constexpr const char *kWhyEagerLoading = "eager CUDA module loading";
inline constexpr const char *kWhyNoNccl = "not used: one GPU creates no NCCL communicator";
inline constexpr const char *kFromCudaContext =
    "PyTorch PR #86509 (lazy: 287 MB); HF Model training anatomy (eager: 1343 MiB), seed S11";
inline constexpr const char *kFromNccl = "NCCL environment variables docs (NCCL_BUFFSIZE)";
inline constexpr const char *kFromAllocator =
    "PyTorch CUDA caching allocator docs (reserved >= allocated); ZeRO §III-B fragmentation";
} // namespace overheads

} // namespace core::text
