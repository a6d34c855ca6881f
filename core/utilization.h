#pragma once

namespace core {

/// GPU utilisation from a measured throughput, the seed notes' first two
/// methods (S14, S15). Both in percent.

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

} // namespace core
