// Derivations are the computation itself: for every term of thousands of
// random scenarios, the values shown evaluate to the bytes beside them; and
// the defects of issue 12 (a rank's layers and heads under tp/pp, the first
// gradients at the backward peak, the logits' parts, the activation rule's
// row) are checked against hand calculations.

#include "core/engine/estimate.h"
#include "core/explain/explain.h"
#include "core/explain/rulesofthumb.h"
#include "core/io/builtin.h"
#include "tests/support/substitution.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <random>

namespace {

core::Scenario preset(const char *id, core::Mode mode)
{
    core::Scenario s;
    s.model = core::io::findPreset(id)->model;
    s.source = {core::ModelSource::Kind::Preset, id, "", 0};
    s.mode = mode;
    return s;
}

template <typename T, std::size_t N>
T pick(std::mt19937_64 &rng, const T (&choices)[N])
{
    return choices[std::uniform_int_distribution<std::size_t>(0, N - 1)(rng)];
}

bool coin(std::mt19937_64 &rng) { return std::uniform_int_distribution<int>(0, 1)(rng) == 1; }

/// Any scenario a user could build: every mode, stack, format, optimizer,
/// checkpointing kind, logits mode and layout, on dense, MoE, sliding-window
/// and encoder-only presets. Some are invalid; the caller skips those.
core::Scenario randomScenario(std::mt19937_64 &rng)
{
    static const char *const presets[] = {"llama-2-7b",         "llama-3-8b",    "mistral-7b",
                                          "mixtral-8x7b",       "gpt2",          "gemma-2-2b",
                                          "qwen2.5-0.5b",       "phi-2",         "bert-large-uncased",
                                          "deepseek-moe-16b-chat", "gpt-oss-20b", "falcon-7b-instruct"};
    using core::WeightFormat;
    static const WeightFormat formats[] = {WeightFormat::Bf16,  WeightFormat::Fp16,   WeightFormat::Fp32,
                                           WeightFormat::Int8,  WeightFormat::Int4,   WeightFormat::BnbInt8,
                                           WeightFormat::Nf4,   WeightFormat::Nf4Dq,  WeightFormat::Gptq4,
                                           WeightFormat::Awq4,  WeightFormat::Mxfp4,  WeightFormat::GgufQ4KM,
                                           WeightFormat::Fp8};
    static const core::Mode modes[] = {core::Mode::Inference, core::Mode::Train, core::Mode::Lora, core::Mode::Qlora};
    static const core::Regime regimes[] = {core::Regime::Fp32, core::Regime::Amp, core::Regime::Mixed,
                                           core::Regime::DeepSpeed, core::Regime::Bf16Pure};
    static const core::Optimizer optimizers[] = {
        core::Optimizer::AdamW,      core::Optimizer::Adam,           core::Optimizer::AdamAmsgrad,
        core::Optimizer::AdamW8bit,  core::Optimizer::PagedAdamW,     core::Optimizer::PagedAdamW8bit,
        core::Optimizer::Sgd,        core::Optimizer::SgdMomentum,    core::Optimizer::Adafactor,
        core::Optimizer::Lion,       core::Optimizer::Adagrad,        core::Optimizer::RmsProp};
    static const core::OptimizerImpl impls[] = {core::OptimizerImpl::Auto, core::OptimizerImpl::Foreach,
                                                core::OptimizerImpl::Fused, core::OptimizerImpl::Loop};
    static const core::Checkpointing checkpointing[] = {core::Checkpointing::None, core::Checkpointing::Selective,
                                                        core::Checkpointing::Full};
    static const core::TrainingStack stacks[] = {core::TrainingStack::Hf, core::TrainingStack::Torchtune,
                                                 core::TrainingStack::LitGpt, core::TrainingStack::Loop};
    static const core::Attention attention[] = {core::Attention::Eager, core::Attention::Sdpa, core::Attention::Flash};
    static const core::LogitsMode logits[] = {core::LogitsMode::Fp32,    core::LogitsMode::Fp32Shift,
                                              core::LogitsMode::Native,  core::LogitsMode::Chunked,
                                              core::LogitsMode::Fused,   core::LogitsMode::LastToken};
    static const core::Offload offloads[] = {core::Offload::None, core::Offload::Optimizer,
                                             core::Offload::OptimizerAndParams};
    static const std::uint64_t batches[] = {1, 2, 3, 8};
    static const std::uint64_t sequences[] = {128, 1000, 2048, 8192};
    static const int degrees[] = {1, 1, 2, 4};
    static const int stages[] = {0, 1, 2, 3};

    core::Scenario s = preset(pick(rng, presets), pick(rng, modes));
    if (coin(rng))
        s.weights = pick(rng, formats);
    s.regime = pick(rng, regimes);
    s.optimizer = pick(rng, optimizers);
    s.optimizerImpl = pick(rng, impls);
    s.batch = pick(rng, batches);
    s.sequence = pick(rng, sequences);
    s.gradAccum = coin(rng) ? 1 : 4;
    if (coin(rng))
        s.checkpointing = pick(rng, checkpointing);
    s.stack = pick(rng, stacks);
    std::optional<core::Message> error;
    s.versions = *core::parseLibraryVersions(coin(rng) ? "" : "transformers=4.40,peft=0.11,torch=2.1,bitsandbytes=0.43.1", error);
    s.attention = pick(rng, attention);
    s.lora.rank = coin(rng) ? 8 : 64;
    if (coin(rng))
        s.lora.dropout = coin(rng) ? 0.0 : 0.05;
    if (coin(rng))
        s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::V};
    if (coin(rng))
        s.kvDtype = coin(rng) ? WeightFormat::Fp8 : WeightFormat::Fp16;
    if (coin(rng))
        s.logits = pick(rng, logits);
    s.serving = coin(rng) ? core::ServingEngine::Generate : core::ServingEngine::Vllm;
    s.maxBatchedTokens = coin(rng) ? 2048 : 8192;
    s.maxNumSeqs = coin(rng) ? 64 : 256;

    core::Parallelism &p = s.parallel;
    p.tp = pick(rng, degrees);
    p.pp = pick(rng, degrees);
    const int dp = pick(rng, degrees);
    s.gpus = p.tp * p.pp * dp;
    if (!s.isTraining() && p.tp * p.pp == 1)
        s.gpus = pick(rng, degrees); // device_map="auto" splits layers over the GPUs
    p.ep = s.model.moe.isMoe() && coin(rng) ? std::min(2, dp) : 1;
    p.sequenceParallel = p.tp > 1 && coin(rng);
    p.interleave = p.pp > 1 && coin(rng) ? 2 : 1;
    s.zeroStage = pick(rng, stages);
    p.offload = pick(rng, offloads);
    p.hybridShard = coin(rng);
    p.gpusPerNode = coin(rng) ? 8 : 2;
    s.cudaLoading = coin(rng) ? core::CudaLoading::Lazy : core::CudaLoading::Eager;
    if (coin(rng))
        s.cudaOverheadMib = 777.5;
    s.reservePercent = coin(rng) ? 5.0 : 12.5;
    return s;
}

std::string describe(const core::Scenario &s, core::TermId id, const core::Derivation &d)
{
    return std::string(core::termId(id)) + " of " + s.model.name + " (" + core::modeId(s.mode) + ", tp "
        + std::to_string(s.parallel.tp) + ", pp " + std::to_string(s.parallel.pp) + ", " + std::to_string(s.gpus)
        + " GPUs): " + std::string(d.substituted) + " -> " + std::string(d.result);
}

/// `estimateStages(s)`'s estimate of the named pipeline stage.
core::Estimate stage(const core::Scenario &s, const std::string &which)
{
    for (core::Estimate &e : core::estimateStages(s))
        if (core::stageId(e.details.stage) == which)
            return e;
    return {};
}

} // namespace

class TestDerivations : public QObject
{
    Q_OBJECT

private slots:
    void shownValuesEvaluateToTheBytes();
    void activationsSubstituteThisRanksLayers();
    void kvCacheSubstitutesThisRanksLayersAndHeads();
    void gradientsAtTheBackwardPeakAreTheFirstOnes();
    void logitsNameTheirParts();
    void activationRuleHasItsRow();
};

void TestDerivations::shownValuesEvaluateToTheBytes()
{
    std::mt19937_64 rng(20261201);
    int valid = 0;
    int terms = 0;
    for (int i = 0; i < 4000; ++i) {
        const core::Scenario s = randomScenario(rng);
        if (!core::validateScenario(s).empty())
            continue;
        ++valid;
        const core::Estimate e = core::estimate(s);
        QVERIFY(e.isValid());
        if (e.total.isSaturated())
            continue;
        for (core::TermId id : core::allTerms()) {
            const core::Derivation d = core::explainTerm(s, e, id);
            const std::optional<double> shown = testsupport::evaluateTerm(d.substituted);
            QVERIFY2(shown, describe(s, id, d).c_str());
            // Each product is rounded up to whole bytes once; a term whose
            // parts are separate tensors rounds each part on its own.
            const double bytes = static_cast<double>(e.term(id).count());
            const double products = static_cast<double>(testsupport::productCount(d.substituted));
            QVERIFY2(std::abs(std::ceil(*shown) - bytes) <= products - 1.0, describe(s, id, d).c_str());
            const auto definitions = testsupport::definitions(d.substituted);
            QVERIFY2(definitions, describe(s, id, d).c_str());
            for (const auto &[evaluated, value] : *definitions)
                QVERIFY2(std::abs(evaluated - value) <= 1e-9 * std::max(1.0, std::abs(value)),
                         describe(s, id, d).c_str());
            // Every symbol is one name ("d_io", not "in + out"), so that a
            // product reads as the product of its symbols.
            // (A legend entry's name is what its formula uses; a meaning
            // with a "; " of its own splits into entries that are not.)
            for (const std::string &name : testsupport::legendNames(d.legend))
                QVERIFY2(d.formula.find(name) == std::string::npos || name.find_first_of(" +/()*") == std::string::npos,
                         (name + " in " + describe(s, id, d)).c_str());
            // Whatever is held has a formula, symbols that say what they
            // are, and a source.
            if (bytes > 0)
                QVERIFY2(d.formula.find(" = 0") == std::string::npos && !d.legend.empty() && !d.source.empty(),
                         describe(s, id, d).c_str());
            ++terms;
        }
    }
    // A few thousand scenarios, not a handful that happened to validate.
    QVERIFY2(valid >= 2000, qPrintable(QString::number(valid)));
    QVERIFY(terms >= 2000 * static_cast<int>(core::kTermCount));
}

void TestDerivations::activationsSubstituteThisRanksLayers()
{
    // Llama-2-7B, full training (mixed: 16-bit activations), b = 1,
    // s = 2048, SDPA, no checkpointing, on tp = 2 x pp = 2. Each stage holds
    // 16 of the 32 layers. Per token and layer (Korthikanti et al. 2022
    // Table 2, generalised as core/memory/activations.cpp does), h = 4096, I = 11008:
    //   replicated: two RMSNorms (4 B fp32 input + 2 B normed input) x h
    //   = 12h, the attention and MLP inputs 2h each: 16h = 65,536 B;
    //   split over t = 2: q 2h, k and v 4h, kernel output 2h, log-sum-exp
    //   4 x 32 heads, MLP 2I + 4I + 2I: (8h + 128 + 8I) / 2 = 60,480 B;
    //   c = 126,016 B/token; one layer: 2048 x 126,016 = 258,080,768 B.
    core::Scenario s = preset("llama-2-7b", core::Mode::Train);
    s.gpus = 4;
    s.parallel.tp = 2;
    s.parallel.pp = 2;
    // First stage: 1F1B keeps p = 2 micro-batches in flight (§4.2.3):
    // 16 x 258,080,768 x 2 = 8,258,584,576 B.
    const core::Estimate first = stage(s, "first");
    QCOMPARE(first.term(core::TermId::Activations).count(), 8'258'584'576ull);
    const core::Derivation a = core::explainTerm(s, first, core::TermId::Activations);
    QVERIFY2(a.substituted.rfind("16 x 258,080,768 B x 2; A_layer = 1 x 2,048 tokens x 126,016 B/token", 0) == 0,
             std::string(a.substituted).c_str());
    QVERIFY2(a.substituted.find("= 126,016 B/token") != std::string::npos, std::string(a.substituted).c_str());
    QVERIFY2(a.formula.rfind("A = L_rank x A_layer x n_mb", 0) == 0, std::string(a.formula).c_str());
    QCOMPARE(*testsupport::evaluateTerm(a.substituted), 8'258'584'576.0);
    // Last stage: one micro-batch, plus the final RMSNorm (6h) and the
    // lm_head input (2h), replicated: 2048 x 8 x 4096 = 67,108,864 B.
    const core::Estimate last = stage(s, "last");
    QCOMPARE(last.term(core::TermId::Activations).count(), 16ull * 258'080'768 + 67'108'864);
    const core::Derivation l = core::explainTerm(s, last, core::TermId::Activations);
    QVERIFY2(l.substituted.rfind("16 x 258,080,768 B [layers on this rank] + 67,108,864 B", 0) == 0,
             std::string(l.substituted).c_str());
}

void TestDerivations::kvCacheSubstitutesThisRanksLayersAndHeads()
{
    // Llama-3-8B (8 KV heads of 128, 32 layers) served in bf16 on
    // tp = 2 x pp = 2, s = 4096, b = 1: each rank caches 4 heads of 16
    // layers, 2 (K, V) x 4 x 128 x 2 B x 16 x 4096 x 1 = 134,217,728 B
    // (Pope et al. 2022 §3.1).
    core::Scenario s = preset("llama-3-8b", core::Mode::Inference);
    s.gpus = 4;
    s.parallel.tp = 2;
    s.parallel.pp = 2;
    s.sequence = 4096;
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.term(core::TermId::KvCache).count(), 134'217'728ull);
    const core::Derivation kv = core::explainTerm(s, e, core::TermId::KvCache);
    QCOMPARE(std::string(kv.formula),
        std::string("KV = c_kv x e_kv x T_cache x b; c_kv = 2 x n_kv,rank x d; T_cache = L_full x s"));
    QCOMPARE(std::string(kv.substituted), std::string("1,024 x 2 B x 65,536 layer-tokens x 1; c_kv = 2 x 4 x 128 = 1,024; "
                                         "T_cache = 16 x 4,096 tokens = 65,536 layer-tokens"));
    // Sixteen ranks for 8 KV heads: each keeps a copy of one (and says so).
    s.gpus = 32;
    s.parallel.tp = 16;
    const core::Estimate copies = core::estimate(s);
    QCOMPARE(copies.term(core::TermId::KvCache).count(), 2ull * 1 * 128 * 2 * 16 * 4096);
    QVERIFY(core::explainTerm(s, copies, core::TermId::KvCache).note.find("a copy of one") != std::string::npos);
}

void TestDerivations::gradientsAtTheBackwardPeakAreTheFirstOnes()
{
    // Llama-3-8B full training (mixed: 2 B gradients), b = 1, s = 2048:
    // the peak is the loss's backward, where only the first gradients
    // exist, the lm_head's: 128,256 x 4,096 = 525,336,576 parameters,
    // 1,050,673,152 B (1,002 MiB); not P x 2 B = 16,060,522,496 B.
    core::Scenario s = preset("llama-3-8b", core::Mode::Train);
    const core::Estimate e = core::estimate(s);
    QCOMPARE(static_cast<int>(e.peakPhase), static_cast<int>(core::Phase::Backward));
    QCOMPARE(e.term(core::TermId::Gradients).count(), 1'050'673'152ull);
    const core::Derivation g = core::explainTerm(s, e, core::TermId::Gradients);
    QCOMPARE(std::string(g.formula), std::string("G = P_head x b_g"));
    QCOMPARE(std::string(g.substituted), std::string("525,336,576 x 2 B"));
    QVERIFY2(g.note.find("loss backward") != std::string::npos && g.note.find("lm_head") != std::string::npos,
             std::string(g.note).c_str());
    // With gradient accumulation every gradient is kept between
    // micro-batches: 8,030,261,248 x 2 B = 16,060,522,496 B.
    s.gradAccum = 4;
    const core::Estimate accumulated = core::estimate(s);
    QCOMPARE(accumulated.term(core::TermId::Gradients).count(), 16'060'522'496ull);
    const core::Derivation all = core::explainTerm(s, accumulated, core::TermId::Gradients);
    QCOMPARE(std::string(all.substituted), std::string("8,030,261,248 x 2 B"));
    QVERIFY2(all.note.find("accumulation") != std::string::npos, std::string(all.note).c_str());
    // ZeRO-3 over 8 GPUs shards even the first ones: 1,050,673,152 / 8.
    s.gradAccum = 1;
    s.gpus = 8;
    s.zeroStage = 3;
    const core::Estimate sharded = core::estimate(s);
    QCOMPARE(sharded.term(core::TermId::Gradients).count(), 131'334'144ull);
    QCOMPARE(core::explainTerm(s, sharded, core::TermId::Gradients).substituted, std::string("525,336,576 x 2 B / 8"));
}

void TestDerivations::logitsNameTheirParts()
{
    // Llama-3-8B, torchtune 0.2 (its loop kept the logits), fp32 loss, b = 4,
    // s = 2048: at the loss's backward each b x s x V element holds the
    // 16-bit logits (2 B), the fp32 gradient from nll_loss (4 B), the one
    // out of log_softmax (4 B) and the saved fp32 log-softmax (4 B): 14 B.
    // 4 x 2048 x 128,256 x 14 = 14,709,424,128 B.
    core::Scenario s = preset("llama-3-8b", core::Mode::Train);
    s.stack = core::TrainingStack::Torchtune;
    s.versions.set(core::Library::Torchtune, core::Version{0, 2, 0});
    s.logits = core::LogitsMode::Fp32;
    s.batch = 4;
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.term(core::TermId::Logits).count(), 14'709'424'128ull);
    const core::Derivation l = core::explainTerm(s, e, core::TermId::Logits);
    QCOMPARE(std::string(l.substituted), std::string("4 x 2,048 tokens x 128,256 x 14 B; c = 2 B [logits the training loop keeps] + "
                                        "4 B [gradient from nll_loss] + 4 B [gradient out of log_softmax] + "
                                        "4 B [saved log-softmax] = 14 B"));
}

void TestDerivations::activationRuleHasItsRow()
{
    // Lesson s13-activation-rule: LLaMA-7B at 2,048 tokens, bf16. The rule
    // (h + I) x s x L x 1 B = (4096 + 11008) x 2048 x 32 = 989,855,744 B
    // now has a row among the rules of thumb, set against what one sample
    // really saves: 32 layers x 2048 x 186,496 B/token (the 24h + 128 + 8I
    // of activationsSubstituteThisRanksLayers, unsplit) plus the final norm
    // and lm_head input, 2048 x 8 x 4096: 12,289,310,720 B.
    const auto &lessons = core::io::builtinLessons();
    const auto lesson = std::find_if(lessons.begin(), lessons.end(),
                                     [](const core::Lesson &l) { return l.id == "s13-activation-rule"; });
    QVERIFY(lesson != lessons.end());
    const auto checks = core::compareRulesOfThumb(lesson->scenario);
    const auto row = std::find_if(checks.begin(), checks.end(),
        [](const core::rules::RuleCheck &c) { return std::string(c.id) == "notes_activations"; });
    QVERIFY(row != checks.end());
    QCOMPARE(std::string(row->seedFact), std::string("S13"));
    QCOMPARE(row->rule.count(), 989'855'744ull);
    QCOMPARE(row->detailed.count(), 12'289'310'720ull);
}

VRAM_TEST_MAIN(tst_derivations, TestDerivations, None)
#include "tst_derivations.moc"
