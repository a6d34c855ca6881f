#include "app/cli/scenariooptions.h"

#include "core/io/builtin.h"
#include "core/io/calibrationio.h"
#include "core/io/hfconfig.h"
#include "core/io/loadresult.h"
#include "core/io/scenarioio.h"
#include "core/stack.h"
#include "core/units.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cli {

namespace {

std::string formatIds(bool kvOnly)
{
    std::string ids;
    for (const core::FormatInfo &f : core::allFormats())
        if (!kvOnly || f.usableForKvCache)
            ids += (ids.empty() ? "" : ", ") + std::string(f.id);
    return ids;
}

std::string optimizerIds()
{
    std::string ids;
    for (const core::OptimizerInfo &o : core::allOptimizers())
        ids += (ids.empty() ? "" : ", ") + std::string(o.id);
    return ids;
}

/// Applies each present option; the first bad one stops with its message.
class Applier
{
public:
    Applier(const Options &options, std::string &error) : m_options(options), m_error(error) {}

    bool ok() const { return m_error.empty(); }

    template <typename T, typename Parse>
    void choice(const char *name, Parse parse, T &target, const std::string &accepted)
    {
        if (!ok() || !m_options.has(name))
            return;
        const std::string &text = m_options.value(name);
        if (const auto value = parse(text))
            target = *value;
        else
            fail(name, "'" + text + "' is not one of " + accepted);
    }

    template <typename T>
    void integer(const char *name, T &target, std::uint64_t min, std::uint64_t max)
    {
        if (!ok() || !m_options.has(name))
            return;
        // The spellings --params takes: 4096, 32k, 1e6, 1M.
        const std::string &text = m_options.value(name);
        const auto value = text == "0" ? std::optional<std::uint64_t>(0) : core::parseCount(text);
        if (!value || *value < min || *value > max)
            fail(name, "'" + text + "' is not an integer between " + std::to_string(min) + " and " + std::to_string(max));
        else
            target = static_cast<T>(*value);
    }

    void number(const char *name, double &target, double min, double max)
    {
        if (!ok() || !m_options.has(name))
            return;
        const std::string &text = m_options.value(name);
        std::istringstream in(text);
        double value = 0;
        in >> value;
        if (!in || !in.eof() || !std::isfinite(value) || value < min || value > max)
            fail(name, "'" + text + "' is not a number between " + core::formatFixed(min, 2) + " and "
                           + core::formatFixed(max, 2));
        else
            target = value;
    }

    void fail(const char *name, const std::string &message)
    {
        if (ok())
            m_error = "--" + std::string(name) + ": " + message;
    }

private:
    const Options &m_options;
    std::string &m_error;
};

std::optional<core::ModelSpec> modelFromConfig(const std::string &path, std::string &error,
                                               std::vector<std::string> *warnings)
{
    std::string file = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        file = (std::filesystem::path(path) / "config.json").string();
    std::string readError;
    const auto text = readFile(file, core::io::kMaxInputBytes, readError);
    if (!text) {
        error = "--config: " + readError;
        return std::nullopt;
    }
    const auto result = core::io::parseHfConfig(*text, std::filesystem::path(file).parent_path().filename().string());
    if (!result.ok()) {
        error = "--config: " + core::io::inFile(file, result.errors.front());
        return std::nullopt;
    }
    if (warnings)
        for (const std::string &w : result.warnings)
            warnings->push_back("config " + file + w);
    return result.value;
}

std::optional<std::vector<core::LinearSlot>> parseTargets(const std::string &text)
{
    if (text == "all")
        return std::vector<core::LinearSlot>{core::LinearSlot::Q, core::LinearSlot::K, core::LinearSlot::V,
                                             core::LinearSlot::O, core::LinearSlot::Gate, core::LinearSlot::Up,
                                             core::LinearSlot::Down};
    if (text == "attention")
        return std::vector<core::LinearSlot>{core::LinearSlot::Q, core::LinearSlot::K, core::LinearSlot::V,
                                             core::LinearSlot::O};
    std::vector<core::LinearSlot> slots;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto slot = core::parseLinearSlot(item);
        if (!slot)
            return std::nullopt;
        slots.push_back(*slot);
    }
    if (slots.empty())
        return std::nullopt;
    return slots;
}

} // namespace

const std::vector<OptionSpec> &estimateOptionSpecs()
{
    static const std::vector<OptionSpec> specs = {
        {"preset", "ID", "model preset (see 'vramplanner-cli models')"},
        {"config", "PATH", "Hugging Face config.json, or a folder holding one"},
        {"params", "N", "bare parameter count: 7e9, 7B, 0.5b, 1.2T or an integer"},
        {"scenario", "FILE", "start from a saved scenario; other options override it"},
        {"mode", "MODE", "inference | train | lora | qlora (default inference)"},
        {"weights", "FORMAT", "weight format (default bf16; nf4-dq for qlora)"},
        {"group-size", "G", "GPTQ/AWQ group size (default 128)"},
        {"quantize-embeddings", nullptr, "quantise embeddings and lm_head too"},
        {"regime", "REGIME", "fp32 | amp | mixed | deepspeed | bf16-pure (default mixed)"},
        {"optimizer", "NAME", "optimizer (default adamw)"},
        {"optimizer-impl", "IMPL", "auto | foreach | fused | loop: the optimizer step's temporaries (default auto)"},
        {"batch", "N", "micro-batch per GPU (default 1)"},
        {"seq", "N", "sequence length / context in tokens (default 2048)"},
        {"grad-accum", "N", "gradient accumulation steps (default 1)"},
        {"checkpointing", "KIND", "none | selective | full (default: the stack's; full for hf and torchtune QLoRA)"},
        {"stack", "STACK", "hf | torchtune | litgpt: the training software, which decides adapter dtypes, the "
                           "kbit upcast, defaults and saved tensors (default hf)"},
        {"bnb", "VERSION", "current | legacy: bitsandbytes >= 0.43.2, or <= 0.43.1 which keeps every 4-bit "
                           "layer's input (default current)"},
        {"attention", "IMPL", "eager | sdpa | flash (default sdpa)"},
        {"lora-rank", "R", "LoRA rank (default 16)"},
        {"lora-alpha", "A", "LoRA alpha (default 32)"},
        {"lora-targets", "LIST", "all | attention | comma list of q,k,v,o,gate,up,down (default all)"},
        {"lora-dropout", "P", "dropout on the adapter input (default: the stack's; 0.05 litgpt, else 0)"},
        {"kv-dtype", "FORMAT", "KV-cache format (default: the activation dtype)"},
        {"logits", "MODE", "fp32 | fp32-shift | native | chunked | fused | last (default: the stack's for "
                           "training, last for inference)"},
        {"gpu-memory-utilization", "F", "serving memory fraction for the KV budget (default 0.9)"},
        {"serving-engine", "ENGINE", "hf | vllm: generate() on the scenario's batch, or vLLM's start-up profile "
                                     "(default hf)"},
        {"max-num-batched-tokens", "N", "vLLM's token budget per step, profiled at start-up (default 8192)"},
        {"max-num-seqs", "N", "vLLM's concurrent sequences, the sampler warm-up's rows (default 256)"},
        {"gpus", "N", "GPUs (default 1)"},
        {"zero", "STAGE", "ZeRO / FSDP stage 0-3 for training (default 0)"},
        {"gpu", "ID", "GPU to focus on (see 'vramplanner-cli gpus'); also times the run on it"},
        {"tp", "N", "tensor-parallel degree (default 1)"},
        {"pp", "N", "pipeline stages (default 1)"},
        {"sp", nullptr, "sequence parallelism (needs --tp > 1)"},
        {"ep", "N", "expert-parallel degree for MoE models (default 1)"},
        {"interleave", "V", "virtual pipeline stages per GPU (default 1: plain 1F1B)"},
        {"offload", "WHAT", "none | optimizer | params: ZeRO-Offload / ZeRO-Infinity (default none)"},
        {"nodes", "N", "nodes; GPUs = nodes x gpus-per-node"},
        {"gpus-per-node", "N", "GPUs per node (default 8)"},
        {"hybrid-shard", nullptr, "shard ZeRO/FSDP states within a node, replicate across nodes"},
        {"tokens", "N", "training token budget for time and cost (e.g. 1e9, 300B)"},
        {"mfu", "F", "model FLOPs utilisation assumed for time (default 0.4)"},
        {"price-per-gpu-hour", "P", "price per GPU-hour for cost (default: none)"},
        {"inter-node-gbps", "B", "per-GPU bandwidth between nodes, GB/s (default 50: 400 Gb/s InfiniBand)"},
        {"cuda-overhead-mib", "N", "CUDA context per GPU in MiB (default 512 lazy, 1343 eager)"},
        {"cuda-loading", "KIND", "lazy | eager module loading (default lazy)"},
        {"reserve-percent", "P", "allocator reserve in % of tensor memory (default 5)"},
        {"calibration", "FILE", "apply a calibration profile (its CUDA context and reserve)"},
        {"units", "UNIT", "gib | gb for the table (default gib)"},
        {"json", nullptr, "print one JSON object instead of a table"},
        {"save-scenario", "FILE", "also write the inputs as a scenario file"},
    };
    return specs;
}

std::vector<OptionSpec> estimateOptionSpecsWith(std::initializer_list<OptionSpec> extra)
{
    std::vector<OptionSpec> specs = estimateOptionSpecs();
    specs.insert(specs.end(), extra.begin(), extra.end());
    return specs;
}

std::optional<std::string> readFile(const std::string &path, std::size_t limit, std::string &error)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        error = "cannot read '" + path + "': " + ec.message();
        return std::nullopt;
    }
    if (size > limit) {
        error = "'" + path + "' is " + std::to_string(size / (1024 * 1024)) + " MiB; the limit is "
            + std::to_string(limit / (1024 * 1024)) + " MiB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open '" + path + "'";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::optional<core::Scenario> scenarioFromOptions(const Options &options, const core::Catalog &catalog,
                                                  std::string &error,
                                                  std::vector<std::string> *warnings, const core::ModelSpec *model)
{
    core::Scenario s;
    const int sources = options.has("preset") + options.has("config") + options.has("params");
    if (sources > 1) {
        error = "--preset, --config and --params: give only one";
        return std::nullopt;
    }
    if (options.has("scenario")) {
        const auto text = readFile(options.value("scenario"), core::io::kMaxInputBytes, error);
        if (!text) {
            error = "--scenario: " + error;
            return std::nullopt;
        }
        const auto loaded = core::io::loadScenario(*text, core::io::builtinPresets());
        if (!loaded.ok()) {
            error = "--scenario: " + core::io::inFile(options.value("scenario"), loaded.errors.front());
            return std::nullopt;
        }
        s = *loaded.value;
    } else if (sources == 0 && model) {
        s.model = *model;
        s.source = {core::ModelSource::Kind::ConfigFile, "", model->name, 0};
    } else if (sources == 0) {
        error = "choose a model with --preset ID, --config PATH or --params N";
        return std::nullopt;
    }

    if (options.has("preset")) {
        const core::io::ModelPreset *preset = core::io::findPreset(options.value("preset"));
        if (!preset) {
            error = "--preset: '" + options.value("preset") + "' is not a preset (see 'vramplanner-cli models')";
            return std::nullopt;
        }
        s.model = preset->model;
        s.source = {core::ModelSource::Kind::Preset, preset->id, "", 0};
    } else if (options.has("config")) {
        const auto model = modelFromConfig(options.value("config"), error, warnings);
        if (!model)
            return std::nullopt;
        s.model = *model;
        s.source = {core::ModelSource::Kind::ConfigFile, "", options.value("config"), 0};
    } else if (options.has("params")) {
        const auto count = core::parseCount(options.value("params"));
        if (!count) {
            error = "--params: '" + options.value("params") + "' is not a parameter count (e.g. 7e9, 7B, 0.5b, 1.2T)";
            return std::nullopt;
        }
        if (*count == 0 || *count > core::ScenarioLimits::maxParameters) {
            error = "--params: '" + options.value("params") + "' is outside 1 to "
                + core::groupDigits(core::ScenarioLimits::maxParameters) + " (100T) parameters";
            return std::nullopt;
        }
        s.model = core::modelFromParameterCount(*count);
        s.source = {core::ModelSource::Kind::ParameterCount, "", "", *count};
    }

    if (options.has("calibration")) {
        // First, so that explicit --cuda-overhead-mib / --reserve-percent win.
        const auto text = readFile(options.value("calibration"), core::io::kMaxInputBytes, error);
        const auto profile = text ? core::io::loadCalibration(*text) : core::io::LoadResult<core::CalibrationProfile>{};
        if (!profile.ok()) {
            error = "--calibration: " + (text ? core::io::inFile(options.value("calibration"), profile.errors.front()) : error);
            return std::nullopt;
        }
        s = core::withCalibration(s, *profile.value);
    }

    using L = core::ScenarioLimits;
    Applier a(options, error);
    a.choice("mode", core::parseMode, s.mode, "inference, train, lora, qlora");
    a.choice("weights", core::parseFormat, s.weights, formatIds(false));
    a.integer("group-size", s.groupSize, 1, L::maxGroupSize);
    if (options.has("quantize-embeddings"))
        s.quantizeEmbeddings = true;
    a.choice("regime", core::parseRegime, s.regime, "fp32, amp, mixed, deepspeed, bf16-pure");
    a.choice("optimizer", core::parseOptimizer, s.optimizer, optimizerIds());
    a.choice("optimizer-impl", core::parseOptimizerImpl, s.optimizerImpl, "auto, foreach, fused, loop");
    a.integer("batch", s.batch, 1, L::maxBatch);
    a.integer("seq", s.sequence, 1, L::maxSequence);
    a.integer("grad-accum", s.gradAccum, 1, L::maxGradAccum);
    a.choice("checkpointing", core::parseCheckpointing, s.checkpointing, "none, selective, full");
    a.choice("stack", core::parseStack, s.stack, "hf, torchtune, litgpt");
    a.choice("bnb", core::parseBitsandbytesVersion, s.bitsandbytes, "current, legacy");
    a.choice("attention", core::parseAttention, s.attention, "eager, sdpa, flash");
    a.integer("lora-rank", s.lora.rank, 1, L::maxLoraRank);
    a.number("lora-alpha", s.lora.alpha, 1e-6, 1e9);
    a.choice("lora-targets", parseTargets, s.lora.targets, "all, attention, or a comma list of q,k,v,o,gate,up,down");
    if (options.has("lora-dropout")) {
        double dropout = 0;
        a.number("lora-dropout", dropout, 0, L::maxLoraDropout);
        s.lora.dropout = dropout;
    }
    const auto kvFormat = [](const std::string &t) {
        const auto f = core::parseFormat(t);
        return f && core::formatInfo(*f).usableForKvCache ? f : std::nullopt;
    };
    a.choice("kv-dtype", kvFormat, s.kvDtype, formatIds(true));
    a.choice("logits", core::parseLogits, s.logits, "fp32, fp32-shift, native, chunked, fused, last");
    a.number("gpu-memory-utilization", s.gpuMemoryUtilization, 0.01, 1.0);
    a.choice("serving-engine", core::parseServingEngine, s.serving, "hf, vllm");
    a.integer("max-num-batched-tokens", s.maxBatchedTokens, 1, L::maxSequence);
    a.integer("max-num-seqs", s.maxNumSeqs, 1, L::maxBatch);
    a.integer("gpus", s.gpus, 1, static_cast<std::uint64_t>(L::maxGpus));
    a.integer("zero", s.zeroStage, 0, 3);
    a.integer("tp", s.parallel.tp, 1, L::maxTp);
    a.integer("pp", s.parallel.pp, 1, L::maxPp);
    a.integer("ep", s.parallel.ep, 1, L::maxEp);
    a.integer("interleave", s.parallel.interleave, 1, L::maxInterleave);
    if (options.has("sp"))
        s.parallel.sequenceParallel = true;
    if (options.has("hybrid-shard"))
        s.parallel.hybridShard = true;
    a.choice("offload", core::parseOffload, s.parallel.offload, "none, optimizer, params");
    a.integer("gpus-per-node", s.parallel.gpusPerNode, 1, L::maxGpusPerNode);
    if (options.has("nodes")) {
        int nodes = 1;
        a.integer("nodes", nodes, 1, static_cast<std::uint64_t>(L::maxGpus));
        if (options.has("gpus") && s.gpus != nodes * s.parallel.gpusPerNode)
            a.fail("nodes", "nodes x gpus-per-node (" + std::to_string(nodes * s.parallel.gpusPerNode)
                                + ") disagrees with --gpus " + std::to_string(s.gpus));
        s.gpus = nodes * s.parallel.gpusPerNode;
    }
    if (options.has("tokens")) {
        const auto tokens = core::parseCount(options.value("tokens"));
        if (!tokens || static_cast<double>(*tokens) > 1e16)
            a.fail("tokens", "'" + options.value("tokens") + "' is not a token count (e.g. 1e9, 300B)");
        else
            s.workload.trainingTokens = static_cast<double>(*tokens);
    }
    a.number("mfu", s.workload.mfu, 0.001, 1.0);
    a.number("price-per-gpu-hour", s.workload.pricePerGpuHour, 0, 1e6);
    a.number("inter-node-gbps", s.workload.interNodeGBps, 0.001, 1e5);
    if (options.has("gpu")) {
        if (!catalog.find(options.value("gpu")))
            a.fail("gpu", "'" + options.value("gpu") + "' is not a catalog GPU (see 'vramplanner-cli gpus')");
        s.gpuId = options.value("gpu");
    }
    if (options.has("cuda-overhead-mib")) {
        double mib = 0;
        a.number("cuda-overhead-mib", mib, 0, L::maxCudaOverheadMib);
        s.cudaOverheadMib = mib;
    }
    a.choice("cuda-loading", core::parseCudaLoading, s.cudaLoading, "lazy, eager");
    a.number("reserve-percent", s.reservePercent, 0, 99.9);
    if (!a.ok())
        return std::nullopt;
    const auto problems = core::validateScenario(s);
    if (!problems.empty()) {
        error = problems.front();
        return std::nullopt;
    }
    return s;
}

} // namespace cli
