#pragma once

#include "core/base/units.h"
#include "core/model/catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace core::runlog {

/// The catalog GPUs a device name from a log can be ("NVIDIA A100-SXM4-80GB"
/// from nvidia-smi or CUDA, "NVIDIA GeForce RTX 4090" from llama.cpp): those
/// whose model words ("a100", "sxm4"; vendor and brand words and sizes
/// aside) all appear in the name, and, where the name or `total` gives a
/// memory size, whose memory is within 10 % of it. Best matches only: one
/// id when the name settles it, several when it does not ("NVIDIA H100
/// 80GB HBM3" names neither SXM5 nor PCIe), none when nothing fits.
std::vector<std::string> matchCatalogGpu(const std::string &deviceName, std::optional<Bytes> total,
                                         const Catalog &catalog);

} // namespace core::runlog
