// The field registry (core/scenario/fields.h) is the one place an input's key, flag,
// range, default and label live. These tests hold scenario files,
// validation and the text parser to it, field by field, so that an input
// added later is covered without a new test.

#include "core/io/builtin.h"
#include "core/io/scenarioio.h"
#include "core/scenario/fields.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <set>

namespace {

core::Scenario loraBase()
{
    core::Scenario s;
    const core::io::ModelPreset *preset = core::io::findPreset("llama-3-8b");
    s.model = preset->model;
    s.source = {core::ModelSource::Kind::Preset, preset->id, "", 0};
    s.mode = core::Mode::Lora;
    s.gpus = 8;
    return s;
}

/// vLLM serving on the same model: for the fields that apply to an engine.
core::Scenario vllmBase()
{
    core::Scenario s = loraBase();
    s.mode = core::Mode::Inference;
    s.serving = core::ServingEngine::Vllm;
    return s;
}

/// Values worth trying for a field: ends and middle of a range, each choice.
std::vector<core::FieldValue> candidates(const core::FieldDescriptor &f)
{
    switch (f.kind) {
    case core::FieldKind::Integer:
        if (!f.choices.empty()) {
            std::vector<core::FieldValue> values;
            for (const core::FieldChoice &c : f.choices)
                values.push_back(std::stod(c.id));
            return values;
        }
        return {f.min + 1, std::floor((f.min + f.max) / 2), f.max};
    case core::FieldKind::Number:
        return {(f.min + f.max) / 2, f.max};
    case core::FieldKind::Choice: {
        std::vector<core::FieldValue> values;
        for (const core::FieldChoice &c : f.choices)
            values.push_back(std::string(c.id));
        return values;
    }
    case core::FieldKind::ChoiceSet:
        return {std::string("q,v"), std::string("down")};
    case core::FieldKind::Flag:
        return {true};
    case core::FieldKind::Text: // a GPU id, a version list, a version: each field takes what it accepts
        return {std::string("a100-sxm4-80gb"), std::string("transformers=4.44,torch=2.3"), std::string("2.3")};
    case core::FieldKind::NumberList:
        return {std::string("")};
    case core::FieldKind::TextList:
        return {std::string("")};
    case core::FieldKind::ModelPreset:
        return {std::string("qwen2.5-0.5b"), std::string("")};
    }
    return {};
}

} // namespace

class TestFields : public QObject
{
    Q_OBJECT

private slots:
    void registryIsComplete();
    void everyFieldSurvivesAFile();
    void everyRangeIsEnforced();
    void defaultedFieldsStayDefaultedInFiles();
    void defaultsAreDescribedByMode();
    void textTakesWhatPeopleType();
    void changedFieldsNameTheEdit();
};

void TestFields::registryIsComplete()
{
    const auto &fields = core::allFields();
    QCOMPARE(fields.size(), static_cast<std::size_t>(core::FieldId::Count));
    std::set<std::string> keys;
    std::set<std::string> flags;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const core::FieldDescriptor &f = fields[i];
        QCOMPARE(static_cast<std::size_t>(f.id), i); // field(id) indexes the table
        QVERIFY2(keys.insert(f.key).second, f.key);
        QVERIFY2(flags.insert(f.flag).second, f.flag);
        QVERIFY2(*f.label && *f.help, f.key);
        QVERIFY2((f.metavar == nullptr) == (f.kind == core::FieldKind::Flag), f.key);
        if (f.kind == core::FieldKind::Integer || f.kind == core::FieldKind::Number)
            QVERIFY2(f.min <= f.max, f.key);
        if (f.kind == core::FieldKind::Choice || f.kind == core::FieldKind::ChoiceSet)
            QVERIFY2(!f.choices.empty(), f.key);
        // The default scenario holds a value the field itself accepts.
        QVERIFY2(!core::checkFieldValue(f, f.effective(loraBase())) || f.optional(), f.key);
    }
}

void TestFields::everyFieldSurvivesAFile()
{
    // Each field set to each value that leaves the scenario valid comes
    // back from a saved file unchanged.
    int tried = 0;
    for (const core::FieldDescriptor &f : core::allFields()) {
        for (const core::FieldValue &value : candidates(f)) {
            if (core::checkFieldValue(f, value))
                continue;
            // A field that only an engine has (its release) is tried there.
            core::Scenario s = f.applies(loraBase()) || !f.applies(vllmBase()) ? loraBase() : vllmBase();
            f.assign(s, value);
            core::io::resolveDraft(s, core::io::builtinPresets()); // as every front end does
            if (!core::validateScenario(s).empty())
                continue;
            const auto loaded = core::io::loadScenario(core::io::saveScenario(s), core::io::builtinPresets());
            QVERIFY2(loaded.ok(), (std::string(f.key) + ": " + (loaded.errors.empty() ? "" : loaded.errors.front())).c_str());
            QVERIFY2(f.stored(*loaded.value) == value, f.key);
            ++tried;
        }
    }
    QVERIFY(tried > 100);
}

void TestFields::everyRangeIsEnforced()
{
    // Just beyond a field's range, validation and files refuse it and name
    // the field's key.
    for (const core::FieldDescriptor &f : core::allFields()) {
        if (f.kind != core::FieldKind::Integer && f.kind != core::FieldKind::Number)
            continue;
        core::Scenario s = loraBase();
        f.assign(s, f.max * 2 + 1);
        const auto problems = core::validateScenario(s);
        QVERIFY2(!problems.empty() && problems.front().rfind(std::string(f.key) + ":", 0) == 0, f.key);
        const auto loaded = core::io::loadScenario(core::io::saveScenario(s), core::io::builtinPresets());
        QVERIFY2(!loaded.ok(), f.key);
    }
    // Whole numbers only where the field counts things.
    std::optional<core::Message> error;
    QVERIFY(!core::parseFieldValue(core::field(core::FieldId::Batch), "2.5", error));
    QVERIFY(core::render(*error).find("integer") != std::string::npos);
}

void TestFields::defaultedFieldsStayDefaultedInFiles()
{
    // Unset optional fields are saved as null, so that the reopened
    // scenario still follows the mode and the stack (QLoRA: nf4-dq and
    // full checkpointing under Hugging Face; LitGPT: dropout 0.05).
    core::Scenario s = loraBase();
    s.mode = core::Mode::Qlora;
    const auto loaded = core::io::loadScenario(core::io::saveScenario(s), core::io::builtinPresets());
    QVERIFY(loaded.ok());
    core::Scenario reopened = *loaded.value;
    QVERIFY(!reopened.weights && !reopened.checkpointing && !reopened.lora.dropout && !reopened.logits);
    QCOMPARE(reopened.effectiveWeights(), core::WeightFormat::Nf4Dq);
    reopened.stack = core::TrainingStack::LitGpt;
    QCOMPARE(reopened.effectiveLoraDropout(), 0.05);
}

void TestFields::defaultsAreDescribedByMode()
{
    // QLoRA loads NF4 with double quantisation (Dettmers et al. 2023 §3)
    // and PEFT's prepare_model_for_kbit_training turns on gradient
    // checkpointing (use_gradient_checkpointing=True); full training keeps
    // no separate weight format.
    QCOMPARE(core::describeDefault(core::field(core::FieldId::Weights)),
             std::string("bf16 (inference, lora), nf4-dq (qlora); follows the mode and the checkpoint"));
    QCOMPARE(core::describeDefault(core::field(core::FieldId::Checkpointing)),
             std::string("none (train, lora), full (qlora); follows the training stack"));
    QCOMPARE(core::describeDefault(core::field(core::FieldId::Batch)), std::string("1"));
    QCOMPARE(core::describeDefault(core::field(core::FieldId::Sequence)), std::string("2,048"));
}

void TestFields::textTakesWhatPeopleType()
{
    std::optional<core::Message> error;
    // Context-like token counts take k and M as people write context
    // lengths (an 8k context is 8,192 tokens); counts of parameters,
    // training tokens and sequences stay decimal.
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::Sequence), "32k", error), core::FieldValue(32768.0));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::Sequence), "8K", error), core::FieldValue(8192.0));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::Sequence), "1M", error), core::FieldValue(1048576.0));
    for (core::FieldId tokens : {core::FieldId::MaxBatchedTokens, core::FieldId::Ubatch, core::FieldId::OutputTokens})
        QCOMPARE(*core::parseFieldValue(core::field(tokens), "2k", error), core::FieldValue(2048.0));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::Tokens), "300B", error), core::FieldValue(3e11));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::Tokens), "5k", error), core::FieldValue(5000.0));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::Batch), "1k", error), core::FieldValue(1000.0));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::LoraTargets), "attention", error),
             core::FieldValue(std::string("q,k,v,o")));
    QCOMPARE(*core::parseFieldValue(core::field(core::FieldId::LoraDropout), "default", error), core::FieldValue());
    QVERIFY(!core::parseFieldValue(core::field(core::FieldId::Batch), "default", error));
    QVERIFY(!core::parseFieldValue(core::field(core::FieldId::Attention), "flash2", error));
    QCOMPARE(core::render(*error), std::string("'flash2' is not one of eager, sdpa, flash"));
    QVERIFY(!core::parseFieldValue(core::field(core::FieldId::KvDtype), "nf4", error));
}

void TestFields::changedFieldsNameTheEdit()
{
    const core::Scenario before = loraBase();
    core::Scenario after = before;
    after.parallel.tp = 2;
    after.lora.dropout = 0.1;
    const auto changed = core::changedFields(before, after);
    QCOMPARE(changed, (std::vector<core::FieldId>{core::FieldId::LoraDropout, core::FieldId::Tp}));
}

VRAM_TEST_MAIN(tst_fields, TestFields, None)
#include "tst_fields.moc"
