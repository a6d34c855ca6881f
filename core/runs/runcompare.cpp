#include "core/runs/runcompare.h"

#include "core/analysis/fit.h"
#include "core/memory/llamacpp.h"
#include "core/memory/sglangpool.h"
#include "core/memory/trtllmpool.h"
#include "core/scenario/servingruntime.h"
#include "core/runs/gpumatch.h"
#include "core/runs/logtext.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace core {

namespace rl = runlog;

namespace {

bool isHostBuffer(const std::string &name)
{
    // CPU, CPU_Mapped, CPU_REPACK, CUDA_Host ...; AMX is the CPU backend's
    // buffer for AMX-packed weights (ggml-cpu/amx/amx.cpp).
    return name.find("CPU") != std::string::npos || name.find("Host") != std::string::npos || name == "AMX";
}

/// llama.cpp's backend names end in the device index: "CUDA1", "ROCm0", "Vulkan2".
int deviceIndex(const std::string &name)
{
    std::size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
        --digits;
    // A device index has a few digits; anything longer is not one.
    return digits == name.size() || name.size() - digits > 6 ? 0 : std::stoi(name.substr(digits));
}

/// ggml type names (ggml.c type_traits .type_name) as the planner's KV formats.
std::optional<std::string> kvFormatOf(const std::string &ggmlType)
{
    const std::pair<const char *, const char *> types[] = {
        {"f32", "fp32"}, {"f16", "fp16"}, {"bf16", "bf16"}, {"q8_0", "gguf-q8_0"}, {"q4_0", "gguf-q4_0"}};
    for (const auto &[ggml, format] : types)
        if (ggmlType == ggml)
            return std::string(format);
    return std::nullopt;
}

class SettingWriter
{
public:
    SettingWriter(RunScenario &run, const std::set<FieldId> &userFields) : m_run(run), m_user(userFields) {}

    void set(FieldId id, const std::string &value, std::size_t line)
    {
        const bool user = m_user.count(id) != 0;
        auto entry = std::find_if(m_run.settings.begin(), m_run.settings.end(),
                                  [id](const LogSetting &s) { return s.field == id; });
        if (entry == m_run.settings.end())
            entry = m_run.settings.insert(m_run.settings.end(), LogSetting{id, value, line, false});
        *entry = {id, value, line, !user && apply(id, value, line)};
    }

private:
    bool apply(FieldId id, const std::string &value, std::size_t line)
    {
        const FieldDescriptor &f = field(id);
        std::optional<Message> problem;
        const auto parsed = parseFieldValue(f, value, problem);
        if (!parsed) {
            m_run.notes.push_back("line " + std::to_string(line) + ": the log's " + f.key + " '" + value
                                  + "' is not taken: " + render(*problem));
            return false;
        }
        f.assign(m_run.scenario, *parsed);
        return true;
    }

    RunScenario &m_run;
    const std::set<FieldId> &m_user;
};

std::string count(std::uint64_t n) { return std::to_string(n); }

void llamaCppSettings(const rl::LogSettings &ls, const rl::RunLog &log, SettingWriter &w, RunScenario &run)
{
    w.set(FieldId::Mode, "inference", 0);
    w.set(FieldId::ServingEngine, "llamacpp", 0);
    // llama_context: n_ctx_seq = n_ctx / n_seq_max (one stream per sequence)
    // unless kv_unified, where every sequence shares n_ctx cells.
    const bool unified = ls.kvUnified && ls.kvUnified->value;
    if (ls.sequences && !unified)
        w.set(FieldId::Batch, count(ls.sequences->value), ls.sequences->line);
    else if (unified)
        w.set(FieldId::Batch, "1", ls.kvUnified->line);
    if (ls.contextPerSequence && !unified)
        w.set(FieldId::Sequence, count(ls.contextPerSequence->value), ls.contextPerSequence->line);
    else if (ls.contextSize)
        w.set(FieldId::Sequence,
              count(ls.contextSize->value / (ls.sequences && !unified ? std::max<std::uint64_t>(1, ls.sequences->value) : 1)),
              ls.contextSize->line);
    if (ls.ubatch)
        w.set(FieldId::Ubatch, count(ls.ubatch->value), ls.ubatch->line);
    if (ls.flashAttention)
        w.set(FieldId::Attention, ls.flashAttention->value ? "flash" : "eager", ls.flashAttention->line);
    if (ls.kType && ls.vType) {
        const auto k = kvFormatOf(ls.kType->value);
        const auto v = kvFormatOf(ls.vType->value);
        if (!k || !v)
            run.notes.push_back("line " + std::to_string(ls.kType->line) + ": the KV type "
                                + (k ? ls.vType->value : ls.kType->value) + " is not one the planner models");
        else {
            w.set(FieldId::KvDtype, *k, ls.kType->line);
            if (*v != *k)
                w.set(FieldId::KvDtypeV, *v, ls.vType->line);
        }
    }
    if (ls.offloadedLayers)
        w.set(FieldId::GpuLayers, count(ls.offloadedLayers->value), ls.offloadedLayers->line);
    // --fit's dense-only GPU layers as --n-cpu-moe, which counts from layer
    // 0: the layers left on the CPU keep their experts there too (-ngl N
    // holds the output layer and N - 1 layers).
    if (ls.fitDenseOnlyLayers) {
        const std::uint64_t layers = run.scenario.model.layers;
        const std::uint64_t ngl = ls.offloadedLayers ? ls.offloadedLayers->value : layers + 1;
        const std::uint64_t onCpu = layers + 1 - std::min(std::max<std::uint64_t>(ngl, 1), layers + 1);
        w.set(FieldId::CpuMoeLayers, count(std::min(layers, onCpu + ls.fitDenseOnlyLayers->value)),
              ls.fitDenseOnlyLayers->line);
    }
    std::set<int> gpus;
    std::size_t line = 0;
    for (const rl::Reading *r : log.find(rl::Quantity::LlamaModelBuffer))
        if (!isHostBuffer(r->device)) {
            gpus.insert(deviceIndex(r->device));
            line = line ? line : r->line;
        }
    // ollama's projection lists one allocation per GPU it plans on, --fit
    // one projection per device.
    const auto allocations = log.find(rl::Quantity::OllamaAllocation);
    if (gpus.empty() && !allocations.empty())
        w.set(FieldId::Gpus, count(allocations.size()), allocations.front()->line);
    std::set<std::string> fitDevices;
    std::size_t fitLine = 0;
    for (const rl::Reading *r : log.find(rl::Quantity::LlamaFitProjected))
        if (!r->device.empty() && fitDevices.insert(r->device).second)
            fitLine = fitLine ? fitLine : r->line;
    if (gpus.empty() && allocations.empty() && !fitDevices.empty())
        w.set(FieldId::Gpus, count(fitDevices.size()), fitLine);
    if (!gpus.empty())
        w.set(FieldId::Gpus, count(gpus.size()), line);
    // --fit's own split over several GPUs (the last placement line of each):
    // -ts, and -ngl where the log states no offload of its own.
    std::map<int, std::pair<std::uint64_t, std::size_t>> fitLayers;
    for (const rl::Reading *r : log.find(rl::Quantity::LlamaFitLayers))
        fitLayers[deviceIndex(r->device)] = {static_cast<std::uint64_t>(r->number), r->line};
    if (fitLayers.size() > 1 && fitLayers.rbegin()->first == static_cast<int>(fitLayers.size()) - 1) {
        std::string split;
        std::uint64_t units = 0;
        for (const auto &[device, placed] : fitLayers) {
            split += (split.empty() ? "" : ",") + count(placed.first);
            units += placed.first;
        }
        const std::size_t at = fitLayers.begin()->second.second;
        w.set(FieldId::Gpus, count(fitLayers.size()), at);
        if (units > 0)
            w.set(FieldId::TensorSplit, split, at);
        if (!ls.offloadedLayers)
            w.set(FieldId::GpuLayers, count(units), at);
    }
    // A CPU build prints neither "offloaded N/M layers" nor a device's
    // model buffer: every layer ran on the host.
    const auto modelBuffers = log.find(rl::Quantity::LlamaModelBuffer);
    if (!ls.offloadedLayers && gpus.empty() && !modelBuffers.empty())
        w.set(FieldId::GpuLayers, "0", modelBuffers.front()->line);
    // An AMX buffer is the AMX build's (ggml-cpu/amx/amx.cpp); CPU_REPACK
    // alone is AVX2's or Arm's, which the planner's default covers.
    for (const rl::Reading *r : modelBuffers)
        if (r->device == "AMX")
            w.set(FieldId::CpuBuild, cpuBuildId(CpuBuild::Amx), r->line);
}

void vllmSettings(const rl::LogSettings &ls, const rl::RunLog &log, SettingWriter &w)
{
    w.set(FieldId::Mode, "inference", 0);
    w.set(FieldId::ServingEngine, "vllm", 0);
    if (ls.gpuMemoryUtilization)
        w.set(FieldId::GpuMemoryUtilization, formatFixed(ls.gpuMemoryUtilization->value, 2), ls.gpuMemoryUtilization->line);
    if (ls.maxModelLen)
        w.set(FieldId::Sequence, count(ls.maxModelLen->value), ls.maxModelLen->line);
    if (ls.maxNumTokens)
        w.set(FieldId::MaxBatchedTokens, count(ls.maxNumTokens->value), ls.maxNumTokens->line);
    if (ls.maxNumRequests)
        w.set(FieldId::MaxNumSeqs, count(ls.maxNumRequests->value), ls.maxNumRequests->line);
    // The release it prints sets the defaults it had (its share: 0.9 before 0.21).
    if (ls.engineVersion)
        w.set(FieldId::EngineVersion, ls.engineVersion->value, ls.engineVersion->line);
    // Its CUDA-graph estimate, measured on the device: the largest of its
    // workers', as the pool is the smallest worker's.
    const auto estimates = log.find(rl::Quantity::VllmCudaGraphEstimate);
    const auto largest = std::max_element(estimates.begin(), estimates.end(),
                                          [](const rl::Reading *a, const rl::Reading *b) { return a->bytes < b->bytes; });
    if (largest != estimates.end())
        w.set(FieldId::CudaGraphMemory,
              formatFixed(static_cast<double>((*largest)->bytes.count()) / (1024.0 * 1024.0 * 1024.0), 2), (*largest)->line);
    // The engine's config names its degrees; without it, each worker
    // prints its own profile, taken as tensor-parallel.
    if (ls.tensorParallel || ls.pipelineParallel) {
        const std::uint64_t tp = ls.tensorParallel ? ls.tensorParallel->value : 1;
        const std::uint64_t pp = ls.pipelineParallel ? ls.pipelineParallel->value : 1;
        const std::size_t line = std::max(ls.tensorParallel ? ls.tensorParallel->line : 0,
                                          ls.pipelineParallel ? ls.pipelineParallel->line : 0);
        w.set(FieldId::Gpus, count(tp * pp), line);
        if (ls.tensorParallel)
            w.set(FieldId::Tp, count(tp), ls.tensorParallel->line);
        if (ls.pipelineParallel)
            w.set(FieldId::Pp, count(pp), ls.pipelineParallel->line);
        return;
    }
    std::set<std::string> workers;
    std::size_t line = 0;
    for (const rl::Reading *r : log.find(rl::Quantity::VllmWeights)) {
        workers.insert(r->device);
        line = std::max(line, r->line);
    }
    if (workers.size() > 1) {
        w.set(FieldId::Gpus, count(workers.size()), line);
        w.set(FieldId::Tp, count(workers.size()), line);
    }
}

void sglangSettings(const rl::LogSettings &ls, const rl::RunLog &log, SettingWriter &w)
{
    w.set(FieldId::Mode, "inference", 0);
    w.set(FieldId::ServingEngine, "sglang", 0);
    if (ls.memFractionStatic)
        w.set(FieldId::MemFractionStatic, formatFixed(ls.memFractionStatic->value, 3), ls.memFractionStatic->line);
    // The server_args dump names tp_size; without it every rank prints its
    // own weight-load line.
    if (ls.tensorParallel) {
        w.set(FieldId::Gpus, count(ls.tensorParallel->value), ls.tensorParallel->line);
        w.set(FieldId::Tp, count(ls.tensorParallel->value), ls.tensorParallel->line);
    } else if (const auto loads = log.find(rl::Quantity::SglangWeightLoad); loads.size() > 1) {
        w.set(FieldId::Gpus, count(loads.size()), loads.back()->line);
        w.set(FieldId::Tp, count(loads.size()), loads.back()->line);
    }
}

void trtllmSettings(const rl::LogSettings &ls, SettingWriter &w)
{
    w.set(FieldId::Mode, "inference", 0);
    w.set(FieldId::ServingEngine, "trtllm", 0);
    // The fraction crosses into C++ as a float: 0.8999999761581421.
    if (ls.freeGpuMemoryFraction)
        w.set(FieldId::FreeGpuMemoryFraction, formatFixed(ls.freeGpuMemoryFraction->value, 3),
              ls.freeGpuMemoryFraction->line);
    if (ls.maxNumTokens)
        w.set(FieldId::MaxBatchedTokens, count(ls.maxNumTokens->value), ls.maxNumTokens->line);
    if (ls.maxNumRequests)
        w.set(FieldId::MaxNumSeqs, count(ls.maxNumRequests->value), ls.maxNumRequests->line);
    // The release it prints sets its rules (a release candidate as its release).
    if (const std::string release = ls.engineVersion ? rl::releaseNumber(ls.engineVersion->value) : std::string();
        !release.empty())
        w.set(FieldId::EngineVersion, release, ls.engineVersion->line);
}

void gpuSetting(const rl::RunLog &log, const Catalog &catalog, SettingWriter &w, RunScenario &run)
{
    for (const rl::LogDevice &d : log.settings.devices) {
        if (d.total && !run.gpuMemory)
            run.gpuMemory = d.total;
        if (d.name.empty())
            continue;
        const std::vector<std::string> ids = rl::matchCatalogGpu(d.name, d.total, catalog);
        if (ids.size() == 1) {
            w.set(FieldId::Gpu, ids.front(), d.line);
        } else {
            std::string list;
            for (const std::string &id : ids)
                list += (list.empty() ? "" : ", ") + id;
            run.notes.push_back("line " + std::to_string(d.line) + ": the GPU '" + d.name + "' "
                                + (ids.empty() ? "is not in the catalog" : "could be " + list) + "; give --gpu ID");
        }
        return;
    }
}

/// Sums (KV buffers: llama.cpp allocates one per cache, two for
/// sliding-window models) or keeps the last of repeated readings per device.
std::map<std::string, rl::Reading> byDevice(const rl::RunLog &log, rl::Quantity q, bool sum)
{
    std::map<std::string, rl::Reading> out;
    for (const rl::Reading *r : log.find(q)) {
        auto [it, fresh] = out.emplace(r->device, *r);
        if (!fresh && sum) {
            it->second.bytes += r->bytes;
            it->second.uncertainty += r->uncertainty;
        } else if (!fresh) {
            it->second = *r;
        }
    }
    return out;
}

ComparisonRow row(const rl::Reading &r, std::optional<Bytes> planned, std::string term, std::string device = {})
{
    const rl::QuantityInfo &info = rl::quantityInfo(r.quantity);
    ComparisonRow c;
    c.quantity = info.id;
    c.label = info.label;
    c.device = device.empty() ? r.device : device;
    c.measured = r.bytes;
    c.uncertainty = r.uncertainty;
    c.planned = planned;
    c.term = std::move(term);
    c.line = r.line;
    if (!r.detail.empty())
        c.label += " (" + r.detail + ")";
    return c;
}

const Estimate &stageFor(const std::vector<Estimate> &stages, int device)
{
    for (const Estimate &e : stages)
        if (e.details.device == device)
            return e;
    return stages.front();
}

/// A row of a count (tokens, bytes per token): the printed number beside
/// the planned one, where there is a plan.
ComparisonRow countRow(const rl::Reading &r, std::optional<double> planned, std::string term)
{
    ComparisonRow c = row(r, std::nullopt, std::move(term));
    c.isCount = true;
    c.measuredNumber = r.number;
    if (planned) {
        c.plannedNumber = *planned;
        c.planned = Bytes();
    }
    return c;
}

Bytes terms(const Estimate &e, std::initializer_list<TermId> ids)
{
    Bytes sum;
    for (TermId id : ids)
        sum += e.term(id);
    return sum;
}

void compareLlamaCpp(const Scenario &s, const rl::RunLog &log, RunComparison &out)
{
    const std::vector<Estimate> stages = estimateStages(s);
    const Estimate &first = stages.front();
    const LlamaCppHost &host = first.details.llamaCppHost;
    struct Kind
    {
        rl::Quantity quantity;
        bool sum;
        std::initializer_list<TermId> gpuTerms;
        const char *gpuTerm;
        double LlamaCppHost::*hostPart;
        const char *hostTerm;
    };
    const Kind kinds[] = {
        {rl::Quantity::LlamaModelBuffer, false, {TermId::Weights}, "weights", &LlamaCppHost::weights, "host: weights"},
        {rl::Quantity::LlamaKvBuffer, true, {TermId::KvCache}, "kv_cache", &LlamaCppHost::kvCache, "host: kv_cache"},
        {rl::Quantity::LlamaComputeBuffer, false, {TermId::Workspace, TermId::Logits}, "workspace + logits",
         &LlamaCppHost::compute, "host: compute buffer"},
        {rl::Quantity::LlamaOutputBuffer, false, {}, "", &LlamaCppHost::output, "host: output buffer"},
    };
    for (const Kind &k : kinds) {
        std::optional<rl::Reading> hostSum;
        std::string hostNames;
        for (const auto &[name, r] : byDevice(log, k.quantity, k.sum)) {
            if (isHostBuffer(name)) {
                hostNames += (hostNames.empty() ? "" : "+") + name;
                if (!hostSum)
                    hostSum = r;
                else {
                    hostSum->bytes += r.bytes;
                    hostSum->uncertainty += r.uncertainty;
                }
                continue;
            }
            const int device = deviceIndex(name);
            if (device >= s.gpus || k.gpuTerm[0] == '\0') {
                out.rows.push_back(row(r, std::nullopt, "-"));
                continue;
            }
            out.rows.push_back(row(r, terms(stageFor(stages, device), k.gpuTerms), k.gpuTerm));
        }
        if (hostSum)
            out.rows.push_back(row(*hostSum, Bytes::fromDouble(host.*k.hostPart), k.hostTerm, hostNames));
    }
    // --fit's projection: model, context and compute on every device, the
    // CUDA context aside (llama.cpp measures free memory after it).
    // A device's own projection (several devices) beside that GPU's plan.
    const auto withoutContext = [&stages](int device) {
        const Estimate &e = stageFor(stages, device);
        return e.total - e.term(TermId::CudaOverhead);
    };
    // fit.cpp prints a device's share after step 3 and again after step 4:
    // the last one is the layout it runs.
    std::map<std::string, const rl::Reading *> placed;
    for (const rl::Reading *r : log.find(rl::Quantity::LlamaFitPlaced))
        placed[r->device] = r;
    for (const auto &[name, r] : placed) {
        const int device = deviceIndex(name);
        out.rows.push_back(device < s.gpus ? row(*r, withoutContext(device), "total - cuda_overhead")
                                           : row(*r, std::nullopt, "-"));
    }
    for (const rl::Reading *r : log.find(rl::Quantity::LlamaFitProjected)) {
        if (!r->device.empty()) {
            const int device = deviceIndex(r->device);
            out.rows.push_back(device < s.gpus ? row(*r, withoutContext(device), "total - cuda_overhead")
                                               : row(*r, std::nullopt, "-"));
            continue;
        }
        Bytes planned;
        for (int d = 0; d < s.gpus; ++d)
            planned += withoutContext(d);
        out.rows.push_back(row(*r, planned, "total - cuda_overhead, every GPU"));
    }
    if (stages.size() < static_cast<std::size_t>(s.gpus))
        out.notes.push_back("an equal split plans its first and last GPU; the GPUs between are planned as the first");
}

/// ollama's projection (llm/memory.go) against the plan: its whole-model
/// weights, KV cache and compute graph, and what it means to put on each
/// GPU. ollama estimates these itself before llama.cpp loads; the rows
/// show how far its estimate and the planner's agree.
void compareOllama(const Scenario &s, const rl::RunLog &log, RunComparison &out)
{
    const std::vector<Estimate> stages = estimateStages(s);
    const Estimate &first = stages.front();
    const LlamaCppLayout layout = llamaCppLayout(s);
    const double kv = llamaCppKvCache(s, layout, s.model.layers).value;
    for (const rl::Reading *r : log.find(rl::Quantity::OllamaWeights))
        out.rows.push_back(row(*r, Bytes::fromDouble(first.details.weightBytesTotal), "weights (whole model)"));
    for (const rl::Reading *r : log.find(rl::Quantity::OllamaKv))
        out.rows.push_back(row(*r, Bytes::fromDouble(kv), "kv_cache (every layer)"));
    for (const rl::Quantity q : {rl::Quantity::OllamaGraph, rl::Quantity::OllamaGraphPartial})
        for (const rl::Reading *r : log.find(q))
            out.rows.push_back(row(*r, terms(first, {TermId::Workspace, TermId::Logits}), "workspace + logits"));
    // The partial figure is what the layers it offloads need on all its GPUs.
    Bytes onGpus;
    for (int d = 0; d < s.gpus; ++d)
        onGpus += stageFor(stages, d).total;
    for (const rl::Reading *r : log.find(rl::Quantity::OllamaRequiredPartial))
        out.rows.push_back(row(*r, onGpus, "total, every GPU"));
    for (const rl::Reading *r : log.find(rl::Quantity::OllamaAllocation)) {
        const int device = deviceIndex(r->device);
        out.rows.push_back(device < s.gpus ? row(*r, stageFor(stages, device).total, "total", r->device)
                                           : row(*r, std::nullopt, "-", r->device));
    }
    for (const rl::Quantity q : {rl::Quantity::OllamaRequiredFull, rl::Quantity::OllamaAvailable})
        for (const rl::Reading *r : log.find(q))
            out.rows.push_back(row(*r, std::nullopt, "-", r->device));
}

/// vLLM's KV pool as the planner sizes it (core/analysis/fit.cpp kvTokenBudget) on
/// the run's GPU memory where the log states it, else the catalog GPU's.
std::optional<GpuFit> vllmPool(const RunScenario &run, const Catalog &catalog, std::string &capacityNote)
{
    const GpuSpec *gpu = catalog.find(run.scenario.gpuId);
    Catalog one;
    GpuSpec spec = gpu ? *gpu : GpuSpec{};
    if (run.gpuMemory) {
        spec.id = "run-log-gpu";
        spec.usableMemory = *run.gpuMemory;
        spec.memory = *run.gpuMemory;
        spec.nvidiaSmiTotal.reset(); // the card's own figure no longer applies
        capacityNote = "the KV pool is planned on the log's total_gpu_memory";
    } else if (!gpu) {
        capacityNote = "no GPU memory in the log and no --gpu: the KV pool is not planned";
        return std::nullopt;
    }
    one.gpus.push_back(spec);
    const EstimateWithFits fits = estimateWithFits(run.scenario, one, {spec.id});
    if (fits.fits.empty())
        return std::nullopt;
    return fits.fits.front();
}

void compareVllm(const RunScenario &run, const rl::RunLog &log, const Catalog &catalog, RunComparison &out)
{
    const Scenario &s = run.scenario;
    const Estimate e = estimate(s);
    std::string capacityNote;
    const std::optional<GpuFit> pool = vllmPool(run, catalog, capacityNote);
    if (!capacityNote.empty())
        out.notes.push_back(capacityNote);
    const GpuSpec *gpu = catalog.find(s.gpuId);
    // What vLLM may use: the card's memory times gpu_memory_utilization
    // (vllm/worker/worker.py: memory_for_current_instance).
    std::optional<Bytes> instance;
    if (run.gpuMemory)
        instance = run.gpuMemory->scaled(s.effectiveGpuMemoryUtilization());
    else if (gpu)
        instance = gpu->capacity().scaled(s.effectiveGpuMemoryUtilization());
    const std::optional<Bytes> poolBytes =
        pool ? std::optional(Bytes::fromDouble(static_cast<double>(pool->kvTokens) * e.details.kvBytesPerToken)) : std::nullopt;
    const ProfiledNonTorch nonTorch = profiledNonTorch(s, e);
    for (const rl::Reading &r : log.readings) {
        switch (r.quantity) {
        case rl::Quantity::VllmTotalGpuMemory:
            out.rows.push_back(row(r, gpu ? std::optional(gpu->capacity()) : std::nullopt, "capacity"));
            break;
        case rl::Quantity::VllmInstanceMemory:
            out.rows.push_back(row(r, instance, "capacity x gpu_memory_utilization"));
            break;
        case rl::Quantity::VllmWeights:
            out.rows.push_back(row(r, e.term(TermId::Weights), "weights"));
            break;
        case rl::Quantity::VllmNonTorch:
            out.rows.push_back(row(r, nonTorch.bytes, nonTorch.terms));
            break;
        case rl::Quantity::VllmConsumed:
            out.rows.push_back(row(r, e.term(TermId::Weights) + nonTorch.bytes, "weights + " + std::string(nonTorch.terms)));
            break;
        case rl::Quantity::VllmCudaGraphMemory:
            // The planner does not size CUDA graphs (they follow the
            // kernels each card runs); --cuda-graph-memory is the user's.
            out.rows.push_back(row(r, s.cudaGraphMemoryGib ? std::optional(Bytes::gib(*s.cudaGraphMemoryGib)) : std::nullopt,
                                   field(FieldId::CudaGraphMemory).key));
            break;
        case rl::Quantity::VllmActivationPeak:
            out.rows.push_back(row(r, terms(e, {TermId::Workspace, TermId::Logits}), "workspace + logits"));
            break;
        case rl::Quantity::VllmTorchPeak:
            out.rows.push_back(row(r, terms(e, {TermId::Weights, TermId::Workspace, TermId::Logits}),
                                   "weights + workspace + logits"));
            break;
        case rl::Quantity::VllmKvCacheMemory:
            out.rows.push_back(row(r, poolBytes, "kv_cache pool"));
            break;
        case rl::Quantity::VllmKvCacheTokens:
        case rl::Quantity::VllmKvCacheBlocks:
        case rl::Quantity::VllmMaxConcurrency: {
            // V0's blocks hold CacheConfig's default block_size of 16 tokens.
            constexpr double kV0BlockTokens = 16;
            const bool tokens = r.quantity == rl::Quantity::VllmKvCacheTokens;
            const bool blocks = r.quantity == rl::Quantity::VllmKvCacheBlocks;
            std::optional<double> planned;
            if (pool) {
                const auto budget = static_cast<double>(pool->kvTokens);
                planned = tokens ? budget
                    : blocks     ? std::floor(budget / kV0BlockTokens)
                                 : budget / static_cast<double>(std::max<std::uint64_t>(1, s.sequence));
            }
            out.rows.push_back(countRow(r, planned, tokens ? "kv_cache tokens"
                                                    : blocks ? "kv_cache tokens / 16"
                                                             : "kv_cache tokens / sequence"));
            break;
        }
        default:
            break;
        }
    }
}

void compareAllocator(const Scenario &s, const rl::RunLog &log, const Catalog &catalog, RunComparison &out)
{
    const Estimate e = estimate(s);
    const Bytes tensors = tensorTerms(e);
    const Bytes held = e.total - e.term(TermId::CudaOverhead) - e.term(TermId::CommBuffers);
    const char *const kTensorTerms = "total - cuda_overhead - allocator_reserve - comm_buffers";
    for (const rl::Reading *r : log.find(rl::Quantity::TorchAllocatedPeak))
        out.rows.push_back(row(*r, tensors, kTensorTerms));
    for (const rl::Reading *r : log.find(rl::Quantity::TorchReservedPeak))
        out.rows.push_back(row(*r, held, "total - cuda_overhead - comm_buffers"));

    // The Trainer reports deltas; init's allocation plus train's and train's
    // peak above its end is train's peak over what was there before init
    // (TrainerMemoryTracker: "peaked" = peak - end of the stage).
    std::map<std::string, const rl::Reading *> alloc;
    std::map<std::string, const rl::Reading *> peaked;
    for (const rl::Reading *r : log.find(rl::Quantity::HfAllocDelta))
        alloc[r->detail] = r;
    for (const rl::Reading *r : log.find(rl::Quantity::HfPeakedDelta))
        peaked[r->detail] = r;
    if (alloc.count("init") && alloc.count("train") && peaked.count("train")) {
        ComparisonRow c = row(*peaked["train"], tensors, kTensorTerms);
        c.quantity = "hf.train_peak";
        c.label = "train peak (init + train alloc + train peaked)";
        c.measured = alloc["init"]->bytes + alloc["train"]->bytes + peaked["train"]->bytes;
        c.uncertainty = alloc["init"]->uncertainty + alloc["train"]->uncertainty + peaked["train"]->uncertainty;
        out.rows.push_back(c);
    }

    // torch's out-of-memory error: what was allocated plus what it tried
    // to allocate is a floor of the tensors the step needed, against the
    // plan's; the process's memory in use is nvidia-smi's figure.
    for (const rl::Reading *r : log.find(rl::Quantity::TorchOomRequested))
        for (const rl::Reading *allocated : log.find(rl::Quantity::TorchOomAllocated))
            if (allocated->device == r->device && allocated->line == r->line) {
                ComparisonRow c = row(*r, tensors, kTensorTerms);
                c.quantity = "torch_oom.needed_at_least";
                c.label = "out of memory: allocated + tried to allocate (at least)";
                c.measured = allocated->bytes + r->bytes;
                c.uncertainty = allocated->uncertainty + r->uncertainty;
                out.rows.push_back(c);
            }
    for (const rl::Reading *r : log.find(rl::Quantity::TorchOomProcessMemory))
        if (r->detail == "this process")
            out.rows.push_back(row(*r, e.total, "total"));
    const GpuSpec *gpu = catalog.find(s.gpuId);
    for (const rl::Reading *r : log.find(rl::Quantity::TorchOomCapacity))
        out.rows.push_back(row(*r, gpu ? std::optional(gpu->capacity()) : std::nullopt, "capacity"));

    // nvidia-smi sees everything the process holds: the whole estimate.
    const auto processes = byDevice(log, rl::Quantity::SmiProcessMemory, true);
    for (const auto &[device, r] : processes)
        out.rows.push_back(row(r, e.total, "total", device));
    if (processes.empty())
        for (const auto &[device, r] : byDevice(log, rl::Quantity::SmiMemoryUsed, false))
            out.rows.push_back(row(r, e.total, "total"));
    for (const auto &[device, r] : byDevice(log, rl::Quantity::SmiMemoryTotal, false))
        out.rows.push_back(row(r, gpu ? std::optional(gpu->capacity()) : std::nullopt, "capacity"));
}

} // namespace

double ComparisonRow::difference() const
{
    if (!planned)
        return 0;
    if (isCount)
        return plannedNumber - measuredNumber;
    const double d = static_cast<double>(planned->count()) - static_cast<double>(measured.count());
    return std::max(-4.6e18, std::min(4.6e18, d));
}

std::optional<double> ComparisonRow::errorPercent() const
{
    const double m = isCount ? measuredNumber : static_cast<double>(measured.count());
    if (!planned || m == 0)
        return std::nullopt;
    return 100.0 * difference() / m;
}

/// The smallest of a quantity over the ranks, as SGLang takes it
/// (get_available_gpu_memory(distributed=True): an all-reduce with MIN).
std::optional<Bytes> smallest(const rl::RunLog &log, rl::Quantity quantity)
{
    std::optional<Bytes> least;
    for (const rl::Reading *r : log.find(quantity))
        if (!least || r->bytes < *least)
            least = r->bytes;
    return least;
}

/// SGLang's pool, planned: on the free memory the log measured before the
/// weights loaded where it prints it (or the weights' load plus what was
/// free after), less the planned weights; else on the catalog GPU.
void compareSglang(const RunScenario &run, const rl::RunLog &log, const Catalog &catalog, RunComparison &out)
{
    const Scenario &s = run.scenario;
    const Estimate e = estimate(s);
    std::optional<double> poolBytes;
    std::optional<Bytes> freeBefore = smallest(log, rl::Quantity::SglangFreeBeforeLoad);
    if (!freeBefore) {
        const auto after = smallest(log, rl::Quantity::SglangFreeAfterLoad);
        const auto load = smallest(log, rl::Quantity::SglangWeightLoad);
        if (after && load)
            freeBefore = *after + *load;
    }
    const GpuSpec *gpu = catalog.find(s.gpuId);
    if (!gpu && !log.find(rl::Quantity::SglangDistInit).empty())
        out.notes.push_back("no --gpu: the communicators are planned over NVLink, as on the default GPU (an H100 SXM)");
    if (freeBefore) {
        if (!s.memFractionStatic)
            out.notes.push_back("the log prints no mem_fraction_static: SGLang 0.5.15's rule for the card is assumed");
        // Without a catalog GPU, the card the log measured, its vendor unknown.
        GpuSpec measured;
        measured.memory = *freeBefore;
        const double fraction = sglangMemFraction(s, gpu ? *gpu : measured);
        const double before = static_cast<double>(freeBefore->count());
        poolBytes = sglangPoolBytes(before, before - static_cast<double>(e.term(TermId::Weights).count()), fraction);
        out.notes.push_back("the KV pool is planned on the free memory the log measured before the weights loaded");
    } else if (gpu) {
        Catalog one;
        one.gpus.push_back(*gpu);
        const EstimateWithFits fits = estimateWithFits(s, one, {gpu->id});
        if (!fits.fits.empty())
            poolBytes = static_cast<double>(fits.fits.front().kvTokens) * e.details.kvBytesPerToken;
    } else {
        out.notes.push_back("no free memory in the log and no --gpu: the KV pool is not planned");
    }
    const std::optional<std::uint64_t> tokens =
        poolBytes ? std::optional(sglangPoolTokens(*poolBytes, e.details.kvBytesPerToken)) : std::nullopt;
    for (const rl::Reading &r : log.readings) {
        switch (r.quantity) {
        case rl::Quantity::SglangWeightLoad:
            out.rows.push_back(row(r, e.term(TermId::Weights), "weights"));
            break;
        case rl::Quantity::SglangDistInit:
            out.rows.push_back(row(r, e.term(TermId::CommBuffers), "comm_buffers"));
            break;
        case rl::Quantity::SglangKvCache:
            out.rows.push_back(row(
                r, tokens ? std::optional(Bytes::fromDouble(static_cast<double>(*tokens) * e.details.kvBytesPerToken))
                          : std::nullopt,
                "kv_cache pool"));
            break;
        case rl::Quantity::SglangKvTokens:
            out.rows.push_back(
                countRow(r, tokens ? std::optional(static_cast<double>(*tokens)) : std::nullopt, "kv_cache tokens"));
            break;
        case rl::Quantity::SglangFreeBeforeLoad:
        case rl::Quantity::SglangFreeAfterLoad:
        case rl::Quantity::SglangFreeAfterPool:
            out.rows.push_back(row(r, std::nullopt, "-"));
            break;
        default:
            break;
        }
    }
}

/// The last reading of a quantity: TensorRT-LLM prints its profile's pool,
/// then the final one.
const rl::Reading *lastOf(const rl::RunLog &log, rl::Quantity quantity)
{
    const auto found = log.find(quantity);
    return found.empty() ? nullptr : found.back();
}

/// TensorRT-LLM's pool, planned: where the log prints its profile, on the
/// device total, what was held outside torch and the temporary pool it
/// measured, with the planned weights and activations; a TensorRT engine's
/// log on the free memory it printed; else on the catalog GPU.
void compareTrtllm(const RunScenario &run, const rl::RunLog &log, const Catalog &catalog, RunComparison &out)
{
    const Scenario &s = run.scenario;
    const Estimate e = estimate(s);
    const double fraction = s.effectiveFreeGpuMemoryFraction();
    const double tokenBytes = e.details.kvBytesPerToken;
    const rl::Reading *total = lastOf(log, rl::Quantity::TrtllmDeviceTotal);
    const rl::Reading *outside = lastOf(log, rl::Quantity::TrtllmOutsideTorch);
    const rl::Reading *profilePool = lastOf(log, rl::Quantity::TrtllmProfilePool);
    const rl::Reading *engineFree = lastOf(log, rl::Quantity::TrtllmEngineFree);
    const double torchPeak = static_cast<double>(terms(e, {TermId::Weights, TermId::Workspace, TermId::Logits}).count());
    std::optional<double> poolBytes;
    if (total && outside && profilePool) {
        poolBytes = trtllmPoolBytes(static_cast<double>(total->bytes.count()),
                                    torchPeak + static_cast<double>(outside->bytes.count()),
                                    static_cast<double>(profilePool->bytes.count()), fraction);
        out.notes.push_back("the KV pool is planned on the device total, the memory outside torch and the profile's "
                            "pool the log measured, with the planned weights and activations");
    } else if (engineFree) {
        poolBytes = static_cast<double>(engineFree->bytes.count()) * fraction;
        out.notes.push_back("a TensorRT engine's log: the KV pool is planned on the free memory it printed");
    } else if (const GpuSpec *gpu = catalog.find(s.gpuId)) {
        poolBytes = static_cast<double>(kvTokenBudget(s, e, *gpu)) * tokenBytes;
    } else {
        out.notes.push_back("no profile in the log and no --gpu: the KV pool is not planned");
    }
    const std::uint64_t blockTokens = runtimeBehaviour(s.serving).poolBlockTokens;
    // What the pool holds, planned: its tokens and their bytes.
    std::optional<double> tokens;
    std::optional<Bytes> pool;
    if (poolBytes) {
        const std::uint64_t n = trtllmPoolTokens(*poolBytes, tokenBytes, blockTokens, poolRoundsUp(s));
        tokens = static_cast<double>(n);
        pool = Bytes::fromDouble(static_cast<double>(n) * tokenBytes);
    }
    const rl::Reading *lastPool = lastOf(log, rl::Quantity::TrtllmKvPool);
    const rl::Reading *lastTokens = lastOf(log, rl::Quantity::TrtllmKvTokens);
    for (const rl::Reading &r : log.readings) {
        switch (r.quantity) {
        case rl::Quantity::TrtllmWeights:
            out.rows.push_back(row(r, e.term(TermId::Weights), "weights"));
            break;
        case rl::Quantity::TrtllmActivations:
            out.rows.push_back(row(r, e.term(TermId::Workspace), "workspace"));
            break;
        case rl::Quantity::TrtllmOutsideTorch:
            out.rows.push_back(row(r, terms(e, {TermId::CudaOverhead, TermId::CommBuffers}),
                                   "cuda_overhead + comm_buffers (CUDA graphs not planned)"));
            break;
        case rl::Quantity::TrtllmKvBudget:
            out.rows.push_back(row(r, poolBytes ? std::optional(Bytes::fromDouble(*poolBytes)) : std::nullopt,
                                   "kv_cache budget"));
            break;
        case rl::Quantity::TrtllmKvPool:
            // The profile's own small pool comes first; the last is the pool.
            out.rows.push_back(row(r, &r == lastPool ? pool : std::nullopt, &r == lastPool ? "kv_cache pool" : "-"));
            break;
        case rl::Quantity::TrtllmKvTokens:
            out.rows.push_back(
                countRow(r, &r == lastTokens ? tokens : std::nullopt, &r == lastTokens ? "kv_cache tokens" : "-"));
            break;
        case rl::Quantity::TrtllmKvBytesPerToken:
            out.rows.push_back(countRow(r, tokenBytes, "kv_cache bytes per token"));
            break;
        case rl::Quantity::TrtllmPeak:
        case rl::Quantity::TrtllmDeviceTotal:
        case rl::Quantity::TrtllmProfilePool:
        case rl::Quantity::TrtllmEngineFree:
            out.rows.push_back(row(r, std::nullopt, "-"));
            break;
        default:
            break;
        }
    }
}

RunScenario scenarioFromLog(Scenario base, const rl::RunLog &log, const Catalog &catalog,
                            const std::set<FieldId> &userFields)
{
    RunScenario run;
    run.scenario = std::move(base);
    SettingWriter writer(run, userFields);
    if (log.has(rl::LogFormat::LlamaCpp) || log.has(rl::LogFormat::Ollama))
        llamaCppSettings(log.settings, log, writer, run);
    else if (log.has(rl::LogFormat::Vllm))
        vllmSettings(log.settings, log, writer);
    else if (log.has(rl::LogFormat::Sglang))
        sglangSettings(log.settings, log, writer);
    else if (log.has(rl::LogFormat::Trtllm))
        trtllmSettings(log.settings, writer);
    gpuSetting(log, catalog, writer, run);
    for (const rl::Reading *r : log.find(rl::Quantity::VllmTotalGpuMemory))
        run.gpuMemory = r->bytes;
    // A mixed set of another size is not the run's: its GPUs are the log's.
    Scenario &s = run.scenario;
    if (!s.devices.empty() && s.devices.size() != static_cast<std::size_t>(s.gpus)) {
        run.notes.push_back("the log's GPU count (" + std::to_string(s.gpus) + ") replaces the scenario's mixed set of "
                            + std::to_string(s.devices.size()));
        s.devices.clear();
    }
    // The engine's defaults that follow the card read the run's: the
    // catalog GPU, else the memory the log measured.
    if (const GpuSpec *gpu = catalog.find(s.gpuId)) {
        s = onServingCard(s, *gpu);
    } else if (run.gpuMemory) {
        GpuSpec measured;
        measured.memory = *run.gpuMemory;
        s = onServingCard(s, measured);
    }
    // Settings with no line (the engine the format implies) are worth a
    // row only where the user's choice differs from them.
    run.settings.erase(std::remove_if(run.settings.begin(), run.settings.end(),
                                      [&s](const LogSetting &setting) {
                                          const FieldDescriptor &f = field(setting.field);
                                          return setting.line == 0
                                              && (setting.applied || formatFieldValue(f, f.stored(s)) == setting.value);
                                      }),
                       run.settings.end());
    return run;
}

RunComparison compareRun(const RunScenario &run, const rl::RunLog &log, const Catalog &catalog)
{
    RunComparison out;
    out.scenario = run.scenario;
    out.settings = run.settings;
    out.notes = run.notes;
    if (log.has(rl::LogFormat::LlamaCpp))
        compareLlamaCpp(run.scenario, log, out);
    if (log.has(rl::LogFormat::Ollama))
        compareOllama(run.scenario, log, out);
    if (log.has(rl::LogFormat::Vllm))
        compareVllm(run, log, catalog, out);
    if (log.has(rl::LogFormat::Sglang))
        compareSglang(run, log, catalog, out);
    if (log.has(rl::LogFormat::Trtllm))
        compareTrtllm(run, log, catalog, out);
    compareAllocator(run.scenario, log, catalog, out);
    // A scenario the engine rejects plans nothing: say why beside the rows.
    const std::vector<std::string> errors = validateScenario(run.scenario);
    for (const std::string &error : errors)
        out.notes.push_back("the plan is not valid: " + error);
    if (!errors.empty())
        for (ComparisonRow &row : out.rows)
            row.planned.reset();
    return out;
}

Measurement measurementFromLog(const rl::RunLog &log)
{
    Measurement m;
    const auto last = [&log](rl::Quantity q) -> const rl::Reading * {
        const auto found = log.find(q);
        return found.empty() ? nullptr : found.back();
    };
    if (const rl::Reading *r = last(rl::Quantity::TorchAllocatedPeak))
        m.allocated = r->bytes;
    else if (const rl::Reading *peak = last(rl::Quantity::VllmTorchPeak))
        m.allocated = peak->bytes;
    else if (const rl::Reading *weights = last(rl::Quantity::VllmWeights),
             *activation = last(rl::Quantity::VllmActivationPeak);
             weights && activation)
        // vllm/utils memory_profiling: torch_peak_increase is
        // memory_stats()["allocated_bytes.all.peak"] over the profile run.
        m.allocated = weights->bytes + activation->bytes;
    if (const rl::Reading *r = last(rl::Quantity::TorchReservedPeak))
        m.reserved = r->bytes;
    const auto processes = log.find(rl::Quantity::SmiProcessMemory);
    if (!processes.empty()) {
        Bytes sum;
        for (const rl::Reading *r : processes)
            if (r->device == processes.front()->device)
                sum += r->bytes;
        m.nvidiaSmi = sum;
    } else if (const auto used = log.find(rl::Quantity::SmiMemoryUsed); !used.empty()) {
        m.nvidiaSmi = used.front()->bytes;
    }
    if (!m.allocated) {
        std::map<std::string, Bytes> alloc;
        std::optional<Bytes> trainPeak;
        for (const rl::Reading *r : log.find(rl::Quantity::HfAllocDelta))
            alloc[r->detail] = r->bytes;
        for (const rl::Reading *r : log.find(rl::Quantity::HfPeakedDelta))
            if (r->detail == "train")
                trainPeak = r->bytes;
        if (alloc.count("init") && alloc.count("train") && trainPeak)
            m.allocated = alloc["init"] + alloc["train"] + *trainPeak;
    }
    return m;
}

} // namespace core
