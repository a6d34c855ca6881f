#pragma once

#include "core/engine/estimate.h"
#include "core/model/catalog.h"
#include "core/runs/calibration.h"
#include "core/runs/runlog.h"
#include "core/scenario/fields.h"
#include "core/scenario/scenario.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace core {

/// A scenario input the log states ("n_ctx = 8192" is the sequence).
struct LogSetting
{
    FieldId field;
    std::string value;    ///< as the field spells it: "8192", "gguf-q8_0", "flash"
    std::size_t line = 0; ///< the log line that states it
    bool applied = true;  ///< false: the user set the field and keeps it
};

/// The scenario a run log describes: the user's scenario with the settings
/// the log states, except those the user set.
struct RunScenario
{
    Scenario scenario;
    std::vector<LogSetting> settings;
    /// What the log says that the scenario cannot take (different K and V
    /// types, a GPU name the catalog cannot settle), each naming its line.
    std::vector<std::string> notes;
    /// The GPU's memory as the run saw it (vLLM's total_gpu_memory,
    /// nvidia-smi's memory.total): the capacity vLLM's KV pool is planned on.
    std::optional<Bytes> gpuMemory;
};

/// Applies the settings `log` states to `base` through the fields'
/// descriptors (llama.cpp: n_ctx_seq or n_ctx / n_seq_max as the sequence,
/// n_seq_max as the batch, n_ubatch, flash_attn, the K/V type, the layers
/// offloaded, the GPUs with model buffers; vLLM: gpu_memory_utilization,
/// max_model_len, the workers as tensor-parallel GPUs; every format: the
/// GPU by name), except the fields in `userFields`.
RunScenario scenarioFromLog(Scenario base, const runlog::RunLog &log, const Catalog &catalog,
                            const std::set<FieldId> &userFields);

/// One measured quantity beside the plan.
struct ComparisonRow
{
    std::string quantity; ///< runlog quantity id ("llamacpp.kv_buffer"), or "hf.train_peak"
    std::string label;    ///< "KV buffer"
    std::string device;   ///< "CUDA0", "host", "GPU 0", "pid=507"; empty for the only one
    Bytes measured;
    Bytes uncertainty;    ///< of the printed figure
    std::optional<Bytes> planned;
    /// The planner's term(s) that model it: "kv_cache", "workspace + logits",
    /// "host: weights", "total - cuda_overhead - allocator_reserve - comm_buffers".
    std::string term;
    std::size_t line = 0;
    bool isCount = false;       ///< tokens or concurrency: the numbers below, not bytes
    double measuredNumber = 0;
    double plannedNumber = 0;

    /// planned - measured in bytes (or the count), clamped to +-2^62.
    double difference() const;
    /// The plan's error against the measurement, percent: 100 x (planned -
    /// measured) / measured, as the README's accuracy table; nullopt
    /// without a plan or for a zero measurement.
    std::optional<double> errorPercent() const;
};

struct RunComparison
{
    Scenario scenario;
    std::vector<LogSetting> settings; ///< the run's, as scenarioFromLog found them
    std::vector<ComparisonRow> rows;
    std::vector<std::string> notes;
};

/// Each quantity the log states beside the term(s) of `run.scenario` that
/// model it, per device: llama.cpp buffers against the split's GPU terms
/// and llama.cpp's host buffers; vLLM's profile against weights,
/// workspace + logits, the overheads and the KV pool planned on the run's
/// GPU memory; torch and Trainer peaks against the tensor terms; nvidia-smi
/// against the total and the card's capacity.
RunComparison compareRun(const RunScenario &run, const runlog::RunLog &log, const Catalog &catalog);

/// The figures `calibrate` fits, from a log: torch's peak allocated (else
/// vLLM's weights plus activation peak, which vLLM measured as torch's
/// allocated peak, else the Trainer's init and train deltas), torch's
/// peak reserved, and nvidia-smi's process memory (else memory.used) of
/// the first GPU.
Measurement measurementFromLog(const runlog::RunLog &log);

} // namespace core
