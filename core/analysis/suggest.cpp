#include "core/analysis/suggest.h"

#include "core/analysis/monotoneprobe.h"
#include "core/base/translatable.h"
#include "core/model/formats.h"
#include "core/scenario/servingruntime.h"

#include <algorithm>
#include <optional>
#include <string>

namespace core {

void applyChanges(Scenario &scenario, const std::vector<FieldChange> &changes)
{
    for (const FieldChange &change : changes)
        field(change.field).assign(scenario, change.value);
}

namespace {

/// The widest tensor parallelism the search offers: one NVLink domain of
/// the largest systems (GB200 NVL72's 72 GPUs), in powers of two.
constexpr int kWidestTensorParallel = 64;

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
    applyChanges(s, {change});
    return s;
}

/// Whether `fit`'s GPU runs `variant` as well as it runs `own`
/// (newCapabilityWarning).
bool runsOn(const Scenario &variant, const Scenario &own, const GpuFit &fit)
{
    return !newCapabilityWarning(variant, own, fit.gpu);
}

FieldChange count(FieldId id, std::uint64_t value) { return {id, FieldValue(static_cast<double>(value))}; }

/// The inputs onGpus sets: the count, and ZeRO-3 where training is spread
/// over more than one GPU and is not sharded yet.
std::vector<FieldChange> gpuChanges(const Scenario &s, std::uint64_t gpus)
{
    std::vector<FieldChange> changes = {count(FieldId::Gpus, gpus)};
    const Scenario spread = onGpus(s, static_cast<int>(gpus));
    if (spread.zeroStage != s.zeroStage)
        changes.push_back(count(FieldId::Zero, static_cast<std::uint64_t>(spread.zeroStage)));
    return changes;
}

/// More GPUs by tensor parallelism, which splits what layer splitting and
/// ZeRO-3 leave whole on each GPU (a layer's activations and workspace,
/// the KV cache's heads), and in training sequence parallelism with it,
/// which splits the rest of the activations (Korthikanti et al. 2022,
/// arXiv:2205.05198, §4.2.2): the smallest degree, doubling from the
/// scenario's, up to kWidestTensorParallel, on as many more GPUs (data
/// parallelism kept), with which it fits; nothing where none does or the
/// engine runs none.
std::optional<FitSuggestion> tensorParallelFitting(const Scenario &s, Bytes capacity)
{
    for (int tp = s.parallel.tp * 2; tp <= std::min(kWidestTensorParallel, ScenarioLimits::maxTp); tp *= 2) {
        const int gpus = tp * s.parallel.pp * s.dataParallel();
        if (gpus > ScenarioLimits::maxGpus)
            break;
        std::vector<FieldChange> changes = {count(FieldId::Tp, static_cast<std::uint64_t>(tp)),
                                            count(FieldId::Gpus, static_cast<std::uint64_t>(gpus))};
        if (field(FieldId::SequenceParallel).applies(s) && !s.parallel.sequenceParallel)
            changes.push_back({FieldId::SequenceParallel, FieldValue(true)});
        Scenario spread = s;
        applyChanges(spread, changes);
        const Estimate e = estimate(spread);
        if (e.isValid() && e.total <= capacity)
            return FitSuggestion{std::move(changes), e.total,
                                 QT_TRANSLATE_NOOP("Suggest", "the smallest tensor-parallel degree that fits, on as many more GPUs")};
    }
    return std::nullopt;
}

/// The largest batch, longest sequence and fewest GPUs with which `s`
/// fits `capacity`, each below (above, for GPUs) the scenario's own: the
/// changes (the GPUs with the ZeRO stage they take) and the total.
std::vector<std::pair<std::vector<FieldChange>, Bytes>> searchedCounts(const Scenario &s, Bytes capacity)
{
    std::vector<std::pair<std::vector<FieldChange>, Bytes>> found;
    const auto probe = [&](FieldId id, std::uint64_t limit) {
        MonotoneProbe total([&](std::uint64_t x) { return totalOf(changed(s, count(id, x))); });
        const std::uint64_t x = total.largestFitting(capacity, limit);
        if (x > 0)
            found.emplace_back(std::vector<FieldChange>{count(id, x)}, total.at(x));
    };
    if (s.batch > 1)
        probe(FieldId::Batch, s.batch - 1);
    if (s.sequence > 1)
        probe(FieldId::Sequence, s.sequence - 1);
    MonotoneProbe byGpus([&s](std::uint64_t gpus) { return totalOf(onGpus(s, static_cast<int>(gpus))); });
    const std::uint64_t gpus = byGpus.smallestFitting(capacity, static_cast<std::uint64_t>(ScenarioLimits::maxGpus));
    if (gpus > static_cast<std::uint64_t>(s.gpus))
        found.emplace_back(gpuChanges(s, gpus), byGpus.at(gpus));
    return found;
}

} // namespace

const std::vector<std::vector<ChoiceVariant>> &FitSearch::byInput()
{
    if (!m_byInput) {
        m_byInput.emplace();
        for (FieldId id : kChoiceInputs)
            m_byInput->push_back(choiceVariants(m_scenario, id));
    }
    return *m_byInput;
}

const std::vector<std::vector<FitSearch::ChoicePair>> &FitSearch::pairsByInputs()
{
    if (m_pairs)
        return *m_pairs;
    m_pairs.emplace();
    const auto &inputs = byInput();
    for (std::size_t a = 0; a < inputs.size(); ++a)
        for (std::size_t b = a + 1; b < inputs.size(); ++b) {
            std::vector<ChoicePair> &pairs = m_pairs->emplace_back();
            for (const ChoiceVariant &first : inputs[a])
                for (const ChoiceVariant &second : inputs[b]) {
                    const Scenario both = changed(first.scenario, second.change);
                    if (!field(second.change.field).applies(both) || !runsAsStored(both))
                        continue;
                    const Estimate e = estimate(both);
                    if (e.isValid())
                        pairs.push_back({first.change, second.change, e.total});
                }
        }
    return *m_pairs;
}

/// Where nothing alone fits: the choice that saves most in each input,
/// with the best count that then fits; two choice inputs together.
std::vector<FitSuggestion> FitSearch::pairSuggestions(const GpuFit &fit)
{
    const Scenario &s = m_scenario;
    const Bytes capacity = fit.capacity;
    std::vector<FitSuggestion> found;
    // One count knob, the choice that lets it go furthest.
    std::vector<FitSuggestion> withCount;
    const Bytes current = currentTotal();
    for (const std::vector<ChoiceVariant> &variants : byInput()) {
        const ChoiceVariant *saver = nullptr;
        for (const ChoiceVariant &variant : variants)
            if (runsOn(variant.scenario, s, fit) && (!saver || variant.total < saver->total))
                saver = &variant;
        if (!saver || saver->total >= current)
            continue;
        for (const auto &[knobs, total] : searchedCounts(saver->scenario, capacity)) {
            const FieldChange &knob = knobs.front();
            const auto same = std::find_if(withCount.begin(), withCount.end(), [&knob](const FitSuggestion &f) {
                return f.changes[1].field == knob.field;
            });
            const double value = std::get<double>(knob.value);
            const bool better = same == withCount.end()
                || (knob.field == FieldId::Gpus ? value < std::get<double>(same->changes[1].value)
                                                : value > std::get<double>(same->changes[1].value));
            if (!better)
                continue;
            FitSuggestion pair{{saver->change}, total,
                               QT_TRANSLATE_NOOP("Suggest", "the choice that saves most, then the count that fits"), true};
            // The saver may be the ZeRO stage the GPUs take already.
            for (const FieldChange &k : knobs)
                if (k.field != saver->change.field)
                    pair.changes.push_back(k);
            if (same == withCount.end())
                withCount.push_back(std::move(pair));
            else
                *same = std::move(pair);
        }
    }
    // Two counts: the fewest GPUs that take the scenario at batch (or
    // sequence) 1, then the largest batch (longest sequence) on them.
    for (const FieldId knob : {FieldId::Batch, FieldId::Sequence}) {
        const std::uint64_t own = knob == FieldId::Batch ? s.batch : s.sequence;
        if (own <= 1)
            continue;
        const Scenario least = changed(s, count(knob, 1));
        MonotoneProbe byGpus([&least](std::uint64_t gpus) { return totalOf(onGpus(least, static_cast<int>(gpus))); });
        const std::uint64_t gpus = byGpus.smallestFitting(capacity, static_cast<std::uint64_t>(ScenarioLimits::maxGpus));
        if (gpus <= static_cast<std::uint64_t>(s.gpus))
            continue;
        const Scenario spread = onGpus(s, static_cast<int>(gpus));
        MonotoneProbe total([&](std::uint64_t x) { return totalOf(changed(spread, count(knob, x))); });
        const std::uint64_t x = total.largestFitting(capacity, own - 1);
        if (x == 0)
            continue;
        std::vector<FieldChange> changes = gpuChanges(s, gpus);
        changes.insert(changes.begin(), count(knob, x));
        withCount.push_back({std::move(changes), total.at(x),
                             QT_TRANSLATE_NOOP("Suggest", "the fewest GPUs that fit, then the largest count on them"), true});
    }
    found.insert(found.end(), withCount.begin(), withCount.end());
    // Two choice inputs: the fitting pairs that keep the most memory.
    std::vector<FitSuggestion> twoChoices;
    for (const std::vector<ChoicePair> &pairs : pairsByInputs()) {
        const ChoicePair *best = nullptr;
        for (const ChoicePair &p : pairs)
            if (p.total <= capacity && (!best || p.total > best->total)
                && runsOn(changed(changed(s, p.first), p.second), s, fit))
                best = &p;
        if (best)
            twoChoices.push_back({{best->first, best->second}, best->total,
                                  QT_TRANSLATE_NOOP("Suggest", "two choices together, the pair that keeps the most"), true});
    }
    std::stable_sort(twoChoices.begin(), twoChoices.end(),
                     [](const FitSuggestion &x, const FitSuggestion &y) { return x.total > y.total; });
    twoChoices.resize(std::min<std::size_t>(twoChoices.size(), 3));
    found.insert(found.end(), twoChoices.begin(), twoChoices.end());
    return found;
}

FitSearch &FitSearch::onCardOf(const GpuFit &fit)
{
    // A fit without its catalog entry (a device bar) is searched as given.
    if (!estimateFollowsTheCard(m_scenario) || fit.gpu.id.empty())
        return *this;
    if (sameEstimateOn(m_scenario, fit.gpu))
        return *this;
    for (const std::unique_ptr<FitSearch> &search : m_otherCards)
        if (sameEstimateOn(search->m_scenario, fit.gpu))
            return *search;
    m_otherCards.push_back(std::make_unique<FitSearch>(onServingCard(m_scenario, fit.gpu)));
    return *m_otherCards.back();
}

std::vector<FitSuggestion> FitSearch::suggestionsFor(const GpuFit &fit)
{
    FitSearch &search = onCardOf(fit);
    if (&search != this)
        return search.suggestionsFor(fit);
    const Scenario &s = m_scenario;
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
        found.push_back({gpuChanges(s, static_cast<std::uint64_t>(fit.gpusNeeded)), fit.layoutTotal,
                         QT_TRANSLATE_NOOP("Suggest", "fewest GPUs that fit, the layers split or ZeRO-3")});
    if (auto spread = tensorParallelFitting(s, fit.capacity))
        found.push_back(std::move(*spread));
    for (const std::vector<ChoiceVariant> &variants : byInput()) {
        const ChoiceVariant *best = nullptr;
        for (const ChoiceVariant &variant : variants)
            if (variant.total <= fit.capacity && (!best || variant.total > best->total) && runsOn(variant.scenario, s, fit))
                best = &variant;
        if (best)
            found.push_back({{best->change}, best->total, QT_TRANSLATE_NOOP("Suggest", "each choice, the one that keeps the most")});
    }
    return found.empty() ? pairSuggestions(fit) : found;
}

Bytes FitSearch::currentTotal()
{
    if (!m_currentTotal)
        m_currentTotal = estimate(m_scenario).total;
    return *m_currentTotal;
}

const FitSearch::Floor *FitSearch::floor()
{
    if (m_floor)
        return *m_floor ? &**m_floor : nullptr;
    m_floor.emplace();
    // The widest count the verdict's search reaches: one layer per GPU for
    // inference, its last count (a whole number of tp x pp groups) for
    // ZeRO-3 training. None where more GPUs split nothing further
    // (inference with tp or pp fixed: they are replicas) or are no layout
    // the engine runs (a mixed device set, a count it refuses).
    const Scenario &s = m_scenario;
    const int group = std::max(1, s.parallel.tp * s.parallel.pp);
    const bool splits = s.isTraining() || (group == 1 && s.model.layers > 0);
    if (!s.devices.empty() || !splits)
        return nullptr;
    const int widest = s.isTraining() ? ScenarioLimits::maxGpus / group * group
                                      : static_cast<int>(std::min<std::uint64_t>(s.model.layers, ScenarioLimits::maxGpus));
    const int gpus = std::max(s.gpus, widest);
    Estimate spread = estimate(onGpus(s, gpus));
    if (!spread.isValid())
        return nullptr;
    *m_floor = Floor{gpus, s.isTraining() ? FitReason::Split::ZeroThree : FitReason::Split::LayerPerGpu, std::move(spread)};
    return &**m_floor;
}

std::optional<FitReason> FitSearch::reasonFor(const Estimate &e, const GpuFit &fit)
{
    FitSearch &search = onCardOf(fit);
    if (&search == this)
        return reasonOnOwnCard(e, fit);
    if (!search.m_ownEstimate)
        search.m_ownEstimate = estimate(search.m_scenario);
    return search.reasonOnOwnCard(*search.m_ownEstimate, fit);
}

std::optional<FitReason> FitSearch::reasonOnOwnCard(const Estimate &e, const GpuFit &fit)
{
    if (fit.fits)
        return std::nullopt;
    FitReason reason;
    reason.gpus = m_scenario.gpus;
    const Estimate *perGpu = &e;
    if (fit.gpusNeeded <= 0)
        if (const Floor *split = floor()) {
            perGpu = &split->perGpu;
            reason.gpus = split->gpus;
            reason.split = split->split;
        }
    reason.total = perGpu->total;
    reason.over = perGpu->total.count() > fit.capacity.count() ? Bytes::fromCount(perGpu->total.count() - fit.capacity.count())
                                                               : Bytes{};
    for (TermId id : allTerms())
        if (perGpu->term(id).count() > 0)
            reason.blocking.emplace_back(id, perGpu->term(id));
    std::stable_sort(reason.blocking.begin(), reason.blocking.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    return reason;
}

} // namespace core
