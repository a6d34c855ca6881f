#include "core/logits.h"

namespace core {

double logitsBytesPerElement(LogitsMode mode, double e, bool backward, bool callerKeepsLogits)
{
    constexpr double chunks = 8; // torchtune LinearCrossEntropyLoss num_output_chunks
    const double upcast = e < 4.0 ? 4.0 : 0.0; // .float() copies only 16-bit logits
    // log_softmax_backward: the fp32 gradient coming in (from nll_loss) and
    // going out, beside the saved fp32 log-softmax output.
    constexpr double lossBackward = 4.0 + 4.0 + 4.0;
    switch (mode) {
    case LogitsMode::Fp32:
        // Hugging Face ForCausalLMLoss: logits.float() then cross_entropy.
        // Forward: the logits + their fp32 copy + the fp32 log-softmax output.
        return backward ? (callerKeepsLogits ? e : 0.0) + lossBackward : e + upcast + 4.0;
    case LogitsMode::Fp32Shift:
        // The model returns logits.float() and the loss shifts a contiguous
        // copy (transformers <= 4.44 LlamaForCausalLM.forward; torchtune's
        // decoder `self.output(h).float()` and recipe before its chunked
        // loss): fp32 logits + the shifted copy + the log-softmax output; a
        // loop that keeps its logits keeps the fp32 copy through backward.
        return backward ? (callerKeepsLogits ? 4.0 : 0.0) + lossBackward : 4.0 + 4.0 + 4.0;
    case LogitsMode::Native:
        // cross_entropy in the logits' dtype (LitGPT): the saved
        // log-softmax, and in backward the gradient in and out of it.
        return backward ? (callerKeepsLogits ? e : 0.0) + 3.0 * e : 2.0 * e;
    case LogitsMode::Chunked:
        // Eager chunked loss: each chunk's fp32 log-softmax output stays saved
        // (4 B for every element); one chunk's logits, fp32 copy or
        // gradients are alive at a time.
        return backward ? 4.0 + (8.0 + e) / chunks : 4.0 + (e + upcast) / chunks;
    case LogitsMode::Fused:
        // A fused or compiled loss keeps the 16-bit logits and a
        // log-sum-exp per row; one chunk's fp32 work at a time.
        return backward ? e + 12.0 / chunks : e + 8.0 / chunks;
    case LogitsMode::LastToken:
        return e + 4.0;
    }
    return e;
}

double lossSavedBytesPerElement(LogitsMode mode, double e)
{
    return mode == LogitsMode::Native || mode == LogitsMode::Fused ? e : 4.0;
}

} // namespace core
