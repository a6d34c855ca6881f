// TensorRT-LLM's KV pool: its rule (free_gpu_memory_fraction of what the
// weights and the profiled forward leave free, in blocks of 32 tokens)
// worked by hand, fed each real start-up log's own figures
// (tests/data/logs/trtllm-*.log, sources in SOURCES.md), which must land
// within 2 % of the pool the log printed, and planned from the catalog card.

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/modelfiles.h"
#include "core/memory/trtllmpool.h"
#include "core/runs/runcompare.h"
#include "core/runs/runlog.h"
#include "tests/support/datalog.h"
#include "tests/support/presetscenario.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <cmath>

using core::runlog::Quantity;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;


double lastBytes(const core::runlog::RunLog &log, Quantity q)
{
    const auto found = log.find(q);
    return found.empty() ? -1.0 : static_cast<double>(found.back()->bytes.count());
}

double lastNumber(const core::runlog::RunLog &log, Quantity q)
{
    const auto found = log.find(q);
    return found.empty() ? -1.0 : found.back()->number;
}

core::Scenario llama31(const char *weights)
{
    core::Scenario s = testsupport::presetScenario("llama-3.1-8b");
    s.serving = core::ServingEngine::Trtllm;
    s.weights = core::parseFormat(weights);
    return s;
}

} // namespace

class TestTrtllm : public QObject
{
    Q_OBJECT

private slots:
    void poolRuleByHand();
    void readerTakesEveryFigure();
    void logsOwnFiguresGiveItsPool();
    void engineLogsOwnFiguresGiveItsPool();
    void planFromTheCard();
    void allReduceWorkspaceGrowsWithTp();
    void runsOnNvidiaOnly();
};

void TestTrtllm::poolRuleByHand()
{
    // _cal_max_memory: (total - peak + temporary pool) x fraction;
    // (80 - 20 + 0.5) x 0.9 = 54.45 GiB.
    QCOMPARE(core::trtllmPoolBytes(80 * kGiB, 20 * kGiB, 0.5 * kGiB, 0.9), 54.45 * kGiB);
    // 10 GiB at 131,072 B a token is 81,920 tokens, 2,560 blocks of 32;
    // a byte less is one token less and a block less: 81,888.
    QCOMPARE(core::trtllmPoolTokens(10 * kGiB, 131072, 32, false), 81920ull);
    QCOMPARE(core::trtllmPoolTokens(10 * kGiB - 1, 131072, 32, false), 81888ull);
    // Before 1.2.0rc5 the blocks were rounded up (math.ceil): 81,919 tokens
    // are 2,560 blocks, 81,920 tokens.
    QCOMPARE(core::trtllmPoolTokens(10 * kGiB - 1, 131072, 32, true), 81920ull);
    // Nothing free, nothing pooled.
    QCOMPARE(core::trtllmPoolTokens(core::trtllmPoolBytes(10 * kGiB, 20 * kGiB, 0, 0.9), 131072, 32, false), 0ull);

    // The plan, by hand: Llama 3.1 8B in bf16 on an H100 SXM (the catalog's
    // 85,029,615,043 B as torch sees them) less its weights (8,030,261,248 x
    // 2 B), the CUDA context (512 MiB) and the profiled forward of 8,192
    // tokens (8,192 x 2 B x (2 x 4,096 + 3 x 14,336) = 838,860,800 B):
    // 67,593,360,835 B free; x 0.9 / 131,072 B a token (32 layers x 8 KV
    // heads x 128 x 2 x 2 B) = 464,127 tokens, 14,503 blocks of 32: 464,096.
    core::Scenario s = llama31("bf16");
    const core::Estimate e = core::estimate(s);
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    QCOMPARE(gpu.capacity().count(), 85'029'615'043ull);
    QCOMPARE(core::kvTokenBudget(s, e, gpu), 464'096ull);
    // Half the free memory: 67,593,360,835 x 0.5 / 131,072 = 257,848
    // tokens, 8,057 blocks: 257,824.
    s.freeGpuMemoryFraction = 0.5;
    QCOMPARE(core::kvTokenBudget(s, e, gpu), 257'824ull);
}

void TestTrtllm::readerTakesEveryFigure()
{
    // The figures the DGX Spark log prints, copied from its text by hand.
    const core::runlog::RunLog l = testsupport::readDataLog("trtllm-2025-12-gpt-oss-120b-dgx-spark-jeansblog.log");
    QVERIFY(l.has(core::runlog::LogFormat::Trtllm));
    QCOMPARE(lastBytes(l, Quantity::TrtllmWeights), std::round(63.52 * kGiB));
    QCOMPARE(lastBytes(l, Quantity::TrtllmActivations), std::round(0.85 * kGiB));
    QCOMPARE(lastBytes(l, Quantity::TrtllmOutsideTorch), std::round(49.28 * kGiB));
    QCOMPARE(lastBytes(l, Quantity::TrtllmPeak), std::round(113.65 * kGiB));
    QCOMPARE(lastBytes(l, Quantity::TrtllmDeviceTotal), std::round(119.70 * kGiB));
    QCOMPARE(lastBytes(l, Quantity::TrtllmProfilePool), std::round(0.56 * kGiB));
    QCOMPARE(lastBytes(l, Quantity::TrtllmKvBudget), std::round(5.95 * kGiB));
    QCOMPARE(lastNumber(l, Quantity::TrtllmKvBytesPerToken), 73728.0);
    // Two pools: the profile's (8,224 tokens), then the final one.
    const auto tokens = l.find(Quantity::TrtllmKvTokens);
    QCOMPARE(tokens.size(), std::size_t(2));
    QCOMPARE(tokens.front()->number, 8224.0);
    QCOMPARE(tokens.back()->number, 86720.0);
    QCOMPARE(lastBytes(l, Quantity::TrtllmKvPool), std::round(5.95 * kGiB));
    QVERIFY(l.settings.freeGpuMemoryFraction);
    QCOMPARE(l.settings.freeGpuMemoryFraction->value, 0.8999999761581421);
    QVERIFY(l.settings.maxNumTokens && l.settings.maxNumRequests && l.settings.engineVersion);
    QCOMPARE(l.settings.maxNumTokens->value, 8192ull);
    QCOMPARE(l.settings.maxNumRequests->value, 64ull);
    QCOMPARE(l.settings.engineVersion->value, std::string("1.1.0rc3"));

    // A TensorRT engine's log: the free memory after the engine loaded.
    const core::runlog::RunLog engine = testsupport::readDataLog("trtllm-2025-06-llama31-8b-fp8-rtx5090-engine-issue4275.log");
    QCOMPARE(lastBytes(engine, Quantity::TrtllmDeviceTotal), std::round(31.84 * kGiB));
    QCOMPARE(lastBytes(engine, Quantity::TrtllmEngineFree), std::round(17.83 * kGiB));
    QCOMPARE(lastNumber(engine, Quantity::TrtllmKvTokens), 263008.0);
}

void TestTrtllm::logsOwnFiguresGiveItsPool()
{
    // TensorRT-LLM 1.1.0rc3 on a DGX Spark: (119.70 - 113.65 + 0.56) x 0.9
    // = 5.949 GiB at the 73,728 B a token it printed: 86,639 tokens, in
    // blocks of 32 rounded up as 1.1 did, 86,656, against the 86,720 it
    // allocated (the GiB figures are printed to 0.01).
    const core::runlog::RunLog l = testsupport::readDataLog("trtllm-2025-12-gpt-oss-120b-dgx-spark-jeansblog.log");
    const double pool = core::trtllmPoolBytes(lastBytes(l, Quantity::TrtllmDeviceTotal), lastBytes(l, Quantity::TrtllmPeak),
                                              lastBytes(l, Quantity::TrtllmProfilePool),
                                              l.settings.freeGpuMemoryFraction->value);
    const auto tokens =
        static_cast<double>(core::trtllmPoolTokens(pool, lastNumber(l, Quantity::TrtllmKvBytesPerToken), 32, true));
    const double printed = lastNumber(l, Quantity::TrtllmKvTokens);
    QVERIFY2(std::abs(tokens - printed) <= 0.02 * printed,
             qPrintable(QStringLiteral("%1 tokens against %2 printed").arg(tokens).arg(printed)));
    // The planner's bytes per token for gpt-oss-120b are the 73,728 the
    // log printed: 36 layers x 8 KV heads x 64 x 2 x 2 B, the windowed
    // layers too (one window for every layer unless max_attention_window
    // says otherwise).
    const auto config = core::io::loadModelFiles(VRAM_TEST_DATA_DIR "/configs/2026/openai--gpt-oss-120b_config.json");
    QVERIFY(config.ok());
    core::Scenario s;
    s.model = config.value->model;
    s.serving = core::ServingEngine::Trtllm;
    QCOMPARE(core::estimate(s).details.kvBytesPerToken, 73728.0);
}

void TestTrtllm::engineLogsOwnFiguresGiveItsPool()
{
    // TensorRT-LLM 0.19.0, a TensorRT engine of Llama 3.1 8B in FP8 with an
    // FP8 KV cache on an RTX 5090: 0.9 x 17.83 GiB = 16.05 GiB at 65,536 B a
    // token (32 x 8 x 128 x 2 x 1 B): 262,912 tokens in blocks of 32
    // against the 263,008 it allocated.
    const core::runlog::RunLog l = testsupport::readDataLog("trtllm-2025-06-llama31-8b-fp8-rtx5090-engine-issue4275.log");
    core::Scenario s = llama31("fp8");
    s.kvDtype = core::WeightFormat::Fp8;
    core::RunScenario run = core::scenarioFromLog(s, l, core::io::builtinCatalog(), {});
    const core::RunComparison c = core::compareRun(run, l, core::io::builtinCatalog());
    bool compared = false;
    for (const core::ComparisonRow &r : c.rows)
        if (r.term == "kv_cache tokens") {
            compared = true;
            QCOMPARE(r.plannedNumber, 262912.0);
            QVERIFY(std::abs(*r.errorPercent()) <= 2.0);
        }
    QVERIFY(compared);
}

void TestTrtllm::planFromTheCard()
{
    // TensorRT-LLM issue 6294: nvidia/Llama-3.1-8B-Instruct-FP8 (FP8 weights
    // and KV cache) on an H100 PCIe, fraction 0.8, trtllm-bench's
    // max_num_tokens 23,552 and 4,096 requests: 860,320 tokens. The log
    // prints no profile; planned from the catalog card, the pool is within
    // 10 % (the README gives the figure: CUDA graphs up to batch 4,096 are
    // not planned).
    const core::runlog::RunLog l = testsupport::readDataLog("trtllm-2025-07-llama31-8b-fp8-h100pcie-issue6294.log");
    core::Scenario s = llama31("fp8");
    s.kvDtype = core::WeightFormat::Fp8;
    s.gpuId = "h100-pcie-80gb";
    core::RunScenario run = core::scenarioFromLog(s, l, core::io::builtinCatalog(), {});
    QCOMPARE(run.scenario.effectiveFreeGpuMemoryFraction(), 0.8);
    QCOMPARE(run.scenario.maxBatchedTokens, 23552ull);
    QCOMPARE(run.scenario.effectiveMaxNumSeqs(), 4096ull);
    const core::RunComparison c = core::compareRun(run, l, core::io::builtinCatalog());
    bool compared = false;
    for (const core::ComparisonRow &r : c.rows)
        if (r.term == "kv_cache tokens") {
            compared = true;
            QCOMPARE(r.measuredNumber, 860320.0);
            QVERIFY2(std::abs(*r.errorPercent()) <= 10.0, qPrintable(QString::number(*r.errorPercent())));
        }
    QVERIFY(compared);
}

void TestTrtllm::allReduceWorkspaceGrowsWithTp()
{
    // NCCL's 512 MiB, and at TP 4 TensorRT-LLM's all-reduce workspace:
    // 64 MiB x 4 ranks for the IPC buffers and 3 x that for the Lamport
    // buffers, 1,024 MiB a GPU.
    core::Scenario s = llama31("bf16");
    s.gpus = 4;
    s.parallel.tp = 4;
    QCOMPARE(static_cast<double>(core::estimate(s).term(core::TermId::CommBuffers).count()), (512.0 + 1024.0) * kMiB);
    // Before 1.2.0rc5 (PR 9145) max_workspace_size_auto's 8 MB from TP 4:
    // 4 x 8,000,000 x 4 B = 128,000,000 B; 16 MB at TP 2: the same bytes.
    std::optional<core::Message> error;
    core::Scenario older = s;
    older.versions = *core::parseLibraryVersions("tensorrt_llm=1.1", error);
    QCOMPARE(static_cast<double>(core::estimate(older).term(core::TermId::CommBuffers).count()),
             512.0 * kMiB + 128'000'000.0);
    older.gpus = 2;
    older.parallel.tp = 2;
    QCOMPARE(static_cast<double>(core::estimate(older).term(core::TermId::CommBuffers).count()),
             512.0 * kMiB + 128'000'000.0);
    // vLLM has no such workspace: NCCL's rule, and on compute capability
    // 9.0 its FlashInfer fusion's three 512 MiB buffers
    // (tst_deployment vllmFusionWorkspaceFollowsTheCard).
    s.serving = core::ServingEngine::Vllm;
    QCOMPARE(static_cast<double>(core::estimate(s).term(core::TermId::CommBuffers).count()), (512.0 + 3 * 512.0) * kMiB);
}

void TestTrtllm::runsOnNvidiaOnly()
{
    const core::Scenario s = llama31("bf16");
    const core::Catalog &catalog = core::io::builtinCatalog();
    QCOMPARE(core::capabilityWarnings(s, *catalog.find("mi300x")).size(), std::size_t(1));
    QVERIFY(core::capabilityWarnings(s, *catalog.find("h100-sxm5-80gb")).empty());
    // Built and tested for SM80 and later (supported-hardware.html): an
    // A100 (8.0) is fine, a T4 (7.5) is named, in fp16 so that only the
    // engine's own floor speaks.
    core::Scenario fp16 = llama31("fp16");
    QVERIFY(core::capabilityWarnings(fp16, *catalog.find("a100-sxm4-80gb")).empty());
    const std::vector<core::Message> t4 = core::capabilityWarnings(fp16, *catalog.find("t4"));
    QCOMPARE(t4.size(), std::size_t(1));
    QCOMPARE(core::render(t4.front()), std::string("TensorRT-LLM is built for compute capability 8.0 and later; "
                                                   "NVIDIA T4 16GB is 7.5"));
    // No TensorRT-LLM loader reads GGUF; vLLM's does.
    core::Scenario gguf = llama31("gguf-q4_k_m");
    const std::vector<std::string> problems = core::validateScenario(gguf);
    QCOMPARE(problems.size(), std::size_t(1));
    QCOMPARE(problems.front(), std::string("weights: TensorRT-LLM does not load GGUF files"));
    gguf.serving = core::ServingEngine::Vllm;
    QVERIFY(core::validateScenario(gguf).empty());
}

VRAM_TEST_MAIN(tst_trtllm, TestTrtllm, Core)
#include "tst_trtllm.moc"
