// Every mode x regime x weight format x ZeRO stage x checkpointing x
// training stack x bitsandbytes version x attention, for a dense, an MoE and
// a GPT-2-style model: no term may exceed what the scenario can physically
// hold. The bounds come from the model's shapes alone, never from the
// engine's own intermediate figures:
//
//   P      all parameters; Pt the trainable ones (all, or the adapters'
//          r x (in + out) per targeted matrix); Lmax one layer's parameters;
//          Mmax the largest single matrix (lm_head included)
//   T      tokens per micro-batch (b x s); L layers; V vocabulary
//   Lambda bytes one layer can save per token: 64 (h + q-width) + 32 I k
//          (I the MLP width, k the experts a token visits) + 8 experts,
//          + 16 a s with eager attention. Every saved tensor of a block is
//          at most fp32 and there are fewer than 16 of width h or q-width
//          and 8 of width I (Korthikanti et al. 2022 count 34 bytes x h at
//          16 bits for a whole GPT layer).
//
//   weights        <= 4 P           nothing stores a weight wider than fp32
//   lora           <= 4 Pt (adapter modes), else 0
//   master_weights <= 4 Pt, gradients <= 6 Pt (DeepSpeed's 16-bit + fp32),
//   optimizer      <= 12 Pt (AMSGrad: three fp32 states)
//   activations    <= pipeline in-flight x L x T x Lambda + 64 h T outside
//   logits         <= 16 T V        (16-bit logits, fp32 copy, two fp32 gradients)
//   kv_cache       0 in training; <= 8 L kv-width T in inference
//   gather_buffer  <= 8 max(Lmax, Mmax) with ZeRO-3, else 0 (the largest gathered
//                  module at fp32, twice: the current and the prefetched one)
//   workspace      <= 2 Pt (autocast's cache of trainable fp32 leaves)
//                   + 2 F  (16-bit casts of frozen fp32 weights: F = P for an
//                          fp32 base; the parameters outside the layers'
//                          linear matrices when PEFT's kbit upcast makes them
//                          fp32; else 0)
//                   + 14 Mmax (one dequantised matrix, torchao's worst case)
//                   + T Lambda + T (32 I k + 8 h) (a recomputed layer and its gradients)
//                   + 4 Pt (the optimizer step's temporaries)
//                   in training; <= 64 T (h + I k) + 16 b a s^2 in inference.
//
// In particular no 16-bit or quantised frozen weight is ever copied whole:
// with a 16-bit or 4-bit base F is 0 and the workspace cannot grow with P.

#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <algorithm>

namespace {

struct Shape
{
    double P = 0, Punq = 0, Lmax = 0, Mmax = 0, h = 0, qw = 0, kvw = 0, Ik = 0, experts = 0, a = 0, L = 0, V = 0;
};

Shape shapeOf(const core::ModelSpec &m)
{
    Shape s;
    for (const core::TensorGroup &g : core::enumerateTensors(m)) {
        s.P += static_cast<double>(g.elements());
        const bool layerLinear = g.role == core::TensorRole::AttentionLinear || g.role == core::TensorRole::MlpLinear
            || g.role == core::TensorRole::ExpertLinear;
        s.Punq += layerLinear ? 0.0 : static_cast<double>(g.elements());
        s.Mmax = std::max(s.Mmax, static_cast<double>(g.rows) * static_cast<double>(g.cols));
    }
    s.Lmax = static_cast<double>(core::parametersPerLayer(m));
    s.h = static_cast<double>(m.hidden);
    s.qw = static_cast<double>(m.qWidth());
    s.kvw = static_cast<double>(m.kvWidth());
    const double I = static_cast<double>(m.moe.isMoe() ? std::max(m.moe.expertIntermediate, m.intermediate) : m.intermediate);
    s.Ik = I * (m.moe.isMoe() ? m.moe.expertsPerToken + m.moe.sharedExperts : 1);
    s.experts = m.moe.experts;
    s.a = static_cast<double>(m.heads);
    s.L = static_cast<double>(m.layers);
    s.V = static_cast<double>(m.vocab);
    return s;
}

double adapterParams(const core::ModelSpec &m, const core::LoraSettings &lora)
{
    double p = 0;
    for (const core::TensorGroup &g : core::enumerateTensors(m))
        if (std::find(lora.targets.begin(), lora.targets.end(), g.slot) != lora.targets.end())
            p += static_cast<double>(lora.rank) * static_cast<double>(g.rows + g.cols) * static_cast<double>(g.count);
    return p;
}

} // namespace

class TestBounds : public QObject
{
    Q_OBJECT

private slots:
    void everyTermWithinItsBound_data();
    void everyTermWithinItsBound();
};

void TestBounds::everyTermWithinItsBound_data()
{
    QTest::addColumn<QString>("preset");
    QTest::newRow("llama-2-7b (dense, MHA)") << QStringLiteral("llama-2-7b");
    QTest::newRow("mixtral-8x7b (MoE, GQA)") << QStringLiteral("mixtral-8x7b");
    QTest::newRow("gpt2 (LayerNorm, dropout, tied)") << QStringLiteral("gpt2");
}

void TestBounds::everyTermWithinItsBound()
{
    QFETCH(QString, preset);
    const core::io::ModelPreset *found = core::io::findPreset(preset.toStdString());
    QVERIFY(found);
    const core::ModelSpec &m = found->model;
    const Shape sh = shapeOf(m);
    int checked = 0;
    int combination = 0;
    for (const core::ModeInfo &mode : core::allModes())
        for (const core::RegimeInfo &regime : core::allRegimes())
            for (const core::FormatInfo &format : core::allFormats())
                for (int zero = 0; zero <= 3; ++zero)
                    for (auto checkpointing : {core::Checkpointing::None, core::Checkpointing::Selective, core::Checkpointing::Full})
                        for (auto stack : {core::TrainingStack::Hf, core::TrainingStack::Torchtune, core::TrainingStack::LitGpt,
                                           core::TrainingStack::Loop})
                            for (const char *versions : {"", "transformers=4.30,peft=0.10,torch=1.13,bitsandbytes=0.43.1"})
                                for (auto attention : {core::Attention::Eager, core::Attention::Sdpa, core::Attention::Flash}) {
        core::Scenario s;
        s.model = m;
        s.mode = mode.mode;
        s.regime = regime.regime;
        if (format.cacheOnly || format.checkpointOnly)
            continue;
        // Every combination in the release suite, every third under the
        // sanitizers (VRAM_BOUNDS_STRIDE, tests/core/CMakeLists.txt).
        if (combination++ % VRAM_BOUNDS_STRIDE != 0)
            continue;
        s.weights = format.format;
        s.zeroStage = zero;
        s.gpus = zero > 0 ? 2 : 1;
        s.checkpointing = checkpointing;
        s.stack = stack;
        std::optional<core::Message> error;
        s.versions = *core::parseLibraryVersions(versions, error);
        s.attention = attention;
        s.batch = 2;
        s.sequence = 512;
        s.lora.dropout = 0.1;
        const core::Estimate e = core::estimate(s);
        QVERIFY(e.isValid());
        ++checked;

        const bool training = s.isTraining();
        const bool adapters = s.mode == core::Mode::Lora || s.mode == core::Mode::Qlora;
        const double Pt = s.mode == core::Mode::Train ? sh.P : adapters ? adapterParams(m, s.lora) : 0.0;
        const double T = static_cast<double>(s.batch * s.sequence);
        const double seq = static_cast<double>(s.sequence);
        const double eager = attention == core::Attention::Eager ? 16.0 * sh.a * seq : 0.0;
        const double lambda = 64.0 * (sh.h + sh.qw) + 32.0 * sh.Ik + 8.0 * sh.experts + eager;
        const bool floatBase = format.format == core::WeightFormat::Fp32 || format.format == core::WeightFormat::Fp16
            || format.format == core::WeightFormat::Bf16;
        const double F = !adapters ? 0.0
            : format.format == core::WeightFormat::Fp32             ? sh.P
            : !floatBase && stack == core::TrainingStack::Hf        ? sh.Punq
                                                                    : 0.0;
        const bool gathers = training && zero == 3;

        const auto within = [&](core::TermId id, double bound) {
            const double bytes = static_cast<double>(e.term(id).count());
            if (bytes > bound + 1.0)
                QFAIL(qPrintable(QStringLiteral("%1 %2 %3 zero %4 ckpt %5 stack %6 versions %7 attention %8: %9 = %10 B > bound %11 B")
                                     .arg(QString::fromUtf8(mode.id), QString::fromUtf8(regime.id),
                                          QString::fromUtf8(format.id))
                                     .arg(zero)
                                     .arg(QString::fromUtf8(core::checkpointingId(checkpointing)))
                                     .arg(int(stack))
                                     .arg(QString::fromUtf8(versions))
                                     .arg(QString::fromUtf8(core::attentionId(attention)),
                                          QString::fromUtf8(core::termId(id)))
                                     .arg(bytes, 0, 'f', 0)
                                     .arg(bound, 0, 'f', 0)));
        };
        within(core::TermId::Weights, 4.0 * sh.P);
        within(core::TermId::Lora, adapters ? 4.0 * Pt : 0.0);
        within(core::TermId::MasterWeights, 4.0 * Pt);
        within(core::TermId::Gradients, 6.0 * Pt);
        within(core::TermId::Optimizer, 12.0 * Pt);
        within(core::TermId::Activations, training ? sh.L * T * lambda + 64.0 * sh.h * T : 0.0);
        within(core::TermId::Logits, 16.0 * T * sh.V);
        within(core::TermId::KvCache, training ? 0.0 : 8.0 * sh.L * sh.kvw * T);
        within(core::TermId::GatherBuffer, gathers ? 8.0 * std::max(sh.Lmax, sh.Mmax) : 0.0);
        within(core::TermId::Workspace,
               training ? 2.0 * Pt + 2.0 * F + 14.0 * sh.Mmax + T * lambda + T * (32.0 * sh.Ik + 8.0 * sh.h) + 4.0 * Pt
                        : 64.0 * T * (sh.h + sh.Ik) + 16.0 * static_cast<double>(s.batch) * sh.a * seq * seq);
        if (QTest::currentTestFailed())
            return;
    }
    const auto weightFormats = std::count_if(core::allFormats().begin(), core::allFormats().end(),
                                             [](const core::FormatInfo &f) { return !f.cacheOnly && !f.checkpointOnly; });
    const int combinations = 4 * 5 * static_cast<int>(weightFormats) * 4 * 3 * 4 * 2 * 3;
    QCOMPARE(combination, combinations);
    QCOMPARE(checked, (combinations + VRAM_BOUNDS_STRIDE - 1) / VRAM_BOUNDS_STRIDE);
}

VRAM_TEST_MAIN(tst_bounds, TestBounds, None)
#include "tst_bounds.moc"
