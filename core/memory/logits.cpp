#include "core/memory/logits.h"

#include "core/memory/formulatext.h"

#include <algorithm>

namespace core {

Derived logitsBytesPerElement(LogitsMode mode, double e, bool backward, bool callerKeepsLogits, FormulaStore *store)
{
    namespace l = text::logits;
    constexpr double chunks = 8; // torchtune LinearCrossEntropyLoss num_output_chunks
    const bool upcast = e < 4.0; // .float() copies only 16-bit logits
    Formula bytes(store);
    const auto part = [&bytes](const char *name, const Symbol &symbol, double value) {
        bytes.product(name).times(symbol, value);
    };
    const auto chunk = [&bytes](const char *name, const Symbol &symbol, double value) {
        bytes.product(name).times(symbol, value).over(l::kChunks, chunks);
    };
    // log_softmax_backward: the fp32 gradient coming in (from nll_loss) and
    // going out, beside the saved fp32 log-softmax output.
    const auto lossBackward = [&part] {
        part(l::kPartGradientIn, text::shared::kFp32Bytes, 4.0);
        part(l::kPartGradientOut, text::shared::kFp32Bytes, 4.0);
        part(l::kPartSavedLogSoftmax, text::shared::kFp32Bytes, 4.0);
    };
    switch (mode) {
    case LogitsMode::Fp32:
        // Hugging Face ForCausalLMLoss: logits.float() then cross_entropy.
        // Forward: the logits + their fp32 copy + the fp32 log-softmax output.
        if (backward) {
            if (callerKeepsLogits)
                part(l::kPartKeptLogits, l::kLogitsBytes, e);
            lossBackward();
        } else {
            part(l::kPartLogits, l::kLogitsBytes, e);
            if (upcast)
                part(l::kPartFp32Copy, text::shared::kFp32Bytes, 4.0);
            part(l::kPartLogSoftmax, text::shared::kFp32Bytes, 4.0);
        }
        bytes.cite(l::kFromHfLoss);
        break;
    case LogitsMode::Fp32Shift:
        // The model returns logits.float() and the loss shifts a contiguous
        // copy (transformers <= 4.45 LlamaForCausalLM.forward; torchtune's
        // decoder `self.output(h).float()` and recipe before its chunked
        // loss): fp32 logits + the shifted copy + the log-softmax output; a
        // loop that keeps its logits keeps the fp32 copy through backward.
        if (backward) {
            if (callerKeepsLogits)
                part(l::kPartKeptFp32Logits, text::shared::kFp32Bytes, 4.0);
            lossBackward();
        } else {
            part(l::kPartFp32Logits, text::shared::kFp32Bytes, 4.0);
            part(l::kPartShiftedCopy, text::shared::kFp32Bytes, 4.0);
            part(l::kPartLogSoftmax, text::shared::kFp32Bytes, 4.0);
        }
        bytes.cite(l::kFromShiftedLoss);
        break;
    case LogitsMode::Native:
        // cross_entropy in the logits' dtype (LitGPT): the saved
        // log-softmax, and in backward the gradient in and out of it.
        if (backward) {
            if (callerKeepsLogits)
                part(l::kPartKeptLogits, l::kLogitsBytes, e);
            part(l::kPartGradientIn, l::kLogitsBytes, e);
            part(l::kPartGradientOut, l::kLogitsBytes, e);
            part(l::kPartSavedLogSoftmax, l::kLogitsBytes, e);
        } else {
            part(l::kPartLogits, l::kLogitsBytes, e);
            part(l::kPartLogSoftmax, l::kLogitsBytes, e);
        }
        bytes.cite(l::kFromNativeLoss);
        break;
    case LogitsMode::Chunked:
        // Eager chunked loss: each chunk's fp32 log-softmax output stays saved
        // (4 B for every element); one chunk's logits, fp32 copy or
        // gradients are alive at a time.
        part(l::kPartSavedLogSoftmax, text::shared::kFp32Bytes, 4.0);
        if (backward) {
            chunk(l::kPartChunkGradientIn, text::shared::kFp32Bytes, 4.0);
            chunk(l::kPartChunkGradientOut, text::shared::kFp32Bytes, 4.0);
            chunk(l::kPartChunkLogitsGradient, l::kLogitsBytes, e);
        } else {
            chunk(l::kPartChunkLogits, l::kLogitsBytes, e);
            if (upcast)
                chunk(l::kPartChunkFp32Copy, text::shared::kFp32Bytes, 4.0);
        }
        bytes.cite(l::kFromChunkedLoss);
        break;
    case LogitsMode::Fused:
        // torchtune's compiled chunk (compile_loss over compute_cross_entropy):
        // Inductor folds the upcast into the row max and log-sum-exp
        // reductions, so no fp32 copy is written; the partitioner saves the
        // 16-bit chunk and those per-row results, and backward writes the
        // chunk's gradient in the chunk's own dtype in one pointwise kernel.
        part(l::kPartLogits, l::kLogitsBytes, e);
        if (backward)
            chunk(l::kPartChunkLogitsGradient, l::kLogitsBytes, e);
        bytes.cite(l::kFromFusedLoss);
        break;
    case LogitsMode::FusedLinear:
        // Sized from the hidden width, not per logit: fusedLinearLossBytes.
        bytes.note(l::kWhyFusedLinear).cite(l::kFromLigerFlce);
        break;
    case LogitsMode::LastToken:
        // generate() computes the last position's logits only
        // (logits_to_keep = 1) and samples from their fp32 copy.
        part(l::kPartLogits, l::kLogitsBytes, e);
        part(l::kPartFp32Copy, text::shared::kFp32Bytes, 4.0);
        bytes.cite(l::kFromGenerate);
        break;
    }
    return bytes.derived();
}

double lossSavedBytesPerElement(LogitsMode mode, double e)
{
    if (mode == LogitsMode::FusedLinear)
        return 0.0;
    return mode == LogitsMode::Native || mode == LogitsMode::Fused ? e : 4.0;
}

Derived fusedLinearLossBytes(std::uint64_t batch, std::uint64_t sequence, std::uint64_t hidden, std::uint64_t vocab,
                             double e, bool backward, bool headWeightTrains, FormulaStore *store)
{
    const std::uint64_t tokens = batch * sequence;
    namespace l = text::logits;
    namespace sh = text::shared;
    const std::uint64_t h = std::max<std::uint64_t>(1, hidden);
    const std::uint64_t incFactor = (vocab + h - 1) / h;
    std::uint64_t chunk = 1;
    while (chunk < (tokens + std::max<std::uint64_t>(1, incFactor) - 1) / std::max<std::uint64_t>(1, incFactor))
        chunk *= 2;
    chunk = std::min(chunk, std::max<std::uint64_t>(1, tokens));
    Formula bytes(store);
    bytes.product(l::kPartHiddenGradient)
        .times(sh::kBatch, static_cast<double>(batch))
        .times(sh::kSequence, static_cast<double>(sequence))
        .times(sh::kHidden, static_cast<double>(hidden))
        .times(l::kLogitsBytes, e);
    if (headWeightTrains)
        bytes.product(l::kPartHeadWeightGradient)
            .times(sh::kVocab, static_cast<double>(vocab))
            .times(sh::kHidden, static_cast<double>(hidden))
            .times(l::kLogitsBytes, e);
    if (!backward) {
        bytes.product(l::kPartChunkLogits)
            .times(l::kChunkTokens, static_cast<double>(chunk))
            .times(sh::kVocab, static_cast<double>(vocab))
            .times(l::kLogitsBytes, e);
        bytes.product(l::kPartTokenLosses)
            .times(sh::kBatch, static_cast<double>(batch))
            .times(sh::kSequence, static_cast<double>(sequence))
            .times(sh::kFp32Bytes, 4.0);
    }
    return bytes.note(l::kWhyFusedLinear).cite(l::kFromLigerFlce).derived();
}

} // namespace core
