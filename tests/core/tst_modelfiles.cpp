// A model read from the files on disk: the architecture from config.json,
// the weights term from the safetensors headers' exact bytes, by dtype,
// less the multi-token-prediction layers transformers does not load. Every
// expected size is a hand sum written here.

#include "core/engine/estimate.h"
#include "core/explain/explain.h"
#include "core/io/builtin.h"
#include "core/io/modelfiles.h"
#include "core/io/scenarioio.h"
#include "tests/support/testregistry.h"
#include "tests/support/weightfilewriter.h"

#include <QtTest>

#include <fstream>

using testsupport::SafetensorsTensor;

namespace {

// A two-layer Llama: h = 64, I = 128, 4 heads of 16, 2 key-value heads,
// vocabulary 1,000, untied.
constexpr const char *kConfig = R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
    "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
    "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

/// One layer's tensors in bf16 (2 B), its norms in fp32 (4 B).
std::vector<SafetensorsTensor> layer(int i)
{
    const std::string p = "model.layers." + std::to_string(i) + ".";
    return {{p + "self_attn.q_proj.weight", "BF16", {64, 64}, 64 * 64 * 2},
            {p + "self_attn.k_proj.weight", "BF16", {32, 64}, 32 * 64 * 2},
            {p + "self_attn.v_proj.weight", "BF16", {32, 64}, 32 * 64 * 2},
            {p + "self_attn.o_proj.weight", "BF16", {64, 64}, 64 * 64 * 2},
            {p + "mlp.gate_proj.weight", "BF16", {128, 64}, 128 * 64 * 2},
            {p + "mlp.up_proj.weight", "BF16", {128, 64}, 128 * 64 * 2},
            {p + "mlp.down_proj.weight", "BF16", {64, 128}, 64 * 128 * 2},
            {p + "input_layernorm.weight", "F32", {64}, 64 * 4},
            {p + "post_attention_layernorm.weight", "F32", {64}, 64 * 4}};
}

// Per layer: 2 x 4,096 + 2 x 2,048 + 3 x 8,192 = 36,864 bf16 elements and
// 128 fp32 ones.
constexpr std::uint64_t kLayerBf16 = 36864 * 2;
constexpr std::uint64_t kLayerF32 = 128 * 4;
// Embedding and lm_head: 2 x 1,000 x 64 bf16; the final norm 64 fp32.
constexpr std::uint64_t kEndsBf16 = 2 * 64000 * 2;
constexpr std::uint64_t kEndsF32 = 64 * 4;

void writeText(const std::string &path, const std::string &text)
{
    std::ofstream(path, std::ios::binary) << text;
}

/// The folder: config.json, two shards and their index; shard 2 also holds
/// an MTP layer (model.layers.2, past num_hidden_layers) when asked.
void writeFolder(const QTemporaryDir &dir, bool withMtp)
{
    const std::string root = dir.path().toStdString() + "/";
    writeText(root + "config.json", kConfig);
    std::vector<SafetensorsTensor> first = {{"model.embed_tokens.weight", "BF16", {1000, 64}, 64000 * 2}};
    for (const SafetensorsTensor &t : layer(0))
        first.push_back(t);
    std::vector<SafetensorsTensor> second = layer(1);
    second.push_back({"model.norm.weight", "F32", {64}, 64 * 4});
    second.push_back({"lm_head.weight", "BF16", {1000, 64}, 64000 * 2});
    if (withMtp)
        second.push_back({"model.layers.2.mlp.down_proj.weight", "BF16", {64, 128}, 64 * 128 * 2});
    std::string index = R"({"metadata": {}, "weight_map": {)";
    for (const auto &[file, tensors] : {std::pair{"model-00001-of-00002.safetensors", first},
                                        std::pair{"model-00002-of-00002.safetensors", second}}) {
        testsupport::writeSafetensors(root + file, testsupport::safetensorsHeader(tensors),
                                      testsupport::dataBytes(tensors));
        for (const SafetensorsTensor &t : tensors)
            index += "\"" + t.name + "\": \"" + file + "\", ";
    }
    index.resize(index.size() - 2);
    writeText(root + "model.safetensors.index.json", index + "}}");
}

/// An inference scenario of the model read from `dir`.
core::Scenario scenarioOf(const QTemporaryDir &dir)
{
    const auto files = core::io::loadModelFiles(dir.path().toStdString());
    core::Scenario s;
    if (!files.ok())
        return s;
    s.model = files.value->model;
    s.checkpoint = files.value->checkpoint;
    s.source = {core::ModelSource::Kind::ConfigFile, "", dir.path().toStdString(), 0};
    return s;
}

} // namespace

class TestModelFiles : public QObject
{
    Q_OBJECT

private slots:
    void folderGivesTheExactBytesByDtype();
    void mtpLayersAreNotLoaded();
    void chosenFormatOverridesTheFiles();
    void scenarioKeepsTheCheckpoint();
    void missingConfigIsNamed();
};

void TestModelFiles::folderGivesTheExactBytesByDtype()
{
    QTemporaryDir dir;
    writeFolder(dir, false);
    const auto files = core::io::loadModelFiles(dir.path().toStdString());
    QVERIFY2(files.ok(), files.errors.empty() ? "" : files.errors.front().c_str());
    // The files hold one element per parameter: no disagreement to report.
    QVERIFY(files.warnings.empty());
    QVERIFY(files.value->checkpoint);
    const core::CheckpointWeights &c = *files.value->checkpoint;
    QCOMPARE(c.format, std::string("safetensors"));
    QCOMPARE(c.files, 2ull);
    QCOMPARE(c.loaded.size(), std::size_t(2));
    QCOMPARE(c.loaded[0].dtype, std::string("BF16"));
    QCOMPARE(c.loaded[0].bytes, 2 * kLayerBf16 + kEndsBf16);
    QCOMPARE(c.loaded[1].dtype, std::string("F32"));
    QCOMPARE(c.loaded[1].bytes, 2 * kLayerF32 + kEndsF32);

    const core::Scenario s = scenarioOf(dir);
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.term(core::TermId::Weights).count(), 2 * (kLayerBf16 + kLayerF32) + kEndsBf16 + kEndsF32);
    const core::Derivation how = core::explainTerm(s, e, core::TermId::Weights);
    QCOMPARE(std::string(how.formula), std::string("W = B_file [BF16] + B_file [F32]"));
}

void TestModelFiles::mtpLayersAreNotLoaded()
{
    QTemporaryDir dir;
    writeFolder(dir, true);
    const auto files = core::io::loadModelFiles(dir.path().toStdString());
    QVERIFY(files.ok());
    const core::CheckpointWeights &c = *files.value->checkpoint;
    QCOMPARE(c.skippedTensors, 1ull);
    QCOMPARE(c.skippedBytes, 64ull * 128 * 2);
    QCOMPARE(c.bytes(), 2 * (kLayerBf16 + kLayerF32) + kEndsBf16 + kEndsF32);
}

void TestModelFiles::chosenFormatOverridesTheFiles()
{
    QTemporaryDir dir;
    writeFolder(dir, false);
    core::Scenario s = scenarioOf(dir);
    s.weights = core::WeightFormat::Fp32;
    // 4 B for each of the 2 x (36,864 + 128) + 128,064 = 202,048 parameters.
    QCOMPARE(core::estimate(s).term(core::TermId::Weights).count(), 202048ull * 4);
}

void TestModelFiles::scenarioKeepsTheCheckpoint()
{
    QTemporaryDir dir;
    writeFolder(dir, true);
    const core::Scenario s = scenarioOf(dir);
    QVERIFY(s.checkpoint);
    const auto reopened = core::io::loadScenario(core::io::saveScenario(s), core::io::builtinPresets());
    QVERIFY2(reopened.ok(), reopened.errors.empty() ? "" : reopened.errors.front().c_str());
    QVERIFY(reopened.value->checkpoint == s.checkpoint);
}

void TestModelFiles::missingConfigIsNamed()
{
    QTemporaryDir dir;
    const auto folder = core::io::loadModelFiles(dir.path().toStdString());
    QVERIFY(!folder.ok());
    QVERIFY(folder.errors.front().find("no config.json in this folder") != std::string::npos);
    const std::string lone = dir.path().toStdString() + "/model.safetensors";
    testsupport::writeSafetensors(lone, testsupport::safetensorsHeader({}), 0);
    const auto file = core::io::loadModelFiles(lone);
    QVERIFY(!file.ok());
    QVERIFY(file.errors.front().find("no config.json beside this file") != std::string::npos);
}

VRAM_TEST_MAIN(tst_modelfiles, TestModelFiles, None)
#include "tst_modelfiles.moc"
