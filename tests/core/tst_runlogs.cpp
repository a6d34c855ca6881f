// Run logs: each printer's lines written here with the printing code's own
// format strings (copied from the source each reader cites) and read back
// to the bytes they state. The expected bytes are the printed number times
// its unit, worked out by hand in each row's comment.

#include "core/io/builtin.h"
#include "core/runs/gpumatch.h"
#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"
#include "tests/support/printedlog.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>

using core::runlog::Quantity;
using namespace testsupport;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = kMiB * 1024.0;

/// torch/cuda/memory.py memory_summary _format_size, ported: floor by 1024
/// while the row's "all" value is at least 768 KiB.
std::string torchSize(std::uint64_t sz, std::uint64_t pref)
{
    const char *prefixes[] = {"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int p = 0;
    double prefD = static_cast<double>(pref);
    for (int i = 1; i < 6; ++i) {
        if (prefD < 768 * 1024)
            break;
        p = i;
        sz /= 1024;
        prefD /= 1024;
    }
    return printed("%6llu %s", static_cast<unsigned long long>(sz), prefixes[p]);
}

const core::runlog::RunLog readOk(const std::string &text)
{
    const auto r = core::runlog::readRunLog(text);
    if (!r.ok())
        qFatal("readRunLog failed: %s", r.errors.empty() ? "" : r.errors.front().c_str());
    return *r.value;
}

std::uint64_t only(const core::runlog::RunLog &log, Quantity q, const std::string &device = {})
{
    std::vector<std::uint64_t> found;
    for (const auto *r : log.find(q))
        if (device.empty() || r->device == device)
            found.push_back(r->bytes.count());
    if (found.size() != 1)
        qFatal("expected one reading, found %zu", found.size());
    return found.front();
}

} // namespace

class TestRunLogs : public QObject
{
    Q_OBJECT

private slots:
    void llamaCppBuffers_data();
    void llamaCppBuffers();
    void llamaCppSettingsAndDevices();
    void vllmProfile_data();
    void vllmProfile();
    void vllmResultsBlockAndV1Lines();
    void vllmReleaseSetsItsDefaults();
    void torchMemorySummary();
    void torchMemoryStats();
    void trainerMetrics();
    void nvidiaSmiCsv_data();
    void nvidiaSmiCsv();
    void nvidiaSmiTable();
    void mixedLogWithPrefixesCrlfAndColour();
    void malformedAndForeignLogs();
    void gpuNames_data();
    void gpuNames();
    void compareLlamaCpp();
    void compareVllm();
    void calibrationFigures();
    void fitDeviceNamesMayHoldColons();
    void cutOffOutOfMemorySwallowsNothing();
    void fitSplitBecomesTheScenarios();
};

void TestRunLogs::llamaCppBuffers_data()
{
    QTest::addColumn<double>("mib");
    QTest::addColumn<qulonglong>("bytes");
    // 1234.25 MiB = 1234 x 1,048,576 + 262,144 = 1,294,204,928 B exactly.
    QTest::newRow("exact quarter MiB") << 1234.25 << qulonglong(1294204928ull);
    // "6378.40": 6378.40 x 1,048,576 = 6,688,237,158.4 -> 6,688,237,158 B.
    QTest::newRow("two decimals") << 6378.40 << qulonglong(6688237158ull);
    // "   0.49": 0.49 x 1,048,576 = 513,802.24 -> 513,802 B.
    QTest::newRow("under one MiB") << 0.49 << qulonglong(513802ull);
    // "17408.00": 17408 x 1,048,576 = 18,253,611,008 B.
    QTest::newRow("wider than %8.2f") << 17408.0 << qulonglong(18253611008ull);
}

void TestRunLogs::llamaCppBuffers()
{
    QFETCH(double, mib);
    QFETCH(qulonglong, bytes);
    const std::string text = printed(kModelBuffer, "load_tensors", "CUDA0", mib)
        + printed(kKvBuffer, "llama_kv_cache", "CUDA1", mib) + printed(kComputeBuffer, "sched_reserve", "CUDA_Host", mib)
        + printed(kOutputBuffer, "llama_context", "CPU", mib);
    const auto log = readOk(text);
    QCOMPARE(only(log, Quantity::LlamaModelBuffer, "CUDA0"), bytes);
    QCOMPARE(only(log, Quantity::LlamaKvBuffer, "CUDA1"), bytes);
    QCOMPARE(only(log, Quantity::LlamaComputeBuffer, "CUDA_Host"), bytes);
    QCOMPARE(only(log, Quantity::LlamaOutputBuffer, "CPU"), bytes);
    // %8.2f: within half of 0.01 MiB = 5,242.88 -> 5,243 B.
    QCOMPARE(log.find(Quantity::LlamaModelBuffer).front()->uncertainty.count(), 5243ull);
}

void TestRunLogs::llamaCppSettingsAndDevices()
{
    const std::string text = "ggml_cuda_init: found 2 CUDA devices:\n" + printed(kCudaDevice, 0, "NVIDIA GeForce RTX 4090", 8, 9, "yes")
        + printed(kCudaDevice, 1, "NVIDIA GeForce RTX 4090", 8, 9, "yes")
        + printed(kUsingDevice, "llama_model_load_from_file_impl", "CUDA0", "NVIDIA GeForce RTX 4090", std::size_t(23686))
        + printed(kOffloaded, "load_tensors", 29, 33) + printed(kContextCount, "llama_context", "n_seq_max    ", 4u)
        + printed(kContextCount, "llama_context", "n_ctx        ", 32768u)
        + printed(kContextCount, "llama_context", "n_ctx_seq    ", 8192u)
        + printed(kContextCount, "llama_context", "n_batch      ", 2048u)
        + printed(kContextCount, "llama_context", "n_ubatch     ", 512u) + "llama_context: flash_attn    = disabled\n"
        + "llama_context: kv_unified    = false\n"
        + printed(kKvSize, "llama_kv_cache", 4352.0, 32768u, 32, 4u, 4u, "q8_0", 2176.0, "q8_0", 2176.0);
    const auto log = readOk(text);
    const auto &s = log.settings;
    QCOMPARE(s.sequences->value, 4ull);
    QCOMPARE(s.contextSize->value, 32768ull);
    QCOMPARE(s.contextPerSequence->value, 8192ull);
    QCOMPARE(s.batch->value, 2048ull);
    QCOMPARE(s.ubatch->value, 512ull);
    QCOMPARE(s.flashAttention->value, false);
    QCOMPARE(s.kvUnified->value, false);
    QCOMPARE(s.kType->value, std::string("q8_0"));
    QCOMPARE(s.offloadedLayers->value, 29ull);
    QCOMPARE(s.offloadableLayers->value, 33ull);
    QCOMPARE(s.offloadedLayers->line, std::size_t(5));
    QCOMPARE(s.devices.size(), std::size_t(2));
    QCOMPARE(s.devices[1].id, std::string("CUDA1"));
    QCOMPARE(s.devices[0].name, std::string("NVIDIA GeForce RTX 4090"));
    // %zu of free / 1024 / 1024: 23,686 MiB = 24,836,571,136 B, floored.
    QCOMPARE(only(log, Quantity::LlamaDeviceFree), 24836571136ull);
}

void TestRunLogs::vllmProfile_data()
{
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("weights");
    QTest::addColumn<double>("kv");
    // Each figure is the %.2f print times 2^30, rounded (checked below
    // through `round`): 79.15 GiB = 84,986,665,369.6 -> 84,986,665,370 B.
    QTest::newRow("A100 80GB") << 79.15 << 12.55 << 55.71;
    // 14.25 GiB = 15,300,820,992 B exactly.
    QTest::newRow("RTX 4090") << 23.57 << 14.25 << 5.77;
}

void TestRunLogs::vllmProfile()
{
    QFETCH(double, total);
    QFETCH(double, weights);
    QFETCH(double, kv);
    const std::string prefix = "(VllmWorkerProcess pid=507) INFO 04-12 08:21:19 [worker.py:267] ";
    const std::string text = prefix + "Memory profiling takes 4.52 seconds\n" + prefix
        + printed(kVllmInstance, total, 0.90, total * 0.90) + prefix + printed(kVllmTerms, weights, 0.12, 1.25, kv);
    const auto log = readOk(text);
    const auto round = [](double gib) { return static_cast<std::uint64_t>(std::llround(std::stod(printed("%.2f", gib)) * kGiB)); };
    QCOMPARE(only(log, Quantity::VllmTotalGpuMemory), round(total));
    QCOMPARE(only(log, Quantity::VllmWeights), round(weights));
    QCOMPARE(only(log, Quantity::VllmKvCacheMemory), round(kv));
    // 0.12 GiB = 128,849,018.88 -> 128,849,019 B; 1.25 GiB = 1,342,177,280 B.
    QCOMPARE(only(log, Quantity::VllmNonTorch), 128849019ull);
    QCOMPARE(only(log, Quantity::VllmActivationPeak), 1342177280ull);
    QCOMPARE(log.settings.gpuMemoryUtilization->value, 0.90);
    QCOMPARE(log.find(Quantity::VllmWeights).front()->device, std::string("pid=507"));
    QCOMPARE(log.find(Quantity::VllmWeights).front()->line, std::size_t(3));
}

void TestRunLogs::vllmResultsBlockAndV1Lines()
{
    // vllm/worker/worker.py (0.6.3): one message over five lines.
    const std::string block = printed("INFO 10-01 12:00:00 worker.py:255] Memory profiling results: total_gpu_memory=%.2fGiB\n"
                                      " initial_memory_usage=%.2fGiB peak_torch_memory=%.2fGiB\n"
                                      " memory_usage_post_profile=%.2fGib\n"
                                      " non_torch_memory=%.2fGiB kv_cache_size=%.2fGiB\n"
                                      " gpu_memory_utilization=%.2f\n",
                                      44.35, 13.9, 14.5, 14.05, 0.25, 25.17, 0.9);
    // vllm/v1: "Model loading took %.4f GiB and %.6f seconds", "Available KV
    // cache memory: %.2f GiB", "GPU KV cache size: %s tokens" ({:,}).
    const std::string v1 = printed("INFO [gpu_model_runner.py:1] Model loading took %.4f GiB and %.6f seconds\n", 14.9917, 5.1)
        + printed("INFO [gpu_worker.py:2] Available KV cache memory: %.2f GiB\n", 54.0)
        + "INFO [kv_cache_utils.py:3] GPU KV cache size: 442,368 tokens\n"
        + "INFO [kv_cache_utils.py:4] Maximum concurrency for 32,768 tokens per request: 13.50x\n";
    const auto log = readOk(block + v1);
    // 44.35 GiB = 47,620,449,894.4 -> ...894; 14.50 = 15,569,256,448; 0.25 = 268,435,456; 25.17 = 27,026,081,710.08 -> ...710.
    QCOMPARE(only(log, Quantity::VllmTotalGpuMemory), 47620449894ull);
    QCOMPARE(only(log, Quantity::VllmTorchPeak), 15569256448ull);
    QCOMPARE(only(log, Quantity::VllmNonTorch), 268435456ull);
    QCOMPARE(log.find(Quantity::VllmKvCacheMemory).front()->bytes.count(), 27026081710ull);
    // 14.9917 x 1,073,741,824 = 16,097,215,302.86 -> 16,097,215,303 B.
    QCOMPARE(only(log, Quantity::VllmWeights), 16097215303ull);
    // %.4f: half of 0.0001 GiB = 53,687.09 -> 53,687 B.
    QCOMPARE(log.find(Quantity::VllmWeights).front()->uncertainty.count(), 53687ull);
    QCOMPARE(log.find(Quantity::VllmKvCacheMemory).back()->bytes.count(), 57982058496ull); // 54 x 2^30
    QCOMPARE(log.find(Quantity::VllmKvCacheTokens).front()->number, 442368.0);
    QCOMPARE(log.find(Quantity::VllmMaxConcurrency).front()->number, 13.5);
    QCOMPARE(log.settings.maxModelLen->value, 32768ull);
}

void TestRunLogs::torchMemorySummary()
{
    const std::uint64_t allocated = 15'032'385'536ull; // 14 GiB exactly
    const std::uint64_t allocatedPeak = 16'642'998'272ull; // 15.5 GiB
    const std::uint64_t reserved = 17'179'869'184ull + 123'456'789ull;
    std::string text = "|===========================================================================|\n";
    text += printed("| %16s PyTorch CUDA memory summary, device ID %-17d |\n", "", 0);
    text += "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n";
    // " {:<21} | {} | {} | {} | {} "
    text += printed("| %-21s | %s | %s | %s | %s |\n", "Allocated memory", torchSize(allocated, allocated).c_str(),
                    torchSize(allocatedPeak, allocatedPeak).c_str(), torchSize(allocated, allocated).c_str(),
                    torchSize(0, 0).c_str());
    text += printed("| %-21s | %s | %s | %s | %s |\n", "      from large pool", torchSize(allocated, allocated).c_str(),
                    torchSize(allocated, allocated).c_str(), torchSize(0, 0).c_str(), torchSize(0, 0).c_str());
    text += printed("| %-21s | %s | %s | %s | %s |\n", "GPU reserved memory", torchSize(reserved, reserved).c_str(),
                    torchSize(reserved, reserved).c_str(), torchSize(reserved, reserved).c_str(), torchSize(0, 0).c_str());
    const auto log = readOk(text);
    // 14 GiB prints "14336 MiB" (15,032,385,536 / 2^20 = 14336): back to 15,032,385,536.
    QCOMPARE(only(log, Quantity::TorchAllocatedCurrent), allocated);
    QCOMPARE(only(log, Quantity::TorchAllocatedPeak), allocatedPeak);
    // 17,303,325,973 B floors to 16501 MiB = 17,302,552,576 B, within one MiB.
    QCOMPARE(only(log, Quantity::TorchReservedPeak), 17302552576ull);
    QCOMPARE(log.find(Quantity::TorchReservedPeak).front()->uncertainty.count(), 1048576ull);
    QCOMPARE(log.find(Quantity::TorchReservedPeak).front()->device, std::string("GPU 0"));
}

void TestRunLogs::torchMemoryStats()
{
    const std::string json = "{\"active.all.allocated\": 12, \"allocated_bytes.all.current\": 1234567, "
                             "\"allocated_bytes.all.peak\": 7654321, \"reserved_bytes.all.current\": 20971520, "
                             "\"reserved_bytes.all.peak\": 23068672}\n";
    const auto fromJson = readOk(json);
    QCOMPARE(only(fromJson, Quantity::TorchAllocatedPeak), 7654321ull);
    QCOMPARE(only(fromJson, Quantity::TorchReservedPeak), 23068672ull);
    // print(torch.cuda.memory_stats()) on older releases: an OrderedDict's repr.
    const auto fromRepr = readOk("OrderedDict([('allocated_bytes.all.peak', 42), ('reserved_bytes.all.peak', 2097152)])\n");
    QCOMPARE(only(fromRepr, Quantity::TorchAllocatedPeak), 42ull);
    QCOMPARE(only(fromRepr, Quantity::TorchReservedPeak), 2097152ull);
}

void TestRunLogs::trainerMetrics()
{
    // log_metrics: f"  {key: <{k_width}} = {value:>{v_width}}" of
    // metrics_format's f"{ v >> 20 }MB".
    const std::uint64_t alloc = 3'500'000'000ull; // >> 20 = 3337
    std::string text = "***** train metrics *****\n";
    text += printed("  %-26s = %8s\n", "train_mem_gpu_alloc_delta", (std::to_string(alloc >> 20) + "MB").c_str());
    text += "{'train_runtime': 12.5, 'init_mem_gpu_alloc_delta': 13476831232, 'train_mem_gpu_peaked_delta': 2147483648}\n";
    const auto log = readOk(text);
    QCOMPARE(log.find(Quantity::HfAllocDelta).size(), std::size_t(2));
    // 3,500,000,000 >> 20 = 3337 ("3337MB"): 3337 MiB = 3,499,098,112 B, floored.
    QCOMPARE(log.find(Quantity::HfAllocDelta)[0]->bytes.count(), 3499098112ull);
    QCOMPARE(log.find(Quantity::HfAllocDelta)[0]->detail, std::string("train"));
    QCOMPARE(log.find(Quantity::HfAllocDelta)[1]->detail, std::string("init"));
    QCOMPARE(log.find(Quantity::HfAllocDelta)[1]->bytes.count(), 13476831232ull);
    QCOMPARE(only(log, Quantity::HfPeakedDelta), 2147483648ull);
}

void TestRunLogs::nvidiaSmiCsv_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("csv") << "name, memory.used [MiB], memory.total [MiB]\nNVIDIA A100-SXM4-80GB, 15000 MiB, 81920 MiB\n";
    QTest::newRow("nounits") << "name, memory.used [MiB], memory.total [MiB]\nNVIDIA A100-SXM4-80GB, 15000, 81920\n";
    QTest::newRow("noheader") << "NVIDIA A100-SXM4-80GB, 15000 MiB, 81920 MiB\n";
    QTest::newRow("noheader,nounits") << "NVIDIA A100-SXM4-80GB, 15000, 81920\n";
    QTest::newRow("other column order") << "memory.total [MiB], index, memory.used [MiB], name\n81920 MiB, 0, 15000 MiB, NVIDIA A100-SXM4-80GB\n";
}

void TestRunLogs::nvidiaSmiCsv()
{
    QFETCH(QString, text);
    const auto log = readOk(text.toStdString());
    // 15000 MiB = 15,728,640,000 B; 81920 MiB = 85,899,345,920 B.
    QCOMPARE(only(log, Quantity::SmiMemoryUsed), 15728640000ull);
    QCOMPARE(only(log, Quantity::SmiMemoryTotal), 85899345920ull);
    QCOMPARE(log.settings.devices.front().name, std::string("NVIDIA A100-SXM4-80GB"));
}

void TestRunLogs::nvidiaSmiTable()
{
    const std::string table =
        "+-----------------------------------------------------------------------------------------+\n"
        "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |\n"
        "|-----------------------------------------+------------------------+----------------------+\n"
        "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
        "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n"
        "|=========================================+========================+======================|\n"
        "|   0  NVIDIA GeForce RTX 4090        Off |   00000000:01:00.0 Off |                  Off |\n"
        "|  0%   38C    P8             21W /  450W |   20517MiB /  24564MiB |      0%      Default |\n"
        "|   1  NVIDIA GeForce RTX 4090        Off |   00000000:02:00.0 Off |                  Off |\n"
        "|  0%   36C    P8             18W /  450W |       2MiB /  24564MiB |      0%      Default |\n"
        "+-----------------------------------------+------------------------+----------------------+\n"
        "\n"
        "+-----------------------------------------------------------------------------------------+\n"
        "| Processes:                                                                              |\n"
        "|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |\n"
        "|        ID   ID                                                               Usage      |\n"
        "|=========================================================================================|\n"
        "|    0   N/A  N/A      4242      C   python3                                     20500MiB |\n"
        "+-----------------------------------------------------------------------------------------+\n";
    const auto log = readOk(table);
    QCOMPARE(only(log, Quantity::SmiMemoryUsed, "GPU 0"), 20517ull * 1048576ull);
    QCOMPARE(only(log, Quantity::SmiMemoryTotal, "GPU 1"), 24564ull * 1048576ull);
    QCOMPARE(only(log, Quantity::SmiProcessMemory), 20500ull * 1048576ull);
    QCOMPARE(log.find(Quantity::SmiProcessMemory).front()->detail, std::string("python3"));
    QCOMPARE(log.settings.devices.size(), std::size_t(2));
    QCOMPARE(log.settings.devices[0].name, std::string("NVIDIA GeForce RTX 4090"));
}

void TestRunLogs::mixedLogWithPrefixesCrlfAndColour()
{
    std::string text = "\x1b[1;36m(VllmWorkerProcess pid=507)\x1b[0;0m INFO 04-12 08:21:19 [worker.py:267] "
        + printed(kVllmTerms, 7.17, 0.01, 1.83, 26.60);
    text += "#033[1;36m(VllmWorkerProcess pid=508)#033[0;0m INFO 04-12 08:21:19 [worker.py:267] "
        + printed(kVllmTerms, 7.18, 0.01, 1.83, 26.59);
    text += printed(kModelBuffer, "load_tensors", "CUDA0", 100.5);
    text += "NVIDIA A100-SXM4-40GB, 100, 40960\n";
    text += printed(kKvBuffer, "llama_kv_cache", "CUDA0", 64.0);
    // Windows line ends, then a last line cut off mid-number.
    std::string crlf;
    for (char c : text)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    crlf += "load_tensors:        CUDA1 model buffer size = ";
    const auto result = core::runlog::readRunLog(crlf);
    QVERIFY(result.ok());
    const auto &log = *result.value;
    QCOMPARE(log.find(Quantity::VllmWeights).size(), std::size_t(2));
    QCOMPARE(log.find(Quantity::VllmWeights)[1]->device, std::string("pid=508"));
    // 7.18 GiB = 7,709,466,296.32 -> 7,709,466,296 B.
    QCOMPARE(log.find(Quantity::VllmWeights)[1]->bytes.count(), 7709466296ull);
    // 100.50 MiB = 105,381,888 B.
    QCOMPARE(only(log, Quantity::LlamaModelBuffer), 105381888ull);
    QCOMPARE(only(log, Quantity::LlamaKvBuffer), 67108864ull);
    QCOMPARE(only(log, Quantity::SmiMemoryUsed), 104857600ull);
    QCOMPARE(log.formats.size(), std::size_t(3));
    QCOMPARE(result.warnings.size(), std::size_t(1));
    QVERIFY2(result.warnings.front().rfind("line 6: cut off", 0) == 0, result.warnings.front().c_str());
}

void TestRunLogs::malformedAndForeignLogs()
{
    const auto bad = core::runlog::readRunLog(printed(kModelBuffer, "load_tensors", "CUDA0", 10.0)
                                              + "load_tensors:        CUDA1 model buffer size = lots MiB\nmore\n");
    QVERIFY(bad.ok());
    QCOMPARE(bad.warnings.size(), std::size_t(1));
    QVERIFY2(bad.warnings.front().find("line 2: expected a buffer name and a size in MiB") == 0, bad.warnings.front().c_str());

    const auto foreign = core::runlog::readRunLog("hello\nworld\n");
    QVERIFY(!foreign.ok());
    QVERIFY(foreign.errors.front().find("no line of a known run log") != std::string::npos);

    const auto onlyBad = core::runlog::readRunLog("x\nINFO Available KV cache memory: n/a GiB\n");
    QVERIFY(!onlyBad.ok());
    QCOMPARE(onlyBad.errors.size(), std::size_t(2));
    QVERIFY2(onlyBad.errors[1].rfind("line 2: expected a size in GiB", 0) == 0, onlyBad.errors[1].c_str());
    QVERIFY(!core::runlog::readRunLog("").ok());
}

void TestRunLogs::gpuNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("ids");
    QTest::newRow("nvidia-smi A100 80GB") << "NVIDIA A100-SXM4-80GB" << "a100-sxm4-80gb";
    QTest::newRow("llama.cpp RTX 4090") << "NVIDIA GeForce RTX 4090" << "rtx-4090";
    QTest::newRow("Tesla T4") << "Tesla T4" << "t4";
    QTest::newRow("A10 is not A10G") << "NVIDIA A10" << "a10";
    QTest::newRow("A10G") << "NVIDIA A10G" << "a10g";
    QTest::newRow("RTX 6000 Ada") << "NVIDIA RTX 6000 Ada Generation" << "rtx-6000-ada";
    QTest::newRow("H100 SXM names no form factor") << "NVIDIA H100 80GB HBM3" << "h100-sxm5-80gb,h100-pcie-80gb";
    QTest::newRow("unknown") << "Moore Threads MTT S80" << "";
}

void TestRunLogs::gpuNames()
{
    QFETCH(QString, name);
    QFETCH(QString, ids);
    std::string joined;
    for (const std::string &id : core::runlog::matchCatalogGpu(name.toStdString(), std::nullopt, core::io::builtinCatalog()))
        joined += (joined.empty() ? "" : ",") + id;
    QCOMPARE(QString::fromStdString(joined), ids);
}

void TestRunLogs::compareLlamaCpp()
{
    const std::string text = printed(kCudaDevice, 0, "NVIDIA GeForce RTX 4090", 8, 9, "yes")
        + printed(kOffloaded, "load_tensors", 33, 33) + printed(kModelBuffer, "load_tensors", "CUDA0", 3891.24)
        + printed(kModelBuffer, "load_tensors", "CPU_Mapped", 70.31) + printed(kContextCount, "llama_context", "n_seq_max    ", 1u)
        + printed(kContextCount, "llama_context", "n_ctx        ", 8192u) + printed(kContextCount, "llama_context", "n_ubatch     ", 256u)
        + "llama_context: flash_attn    = enabled\n" + printed(kKvBuffer, "llama_kv_cache", "CUDA0", 1024.0)
        + printed(kKvSize, "llama_kv_cache", 1024.0, 8192u, 32, 1u, 1u, "f16", 512.0, "f16", 512.0)
        + printed(kComputeBuffer, "sched_reserve", "CUDA0", 296.01) + printed(kComputeBuffer, "sched_reserve", "CUDA_Host", 24.01);
    const auto log = readOk(text);
    core::Scenario base;
    base.model = core::io::findPreset("llama-2-7b")->model;
    base.weights = core::WeightFormat::GgufQ4KM;
    // The user fixed the micro-batch; the log's 256 is not taken.
    base.ubatch = 1024;
    const core::RunScenario run = core::scenarioFromLog(base, log, core::io::builtinCatalog(), {core::FieldId::Ubatch});
    const core::Scenario &s = run.scenario;
    QCOMPARE(s.serving, core::ServingEngine::LlamaCpp);
    QCOMPARE(s.sequence, 8192ull);
    QCOMPARE(s.batch, 1ull);
    QCOMPARE(s.ubatch, 1024ull);
    QCOMPARE(*s.gpuLayers, 33ull);
    QCOMPARE(*s.kvDtype, core::WeightFormat::Fp16);
    QCOMPARE(s.attention, core::Attention::Flash);
    QCOMPARE(s.gpuId, std::string("rtx-4090"));
    bool ubatchKept = false;
    for (const core::LogSetting &setting : run.settings)
        if (setting.field == core::FieldId::Ubatch)
            ubatchKept = !setting.applied && setting.value == "256" && setting.line == 7;
    QVERIFY(ubatchKept);

    const core::RunComparison c = core::compareRun(run, log, core::io::builtinCatalog());
    const core::Estimate e = core::estimate(s);
    std::map<std::string, const core::ComparisonRow *> rows;
    for (const auto &r : c.rows)
        rows[r.quantity + "@" + r.device] = &r;
    QVERIFY(rows.count("llamacpp.model_buffer@CUDA0"));
    QCOMPARE(rows["llamacpp.model_buffer@CUDA0"]->planned->count(), e.term(core::TermId::Weights).count());
    QCOMPARE(rows["llamacpp.model_buffer@CUDA0"]->term, std::string("weights"));
    QCOMPARE(rows["llamacpp.kv_buffer@CUDA0"]->planned->count(), e.term(core::TermId::KvCache).count());
    // Llama 2 7B, f16 KV, 8192 cells: 2 x 32 layers x 4096 x 2 B x 8192 = 4 GiB... of which the log
    // printed 1024 MiB because this log is made up; the row shows the plan's 4 GiB against it.
    QCOMPARE(rows["llamacpp.kv_buffer@CUDA0"]->planned->count(), 4294967296ull);
    QCOMPARE(rows["llamacpp.compute_buffer@CUDA0"]->term, std::string("workspace + logits"));
    QVERIFY(rows.count("llamacpp.model_buffer@CPU_Mapped"));
    QCOMPARE(rows["llamacpp.model_buffer@CPU_Mapped"]->term, std::string("host: weights"));
    QVERIFY(rows.count("llamacpp.compute_buffer@CUDA_Host"));
}

void TestRunLogs::vllmReleaseSetsItsDefaults()
{
    // vllm/entrypoints/openai/api_server.py: "vLLM API server version %s";
    // the engine: "Initializing a V1 LLM engine (v%s) with config: ...". The
    // release sets its defaults in compare: before 0.21 the share is 0.9.
    const std::string text = "INFO 04-12 08:21:10 [api_server.py:1043] " + printed("vLLM API server version %s\n", "0.8.4")
        + "INFO 04-12 08:21:11 [core.py:58] " + printed("Initializing a V1 LLM engine (v%s) with config: model='m'\n", "0.8.4")
        + "INFO 04-12 08:21:19 [gpu_worker.py:227] " + printed(kVllmInstance, 79.15, 0.9, 71.24);
    const auto log = readOk(text);
    QVERIFY(log.settings.engineVersion);
    QCOMPARE(log.settings.engineVersion->value, std::string("0.8.4"));
    QCOMPARE(log.settings.engineVersion->line, std::size_t(1));
    core::Scenario base;
    base.model = core::io::findPreset("llama-2-7b")->model;
    const core::RunScenario run = core::scenarioFromLog(base, log, core::io::builtinCatalog(), {});
    QCOMPARE(libraryVersionsText(run.scenario.versions), std::string("vllm=0.8.4"));
    // A post release and a release candidate are their release.
    const auto post = readOk("INFO [api_server.py:585] vLLM API server version 0.6.4.post1\n" + text);
    QCOMPARE(post.settings.engineVersion->value, std::string("0.6.4"));
    const auto rc = readOk("INFO [api_server.py:585] vLLM API server version 0.11.1rc2\n" + text);
    QCOMPARE(rc.settings.engineVersion->value, std::string("0.11.1"));
}

void TestRunLogs::compareVllm()
{
    const std::string prefix = "INFO 04-12 08:21:19 [worker.py:267] ";
    const std::string text = prefix + printed(kVllmInstance, 79.15, 0.85, 67.28) + prefix + printed(kVllmTerms, 12.55, 0.12, 1.25, 53.36)
        + "INFO [executor_base.py:116] Maximum concurrency for 4096 tokens per request: 26.05x\n";
    const auto log = readOk(text);
    core::Scenario base;
    base.model = core::io::findPreset("llama-2-7b")->model;
    const core::RunScenario run = core::scenarioFromLog(base, log, core::io::builtinCatalog(), {});
    QCOMPARE(run.scenario.serving, core::ServingEngine::Vllm);
    QCOMPARE(run.scenario.effectiveGpuMemoryUtilization(), 0.85);
    QCOMPARE(run.scenario.sequence, 4096ull);
    // 79.15 GiB = 84,986,665,369.6 -> 84,986,665,370 B is the capacity the KV pool is planned on.
    QCOMPARE(run.gpuMemory->count(), 84986665370ull);
    const core::RunComparison c = core::compareRun(run, log, core::io::builtinCatalog());
    const core::Estimate e = core::estimate(run.scenario);
    bool weights = false, pool = false, instance = false;
    for (const auto &r : c.rows) {
        if (r.quantity == "vllm.weights")
            weights = r.planned && *r.planned == e.term(core::TermId::Weights) && r.term == "weights";
        if (r.quantity == "vllm.kv_cache_memory")
            pool = r.planned && r.planned->count() > 0 && r.term == "kv_cache pool";
        if (r.quantity == "vllm.instance_memory")
            // 84,986,665,370 x 0.85 = 72,238,665,564.5 -> 72,238,665,565 (Bytes rounds up).
            instance = r.planned && r.planned->count() == 72238665565ull;
    }
    QVERIFY(weights);
    QVERIFY(pool);
    QVERIFY(instance);
    // The engine comes from the log's format, not a line: a row only for a
    // user who chose another one.
    const auto engineRow = [&log, &base](core::ServingEngine chosen) {
        core::Scenario mine = base;
        mine.serving = chosen;
        const core::RunScenario r = core::scenarioFromLog(mine, log, core::io::builtinCatalog(), {core::FieldId::ServingEngine});
        return static_cast<int>(std::count_if(r.settings.begin(), r.settings.end(), [](const core::LogSetting &s) {
            return s.field == core::FieldId::ServingEngine;
        }));
    };
    QCOMPARE(engineRow(core::ServingEngine::Vllm), 0);
    QCOMPARE(engineRow(core::ServingEngine::Generate), 1);
}

void TestRunLogs::calibrationFigures()
{
    const auto log = readOk("{\"allocated_bytes.all.peak\": 1000, \"reserved_bytes.all.peak\": 2000}\n"
                            "name, memory.used [MiB], memory.total [MiB]\nNVIDIA A100-SXM4-80GB, 3, 81920\n");
    const core::Measurement m = core::measurementFromLog(log);
    QCOMPARE(m.allocated->count(), 1000ull);
    QCOMPARE(m.reserved->count(), 2000ull);
    QCOMPARE(m.nvidiaSmi->count(), 3ull * 1048576ull);
    // vLLM: weights + activation peak is torch's allocated peak during profiling.
    const auto vllm = readOk(printed(kVllmTerms, 1.0, 0.5, 0.25, 3.0));
    QCOMPARE(core::measurementFromLog(vllm).allocated->count(), 1342177280ull); // 1.25 GiB
}

void TestRunLogs::fitDeviceNamesMayHoldColons()
{
    // ggml-rpc names its devices by host:port: the figures follow the last
    // colon before them (llama_params_fit's "%s: %6d total, ...").
    const auto r = core::runlog::readRunLog(
        "llama_params_fit:   - RPC0 (10.0.0.2:50052): 24080 total, 30000 used, 5920 deficit\n"
        "common_params_fit_impl: id=0, target=23056 MiB\n");
    QVERIFY(r.ok() && r.warnings.empty());
    const core::runlog::RunLog &log = *r.value;
    QCOMPARE(log.settings.devices.size(), std::size_t(1));
    QCOMPARE(log.settings.devices.front().id, std::string("RPC0"));
    QCOMPARE(log.settings.devices.front().name, std::string("10.0.0.2:50052"));
    QCOMPARE(*log.settings.devices.front().total, core::Bytes::mib(24080));
    // fit.cpp's id is the device's position in the list: RPC0 here.
    QCOMPARE(log.find(Quantity::LlamaFitTarget).front()->device, std::string("RPC0"));
}

void TestRunLogs::cutOffOutOfMemorySwallowsNothing()
{
    // An out-of-memory message cut short by the paste: the lines after it
    // still reach their readers, and the message is named as cut off.
    const auto r = core::runlog::readRunLog(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of\n"
        "load_tensors:        CUDA0 model buffer size =  4096.00 MiB\n"
        "load_tensors:   CPU_Mapped model buffer size =   281.81 MiB\n");
    QVERIFY(r.ok());
    QCOMPARE(r.value->find(Quantity::LlamaModelBuffer).size(), std::size_t(2));
    QCOMPARE(r.value->find(Quantity::TorchOomRequested).size(), std::size_t(0));
    QCOMPARE(r.warnings.size(), std::size_t(1));
}

void TestRunLogs::fitSplitBecomesTheScenarios()
{
    // fit.cpp's placement lines (step 3, then step 4 for the same device):
    // the last per device is the split it runs, -ts 13,20 and -ngl 33.
    const std::string text =
        "common_params_fit_impl:   - CUDA1 (NVIDIA GeForce RTX 3090): 20 layers,  22000 MiB used,   2100 MiB free\n"
        "common_params_fit_impl:   - CUDA0 (NVIDIA GeForce RTX 3090): 10 layers,  12000 MiB used,  12100 MiB free\n"
        "common_params_fit_impl:   - CUDA0 (NVIDIA GeForce RTX 3090): 13 layers ( 0 overflowing),  15000 MiB used,   9100 MiB free\n";
    const core::runlog::RunLog log = readOk(text);
    core::Scenario base;
    base.model = core::io::findPreset("llama-3-8b")->model;
    const core::RunScenario run = core::scenarioFromLog(base, log, core::io::builtinCatalog(), {});
    QCOMPARE(run.scenario.gpus, 2);
    QCOMPARE(run.scenario.tensorSplit, (std::vector<double>{13, 20}));
    QCOMPARE(*run.scenario.gpuLayers, 33ull);
    const core::RunComparison c = core::compareRun(run, log, core::io::builtinCatalog());
    int placedRows = 0;
    for (const core::ComparisonRow &r : c.rows)
        placedRows += r.quantity == "llamacpp.fit_placed" ? 1 : 0;
    QCOMPARE(placedRows, 2); // one per device: CUDA0's step-4 line stands
}

VRAM_TEST_MAIN(tst_runlogs, TestRunLogs, None)
#include "tst_runlogs.moc"
