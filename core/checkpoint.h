#pragma once

#include "core/modelspec.h"
#include "core/weightinventory.h"

#include <cstdint>
#include <string>
#include <vector>

namespace core {

/// The weights a loader takes from a checkpoint on disk, by dtype, as the
/// files' own tensor tables state them: the weights term of an inference
/// estimate is then these bytes, not a format's bits per weight.
struct CheckpointWeights
{
    std::string path;   ///< the folder or file the user gave
    std::string format; ///< "safetensors" or "gguf"
    std::uint64_t files = 0;
    std::vector<DtypeTotal> loaded; ///< the tensors that load, largest dtype first
    std::uint64_t skippedTensors = 0; ///< in the files but not loaded (MTP modules)
    std::uint64_t skippedBytes = 0;

    std::uint64_t bytes() const;
    std::uint64_t elements() const;
    /// The dtypes that load, largest first: "F8_E4M3, BF16, F32".
    std::string dtypes() const;
    bool operator==(const CheckpointWeights &other) const;
};

/// Whether `name` belongs to a multi-token-prediction module: layers past
/// num_hidden_layers (DeepSeek-V3's model.layers.61.*, GLM-4.5's, llama.cpp's
/// blk.N.*) or Qwen3-Next's mtp.*. Transformers skips them on load
/// (_keys_to_ignore_on_load_unexpected in modeling_deepseek_v3.py and
/// modeling_qwen3_next.py).
bool isMtpTensor(const std::string &name, const ModelSpec &model);

/// What of `inventory` loads for `model`: everything but the MTP modules,
/// unless the model loads them for speculative decoding.
CheckpointWeights summarizeCheckpoint(const WeightInventory &inventory, const ModelSpec &model);

} // namespace core
