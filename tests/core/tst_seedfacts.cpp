// Every computable fact of the seed notes (../shared/reference/seed-facts.md,
// S1-S13), with the notes' corrected arithmetic as the expected values.

#include "core/analysis/fit.h"
#include "core/engine/estimate.h"
#include "core/explain/rulesofthumb.h"
#include "core/io/builtin.h"
#include "core/memory/overheads.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

core::Scenario withPreset(const char *id)
{
    const core::io::ModelPreset *p = core::io::findPreset(id);
    if (!p)
        qFatal("no preset %s", id);
    core::Scenario s;
    s.model = p->model;
    s.source = {core::ModelSource::Kind::Preset, id, "", 0};
    return s;
}

core::Scenario withParameters(std::uint64_t n)
{
    core::Scenario s;
    s.model = core::modelFromParameterCount(n);
    s.source = {core::ModelSource::Kind::ParameterCount, "", "", n};
    return s;
}

/// Weights + master weights + gradients + optimizer states at the optimizer
/// step: the "model states" of the ZeRO paper.
std::uint64_t modelStates(const core::Estimate &e)
{
    for (const core::PhaseTotal &p : e.phases)
        if (p.phase == core::Phase::OptimizerStep) {
            std::uint64_t sum = 0;
            for (core::TermId id : {core::TermId::Weights, core::TermId::MasterWeights, core::TermId::Gradients,
                                    core::TermId::Optimizer})
                sum += p.terms[static_cast<std::size_t>(id)].count();
            return sum;
        }
    return 0;
}

std::uint64_t termAtStep(const core::Estimate &e, core::TermId id)
{
    for (const core::PhaseTotal &p : e.phases)
        if (p.phase == core::Phase::OptimizerStep)
            return p.terms[static_cast<std::size_t>(id)].count();
    return 0;
}

const core::GpuFit *fitFor(const core::EstimateWithFits &r, const char *gpu)
{
    for (const core::GpuFit &f : r.fits)
        if (f.gpuId == gpu)
            return &f;
    return nullptr;
}

} // namespace

class TestSeedFacts : public QObject
{
    Q_OBJECT

private slots:
    void s1Fp16InferenceIsTwoBytesPerParameter();
    void s2BytesPerParameter_data();
    void s2BytesPerParameter();
    void s3Llama65bNeedsFiveV100();
    void s6MixedPrecisionAdamIs16BytesPerParameter();
    void s9Fp32TrainingTerms_data();
    void s9Fp32TrainingTerms();
    void s9ThreeToFourTimesFp32Weights();
    void s10HostRamExample();
    void s11CudaContextDefaults();
    void s12BaichuanWeights_data();
    void s12BaichuanWeights();
    void s12BaichuanOnConsumerCards();
    void s13NotesActivationRule();
};

void TestSeedFacts::s1Fp16InferenceIsTwoBytesPerParameter()
{
    core::Scenario s = withParameters(7'000'000'000ull);
    s.weights = core::WeightFormat::Fp16;
    // "7B -> ~14 GB": 7e9 x 2 B = 14e9 B.
    QCOMPARE(core::estimate(s).term(core::TermId::Weights).count(), 14'000'000'000ull);
    QCOMPARE(core::rules::fp16Inference(7'000'000'000ull).count(), 14'000'000'000ull);
}

void TestSeedFacts::s2BytesPerParameter_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("bytes");
    QTest::newRow("fp32 4 B") << "fp32" << 4.0;
    QTest::newRow("fp16 2 B") << "fp16" << 2.0;
    QTest::newRow("bf16 2 B") << "bf16" << 2.0;
    QTest::newRow("int8 1 B") << "int8" << 1.0;
    QTest::newRow("int4 0.5 B") << "int4" << 0.5;
}

void TestSeedFacts::s2BytesPerParameter()
{
    QFETCH(QString, format);
    QFETCH(double, bytes);
    const auto f = core::parseFormat(format.toStdString());
    QVERIFY(f);
    QCOMPARE(core::formatBits(*f, 128, 4096).total() / 8.0, bytes);
}

void TestSeedFacts::s3Llama65bNeedsFiveV100()
{
    core::Scenario s = withPreset("llama-65b");
    s.weights = core::WeightFormat::Fp16;
    // S3: 65,285,660,672 x 2 B = 130.57 GB of weights.
    QCOMPARE(core::estimate(s).term(core::TermId::Weights).count(), 130'571'321'344ull);
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {"v100-sxm2-32gb"});
    const core::GpuFit *v100 = fitFor(r, "v100-sxm2-32gb");
    QVERIFY(v100);
    QVERIFY(!v100->fits);
    QCOMPARE(v100->gpusNeeded, 5);
    // ... and with 4 GPUs the most loaded one does not fit.
    s.gpus = 4;
    QVERIFY(core::estimate(s).total > v100->capacity);
    s.gpus = 5;
    QVERIFY(core::estimate(s).total <= v100->capacity);
}

void TestSeedFacts::s6MixedPrecisionAdamIs16BytesPerParameter()
{
    core::Scenario s = withParameters(7'000'000'000ull);
    s.mode = core::Mode::Train;
    s.regime = core::Regime::Mixed;
    s.optimizer = core::Optimizer::AdamW;
    // 2 + 2 + (4 + 4 + 4) = 16 B/param; 7B -> 112 GB.
    QCOMPARE(modelStates(core::estimate(s)), 112'000'000'000ull);
    QCOMPARE(core::rules::mixedPrecisionAdam(7'000'000'000ull).count(), 112'000'000'000ull);
    QCOMPARE(core::rules::practicalTraining(7'000'000'000ull).count(), 140'000'000'000ull); // S7: 20n
}

void TestSeedFacts::s9Fp32TrainingTerms_data()
{
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<qulonglong>("optimizerBytes");
    // S9 per 7e9 parameters: AdamW 8 B (two fp32 states) = 56 GB,
    // bitsandbytes 8-bit AdamW 2 B = 14 GB, SGD with momentum 4 B = 28 GB.
    QTest::newRow("AdamW 56 GB") << "adamw" << 56'000'000'000ull;
    QTest::newRow("8-bit AdamW 14 GB") << "adamw-8bit" << 14'000'000'000ull;
    QTest::newRow("SGD momentum 28 GB") << "sgd-momentum" << 28'000'000'000ull;
}

void TestSeedFacts::s9Fp32TrainingTerms()
{
    QFETCH(QString, optimizer);
    QFETCH(qulonglong, optimizerBytes);
    core::Scenario s = withParameters(7'000'000'000ull);
    s.mode = core::Mode::Train;
    s.regime = core::Regime::Fp32;
    s.optimizer = *core::parseOptimizer(optimizer.toStdString());
    const core::Estimate e = core::estimate(s);
    QCOMPARE(termAtStep(e, core::TermId::Weights), 28'000'000'000ull);   // 4 B
    QCOMPARE(termAtStep(e, core::TermId::Gradients), 28'000'000'000ull); // 4 B
    QCOMPARE(termAtStep(e, core::TermId::MasterWeights), 0ull);
    QCOMPARE(termAtStep(e, core::TermId::Optimizer), static_cast<std::uint64_t>(optimizerBytes));
    // The notes' slip: 28 + 112 + 28 = 168 GB charges AdamW 16 B. Correct: 112 GB.
    if (optimizer == QLatin1String("adamw"))
        QCOMPARE(modelStates(e), 112'000'000'000ull);
}

void TestSeedFacts::s9ThreeToFourTimesFp32Weights()
{
    // 3-4 x 28 GB = 84-112 GB (the notes print 78-104).
    QCOMPARE(core::rules::fp32WeightsTimes(7'000'000'000ull, 3).count(), 84'000'000'000ull);
    QCOMPARE(core::rules::fp32WeightsTimes(7'000'000'000ull, 4).count(), 112'000'000'000ull);
}

void TestSeedFacts::s10HostRamExample()
{
    // "LLaMA-7B" with 6e9 parameters: fp32 24 + 24 + 48 = 96 GB.
    core::Scenario s = withParameters(6'000'000'000ull);
    s.mode = core::Mode::Train;
    s.regime = core::Regime::Fp32;
    QCOMPARE(modelStates(core::estimate(s)), 96'000'000'000ull);
    // int8 line: weights 6 GB (1 B) and 8-bit AdamW 12 GB (2 B), plus the
    // ~1.3 GB eager CUDA context (S11).
    QCOMPARE(core::formatBits(core::WeightFormat::Int8, 128, 4096).total() / 8.0 * 6e9, 6e9);
    s.optimizer = core::Optimizer::AdamW8bit;
    QCOMPARE(termAtStep(core::estimate(s), core::TermId::Optimizer), 12'000'000'000ull);
    s.cudaLoading = core::CudaLoading::Eager;
    QCOMPARE(s.effectiveCudaOverheadMib(), 1343.0);
}

void TestSeedFacts::s11CudaContextDefaults()
{
    core::Scenario s = withParameters(1'000'000'000ull);
    s.cudaLoading = core::CudaLoading::Eager;
    QCOMPARE(core::estimate(s).term(core::TermId::CudaOverhead), core::Bytes::mib(1343));
    s.cudaLoading = core::CudaLoading::Lazy;
    QVERIFY(core::estimate(s).term(core::TermId::CudaOverhead) < core::Bytes::mib(1343));
    s.cudaOverheadMib = 700;
    QCOMPARE(core::estimate(s).term(core::TermId::CudaOverhead), core::Bytes::mib(700));
}

void TestSeedFacts::s12BaichuanWeights_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("gib");
    // 7,000,559,616 parameters: 26.08 / 13.04 / 6.52 / 3.26 GiB.
    QTest::newRow("baichuan-7b fp32 weights") << "fp32" << "26.08 GiB";
    QTest::newRow("baichuan-7b fp16 weights") << "fp16" << "13.04 GiB";
    QTest::newRow("baichuan-7b bf16 weights") << "bf16" << "13.04 GiB";
    QTest::newRow("baichuan-7b int8 weights") << "int8" << "6.52 GiB";
    QTest::newRow("baichuan-7b int4 weights") << "int4" << "3.26 GiB";
}

void TestSeedFacts::s12BaichuanWeights()
{
    QFETCH(QString, format);
    QFETCH(QString, gib);
    core::Scenario s = withPreset("baichuan-7b");
    s.weights = core::parseFormat(format.toStdString());
    const core::Bytes weights = core::estimate(s).term(core::TermId::Weights);
    QCOMPARE(QString::fromStdString(core::formatBytes(weights)), gib);
    const double bytesPerParam = core::formatBits(*s.weights, 128, 4096).total() / 8.0;
    QCOMPARE(weights.count(), static_cast<std::uint64_t>(7'000'559'616.0 * bytesPerParam));
}

void TestSeedFacts::s12BaichuanOnConsumerCards()
{
    const core::Catalog &catalog = core::io::builtinCatalog();
    core::Scenario s = withPreset("baichuan-7b");
    s.weights = core::WeightFormat::Fp32;
    // fp32 weights alone (26.08 GiB) exceed every 24 GB GeForce card.
    const core::Bytes fp32 = core::estimate(s).term(core::TermId::Weights);
    QVERIFY(fp32 > catalog.find("rtx-4090")->memory && fp32 > catalog.find("rtx-3090")->memory);
    // int8 weights fit an 8 GB RTX 3070 and int4 weights a 4 GB GTX 960 ...
    s.weights = core::WeightFormat::Int8;
    QVERIFY(core::estimate(s).term(core::TermId::Weights) < catalog.find("rtx-3070")->capacity());
    s.weights = core::WeightFormat::Int4;
    QVERIFY(core::estimate(s).term(core::TermId::Weights) < catalog.find("gtx-960")->capacity());
    // ... but the CUDA context and KV cache decide (S5/S11): at the default
    // 2,048-token context the GTX 960 is full, and the longest context
    // that fits is far shorter.
    const core::EstimateWithFits r = core::estimateWithFits(s, catalog, {"gtx-960"});
    QVERIFY(!r.fits.front().fits);
    QVERIFY(r.fits.front().maxSequence < 2048);
}

void TestSeedFacts::s13NotesActivationRule()
{
    const core::io::ModelPreset *llama = core::io::findPreset("llama-2-7b");
    // (4096 + 11008) x 2048 x 32 x 1 B = 989,855,744 B (~990 MB).
    QCOMPARE(core::rules::notesActivationsPerSample(llama->model, 2048, 1).count(), 989'855'744ull);
    // The detailed model (Korthikanti et al.) stores far more per sample.
    core::Scenario s = withPreset("llama-2-7b");
    s.mode = core::Mode::Train;
    s.batch = 1;
    s.sequence = 2048;
    QVERIFY(core::estimate(s).phases[0].terms[static_cast<std::size_t>(core::TermId::Activations)].count()
            > 4 * 989'855'744ull);
}

VRAM_TEST_MAIN(tst_seedfacts, TestSeedFacts, None)
#include "tst_seedfacts.moc"
