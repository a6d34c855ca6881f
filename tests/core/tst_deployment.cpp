// Deployment questions over the engine: a mixed set of GPUs, beams and
// samples, host memory, and the GPUs a request rate needs. Expected values
// are hand calculations written beside each check.
#include "core/analysis/deviceset.h"
#include "core/analysis/fit.h"
#include "core/analysis/performance.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/scenario/fields.h"
#include "core/scenario/stack.h"
#include "core/runs/runlog.h"
#include "tests/support/datalog.h"
#include "tests/support/testregistry.h"

#include "tests/support/presetscenario.h"

#include <QtTest>

#include <cmath>

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// The preset served by vLLM over `tp` tensor-parallel GPUs.
core::Scenario vllmOnRanks(const char *preset, int tp)
{
    core::Scenario s = testsupport::presetScenario(preset);
    s.serving = core::ServingEngine::Vllm;
    s.gpus = tp;
    s.parallel.tp = tp;
    return s;
}


/// Two cards with round capacities, no CUDA context, so the shares are
/// the capacities themselves.
core::Catalog twoCards()
{
    core::GpuSpec big;
    big.id = "big-24";
    big.name = "Big 24 GiB";
    big.memory = core::Bytes::gib(24);
    big.bandwidthGBps = 1000;
    core::GpuSpec small = big;
    small.id = "small-12";
    small.name = "Small 12 GiB";
    small.memory = core::Bytes::gib(12);
    return {{big, small}};
}

} // namespace

class TestDeployment : public QObject
{
    Q_OBJECT

private slots:
    void llamaCppSplitsLayersByFreeMemory();
    void eachDeviceFitsAgainstItsOwnMemory();
    void vllmServesTheSmallestWorkersPool();
    void vllmUtilisationFollowsItsRelease();
    void vllmBudgetLeavesTheContextFrom092();
    void tensorParallelKeepsReplicatedTensorsWhole();
    void pipelineStagesHoldTheirTablesAtTheirWidth();
    void vllmWeightsHoldTheRotaryCache_data();
    void vllmWeightsHoldTheRotaryCache();
    void vllmFusionWorkspaceFollowsTheCard();
    void vllmPipelineCommunicatorsPrecedeTheSnapshot();
    void vllmTakesItsCudaGraphEstimate();
    void pipelineStagesLandOnTheirDevices();
    void unknownDeviceIsNamed();
    void devicesSetTheGpuCount();
    void beamsMultiplyTheKvCache();
    void skippedLayersKeepTheModelDtype();
    void hostMemoryShortfallIsWarned();
    void requestRateGivesReplicas();
    void vllmDecodesWhatItsKvBudgetHolds();
    void vllmAutoContextFitsOneRequest();
    void vllmKvOffloadingTakesHostMemory();
    void variantsEstimateFromTheResult();
};

void TestDeployment::vllmWeightsHoldTheRotaryCache_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("tp");
    // vLLM's "Model loading took" (GiB to 0.01) is what torch allocated for
    // the model: the tensors and the rotary cache its attention keeps in
    // the model's dtype (rotary_embedding/base.py at v0.19.1). By hand:
    // Llama 3.1 8B 2 x 8,030,261,248 B + 131,072 x 128 x 2 B = 14.99 GiB,
    // at TP 2 each rank half the tensors (and its 65 norms whole) and the
    // whole cache = 7.51 GiB; Qwen3-8B 2 x 8,190,735,360 B + 40,960 x 128 x
    // 2 B = 15.27 GiB (without the caches 14.96, 7.48 and 15.26).
    QTest::newRow("Llama 3.1 8B, H100") << "vllm-2026-04-v019-h100-llama31-8b-defaults-llmdplanner.log"
                                        << "llama-3.1-8b" << 1;
    QTest::newRow("Llama 3.1 8B, TP 2") << "vllm-2026-04-v019-h100-tp2-llama31-8b-llmdplanner.log"
                                        << "llama-3.1-8b" << 2;
    QTest::newRow("Qwen3-8B, RTX 4090") << "vllm-2026-08-v0271-mrv2-rtx4090-qwen3-8b-coldstart-recon.log"
                                        << "qwen3-8b" << 1;
}

void TestDeployment::vllmWeightsHoldTheRotaryCache()
{
    QFETCH(QString, log);
    QFETCH(QString, preset);
    QFETCH(int, tp);
    const core::runlog::RunLog l = testsupport::readDataLog(log.toUtf8().constData());
    const auto printed = l.find(core::runlog::Quantity::VllmWeights);
    QVERIFY(!printed.empty());
    const auto measured = static_cast<double>(printed.front()->bytes.count());
    const core::Scenario s = vllmOnRanks(preset.toUtf8().constData(), tp);
    const auto planned = static_cast<double>(core::estimate(s).term(core::TermId::Weights).count());
    const double gib = 1024.0 * 1024.0 * 1024.0;
    QVERIFY2(std::abs(planned - measured) <= 0.005 * gib,
             qPrintable(QStringLiteral("%1 GiB planned against %2").arg(planned / gib).arg(measured / gib)));
}

void TestDeployment::vllmFusionWorkspaceFollowsTheCard()
{
    // vLLM from 0.17 fuses each TP all-reduce with the next RMSNorm in
    // FlashInfer's kernels on compute capability 9.0 and 10.x with PP 1
    // (config/vllm.py enable_allreduce_rms_fusion); its three buffers are
    // each rounded up to the multicast granularity, 512 MiB: 1.5 GiB beside
    // NCCL_BUFFSIZE's 512 MiB.
    const double mib = 1024.0 * 1024.0;
    const core::Catalog &catalog = core::io::builtinCatalog();
    const auto comm = [&](const char *gpu, int tp, int pp, const char *version) {
        core::Scenario s = vllmOnRanks("llama-3.1-8b", tp);
        s.gpus = tp * pp;
        s.parallel.pp = pp;
        std::optional<core::Message> error;
        s.versions = *core::parseLibraryVersions(std::string("vllm=") + version, error);
        s = core::onServingCard(s, *catalog.find(gpu));
        return static_cast<double>(core::estimate(s).term(core::TermId::CommBuffers).count()) / mib;
    };
    QCOMPARE(comm("h100-sxm5-80gb", 2, 1, "0.19.0"), 512.0 + 3 * 512.0);
    QCOMPARE(comm("h200-sxm-141gb", 8, 1, "0.19.0"), 512.0 + 3 * 512.0);
    QCOMPARE(comm("a100-sxm4-80gb", 2, 1, "0.19.0"), 512.0); // compute capability 8.0
    QCOMPARE(comm("h100-sxm5-80gb", 1, 2, "0.19.0"), 512.0); // a pipeline: no fusion
    QCOMPARE(comm("h100-sxm5-80gb", 2, 2, "0.19.0"), 512.0); // TP with PP: off (vLLM issue 35426)
    QCOMPARE(comm("h100-sxm5-80gb", 2, 1, "0.16.0"), 512.0); // -O2 did not fuse yet
    // Experts over two data-parallel ranks of TP 2: vLLM's
    // --data-parallel-size 2 turns the fusion off (vLLM issue 34458).
    core::Scenario moe = vllmOnRanks("qwen3-30b-a3b", 2);
    moe.gpus = 4;
    moe.parallel.ep = 2;
    std::optional<core::Message> moeError;
    moe.versions = *core::parseLibraryVersions("vllm=0.19.0", moeError);
    moe = core::onServingCard(moe, *catalog.find("h100-sxm5-80gb"));
    QCOMPARE(static_cast<double>(core::estimate(moe).term(core::TermId::CommBuffers).count()) / mib, 512.0);

    // The 0.19.0 start on two H100s (tests/data/logs): its profile grew
    // 2.07 GiB outside torch, which the plan takes as the comm buffers and
    // 0.26 GiB; its pool, 63.76 GiB, is planned within 0.5 %.
    const core::runlog::RunLog l = testsupport::readDataLog("vllm-2026-04-v019-h100-tp2-llama31-8b-llmdplanner.log");
    const auto printed = l.find(core::runlog::Quantity::VllmKvCacheMemory);
    QVERIFY(!printed.empty());
    core::Scenario s = vllmOnRanks("llama-3.1-8b", 2);
    s.sequence = 8192;
    s.gpuMemoryUtilization = 0.95;
    std::optional<core::Message> error;
    s.versions = *core::parseLibraryVersions("vllm=0.19.0", error);
    const core::GpuSpec &h100 = *catalog.find("h100-sxm5-80gb");
    s = core::onServingCard(s, h100);
    const core::Estimate e = core::estimate(s);
    const double pool = static_cast<double>(core::kvTokenBudget(s, e, h100)) * e.details.kvBytesPerToken;
    const auto logged = static_cast<double>(printed.front()->bytes.count());
    QVERIFY2(std::abs(pool - logged) <= 0.005 * logged,
             qPrintable(QStringLiteral("%1 GiB planned against %2").arg(pool / (1024 * mib)).arg(logged / (1024 * mib))));
}

void TestDeployment::vllmPipelineCommunicatorsPrecedeTheSnapshot()
{
    // From 0.11 vLLM's init snapshot follows the distributed start, so a
    // pipeline's communicators are in it: vLLM 0.19 at PP 2 on two H100s
    // (tests/data/logs) grew 0.07 GiB outside torch in its profile, and
    // the plan takes 0.26 GiB, not the 512 MiB of NCCL's rule as well. Its
    // smallest worker's pool holds 1,075,312 tokens; planned within 0.5 %.
    const core::runlog::RunLog l = testsupport::readDataLog("vllm-2026-04-v019-h100-pp2-llama31-8b-llmdplanner.log");
    const auto printed = l.find(core::runlog::Quantity::VllmKvCacheTokens);
    QVERIFY(!printed.empty());
    core::Scenario s = vllmOnRanks("llama-3.1-8b", 1);
    s.gpus = 2;
    s.parallel.pp = 2;
    s.sequence = 8192;
    s.gpuMemoryUtilization = 0.95;
    std::optional<core::Message> error;
    s.versions = *core::parseLibraryVersions("vllm=0.19.0", error);
    const core::GpuSpec &h100 = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    s = core::onServingCard(s, h100);
    QCOMPARE(core::profiledNonTorch(s, core::estimate(s)).bytes, core::Bytes::gib(0.26));
    const auto planned = static_cast<double>(core::kvTokenBudget(s, core::estimate(s), h100));
    const double logged = printed.front()->number;
    QVERIFY2(std::abs(planned - logged) <= 0.005 * logged,
             qPrintable(QStringLiteral("%1 tokens planned against %2").arg(planned).arg(logged)));
    // Before 0.11 the snapshot came first: the communicators grew after it.
    s.versions = *core::parseLibraryVersions("vllm=0.10.2", error);
    QCOMPARE(core::profiledNonTorch(s, core::estimate(s)).bytes, core::Bytes::gib(0.26) + core::Bytes::mib(512));
}

void TestDeployment::vllmAutoContextFitsOneRequest()
{
    // --max-model-len auto: the longest context one request's KV cache
    // fits in the pool. Llama 3.1 8B caches 131,072 B a token in every
    // layer, so on an L4 it is the pool's own tokens; on an H100 the pool
    // holds more than the model's 131,072 and auto stops there. Other
    // engines have no such choice.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.serving = core::ServingEngine::Vllm;
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {"l4", "h100-sxm5-80gb"});
    const core::GpuFit *l4 = r.fitFor("l4");
    const core::GpuFit *h100 = r.fitFor("h100-sxm5-80gb");
    QVERIFY(l4 && h100 && l4->hasAutoContext);
    QVERIFY(l4->kvTokens < 131072);
    QCOMPARE(l4->autoContext, l4->kvTokens);
    QVERIFY(h100->kvTokens > 131072);
    QCOMPARE(h100->autoContext, 131072ull);
    s.serving = core::ServingEngine::Sglang;
    QVERIFY(!core::estimateWithFits(s, core::io::builtinCatalog(), {"l4"}).fitFor("l4")->hasAutoContext);
}

void TestDeployment::vllmKvOffloadingTakesHostMemory()
{
    // --kv-offloading-size 64 over tp 2: each rank pins 32 GiB of host
    // memory, the machine 64 GiB; the GPUs hold what they held.
    core::Scenario s = vllmOnRanks("llama-3.1-8b", 2);
    const core::Estimate without = core::estimate(s);
    s.kvOffloadingGib = 64;
    const core::Estimate with = core::estimate(s);
    QCOMPARE(with.total, without.total);
    QCOMPARE(with.details.hostBytesPerGpu, 32.0 * 1024 * 1024 * 1024);
    QCOMPARE(core::hostBytesPerMachine(s, with), 64.0 * 1024 * 1024 * 1024);
}

void TestDeployment::llamaCppSplitsLayersByFreeMemory()
{
    // llama.cpp without --tensor-split splits by free memory: 24 and 12 GiB
    // with no CUDA context are 24,12, so units u (32 layers, then the output
    // layer: 33 units) with u / 33 < 24 / 36 go to the first card: u <= 21,
    // 22 layers; the second holds layers 22-31 (10) and the output.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.serving = core::ServingEngine::LlamaCpp;
    s.cudaOverheadMib = 0;
    s.devices = {"big-24", "small-12"};
    s.gpus = 2;
    const core::Catalog catalog = twoCards();
    const core::Scenario split = core::withDeviceSplit(s, catalog);
    QCOMPARE(split.tensorSplit.size(), std::size_t(2));
    QCOMPARE(split.tensorSplit[0], 24 * kGiB);
    QCOMPARE(split.tensorSplit[1], 12 * kGiB);
    const core::DeviceSetFit set = core::fitDeviceSet(s, catalog);
    QCOMPARE(set.devices.size(), std::size_t(2));
    QCOMPARE(set.devices[0].layers, 22u);
    QCOMPARE(set.devices[1].layers, 10u);
    // The window and the CLI see the same split through estimateWithFits.
    const core::EstimateWithFits result = core::estimateWithFits(s, catalog);
    QCOMPARE(result.scenario.tensorSplit, split.tensorSplit);
    QCOMPARE(result.deviceSet.devices[0].total, set.devices[0].total);
    // An explicit --tensor-split wins over the memory.
    s.tensorSplit = {1, 1};
    QCOMPARE(core::withDeviceSplit(s, catalog).tensorSplit, (std::vector<double>{1, 1}));
}

void TestDeployment::eachDeviceFitsAgainstItsOwnMemory()
{
    // Llama 3 8B in bf16 under tensor parallelism: every rank holds half of
    // ~16 GB of weights whatever its memory, so an 8 GiB card fails where a
    // 24 GiB one fits.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.parallel.tp = 2;
    s.gpus = 2;
    core::Catalog catalog = twoCards();
    catalog.gpus[1].memory = core::Bytes::gib(8);
    s.devices = {"big-24", "small-12"};
    const core::DeviceSetFit set = core::fitDeviceSet(s, catalog);
    QCOMPARE(set.devices.size(), std::size_t(2));
    QCOMPARE(set.devices[0].total, set.devices[1].total);
    QVERIFY(set.devices[0].fits);
    QVERIFY(!set.devices[1].fits);
    QVERIFY(!set.fits);
    QCOMPARE(set.devices[1].shortfall, set.devices[1].total - core::Bytes::gib(8));
    QCOMPARE(set.devices[1].headroomBytes(), -static_cast<long long>(set.devices[1].shortfall.count()));
    QVERIFY(!set.notes.empty()); // the smallest card bounds the set
}

void TestDeployment::vllmServesTheSmallestWorkersPool()
{
    // vLLM takes the minimum number of KV blocks over its workers.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.serving = core::ServingEngine::Vllm;
    s.parallel.tp = 2;
    s.gpus = 2;
    s.devices = {"big-24", "small-12"};
    const core::Catalog catalog = twoCards();
    const core::DeviceSetFit set = core::fitDeviceSet(s, catalog);
    QVERIFY(set.hasKvTokens);
    QVERIFY(set.devices[0].kvTokens > set.devices[1].kvTokens);
    QCOMPARE(set.kvTokens, set.devices[1].kvTokens);
    QCOMPARE(set.notes.size(), std::size_t(2)); // the smallest bounds; vLLM's pool
}

void TestDeployment::pipelineStagesLandOnTheirDevices()
{
    // Megatron-LM orders ranks tp, dp, pp: with 4 GPUs, pp 2 and no tp,
    // devices 0-1 are the first stage and 2-3 the last.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.mode = core::Mode::Train;
    s.parallel.pp = 2;
    s.gpus = 4;
    s.devices = {"big-24", "big-24", "small-12", "small-12"};
    const core::DeviceSetFit set = core::fitDeviceSet(s, twoCards());
    const std::vector<core::Estimate> stages = core::estimateStages(s);
    QCOMPARE(stages.size(), std::size_t(2));
    QCOMPARE(set.devices[0].total, stages.front().total);
    QCOMPARE(set.devices[1].total, stages.front().total);
    QCOMPARE(set.devices[2].total, stages.back().total);
    QCOMPARE(set.devices[3].total, stages.back().total);
    QVERIFY(!set.hasKvTokens);
}

void TestDeployment::unknownDeviceIsNamed()
{
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.devices = {"big-24", "no-such-gpu"};
    s.gpus = 2;
    const core::EstimateWithFits result = core::estimateWithFits(s, twoCards());
    QVERIFY(!result.estimate.isValid());
    QVERIFY(QString::fromStdString(core::render(result.estimate.errors.front())).contains("'no-such-gpu' is not a catalog GPU"));
}

void TestDeployment::devicesSetTheGpuCount()
{
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    const core::FieldDescriptor &f = core::field(core::FieldId::Devices);
    std::optional<core::Message> error;
    const auto value = core::parseFieldValue(f, "rtx-4090, rtx-3090,a100-sxm4-80gb", error);
    QVERIFY2(value, (error ? core::render(*error) : std::string()).c_str());
    f.assign(s, *value);
    QCOMPARE(s.gpus, 3);
    QCOMPARE(s.devices, (std::vector<std::string>{"rtx-4090", "rtx-3090", "a100-sxm4-80gb"}));
    QVERIFY(!core::parseFieldValue(f, "rtx-4090,,rtx-3090", error));
    s.gpus = 2; // changed afterwards: the list no longer matches
    QVERIFY(!core::estimate(s).isValid());
}

void TestDeployment::skippedLayersKeepTheModelDtype()
{
    // vLLM --kv-cache-dtype fp8 --kv-cache-dtype-skip-layers 0,31 on Llama 3
    // 8B (32 layers of 8 KV heads x 128: 2 x 1024 values per layer-token):
    // 30 layers at 1 byte and 2 at bf16's 2 bytes, 2048 x (30 + 4) =
    // 69,632 bytes per token, against 65,536 with every layer in fp8.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.serving = core::ServingEngine::Vllm;
    s.weights = core::WeightFormat::Bf16;
    s.kvDtype = core::WeightFormat::Fp8;
    const double allFp8 = core::estimate(s).details.kvBytesPerToken;
    QCOMPARE(allFp8, 65536.0);
    s.kvSkipLayers = {"0", "31", "31"};
    QVERIFY(core::validateScenario(s).empty());
    QCOMPARE(core::estimate(s).details.kvBytesPerToken, 69632.0);
    // Gemma 3 12B: sliding_window names every windowed layer (40 of 48),
    // whose cache then keeps bf16; the 8 full layers stay fp8.
    core::Scenario g = testsupport::presetScenario("gemma-3-12b-it");
    g.serving = core::ServingEngine::Vllm;
    g.weights = core::WeightFormat::Bf16;
    g.kvDtype = core::WeightFormat::Fp8;
    const double fp8 = core::estimate(g).details.kvBytesPerToken;
    g.kvSkipLayers = {"sliding_window"};
    const double skipped = core::estimate(g).details.kvBytesPerToken;
    g.kvDtype.reset();
    const double bf16 = core::estimate(g).details.kvBytesPerToken;
    // Each kind's share of a token's bytes: fp8 is half of bf16 in both.
    const double windowedShare = 40.0 / 48.0;
    QCOMPARE(skipped, fp8 * (1 - windowedShare) + bf16 * windowedShare);
    // Entries that are neither an index below the layer count nor the
    // attention type are refused, naming the entry.
    s.kvSkipLayers = {"32"};
    QVERIFY(QString::fromStdString(core::validateScenario(s).front()).contains("'32'"));
    // llama.cpp has no such option: the field applies to vLLM only.
    QVERIFY(core::field(core::FieldId::KvSkipLayers).applies(s));
    s.serving = core::ServingEngine::LlamaCpp;
    QVERIFY(!core::field(core::FieldId::KvSkipLayers).applies(s));
}

void TestDeployment::beamsMultiplyTheKvCache()
{
    // Llama-2-7B keeps 512 KiB of bf16 KV per token (32 layers x 2 x 4096 x
    // 2 B); 2 prompts x 4 beams x 2048 tokens = 16,384 cached tokens = 8 GiB.
    core::Scenario s = testsupport::presetScenario("llama-2-7b");
    s.batch = 2;
    s.beams = 4;
    s.sequence = 2048;
    QCOMPARE(core::estimate(s).term(core::TermId::KvCache), core::Bytes::gib(8));
    // generate() expands the prompts before the prefill: the same as a batch
    // of eight in every term.
    core::Scenario eight = s;
    eight.batch = 8;
    eight.beams = 1;
    QCOMPARE(core::estimate(s).terms, core::estimate(eight).terms);
    // llama.cpp gives each sequence its own stream of cells.
    s.serving = core::ServingEngine::LlamaCpp;
    eight.serving = core::ServingEngine::LlamaCpp;
    QCOMPARE(core::estimate(s).term(core::TermId::KvCache), core::estimate(eight).term(core::TermId::KvCache));
}

void TestDeployment::hostMemoryShortfallIsWarned()
{
    // Llama 3 8B in llama.cpp with no GPU layers keeps its weights on the
    // host (~16 GB in bf16): more than 8 GiB of RAM, less than 64.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.serving = core::ServingEngine::LlamaCpp;
    s.gpuLayers = 0;
    const core::Estimate e = core::estimate(s);
    QVERIFY(core::hostBytesPerMachine(s, e) > 14 * kGiB);
    const auto warned = [](const core::Estimate &estimate) {
        for (const core::Message &w : estimate.warnings)
            if (QString::fromUtf8(w.text).startsWith("host memory"))
                return true;
        return false;
    };
    QVERIFY(!warned(e));
    // The host side by term adds up to it: with no GPU layers every weight
    // and the whole KV cache (it follows its layers) are on the host.
    const core::TermBytes &host = e.details.hostTermsPerGpu;
    core::Bytes sum;
    for (const core::Bytes b : host)
        sum = sum + b;
    QCOMPARE(static_cast<double>(sum.count()), e.details.hostBytesPerGpu);
    QVERIFY(host[static_cast<std::size_t>(core::TermId::Weights)] > core::Bytes::gib(14));
    QVERIFY(host[static_cast<std::size_t>(core::TermId::KvCache)] > core::Bytes());
    s.hostMemoryGib = 8;
    QVERIFY(warned(core::estimate(s)));
    s.hostMemoryGib = 64;
    QVERIFY(!warned(core::estimate(s)));
    // The host memory field takes GiB, or a size with its unit: 64 GB is
    // 64e9 / 2^30 = 59.6046... GiB.
    std::optional<core::Message> error;
    const auto size = core::parseFieldValue(core::field(core::FieldId::HostMemory), "64GB", error);
    QVERIFY2(size, (error ? core::render(*error) : std::string()).c_str());
    QCOMPARE(std::get<double>(*size), 64e9 / kGiB);
    QVERIFY(!core::parseFieldValue(core::field(core::FieldId::HostMemory), "64XB", error));

    // ZeRO-Offload on 8 GPUs keeps each rank's fp32 master weights (4 B),
    // fp32 gradients (4 B) and Adam's two fp32 moments (8 B) per trained
    // parameter, an eighth of them each: 16 x P / 8 bytes per GPU.
    core::Scenario t = testsupport::presetScenario("llama-2-7b");
    t.mode = core::Mode::Train;
    t.gpus = 8;
    t.zeroStage = 2;
    t.parallel.offload = core::Offload::Optimizer;
    const core::Estimate offloaded = core::estimate(t);
    const double P = static_cast<double>(offloaded.details.params.total);
    QVERIFY(std::abs(offloaded.details.hostBytesPerGpu - 16.0 * P / 8.0) < 8);
    QVERIFY(std::abs(static_cast<double>(offloaded.details.hostTermsPerGpu[static_cast<std::size_t>(core::TermId::Gradients)].count())
                     - 4.0 * P / 8.0) < 2);
    QCOMPARE(core::hostBytesPerMachine(t, offloaded), offloaded.details.hostBytesPerGpu * 8);
}

void TestDeployment::requestRateGivesReplicas()
{
    // generate() on an A100: each request is a prefill of its prompt (2048 -
    // 256 = 1792 tokens) at the prefill rate, then 256 decode steps, which
    // the batch's rows share: 1 / (1792 / prefill + 256 / decode) requests/s
    // with decode in tokens/s for the whole batch.
    core::Scenario s = testsupport::presetScenario("llama-2-7b");
    s.sequence = 2048;
    s.batch = 4;
    s.workload.outputTokens = 256;
    s.workload.requestRate = 50;
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("a100-sxm4-80gb");
    const core::Performance p = core::performance(s, core::estimate(s), gpu);
    QCOMPARE(p.servingRows, 4u);
    const double expected = 1.0 / (1792.0 / p.prefillTokensPerSecond + 256.0 / p.decodeTokensPerSecond);
    QVERIFY(std::abs(p.requestsPerSecond - expected) < 1e-9 * expected);
    QCOMPARE(p.gpusForRequestRate, static_cast<int>(std::ceil(50.0 / expected)));
    // Two GPUs per replica double the GPUs of each replica.
    s.gpus = 2;
    const core::Performance two = core::performance(s, core::estimate(s), gpu);
    QCOMPARE(two.gpusForRequestRate % 2, 0);
}

void TestDeployment::vllmDecodesWhatItsKvBudgetHolds()
{
    // vLLM keeps as many sequences running as its KV budget holds, up to
    // max_num_seqs: min(256, KV tokens / context).
    core::Scenario s = testsupport::presetScenario("llama-2-7b");
    s.serving = core::ServingEngine::Vllm;
    s.sequence = 4096;
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("a100-sxm4-80gb");
    const core::Estimate e = core::estimate(s);
    const std::uint64_t byKv = core::kvTokenBudget(s, e, gpu) / 4096;
    QVERIFY(byKv > 0 && byKv < 256); // 80 GiB holds fewer than 256 such sequences
    QCOMPARE(core::performance(s, e, gpu).servingRows, byKv);
    s.maxNumSeqs = 8;
    QCOMPARE(core::performance(s, e, gpu).servingRows, 8u);
}


void TestDeployment::variantsEstimateFromTheResult()
{
    // The views' variants of the controller's estimate (the Deploy view's
    // full concurrency, the cluster panel's per-rank bars) come from what
    // the estimate prepared, and agree with estimating them afresh.
    core::Scenario s = testsupport::presetScenario("llama-3-8b");
    s.mode = core::Mode::Train;
    s.parallel.pp = 2;
    s.gpus = 2;
    const core::EstimateWithFits result = core::estimateWithFits(s, twoCards(), {"big-24"});
    QVERIFY(result.prepared);
    const std::vector<core::Estimate> stages = core::estimateStages(result);
    const std::vector<core::Estimate> afresh = core::estimateStages(s);
    QCOMPARE(stages.size(), std::size_t(2));
    QCOMPARE(stages.size(), afresh.size());
    for (std::size_t i = 0; i < stages.size(); ++i)
        QCOMPARE(stages[i].terms, afresh[i].terms);

    core::Scenario filled = s;
    filled.batch = 7 * s.batch;
    QCOMPARE(core::estimateVariant(result, filled).terms, core::estimate(filled).terms);
    filled.batch = 0; // out of range: refused as estimate(filled) refuses it
    QCOMPARE(core::estimateVariant(result, filled).errors, core::estimate(filled).errors);
}

void TestDeployment::vllmTakesItsCudaGraphEstimate()
{
    // From 0.21 vLLM takes the CUDA-graph memory it estimated from the KV
    // budget: 1.5 GiB at Llama 3 8B's 131,072 B a token (32 layers x 8 KV
    // heads x 128 x 2 x 2 B) is 12,288 tokens fewer, exactly.
    // vLLM 0.24: V1's model runner for this dense model.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3-8b")->model;
    s.serving = core::ServingEngine::Vllm;
    std::optional<core::Message> error;
    s.versions = *core::parseLibraryVersions("vllm=0.24", error);
    const core::Catalog &catalog = core::io::builtinCatalog();
    const core::GpuSpec &h100 = *catalog.find("h100-sxm5-80gb");
    const std::uint64_t without = core::kvTokenBudget(s, core::estimate(s), h100);
    s.cudaGraphMemoryGib = 1.5;
    QCOMPARE(without - core::kvTokenBudget(s, core::estimate(s), h100), 12'288ull);
    // Model Runner V2 reserved none until 0.29 (profile_cudagraph_memory
    // returned 0; PR 53306), then as V1 does.
    core::Scenario v2 = s;
    v2.versions = *core::parseLibraryVersions("vllm=0.25", error);
    core::Scenario v2Without = v2;
    v2Without.cudaGraphMemoryGib.reset();
    QCOMPARE(core::kvTokenBudget(v2, core::estimate(v2), h100),
             core::kvTokenBudget(v2Without, core::estimate(v2Without), h100));
    v2.versions = *core::parseLibraryVersions("vllm=0.29", error);
    v2Without.versions = v2.versions;
    QCOMPARE(core::kvTokenBudget(v2Without, core::estimate(v2Without), h100)
                 - core::kvTokenBudget(v2, core::estimate(v2), h100),
             12'288ull);
    // Before 0.21 it was estimated but left in the budget; on ROCm not
    // estimated at all.
    core::Scenario older = s;
    older.versions = *core::parseLibraryVersions("vllm=0.20", error);
    older.gpuMemoryUtilization = 0.92;
    QCOMPARE(core::kvTokenBudget(older, core::estimate(older), h100), without);
    const core::GpuSpec &mi300x = *catalog.find("mi300x");
    core::Scenario amd = core::onServingCard(s, mi300x);
    core::Scenario amdWithout = amd;
    amdWithout.cudaGraphMemoryGib.reset();
    QCOMPARE(core::kvTokenBudget(amd, core::estimate(amd), mi300x),
             core::kvTokenBudget(amdWithout, core::estimate(amdWithout), mi300x));
}

void TestDeployment::vllmBudgetLeavesTheContextFrom092()
{
    // From 0.9.2 vLLM's budget takes what grew after its init snapshot
    // (0.26 GiB, the median of its logs' figures) instead of the CUDA
    // context (512 MiB) that was there before it: 536,870,912 -
    // 0.26 x 2^30 = 257,698,038 B more for the KV cache, over Llama 3 8B's
    // 131,072 B a token, 1,966 tokens more (one more or less by flooring).
    core::Scenario s;
    s.model = core::io::findPreset("llama-3-8b")->model;
    s.serving = core::ServingEngine::Vllm;
    s.gpuMemoryUtilization = 0.9;
    std::optional<core::Message> error;
    const core::GpuSpec &h100 = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    const auto budget = [&](const char *version) {
        s.versions = *core::parseLibraryVersions(std::string("vllm=") + version, error);
        return static_cast<double>(core::kvTokenBudget(s, core::estimate(s), h100));
    };
    const double before = budget("0.9.1");
    const double after = budget("0.9.2");
    const double expected = (536870912.0 - 0.26 * 1073741824.0) / 131072.0;
    QVERIFY2(std::abs(after - before - expected) <= 1.0, qPrintable(QString::number(after - before)));
    QVERIFY(core::versionRuleHolds(s.versions, core::VersionRule::VllmBudgetFromSnapshot));
}

void TestDeployment::pipelineStagesHoldTheirTablesAtTheirWidth()
{
    // gpt-oss-20b (MXFP4 experts, the rest in bf16) as a vLLM pipeline of
    // two stages: each holds 12 of the 24 layers and one of the untied
    // 201,088 x 2880 tables, the embedding or the lm_head, at 2 B a
    // parameter whatever the experts' width; and vLLM's rotary cache
    // (131,072 positions x 64 x 2 B). Priced at the checkpoint's mean byte
    // the stage held 0.5 GiB less.
    core::Scenario s = vllmOnRanks("gpt-oss-20b", 1);
    s.gpus = 2;
    s.parallel.pp = 2;
    const core::Estimate e = core::estimate(s);
    const double table = 201088.0 * 2880 * 2;
    const double layers = static_cast<double>(e.details.weightBytesTotal) - 2 * table;
    const double expected = layers / 2 + table + 131072.0 * 64 * 2;
    const double planned = static_cast<double>(e.term(core::TermId::Weights).count());
    QVERIFY2(std::abs(planned - expected) <= 1.0, qPrintable(QString::number(planned - expected)));
}

void TestDeployment::tensorParallelKeepsReplicatedTensorsWhole()
{
    // Qwen3-235B-A22B in bf16 on 8 ranks: vLLM's routers (ReplicatedLinear)
    // and norms are whole on every rank, 94 x (128 x 4096 + 2 x 4096 +
    // 2 x 128) + 4096 = 50,081,280 parameters; its 4 key-value heads go to
    // 4 ranks, each repeated on 2 (QKVParallelLinear), so k_proj and v_proj,
    // 94 x 2 x 4096 x 512 = 394,264,576, split 4 ways; the rest 8 ways.
    const core::Scenario s = vllmOnRanks("qwen3-235b-a22b", 8);
    const double total = 235093634560.0;
    const double replicated = 94.0 * (128 * 4096 + 2 * 4096 + 2 * 128) + 4096;
    const double keyValue = 94.0 * 2 * 4096 * 512;
    // Each rank also builds vLLM's rotary cache, 40,960 positions x 128 x
    // 2 B (bf16).
    const double rotary = 40960.0 * 128 * 2;
    const double expected = 2.0 * ((total - replicated - keyValue) / 8 + replicated + keyValue / 4) + rotary;
    const double weights = static_cast<double>(core::estimate(s).term(core::TermId::Weights).count());
    QVERIFY2(std::abs(weights - expected) <= 1.0, qPrintable(QString::number(weights - expected)));

    // DeepSeek-V3 (fp8 checkpoint) on 8 ranks: MLA's q_a_proj (7168 ->
    // 1536) and kv_a_proj_with_mqa (7168 -> 512 + 64) in all 61 layers,
    // the 58 MoE layers' routers (256 x 7168) with their correction bias,
    // and the norms (per layer 2 x 7168 + q_a 1536 + kv_a 512, and the
    // final 7168) are whole on every rank: 1,030,919,680 parameters.
    const core::Scenario v3 = vllmOnRanks("deepseek-v3", 8);
    const double mla = 61.0 * 7168 * (1536 + 576);
    const double routers = 58.0 * (256 * 7168 + 256);
    const double norms = 61.0 * (2 * 7168 + 1536 + 512) + 7168;
    const double whole = mla + routers + norms;
    QCOMPARE(static_cast<double>(core::countParameters(v3.model).at(core::WeightPlacement::Replicated).total), whole);
    const core::Estimate e = core::estimate(v3);
    const double bytes = static_cast<double>(e.details.weightBytesTotal);
    // Each rank holds the whole part at its own width: the linear weights
    // (MLA's projections, the routers) at the preset's fp8 byte, the norms
    // and correction biases in bf16; the rest of the bytes an eighth each.
    const double wholeBytes = (mla + 58.0 * 256 * 7168) * 1.0 + (58.0 * 256 + norms) * 2;
    // With MLA's rotary cache on every rank: 163,840 positions x 64 x 2 B.
    const double mlaRotary = 163840.0 * 64 * 2;
    const double planned = static_cast<double>(e.term(core::TermId::Weights).count());
    QVERIFY2(std::abs(planned - ((bytes - wholeBytes) / 8 + wholeBytes) - mlaRotary) <= 1.0,
             qPrintable(QString::number(planned - ((bytes - wholeBytes) / 8 + wholeBytes) - mlaRotary)));

    // Twelve key-value heads go neither evenly over 8 ranks nor 8 ranks
    // evenly over them: vLLM refuses, and so does the plan.
    core::Scenario uneven = s;
    uneven.model.heads = 96;
    uneven.model.kvHeads = 12;
    const std::vector<core::Message> problems = core::scenarioProblems(uneven);
    QVERIFY(std::any_of(problems.begin(), problems.end(), [](const core::Message &m) {
        return m.text == std::string("tp: must divide the key-value heads (%1) or be a multiple of them");
    }));
}

void TestDeployment::vllmUtilisationFollowsItsRelease()
{
    // vLLM 0.21 (PR 38284) profiles CUDA-graph memory by default and raised
    // gpu_memory_utilization from 0.9 to 0.92: the KV budget on an A100 80GB
    // grows by 0.02 of the card, over the model's KV bytes per token. The
    // batch defaults, which follow the card, are set.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3-8b")->model;
    s.serving = core::ServingEngine::Vllm;
    s.maxNumSeqs = 256;
    s.maxBatchedTokens = 8192;
    QCOMPARE(s.effectiveGpuMemoryUtilization(), 0.92);
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("a100-sxm4-80gb");
    const core::Estimate now = core::estimate(s);
    const std::uint64_t current = core::kvTokenBudget(s, now, gpu);
    core::Scenario then = s;
    std::optional<core::Message> error;
    const core::FieldDescriptor &engineVersion = core::field(core::FieldId::EngineVersion);
    const auto parsed = core::parseFieldValue(engineVersion, "0.20", error);
    QVERIFY2(parsed, (error ? core::render(*error) : std::string()).c_str());
    engineVersion.assign(then, *parsed);
    QCOMPARE(then.versions.of(core::Library::Vllm), std::optional(core::Version{0, 20, 0}));
    QCOMPARE(then.effectiveGpuMemoryUtilization(), 0.9);
    const double perToken = now.details.kvBytesPerToken;
    const double grown = 0.02 * static_cast<double>(gpu.capacity().count()) / perToken;
    const std::uint64_t older = core::kvTokenBudget(then, core::estimate(then), gpu);
    QVERIFY(std::abs(static_cast<double>(current - older) - grown) <= 1.0);
    // The rule is named with its release, holding or not.
    const auto used = core::versionRulesUsed(then);
    const auto utilisation = std::find_if(used.begin(), used.end(), [](const core::VersionRuleUse &u) {
        return std::string(u.rule->id) == "vllm_utilization_092";
    });
    QVERIFY(utilisation != used.end());
    QVERIFY(!utilisation->holds);
    // An explicit share still wins; other engines keep 0.9.
    then.gpuMemoryUtilization = 0.85;
    QCOMPARE(then.effectiveGpuMemoryUtilization(), 0.85);
    s.serving = core::ServingEngine::Generate;
    QCOMPARE(s.effectiveGpuMemoryUtilization(), 0.9);
    // kv_cache_memory_bytes sets each GPU's pool directly: 20 GiB of Llama
    // 3 8B's 131,072 B a token (32 layers x 8 KV heads x 128 x 2 x 2 B) is
    // 163,840 tokens, whatever the share.
    s.serving = core::ServingEngine::Vllm;
    s.kvCacheMemoryGib = 20;
    QCOMPARE(core::kvTokenBudget(s, core::estimate(s), gpu), 163'840ull);
    // SGLang has no such setting: the field does not apply there.
    s.serving = core::ServingEngine::Sglang;
    QVERIFY(!core::field(core::FieldId::KvCacheMemory).applies(s));
}

VRAM_TEST_MAIN(tst_deployment, TestDeployment, None)
#include "tst_deployment.moc"
