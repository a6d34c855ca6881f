// Published formulas and tables: ZeRO (Rajbhandari et al. 2020) Table 1,
// DeepSpeed's ZeRO-2 estimator, Korthikanti et al. 2022 Table 2, KV-cache
// sizes per token, llama.cpp's quantised file sizes.

#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/memory/activations.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

core::Scenario trainingWith(std::uint64_t parameters, int gpus, int stage, core::Regime regime)
{
    core::Scenario s;
    s.model = core::modelFromParameterCount(parameters);
    s.mode = core::Mode::Train;
    s.regime = regime;
    s.optimizer = core::Optimizer::Adam;
    s.gpus = gpus;
    s.zeroStage = stage;
    return s;
}

double modelStatesGB(const core::Estimate &e)
{
    for (const core::PhaseTotal &p : e.phases)
        if (p.phase == core::Phase::OptimizerStep) {
            double sum = 0;
            for (core::TermId id : {core::TermId::Weights, core::TermId::MasterWeights, core::TermId::Gradients,
                                    core::TermId::Optimizer})
                sum += static_cast<double>(p.terms[static_cast<std::size_t>(id)].count());
            return sum / 1e9;
        }
    return 0;
}

/// A GPT layer exactly as Korthikanti et al. assume it: LayerNorm, 4h GeLU
/// MLP, MHA, dropout, 16-bit activations, explicit attention matrices.
core::ModelSpec korthikantiGpt(std::uint64_t heads, std::uint64_t hidden, std::uint64_t layers)
{
    core::ModelSpec m;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = heads;
    m.headDim = hidden / heads;
    m.layers = layers;
    m.intermediate = 4 * hidden;
    m.vocab = 51200;
    m.gatedMlp = false;
    m.norm = core::NormKind::LayerNorm;
    m.attentionDropout = 0.1;
    m.hiddenDropout = 0.1;
    m.softmaxInFp32 = false;
    return m;
}

} // namespace

class TestPapers : public QObject
{
    Q_OBJECT

private slots:
    void zeroTable1_data();
    void zeroTable1();
    void deepSpeedZero2Estimator();
    void korthikantiTable2_data();
    void korthikantiTable2();
    void kvCachePerToken_data();
    void kvCachePerToken();
    void ggufFileSizes_data();
    void ggufFileSizes();
};

void TestPapers::zeroTable1_data()
{
    QTest::addColumn<double>("psi");
    QTest::addColumn<int>("nd");
    QTest::addColumn<int>("stage");
    QTest::addColumn<double>("expectedGB");
    // Rajbhandari et al. 2020, Table 1 (per-device model states, GB, K = 12).
    struct Row { double psi; const char *name; double cells[6][3]; };
    const int dp[6] = {1, 4, 16, 64, 256, 1024};
    const Row rows[] = {
        {7.5e9, "7.5B", {{120, 120, 120}, {52.5, 41.3, 30}, {35.6, 21.6, 7.5}, {31.4, 16.6, 1.88},
                         {30.4, 15.4, 0.47}, {30.1, 15.1, 0.12}}},
        {128e9, "128B", {{2048, 2048, 2048}, {896, 704, 512}, {608, 368, 128}, {536, 284, 32},
                         {518, 263, 8}, {513, 257, 2}}},
        {1e12, "1T", {{16000, 16000, 16000}, {7000, 5500, 4000}, {4750, 2875, 1000}, {4187, 2218, 250},
                      {4046, 2054, 62.5}, {4011, 2013, 15.6}}},
    };
    for (const Row &row : rows)
        for (int i = 0; i < 6; ++i)
            for (int stage = 1; stage <= 3; ++stage)
                QTest::addRow("%s Nd=%d stage %d", row.name, dp[i], stage)
                    << row.psi << dp[i] << stage << row.cells[i][stage - 1];
}

void TestPapers::zeroTable1()
{
    QFETCH(double, psi);
    QFETCH(int, nd);
    QFETCH(int, stage);
    QFETCH(double, expectedGB);
    const double gb = modelStatesGB(core::estimate(trainingWith(static_cast<std::uint64_t>(psi), nd, stage, core::Regime::Mixed)));
    // The table truncates the large cells and rounds the small ones
    // (ground-truth.md §1.2): 1 GB for cells >= 100, else 3 %.
    const double tolerance = expectedGB >= 100 ? 1.0 : std::max(0.01, 0.03 * expectedGB);
    QVERIFY2(std::abs(gb - expectedGB) <= tolerance,
             qPrintable(QStringLiteral("engine %1 GB, paper %2 GB").arg(gb).arg(expectedGB)));
}

void TestPapers::deepSpeedZero2Estimator()
{
    // deepspeed/runtime/zero/stage_1_and_2.py (after PR #5099):
    // gpu_mem = 2P + 18P/N. t5-3b, 2,851M parameters, 8 GPUs:
    // 2 x 2851e6 + 18 x 2851e6 / 8 = 12,116,750,000 B = 11.28 GiB.
    const core::Estimate e = core::estimate(trainingWith(2'851'000'000ull, 8, 2, core::Regime::DeepSpeed));
    QVERIFY(std::abs(modelStatesGB(e) * 1e9 - 12'116'750'000.0) < 1e4);
}

void TestPapers::korthikantiTable2_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("batch");
    QTest::addColumn<double>("noneGiB");
    QTest::addColumn<double>("fullGiB");
    // Table 3 shapes, s = 2048; per-layer GiB from Table 2's formulas
    // (ground-truth.md §2.3): sbh(34 + 5as/h) and 2sbh.
    QTest::newRow("22B b=4") << 64 << 6144 << 4 << 6.594 << 0.094;
    QTest::newRow("175B b=1") << 96 << 12288 << 1 << 2.672 << 0.047;
    QTest::newRow("530B b=1") << 128 << 20480 << 1 << 3.828 << 0.078;
    QTest::newRow("1T b=1") << 160 << 25600 << 1 << 4.785 << 0.098;
}

void TestPapers::korthikantiTable2()
{
    QFETCH(int, heads);
    QFETCH(int, hidden);
    QFETCH(int, batch);
    QFETCH(double, noneGiB);
    QFETCH(double, fullGiB);
    const core::ModelSpec m = korthikantiGpt(heads, hidden, 1);
    core::Scenario s;
    s.model = m;
    s.mode = core::Mode::Train;
    s.batch = static_cast<std::uint64_t>(batch);
    s.sequence = 2048;
    s.attention = core::Attention::Eager;
    core::Trainability all;
    const double gib = 1024.0 * 1024.0 * 1024.0;

    const core::ActivationBreakdown none = core::trainingActivations(m, s, all, core::ActivationDtypes::uniform(2.0));
    QVERIFY2(std::abs(none.perLayer.value / gib - noneGiB) < 0.001,
             qPrintable(QString::number(none.perLayer.value / gib, 'f', 4)));
    // Per token the layer is exactly 34 h bytes (§4.1: 11 attention + 19 MLP + 4 LayerNorm).
    QCOMPARE(none.perTokenPerLayer.value, 34.0 * hidden);

    // Selective recompute (§4.2) keeps 34 sbh per layer.
    s.checkpointing = core::Checkpointing::Selective;
    const core::ActivationBreakdown selective = core::trainingActivations(m, s, all, core::ActivationDtypes::uniform(2.0));
    QCOMPARE(selective.keptPerLayer.value, 34.0 * 2048 * batch * hidden);

    s.checkpointing = core::Checkpointing::Full;
    const core::ActivationBreakdown full = core::trainingActivations(m, s, all, core::ActivationDtypes::uniform(2.0));
    const double fullLayers = static_cast<double>(m.layers) * full.keptPerLayer.value;
    QVERIFY2(std::abs(fullLayers / gib - fullGiB) < 0.001, qPrintable(QString::number(fullLayers / gib, 'f', 4)));
}

void TestPapers::kvCachePerToken_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("kib");
    // bf16, 2 x layers x kv_heads x head_dim x 2 B (ground-truth.md §3.7).
    QTest::newRow("Llama-2-7B 512 KiB") << "llama-2-7b" << 512.0;
    QTest::newRow("Llama-3-8B 128 KiB") << "llama-3-8b" << 128.0;
    QTest::newRow("Llama-2-70B 320 KiB") << "llama-2-70b" << 320.0;
    QTest::newRow("Mistral-7B 128 KiB") << "mistral-7b" << 128.0;
    QTest::newRow("Qwen2.5-7B 56 KiB") << "qwen2.5-7b" << 56.0;
    QTest::newRow("Qwen2.5-32B 256 KiB") << "qwen2.5-32b" << 256.0;
    QTest::newRow("StarCoder (MQA) 20 KiB") << "starcoder-co-format" << 20.0;
}

void TestPapers::kvCachePerToken()
{
    QFETCH(QString, preset);
    QFETCH(double, kib);
    const core::io::ModelPreset *p = core::io::findPreset(preset.toStdString());
    QVERIFY(p);
    core::Scenario s;
    s.model = p->model;
    QCOMPARE(core::kvCacheBytesPerToken(s, 2.0), kib * 1024.0);
    // The estimate's kv_cache term at 4,096 tokens, batch 1, agrees.
    s.sequence = 4096;
    if (p->model.slidingWindow == 0)
        QCOMPARE(core::estimate(s).term(core::TermId::KvCache).count(), static_cast<std::uint64_t>(kib * 1024.0 * 4096));
}

void TestPapers::ggufFileSizes_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("gib");
    // llama.cpp tools/quantize/README.md, Llama-3.1-8B file sizes (GiB).
    QTest::newRow("Q8_0 7.95 GiB") << "gguf-q8_0" << 7.95;
    QTest::newRow("Q6_K 6.14 GiB") << "gguf-q6_k" << 6.14;
    QTest::newRow("Q5_K_M 5.33 GiB") << "gguf-q5_k_m" << 5.33;
    QTest::newRow("Q4_K_M 4.58 GiB") << "gguf-q4_k_m" << 4.58;
    QTest::newRow("Q2_K 2.95 GiB") << "gguf-q2_k" << 2.95;
}

void TestPapers::ggufFileSizes()
{
    QFETCH(QString, format);
    QFETCH(double, gib);
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.weights = core::parseFormat(format.toStdString());
    const double weights = core::estimate(s).term(core::TermId::Weights).inGiB();
    QVERIFY2(std::abs(weights - gib) < 0.006, qPrintable(QString::number(weights, 'f', 3)));
}

VRAM_TEST_MAIN(tst_papers, TestPapers, None)
#include "tst_papers.moc"
