#pragma once

// What would make a scenario fit a GPU it does not: each input alone.

#include "core/analysis/fit.h"
#include "core/scenario/fields.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace core {

/// One input set to a value.
struct FieldChange
{
    FieldId field;
    FieldValue value; ///< as the field stores it
};

/// `changes` applied to `scenario`, as the window applies a suggestion.
void applyChanges(Scenario &scenario, const std::vector<FieldChange> &changes);

/// A change of one input, or of two, that makes the scenario fit, and
/// what found it.
struct FitSuggestion
{
    std::vector<FieldChange> changes; ///< one input, or the inputs one layout sets together (GPUs, tp, sp)
    Bytes total;         ///< the peak per GPU with the changes
    const char *foundBy; ///< English, translatable (context "Suggest")
    bool pair = false;   ///< two changes together, found where none alone fits
};

/// A choice input set to one of its other choices, where the result is a
/// scenario the engine runs, and its per-GPU total.
struct ChoiceVariant
{
    FieldChange change;
    Scenario scenario;
    Bytes total;
};

/// Why a GPU is short of "fits": each GPU's terms where the verdict looked,
/// largest first, and how far the total is over the GPU's memory. For
/// "needs N x", at the scenario's own layout (N of them split it); for
/// "cannot fit", split as far as the verdict's search goes (every layer on
/// its own GPU for inference, the search's last count for ZeRO-3
/// training), where only what does not split is left; as set where that
/// split is no layout the engine runs.
struct FitReason
{
    /// Where the terms were taken: as set, or split as far as the
    /// verdict's search goes ("cannot fit"): one layer per GPU, or ZeRO-3
    /// over its last count.
    enum class Split { AsSet, LayerPerGpu, ZeroThree };
    Split split = Split::AsSet;
    int gpus = 1;             ///< the GPUs the terms are each GPU's share of
    Bytes total;              ///< per GPU
    Bytes over;               ///< total less the GPU's memory
    std::vector<std::pair<TermId, Bytes>> blocking; ///< the non-zero terms, largest first

    bool splitFloor() const { return split != Split::AsSet; }
};
/// What makes a scenario fit a GPU it does not, for any of the GPUs it is
/// fitted against: the choice inputs' other choices, and pairs of them,
/// are estimated once for all GPUs; only the count searches depend on
/// the GPU's memory.
///
/// For one GPU: first each input alone, in the order the fields are
/// described: the largest batch and longest sequence that fit, the most GPU
/// layers and the GPUs needed (the fit's own searches), then, for every
/// choice input that changes memory (checkpointing, logits, optimizer, ZeRO
/// stage, offload, weight format, KV cache format, attention) and applies
/// here, the fitting choice that keeps the most memory, i.e. changes least.
/// Besides them, the smallest tensor-parallel degree (with sequence
/// parallelism in training) on as many more GPUs. Where nothing alone
/// fits, pairs: the choice that saves most in one input with the largest
/// batch, longest sequence or fewest GPUs that then fit, the fewest GPUs
/// at batch (sequence) 1 with the largest batch (sequence) on them, and two
/// choice inputs together (the three pairs that keep the most). Empty when
/// it fits or no pair does.
class FitSearch
{
public:
    explicit FitSearch(Scenario scenario) : m_scenario(std::move(scenario)) {}

    std::vector<FitSuggestion> suggestionsFor(const GpuFit &fit);
    /// Why `fit`'s GPU is short of "fits" (`estimate`: the scenario's own;
    /// nothing when it fits). The split every "cannot fit" shares is
    /// estimated once for all the GPUs asked about. A GPU whose engine
    /// defaults or communicators differ from the scenario's card
    /// (estimateFollowsTheCard) is searched, and explained, on its own
    /// estimate.
    std::optional<FitReason> reasonFor(const Estimate &estimate, const GpuFit &fit);

private:
    /// The search for `fit`'s card: this one, or one kept per other card.
    FitSearch &onCardOf(const GpuFit &fit);
    std::optional<FitReason> reasonOnOwnCard(const Estimate &estimate, const GpuFit &fit);
    /// Where no count fits: each GPU split as far as the verdict's search
    /// goes, or nothing where more GPUs split nothing further.
    struct Floor
    {
        int gpus = 0;
        FitReason::Split split = FitReason::Split::AsSet;
        Estimate perGpu;
    };
    const Floor *floor();
    Bytes currentTotal();
    /// Two choices together and their total.
    struct ChoicePair
    {
        FieldChange first;
        FieldChange second;
        Bytes total;
    };
    const std::vector<std::vector<ChoiceVariant>> &byInput();
    const std::vector<std::vector<ChoicePair>> &pairsByInputs();
    std::vector<FitSuggestion> pairSuggestions(const GpuFit &fit);

    Scenario m_scenario;
    std::optional<Bytes> m_currentTotal;
    std::optional<std::optional<Floor>> m_floor;
    std::optional<std::vector<std::vector<ChoiceVariant>>> m_byInput;
    std::optional<std::vector<std::vector<ChoicePair>>> m_pairs; ///< per pair of inputs, every pair that runs
    /// The searches on other cards, and their estimates.
    std::vector<std::unique_ptr<FitSearch>> m_otherCards;
    std::optional<Estimate> m_ownEstimate;
};


} // namespace core
