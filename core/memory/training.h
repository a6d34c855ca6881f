#pragma once

#include "core/memory/formula.h"
#include "core/model/modelspec.h"
#include "core/scenario/trainingchoices.h"

#include <vector>

namespace core {

/// Optimizer state bytes for the trainable tensors. Adafactor is computed
/// from the real matrix shapes (factored second moment: rows + cols per
/// matrix, Shazeer & Stern 2018 §3); everything else per element.
Derived optimizerStateBytes(Optimizer optimizer, const RegimeBytes &regime, const std::vector<TensorGroup> &trainable,
                            FormulaStore *store = nullptr);

/// Temporary bytes the optimizer step allocates per trainable parameter,
/// Adam family only: torch.optim's multi-tensor ("foreach") Adam computes
/// `torch._foreach_sqrt(exp_avg_sqs)` into a new full-size list
/// (torch/optim/adam.py, _multi_tensor_adam); fused kernels (torch
/// fused=True, apex/DeepSpeed FusedAdam) and per-parameter loops allocate
/// nothing state-sized. `impl` is the effective one (never Auto).
double optimizerStepTemporaryBytesPerParam(Optimizer optimizer, OptimizerImpl impl, double stateBytes);

/// Loading a quantised base, each linear weight comes to the GPU in 16
/// bits and is quantised there, one at a time: the largest such weight's
/// 16-bit copy (the lm_head where the stack quantises it) beside every
/// other weight, already loaded.
Derived quantisedLoadTransient(const ModelSpec &model, bool lmHeadQuantized, FormulaStore *store = nullptr);

} // namespace core
