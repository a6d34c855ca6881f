// The prepared path (core::PreparedScenario, what sweeps, grids and fit
// searches reuse across points) against the plain estimate: bit for bit the
// same terms, totals, phases, details and errors, over every preset in each
// mode, serving engine and layout, at batch and sequence points other than
// the ones it was prepared at.

#include "core/analysis/sweep.h"
#include "core/engine/estimate.h"
#include "core/engine/preparedscenario.h"
#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "core/memory/formularecord.h"
#include "core/scenario/stack.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <cstring>

namespace {

/// Bit-identical doubles (NaN equals NaN; 0.0 and -0.0 differ).
bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

using Details = core::EstimateDetails;
using Counts = core::ParameterCounts;

/// The details' numbers, by name.
const std::pair<const char *, std::uint64_t Counts::*> kCounts[] = {
    {"total", &Counts::total}, {"active", &Counts::active}, {"embedding", &Counts::embedding},
    {"lmHead", &Counts::lmHead}, {"linear", &Counts::linear}, {"experts", &Counts::experts},
    {"small", &Counts::small}, {"largestLayer", &Counts::largestLayer}, {"vision", &Counts::vision},
    {"mtp", &Counts::mtp}};
const std::pair<const char *, std::uint64_t Details::*> kWholeNumbers[] = {
    {"trainableParams", &Details::trainableParams}, {"loraParams", &Details::loraParams},
    {"logitsTokens", &Details::logitsTokens}, {"layersOnGpu", &Details::layersOnGpu}};
const std::pair<const char *, double Details::*> kReals[] = {
    {"weightBytesTotal", &Details::weightBytesTotal}, {"unquantizedBytes", &Details::unquantizedBytes},
    {"optimizerBytesTotal", &Details::optimizerBytesTotal},
    {"activationBytesPerLayer", &Details::activationBytesPerLayer},
    {"activationPerTokenPerLayer", &Details::activationPerTokenPerLayer},
    {"activationOutsideLayers", &Details::activationOutsideLayers},
    {"recomputeLayerBytes", &Details::recomputeLayerBytes}, {"autocastBytes", &Details::autocastBytes},
    {"dequantBytes", &Details::dequantBytes}, {"headDequantBytes", &Details::headDequantBytes},
    {"logitsElementBytes", &Details::logitsElementBytes}, {"lossSavedElementBytes", &Details::lossSavedElementBytes},
    {"kvBytesPerToken", &Details::kvBytesPerToken}, {"activationElementBytes", &Details::activationElementBytes},
    {"kvElementBytes", &Details::kvElementBytes}, {"workspaceBytes", &Details::workspaceBytes},
    {"samplerRows", &Details::samplerRows}, {"microBatchesInFlight", &Details::microBatchesInFlight},
    {"hostBytesPerGpu", &Details::hostBytesPerGpu}, {"expertBytesOnGpu", &Details::expertBytesOnGpu},
    {"hostWeightBytes", &Details::hostWeightBytes}, {"hostExpertBytes", &Details::hostExpertBytes},
    {"hostKvBytes", &Details::hostKvBytes}, {"cudaOverheadMib", &Details::cudaOverheadMib}};
const std::pair<const char *, double core::RegimeBytes::*> kRegime[] = {
    {"weights", &core::RegimeBytes::weights}, {"masterWeights", &core::RegimeBytes::masterWeights},
    {"gradients", &core::RegimeBytes::gradients}, {"autocastCopies", &core::RegimeBytes::autocastCopies},
    {"optimizerStateBytes", &core::RegimeBytes::optimizerStateBytes},
    {"activationBytes", &core::RegimeBytes::activationBytes}};

/// Every member of the details, each by name where it differs.
QStringList detailDifferences(const Details &a, const Details &b)
{
    QStringList out;
    for (const auto &[name, member] : kCounts)
        if (a.params.*member != b.params.*member)
            out << QString("params.%1").arg(name);
    for (const auto &[name, member] : kWholeNumbers)
        if (a.*member != b.*member)
            out << name;
    for (const auto &[name, member] : kReals)
        if (!sameBits(a.*member, b.*member))
            out << QString("%1: %2 != %3").arg(name).arg(a.*member, 0, 'g', 17).arg(b.*member, 0, 'g', 17);
    for (const auto &[name, member] : kRegime)
        if (!sameBits(a.regime.*member, b.regime.*member))
            out << QString("regime.%1").arg(name);
    if (a.kbitUpcast != b.kbitUpcast || a.shardDegree != b.shardDegree || a.device != b.device || a.stage != b.stage
        || !sameBits(a.weightBits.data, b.weightBits.data) || !sameBits(a.weightBits.overhead, b.weightBits.overhead)
        || std::strcmp(a.weightBits.overheadWhat, b.weightBits.overheadWhat) != 0)
        out << "kbitUpcast, shardDegree, device, stage or weightBits";
    return out;
}

/// Everything an estimate holds that differs between the two, by name.
QStringList differences(const core::Estimate &a, const core::Estimate &b)
{
    QStringList out;
    if (a.terms != b.terms)
        out << "terms";
    if (a.total != b.total)
        out << QString("total: %1 != %2").arg(a.total.count()).arg(b.total.count());
    if (a.peakPhase != b.peakPhase)
        out << "peakPhase";
    if (a.phases.size() != b.phases.size()) {
        out << "phases";
    } else {
        for (std::size_t i = 0; i < a.phases.size(); ++i)
            if (a.phases[i].phase != b.phases[i].phase || a.phases[i].terms != b.phases[i].terms
                || a.phases[i].total != b.phases[i].total || std::strcmp(a.phases[i].moment, b.phases[i].moment) != 0)
                out << QString("phase %1").arg(i);
    }
    if (a.errors != b.errors)
        out << "errors";
    if (a.warnings.size() != b.warnings.size())
        out << "warnings";
    else
        for (std::size_t i = 0; i < a.warnings.size(); ++i)
            if (a.warnings[i].args != b.warnings[i].args || std::strcmp(a.warnings[i].text, b.warnings[i].text) != 0)
                out << QString("warning %1").arg(i);
    return out + detailDifferences(a.details, b.details);
}

/// One way to run a model: a mode, a serving engine and a layout.
struct Setup
{
    const char *name;
    void (*apply)(core::Scenario &);
};

const Setup kSetups[] = {
    {"generate", [](core::Scenario &) {}},
    {"generate on 2 GPUs (device_map)", [](core::Scenario &s) { s.gpus = 2; }},
    {"generate tp 2", [](core::Scenario &s) { s.gpus = 2; s.parallel.tp = 2; }},
    {"generate eager fp32 logits", [](core::Scenario &s) {
         s.attention = core::Attention::Eager;
         s.logits = core::LogitsMode::Fp32;
     }},
    {"vllm", [](core::Scenario &s) { s.serving = core::ServingEngine::Vllm; }},
    {"vllm tp 2", [](core::Scenario &s) {
         s.serving = core::ServingEngine::Vllm;
         s.gpus = 2;
         s.parallel.tp = 2;
     }},
    {"llamacpp", [](core::Scenario &s) { s.serving = core::ServingEngine::LlamaCpp; }},
    {"llamacpp split 3:1 over 2 GPUs, part on the host", [](core::Scenario &s) {
         s.serving = core::ServingEngine::LlamaCpp;
         s.gpus = 2;
         s.tensorSplit = {3, 1};
         s.gpuLayers = 10;
         s.cpuMoeLayers = 2;
     }},
    {"llamacpp q8_0 cache on 2 GPUs", [](core::Scenario &s) {
         s.serving = core::ServingEngine::LlamaCpp;
         s.gpus = 2;
         s.kvDtype = core::WeightFormat::GgufQ8_0;
     }},
    {"train", [](core::Scenario &s) { s.mode = core::Mode::Train; }},
    {"train eager, selective recompute", [](core::Scenario &s) {
         s.mode = core::Mode::Train;
         s.attention = core::Attention::Eager;
         s.checkpointing = core::Checkpointing::Selective;
     }},
    {"train zero-3 over 4 GPUs, full recompute", [](core::Scenario &s) {
         s.mode = core::Mode::Train;
         s.gpus = 4;
         s.zeroStage = 3;
         s.checkpointing = core::Checkpointing::Full;
     }},
    {"train pp 2 x tp 2, interleaved, sp", [](core::Scenario &s) {
         s.mode = core::Mode::Train;
         s.gpus = 8;
         s.parallel.tp = 2;
         s.parallel.pp = 2;
         s.parallel.interleave = 2;
         s.parallel.sequenceParallel = true;
         s.gradAccum = 4;
     }},
    {"train zero-offload", [](core::Scenario &s) {
         s.mode = core::Mode::Train;
         s.gpus = 2;
         s.zeroStage = 2;
         s.parallel.offload = core::Offload::OptimizerAndParams;
     }},
    {"lora", [](core::Scenario &s) { s.mode = core::Mode::Lora; }},
    {"lora torchtune, dropout", [](core::Scenario &s) {
         s.mode = core::Mode::Lora;
         s.stack = core::TrainingStack::Torchtune;
         s.lora.dropout = 0.1;
     }},
    {"qlora", [](core::Scenario &s) { s.mode = core::Mode::Qlora; }},
    {"qlora litgpt, legacy bitsandbytes", [](core::Scenario &s) {
         s.mode = core::Mode::Qlora;
         s.stack = core::TrainingStack::LitGpt;
         s.versions.set(core::Library::Bitsandbytes, core::kLastBitsandbytesKeepingInputs);
     }},
    {"qlora fsdp over 2 GPUs", [](core::Scenario &s) {
         s.mode = core::Mode::Qlora;
         s.gpus = 2;
         s.zeroStage = 3;
     }},
    {"train zero-1, optimizer offload, accumulation", [](core::Scenario &s) {
         s.mode = core::Mode::Train;
         s.gpus = 2;
         s.zeroStage = 1;
         s.parallel.offload = core::Offload::Optimizer;
         s.gradAccum = 2;
     }},
    {"generate pp 2 x tp 2", [](core::Scenario &s) {
         s.gpus = 4;
         s.parallel.pp = 2;
         s.parallel.tp = 2;
     }},
    {"generate, 10 layers on the GPU (device_map offload)", [](core::Scenario &s) { s.gpuLayers = 10; }},
    {"vllm, 4 GiB cpu offload, 3 samples", [](core::Scenario &s) {
         s.serving = core::ServingEngine::Vllm;
         s.cpuOffloadGib = 4;
         s.beams = 3;
     }},
    {"generate with a draft", [](core::Scenario &s) {
         s.draft.presetId = "qwen2.5-0.5b";
         core::io::resolveDraft(s, core::io::builtinPresets());
     }},
    {"llamacpp with a draft on 2 GPUs", [](core::Scenario &s) {
         s.serving = core::ServingEngine::LlamaCpp;
         s.gpus = 2;
         s.draft.presetId = "qwen2.5-0.5b";
         core::io::resolveDraft(s, core::io::builtinPresets());
     }},
};

/// Points away from where the scenario was prepared, one beyond the limits.
const std::pair<std::uint64_t, std::uint64_t> kPoints[] = {
    {1, 1}, {1, 4096}, {3, 1000}, {64, 128}, {7, 32768}, {0, 2048}, {2, core::ScenarioLimits::maxSequence + 1},
};

} // namespace

class TestPrepared : public QObject
{
    Q_OBJECT

private slots:
    void preparedMatchesEstimate_data();
    void preparedMatchesEstimate();
    void gridMatchesEstimate();
    void reserveIsTheTensorsShareAtAnySize_data();
    void reserveIsTheTensorsShareAtAnySize();
};

void TestPrepared::preparedMatchesEstimate_data()
{
    QTest::addColumn<QString>("preset");
    for (const core::io::ModelPreset &p : core::io::builtinPresets())
        QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
}

void TestPrepared::preparedMatchesEstimate()
{
    QFETCH(QString, preset);
    int valid = 0;
    for (const Setup &setup : kSetups) {
        core::Scenario s;
        s.model = core::io::findPreset(preset.toStdString())->model;
        setup.apply(s);
        const core::PreparedScenario prepared(s);
        for (const auto &[batch, sequence] : kPoints) {
            s.batch = batch;
            s.sequence = sequence;
            const core::Estimate plain = core::estimate(s);
            const QStringList diff = differences(core::estimate(s, prepared), plain);
            QVERIFY2(diff.isEmpty(), qPrintable(QString("%1, batch %2, sequence %3: %4")
                                                    .arg(setup.name)
                                                    .arg(batch)
                                                    .arg(sequence)
                                                    .arg(diff.join("; "))));
            valid += plain.isValid() ? 1 : 0;
        }
    }
    // Most setups are valid for most models: the comparison is not vacuous.
    QVERIFY(valid > static_cast<int>(std::size(kSetups)) * 3);
}

void TestPrepared::gridMatchesEstimate()
{
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-7b")->model;
    s.mode = core::Mode::Qlora;
    const std::vector<std::uint64_t> batches = {1, 2, 5, 0};
    const std::vector<std::uint64_t> sequences = {1, 512, 8192};
    const std::vector<core::Bytes> grid = core::batchContextGrid(s, batches, sequences);
    QCOMPARE(grid.size(), batches.size() * sequences.size());
    for (std::size_t i = 0; i < batches.size(); ++i)
        for (std::size_t j = 0; j < sequences.size(); ++j) {
            s.batch = batches[i];
            s.sequence = sequences[j];
            const core::Estimate e = core::estimate(s);
            // A point the scenario's limits reject never fits.
            QCOMPARE(grid[i * sequences.size() + j].count(), e.isValid() ? e.total.count() : core::Bytes::max().count());
        }
}

void TestPrepared::reserveIsTheTensorsShareAtAnySize_data()
{
    QTest::addColumn<quint64>("batch");
    QTest::addColumn<quint64>("sequence");
    // Llama-2-70B training: ~10^12 bytes per GPU at one sequence of 4k
    // tokens; a million sequences of 16k tokens make ~10^19, past 2^53
    // (where whole bytes stop being exact doubles) but short of 2^64.
    QTest::newRow("below 2^53") << quint64(1) << quint64(4096);
    QTest::newRow("above 2^53") << quint64(1u << 20) << quint64(1u << 14);
}

void TestPrepared::reserveIsTheTensorsShareAtAnySize()
{
    QFETCH(quint64, batch);
    QFETCH(quint64, sequence);
    core::Scenario s;
    s.model = core::io::findPreset("llama-2-70b")->model;
    s.mode = core::Mode::Train;
    s.batch = batch;
    s.sequence = sequence;
    const core::Estimate e = core::estimate(s);
    QVERIFY(e.isValid());
    QVERIFY(!e.total.isSaturated());
    core::FormulaRecord record;
    core::recordFormulas(s, e, record);
    for (const core::PhaseTotal &phase : e.phases) {
        // By hand: the tensors (every term up to the gather buffer) added
        // left to right as doubles, times the reserve share (a percentage
        // over 100).
        double tensors = 0;
        for (std::size_t i = 0; i <= static_cast<std::size_t>(core::TermId::GatherBuffer); ++i)
            tensors += static_cast<double>(phase.terms[i].count());
        const std::size_t reserve = static_cast<std::size_t>(core::TermId::AllocatorReserve);
        QCOMPARE(phase.terms[reserve].count(), core::Bytes::fromDouble(tensors * (s.reservePercent / 100.0)).count());
        // The explanation's formula evaluates to the same bytes.
        const core::TermFormula *how = record.find(phase.phase, phase.moment, core::TermId::AllocatorReserve);
        QVERIFY(how);
        QCOMPARE(core::Bytes::fromDouble(how->evaluate()).count(), phase.terms[reserve].count());
    }
    QVERIFY(batch == 1 || e.total.count() > (std::uint64_t(1) << 53));
}

VRAM_TEST_MAIN(tst_prepared, TestPrepared, None)
#include "tst_prepared.moc"
