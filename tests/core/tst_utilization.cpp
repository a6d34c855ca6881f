// GPU utilisation: the seed notes' FLOPs ratio (S14) and throughput ratio
// (S15), and model FLOPs utilisation from tokens/s (PaLM, Chowdhery et al.
// 2022, App. B), each against a calculation done by hand in the comments.

#include "core/analysis/performance.h"
#include "core/analysis/utilization.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

/// LLaMA 7B's shape (Touvron et al. 2023, Table 2): 32 layers, h = 4096, and
/// the 2,048-token sequence the notes' LLaMA examples use.
constexpr double kLayers = 32;
constexpr double kWidth = 4096;
constexpr double kSequence = 2048;
/// 12 x 32 x 4096 x 2048 = 3,221,225,472 FLOPs per token.
constexpr double kAttention = 3'221'225'472.0;

} // namespace

class TestUtilization : public QObject {
    Q_OBJECT

private slots:
    void seedNotesRatios();
    void attentionTerm();
    void mfuFromTokens_data();
    void mfuFromTokens();
    void throughputRatioInheritsTheReference();
    void scenarioMfuAndHfu();
    void peakForThePrecision();
};

void TestUtilization::seedNotesRatios()
{
    QVERIFY(std::abs(core::flopsUtilizationPercent(100, 312) - 32.05) < 0.005); // S14: 100 / 312 = 32.051 %
    QVERIFY(std::abs(core::throughputRatioPercent(1536, 3300) - 46.54) < 0.01); // S15: 1536 / 3300 = 46.545 %
    QCOMPARE(core::flopsUtilizationPercent(100, 0), 0.0); // no peak, no ratio
    QCOMPARE(core::throughputRatioPercent(1536, 0), 0.0);
}

void TestUtilization::attentionTerm()
{
    QCOMPARE(core::attentionTrainingFlopsPerToken(kLayers, kWidth, kSequence), kAttention);
}

void TestUtilization::mfuFromTokens_data()
{
    QTest::addColumn<double>("tokensPerSecond");
    QTest::addColumn<double>("parameters");
    QTest::addColumn<bool>("attention");
    QTest::addColumn<bool>("training");
    QTest::addColumn<double>("expected"); // percent, by hand, to 0.01
    // 6 x 6.74e9 x 3300 / 312e12 = 1.33452e14 / 3.12e14 = 42.77 %
    QTest::newRow("llama-7b reference run, 6N") << 3300.0 << 6.74e9 << false << true << 42.77;
    // (6 x 6.74e9 + 3,221,225,472) x 3300 / 312e12 = 4.36612e10 x 3300 / 3.12e14 = 46.18 %:
    // the "full utilisation" reference is itself under half the peak.
    QTest::newRow("llama-7b reference run, 6N + attention") << 3300.0 << 6.74e9 << true << true << 46.18;
    // 4.36612e10 x 1536 / 3.12e14 = 21.49 %, not the 46.54 % of S15
    QTest::newRow("llama-7b at 1536 tokens/s, 6N + attention") << 1536.0 << 6.74e9 << true << true << 21.49;
    // 6 x 6.74e9 x 1536 / 312e12 = 6.2116e13 / 3.12e14 = 19.91 %
    QTest::newRow("llama-7b at 1536 tokens/s, 6N") << 1536.0 << 6.74e9 << false << true << 19.91;
    // Forward only: 2 x 7e9 x 10,000 / 312e12 = 1.4e14 / 3.12e14 = 44.87 %
    QTest::newRow("7b prefill 10k tokens/s, 2N") << 10000.0 << 7e9 << false << false << 44.87;
    // (2 x 7e9 + 3,221,225,472 / 3) x 10,000 / 312e12 = 1.50737e14 / 3.12e14 = 48.31 %
    QTest::newRow("7b prefill 10k tokens/s, 2N + attention") << 10000.0 << 7e9 << true << false << 48.31;
}

void TestUtilization::mfuFromTokens()
{
    QFETCH(double, tokensPerSecond);
    QFETCH(double, parameters);
    QFETCH(bool, attention);
    QFETCH(bool, training);
    QFETCH(double, expected);
    const double flops = core::modelFlopsPerToken(
        parameters, attention ? kAttention : 0.0, training ? core::FlopsWork::Training : core::FlopsWork::ForwardOnly);
    const double mfu = core::mfuPercent(tokensPerSecond, flops, 312);
    QVERIFY2(std::abs(mfu - expected) < 0.01, qPrintable(QString::number(mfu, 'f', 4)));
}

void TestUtilization::throughputRatioInheritsTheReference()
{
    // The throughput ratio is this run's MFU over the reference run's MFU:
    // 21.49 % / 46.18 % = 46.54 %, the S15 figure.
    const double flops = core::modelFlopsPerToken(6.74e9, kAttention, core::FlopsWork::Training);
    const double ratio = core::mfuPercent(1536, flops, 312) / core::mfuPercent(3300, flops, 312) * 100.0;
    QVERIFY(std::abs(ratio - core::throughputRatioPercent(1536, 3300)) < 1e-9);
}

void TestUtilization::scenarioMfuAndHfu()
{
    // MFU from tokens/s: 1,000 tokens/s/GPU on Llama-2-7B at 312 TFLOPS:
    // 1000 x (6N + 12Lhs) / 312e12. HFU counts the recomputed forward too.
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.mode = core::Mode::Train;
    s.checkpointing = core::Checkpointing::Full;
    const double sixN = 6.0 * 6'738'415'616.0 + kAttention;
    QVERIFY(std::abs(core::modelFlopsUtilizationPercent(s, 1000, 312) - 100.0 * 1000 * sixN / 312e12) < 1e-9);
    QVERIFY(
        std::abs(core::hardwareFlopsUtilizationPercent(s, 1000, 312) / core::modelFlopsUtilizationPercent(s, 1000, 312)
            - 4.0 / 3.0)
        < 1e-9);
}

void TestUtilization::peakForThePrecision()
{
    // A100 datasheet, dense: fp32 19.5, tf32 156, fp16/bf16 312, no fp8.
    const core::GpuSpec &a100 = *core::io::builtinCatalog().find("a100-sxm4-80gb");
    QCOMPARE(a100.peak.at(core::Precision::Tf32).value_or(0), 156.0);
    QCOMPARE(a100.peak.at(core::Precision::Bf16).value_or(0), 312.0);
    QVERIFY(!a100.peak.at(core::Precision::Fp8));
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.mode = core::Mode::Train;
    QCOMPARE(core::computePrecisionFor(s, a100), core::Precision::Bf16);
    QCOMPARE(core::peakTflopsFor(s, a100), 312.0);
    // Volta has no bf16: 16-bit training runs fp16.
    QCOMPARE(core::computePrecisionFor(s, *core::io::builtinCatalog().find("v100-sxm2-32gb")), core::Precision::Fp16);
    s.regime = core::Regime::Fp32;
    QCOMPARE(core::computePrecisionFor(s, a100), core::Precision::Fp32);
    QCOMPARE(core::peakTflopsFor(s, a100), 19.5);
}

VRAM_TEST_MAIN(tst_utilization, TestUtilization, None)
#include "tst_utilization.moc"
