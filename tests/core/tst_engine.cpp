// Properties of the estimate that hold for any input, and the behaviours
// the issue names: phases, sharding, layer split, sliding windows, LoRA,
// quantised layers kept at 16 bits, fits and searches, extreme inputs.

#include "core/analysis/fit.h"
#include "core/analysis/sweep.h"
#include "core/engine/estimate.h"
#include "core/explain/explain.h"
#include "core/explain/report.h"
#include "core/explain/rulesofthumb.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <functional>

namespace {

core::Scenario preset(const char *id, core::Mode mode = core::Mode::Inference)
{
    core::Scenario s;
    s.model = core::io::findPreset(id)->model;
    s.source = {core::ModelSource::Kind::Preset, id, "", 0};
    s.mode = mode;
    return s;
}

std::uint64_t term(const core::Estimate &e, core::TermId id) { return e.term(id).count(); }

/// By value: callers pass temporaries (found by the ASan build).
core::PhaseTotal phase(const core::Estimate &e, core::Phase p)
{
    for (const core::PhaseTotal &t : e.phases)
        if (t.phase == p)
            return t;
    qFatal("phase missing");
}

} // namespace

class TestEngine : public QObject
{
    Q_OBJECT

private slots:
    void totalIsSumOfTerms_data();
    void totalIsSumOfTerms();
    void gradientAccumulationKeepsGradients();
    void zeroStagesShrinkModelStates();
    void inferenceLayerSplit();
    void slidingWindowCapsKvCache();
    void loraTrainsOnlyAdapters();
    void qloraKeepsEmbeddingsUnquantized();
    void nf4DoubleQuantBits();
    void gptqGroupSize();
    void checkpointingShrinksActivations();
    void eagerAttentionGrowsQuadratically();
    void searchesAreConsistent();
    void capabilityWarnings();
    void servingKvBudget();
    void extremeInputsSaturate();
    void headroomIsCapacityMinusTotal();
    void invalidScenarioReportsErrors();
    void derivationsCarryValues();
    void unusedTermsSayWhy();
    void sweepCrossingsMatchTheSearches_data();
    void sweepCrossingsMatchTheSearches();
    void reportsShowNoneAsADash();
    void reportSaysWhatOverridesTheRegime();
    void peakGradientsSayWhereTheyAreWhole();
    void rulesOfThumbAgainstTheDetail();
};

void TestEngine::totalIsSumOfTerms_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("mode");
    for (const char *id : {"llama-3-8b", "mixtral-8x7b", "gpt2", "bert-large-uncased", "gpt-oss-20b", "falcon-40b"})
        for (int mode = 0; mode < 4; ++mode)
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(id), QLatin1String(core::modeId(static_cast<core::Mode>(mode))))))
                << QString::fromLatin1(id) << mode;
}

void TestEngine::totalIsSumOfTerms()
{
    QFETCH(QString, id);
    QFETCH(int, mode);
    core::Scenario s = preset(id.toLatin1().constData(), static_cast<core::Mode>(mode));
    s.gpus = 2;
    s.zeroStage = 2;
    const core::Estimate e = core::estimate(s);
    QVERIFY(e.isValid());
    for (const core::PhaseTotal &p : e.phases) {
        std::uint64_t sum = 0;
        for (core::Bytes b : p.terms)
            sum += b.count();
        QCOMPARE(p.total.count(), sum);
        QVERIFY(p.total <= e.total); // the peak phase is the largest
    }
}

void TestEngine::gradientAccumulationKeepsGradients()
{
    core::Scenario s = preset("llama-3-8b", core::Mode::Train);
    QCOMPARE(phase(core::estimate(s), core::Phase::Forward).terms[static_cast<std::size_t>(core::TermId::Gradients)].count(), 0ull);
    s.gradAccum = 4;
    // 8,030,261,248 parameters x 2 B of 16-bit gradients stay alive.
    QCOMPARE(phase(core::estimate(s), core::Phase::Forward).terms[static_cast<std::size_t>(core::TermId::Gradients)].count(),
             16'060'522'496ull);
}

void TestEngine::zeroStagesShrinkModelStates()
{
    core::Scenario s = preset("llama-2-7b", core::Mode::Train);
    s.gpus = 8;
    std::uint64_t previous = ~0ull;
    for (int stage = 0; stage <= 3; ++stage) {
        s.zeroStage = stage;
        const core::PhaseTotal step = phase(core::estimate(s), core::Phase::OptimizerStep);
        std::uint64_t states = 0;
        for (core::TermId id : {core::TermId::Weights, core::TermId::MasterWeights, core::TermId::Gradients, core::TermId::Optimizer})
            states += step.terms[static_cast<std::size_t>(id)].count();
        QVERIFY(states < previous);
        previous = states;
    }
    // Stage 3 adds the gathered-layer buffer: 2 x largest layer x 2 B.
    QCOMPARE(term(core::estimate(s), core::TermId::GatherBuffer), 2ull * 202'383'360 * 2);
    QVERIFY(term(core::estimate(s), core::TermId::CommBuffers) > 0);
}

void TestEngine::inferenceLayerSplit()
{
    core::Scenario s = preset("llama-2-70b");
    const std::uint64_t whole = term(core::estimate(s), core::TermId::Weights);
    s.gpus = 4;
    const std::uint64_t share = term(core::estimate(s), core::TermId::Weights);
    // 80 layers over 4 GPUs: 20 layers plus the larger end (embedding).
    QVERIFY(share > whole / 4 && share < whole / 4 + 2 * 32000ull * 8192 * 2);
    s.gpus = 3; // 27 layers on the most loaded GPU
    QVERIFY(term(core::estimate(s), core::TermId::Weights) > whole / 3);
}

void TestEngine::slidingWindowCapsKvCache()
{
    // Mistral 7B v0.1: every layer slides over 4,096 tokens.
    core::Scenario s = preset("mistral-7b");
    s.sequence = 4096;
    const std::uint64_t at4k = term(core::estimate(s), core::TermId::KvCache);
    QCOMPARE(at4k, 4096ull * 128 * 1024); // 128 KiB per token
    s.sequence = 32768;
    QCOMPARE(term(core::estimate(s), core::TermId::KvCache), at4k);
    // gpt-oss-20b: 12 of 24 layers slide over 128 tokens.
    core::Scenario oss = preset("gpt-oss-20b");
    oss.sequence = 8192;
    const std::uint64_t perLayerToken = 2ull * 8 * 64 * 2;
    QCOMPARE(term(core::estimate(oss), core::TermId::KvCache), perLayerToken * (12 * 8192 + 12 * 128));
}

void TestEngine::loraTrainsOnlyAdapters()
{
    core::Scenario s = preset("llama-2-7b", core::Mode::Lora);
    s.lora.rank = 8;
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::V};
    s.stack = core::TrainingStack::Torchtune;
    s.regime = core::Regime::Bf16Pure;
    const core::Estimate e = core::estimate(s);
    // r x (in + out) for q and v in 32 layers: 8 x (4096 + 4096) x 2 x 32,
    // in bf16 like the model (torchtune validate_expected_param_dtype).
    QCOMPARE(e.details.trainableParams, 8ull * 8192 * 2 * 32);
    QCOMPARE(term(e, core::TermId::Lora), 8ull * 8192 * 2 * 32 * 2);
    QCOMPARE(term(e, core::TermId::Weights), 6'738'415'616ull * 2);
    // PEFT upcasts the adapters to fp32 (autocast_adapter_dtype=True): 4 B
    // each, fp32 gradients and states, no master copy.
    s.stack = core::TrainingStack::Hf;
    const core::Estimate peft = core::estimate(s);
    QCOMPARE(term(peft, core::TermId::Lora), 8ull * 8192 * 2 * 32 * 4);
    QCOMPARE(term(peft, core::TermId::MasterWeights), 0ull);
    QCOMPARE(term(peft, core::TermId::Optimizer), 8ull * 8192 * 2 * 32 * 8);
}

void TestEngine::qloraKeepsEmbeddingsUnquantized()
{
    core::Scenario s = preset("llama-2-7b", core::Mode::Qlora);
    s.weights = core::WeightFormat::Nf4;
    s.stack = core::TrainingStack::Torchtune;
    const core::Estimate kept = core::estimate(s);
    // Linear weights at 4.5 bits, embeddings + lm_head + norms at 16 bits.
    const double linear = 32.0 * 202'375'168;         // 32 layers of attention + MLP matrices
    const double rest = 6'738'415'616.0 - linear;
    QCOMPARE(static_cast<double>(term(kept, core::TermId::Weights)), std::ceil(linear * 4.5 / 8 + rest * 2));
    // PEFT's prepare_model_for_kbit_training casts them to fp32.
    s.stack = core::TrainingStack::Hf;
    QCOMPARE(static_cast<double>(term(core::estimate(s), core::TermId::Weights)), std::ceil(linear * 4.5 / 8 + rest * 4));
    // ... but not when FSDP / ZeRO-3 will shard the model (TRL is_sharded_qlora).
    s.gpus = 2;
    s.zeroStage = 3;
    QCOMPARE(static_cast<double>(term(core::estimate(s), core::TermId::Weights)),
             std::ceil((linear * 4.5 / 8 + rest * 2) / 2));
    // LitGPT's Fabric plugin quantises the lm_head (32,000 x 4,096) too.
    s = preset("llama-2-7b", core::Mode::Qlora);
    s.weights = core::WeightFormat::Nf4;
    s.stack = core::TrainingStack::LitGpt;
    const double head = 32000.0 * 4096;
    QCOMPARE(static_cast<double>(term(core::estimate(s), core::TermId::Weights)),
             std::ceil((linear + head) * 4.5 / 8 + (rest - head) * 2));
    s.stack = core::TrainingStack::Torchtune;
    s.quantizeEmbeddings = true;
    QVERIFY(term(core::estimate(s), core::TermId::Weights) < term(kept, core::TermId::Weights));
}

void TestEngine::nf4DoubleQuantBits()
{
    // QLoRA §3: double quantisation costs 8/64 + 32/(64 x 256) = 0.127 bit.
    QVERIFY(std::abs(core::formatBits(core::WeightFormat::Nf4Dq, 64, 4096).overhead - 0.126953125) < 1e-12);
    QCOMPARE(core::formatBits(core::WeightFormat::Nf4, 64, 4096).total(), 4.5);
    QCOMPARE(core::formatBits(core::WeightFormat::Mxfp4, 0, 4096).total(), 4.25); // OCP MX: 32 x 4 bits + 8
}

void TestEngine::gptqGroupSize()
{
    // AutoGPTQ at g = 128: 4 + (16 + 4) / 128 + 32 / 4096 = 4.1640625 bits
    // (qwopqwop200 in llama.cpp #397: "4.16 bit").
    QCOMPARE(core::formatBits(core::WeightFormat::Gptq4, 128, 4096).total(), 4.1640625);
    QVERIFY(core::formatBits(core::WeightFormat::Gptq4, 32, 4096).total() > core::formatBits(core::WeightFormat::Gptq4, 128, 4096).total());
    QCOMPARE(core::formatBits(core::WeightFormat::Awq4, 128, 4096).total(), 4.15625);
}

void TestEngine::checkpointingShrinksActivations()
{
    core::Scenario s = preset("llama-2-7b", core::Mode::Train);
    s.batch = 4;
    const auto activations = [&s](core::Checkpointing c) {
        s.checkpointing = c;
        return phase(core::estimate(s), core::Phase::Forward).terms[static_cast<std::size_t>(core::TermId::Activations)].count();
    };
    const std::uint64_t none = activations(core::Checkpointing::None);
    const std::uint64_t full = activations(core::Checkpointing::Full);
    QVERIFY(full < none / 5);
    // Full recompute keeps each layer's input: 32 x 4 x 2048 x 4096 x 2 B, plus the outside terms.
    QVERIFY(full >= 32ull * 4 * 2048 * 4096 * 2);
}

void TestEngine::eagerAttentionGrowsQuadratically()
{
    core::Scenario s = preset("llama-2-7b", core::Mode::Train);
    s.attention = core::Attention::Eager;
    s.sequence = 1024;
    const std::uint64_t eager1k = phase(core::estimate(s), core::Phase::Forward).terms[5].count();
    s.sequence = 2048;
    const std::uint64_t eager2k = phase(core::estimate(s), core::Phase::Forward).terms[5].count();
    s.attention = core::Attention::Sdpa;
    const std::uint64_t sdpa2k = phase(core::estimate(s), core::Phase::Forward).terms[5].count();
    QVERIFY(eager2k > 2 * eager1k); // the s^2 scores
    QVERIFY(sdpa2k < eager2k);
}

void TestEngine::searchesAreConsistent()
{
    const core::Catalog &catalog = core::io::builtinCatalog();
    core::Scenario s = preset("llama-3-8b", core::Mode::Lora);
    const core::EstimateWithFits r = core::estimateWithFits(s, catalog, {"rtx-4090", "a100-sxm4-80gb", "rtx-3070"});
    QCOMPARE(r.fits.size(), std::size_t(3));
    // The boundary a search reports fits, and one step past it does not.
    const auto boundaryHolds = [](core::Scenario at, const std::function<void(core::Scenario &, std::uint64_t)> &set,
                                  std::uint64_t fitting, std::uint64_t failing, core::Bytes capacity) {
        set(at, fitting);
        const bool fits = core::estimate(at).total <= capacity;
        set(at, failing);
        return fits && core::estimate(at).total > capacity;
    };
    for (const core::GpuFit &fit : r.fits) {
        QCOMPARE(fit.fits, r.estimate.total <= fit.capacity);
        if (fit.maxBatch > 0)
            QVERIFY(boundaryHolds(s, [](core::Scenario &x, std::uint64_t v) { x.batch = v; }, fit.maxBatch,
                                  fit.maxBatch + 1, fit.capacity));
        if (fit.maxSequence > 0)
            QVERIFY(boundaryHolds(s, [](core::Scenario &x, std::uint64_t v) { x.sequence = v; }, fit.maxSequence,
                                  fit.maxSequence + 1, fit.capacity));
        if (fit.gpusNeeded > 1) {
            core::Scenario sharded = s;
            sharded.zeroStage = 3;
            QVERIFY(boundaryHolds(sharded, [](core::Scenario &x, std::uint64_t v) { x.gpus = static_cast<int>(v); },
                                  static_cast<std::uint64_t>(fit.gpusNeeded),
                                  static_cast<std::uint64_t>(fit.gpusNeeded - 1), fit.capacity));
        }
    }
}

void TestEngine::capabilityWarnings()
{
    core::Scenario s = preset("llama-2-7b");
    s.attention = core::Attention::Flash;
    s.kvDtype = core::WeightFormat::Fp8;
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {"v100-sxm2-32gb", "h100-sxm5-80gb"});
    QCOMPARE(r.fits[0].warnings.size(), std::size_t(3)); // V100: no bf16, no FlashAttention-2, no fp8
    QCOMPARE(r.fits[1].warnings.size(), std::size_t(0));
}

void TestEngine::servingKvBudget()
{
    // vLLM-style budget: capacity x 0.9 - weights - non-torch - activations,
    // divided by 128 KiB per token for Llama-3-8B.
    core::Scenario s = preset("llama-3-8b");
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {"a100-sxm4-80gb"});
    const core::Estimate &e = r.estimate;
    const double used = static_cast<double>((e.term(core::TermId::Weights) + e.term(core::TermId::CudaOverhead)
                                             + e.term(core::TermId::Workspace) + e.term(core::TermId::Logits)).count());
    const double budget = static_cast<double>(r.fits[0].capacity.count()) * 0.9 - used;
    QCOMPARE(r.fits[0].kvTokens, static_cast<std::uint64_t>(budget / 131072.0));
    QVERIFY(r.fits[0].kvTokens > 400'000);
}

void TestEngine::extremeInputsSaturate()
{
    core::Scenario s;
    s.model = core::modelFromParameterCount(2'000'000'000'000ull);
    s.mode = core::Mode::Train;
    s.sequence = 1'048'576;
    s.batch = 65536;
    s.gpus = 1024;
    s.zeroStage = 3;
    s.attention = core::Attention::Eager;
    const core::Estimate e = core::estimate(s);
    QVERIFY(e.isValid());
    QVERIFY(e.total.isSaturated() || e.total > core::Bytes::gib(1'000'000));
    QCOMPARE(core::formatBytes(e.total).empty(), false);
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {"h100-sxm5-80gb"});
    QVERIFY(!r.fits[0].fits);
    QCOMPARE(r.fits[0].maxBatch, 0ull);
    // Beyond 2^64 bytes the shortfall says "exceeds", not a clamped number.
    QVERIFY(e.total.isSaturated());
    QVERIFY(r.fits[0].shortfall.isSaturated());
    QCOMPARE(core::formatHeadroom(r.fits[0], core::ByteUnit::GiB, 1), std::string("exceeds"));
    QCOMPARE(r.fits[0].headroomBytes(), -(1ll << 62));
}

void TestEngine::headroomIsCapacityMinusTotal()
{
    // GPT-2 small inference fits an 80 GiB A100 with room to spare; at batch
    // 4096 it overflows a 4 GiB GTX 960. Headroom is capacity - total.
    core::Scenario s = preset("gpt2");
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {"a100-sxm4-80gb"});
    const core::GpuFit &fit = r.fits[0];
    QVERIFY(fit.fits);
    QCOMPARE(fit.headroom.count(), fit.capacity.count() - r.estimate.total.count());
    QCOMPARE(fit.shortfall.count(), 0ull);
    QCOMPARE(fit.headroomBytes(), static_cast<long long>(fit.headroom.count()));
    QCOMPARE(core::formatHeadroom(fit, core::ByteUnit::GiB, 1), core::formatBytes(fit.headroom, core::ByteUnit::GiB, 1));

    s.batch = 4096; // far past 4 GiB
    const core::EstimateWithFits big = core::estimateWithFits(s, core::io::builtinCatalog(), {"gtx-960"});
    const core::GpuFit &overflow = big.fits[0];
    QVERIFY(!overflow.fits);
    QCOMPARE(overflow.shortfall.count(), big.estimate.total.count() - overflow.capacity.count());
    QCOMPARE(overflow.headroomBytes(), -static_cast<long long>(overflow.shortfall.count()));
    QCOMPARE(core::formatHeadroom(overflow, core::ByteUnit::GiB, 1), "-" + core::formatBytes(overflow.shortfall, core::ByteUnit::GiB, 1));
}

void TestEngine::invalidScenarioReportsErrors()
{
    core::Scenario s = preset("gpt2");
    s.batch = 0;
    s.reservePercent = std::nan("");
    const core::Estimate e = core::estimate(s);
    QVERIFY(!e.isValid());
    QCOMPARE(e.errors.size(), std::size_t(2));
    QCOMPARE(e.total.count(), 0ull);
}

void TestEngine::derivationsCarryValues()
{
    core::Scenario s = preset("llama-2-7b");
    s.sequence = 4096;
    const core::Estimate e = core::estimate(s);
    const core::Derivation kv = core::explainTerm(s, e, core::TermId::KvCache);
    QVERIFY(kv.substituted.find("131,072 layer-tokens") != std::string::npos); // 32 layers x 4,096
    QVERIFY(kv.result.find(core::groupDigits(term(e, core::TermId::KvCache))) != std::string::npos);
    QVERIFY(!kv.source.empty());
    const core::Derivation w = core::explainTerm(s, e, core::TermId::Weights);
    QVERIFY(w.substituted.find("6,738,415,616") != std::string::npos);
    for (core::TermId id : core::allTerms())
        QVERIFY2(!core::explainTerm(s, e, id).formula.empty(), core::termId(id));
}

void TestEngine::unusedTermsSayWhy()
{
    // One GPU, no ZeRO: the NCCL and ZeRO-3 buffers are 0 and their
    // derivations say why instead of showing a product that is not 0.
    core::Scenario s = preset("llama-2-7b", core::Mode::Train);
    core::Estimate e = core::estimate(s);
    QCOMPARE(term(e, core::TermId::CommBuffers), 0ull);
    QVERIFY(core::explainTerm(s, e, core::TermId::CommBuffers).substituted.find("not used") != std::string::npos);
    QVERIFY(core::explainTerm(s, e, core::TermId::GatherBuffer).substituted.find("not used") != std::string::npos);
    // Eight GPUs under ZeRO-3: 4 MiB x 2 x 32 x 2 = 512 MiB of NCCL buffers
    // (NCCL_BUFFSIZE docs), and the gather buffer's product.
    s.gpus = 8;
    s.zeroStage = 3;
    e = core::estimate(s);
    QCOMPARE(term(e, core::TermId::CommBuffers), 512ull * 1024 * 1024);
    QVERIFY(core::explainTerm(s, e, core::TermId::CommBuffers).substituted.find("= 512 MiB") != std::string::npos);
    QVERIFY(core::explainTerm(s, e, core::TermId::GatherBuffer).substituted.find(
                core::groupDigits(e.details.params.largestLayer)) != std::string::npos);
}

void TestEngine::sweepCrossingsMatchTheSearches_data()
{
    QTest::addColumn<int>("axis");
    QTest::addColumn<QString>("gpu");
    QTest::newRow("context on RTX 3070 (Baichuan int8)") << int(core::SweepAxis::Sequence) << "rtx-3070";
    QTest::newRow("context on GTX 960 (Baichuan int8)") << int(core::SweepAxis::Sequence) << "gtx-960";
    QTest::newRow("batch on RTX 4090 (Baichuan int8)") << int(core::SweepAxis::Batch) << "rtx-4090";
}

void TestEngine::sweepCrossingsMatchTheSearches()
{
    QFETCH(int, axis);
    QFETCH(QString, gpu);
    core::Scenario s = preset("baichuan-7b");
    s.weights = core::WeightFormat::Int8;
    s.sequence = 256;
    const auto a = static_cast<core::SweepAxis>(axis);
    const core::EstimateWithFits r = core::estimateWithFits(s, core::io::builtinCatalog(), {gpu.toStdString()});
    const core::GpuFit &fit = r.fits.front();
    const std::uint64_t crossing = a == core::SweepAxis::Batch ? fit.maxBatch : fit.maxSequence;
    const std::vector<core::SweepPoint> curve =
        core::sweep(s, a, 1, a == core::SweepAxis::Batch ? 4096 : 1u << 20, 200);
    QVERIFY(curve.size() > 100);
    // The curve rises, and the labelled crossing lies between the last
    // sampled point that fits and the first that does not.
    std::uint64_t lastFitting = 0;
    std::uint64_t firstFailing = ~0ull;
    for (std::size_t i = 0; i < curve.size(); ++i) {
        if (i > 0)
            QVERIFY(curve[i].total >= curve[i - 1].total);
        if (curve[i].total <= fit.capacity)
            lastFitting = curve[i].value;
        else
            firstFailing = std::min(firstFailing, curve[i].value);
    }
    QVERIFY(crossing >= lastFitting);
    QVERIFY(crossing < firstFailing);
}

void TestEngine::reportsShowNoneAsADash()
{
    // Llama 2 70B in fp32 fits no batch on an RTX 3070: the Markdown report
    // says "-" where a 0 would read as a batch size.
    core::Scenario s = preset("llama-2-70b");
    s.weights = core::WeightFormat::Fp32;
    const core::EstimateWithFits result =
        core::estimateWithFits(s, core::io::builtinCatalog(), {"rtx-3070"});
    QCOMPARE(result.fits.front().maxBatch, 0ull);
    const std::string md = core::markdownReport(s, result, core::io::builtinCatalog(), core::ReportMeta{});
    const std::string row = md.substr(md.find("| NVIDIA GeForce RTX 3070"));
    QVERIFY2(row.find("| - | - |") != std::string::npos, row.substr(0, 160).c_str());
}

void TestEngine::reportSaysWhatOverridesTheRegime()
{
    // LoRA under the Hugging Face stack: PEFT upcasts the adapters to fp32
    // (autocast_adapter_dtype=True), so the mixed regime's master copy is
    // not made. The assumptions must say so beside "fp32 master", and the
    // master term must not blame the regime.
    core::Scenario s = preset("llama-2-7b", core::Mode::Lora);
    s.stack = core::TrainingStack::Hf;
    s.regime = core::Regime::Mixed;
    const core::EstimateWithFits result = core::estimateWithFits(s, core::io::builtinCatalog(), {});
    QCOMPARE(term(result.estimate, core::TermId::MasterWeights), 0ull);
    const std::string md = core::markdownReport(s, result, core::io::builtinCatalog(), core::ReportMeta{});
    const std::string regimeRow = md.substr(md.find("| Training regime |"));
    const std::string row = regimeRow.substr(0, regimeRow.find('\n'));
    QVERIFY2(row.find("fp32 master") != std::string::npos && row.find("with no master copy") != std::string::npos,
             row.c_str());
    QVERIFY(md.find("this regime keeps no separate master copy") == std::string::npos);
    QVERIFY(md.find("fp32 already, so there is no separate master copy") != std::string::npos);
    // No term ends in an empty stub.
    QVERIFY(md.find("Symbols: .") == std::string::npos && md.find("Source: \n") == std::string::npos);

    // Full training in the mixed regime: nothing overrides it.
    s.mode = core::Mode::Train;
    const std::string full = core::markdownReport(s, core::estimateWithFits(s, core::io::builtinCatalog(), {}),
                                                  core::io::builtinCatalog(), core::ReportMeta{});
    QVERIFY(full.find("with no master copy") == std::string::npos);
}

void TestEngine::peakGradientsSayWhereTheyAreWhole()
{
    // Full mixed-precision training of Llama 3 8B peaks as the loss runs
    // backward, when only lm_head's gradients exist (128,256 x 4,096 x 2 B);
    // all 8,030,261,248 x 2 B of them are held at the optimizer step. The
    // table and the report say so beside the small share.
    core::Scenario s = preset("llama-3-8b", core::Mode::Train);
    s.stack = core::TrainingStack::Hf;
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.peakPhase, core::Phase::Backward);
    QCOMPARE(term(e, core::TermId::Gradients), 128'256ull * 4'096 * 2);
    const core::PhaseTotal *whole = core::phaseHoldingMore(e, core::TermId::Gradients);
    QVERIFY(whole);
    QCOMPARE(whole->phase, core::Phase::OptimizerStep);
    QCOMPARE(whole->terms[core::termIndex(core::TermId::Gradients)].count(), 8'030'261'248ull * 2);
    QCOMPARE(core::termShareText(e, core::TermId::Gradients, core::ByteUnit::GiB), std::string("0.8 % (14.96 GiB in optimizer step)"));
    // Terms as large at the peak as anywhere keep their plain share.
    QVERIFY(!core::phaseHoldingMore(e, core::TermId::Optimizer));
}

void TestEngine::rulesOfThumbAgainstTheDetail()
{
    core::Scenario s = preset("llama-2-7b", core::Mode::Lora);
    s.gpus = 8; // the rules compare with one GPU, unsharded
    s.parallel.tp = 2;
    s.parallel.pp = 2;
    s.zeroStage = 3;
    const auto checks = core::compareRulesOfThumb(s);
    QCOMPARE(checks.size(), std::size_t(6));
    QCOMPARE(checks[0].rule.count(), 2ull * 6'738'415'616);  // S1
    QCOMPARE(checks[1].rule.count(), 16ull * 6'738'415'616); // S6
    QCOMPARE(checks[2].rule.count(), 20ull * 6'738'415'616); // S7
    QCOMPARE(checks[5].rule.count(), (4096ull + 11008) * 2048 * 32); // S13: (h + I) x s x L x 1 B
    // Each rule meets the scenario it speaks of, whatever the mode shown.
    core::Scenario single = preset("llama-2-7b", core::Mode::Train);
    QCOMPARE(checks[1].detailed, core::estimate(single).total);
    single.regime = core::Regime::Fp32;
    QCOMPARE(checks[3].detailed, core::estimate(single).total);
    single = preset("llama-2-7b", core::Mode::Inference);
    single.weights = core::WeightFormat::Fp16;
    QCOMPARE(checks[0].detailed, core::estimate(single).total);
    // Mixed-precision Adam training needs more than its 16n model states.
    QVERIFY(checks[1].differencePercent() < 0);
}

VRAM_TEST_MAIN(tst_engine, TestEngine, None)
#include "tst_engine.moc"
