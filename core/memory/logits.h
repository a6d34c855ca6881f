#pragma once

#include "core/memory/formula.h"
#include "core/scenario/scenario.h"

namespace core {

/// Bytes per batch x sequence x vocabulary element at the logits' peak, for
/// logits the lm_head emits in `e` bytes, in the forward (at the loss) or at
/// the start of backward: a sum over the tensors alive then, each a named
/// part. `callerKeepsLogits`: the training loop still holds the logits
/// while the loss runs backward (torchtune's and LitGPT's loops keep a
/// `logits` local; the Hugging Face Trainer drops the model outputs before
/// it calls backward).
Derived logitsBytesPerElement(LogitsMode mode, double e, bool backward, bool callerKeepsLogits,
                              FormulaStore *store = nullptr);

/// Bytes per element the loss keeps for backward (the saved log-softmax,
/// or the logits themselves for a fused loss).
/// Liger's fused linear cross-entropy over batch x sequence rows: the hidden
/// states' gradient (and the output layer's weight gradient where it
/// trains) filled in the forward and kept into backward; in the forward
/// also one chunk's logits and the per-token losses.
Derived fusedLinearLossBytes(std::uint64_t batch, std::uint64_t sequence, std::uint64_t hidden, std::uint64_t vocab,
                             double e, bool backward, bool headWeightTrains, FormulaStore *store = nullptr);

double lossSavedBytesPerElement(LogitsMode mode, double e);

} // namespace core
