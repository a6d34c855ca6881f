#include "core/model/weightinventory.h"

#include "core/base/units.h"

#include <algorithm>
#include <limits>

namespace core {

std::optional<std::uint64_t> GgufNumber::count() const
{
    switch (kind) {
    case Kind::Unsigned:
        return unsignedValue;
    case Kind::Signed:
        if (signedValue >= 0)
            return static_cast<std::uint64_t>(signedValue);
        return std::nullopt;
    case Kind::Float:
        break;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> GgufValue::count() const
{
    if (isArray() || type == Type::Bool || numbers.size() != 1)
        return std::nullopt;
    return numbers.front().count();
}

std::optional<std::uint64_t> elementCount(const std::vector<std::uint64_t> &shape)
{
    if (std::find(shape.begin(), shape.end(), 0u) != shape.end())
        return 0; // an empty tensor, however large its other dimensions
    std::uint64_t product = 1;
    for (const std::uint64_t dim : shape) {
        if (dim != 0 && product > std::numeric_limits<std::uint64_t>::max() / dim)
            return std::nullopt;
        product *= dim;
    }
    return product;
}

std::uint64_t WeightInventory::bytes(const TensorFilter &keep) const
{
    std::uint64_t sum = 0;
    for (const StoredTensor &t : tensors)
        if (!keep || keep(t))
            sum = saturatingAdd(sum, t.bytes);
    return sum;
}

std::uint64_t WeightInventory::elements(const TensorFilter &keep) const
{
    std::uint64_t sum = 0;
    for (const StoredTensor &t : tensors)
        if (!keep || keep(t))
            sum = saturatingAdd(sum, t.elements);
    return sum;
}

std::vector<DtypeTotal> WeightInventory::byDtype(const TensorFilter &keep) const
{
    std::map<std::string, DtypeTotal> totals;
    for (const StoredTensor &t : tensors) {
        if (keep && !keep(t))
            continue;
        DtypeTotal &total = totals[t.dtype];
        total.dtype = t.dtype;
        ++total.tensors;
        total.elements = saturatingAdd(total.elements, t.elements);
        total.bytes = saturatingAdd(total.bytes, t.bytes);
    }
    std::vector<DtypeTotal> rows;
    rows.reserve(totals.size());
    for (auto &entry : totals)
        rows.push_back(std::move(entry.second));
    // std::map hands them over by name, so a stable sort keeps ties by name.
    std::stable_sort(rows.begin(), rows.end(),
                     [](const DtypeTotal &a, const DtypeTotal &b) { return a.bytes > b.bytes; });
    return rows;
}

} // namespace core
