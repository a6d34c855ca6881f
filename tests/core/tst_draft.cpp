// A speculative-decoding draft model (--draft-preset): its weights and KV
// cache on top of the target's, under each serving engine, and the draft
// chosen by preset id in scenario files.

#include "core/engine/estimate.h"
#include "core/explain/explain.h"
#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

/// Qwen2.5-7B-Instruct served with Qwen2.5-0.5B as its draft, a pairing
/// that shares one tokenizer.
core::Scenario withDraft(core::ServingEngine engine, const char *draft)
{
    core::Scenario s;
    s.model = core::io::findPreset("qwen2.5-7b")->model;
    s.source = {core::ModelSource::Kind::Preset, "qwen2.5-7b", "", 0};
    s.serving = engine;
    s.sequence = 4096;
    s.draft.presetId = draft;
    core::io::resolveDraft(s, core::io::builtinPresets());
    return s;
}

std::uint64_t term(const core::Scenario &s, core::TermId id) { return core::estimate(s).term(id).count(); }

// Qwen2.5-0.5B by hand from its config.json: hidden 896, 24 layers, 14
// heads, 2 KV heads of head dim 64, MLP 4864, vocabulary 151,936, tied
// embeddings, q/k/v biases.
//   embedding 151,936 x 896 = 136,134,656
//   a layer: q 896 x 896 + 896, k and v 896 x 128 + 128 each, o 896 x 896,
//            MLP 3 x 896 x 4864, two norms 2 x 896 = 14,912,384
//   all: 136,134,656 + 24 x 14,912,384 + 896 (final norm) = 494,032,768
// (the Hub's safetensors parameter count for Qwen/Qwen2.5-0.5B).
constexpr double kDraftParams = 494032768;
constexpr double kDraftBf16Bytes = kDraftParams * 2;
// K and V of 2 KV heads x 64 in each of 24 layers, 2 B each: 12,288 B/token.
constexpr double kDraftKvPerToken = 24 * 2 * 2 * 64 * 2;

} // namespace

class TestDraft : public QObject
{
    Q_OBJECT

private slots:
    void draftAddsWeightsAndCache_data();
    void draftAddsWeightsAndCache();
    void derivationsShowTheDraft();
    void trainingIgnoresTheDraft();
    void validationNamesTheDraft();
    void filesKeepThePresetId();
};

void TestDraft::draftAddsWeightsAndCache_data()
{
    QTest::addColumn<int>("engine");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("batch");
    QTest::addColumn<QString>("kvDtype");
    QTest::addColumn<double>("weights");
    QTest::addColumn<double>("kvCache");
    const auto generate = static_cast<int>(core::ServingEngine::Generate);
    const auto vllm = static_cast<int>(core::ServingEngine::Vllm);
    const auto llamaCpp = static_cast<int>(core::ServingEngine::LlamaCpp);
    // transformers' assistant keeps its own cache of the one sequence.
    QTest::newRow("generate bf16: 1 x 4096 tokens") << generate << 1 << 1 << QString() << kDraftBf16Bytes
                                                    << kDraftKvPerToken * 4096;
    // vLLM: the draft at the target's tp, its KV heads split 2 / 2 = 1 per
    // rank, its layers in the same blocks: 8 sequences x 4096 tokens.
    QTest::newRow("vllm bf16 tp 2: 8 x 4096 tokens") << vllm << 2 << 8 << QString() << kDraftBf16Bytes / 2
                                                     << kDraftKvPerToken / 2 * 4096 * 8;
    // llama.cpp: every draft layer and the output on the GPU (-ngld); tied
    // embeddings put token_embd's copy there, so all P_draft parameters;
    // one draft context per slot of n_ctx_seq = 4096 cells, f16.
    QTest::newRow("llama.cpp 2 slots x 4096 cells") << llamaCpp << 1 << 2 << QString() << kDraftBf16Bytes
                                                    << kDraftKvPerToken * 4096 * 2;
    // The target's q8_0 cache leaves the draft's at f16 (-ctkd default).
    QTest::newRow("llama.cpp q8_0 target cache") << llamaCpp << 1 << 1 << QStringLiteral("q8_0") << kDraftBf16Bytes
                                                 << kDraftKvPerToken * 4096;
}

void TestDraft::draftAddsWeightsAndCache()
{
    QFETCH(int, engine);
    QFETCH(int, tp);
    QFETCH(int, batch);
    QFETCH(QString, kvDtype);
    QFETCH(double, weights);
    QFETCH(double, kvCache);
    core::Scenario target = withDraft(static_cast<core::ServingEngine>(engine), "");
    target.parallel.tp = tp;
    target.gpus = tp;
    target.batch = static_cast<std::uint64_t>(batch);
    if (!kvDtype.isEmpty())
        target.kvDtype = core::parseFormat(kvDtype.toStdString());
    core::Scenario drafted = target;
    drafted.draft = withDraft(target.serving, "qwen2.5-0.5b").draft;
    QVERIFY(core::validateScenario(drafted).empty());
    QCOMPARE(static_cast<double>(term(drafted, core::TermId::Weights) - term(target, core::TermId::Weights)), weights);
    QCOMPARE(static_cast<double>(term(drafted, core::TermId::KvCache) - term(target, core::TermId::KvCache)), kvCache);
}

void TestDraft::derivationsShowTheDraft()
{
    // Each term names the draft's product and its own symbols.
    const core::Scenario s = withDraft(core::ServingEngine::Vllm, "qwen2.5-0.5b");
    const auto terms = core::explainTerms(s, core::estimate(s));
    const core::Derivation &weights = terms[static_cast<std::size_t>(core::TermId::Weights)];
    const core::Derivation &kv = terms[static_cast<std::size_t>(core::TermId::KvCache)];
    QVERIFY2(weights.formula.find("W_draft") != std::string::npos, std::string(weights.formula).c_str());
    QVERIFY2(kv.formula.find("c_kv,draft") != std::string::npos, std::string(kv.formula).c_str());
    QVERIFY2(weights.source.find("draft_tensor_parallel_size") != std::string::npos, std::string(weights.source).c_str());
}

void TestDraft::trainingIgnoresTheDraft()
{
    // Speculative decoding is a way of generating: a training run holds no draft.
    core::Scenario train = withDraft(core::ServingEngine::Generate, "");
    train.mode = core::Mode::Lora;
    core::Scenario drafted = train;
    drafted.draft = withDraft(core::ServingEngine::Generate, "qwen2.5-0.5b").draft;
    QCOMPARE(core::estimate(drafted).total, core::estimate(train).total);
}

void TestDraft::validationNamesTheDraft()
{
    const auto firstProblem = [](const core::Scenario &s) {
        const auto problems = core::validateScenario(s);
        return problems.empty() ? std::string() : problems.front();
    };
    QCOMPARE(firstProblem(withDraft(core::ServingEngine::Vllm, "gpt5-nano")),
             std::string("draft.preset: 'gpt5-nano' is not a model preset (see 'vramplanner-cli models')"));
    // transformers: "assisted generate is only supported for batch_size = 1".
    core::Scenario batched = withDraft(core::ServingEngine::Generate, "qwen2.5-0.5b");
    batched.batch = 2;
    QVERIFY(firstProblem(batched).rfind("draft.preset:", 0) == 0);
    // The draft's 14 heads do not split over 4 ranks.
    core::Scenario tp4 = withDraft(core::ServingEngine::Vllm, "qwen2.5-0.5b");
    tp4.parallel.tp = 4;
    tp4.gpus = 4;
    QVERIFY(firstProblem(tp4).find("draft model's attention heads (14)") != std::string::npos);
}

void TestDraft::filesKeepThePresetId()
{
    // Saved as {"draft": {"preset": id}} and resolved from the presets on
    // load, as the model's own preset source is.
    const core::Scenario s = withDraft(core::ServingEngine::Vllm, "qwen2.5-0.5b");
    const std::string text = core::io::saveScenario(s);
    QVERIFY(text.find("\"draft\": {\n    \"preset\": \"qwen2.5-0.5b\"") != std::string::npos);
    const auto loaded = core::io::loadScenario(text, core::io::builtinPresets());
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.value->draft.presetId, std::string("qwen2.5-0.5b"));
    QVERIFY(loaded.value->draft.model);
    QCOMPARE(core::estimate(*loaded.value).total, core::estimate(s).total);
    // A file that names no draft has none; one whose draft no preset has
    // is refused, naming it.
    std::string unknown = text;
    unknown.replace(unknown.find("qwen2.5-0.5b"), 12, "gpt5-nano");
    const auto refused = core::io::loadScenario(unknown, core::io::builtinPresets());
    QVERIFY(!refused.ok());
    QVERIFY2(refused.errors.front().find("draft.preset: 'gpt5-nano'") != std::string::npos, refused.errors.front().c_str());
    const auto plain = core::io::loadScenario(core::io::saveScenario(withDraft(core::ServingEngine::Vllm, "")),
                                              core::io::builtinPresets());
    QVERIFY(plain.ok() && !plain.value->draft.isSet());
}

VRAM_TEST_MAIN(tst_draft, TestDraft, None)
#include "tst_draft.moc"
