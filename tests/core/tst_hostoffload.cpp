// Inference with weights in host memory that run on the GPU: generate()'s
// device_map with CPU offload (--gpu-layers) and vLLM --cpu-offload-gb, and
// the most layers each GPU holds. Expected values are hand calculations
// from the models' shapes, written beside each check.
#include "core/analysis/fit.h"
#include "core/analysis/performance.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"

#include "tests/support/presetscenario.h"

#include <QtTest>

#include <cmath>

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

core::Scenario inference(const char *preset)
{
    core::Scenario s = testsupport::presetScenario(preset);
    s.sequence = 4096;
    return s;
}

double bytesOf(const core::Estimate &e, core::TermId id) { return static_cast<double>(e.term(id).count()); }

// Llama 3 70B (hidden 8192, MLP 28672, 64 heads of 128, 8 KV heads, 80
// layers, vocabulary 128,256, untied): a layer is q and o 8192 x 8192, k and
// v 8192 x 1024, gate, up and down 8192 x 28672 and two norms of 8192.
constexpr double kLayer70b = 2 * 8192.0 * 8192 + 2 * 8192.0 * 1024 + 3 * 8192.0 * 28672 + 2 * 8192;
constexpr double kTable70b = 128256.0 * 8192; // the embedding, and the lm_head
// All that is neither embedding nor lm_head: the layers and the final norm.
constexpr double kBody70b = 80 * kLayer70b + 8192;

} // namespace

class TestHostOffload : public QObject
{
    Q_OBJECT

private slots:
    void deviceMapKeepsTheFirstLayersOnTheGpu();
    void deviceMapDecodeCrossesTheHostLink();
    void deviceMapTakesNoTensorParallelism();
    void vllmOffloadsItsBudgetPerGpu();
    void vllmOffloadIsCappedAtTheLayers();
    void vllmOffloadGrowsTheKvBudget();
    void mostGpuLayersThatFit();
};

void TestHostOffload::deviceMapKeepsTheFirstLayersOnTheGpu()
{
    core::Scenario s = inference("llama-3-70b");
    QCOMPARE(static_cast<double>(core::countParameters(s.model).total), kBody70b + 2 * kTable70b); // 70,553,706,496
    s.gpuLayers = 10;
    const core::Estimate e = core::estimate(s);
    QVERIFY2(e.isValid(), e.errors.empty() ? "" : core::render(e.errors.front()).c_str());
    // bf16: the embedding, layers 0-9 and, while it runs, the largest
    // offloaded module, here the lm_head (1.05B against a layer's 0.86B).
    const double gpu = 2 * (kTable70b + 10.0 / 80 * kBody70b + kTable70b);
    QCOMPARE(bytesOf(e, core::TermId::Weights), std::round(gpu)); // 21,315,782,656 B
    // Host: layers 10-79 and the lm_head.
    const double host = 2 * (70.0 / 80 * kBody70b + kTable70b); // 121,892,976,640 B
    QCOMPARE(std::round(core::hostBytesPerMachine(s, e)), std::round(host));
    // Every layer runs on the GPU, so the KV cache is all 80 layers':
    // 2 x 8 heads x 128 x 2 B x 80 x 4096 tokens = 1.25 GiB.
    QCOMPARE(bytesOf(e, core::TermId::KvCache), 2.0 * 8 * 128 * 2 * 80 * 4096);
    // All 80 layers and the lm_head on the GPU is no offload: 81 = unset.
    s.gpuLayers = 81;
    const core::Estimate whole = core::estimate(s);
    QCOMPARE(bytesOf(whole, core::TermId::Weights), 2 * (kBody70b + 2 * kTable70b));
    QCOMPARE(core::hostBytesPerMachine(s, whole), 0.0);
}

void TestHostOffload::deviceMapDecodeCrossesTheHostLink()
{
    core::Scenario s = inference("llama-3-70b");
    s.gpuLayers = 10;
    s.hostLinkGBps = 25;
    const core::Estimate e = core::estimate(s);
    core::GpuSpec gpu;
    gpu.bandwidthGBps = 1000;
    const core::Performance p = core::performance(s, e, gpu);
    // One step: the GPU's weights and KV cache at 1000 GB/s, then every
    // offloaded byte over the 25 GB/s link.
    const double gpuSeconds = (bytesOf(e, core::TermId::Weights) + bytesOf(e, core::TermId::KvCache)) / 1000e9;
    const double linkSeconds = 2 * (70.0 / 80 * kBody70b + kTable70b) / 25e9; // 4.88 s
    QVERIFY(std::abs(p.decodeTokensPerSecond - 1.0 / (gpuSeconds + linkSeconds)) < 1e-9);
    QVERIFY(p.decodeTokensPerSecond < 25e9 / (2 * 70.0 / 80 * kBody70b)); // never above the link's roofline
}

void TestHostOffload::deviceMapTakesNoTensorParallelism()
{
    core::Scenario s = inference("llama-3-8b");
    s.gpuLayers = 16;
    s.gpus = 2;
    s.parallel.tp = 2;
    const core::Estimate e = core::estimate(s);
    QVERIFY(!e.isValid());
    QVERIFY(core::render(e.errors.front()).rfind("serving.gpu_layers:", 0) == 0);
}

void TestHostOffload::vllmOffloadsItsBudgetPerGpu()
{
    core::Scenario s = inference("llama-3-8b");
    s.serving = core::ServingEngine::Vllm;
    s.cpuOffloadGib = 10;
    const core::Estimate e = core::estimate(s);
    QVERIFY(e.isValid());
    // Llama 3 8B in bf16 is 2 x 8,030,261,248 B; 10 GiB of it stays on the
    // host. vLLM's rotary cache (8,192 positions x 128 x 2 B) stays on the
    // GPU, and no step reads it whole.
    const double rotary = 8192.0 * 128 * 2;
    QCOMPARE(bytesOf(e, core::TermId::Weights), 2 * 8030261248.0 - 10 * kGiB + rotary); // 5,325,201,408 B
    QCOMPARE(core::hostBytesPerMachine(s, e), 10 * kGiB);
    core::GpuSpec gpu;
    gpu.bandwidthGBps = 448;
    gpu.memory = core::Bytes::gib(8);
    s.hostLinkGBps = 25;
    const core::Performance p = core::performance(s, e, gpu);
    const double step =
        (bytesOf(e, core::TermId::Weights) - rotary + bytesOf(e, core::TermId::KvCache)) / 448e9 + 10 * kGiB / 25e9;
    QVERIFY(std::abs(p.decodeTokensPerSecond - 1.0 / step) < 1e-9); // 2.3 tokens/s
}

void TestHostOffload::vllmOffloadIsCappedAtTheLayers()
{
    core::Scenario s = inference("llama-3-8b");
    s.serving = core::ServingEngine::Vllm;
    s.gpus = 2;
    s.parallel.tp = 2;
    s.cpuOffloadGib = 10;
    const core::Estimate e = core::estimate(s);
    QVERIFY(e.isValid());
    // Each rank holds half of every tensor, 8,030,261,248 B, and the 65
    // norms of 4,096 whole (vLLM's RMSNorm is not split): 266,240 B more.
    // Its layers are all but the embedding and lm_head (128,256 x 4096
    // each), less than 10 GiB: they all go; the two tables' halves stay,
    // with vLLM's rotary cache (8,192 x 128 x 2 B).
    QCOMPARE(bytesOf(e, core::TermId::Weights), 2 * 128256.0 * 4096 + 8192.0 * 128 * 2); // 1,052,770,304 B
    const double norms = 65.0 * 4096 * 2 / 2;
    QCOMPARE(core::hostBytesPerMachine(s, e), 2 * (8030261248.0 - 2 * 128256.0 * 4096 + norms));
}

void TestHostOffload::vllmOffloadGrowsTheKvBudget()
{
    core::Scenario s = inference("llama-3-8b");
    s.serving = core::ServingEngine::Vllm;
    core::GpuSpec card;
    card.memory = core::Bytes::gib(24);
    const std::uint64_t without = core::kvTokenBudget(s, core::estimate(s), card);
    s.cpuOffloadGib = 4;
    const std::uint64_t with = core::kvTokenBudget(s, core::estimate(s), card);
    // 4 GiB more for the cache at 2 x 8 x 128 x 2 B x 32 layers = 128 KiB a token.
    QCOMPARE(with - without, std::uint64_t{32768}); // 4 GiB / 128 KiB, exactly
}

void TestHostOffload::mostGpuLayersThatFit()
{
    core::Scenario s = inference("llama-3-70b");
    s.weights = core::WeightFormat::GgufQ4KM;
    s.serving = core::ServingEngine::LlamaCpp;
    core::GpuSpec gpu;
    gpu.id = "card-24";
    gpu.name = "24 GiB card";
    gpu.memory = core::Bytes::gib(24);
    const core::EstimateWithFits r = core::estimateWithFits(s, core::Catalog{{gpu}});
    QCOMPARE(r.fits.size(), std::size_t{1});
    const core::GpuFit &fit = r.fits.front();
    QVERIFY(fit.hasGpuLayers);
    // The boundary itself: that many layers fit and one more does not.
    QVERIFY(fit.maxGpuLayers > 0 && fit.maxGpuLayers < 80);
    s.gpuLayers = static_cast<std::uint64_t>(fit.maxGpuLayers);
    QVERIFY(core::estimate(s).total <= gpu.memory);
    s.gpuLayers = static_cast<std::uint64_t>(fit.maxGpuLayers + 1);
    QVERIFY(core::estimate(s).total > gpu.memory);
    // Q4_K_M's ~4.9 bits a weight make a layer ~0.52 GB: 24 GiB holds about 44.
    QVERIFY(fit.maxGpuLayers >= 40 && fit.maxGpuLayers <= 47);
}

VRAM_TEST_MAIN(tst_hostoffload, TestHostOffload, None)
#include "tst_hostoffload.moc"
