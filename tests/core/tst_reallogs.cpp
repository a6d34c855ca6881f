// Logs users pasted in public threads (tests/data/logs/, each with its
// source in SOURCES.md), read back to every figure they print. The
// expected values are the printed numbers, copied here from the log text
// by hand; a figure the reader skips or misreads fails its row.

#include "core/io/builtin.h"
#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"
#include "tests/support/datalog.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>

using core::runlog::Quantity;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = kMiB * 1024.0;



/// The readings of `q` on `device`, in bytes.
std::vector<std::uint64_t> readings(const core::runlog::RunLog &log, Quantity q, const std::string &device)
{
    std::vector<std::uint64_t> found;
    for (const auto *r : log.find(q))
        if (r->device == device)
            found.push_back(r->bytes.count());
    return found;
}

/// A printed figure's bytes, as the reader rounds them.
std::uint64_t bytesOf(double printed, double unit) { return static_cast<std::uint64_t>(std::llround(printed * unit)); }

struct Figure
{
    Quantity quantity;
    const char *device;
    double printed;
    double unit;
};

void expectFigures(const char *name, std::initializer_list<Figure> figures)
{
    const core::runlog::RunLog log = testsupport::readDataLog(name);
    for (const Figure &f : figures) {
        const auto found = readings(log, f.quantity, f.device);
        const std::string what = std::string(name) + ": " + f.device + " " + std::to_string(f.printed);
        QVERIFY2(std::find(found.begin(), found.end(), bytesOf(f.printed, f.unit)) != found.end(), what.c_str());
    }
}

int gpusOf(const core::runlog::RunLog &log)
{
    core::Scenario base;
    base.model = core::io::findPreset("llama-2-7b")->model;
    return core::scenarioFromLog(base, log, core::io::builtinCatalog(), {}).scenario.gpus;
}

} // namespace

class TestRealLogs : public QObject
{
    Q_OBJECT

private slots:
    void llamaCpp2024ModelBuffersAndTwoGpus();
    void llamaCppCpuOnly();
    void vllmTabbedProfilingBlock();
    void vllmOneLineProfileOfEachWorker();
    void ollamaProjectionAndRunner();
    void llamaCppMemoryBreakdown();
    void recurrentStateAndUnknownBuffers();
    void vllmV0ProfilesOfEachRelease();
    void vllm019DefaultsAndGraphEstimate();
    void vllm2026SummaryLine();
    void vllmParallelismFromItsConfig();
    void llamaCppBuffersBehindEveryPrefix();
    void fitProjections();
    void nvidiaSmiTables();
    void torchSummariesAndTrainerMetrics();
    void torchOutOfMemoryMessages();
};

void TestRealLogs::llamaCpp2024ModelBuffersAndTwoGpus()
{
    // llm_load_tensors printed "CPU buffer size" without "model" until mid-2024.
    expectFigures("llamacpp-2024-03-2gpu-pr6122.log",
                  {{Quantity::LlamaModelBuffer, "CPU", 1640.62, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 5434.38, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA1", 13989.53, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 1536.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA1", 3584.00, kMiB},
                   {Quantity::LlamaOutputBuffer, "CUDA_Host", 1.95, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 672.01, kMiB}});
    QCOMPARE(gpusOf(testsupport::readDataLog("llamacpp-2024-03-2gpu-pr6122.log")), 2);
    // ggml_init_cublas: found 2 CUDA devices, then the model buffers.
    expectFigures("llamacpp-2024-04-2gpu-cublas-kv-oom-xinference1202.log",
                  {{Quantity::LlamaModelBuffer, "CUDA_Host", 510.47, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 16854.41, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA1", 16892.66, kMiB}});
    QCOMPARE(gpusOf(testsupport::readDataLog("llamacpp-2024-04-2gpu-cublas-kv-oom-xinference1202.log")), 2);
    expectFigures("llamacpp-2024-06-2gpu-partial-offload-pr8035.log",
                  {{Quantity::LlamaModelBuffer, "CPU", 22994.45, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 12633.25, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA1", 8652.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA_Host", 64.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 1472.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA1", 1024.00, kMiB},
                   {Quantity::LlamaOutputBuffer, "CUDA_Host", 0.98, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 1108.50, kMiB}});
    expectFigures("llamacpp-2024-1gpu-llamafile-pr552.log",
                  {{Quantity::LlamaModelBuffer, "CPU", 297.00, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 7317.71, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 180.00, kMiB},
                   {Quantity::LlamaOutputBuffer, "CUDA_Host", 0.19, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 105.00, kMiB}});
    QCOMPARE(gpusOf(testsupport::readDataLog("llamacpp-2024-1gpu-llamafile-pr552.log")), 1);
}

void TestRealLogs::llamaCppCpuOnly()
{
    // A CPU build: no "offloaded N/M layers", no device buffer.
    for (const char *name : {"llamacpp-2025-09-cpu-only-issue15946.log", "llamacpp-2024-01-all-on-cpu-0-layers-issue5137.log"}) {
        const core::runlog::RunLog log = testsupport::readDataLog(name);
        core::Scenario base;
        base.model = core::io::findPreset("llama-2-7b")->model;
        const core::RunScenario run = core::scenarioFromLog(base, log, core::io::builtinCatalog(), {});
        QVERIFY2(run.scenario.gpuLayers && *run.scenario.gpuLayers == 0, name);
    }
    expectFigures("llamacpp-2025-09-cpu-only-issue15946.log",
                  {{Quantity::LlamaModelBuffer, "CPU_Mapped", 14526.27, kMiB},
                   {Quantity::LlamaOutputBuffer, "CPU", 0.58, kMiB},
                   {Quantity::LlamaKvBuffer, "CPU", 7000.00, kMiB},
                   {Quantity::LlamaComputeBuffer, "CPU", 403.02, kMiB}});
    expectFigures("llamacpp-2024-01-all-on-cpu-0-layers-issue5137.log",
                  {{Quantity::LlamaModelBuffer, "CPU", 11712.97, kMiB},
                   {Quantity::LlamaKvBuffer, "CPU", 64.00, kMiB},
                   {Quantity::LlamaComputeBuffer, "CPU", 114.53, kMiB}});
}

void TestRealLogs::vllmTabbedProfilingBlock()
{
    // vLLM 0.6.5-0.7: one "label<tab>value" a line, each with its prefix.
    const char *name = "vllm-v0-2024-12-memprof-multiline-pr10511.log";
    expectFigures(name, {{Quantity::VllmTotalGpuMemory, "", 79.22, kGiB},
                         {Quantity::VllmInstanceMemory, "", 71.29, kGiB},
                         {Quantity::VllmWeights, "", 14.96, kGiB},
                         {Quantity::VllmNonTorch, "", 1.79, kGiB},
                         {Quantity::VllmActivationPeak, "", 1.26, kGiB},
                         {Quantity::VllmKvCacheMemory, "", 53.29, kGiB}});
    const auto read = core::runlog::readRunLog(testsupport::dataLogText(name));
    QVERIFY(read.ok());
    QCOMPARE(read.value->settings.gpuMemoryUtilization->value, 0.90);
    // Every line of the block read: no warning.
    QVERIFY2(read.warnings.empty(), read.warnings.empty() ? "" : read.warnings.front().c_str());
}

void TestRealLogs::vllmOneLineProfileOfEachWorker()
{
    // Two tensor-parallel workers, each printing its own profile.
    const char *name = "vllm-v0-2025-04-tp2-l40s-issue15815.log";
    expectFigures(name, {{Quantity::VllmWeights, "pid=3280379", 30.7098, kGiB},
                         {Quantity::VllmWeights, "pid=3280379", 30.71, kGiB},
                         {Quantity::VllmKvCacheMemory, "pid=3280379", 7.71, kGiB},
                         {Quantity::VllmKvCacheMemory, "", 7.71, kGiB},
                         {Quantity::VllmInstanceMemory, "", 39.98, kGiB}});
    QCOMPARE(gpusOf(testsupport::readDataLog(name)), 2);
    QCOMPARE(testsupport::readDataLog(name).find(Quantity::VllmKvCacheBlocks).front()->number, 3947.0); // "# CUDA blocks: 3947"
}

void TestRealLogs::ollamaProjectionAndRunner()
{
    // ollama 2024: msg="offload to cuda" with its projection, then the
    // runner's command line (--ctx-size 8192 for --parallel 4).
    const char *name = "ollama-2024-12-offload-to-cuda-issue8098.log";
    expectFigures(name, {{Quantity::OllamaRequiredFull, "", 3.7, kGiB},
                         {Quantity::OllamaKv, "", 896.0, kMiB},
                         {Quantity::OllamaWeights, "", 2.4, kGiB},
                         {Quantity::OllamaGraph, "", 424.0, kMiB},
                         {Quantity::OllamaRequiredPartial, "", 3.7, kGiB},
                         {Quantity::OllamaWeightsRepeating, "", 2.1, kGiB},
                         {Quantity::OllamaWeightsNonRepeating, "", 308.2, kMiB},
                         {Quantity::OllamaGraphPartial, "", 570.7, kMiB},
                         {Quantity::OllamaAllocation, "GPU0", 3.7, kGiB},
                         {Quantity::OllamaAvailable, "GPU0", 78.6, kGiB}});
    core::Scenario base;
    base.model = core::io::findPreset("llama-2-7b")->model;
    core::RunScenario run = core::scenarioFromLog(base, testsupport::readDataLog(name), core::io::builtinCatalog(), {});
    QCOMPARE(run.scenario.serving, core::ServingEngine::LlamaCpp);
    QCOMPARE(*run.scenario.gpuLayers, 29ull);
    QCOMPARE(run.scenario.batch, 4ull);        // --parallel 4
    QCOMPARE(run.scenario.sequence, 2048ull);  // --ctx-size 8192 over 4 sequences
    QCOMPARE(run.scenario.gpus, 1);

    // ollama 2025 (msg=offload library=cuda): four GPUs, 44 of 81 layers.
    name = "ollama-2025-02-4gpu-offload-issue9181.log";
    expectFigures(name, {{Quantity::OllamaRequiredFull, "", 127.4, kGiB},
                         {Quantity::OllamaKv, "", 19.5, kGiB},
                         {Quantity::OllamaWeights, "", 87.3, kGiB},
                         {Quantity::OllamaGraph, "", 8.2, kGiB},
                         {Quantity::OllamaRequiredPartial, "", 87.1, kGiB},
                         {Quantity::OllamaWeightsRepeating, "", 86.2, kGiB},
                         {Quantity::OllamaWeightsNonRepeating, "", 1.0, kGiB},
                         {Quantity::OllamaGraphPartial, "", 8.2, kGiB},
                         {Quantity::OllamaAllocation, "GPU3", 21.8, kGiB},
                         {Quantity::OllamaAvailable, "GPU2", 22.0, kGiB}});
    run = core::scenarioFromLog(base, testsupport::readDataLog(name), core::io::builtinCatalog(), {});
    QCOMPARE(run.scenario.gpus, 4);
    QCOMPARE(*run.scenario.gpuLayers, 44ull);
    // compare gives every projected figure a row beside the plan.
    const core::RunComparison c = core::compareRun(run, testsupport::readDataLog(name), core::io::builtinCatalog());
    int ollamaRows = 0;
    for (const core::ComparisonRow &r : c.rows)
        ollamaRows += r.quantity.rfind("ollama.", 0) == 0 ? 1 : 0;
    // weights, KV, graph full and partial, required partial, 4 allocations,
    // required full, 4 available (repeating and non-repeating weights are
    // read, not compared).
    QCOMPARE(ollamaRows, 1 + 1 + 2 + 1 + 4 + 1 + 4);
}

void TestRealLogs::llamaCppMemoryBreakdown()
{
    // llama.cpp 2026 prints a memory breakdown table (whole MiB) for each
    // --fit dry run: the last one read stands for each device. The first
    // table here: | - CUDA0 (RTX 5090) | 32111 = 31605 + (18058 = 16386 + 1024 + 648) + -17552 |
    const char *name = "llamacpp-2026-07-fit-no-ctx-rtx5090-pr25465.log";
    const core::runlog::RunLog log = testsupport::readDataLog(name);
    // | - CUDA0 (RTX 5090) | 32111 = 31153 + (33975 = 16386 + 16832 + 756) + -33017 |
    QCOMPARE(readings(log, Quantity::LlamaKvBuffer, "CUDA0").back(), bytesOf(16832, kMiB));
    QCOMPARE(readings(log, Quantity::LlamaComputeBuffer, "CUDA0").back(), bytesOf(756, kMiB));
    QCOMPARE(readings(log, Quantity::LlamaModelBuffer, "CUDA0").back(), bytesOf(16386, kMiB));
    QCOMPARE(readings(log, Quantity::LlamaDeviceFree, "CUDA0").back(), bytesOf(31153, kMiB));
    // | - Host | 1234 = 682 + 0 + 552 |
    QCOMPARE(readings(log, Quantity::LlamaModelBuffer, "Host").back(), bytesOf(682, kMiB));
    QCOMPARE(readings(log, Quantity::LlamaComputeBuffer, "Host").back(), bytesOf(552, kMiB));
    QCOMPARE(log.settings.devices.size(), std::size_t(1));
    QCOMPARE(*log.settings.devices.front().total, core::Bytes::mib(32111));
    QCOMPARE(gpusOf(log), 1);
    // A laptop GPU, two tables; the second stands:
    // | - CUDA0 (RTX 2000 Ada Generation Laptop GPU) | 7807 = 7627 + (24770 = 21654 + 2622 + 493) + -24590 |
    // | - Host | 779 = 515 + 0 + 264 |
    expectFigures("llamacpp-2026-fit-moe-overflow-1gpu-pr22673.log",
                  {{Quantity::LlamaModelBuffer, "CUDA0", 21654, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 2622, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 493, kMiB},
                   {Quantity::LlamaModelBuffer, "Host", 515, kMiB},
                   {Quantity::LlamaComputeBuffer, "Host", 264, kMiB}});
    QCOMPARE(readings(testsupport::readDataLog("llamacpp-2026-fit-moe-overflow-1gpu-pr22673.log"), Quantity::LlamaModelBuffer, "CUDA0").size(),
             std::size_t(1));
    const auto read = core::runlog::readRunLog(testsupport::dataLogText("llamacpp-2026-fit-moe-overflow-1gpu-pr22673.log"));
    QVERIFY2(read.warnings.empty(), read.warnings.empty() ? "" : read.warnings.front().c_str());
}

void TestRealLogs::recurrentStateAndUnknownBuffers()
{
    // A hybrid model: "CUDA0 KV buffer size = 8192.00 MiB" and
    // llama_memory_recurrent's "CUDA0 RS buffer size = 50.25 MiB", both
    // what the planner's KV term holds.
    const core::runlog::RunLog hybrid = testsupport::readDataLog("llamacpp-2026-hybrid-kv-rs-1gpu-pr22546.log");
    const auto kv = readings(hybrid, Quantity::LlamaKvBuffer, "CUDA0");
    QVERIFY(std::find(kv.begin(), kv.end(), bytesOf(8192.00, kMiB)) != kv.end());
    QVERIFY(std::find(kv.begin(), kv.end(), bytesOf(50.25, kMiB)) != kv.end());
    // 2024's separate "CPU input buffer size = 9.01 MiB" is named once, at its line.
    const auto read = core::runlog::readRunLog(testsupport::dataLogText("llamacpp-2024-01-all-on-cpu-0-layers-issue5137.log"));
    QVERIFY(read.ok());
    QCOMPARE(read.warnings.size(), std::size_t(1));
    QVERIFY2(read.warnings.front().find("line 20") != std::string::npos
                 && read.warnings.front().find("'input buffer'") != std::string::npos,
             read.warnings.front().c_str());
}

void TestRealLogs::vllmV0ProfilesOfEachRelease()
{
    // vLLM 0.7-0.8's one-line profile and the concurrency line.
    expectFigures("vllm-v0-2025-03-tp-issue15039.log", {{Quantity::VllmWeights, "", 32.95, kGiB},
                                                        {Quantity::VllmNonTorch, "", 0.28, kGiB},
                                                        {Quantity::VllmActivationPeak, "", 1.30, kGiB},
                                                        {Quantity::VllmKvCacheMemory, "", 36.07, kGiB}});
    core::runlog::RunLog log = testsupport::readDataLog("vllm-v0-2025-03-tp-issue15039.log");
    QCOMPARE(log.settings.maxModelLen->value, 131072ull);
    QCOMPARE(log.find(Quantity::VllmKvCacheBlocks).front()->number, 29547.0); // "# cuda blocks: 29547"
    QCOMPARE(log.find(Quantity::VllmMaxConcurrency).front()->number, 3.61);
    expectFigures("vllm-v0-1gpu-h100-mellea-pr416.log", {{Quantity::VllmWeights, "", 1.12, kGiB},
                                                         {Quantity::VllmNonTorch, "", 0.16, kGiB},
                                                         {Quantity::VllmActivationPeak, "", 0.23, kGiB},
                                                         {Quantity::VllmKvCacheMemory, "", 61.84, kGiB}});
    log = testsupport::readDataLog("vllm-v0-1gpu-h100-mellea-pr416.log");
    QCOMPARE(log.settings.maxModelLen->value, 8192ull);
    QCOMPARE(log.find(Quantity::VllmKvCacheBlocks).front()->number, 36184.0);
    QCOMPARE(log.find(Quantity::VllmMaxConcurrency).front()->number, 70.67);
    // Two tensor-parallel workers, each with its own profile.
    for (const char *worker : {"pid=507", "pid=577"})
        expectFigures("vllm-v0-2025-04-tp-workers-3090-pr14447.log", {{Quantity::VllmTotalGpuMemory, worker, 23.58, kGiB},
                                                                      {Quantity::VllmInstanceMemory, worker, 23.35, kGiB},
                                                                      {Quantity::VllmWeights, worker, 21.21, kGiB},
                                                                      {Quantity::VllmNonTorch, worker, 0.20, kGiB},
                                                                      {Quantity::VllmActivationPeak, worker, 0.37, kGiB},
                                                                      {Quantity::VllmKvCacheMemory, worker, 1.57, kGiB}});
    QCOMPARE(testsupport::readDataLog("vllm-v0-2025-04-tp-workers-3090-pr14447.log").settings.gpuMemoryUtilization->value, 0.99);
    // vLLM 0.6.4's one-line "Memory profiling results: duration=..., ..." of each worker.
    expectFigures("vllm-v0-2024-12-memprof-oneline-tp2-pr10909.log",
                  {{Quantity::VllmWeights, "", 18.4902, kGiB},
                   {Quantity::VllmWeights, "pid=1587462", 18.4902, kGiB},
                   {Quantity::VllmTotalGpuMemory, "pid=1587462", 79.15, kGiB},
                   {Quantity::VllmTorchPeak, "pid=1587462", 34.32, kGiB},
                   {Quantity::VllmTorchPeak, "", 34.50, kGiB},
                   {Quantity::VllmNonTorch, "", 1.96, kGiB},
                   {Quantity::VllmKvCacheMemory, "pid=1587462", 34.96, kGiB},
                   {Quantity::VllmKvCacheMemory, "", 34.78, kGiB}});
    log = testsupport::readDataLog("vllm-v0-2024-12-memprof-oneline-tp2-pr10909.log");
    QCOMPARE(log.settings.maxModelLen->value, 1024ull);
    QCOMPARE(log.find(Quantity::VllmKvCacheBlocks).front()->number, 189945.0); // "# GPU blocks: 189945"
    QCOMPARE(log.find(Quantity::VllmMaxConcurrency).front()->number, 2967.89);
}

void TestRealLogs::vllm019DefaultsAndGraphEstimate()
{
    // vLLM 0.19.0 on an H100 with its own batch defaults: every figure it
    // prints, and the settings it states.
    const char *name = "vllm-2026-04-v019-h100-llama31-8b-defaults-llmdplanner.log";
    expectFigures(name, {{Quantity::VllmWeights, "pid=242", 14.99, kGiB},
                         {Quantity::VllmCudaGraphEstimate, "pid=242", 0.84, kGiB},
                         {Quantity::VllmActivationPeak, "pid=242", 1.89, kGiB},
                         {Quantity::VllmKvCacheMemory, "pid=242", 58.11, kGiB}});
    const core::runlog::RunLog log = testsupport::readDataLog(name);
    QCOMPARE(log.find(Quantity::VllmKvCacheTokens).front()->number, 476016.0);
    QCOMPARE(log.settings.gpuMemoryUtilization->value, 0.95);
    QCOMPARE(log.settings.maxModelLen->value, 8192ull);
    QCOMPARE(log.settings.maxNumRequests->value, 1024ull);
    QCOMPARE(log.settings.maxNumTokens->value, 8192ull);
    QCOMPARE(log.settings.engineVersion->value, std::string("0.19.0"));
    // Compared: 0.19 measured its CUDA graphs but left them in the pool, so
    // the plan takes nothing for them; the pool is planned within 1 %.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.gpuId = "h100-sxm5-80gb";
    const core::RunScenario run = core::scenarioFromLog(s, log, core::io::builtinCatalog(), {});
    QCOMPARE(*run.scenario.cudaGraphMemoryGib, 0.84);
    QCOMPARE(run.scenario.effectiveMaxNumSeqs(), 1024ull);
    const core::RunComparison c = core::compareRun(run, log, core::io::builtinCatalog());
    bool compared = false;
    for (const core::ComparisonRow &r : c.rows)
        if (r.term == "kv_cache tokens") {
            compared = true;
            QVERIFY2(std::abs(*r.errorPercent()) <= 1.0, qPrintable(QString::number(*r.errorPercent())));
        }
    QVERIFY(compared);
}

void TestRealLogs::vllm2026SummaryLine()
{
    // vLLM 0.27.1 (Model Runner V2) on an RTX 4090: its release only in the
    // banner, and gpu_worker.py's summary after the CUDA graphs, the line
    // people paste from 2026's releases.
    const char *name = "vllm-2026-08-v0271-mrv2-rtx4090-qwen3-8b-coldstart-recon.log";
    expectFigures(name, {{Quantity::VllmWeights, "pid=894", 15.27, kGiB},
                         {Quantity::VllmKvCacheMemory, "pid=894", 5.91, kGiB},
                         {Quantity::VllmTotalGpuMemory, "pid=894", 23.52, kGiB},
                         {Quantity::VllmInstanceMemory, "pid=894", 21.64, kGiB},
                         {Quantity::VllmConsumed, "pid=894", 15.54, kGiB},
                         {Quantity::VllmActivationPeak, "pid=894", 0.19, kGiB},
                         {Quantity::VllmCudaGraphMemory, "pid=894", 0.56, kGiB}});
    const core::runlog::RunLog log = testsupport::readDataLog(name);
    QCOMPARE(log.settings.engineVersion->value, std::string("0.27.1"));
    QCOMPARE(log.settings.gpuMemoryUtilization->value, 0.92);
    QCOMPARE(log.find(Quantity::VllmKvCacheTokens).front()->number, 43040.0);
    // The summary repeats "Model loading took" and "Available KV cache
    // memory": each is read once.
    QCOMPARE(log.find(Quantity::VllmWeights).size(), std::size_t(1));
    QCOMPARE(log.find(Quantity::VllmKvCacheMemory).size(), std::size_t(1));
    // Model Runner V2 before 0.29 leaves its CUDA graphs in the pool: the
    // requested memory less what was consumed and the activation peak is
    // the pool, by the figures read (21.64 - 15.54 - 0.19 = 5.91), within
    // the prints' rounding; less the graphs too it would be 5.35.
    const auto gib = [&log](Quantity q) { return log.find(q).front()->bytes.inGiB(); };
    QVERIFY(std::abs(gib(Quantity::VllmInstanceMemory) - gib(Quantity::VllmConsumed) - gib(Quantity::VllmActivationPeak)
                     - gib(Quantity::VllmKvCacheMemory))
            <= 0.02);
    // Planned on the card the log measured, the pool is within 1 % of
    // its 43,040 tokens.
    core::Scenario s;
    s.model = core::io::findPreset("qwen3-8b")->model;
    const core::RunScenario run = core::scenarioFromLog(s, log, core::io::builtinCatalog(), {});
    const core::RunComparison c = core::compareRun(run, log, core::io::builtinCatalog());
    const auto tokens = std::find_if(c.rows.begin(), c.rows.end(),
                                     [](const core::ComparisonRow &r) { return r.term == "kv_cache tokens"; });
    QVERIFY(tokens != c.rows.end());
    QVERIFY2(std::abs(*tokens->errorPercent()) <= 1.0, qPrintable(QString::number(*tokens->errorPercent())));

    // vLLM 0.19's earlier form of the summary (DEBUG there): "14.99 GiB for
    // weight, 1.89 GiB for peak activation, 0.25 GiB for non-torch memory",
    // and its "CUDA graph pool memory: 0.91 GiB (actual), 0.84 GiB
    // (estimated)" check.
    const char *v019 = "vllm-2026-04-v019-h100-llama31-8b-defaults-llmdplanner.log";
    expectFigures(v019, {{Quantity::VllmNonTorch, "pid=242", 0.25, kGiB},
                         {Quantity::VllmCudaGraphMemory, "pid=242", 0.91, kGiB},
                         {Quantity::VllmTotalGpuMemory, "pid=242", 79.19, kGiB},
                         {Quantity::VllmInstanceMemory, "pid=242", 75.23, kGiB}});
    const core::runlog::RunLog older = testsupport::readDataLog(v019);
    QCOMPARE(older.find(Quantity::VllmWeights).size(), std::size_t(1));
    QCOMPARE(older.find(Quantity::VllmCudaGraphEstimate).size(), std::size_t(1));

    // Pasted with the summary broken over lines, the continuation lines
    // (no worker prefix) are the summary's worker's: the same figures, no
    // second device, one GPU.
    std::string text = testsupport::dataLogText(name);
    for (const char *at : {" 0.19 GiB for peak activation", " Current kv cache memory"})
        text.replace(text.find(at), 1, "\n");
    const auto broken = core::runlog::readRunLog(text);
    QVERIFY(broken.ok());
    for (const core::runlog::Reading &r : broken.value->readings)
        QCOMPARE(r.device, std::string("pid=894"));
    QCOMPARE(broken.value->find(Quantity::VllmActivationPeak).size(), std::size_t(1));
    QCOMPARE(core::scenarioFromLog(s, *broken.value, core::io::builtinCatalog(), {}).scenario.gpus, 1);
    // A figure printed negative is refused with its line named, not read
    // as positive.
    std::string negative = testsupport::dataLogText(name);
    negative.replace(negative.find("0.56 GiB for CUDAGraph"), 0, "-");
    const auto signedRead = core::runlog::readRunLog(negative);
    QVERIFY(signedRead.ok());
    QVERIFY(signedRead.value->find(Quantity::VllmCudaGraphMemory).empty());
    QVERIFY(std::any_of(signedRead.warnings.begin(), signedRead.warnings.end(),
                        [](const std::string &w) { return w.find("line 27") != std::string::npos; }));
}

void TestRealLogs::vllmParallelismFromItsConfig()
{
    // llm-d-planner's vLLM 0.19.0 runs of Llama 3.1 8B on H100s: two
    // workers each, one at TP 2 and one at PP 2. The engine's config line
    // ("tensor_parallel_size=1, pipeline_parallel_size=2") says which; the
    // workers alone would read as TP 2.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    const auto parallelism = [&s](const char *name) {
        const core::Scenario run =
            core::scenarioFromLog(s, testsupport::readDataLog(name), core::io::builtinCatalog(), {}).scenario;
        return std::array<int, 3>{run.gpus, run.parallel.tp, run.parallel.pp};
    };
    QCOMPARE(parallelism("vllm-2026-04-v019-h100-pp2-llama31-8b-llmdplanner.log"), (std::array<int, 3>{2, 1, 2}));
    QCOMPARE(parallelism("vllm-2026-04-v019-h100-tp2-llama31-8b-llmdplanner.log"), (std::array<int, 3>{2, 2, 1}));
    // What each printed as non-torch growth: 0.07 GiB a stage at PP 2,
    // 2.07 GiB a rank at TP 2 (README: the all-reduce workspaces TP adds
    // on an H100 are not modelled).
    expectFigures("vllm-2026-04-v019-h100-pp2-llama31-8b-llmdplanner.log",
                  {{Quantity::VllmNonTorch, "pid=442", 0.07, kGiB}, {Quantity::VllmNonTorch, "pid=443", 0.07, kGiB}});
    expectFigures("vllm-2026-04-v019-h100-tp2-llama31-8b-llmdplanner.log",
                  {{Quantity::VllmNonTorch, "pid=444", 2.07, kGiB}, {Quantity::VllmNonTorch, "pid=445", 2.07, kGiB}});
}

void TestRealLogs::llamaCppBuffersBehindEveryPrefix()
{
    // 2024's llama_new_context_with_model lines (a Tesla P40, imatrix run).
    expectFigures("llamacpp-2024-01-cublas-p40-imatrix-pr4957-part2.log",
                  {{Quantity::LlamaKvBuffer, "CUDA_Host", 34.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 30.00, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 108.03, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA_Host", 109.04, kMiB}});
    // Early 2025's short-lived "init:" prefix of the KV buffer.
    expectFigures("llamacpp-2025-03-context-init-prefix-1gpu-pr12449.log",
                  {{Quantity::LlamaOutputBuffer, "CUDA_Host", 0.98, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 192.00, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 508.03, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA_Host", 23.00, kMiB}});
    // 2026 with timestamps and level letters before each line.
    expectFigures("llamacpp-2026-07-load-tensors-timestamped-issue25408.log",
                  {{Quantity::LlamaModelBuffer, "CPU_Mapped", 682.03, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 16386.94, kMiB}});
    QCOMPARE(testsupport::readDataLog("llamacpp-2026-07-load-tensors-timestamped-issue25408.log").settings.offloadedLayers->value, 66ull);
    expectFigures("llamacpp-2026-load-tensors-partial-offload-pr22673.log",
                  {{Quantity::LlamaModelBuffer, "CPU", 682.03, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 14323.45, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA_Host", 1452.62, kMiB}});
    QCOMPARE(testsupport::readDataLog("llamacpp-2026-load-tensors-partial-offload-pr22673.log").settings.offloadedLayers->value, 60ull);
    // llama_kv_cache_unified (mid-2025), CPU only.
    expectFigures("llamacpp-2025-cpu-only-kv-unified-llmaz402.log",
                  {{Quantity::LlamaOutputBuffer, "CPU", 0.12, kMiB},
                   {Quantity::LlamaKvBuffer, "CPU", 2048.00, kMiB},
                   {Quantity::LlamaComputeBuffer, "CPU", 71.01, kMiB}});
    // ollama's vendored llama.cpp behind docker-compose's and journald's prefixes.
    expectFigures("ollama-2025-01-partial-offload-cpu-kv-issue8447.log",
                  {{Quantity::LlamaModelBuffer, "CPU_Mapped", 378582.96, kMiB},
                   {Quantity::LlamaModelBuffer, "CUDA0", 7106.67, kMiB},
                   {Quantity::LlamaKvBuffer, "CPU", 9600.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA0", 160.00, kMiB}});
    QCOMPARE(testsupport::readDataLog("ollama-2025-01-partial-offload-cpu-kv-issue8447.log").settings.offloadedLayers->value, 1ull);
    expectFigures("ollama-2024-04-1gpu-partial-issue3301.log",
                  {{Quantity::LlamaModelBuffer, "CPU", 38110.61, kMiB}, {Quantity::LlamaModelBuffer, "CUDA0", 13771.88, kMiB}});
    QCOMPARE(testsupport::readDataLog("ollama-2024-04-1gpu-partial-issue3301.log").settings.offloadedLayers->value, 30ull);
    expectFigures("ollama-2025-01-2gpu-kv-compute-issue8377.log",
                  {{Quantity::LlamaKvBuffer, "CUDA0", 5120.00, kMiB},
                   {Quantity::LlamaKvBuffer, "CUDA1", 3072.00, kMiB},
                   {Quantity::LlamaOutputBuffer, "CUDA_Host", 0.60, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA0", 2896.01, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA1", 2896.02, kMiB},
                   {Quantity::LlamaComputeBuffer, "CUDA_Host", 266.02, kMiB}});
}

void TestRealLogs::fitProjections()
{
    // llama-server's --fit: what it projects, and the context it keeps.
    // "projected to use 9226 MiB of device memory vs. 11312 MiB of free device memory"
    expectFigures("llamacpp-2026-fit-no-change-hilbertraum318.log",
                  {{Quantity::LlamaFitProjected, "", 9226, kMiB}, {Quantity::LlamaDeviceFree, "", 11312, kMiB}});
    // "... need to reduce device memory by 133 MiB", "context size set by
    // user to 8192 -> no change", "id=0, target=5874 MiB".
    expectFigures("llamacpp-2026-fit-reduce-needed-hilbertraum318.log",
                  {{Quantity::LlamaFitProjected, "", 6007, kMiB},
                   {Quantity::LlamaDeviceFree, "", 6898, kMiB},
                   {Quantity::LlamaFitDeficit, "", 133, kMiB},
                   {Quantity::LlamaFitTarget, "device 0", 5874, kMiB}});
    QCOMPARE(testsupport::readDataLog("llamacpp-2026-fit-reduce-needed-hilbertraum318.log").settings.contextSize->value, 8192ull);
    // Step 3 on one GPU: "- CUDA0 (...): 42 layers,   5658 MiB used,   1968 MiB free".
    const core::runlog::RunLog overflow = testsupport::readDataLog("llamacpp-2026-fit-moe-overflow-1gpu-pr22673.log");
    expectFigures("llamacpp-2026-fit-moe-overflow-1gpu-pr22673.log", {{Quantity::LlamaFitPlaced, "CUDA0", 5658, kMiB}});
    QCOMPARE(overflow.find(Quantity::LlamaFitLayers).size(), std::size_t(1));
    QCOMPARE(overflow.find(Quantity::LlamaFitLayers).front()->number, 42.0);
    QCOMPARE(overflow.find(Quantity::LlamaFitLayers).front()->device, std::string("CUDA0"));
    // 2025's llama_params_fit: 158,641 MiB projected on three ROCm GPUs, the
    // context reduced from 65,536 to 4,096.
    // "- ROCm0 (AMD Radeon Graphics) : 16304 total, 39959 used, 24341 deficit", and two more devices.
    expectFigures("llamacpp-2025-10-params-fit-3gpu-rocm-pr16653.log", {{Quantity::LlamaFitProjected, "", 158641, kMiB},
                                                                        {Quantity::LlamaFitProjected, "ROCm0", 39959, kMiB},
                                                                        {Quantity::LlamaFitProjected, "ROCm1", 42480, kMiB},
                                                                        {Quantity::LlamaFitProjected, "ROCm2", 76200, kMiB}});
    const core::runlog::RunLog rocm = testsupport::readDataLog("llamacpp-2025-10-params-fit-3gpu-rocm-pr16653.log");
    QCOMPARE(rocm.settings.devices.size(), std::size_t(3));
    QCOMPARE(rocm.settings.devices[2].name, std::string("AMD Instinct MI60 / MI50"));
    QCOMPARE(*rocm.settings.devices[2].total, core::Bytes::mib(32752));
    QCOMPARE(gpusOf(rocm), 3);
    QCOMPARE(rocm.settings.contextSize->value, 4096ull);
    // "need to use 97337 MiB less in total", "-> need 13440 MiB less
    // memory", "a total surplus of 53432 MiB", "set to use 35 dense-only
    // and 22 full GPU layers in total".
    expectFigures("llamacpp-2025-10-params-fit-3gpu-rocm-pr16653.log",
                  {{Quantity::LlamaFitDeficit, "", 97337, kMiB},
                   {Quantity::LlamaFitContextSaving, "", 13440, kMiB},
                   {Quantity::LlamaFitDenseOnlySurplus, "", 53432, kMiB}});
    QCOMPARE(rocm.settings.offloadedLayers->value, 57ull);
    QCOMPARE(rocm.settings.fitDenseOnlyLayers->value, 35ull);
    QVERIFY(rocm.find(Quantity::LlamaFitDeficit).front()->uncertainty == core::Bytes::mib(1));
    // ggml_init_cublas (2024): the device line names the GPU.
    const core::runlog::RunLog p40 = testsupport::readDataLog("llamacpp-2024-01-cublas-p40-imatrix-pr4957-part1.log");
    QCOMPARE(p40.settings.devices.size(), std::size_t(1));
    QCOMPARE(p40.settings.devices.front().name, std::string("Tesla P40"));
}

void TestRealLogs::nvidiaSmiTables()
{
    // Driver 418 (2019): "46MiB /  4037MiB", and the process table's
    // "/usr/bin/python3.6  35MiB".
    expectFigures("nvidia-smi-2019-1gpu-processes-deepracer58.log",
                  {{Quantity::SmiMemoryUsed, "GPU 0", 46, kMiB},
                   {Quantity::SmiMemoryTotal, "GPU 0", 4037, kMiB},
                   {Quantity::SmiProcessMemory, "GPU 0", 35, kMiB}});
    // Driver 550 (2025), two RTX 4090s: "507MiB /  24564MiB", "459MiB /  24564MiB".
    expectFigures("nvidia-smi-2025-2gpu-rtx4090-rlinf255.log",
                  {{Quantity::SmiMemoryUsed, "GPU 0", 507, kMiB},
                   {Quantity::SmiMemoryTotal, "GPU 0", 24564, kMiB},
                   {Quantity::SmiMemoryUsed, "GPU 1", 459, kMiB},
                   {Quantity::SmiMemoryTotal, "GPU 1", 24564, kMiB}});
    // Driver 610 (2026) heads the table with "KMD Version" and "CUDA UMD
    // Version"; two RTX 5090s: "29024MiB /  32607MiB", "29174MiB /  32607MiB".
    const char *kmd = "nvidia-smi-2026-2gpu-rtx5090-kmd-umd-header-club3090-1261.log";
    expectFigures(kmd, {{Quantity::SmiMemoryUsed, "GPU 0", 29024, kMiB},
                        {Quantity::SmiMemoryUsed, "GPU 1", 29174, kMiB},
                        {Quantity::SmiMemoryTotal, "GPU 1", 32607, kMiB}});
    QCOMPARE(testsupport::readDataLog(kmd).settings.devices.front().name, std::string("NVIDIA GeForce RTX 5090"));
}

void TestRealLogs::torchSummariesAndTrainerMetrics()
{
    // memory_summary() of 2020 ("MB", floored): allocated 1062 / 4877,
    // reserved 12420 / 12420.
    expectFigures("torch-memory-summary-2020-mb-units-pytorch35901.log",
                  {{Quantity::TorchAllocatedCurrent, "GPU 0", 1062, kMiB},
                   {Quantity::TorchAllocatedPeak, "GPU 0", 4877, kMiB},
                   {Quantity::TorchReservedCurrent, "GPU 0", 12420, kMiB},
                   {Quantity::TorchReservedPeak, "GPU 0", 12420, kMiB}});
    // A ROCm build's summary after "Memory summary: " on its first line:
    // allocated 21964 MiB now, 23472 MiB at the peak.
    expectFigures("torch-memory-summary-rocm-mib-gib-comfyui-bitdance2.log",
                  {{Quantity::TorchAllocatedCurrent, "GPU 0", 21964, kMiB},
                   {Quantity::TorchAllocatedPeak, "GPU 0", 23472, kMiB}});
    // The Trainer's "init_mem_gpu_alloc_delta = 230MB" ... (v >> 20: MiB).
    expectFigures("hf-trainer-metrics-2021-t5-small-transformers10929.log",
                  {{Quantity::HfAllocDelta, "", 230, kMiB},
                   {Quantity::HfPeakedDelta, "", 0, kMiB},
                   {Quantity::HfAllocDelta, "", 232, kMiB}});
    // A negative alloc delta (ZeRO-3 freed more than it kept) is named,
    // not read; the peaked delta is.
    const auto negative = core::runlog::readRunLog(testsupport::dataLogText("hf-trainer-metrics-2021-negative-delta-transformers13915.log"));
    QVERIFY(negative.ok());
    QCOMPARE(negative.warnings.size(), std::size_t(1));
    QVERIFY(negative.warnings.front().find("line 1") != std::string::npos);
    expectFigures("hf-trainer-metrics-2021-negative-delta-transformers13915.log", {{Quantity::HfPeakedDelta, "", 2012, kMiB}});
}

void TestRealLogs::torchOutOfMemoryMessages()
{
    // torch 2.0 and before, on one line: "Tried to allocate 44.00 MiB (GPU 0;
    // 14.56 GiB total capacity; 13.25 GiB already allocated; 10.44 MiB free;
    // 13.83 GiB reserved in total by PyTorch)".
    expectFigures("torch-oom-old-2023-simple-llm-finetuner46.log",
                  {{Quantity::TorchOomRequested, "GPU 0", 44.00, kMiB},
                   {Quantity::TorchOomCapacity, "GPU 0", 14.56, kGiB},
                   {Quantity::TorchOomAllocated, "GPU 0", 13.25, kGiB},
                   {Quantity::TorchOomFree, "GPU 0", 10.44, kMiB},
                   {Quantity::TorchOomReserved, "GPU 0", 13.83, kGiB}});
    // The same form wrapped over two and over four lines, the second on GPU 1.
    expectFigures("torch-oom-old-2023-wrapped-gpt4llm16.log",
                  {{Quantity::TorchOomRequested, "GPU 0", 172.00, kMiB},
                   {Quantity::TorchOomCapacity, "GPU 0", 79.35, kGiB},
                   {Quantity::TorchOomAllocated, "GPU 0", 73.95, kGiB},
                   {Quantity::TorchOomFree, "GPU 0", 12.19, kMiB},
                   {Quantity::TorchOomReserved, "GPU 0", 76.80, kGiB}});
    expectFigures("torch-oom-old-2023-wrapped-gpu1-fastchat2701.log",
                  {{Quantity::TorchOomRequested, "GPU 1", 1.25, kGiB},
                   {Quantity::TorchOomCapacity, "GPU 1", 79.10, kGiB},
                   {Quantity::TorchOomAllocated, "GPU 1", 76.13, kGiB},
                   {Quantity::TorchOomFree, "GPU 1", 290.12, kMiB},
                   {Quantity::TorchOomReserved, "GPU 1", 77.47, kGiB}});
    // torch 2.1 ("capacty"), another process named by pid.
    const char *process = "torch-oom-new-2024-capacty-process-code-llama-finetune3.log";
    expectFigures(process, {{Quantity::TorchOomRequested, "GPU 0", 64.00, kGiB},
                            {Quantity::TorchOomCapacity, "GPU 0", 14.75, kGiB},
                            {Quantity::TorchOomFree, "GPU 0", 5.48, kGiB},
                            {Quantity::TorchOomProcessMemory, "GPU 0", 9.27, kGiB},
                            {Quantity::TorchOomAllocated, "GPU 0", 8.79, kGiB},
                            {Quantity::TorchOomUnallocated, "GPU 0", 351.89, kMiB}});
    QCOMPARE(testsupport::readDataLog(process).find(Quantity::TorchOomProcessMemory).front()->detail, std::string("pid 15367"));
    // torch 2.5 under torchrun ("[rank0]: "), "this process has".
    const char *rank = "torch-oom-new-2025-rank-prefix-torchtune-llama-cookbook898.log";
    expectFigures(rank, {{Quantity::TorchOomRequested, "GPU 0", 424.00, kMiB},
                         {Quantity::TorchOomCapacity, "GPU 0", 21.96, kGiB},
                         {Quantity::TorchOomFree, "GPU 0", 163.12, kMiB},
                         {Quantity::TorchOomProcessMemory, "GPU 0", 21.80, kGiB},
                         {Quantity::TorchOomAllocated, "GPU 0", 20.30, kGiB},
                         {Quantity::TorchOomUnallocated, "GPU 0", 1.15, kGiB}});
    // Each message is read once, whatever its lines.
    for (const char *name : {process, rank, "torch-oom-old-2023-wrapped-gpu1-fastchat2701.log"}) {
        const auto read = core::runlog::readRunLog(testsupport::dataLogText(name));
        QVERIFY2(read.ok() && read.warnings.empty(), name);
        QCOMPARE(read.value->find(Quantity::TorchOomRequested).size(), std::size_t(1));
    }
}

VRAM_TEST_MAIN(tst_reallogs, TestRealLogs, Core)
#include "tst_reallogs.moc"
