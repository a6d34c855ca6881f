// Training activations of hybrid models, block by block: what the Mamba
// and Gated DeltaNet kernels keep for backward, worked by hand from their
// save_for_backward lists (mamba_ssm ssd_combined.py @ e9594ce, fla
// chunk.py @ bc3b101, causal-conv1d @ 0d2252d, transformers' mixers), and
// each block counted only in the layers that hold it.

#include "core/io/builtin.h"
#include "core/io/modelfiles.h"
#include "core/memory/activations.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

/// LoRA on q, k, v, o, gate, up and down at rank 16 with bf16 adapters:
/// the projections of Mamba and Gated DeltaNet stay frozen and unadapted.
core::Trainability lora()
{
    core::Trainability t;
    t.fullModel = false;
    t.loraRank = 16;
    for (core::LinearSlot slot : {core::LinearSlot::Q, core::LinearSlot::K, core::LinearSlot::V, core::LinearSlot::O,
                                  core::LinearSlot::Gate, core::LinearSlot::Up, core::LinearSlot::Down})
        t.loraSlots |= 1u << static_cast<unsigned>(slot);
    return t;
}

core::Scenario training(const core::ModelSpec &m)
{
    core::Scenario s;
    s.model = m;
    s.mode = core::Mode::Train;
    s.attention = core::Attention::Flash;
    return s;
}

/// Bytes per token and layer (the mean over the layers) that training `m` keeps.
double perToken(const core::ModelSpec &m, const core::Trainability &t)
{
    return core::activationRates(m, training(m), t, core::ActivationDtypes::uniform(2.0)).perTokenPerLayer.value;
}

/// Every layer one kind of mixer and nothing else.
core::ModelSpec onlyMixers(core::ModelSpec m)
{
    m.layersWithoutMlp = m.layers;
    m.layersWithoutMixer = 0;
    m.moe = {};
    return m;
}

} // namespace

class TestHybridActivations : public QObject
{
    Q_OBJECT

private slots:
    void mamba2KeepsItsProjectionAndScanOutput();
    void gatedDeltaNetByTransformersPath();
    void attentionOnlyWhereLayersAttend();
    void largestLayerSetsTheRecompute();
    void denseLayersOfAnMoeModelAtTheirWidth();
    void mamba1KeepsItsScanCopies();
    void eagerScoresOnlyInAttendingLayers();
    void largestLayerIsNoSmallerThanTheMean();
    void widerMlpLayersAtTheirWidth();
};

void TestHybridActivations::mamba2KeepsItsProjectionAndScanOutput()
{
    // Nemotron 3 Nano's Mamba-2 block with every layer one: h = 2,688, 64
    // heads of 64 (d_inner 4,096), 8 groups, state 128. The fused kernel
    // keeps in_proj's output zxBCdt, (2 x 4,096 + 2 x 8 x 128 + 64) x 2 B =
    // 20,608 B, the scan output 4,096 x 2 B and an fp32 rstd per group,
    // 32 B; the block's RMSNorm its fp32 input, 4 x 2,688 B.
    core::ModelSpec m = core::io::findPreset("nemotron-3-nano-30b-a3b")->model;
    QCOMPARE(m.hidden, 2688ull);
    QCOMPARE(m.mambaInner(), 4096ull);
    QCOMPARE(m.ssmGroups, 8ull);
    QCOMPARE(m.ssmState, 128ull);
    m = onlyMixers(m);
    m.mambaLayers = m.layers;
    const double kernel = 2.0 * (2 * 4096 + 2 * 8 * 128 + 64) + 2.0 * 4096 + 4.0 * 8;
    QCOMPARE(perToken(m, lora()), 4.0 * 2688 + kernel);
    // Trained whole: the norm's normalised input and in_proj's input, 2 B
    // each; out_proj's input is recomputed inside the kernel.
    QCOMPARE(perToken(m, core::Trainability{}), 4.0 * 2688 + 2.0 * 2688 + 2.0 * 2688 + kernel);
}

void TestHybridActivations::gatedDeltaNetByTransformersPath()
{
    // Qwen3.5-9B's Gated DeltaNet: 16 key heads and 32 value heads of 128
    // (K = 2,048, V = 4,096). Under LoRA, per token: the conv input (2K +
    // V) x 2 B = 16,384; q and k after the L2 norm 2 x 2 B x 16 x 128 =
    // 8,192 with their fp32 rstd 2 x 4 x 16 = 128 (fla 0.5 takes them at
    // the key heads); v's copy 8,192; g in fp32 128; beta 64; A 2 B x 64 x
    // 32 = 4,096; the fp32 softplus input 128; the torch gated norm's fp32
    // input, w x n, fp32 gate and silu (4 + 2 + 4 + 4) x 4,096 = 57,344 and
    // its rstd 128: 94,784 B. The block's RMSNorm 4 x 4,096 besides.
    core::ModelSpec m = onlyMixers(core::io::findPreset("qwen3.5-9b")->model);
    QCOMPARE(m.linearKeyHeads * m.linearKeyDim, 2048ull);
    QCOMPARE(m.linearValueHeads * m.linearValueDim, 4096ull);
    m.linearLayers = m.layers;
    QCOMPARE(perToken(m, lora()), 4.0 * 4096 + 94784.0);
    // Qwen3-Next's code: fla's fused gated norm (its input and gate, 2 x 2
    // B x 4,096 = 16,384) and q and k repeated to the 32 value heads (2 x
    // 2 B x 32 x 128 = 16,384, rstd 256): 62,144 B.
    m.family = "qwen3_next";
    QCOMPARE(perToken(m, lora()), 4.0 * 4096 + 62144.0);
}

void TestHybridActivations::attentionOnlyWhereLayersAttend()
{
    // Qwen3.5-9B as published: 24 Gated DeltaNet layers and 8 with gated
    // attention, each with its MLP. Against the same model attending in
    // every layer, 24 layers trade their attention for the 94,784 B above.
    // One attention mixer under LoRA with FlashAttention-2: q 4,096 x 2 B,
    // k and v 2 x 4 x 256 x 2 B, the kernel's output 8,192 and fp32
    // log-sum-exp 4 x 16, the input its adapters keep 8,192, and x·A of
    // the four adapters 4 x 16 x 2 B: 28,864 B.
    const core::ModelSpec hybrid = core::io::findPreset("qwen3.5-9b")->model;
    QCOMPARE(hybrid.linearLayers, 24ull);
    QCOMPARE(hybrid.attentionLayers(), 8ull);
    core::ModelSpec attending = hybrid;
    attending.linearLayers = 0;
    const double attention = 8192.0 + 2 * 4 * 256 * 2.0 + 8192.0 + 4.0 * 16 + 8192.0 + 4 * 16 * 2.0;
    QCOMPARE((perToken(hybrid, lora()) - perToken(attending, lora())) * 32, 24 * (94784.0 - attention));
}

void TestHybridActivations::largestLayerSetsTheRecompute()
{
    // Under full checkpointing one layer at a time is rebuilt: in
    // Qwen3.5-9B the largest is a Gated DeltaNet layer with its MLP, not
    // the mean of the 32. Its RMSNorms' fp32 inputs 2 x 4 x 4,096; the
    // Gated DeltaNet's 94,784 B; the MLP's input kept once for the
    // adapters 8,192, silu's input, act(gate) and up, down_proj's input
    // (1 + 2 + 1) x 2 B x 12,288 = 98,304, and x·A of three adapters 3 x
    // 16 x 2 B: 234,144 B a token. An attention layer would keep 28,864 B
    // in place of the 94,784.
    core::Scenario s = training(core::io::findPreset("qwen3.5-9b")->model);
    s.batch = 1;
    s.sequence = 1024;
    s.checkpointing = core::Checkpointing::Full;
    const core::ActivationBreakdown a =
        core::trainingActivations(s.model, s, lora(), core::ActivationDtypes::uniform(2.0));
    const double largest = 2 * 4.0 * 4096 + 94784.0 + 8192.0 + 4 * 2.0 * 12288 + 3 * 16 * 2.0;
    QCOMPARE(largest, 234144.0);
    QCOMPARE(a.recomputePeak.value, largest * 1024);
    QVERIFY(a.perLayer.value < a.recomputePeak.value);
}

void TestHybridActivations::denseLayersOfAnMoeModelAtTheirWidth()
{
    // DeepSeek-V2-Lite: its first layer's MLP is dense (10,944 wide), the
    // other 26 run 6 routed and 2 shared experts of 1,408 out of 64. Under
    // LoRA one dense MLP keeps silu's input, act(gate) and up and
    // down_proj's input, 4 x 2 B x 10,944 = 87,552, and x·A of its three
    // adapters 96; an expert layer 8 runs of 4 x 2 B x 1,408 = 90,112,
    // the fp32 router logits 4 x 64 and the adapters' x·A per run, 8 x 96.
    const core::ModelSpec real = core::io::findPreset("deepseek-v2-lite")->model;
    QCOMPARE(real.intermediate, 10944ull);
    QCOMPARE(real.moe.expertIntermediate, 1408ull);
    QCOMPARE(real.moe.experts, 64);
    QCOMPARE(real.moe.expertsPerToken + real.moe.sharedExperts, 8);
    QCOMPARE(real.moe.denseLayers, 1);
    core::ModelSpec allExperts = real;
    allExperts.moe.denseLayers = 0;
    const double dense = 4 * 2.0 * 10944 + 96.0;
    const double experts = 8 * 4 * 2.0 * 1408 + 4.0 * 64 + 8 * 96.0;
    QCOMPARE((perToken(real, lora()) - perToken(allExperts, lora())) * 27, dense - experts);
}

void TestHybridActivations::mamba1KeepsItsScanCopies()
{
    // Jamba v0.1's Mamba-1 block with every layer one: h = 4,096, d_inner
    // 8,192, state 16, dt rank 256. Under LoRA: the in_proj output the
    // conv's view keeps, 2 x 8,192 x 2 B = 32,768; the scan's u, delta, z
    // and output 4 x 8,192 x 2 B = 65,536; B and C 2 x 16 x 2 B = 64; the
    // fp32 inputs of the dt, B and C norms and their rsqrt 4 x (256 + 32 +
    // 3) = 1,164; the scan intermediates, 2 x 4 B x 8,192 x 16 per 2,048
    // tokens, 512 a token. The block's RMSNorm 4 x 4,096.
    const auto config = core::io::loadModelFiles(VRAM_TEST_DATA_DIR "/configs/2026/ai21labs--Jamba-v0.1_config.json");
    QVERIFY(config.ok());
    core::ModelSpec m = config.value->model;
    QCOMPARE(m.mambaInner(), 8192ull);
    QCOMPARE(m.ssmState, 16ull);
    QCOMPARE(m.mambaTimeStepRank, 256ull);
    m = onlyMixers(m);
    m.mambaLayers = m.layers;
    QCOMPARE(perToken(m, lora()), 4.0 * 4096 + 32768 + 65536 + 64 + 1164 + 512);
}

void TestHybridActivations::eagerScoresOnlyInAttendingLayers()
{
    // Eager attention's s^2 scores live in the 8 softmax layers of
    // Qwen3.5-9B's 32: per layer on average a quarter of one attention
    // layer's b x 16 heads x s^2 x (4 B fp32 softmax + 2 B copy).
    core::Scenario s = training(core::io::findPreset("qwen3.5-9b")->model);
    s.attention = core::Attention::Eager;
    s.batch = 1;
    s.sequence = 1024;
    const core::ActivationBreakdown a =
        core::trainingActivations(s.model, s, lora(), core::ActivationDtypes::uniform(2.0));
    QCOMPARE(a.scoresPerLayer.value, 16.0 * 1024 * 1024 * (4 + 2) * 8 / 32);
}

void TestHybridActivations::largestLayerIsNoSmallerThanTheMean()
{
    // Whatever the layers hold, the one a full recompute rebuilds is at
    // least the mean layer: Gemma 4's dense MLP beside its experts, Nemotron
    // 3 Nano's single-purpose blocks, MoE models' dense first layers, the
    // hybrids under eager attention (scores only where a layer attends).
    for (const char *preset : {"qwen3.5-9b", "qwen3-next-80b-a3b-instruct", "nemotron-3-nano-30b-a3b",
                               "gemma-4-26b-a4b", "deepseek-v3", "glm-4.5-air"}) {
        const core::io::ModelPreset *p = core::io::findPreset(preset);
        QVERIFY2(p, preset);
        for (core::Attention attention : {core::Attention::Sdpa, core::Attention::Eager})
            for (const core::Trainability &t : {lora(), core::Trainability{}}) {
                core::Scenario s = training(p->model);
                s.attention = attention;
                s.batch = 1;
                s.sequence = 4096;
                s.checkpointing = core::Checkpointing::Full;
                const core::ActivationBreakdown a =
                    core::trainingActivations(s.model, s, t, core::ActivationDtypes::uniform(2.0));
                const QString message =
                    QStringLiteral("%1: %2 < %3").arg(preset).arg(a.recomputePeak.value).arg(a.perLayer.value);
                QVERIFY2(a.recomputePeak.value >= a.perLayer.value * (1 - 1e-12), qPrintable(message));
            }
    }
}

void TestHybridActivations::widerMlpLayersAtTheirWidth()
{
    // Gemma 4 E2B's kv-shared layers run an MLP twice intermediate_size
    // wide (use_double_wide_mlp). Under LoRA each of them keeps one more I
    // of every MLP tensor: the activation's saved inputs (n_act x 2 B),
    // act(gate) and up (2 x 2 B) and down_proj's input (2 B). The mean
    // layer carries wide / L of that, the largest layer all of it.
    const auto config = core::io::loadModelFiles(VRAM_TEST_DATA_DIR "/configs/2026/google--gemma-4-E2B-it_config.json");
    QVERIFY(config.ok());
    const core::ModelSpec wide = config.value->model;
    QVERIFY(wide.wideMlpLayers > 0);
    core::ModelSpec narrow = wide;
    narrow.wideMlpLayers = 0;
    const double extra = (2.0 * wide.activationSavedTensors + 4 + 2) * static_cast<double>(wide.intermediate);
    const double shared = static_cast<double>(wide.wideMlpLayers) / static_cast<double>(wide.layers);
    QVERIFY(std::abs(perToken(wide, lora()) - perToken(narrow, lora()) - shared * extra) < 1e-6);
    core::Scenario s = training(wide);
    s.batch = 1;
    s.sequence = 1024;
    s.checkpointing = core::Checkpointing::Full;
    core::Scenario t = s;
    t.model = narrow;
    const auto peak = [&](const core::Scenario &scenario) {
        return core::trainingActivations(scenario.model, scenario, lora(), core::ActivationDtypes::uniform(2.0))
            .recomputePeak.value;
    };
    QVERIFY(std::abs(peak(s) - peak(t) - 1024 * extra) < 1e-3);
}

VRAM_TEST_MAIN(tst_hybridactivations, TestHybridActivations, Core)
#include "tst_hybridactivations.moc"
