#include "core/analysis/suggest.h"

#include "core/analysis/monotoneprobe.h"
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

/// A choice input set to one of its other choices, where the result is a
/// scenario the engine runs.
struct ChoiceVariant
{
    FieldChange change;
    Scenario scenario;
    Bytes total;
};

std::vector<ChoiceVariant> choiceVariants(const Scenario &s, FieldId id)
{
    std::vector<ChoiceVariant> variants;
    const FieldDescriptor &f = field(id);
    if (!f.applies(s))
        return variants;
    const FieldValue current = f.effective(s);
    for (const FieldChoice &choice : f.choices) {
        const FieldValue value = choiceValue(f, choice);
        if (value == current)
            continue;
        Scenario variant = s;
        f.assign(variant, value);
        if (!f.applies(variant) || !runsAsStored(variant))
            continue;
        const Estimate e = estimate(variant);
        if (e.isValid())
            variants.push_back({{id, value}, std::move(variant), e.total});
    }
    return variants;
}

Scenario changed(Scenario s, const FieldChange &change)
{
    field(change.field).assign(s, FieldValue(change.value));
    return s;
}

FieldChange count(FieldId id, std::uint64_t value) { return {id, FieldValue(static_cast<double>(value))}; }

/// The largest batch, longest sequence and fewest GPUs with which `s`
/// fits `capacity`, each below (above, for GPUs) the scenario's own.
std::vector<std::pair<FieldChange, Bytes>> searchedCounts(const Scenario &s, Bytes capacity)
{
    std::vector<std::pair<FieldChange, Bytes>> found;
    const auto probe = [&](FieldId id, std::uint64_t limit, bool largest) {
        MonotoneProbe total([&](std::uint64_t x) { return estimate(changed(s, count(id, x))).total; });
        const std::uint64_t x = largest ? total.largestFitting(capacity, limit) : total.smallestFitting(capacity, limit);
        if (x > 0)
            found.emplace_back(count(id, x), total.at(x));
    };
    if (s.batch > 1)
        probe(FieldId::Batch, s.batch - 1, true);
    if (s.sequence > 1)
        probe(FieldId::Sequence, s.sequence - 1, true);
    MonotoneProbe byGpus([&s](std::uint64_t gpus) { return estimate(onGpus(s, static_cast<int>(gpus))).total; });
    const std::uint64_t gpus = byGpus.smallestFitting(capacity, static_cast<std::uint64_t>(ScenarioLimits::maxGpus));
    if (gpus > static_cast<std::uint64_t>(s.gpus))
        found.emplace_back(count(FieldId::Gpus, gpus), byGpus.at(gpus));
    return found;
}

/// Where nothing alone fits: the choice that saves most in each input,
/// with the best count that then fits; two choice inputs together.
std::vector<FitSuggestion> pairSuggestions(const Scenario &s, Bytes capacity,
                                           const std::vector<std::vector<ChoiceVariant>> &byInput)
{
    std::vector<FitSuggestion> found;
    // One count knob, the choice that lets it go furthest.
    std::vector<FitSuggestion> withCount;
    const Bytes current = estimate(s).total;
    for (const std::vector<ChoiceVariant> &variants : byInput) {
        const auto saver = std::min_element(variants.begin(), variants.end(),
                                            [](const ChoiceVariant &a, const ChoiceVariant &b) { return a.total < b.total; });
        if (saver == variants.end() || saver->total >= current)
            continue;
        for (const std::pair<FieldChange, Bytes> &counted : searchedCounts(saver->scenario, capacity)) {
            const FieldChange &knob = counted.first;
            const auto same = std::find_if(withCount.begin(), withCount.end(), [&knob](const FitSuggestion &f) {
                return f.changes[1].field == knob.field;
            });
            const double value = std::get<double>(knob.value);
            const bool better = same == withCount.end()
                || (knob.field == FieldId::Gpus ? value < std::get<double>(same->changes[1].value)
                                                : value > std::get<double>(same->changes[1].value));
            if (!better)
                continue;
            FitSuggestion pair{{saver->change, knob}, counted.second,
                               QT_TRANSLATE_NOOP("Suggest", "the choice that saves most, then the count that fits")};
            if (same == withCount.end())
                withCount.push_back(std::move(pair));
            else
                *same = std::move(pair);
        }
    }
    found.insert(found.end(), withCount.begin(), withCount.end());
    // Two choice inputs: the fitting pairs that keep the most memory.
    std::vector<FitSuggestion> twoChoices;
    for (std::size_t a = 0; a < byInput.size(); ++a)
        for (std::size_t b = a + 1; b < byInput.size(); ++b) {
            std::optional<FitSuggestion> best;
            for (const ChoiceVariant &first : byInput[a])
                for (const ChoiceVariant &second : byInput[b]) {
                    const Scenario both = changed(first.scenario, second.change);
                    if (!field(second.change.field).applies(both) || !runsAsStored(both))
                        continue;
                    const Estimate e = estimate(both);
                    if (!e.isValid() || e.total > capacity || (best && e.total <= best->total))
                        continue;
                    best = FitSuggestion{{first.change, second.change}, e.total,
                                         QT_TRANSLATE_NOOP("Suggest", "two choices together, the pair that keeps the most")};
                }
            if (best)
                twoChoices.push_back(std::move(*best));
        }
    std::stable_sort(twoChoices.begin(), twoChoices.end(),
                     [](const FitSuggestion &x, const FitSuggestion &y) { return x.total > y.total; });
    twoChoices.resize(std::min<std::size_t>(twoChoices.size(), 3));
    found.insert(found.end(), twoChoices.begin(), twoChoices.end());
    return found;
}

} // namespace

std::vector<FitSuggestion> fitSuggestions(const Scenario &s, const GpuFit &fit)
{
    std::vector<FitSuggestion> found;
    if (fit.fits)
        return found;
    // The fit's own searches: one number each.
    const auto searched = [&](FieldId id, std::uint64_t value, const char *foundBy) {
        found.push_back({{count(id, value)}, estimate(changed(s, count(id, value))).total, foundBy});
    };
    if (fit.maxBatch > 0 && fit.maxBatch < s.batch)
        searched(FieldId::Batch, fit.maxBatch, QT_TRANSLATE_NOOP("Suggest", "largest batch that fits"));
    if (fit.maxSequence > 0 && fit.maxSequence < s.sequence)
        searched(FieldId::Sequence, fit.maxSequence, QT_TRANSLATE_NOOP("Suggest", "longest sequence that fits"));
    if (fit.hasGpuLayers && fit.maxGpuLayers >= 0)
        searched(FieldId::GpuLayers, static_cast<std::uint64_t>(fit.maxGpuLayers),
                 QT_TRANSLATE_NOOP("Suggest", "most layers on the GPU that fit, the rest in host memory"));
    if (fit.gpusNeeded > s.gpus)
        found.push_back({{count(FieldId::Gpus, static_cast<std::uint64_t>(fit.gpusNeeded))}, fit.layoutTotal,
                         QT_TRANSLATE_NOOP("Suggest", "fewest GPUs that fit, the layers split or ZeRO-3")});
    std::vector<std::vector<ChoiceVariant>> byInput;
    for (FieldId id : kChoiceInputs) {
        byInput.push_back(choiceVariants(s, id));
        const ChoiceVariant *best = nullptr;
        for (const ChoiceVariant &variant : byInput.back())
            if (variant.total <= fit.capacity && (!best || variant.total > best->total))
                best = &variant;
        if (best)
            found.push_back({{best->change}, best->total, QT_TRANSLATE_NOOP("Suggest", "each choice, the one that keeps the most")});
    }
    return found.empty() ? pairSuggestions(s, fit.capacity, byInput) : found;
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
