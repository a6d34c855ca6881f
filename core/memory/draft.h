#pragma once

#include "core/memory/formula.h"
#include "core/scenario/scenario.h"

namespace core {

/// The scenario the draft model runs as: the target's inputs with the
/// draft's architecture, over the same tokens (the target's whole context,
/// images included) and rows, with no checkpoint on disk (its bytes come
/// from the weight format), all its layers on the GPUs (llama.cpp -ngld
/// default) and llama.cpp's f16 draft cache (-ctkd/-ctvd default).
/// Requires `s.draftInUse()`.
Scenario draftScenario(const Scenario &s);

/// Adds the draft's weights on one rank of a Hugging Face or vLLM
/// scenario to `weights` as their own product: W_draft / t (vLLM runs the
/// draft with the target's tensor parallelism).
void addDraftWeights(Formula &weights, const Scenario &s, const Derived &draftWeights, int tp);

/// Adds the draft's KV cache on one rank of a Hugging Face or vLLM scenario
/// to `kv` as its own product, for the same sequences and context as the
/// target's; returns its bytes per token of one sequence.
double addDraftKvCache(Formula &kv, const Scenario &s, int tp, double kvElementBytes, FormulaStore *store);

/// The draft's weights and KV cache on one GPU of a llama.cpp process: the
/// draft laid out as llama.cpp lays out a model (llamacpp.h), one stream per
/// server slot of the target's per-sequence context.
struct LlamaCppDraft
{
    Derived weights;
    Derived kvCache;
};
LlamaCppDraft llamaCppDraft(const Scenario &s, const Derived &draftWeights, int device, FormulaStore *store);

/// A llama.cpp term on one GPU: `target` plus the draft's `draft` as a sum
/// of two named products, so a derivation shows both models' parts; `why`
/// (may be null) notes a case that applied.
Derived llamaCppWithDraft(const Derived &target, const Derived &draft, const char *why, FormulaStore *store);

} // namespace core
