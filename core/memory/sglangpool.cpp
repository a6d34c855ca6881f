#include "core/memory/sglangpool.h"

#include "core/scenario/stack.h"

#include <algorithm>
#include <cmath>

namespace core {

namespace {

/// The chunked prefill size and the decode CUDA graphs' largest batch that
/// _handle_gpu_memory_settings picks by the card's memory (GB as SGLang
/// writes them: MiB / 1,024).
struct CardDefaults
{
    double chunkedPrefill;
    double graphBatch;
};

CardDefaults cardDefaults(double capacityMib, int tensorParallel)
{
    const double gb = capacityMib / 1024.0;
    const bool wide = tensorParallel >= 4;
    if (gb < 20)
        return {2048, 8};
    if (gb < 35)
        return {2048, wide ? 80.0 : 24.0};
    if (gb < 60)
        return {4096, wide ? 160.0 : 32.0};
    if (gb < 160)
        return {8192, wide ? 512.0 : 256.0};
    return {16384, 512};
}

/// The prefill graphs' captured token counts up to `largest`
/// (_generate_prefill_cuda_graph_batch_sizes: 4 to 32 by 4, 48 to 256 by
/// 16, 288 to 512 by 32, 576 to 1,024 by 64, 1,280 to 4,096 by 256, then by
/// 512).
double prefillGraphSizes(double largest)
{
    struct Run
    {
        double first, last, step;
    };
    const Run runs[] = {{4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {576, 1024, 64}, {1280, 4096, 256}, {4608, 1e12, 512}};
    double count = 0;
    for (const Run &r : runs)
        if (largest >= r.first)
            count += std::floor((std::min(largest, r.last) - r.first) / r.step) + 1;
    return count;
}

/// What the fraction reserves for speculative decoding, by release
/// (_handle_gpu_memory_settings: "draft model and larger cuda graph
/// buffers").
double draftReserveMib(SpeculativeDraft draft, const LibraryVersions &versions)
{
    if (draft == SpeculativeDraft::None || versionRuleHolds(versions, VersionRule::SglangDraftInPool))
        return 0;
    if (draft == SpeculativeDraft::Model && versionRuleHolds(versions, VersionRule::SglangStandaloneDraft))
        return 6.0 * 1024.0;
    if (draft == SpeculativeDraft::Mtp && versionRuleHolds(versions, VersionRule::SglangEagleReserve4Gib))
        return 4.0 * 1024.0;
    return 2.0 * 1024.0;
}

} // namespace

bool sglangCapturesPrefillGraphs(int pipelineParallel, const SglangModel &model, const LibraryVersions &versions)
{
    if (!versionRuleHolds(versions, VersionRule::SglangPrefillGraphs) || model.multimodal || !model.cudaGpu
        || model.family == "deepseek_v4")
        return false;
    if (versionRuleHolds(versions, VersionRule::SglangBreakableGraphs))
        return !model.mla;
    if (pipelineParallel > 1 || model.gguf || model.family == "qwen3_next")
        return false;
    return model.draft == SpeculativeDraft::None || versionRuleHolds(versions, VersionRule::SglangPrefillGraphsWithDraft);
}

double sglangDefaultMemFraction(double capacityMib, int tensorParallel, int pipelineParallel, const SglangModel &model,
                                const LibraryVersions &versions)
{
    const double gpus = static_cast<double>(tensorParallel) * static_cast<double>(pipelineParallel);
    if (!versionRuleHolds(versions, VersionRule::SglangMemoryClassTable)) {
        // v0.4.6: by the TP size on cards up to 80 GiB, unrounded above.
        if (capacityMib > 81920.0)
            return (capacityMib - 13.0 * 1024.0) / capacityMib;
        return tensorParallel >= 16 ? 0.79 : tensorParallel >= 8 ? 0.81 : tensorParallel >= 4 ? 0.85
            : tensorParallel >= 2                                 ? 0.87
                                                                  : 0.88;
    }
    double reservedMib = 0;
    if (!versionRuleHolds(versions, VersionRule::SglangReservedFormula)) {
        const double gb = capacityMib / 1024.0;
        reservedMib = (gb < 35 ? 2.8 + gpus / 10.0 : gb < 90 ? 9.5 + gpus / 2.0 : gb < 160 ? 12.0 + gpus / 2.0 : 32.0)
            * 1024.0;
        reservedMib += draftReserveMib(model.draft, versions);
    } else {
        const CardDefaults card = cardDefaults(capacityMib, tensorParallel);
        // SGLang takes max(chunked_prefill_size, 2048); every card's default
        // chunk is at least 2,048.
        reservedMib = 512.0 + card.chunkedPrefill * 1.5 + card.graphBatch * 2.0 + gpus / 8.0 * 1024.0;
        // The prefill's graphs (sglangCapturesPrefillGraphs); MLA's flat
        // 1.5 GiB until breakable graphs turned them off for MLA.
        if (sglangCapturesPrefillGraphs(pipelineParallel, model, versions))
            reservedMib += model.mla ? 1.5 * 1024.0 : prefillGraphSizes(card.chunkedPrefill) * 8.0;
        if (capacityMib > 60.0 * 1024.0)
            reservedMib = std::max(reservedMib, 10.0 * 1024.0);
        reservedMib += draftReserveMib(model.draft, versions);
    }
    return std::round((capacityMib - reservedMib) / capacityMib * 1000.0) / 1000.0;
}

namespace {

/// adjust_mem_fraction_for_vlm's factor: 0.95 x (1 - 0.1 x (the tower's
/// layers x hidden^2 over ViT-L/14's 24 x 1,024^2, less 1)), the second
/// clamped to 0.8..1.05.
double visionFactor(const SglangModel &model)
{
    const double layers = model.visionLayers > 0 ? static_cast<double>(model.visionLayers) : 24.0;
    const double hidden = model.visionHidden > 0 ? static_cast<double>(model.visionHidden) : 1024.0;
    const double complexity = layers * hidden * hidden / (24.0 * 1024.0 * 1024.0);
    return 0.95 * std::clamp(1.0 - 0.1 * (complexity - 1.0), 0.8, 1.05);
}

} // namespace

double sglangMemFraction(const Scenario &s, const GpuSpec &gpu)
{
    // get_device_memory_capacity: nvidia-smi's memory.total on CUDA
    // (utils/common.py get_nvgpu_memory_capacity).
    const double capacityMib = static_cast<double>(gpu.reportedTotal().count()) / (1024.0 * 1024.0);
    const bool multimodal = s.model.imageTokens > 0;
    const bool scaledByTower = versionRuleHolds(s.versions, VersionRule::SglangVisionFraction);
    if (s.memFractionStatic)
        return multimodal && !scaledByTower ? *s.memFractionStatic * 0.9 : *s.memFractionStatic;
    const SglangModel model{s.model.isMla(),
                            multimodal,
                            s.speculativeDraft(),
                            s.model.visionConfigLayers,
                            s.model.visionConfigHidden,
                            gpu.runsCuda(),
                            isGgufFormat(s.effectiveWeights()),
                            s.model.family};
    const double fraction = sglangDefaultMemFraction(capacityMib, s.parallel.tp, s.parallel.pp, model, s.versions);
    if (!multimodal)
        return fraction;
    return fraction * (scaledByTower ? visionFactor(model) : 0.9);
}

double sglangPoolBytes(double freeBeforeLoad, double freeAfterLoad, double memFractionStatic)
{
    return freeAfterLoad - freeBeforeLoad * (1.0 - memFractionStatic);
}

std::uint64_t sglangPoolTokens(double poolBytes, double cellBytes, std::uint64_t pageSize)
{
    if (poolBytes <= 0.0 || cellBytes <= 0.0)
        return 0;
    const auto tokens = static_cast<std::uint64_t>(std::floor(poolBytes / cellBytes));
    const std::uint64_t page = std::max<std::uint64_t>(1, pageSize);
    return tokens / page * page;
}

std::uint64_t sglangMaxRunningRequests(std::uint64_t poolTokens, std::uint64_t contextLength)
{
    const double estimated = std::floor(static_cast<double>(poolTokens)
                                        / static_cast<double>(std::max<std::uint64_t>(1, contextLength)) * 512.0);
    const auto clamped = static_cast<std::uint64_t>(std::clamp(estimated, 2048.0, 4096.0));
    return std::min(clamped, poolTokens / 2);
}

} // namespace core
