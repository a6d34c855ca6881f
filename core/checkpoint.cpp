#include "core/checkpoint.h"

#include "core/units.h"

#include <cstdlib>
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
        && skippedBytes == o.skippedBytes;
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
    return c;
}

} // namespace core
