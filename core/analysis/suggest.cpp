#include "core/analysis/suggest.h"

#include "core/base/translatable.h"
#include "core/model/formats.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <string>

namespace core {

namespace {

/// The choice inputs tried, each alone.
constexpr FieldId kChoiceInputs[] = {FieldId::Checkpointing, FieldId::Logits, FieldId::Optimizer, FieldId::Zero,
                                     FieldId::Offload,       FieldId::Weights, FieldId::KvDtype, FieldId::Attention};

FieldValue choiceValue(const FieldDescriptor &f, const FieldChoice &choice)
{
    // A number with named values (the ZeRO stage) stores the number.
    return f.kind == FieldKind::Integer ? FieldValue(std::stod(choice.id)) : FieldValue(std::string(choice.id));
}

/// A GGUF format only under a ggml runtime, any other only elsewhere
/// (transformers dequantises a GGUF file on load): a change of format that
/// needs another engine is not one change.
bool runsAsStored(const Scenario &s)
{
    return s.isTraining() || isGgufFormat(s.effectiveWeights()) == usesGgmlBuffers(s);
}

} // namespace

std::vector<FitSuggestion> fitSuggestions(const Scenario &s, const GpuFit &fit)
{
    std::vector<FitSuggestion> found;
    if (fit.fits)
        return found;
    // The fit's own searches: one number each.
    const auto searched = [&](FieldId id, std::uint64_t value, const char *foundBy) {
        Scenario variant = s;
        field(id).assign(variant, FieldValue(static_cast<double>(value)));
        found.push_back({id, FieldValue(static_cast<double>(value)), estimate(variant).total, foundBy});
    };
    if (fit.maxBatch > 0 && fit.maxBatch < s.batch)
        searched(FieldId::Batch, fit.maxBatch, QT_TRANSLATE_NOOP("Suggest", "largest batch that fits"));
    if (fit.maxSequence > 0 && fit.maxSequence < s.sequence)
        searched(FieldId::Sequence, fit.maxSequence, QT_TRANSLATE_NOOP("Suggest", "longest sequence that fits"));
    if (fit.hasGpuLayers && fit.maxGpuLayers >= 0)
        searched(FieldId::GpuLayers, static_cast<std::uint64_t>(fit.maxGpuLayers),
                 QT_TRANSLATE_NOOP("Suggest", "most layers on the GPU that fit, the rest in host memory"));
    if (fit.gpusNeeded > s.gpus)
        found.push_back({FieldId::Gpus, FieldValue(static_cast<double>(fit.gpusNeeded)), fit.layoutTotal,
                         QT_TRANSLATE_NOOP("Suggest", "fewest GPUs that fit, the layers split or ZeRO-3")});
    for (FieldId id : kChoiceInputs) {
        const FieldDescriptor &f = field(id);
        if (!f.applies(s))
            continue;
        const FieldValue current = f.effective(s);
        std::optional<FitSuggestion> best;
        for (const FieldChoice &choice : f.choices) {
            const FieldValue value = choiceValue(f, choice);
            if (value == current)
                continue;
            Scenario variant = s;
            f.assign(variant, value);
            if (!f.applies(variant) || !runsAsStored(variant))
                continue;
            const Estimate e = estimate(variant);
            if (!e.isValid() || e.total > fit.capacity || (best && e.total <= best->total))
                continue;
            best = FitSuggestion{id, value, e.total, QT_TRANSLATE_NOOP("Suggest", "each choice, the one that keeps the most")};
        }
        if (best)
            found.push_back(*best);
    }
    return found;
}

std::optional<SplitFloor> splitFloor(const Scenario &s, const GpuFit &fit)
{
    if (fit.fits || fit.gpusNeeded > 0)
        return std::nullopt;
    // Inference splits by layer: past one layer per GPU nothing shrinks.
    const std::uint64_t widest = s.isTraining() || s.model.layers == 0
        ? static_cast<std::uint64_t>(ScenarioLimits::maxGpus)
        : std::min<std::uint64_t>(s.model.layers, ScenarioLimits::maxGpus);
    const int gpus = static_cast<int>(std::max<std::uint64_t>(widest, static_cast<std::uint64_t>(s.gpus)));
    return SplitFloor{gpus, estimate(onGpus(s, gpus))};
}

} // namespace core
