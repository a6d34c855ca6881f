#include "core/memory/draft.h"

#include "core/memory/formulatext.h"
#include "core/memory/inference.h"
#include "core/memory/llamacpp.h"
#include "core/scenario/servingruntime.h"

namespace core {

namespace dr = text::draft;

Scenario draftScenario(const Scenario &s)
{
    Scenario d = s;
    d.model = *s.draftInUse();
    d.draft = DraftModel{};
    d.source = ModelSource{};
    d.checkpoint.reset();
    // The draft sees every token the target does (llama.cpp: n_ctx =
    // llama_n_ctx_seq of the target; vLLM and transformers: the same
    // sequences), images as the target's tokens.
    d.sequence = s.contextTokens();
    d.images = 0;
    d.gpuLayers.reset();
    d.cpuMoeLayers = 0;
    if (runtimeBehaviour(s.serving).draftCacheF16) {
        d.kvDtype.reset();
        d.kvDtypeV.reset();
    }
    return d;
}

void addDraftWeights(Formula &weights, const Scenario &s, const Derived &draftWeights, int tp)
{
    weights.product(dr::kPartDraft)
        .times(dr::kDraftWeights, draftWeights)
        .overUnlessOne(text::shared::kTp, tp)
        .cite(runtimeBehaviour(s.serving).draftSource);
}

double addDraftKvCache(Formula &kv, const Scenario &s, int tp, double kvElementBytes, FormulaStore *store)
{
    const ModelSpec &m = *s.draftInUse();
    // Pope et al. 2022 §3.1, per layer and token: K and V of the KV heads on
    // this rank; the draft's own layers, the target's tokens and rows.
    const double perToken = addAttentionCache(kv, s, m, m.layers, tp, kvElementBytes,
                                              {dr::kPartDraft, &dr::kDraftCachedValues, &dr::kDraftCachedTokens}, store);
    kv.cite(runtimeBehaviour(s.serving).draftSource);
    return perToken;
}

LlamaCppDraft llamaCppDraft(const Scenario &s, const Derived &draftWeights, int device, FormulaStore *store)
{
    const Scenario d = draftScenario(s);
    const LlamaCppLayout layout = llamaCppLayout(d);
    // Each GPU holds the draft's layers in the proportions of the split
    // (params_dft copies the target's tensor_split).
    const LlamaCppShare share = llamaCppShare(d, layout, device);
    return {llamaCppGpuWeights(d, countParameters(d.model), draftWeights.value, share, store),
            llamaCppKvCache(d, layout, share.layers, store)};
}

Derived llamaCppWithDraft(const Derived &target, const Derived &draft, const char *why, FormulaStore *store)
{
    Formula sum(store);
    sum.product(dr::kPartTarget).times(dr::kTargetPart, target);
    sum.product(dr::kPartDraft).times(dr::kDraftPart, draft);
    if (why)
        sum.note(why);
    return sum.cite(runtimeBehaviour(ServingEngine::LlamaCpp).draftSource).derived();
}

} // namespace core
