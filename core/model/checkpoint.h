#pragma once

#include "core/model/cpubuffers.h"
#include "core/model/modelspec.h"
#include "core/model/weightinventory.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace core {

/// Bytes of a group of tensors where llama.cpp keeps them: in the file
/// (the host maps it: CPU_Mapped), as a CUDA buffer allocates them, and,
/// per CPU build, the copies the CPU backend makes of them in its extra
/// buffers when they stay on the host (CPU_REPACK, AMX: cpuBufferCopy).
struct PlacedBytes
{
    std::uint64_t file = 0;
    std::uint64_t device = 0;
    std::array<std::uint64_t, kCpuBuilds> hostCopies{};
    std::uint64_t hostCopy(CpuBuild build) const { return hostCopies[static_cast<std::size_t>(build)]; }
    bool operator==(const PlacedBytes &other) const
    {
        return file == other.file && device == other.device && hostCopies == other.hostCopies;
    }
};

/// A GGUF file's tensors in the groups llama.cpp places as units
/// (llama_model::load_tensors, llama.cpp ec98e2002): the input layer stays
/// on the host, each `blk.N` goes where layer N goes, and the output layer
/// (output, output_norm) counts as layer n_layer.
struct GgufPlacement
{
    PlacedBytes input;  ///< token_embd and the other tensors outside the layers
    /// output and output_norm; with tied embeddings the device side also
    /// holds llama.cpp's duplicate of token_embd (TENSOR_DUPLICATED).
    PlacedBytes output;
    std::vector<PlacedBytes> layers; ///< blk.N, by N
    /// Of each layer, the routed experts' weights (ffn_{up,down,gate}_exps):
    /// what --n-cpu-moe keeps in host memory (common.h LLM_FFN_EXPS_REGEX).
    std::vector<PlacedBytes> experts;
    bool operator==(const GgufPlacement &other) const
    {
        return input == other.input && output == other.output && layers == other.layers && experts == other.experts;
    }
};

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
    std::optional<GgufPlacement> placement; ///< GGUF files only

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
