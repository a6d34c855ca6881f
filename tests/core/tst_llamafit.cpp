// llama-server's --fit (common/fit.cpp common_params_fit_impl, llama.cpp
// 0.4.0) as the planner answers it: each step's rule worked by hand from
// the two totals it reads, and the boundaries it stops at.

#include "core/analysis/llamafit.h"
#include "core/analysis/monotoneprobe.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

core::Scenario llamaServer(const char *preset, core::WeightFormat weights)
{
    core::Scenario s;
    s.model = core::io::findPreset(preset)->model;
    s.mode = core::Mode::Inference;
    s.serving = core::ServingEngine::LlamaCpp;
    s.weights = weights;
    s.sequence = 4096;
    return s;
}

core::GpuSpec gpuOf(double gib)
{
    core::GpuSpec g;
    g.id = "test-gpu";
    g.name = "test GPU";
    g.memory = core::Bytes::gib(gib);
    return g;
}

core::Bytes totalAt(core::Scenario s, std::uint64_t context)
{
    s.sequence = context;
    return core::totalOf(s);
}

} // namespace

class TestLlamaFit : public QObject
{
    Q_OBJECT

private slots:
    void nothingChangesWhenTheMarginStaysFree();
    void contextLoweredByLinearInterpolation();
    void expertsLeaveBeforeLayers();
    void layersLeaveFromTheFirst();
};

void TestLlamaFit::nothingChangesWhenTheMarginStaysFree()
{
    // Llama 3 8B (trained on 8,192 tokens) on an 80 GiB card: step 1 ends it.
    const core::Scenario s = llamaServer("llama-3-8b", core::WeightFormat::GgufQ4KM);
    const core::LlamaServerFit fit = core::llamaServerFit(s, gpuOf(80));
    QCOMPARE(fit.outcome, core::LlamaServerFit::Outcome::Unchanged);
    QCOMPARE(fit.context, 8192ull);
    QCOMPARE(fit.gpuLayers, s.model.layers + 1);
    QCOMPARE(fit.target, core::Bytes::gib(79));
}

void TestLlamaFit::contextLoweredByLinearInterpolation()
{
    // A card 1 GiB + the total at 6,144 tokens: the rule interpolates
    // between the totals at 4,096 (A) and 8,192 (B) tokens:
    //   n_ctx = 4096 + 4096 x (target - A) / (B - A), down to a multiple of 256.
    const core::Scenario s = llamaServer("llama-3-8b", core::WeightFormat::GgufQ4KM);
    const core::Bytes a = totalAt(s, 4096), b = totalAt(s, 8192);
    const core::Bytes target = totalAt(s, 6144);
    core::GpuSpec gpu = gpuOf(0);
    gpu.memory = target + core::Bytes::gib(1);
    const core::LlamaServerFit fit = core::llamaServerFit(s, gpu);
    QCOMPARE(fit.outcome, core::LlamaServerFit::Outcome::ContextReduced);
    QCOMPARE(fit.trainedContext, 8192ull);
    const double share = static_cast<double>((target - a).count()) / static_cast<double>((b - a).count());
    const auto lowered = 4096 + static_cast<std::uint64_t>(4096.0 * share);
    QCOMPARE(fit.context, lowered - lowered % 256);
    QVERIFY(fit.context % 256 == 0 && fit.context >= 4096 && fit.context < 8192);
    // With -c given, --fit keeps the context and moves layers instead.
    core::LlamaServerFitOptions given;
    given.contextSet = true;
    core::Scenario long_ = s;
    long_.sequence = 8192;
    const core::LlamaServerFit kept = core::llamaServerFit(long_, gpu, given);
    QCOMPARE(kept.context, 8192ull);
    QCOMPARE(kept.outcome, core::LlamaServerFit::Outcome::LayersMoved);
    QVERIFY(kept.gpuLayers <= s.model.layers);
}

void TestLlamaFit::expertsLeaveBeforeLayers()
{
    // Qwen3 30B-A3B (48 layers, 128 experts) Q4_K_M on 8 GiB at -c 8192:
    // every layer stays; the first N layers' experts go to the host, N the
    // least that keeps 1 GiB free.
    core::Scenario s = llamaServer("qwen3-30b-a3b", core::WeightFormat::GgufQ4KM);
    s.sequence = 8192;
    core::LlamaServerFitOptions given;
    given.contextSet = true;
    const core::GpuSpec gpu = gpuOf(8);
    const core::LlamaServerFit fit = core::llamaServerFit(s, gpu, given);
    QCOMPARE(fit.outcome, core::LlamaServerFit::Outcome::ExpertsMoved);
    QCOMPARE(fit.gpuLayers, s.model.layers + 1);
    QVERIFY(fit.cpuMoeLayers > 0 && fit.cpuMoeLayers < s.model.layers);
    core::Scenario at = s;
    at.cpuMoeLayers = fit.cpuMoeLayers;
    QVERIFY(core::totalOf(at) <= fit.target);
    at.cpuMoeLayers = fit.cpuMoeLayers - 1;
    QVERIFY(core::totalOf(at) > fit.target);
}

void TestLlamaFit::layersLeaveFromTheFirst()
{
    // Llama 3 70B Q4_K_M (about 40 GiB) on 24 GiB at -c 4096: -ngl N, the
    // most layers that keep 1 GiB free.
    const core::Scenario s = llamaServer("llama-3-70b", core::WeightFormat::GgufQ4KM);
    core::LlamaServerFitOptions given;
    given.contextSet = true;
    const core::LlamaServerFit fit = core::llamaServerFit(s, gpuOf(24), given);
    QCOMPARE(fit.outcome, core::LlamaServerFit::Outcome::LayersMoved);
    core::Scenario at = s;
    at.gpuLayers = fit.gpuLayers;
    QVERIFY(core::totalOf(at) <= fit.target);
    at.gpuLayers = fit.gpuLayers + 1;
    QVERIFY(core::totalOf(at) > fit.target);
    // About 24 GiB of 40: a little over half of the 80 layers.
    QVERIFY(fit.gpuLayers > 30 && fit.gpuLayers < 50);
    // Nothing fits a card smaller than the margin and the CUDA context.
    QCOMPARE(core::llamaServerFit(s, gpuOf(1), given).outcome, core::LlamaServerFit::Outcome::NothingFits);
}

VRAM_TEST_MAIN(tst_llamafit, TestLlamaFit, Core)
#include "tst_llamafit.moc"
