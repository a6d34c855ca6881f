#pragma once

#include "core/base/units.h"

#include <optional>
#include <string>
#include <vector>

namespace core {

/// The precisions a datasheet quotes a dense tensor peak for.
enum class Precision { Fp32, Tf32, Fp16, Bf16, Fp8, Int8, Fp4 };

struct PrecisionInfo
{
    Precision precision;
    const char *id; ///< "bf16", as gpus.json spells the peak_tflops keys
};
const std::vector<PrecisionInfo> &allPrecisions();

/// Dense peak throughput by precision, TFLOPS (int8: TOPS); absent = unknown.
struct PeakThroughput
{
    std::optional<double> fp32, tf32, fp16, bf16, fp8, int8, fp4;

    /// The peak for `precision`; absent when the datasheet gives none.
    std::optional<double> at(Precision precision) const;
};

/// One catalog GPU. Capacities are what the card really has; `usable` is
/// what the driver reports as total where a published log gives it. A new
/// member is also listed in core/tablegen/members.h (built-in tables).
struct GpuSpec
{
    std::string id;
    std::string name;
    std::string vendor;
    std::string architecture;
    std::string computeCapability; ///< "8.0"; empty for non-CUDA devices
    int launchYear = 0;
    Bytes memory;
    std::optional<Bytes> usableMemory;
    /// What nvidia-smi prints as memory.total, where a published dump gives
    /// it: at most `memory`, at least the CUDA-visible `usableMemory`.
    std::optional<Bytes> nvidiaSmiTotal;
    std::string memoryType;
    double bandwidthGBps = 0;
    PeakThroughput peak;
    bool supportsBf16 = false;
    bool supportsFlashAttention2 = false;
    bool supportsFp8 = false;
    std::string interconnect;
    double interconnectGBps = 0;
    double tdpWatts = 0;
    /// US dollars to rent one for an hour, where the user's catalog gives
    /// it ("price_per_gpu_hour_usd"; the built-in catalog gives none: rents
    /// move weekly); 0: unknown.
    double pricePerHour = 0;
    bool defaultShown = false;
    std::string source;
    std::string notes;

    /// The capacity a fit is checked against: usable where known, else nominal.
    Bytes capacity() const { return usableMemory ? *usableMemory : memory; }
    /// The total the driver's tool reports (SGLang sizes its defaults by
    /// it): nvidia-smi's where known, else the capacity.
    Bytes reportedTotal() const { return nvidiaSmiTotal ? *nvidiaSmiTotal : capacity(); }
    /// Runs CUDA: an NVIDIA card, or one whose vendor is not stated (a
    /// card sized from a log alone).
    bool runsCuda() const { return vendor.empty() || vendor == "NVIDIA"; }
    /// Compute capability 9.0: Hopper (H100, H200, H20, GH200).
    bool isHopper() const { return runsCuda() && computeCapability == "9.0"; }
    /// Compute capability 10.x: data-centre Blackwell (B200, B300, GB200),
    /// not the 12.x of the workstation and GeForce cards.
    bool isDataCentreBlackwell() const { return runsCuda() && computeCapability.rfind("10.", 0) == 0; }
};

struct Catalog
{
    std::vector<GpuSpec> gpus;

    const GpuSpec *find(const std::string &id) const;
};

} // namespace core
