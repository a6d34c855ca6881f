#pragma once

#include "core/base/loadresult.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace core::io {

/// A published measurement (tests/validation/published-cases.json).
struct PublishedCase
{
    std::string id;
    std::string mode;   ///< inference, training, lora, qlora
    /// nvidia_smi (process total), torch_allocated (max_memory_allocated),
    /// vllm_kv_pool (the KV cache vLLM sizes on the case's --gpu) or
    /// vllm_activation_peak (its profiled activation peak)
    std::string metric;
    std::uint64_t measuredBytes = 0;
    std::vector<std::string> args; ///< vramplanner-cli estimate arguments
    std::string source;
};

/// One configuration measured by tests/validation/measure_torch.py.
struct MeasuredCase
{
    std::string id;
    std::string configText; ///< the model's config.json, as text
    std::vector<std::string> args;
    std::map<std::string, std::uint64_t> measured; ///< param_bytes, saved_total_bytes, ...
};

struct MeasuredRun
{
    std::string device;
    std::string torchVersion;
    std::vector<MeasuredCase> cases;
};

/// One published serving benchmark: a time figure an engine measured on
/// stated hardware and settings (tests/validation/serving-time-cases.json).
struct ServingTimeCase
{
    std::string id;
    /// decode_tokens_per_second (one sequence's), ttft_seconds,
    /// prefill_tokens_per_second, or loaded_ttft_seconds and
    /// loaded_tpot_seconds (one replica at the case's --request-rate, the
    /// serving plan's queueing model)
    std::string metric;
    double measured = 0;
    std::vector<std::string> args; ///< vramplanner-cli estimate arguments, --gpu among them
    std::string source;
};

LoadResult<std::vector<PublishedCase>> loadPublishedCases(const std::string &text);
LoadResult<std::vector<ServingTimeCase>> loadServingTimeCases(const std::string &text);
LoadResult<MeasuredRun> loadMeasuredRun(const std::string &text);

} // namespace core::io
