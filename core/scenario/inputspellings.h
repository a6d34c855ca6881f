#pragma once

// The spellings of the scenario's choice inputs: one table an enum, with
// the file and CLI id and the window's label, read by the scenario's
// parse and id functions and by the field registry's choices.

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/model/modelspec.h"
#include "core/scenario/scenario.h"

namespace core {

inline constexpr Spelling<Checkpointing> kCheckpointingSpellings[] = {
    {Checkpointing::None, "none", QT_TRANSLATE_NOOP("Field", "none")},
    {Checkpointing::Selective, "selective", QT_TRANSLATE_NOOP("Field", "selective")},
    {Checkpointing::Full, "full", QT_TRANSLATE_NOOP("Field", "full")},
    {Checkpointing::Offloaded, "offloaded", QT_TRANSLATE_NOOP("Field", "full, layer inputs in host memory (Unsloth, torchtune offloading)")}};
inline constexpr Spelling<Attention> kAttentionSpellings[] = {
    {Attention::Eager, "eager", QT_TRANSLATE_NOOP("Field", "eager (stores s² scores)")},
    {Attention::Sdpa, "sdpa", QT_TRANSLATE_NOOP("Field", "SDPA")},
    {Attention::Flash, "flash", QT_TRANSLATE_NOOP("Field", "FlashAttention-2")}};
inline constexpr Spelling<LogitsMode> kLogitsSpellings[] = {
    {LogitsMode::Fp32, "fp32", QT_TRANSLATE_NOOP("Field", "fp32 upcast (Hugging Face Trainer)")},
    {LogitsMode::Fp32Shift, "fp32-shift", QT_TRANSLATE_NOOP("Field", "fp32 from the model, shifted copy (transformers ≤ 4.45)")},
    {LogitsMode::Native, "native", QT_TRANSLATE_NOOP("Field", "activation dtype")},
    {LogitsMode::Chunked, "chunked", QT_TRANSLATE_NOOP("Field", "chunked loss")},
    {LogitsMode::Fused, "fused", QT_TRANSLATE_NOOP("Field", "compiled chunked loss (torchtune)")},
    {LogitsMode::LastToken, "last", QT_TRANSLATE_NOOP("Field", "last token only (generate)")},
    {LogitsMode::FusedLinear, "fused-linear", QT_TRANSLATE_NOOP("Field", "output layer and loss fused in chunks (Liger)")}};
inline constexpr Spelling<LinearSlot> kSlotSpellings[] = {
    {LinearSlot::Q, "q"},   {LinearSlot::K, "k"},       {LinearSlot::V, "v"},   {LinearSlot::O, "o"},
    {LinearSlot::Gate, "gate"}, {LinearSlot::Up, "up"}, {LinearSlot::Down, "down"}};
inline constexpr Spelling<CudaLoading> kCudaLoadingSpellings[] = {
    {CudaLoading::Lazy, "lazy", QT_TRANSLATE_NOOP("Field", "lazy (CUDA ≥ 11.7)")},
    {CudaLoading::Eager, "eager", QT_TRANSLATE_NOOP("Field", "eager (older stacks)")}};
inline constexpr Spelling<Offload> kOffloadSpellings[] = {
    {Offload::None, "none", QT_TRANSLATE_NOOP("Field", "none")},
    {Offload::Optimizer, "optimizer", QT_TRANSLATE_NOOP("Field", "optimizer states (ZeRO-Offload)")},
    {Offload::OptimizerAndParams, "params", QT_TRANSLATE_NOOP("Field", "optimizer states and parameters (ZeRO-Infinity)")}};
inline constexpr Spelling<OptimizerImpl> kOptimizerImplSpellings[] = {
    {OptimizerImpl::Auto, "auto", QT_TRANSLATE_NOOP("Field", "auto")},
    {OptimizerImpl::Foreach, "foreach", QT_TRANSLATE_NOOP("Field", "foreach (one full-size temporary)")},
    {OptimizerImpl::Fused, "fused", QT_TRANSLATE_NOOP("Field", "fused")},
    {OptimizerImpl::Loop, "loop", QT_TRANSLATE_NOOP("Field", "per-parameter loop")}};

} // namespace core
