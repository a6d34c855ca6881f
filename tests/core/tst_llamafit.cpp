// llama-server's --fit (common/fit.cpp common_params_fit_impl, llama.cpp
// 0.4.0) as the planner answers it: each step's rule worked by hand from
// the two totals it reads, and the boundaries it stops at.

#include "core/analysis/llamafit.h"
#include "core/analysis/llamafitplacement.h"
#include "core/analysis/monotoneprobe.h"
#include "core/io/builtin.h"
#include "core/runs/runlog.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <fstream>
#include <sstream>

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

using core::runlog::Quantity;

core::runlog::RunLog publicLog(const char *name)
{
    std::ifstream in(std::string(VRAM_TEST_DATA_DIR "/logs/") + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return *core::runlog::readRunLog(text.str()).value;
}

/// The one figure of `q` the log states (all devices).
core::Bytes figure(const core::runlog::RunLog &log, Quantity q)
{
    for (const auto *r : log.find(q))
        if (r->device.empty())
            return r->bytes;
    qFatal("figure missing");
}

/// --fit prints whole MiB, rounded down: `n` devices' figures summed lie
/// within n MiB of the exact sum.
bool withinMiB(core::Bytes a, core::Bytes b, int n)
{
    return (a > b ? a - b : b - a) <= core::Bytes::mib(n);
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
    void publicLogsByTheirOwnFigures();
    void severalDevicesLowerTheTarget();
    void severalGpusFilledFromTheLast();
    void expertsFillTheFirstGpuFirst();
    void oneGpuOverIsRebalancedNotShortened();
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
    // On 2.5 GiB not even the attention of every layer fits: layers leave.
    // -ngl N holds the output layer and N - 1 layers, whose experts stay in
    // host memory but for the first's (fit.cpp's overrides, meant to spare
    // the output layer, spare the device's first layer): N - 2 of them.
    const core::LlamaServerFit small = core::llamaServerFit(s, gpuOf(2.5), given);
    QCOMPARE(small.outcome, core::LlamaServerFit::Outcome::LayersMoved);
    QVERIFY(small.gpuLayers >= 2 && small.gpuLayers < s.model.layers);
    QCOMPARE(small.cpuMoeLayers, small.gpuLayers - 2);
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

void TestLlamaFit::publicLogsByTheirOwnFigures()
{
    // The rule's steps 1 and 2 fed what each public --fit log printed of
    // its own dry runs: they must reach the log's own deficit and context.
    const core::Bytes margin = core::Bytes::mib(1024);

    // One GPU, 9226 MiB projected, 11312 MiB free: "will leave 2086 >= 1024
    // MiB of free device memory, no changes needed".
    const auto noChange = publicLog("llamacpp-2026-fit-no-change-hilbertraum318.log");
    QCOMPARE(core::llamaFitDeficit({figure(noChange, Quantity::LlamaFitProjected),
                                    figure(noChange, Quantity::LlamaDeviceFree), margin}),
             core::Bytes());

    // 6007 MiB projected, 6898 free: 133 MiB short; -c 8192 stays (set by
    // the user); the layers' target is 6898 - 1024 = 5874 MiB.
    const auto reduce = publicLog("llamacpp-2026-fit-reduce-needed-hilbertraum318.log");
    const core::Bytes free = figure(reduce, Quantity::LlamaDeviceFree);
    QVERIFY(withinMiB(core::llamaFitDeficit({figure(reduce, Quantity::LlamaFitProjected), free, margin}),
                      figure(reduce, Quantity::LlamaFitDeficit), 1));
    QCOMPARE(free - margin, reduce.find(Quantity::LlamaFitTarget).front()->bytes);

    // Three ROCm GPUs (2025): each device's free memory is its projected
    // use less the deficit it printed (used - free then); the total
    // deficit adds the three margins. Lowering the unset context from
    // 65,536 saves 13,440 MiB, and even 4,096 (its floor) misses the
    // target, so --fit runs with 4,096 and moves weights.
    const auto rocm = publicLog("llamacpp-2025-10-params-fit-3gpu-rocm-pr16653.log");
    const std::vector<std::uint64_t> deviceDeficits = {24341, 26296, 43626};
    core::Bytes rocmFree;
    for (std::size_t i = 0; i < deviceDeficits.size(); ++i) {
        const auto *used = rocm.find(Quantity::LlamaFitProjected)[i];
        rocmFree += used->bytes - core::Bytes::mib(static_cast<double>(deviceDeficits[i]));
    }
    const core::LlamaFitSums atMax{figure(rocm, Quantity::LlamaFitProjected), rocmFree, core::Bytes::mib(3 * 1024)};
    QVERIFY(withinMiB(core::llamaFitDeficit(atMax), figure(rocm, Quantity::LlamaFitDeficit), 3));
    const core::Bytes usedAtMin = atMax.used - figure(rocm, Quantity::LlamaFitContextSaving);
    const auto context = core::llamaFitContext({65536, 4096, 1}, atMax, usedAtMin, 3, core::Bytes(), true);
    QVERIFY(!context.has_value());
    QCOMPARE(rocm.settings.contextSize->value, 4096ull);
}

void TestLlamaFit::severalDevicesLowerTheTarget()
{
    // By hand: 100 GiB used at 65,536 cells, 40 GiB at 4,096, 80 GiB free
    // on two devices with 1 GiB margins, 1 GiB of model per layer. The
    // target, 78 GiB, less (2 + 1) x 1 GiB / 2 = 76.5 GiB (dense):
    //   4096 + 61440 x (76.5 - 40) / (100 - 40) = 41,472 (a multiple of 256).
    // MoE takes / 6: 77.5 GiB, 4096 + 61440 x 37.5 / 60 = 42,496.
    const core::LlamaFitSums sums{core::Bytes::gib(100), core::Bytes::gib(80), core::Bytes::gib(2)};
    const core::Bytes atMin = core::Bytes::gib(40), perLayer = core::Bytes::gib(1);
    QCOMPARE(core::llamaFitContext({65536, 4096, 1}, sums, atMin, 2, perLayer, false).value(), 41472ull);
    QCOMPARE(core::llamaFitContext({65536, 4096, 1}, sums, atMin, 2, perLayer, true).value(), 42496ull);
    // One device has no such allowance: 4096 + 61440 x 38 / 60 = 43,008.
    QCOMPARE(core::llamaFitContext({65536, 4096, 1}, sums, atMin, 1, perLayer, false).value(), 43008ull);
    // Two streams: 256 x 2 cells; 4096 x 2 + 122880 x 38 / 60 = 86,016.
    QCOMPARE(core::llamaFitContext({131072, 8192, 2}, sums, atMin, 1, perLayer, false).value(), 86016ull);
    // A target under the least context's use: nothing, --fit moves weights.
    QVERIFY(!core::llamaFitContext({65536, 4096, 1}, sums, core::Bytes::gib(79), 1, perLayer, false));
}

/// Device `id`'s total with `perDevice` units (layers, then the output
/// layer) on each GPU: -ngl their sum, --tensor-split the counts.
core::Bytes deviceTotal(core::Scenario s, const std::vector<std::uint64_t> &perDevice, std::size_t id)
{
    std::uint64_t units = 0;
    s.tensorSplit.clear();
    for (std::uint64_t n : perDevice) {
        units += n;
        s.tensorSplit.push_back(static_cast<double>(n));
    }
    s.gpuLayers = units;
    return core::estimateStages(s).at(id).total;
}

void TestLlamaFit::severalGpusFilledFromTheLast()
{
    // Llama 3 70B Q4_K_M (about 40 GiB) on three 12 GiB cards at -c 4096:
    // fit.cpp fills back to front, the last GPU first with the most units
    // that keep 1 GiB free while the GPUs before it hold none, then the one
    // before it, ...; -ts is each GPU's count, -ngl their sum.
    core::Scenario s = llamaServer("llama-3-70b", core::WeightFormat::GgufQ4KM);
    s.gpus = 3;
    core::LlamaServerFitOptions given;
    given.contextSet = true;
    const core::LlamaServerFit fit = core::llamaServerFit(s, gpuOf(12), given);
    QCOMPARE(fit.outcome, core::LlamaServerFit::Outcome::LayersMoved);
    const std::vector<std::uint64_t> &split = fit.gpuLayersPerDevice;
    QCOMPARE(split.size(), std::size_t(3));
    QCOMPARE(split[0] + split[1] + split[2], fit.gpuLayers);
    QVERIFY(fit.gpuLayers < s.model.layers + 1);
    for (std::size_t id = 0; id < 3; ++id) {
        std::vector<std::uint64_t> placed = split;
        for (std::size_t before = 0; before < id; ++before)
            placed[before] = 0;
        QVERIFY(deviceTotal(s, placed, id) <= fit.target);
        ++placed[id];
        QVERIFY(deviceTotal(s, placed, id) > fit.target);
    }
    QVERIFY(core::render(core::llamaServerFitMessage(fit, s.model)).find("-ts ") != std::string::npos);
}

void TestLlamaFit::expertsFillTheFirstGpuFirst()
{
    // Qwen3-235B-A22B Q4_K_M (94 layers of 128 experts) on two 24 GiB cards
    // at -c 16384. Step 3 places the layers dense-only from the last GPU
    // back; step 4, with memory to spare, turns dense-only layers into full
    // ones front to back: GPU 0 takes full layers from GPU 1 until one more
    // would not fit, then GPU 1 turns its own while they fit.
    core::Scenario s = llamaServer("qwen3-235b-a22b", core::WeightFormat::GgufQ4KM);
    s.sequence = 16384;
    s.gpus = 2;
    const core::Bytes target = core::Bytes::gib(23);
    const core::FitLayout layout = core::placeLayersForFit(s, target);
    QCOMPARE(layout.size(), std::size_t(2));
    QCOMPARE(layout[0].layers + layout[1].layers, s.model.layers + 1);
    QCOMPARE(layout[0].partial, 0ull);
    QVERIFY(layout[1].partial > 0);
    for (std::size_t id = 0; id < 2; ++id)
        QVERIFY(core::fitDeviceTotal(s, layout, id) <= target);
    core::FitLayout more = layout;
    ++more[0].layers;
    --more[1].layers;
    --more[1].partial;
    QVERIFY(core::fitDeviceTotal(s, more, 0) > target);
    more = layout;
    --more[1].partial;
    QVERIFY(core::fitDeviceTotal(s, more, 1) > target);
    // The experts kept in host memory are GPU 1's dense-only layers; its
    // last partial unit is the output layer, which has none.
    QCOMPARE(core::hostExpertLayers(s, layout), layout[1].partial - 1);
}

void TestLlamaFit::oneGpuOverIsRebalancedNotShortened()
{
    // Llama 3 8B Q4_K_M over two 5 GiB cards split 1:3: the second misses
    // its margin, but the two together keep theirs, so step 2 leaves the
    // trained context (fit.cpp lowers it only for a total deficit) and step
    // 3 places the layers again, every one on the GPUs.
    core::Scenario s = llamaServer("llama-3-8b", core::WeightFormat::GgufQ4KM);
    s.gpus = 2;
    s.tensorSplit = {1, 3};
    const core::GpuSpec gpu = gpuOf(5);
    QVERIFY(core::totalOf(s) > gpu.capacity() - core::Bytes::gib(1)); // the 1:3 split misses
    const core::LlamaServerFit fit = core::llamaServerFit(s, gpu);
    QCOMPARE(fit.context, 8192ull);
    QCOMPARE(fit.gpuLayers, s.model.layers + 1);
    QCOMPARE(fit.gpuLayersPerDevice.size(), std::size_t(2));
    QVERIFY(fit.perGpu <= fit.target);
}

VRAM_TEST_MAIN(tst_llamafit, TestLlamaFit, Core)
#include "tst_llamafit.moc"
