#include "core/model/checkpoint.h"

#include "core/base/units.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <optional>

namespace core {

std::uint64_t CheckpointWeights::bytes() const
{
    std::uint64_t total = 0;
    for (const DtypeTotal &d : loaded)
        total = saturatingAdd(total, d.bytes);
    return total;
}

std::uint64_t CheckpointWeights::elements() const
{
    std::uint64_t total = 0;
    for (const DtypeTotal &d : loaded)
        total = saturatingAdd(total, d.elements);
    return total;
}

std::string CheckpointWeights::dtypes() const
{
    std::vector<std::string> names;
    for (const DtypeTotal &d : loaded)
        names.push_back(d.dtype);
    return joinWithCommas(names);
}

bool CheckpointWeights::operator==(const CheckpointWeights &o) const
{
    const auto same = [](const DtypeTotal &a, const DtypeTotal &b) {
        return a.dtype == b.dtype && a.tensors == b.tensors && a.elements == b.elements && a.bytes == b.bytes;
    };
    if (loaded.size() != o.loaded.size())
        return false;
    for (std::size_t i = 0; i < loaded.size(); ++i)
        if (!same(loaded[i], o.loaded[i]))
            return false;
    return path == o.path && format == o.format && files == o.files && skippedTensors == o.skippedTensors
        && skippedBytes == o.skippedBytes && placement == o.placement;
}

namespace {

/// The layer index after `prefix` in `name` ("model.layers.61.mlp" -> 61).
std::optional<std::uint64_t> layerIndex(const std::string &name, const std::string &prefix)
{
    const auto at = name.find(prefix);
    if (at == std::string::npos)
        return std::nullopt;
    const char *digits = name.c_str() + at + prefix.size();
    char *end = nullptr;
    const unsigned long long index = std::strtoull(digits, &end, 10);
    if (end == digits || *end != '.')
        return std::nullopt;
    return index;
}

/// Bytes a CUDA buffer allocates for `t`: quantised tensors whose rows
/// are not a multiple of 512 get one padded row (MATRIX_ROW_PADDING), and
/// every tensor is aligned to 128 bytes (ggml-cuda.cu:
/// ggml_backend_cuda_buffer_type_get_alloc_size, CUDA_ALIGNMENT).
std::uint64_t cudaAllocation(const StoredTensor &t)
{
    constexpr std::uint64_t kRowPadding = 512;
    constexpr std::uint64_t kAlignment = 128;
    static const char *const kPlainTypes[] = {"F32", "F16", "BF16", "F64", "I8", "I16", "I32", "I64"};
    const bool quantized = std::none_of(std::begin(kPlainTypes), std::end(kPlainTypes),
                                        [&t](const char *plain) { return t.dtype == plain; });
    std::uint64_t bytes = t.bytes;
    const std::uint64_t rowLength = t.shape.empty() ? 0 : t.shape.back();
    if (quantized && rowLength % kRowPadding != 0 && t.elements > 0)
        bytes = saturatingAdd(bytes, (kRowPadding - rowLength % kRowPadding) * t.bytes / t.elements);
    return saturatingAdd(bytes, kAlignment - 1) / kAlignment * kAlignment;
}

/// llama.cpp's LLM_FFN_EXPS_REGEX "\\.ffn_(up|down|gate|gate_up)_(ch|)exps"
/// (common/common.h), which --cpu-moe and --n-cpu-moe match.
bool isRoutedExpert(const std::string &name)
{
    for (const char *part : {".ffn_up_", ".ffn_down_", ".ffn_gate_", ".ffn_gate_up_"}) {
        const auto at = name.find(part);
        if (at == std::string::npos)
            continue;
        const std::string rest = name.substr(at + std::char_traits<char>::length(part));
        if (rest.rfind("exps", 0) == 0 || rest.rfind("chexps", 0) == 0)
            return true;
    }
    return false;
}

void addHostCopies(PlacedBytes &group, const StoredTensor &t)
{
    for (const CpuBuildInfo &b : allCpuBuilds()) {
        std::uint64_t &copies = group.hostCopies[static_cast<std::size_t>(b.build)];
        copies = saturatingAdd(copies, cpuBufferCopy(t, b.build));
    }
}

void add(PlacedBytes &group, const StoredTensor &t)
{
    group.file = saturatingAdd(group.file, t.bytes);
    group.device = saturatingAdd(group.device, cudaAllocation(t));
    addHostCopies(group, t);
}

GgufPlacement placeGgufTensors(const WeightInventory &inventory, const ModelSpec &model)
{
    GgufPlacement p;
    p.layers.resize(model.layers);
    p.experts.resize(model.layers);
    bool ownOutput = false;
    for (const StoredTensor &t : inventory.tensors) {
        if (const auto index = layerIndex(t.name, "blk.")) {
            if (*index >= p.layers.size())
                continue;
            add(p.layers[*index], t);
            if (isRoutedExpert(t.name))
                add(p.experts[*index], t);
        } else if (t.name.rfind("output", 0) == 0) {
            ownOutput = ownOutput || t.name == "output.weight";
            add(p.output, t);
        } else {
            add(p.input, t);
        }
    }
    // No output.weight: llama.cpp creates `output` as a duplicate of
    // token_embd on the output layer's device; on the host the duplicate
    // is a matmul weight, which the CPU backend may repack.
    if (!ownOutput)
        for (const StoredTensor &t : inventory.tensors)
            if (t.name == "token_embd.weight") {
                p.output.device = saturatingAdd(p.output.device, cudaAllocation(t));
                StoredTensor output = t;
                output.name = "output.weight";
                addHostCopies(p.output, output);
            }
    return p;
}

} // namespace

bool isMtpTensor(const std::string &name, const ModelSpec &model)
{
    if (name.rfind("mtp.", 0) == 0)
        return true;
    for (const char *prefix : {"model.layers.", "language_model.layers.", "blk."})
        if (const auto index = layerIndex(name, prefix))
            return *index >= model.layers;
    return false;
}

CheckpointWeights summarizeCheckpoint(const WeightInventory &inventory, const ModelSpec &model)
{
    CheckpointWeights c;
    c.path = inventory.path;
    c.format = inventory.format == WeightInventory::Format::Gguf ? "gguf" : "safetensors";
    c.files = inventory.files.size();
    const auto loads = [&model](const StoredTensor &t) { return model.loadMtp || !isMtpTensor(t.name, model); };
    c.loaded = inventory.byDtype(loads);
    for (const StoredTensor &t : inventory.tensors)
        if (!loads(t)) {
            ++c.skippedTensors;
            c.skippedBytes = saturatingAdd(c.skippedBytes, t.bytes);
        }
    if (inventory.format == WeightInventory::Format::Gguf)
        c.placement = placeGgufTensors(inventory, model);
    return c;
}

} // namespace core
