#pragma once

namespace core {

/// GPU utilisation from a measured throughput: the seed notes' first two
/// methods (S14, S15) and model FLOPs utilisation (MFU). All in percent.

/// S14: achieved FLOP/s over the datasheet's dense peak for the precision,
/// e.g. 100 TFLOPS on an A100 (312 TFLOPS fp16): 32.05 %.
inline double flopsUtilizationPercent(double measuredTflops, double peakTflops)
{
    return peakTflops > 0 ? 100.0 * measuredTflops / peakTflops : 0.0;
}

/// S15: tokens/s/GPU measured over a reference run at full utilisation,
/// e.g. 1536 / 3300 for LLaMA 7B: 46.54 %.
inline double throughputRatioPercent(double measuredTokensPerSecond, double referenceTokensPerSecond)
{
    return referenceTokensPerSecond > 0 ? 100.0 * measuredTokensPerSecond / referenceTokensPerSecond : 0.0;
}

/// Attention FLOPs per token of a training step: 12 x L x H x Q x T in
/// PaLM (Chowdhery et al. 2022, App. B), with H x Q = heads x head size,
/// the attention width h, and T the sequence length s: 12 x L x h x s.
inline double attentionTrainingFlopsPerToken(double layers, double attentionWidth, double sequence)
{
    return 12.0 * layers * attentionWidth * sequence;
}

/// What the GPU runs for each token: a training step (forward and
/// backward) or the forward pass alone (inference).
enum class FlopsWork { Training, ForwardOnly };

/// Model FLOPs per token: 6N for a training step, forward 2N and backward
/// 4N (Kaplan et al. 2020 §2.1; PaLM App. B), plus the attention term; the
/// forward alone is a third of both, 2N + 4 x L x h x s. Recomputation is
/// not counted: MFU counts the model's FLOPs, not the hardware's.
inline double modelFlopsPerToken(double parameters, double attentionTrainingFlops, FlopsWork work)
{
    const double training = 6.0 * parameters + attentionTrainingFlops;
    return work == FlopsWork::Training ? training : training / 3.0;
}

/// MFU (PaLM App. B): the model FLOP/s a run achieves, tokens/s per GPU x
/// FLOPs per token, over the GPU's dense peak. LLaMA 7B (6.74e9
/// parameters) at 3,300 tokens/s on an A100 (312 TFLOPS), 6N only:
/// 6 x 6.74e9 x 3300 / 312e12 = 42.8 %.
inline double mfuPercent(double tokensPerSecond, double flopsPerToken, double peakTflops)
{
    return peakTflops > 0 ? 100.0 * tokensPerSecond * flopsPerToken / (peakTflops * 1e12) : 0.0;
}

} // namespace core
