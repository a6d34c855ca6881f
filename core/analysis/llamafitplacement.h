#pragma once

// Steps 3 and 4 of llama-server's --fit (common/fit.cpp
// common_params_fit_impl, llama.cpp 0.4.0): where the layers, and an MoE
// model's routed experts, go once the context is settled.

#include "core/base/units.h"
#include "core/scenario/scenario.h"

#include <cstdint>
#include <vector>

namespace core {

/// A device's share of --fit's layout: its units (layers in order; the
/// output layer is the last device's last unit) and, of them, the partial
/// ones whose routed experts stay in host memory (the device's last units).
struct FitUnits
{
    std::uint64_t layers = 0;
    std::uint64_t partial = 0;
};
using FitLayout = std::vector<FitUnits>;

/// Device `id`'s planned peak at `layout` on `s.gpus` GPUs: -ngl the units'
/// sum, --tensor-split each device's units, and device `id`'s partial
/// layers as its leading ones (fit.cpp's are its last: the same bytes).
Bytes fitDeviceTotal(const Scenario &s, const FitLayout &layout, std::size_t id);

/// fit.cpp's placement against `target` (each device's free memory less
/// its margin). Step 3 fills the devices back to front, the last first,
/// each with the most units that keep its target while the devices before
/// it hold none; an MoE model's units go dense-only (experts in host
/// memory), except the last device's first (fit.cpp gives it n_layer - 1
/// partial units to spare the output layer, but the output layer is among
/// the device's last units, so its first layer keeps its experts). Step 4,
/// for an MoE model whose dense weights leave memory to spare with every
/// expert in host memory: front to back, each device turns the most
/// dense-only layers it can, its own and the later devices', into full ones
/// (the method of false position there, a bisection here: both stop at the
/// largest count that fits). The part-layer fit.cpp then tries (a layer's
/// up or gate projection on the device) is not modelled.
FitLayout placeLayersForFit(const Scenario &s, Bytes target);

/// Layers on the GPUs whose routed experts `layout` keeps in host memory.
std::uint64_t hostExpertLayers(const Scenario &s, const FitLayout &layout);

} // namespace core
