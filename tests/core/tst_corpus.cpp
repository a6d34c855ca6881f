// The 2025-26 corpus (tests/data/configs/2026, sources in its SOURCES.md):
// every published config.json there loads, and where the Hub's safetensors
// total of an unquantised checkpoint is published, the planner's parameter
// count (text + vision + MTP modules the checkpoint ships) is that total.

#include "tests/support/testregistry.h"
#include "core/io/hfconfig.h"
#include "core/io/modelfiles.h"
#include "core/modelspec.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString corpusDir() { return QStringLiteral(VRAM_TEST_DATA_DIR "/configs/2026"); }

std::string readCorpusFile(const QString &name)
{
    QFile file(corpusDir() + "/" + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll().toStdString();
}

core::io::LoadResult<core::ModelSpec> loadCorpusConfig(const QString &name)
{
    return core::io::parseHfConfig(readCorpusFile(name), name.toStdString());
}

QString joined(const std::vector<std::string> &lines)
{
    QStringList list;
    for (const std::string &l : lines)
        list << QString::fromStdString(l);
    return list.join("; ");
}

} // namespace

class TestCorpus : public QObject
{
    Q_OBJECT

private slots:
    void everyConfigLoads_data();
    void everyConfigLoads();
    void pythonFloatsLoad();
    void publishedTotals_data();
    void publishedTotals();
    void quantisedModules();
};

void TestCorpus::everyConfigLoads_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files = QDir(corpusDir()).entryList({"*_config.json"}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 60, "the corpus holds at least 60 configs");
    for (const QString &f : files)
        if (!f.endsWith("_hf_quant_config.json"))
            QTest::newRow(qPrintable(f)) << f;
}

void TestCorpus::everyConfigLoads()
{
    QFETCH(QString, file);
    const auto loaded = loadCorpusConfig(file);
    QVERIFY2(loaded.ok(), qPrintable(joined(loaded.errors)));
    QVERIFY(loaded.value->layers > 0);
    QVERIFY(loaded.value->hidden > 0);
}

/// The Hub's safetensors totals of unquantised checkpoints, as AlexsJones/
/// llmfit lists them (llmfit-core/data/hf_models.json @ a3e0eb27, scraped
/// from the Hub API's safetensors.total): every tensor the files hold, so
/// the MTP modules a checkpoint ships are counted (loadMtp) and so is the
/// image encoder. Left out: checkpoints that store a tied output head twice
/// (Qwen3 0.6B and 1.7B: the total exceeds the logical count by exactly
/// vocab x hidden), GLM-4.5 (its MTP layer ships its own embedding and head,
/// 2 x vocab x hidden more), and every family read as a guess.
void TestCorpus::publishedTotals_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("loadMtp");
    QTest::addColumn<qulonglong>("published");
    const auto row = [](const char *file, bool mtp, qulonglong total) { QTest::newRow(file) << file << mtp << total; };
    row("meta-llama--Meta-Llama-3.1-8B_config.json", false, 8030261248ull);
    row("meta-llama--Meta-Llama-3.1-70B_config.json", false, 70553706496ull);
    row("Qwen--Qwen3-8B_config.json", false, 8190735360ull);
    row("Qwen--Qwen3-235B-A22B_config.json", false, 235093634560ull);
    row("Qwen--Qwen3-Coder-480B-A35B-Instruct_config.json", false, 480154875392ull);
    row("Qwen--Qwen3-VL-2B-Instruct_config.json", false, 2127532032ull);
    row("Qwen--Qwen3-VL-32B-Instruct_config.json", false, 33357390064ull);
    row("Qwen--Qwen3-VL-32B-Thinking_config.json", false, 33357390064ull);
    row("Qwen--Qwen3-VL-235B-A22B-Instruct_config.json", false, 235670022896ull);
    // GLM-5: MLA, the sparse-attention indexer and one MTP layer.
    row("zai-org--GLM-5_config.json", true, 753864139008ull);
    row("zai-org--GLM-5.1_config.json", true, 753864139008ull);
}

void TestCorpus::publishedTotals()
{
    QFETCH(QString, file);
    QFETCH(bool, loadMtp);
    QFETCH(qulonglong, published);
    auto loaded = loadCorpusConfig(file);
    QVERIFY2(loaded.ok(), qPrintable(joined(loaded.errors)));
    QVERIFY(!loaded.value->guessed());
    loaded.value->loadMtp = loadMtp;
    QCOMPARE(qulonglong(core::countParameters(*loaded.value).total), published);
}

/// Which modules a checkpoint quantised, from its own lists, counted by
/// hand from each config's shapes.
void TestCorpus::quantisedModules()
{
    // Kimi K2.5 (compressed-tensors int4, group 32; ignore: lm_head,
    // self_attn, shared_experts, the dense layer's mlp): the routed experts
    // of the 60 MoE layers, 384 x (gate, up, down) of 7168 x 2048, and
    // nothing else.
    auto kimi = loadCorpusConfig("moonshotai--Kimi-K2.5_config.json");
    QVERIFY2(kimi.ok(), qPrintable(joined(kimi.errors)));
    QCOMPARE(QString::fromStdString(kimi.value->checkpointFormat), QString("int4-group"));
    QCOMPARE(kimi.value->checkpointGroupSize, 32);
    QCOMPARE(core::countParameters(*kimi.value).checkpointQuantized, 60ull * 384 * 3 * 7168 * 2048);

    // Qwen3-235B-A22B NVFP4 states its format in hf_quant_config.json
    // (exclude_modules: every mlp.gate and lm_head): attention and experts
    // of the 94 layers are NVFP4. Per layer q 4096 x 8192, k and v 4096 x
    // 512, o 8192 x 4096, and 128 experts of 3 x 4096 x 1536.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(corpusDir() + "/nvidia--Qwen3-235B-A22B-NVFP4_config.json", dir.filePath("config.json")));
    QVERIFY(QFile::copy(corpusDir() + "/nvidia--Qwen3-235B-A22B-NVFP4_hf_quant_config.json",
                        dir.filePath("hf_quant_config.json")));
    const auto folder = core::io::loadModelFiles(dir.path().toStdString());
    QVERIFY2(folder.ok(), qPrintable(joined(folder.errors)));
    QCOMPARE(QString::fromStdString(folder.value->model.checkpointFormat), QString("nvfp4"));
    const qulonglong attention = 4096ull * 8192 + 2 * 4096ull * 512 + 8192ull * 4096;
    const qulonglong experts = 128ull * 3 * 4096 * 1536;
    QCOMPARE(qulonglong(core::countParameters(folder.value->model).checkpointQuantized), 94 * (attention + experts));
}

/// Nemotron-H and Nemotron 3 Super write "time_step_limit": [0.0, Infinity]
/// as Python's json module does; transformers reads it, so must we.
void TestCorpus::pythonFloatsLoad()
{
    const std::string text = readCorpusFile("nvidia--Nemotron-H-56B-Base-8K_config.json");
    QVERIFY(text.find("Infinity") != std::string::npos);
    const auto loaded = core::io::parseHfConfig(text, "Nemotron-H-56B");
    QVERIFY2(loaded.ok(), qPrintable(joined(loaded.errors)));
    // Both of Python's spellings, and transformers' {"__float__": ...} tag;
    // a NaN where a count belongs is still refused, naming the key.
    const std::string tagged = R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100,
        "a": -Infinity, "b": NaN, "c": {"__float__": "Infinity"}, "d": "Infinity"})";
    QVERIFY2(core::io::parseHfConfig(tagged, "tagged").ok(), "Python floats load");
    const std::string nanWidth = R"({"model_type": "llama", "hidden_size": NaN, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100})";
    const auto refused = core::io::parseHfConfig(nanWidth, "nan");
    QVERIFY(!refused.ok());
    QVERIFY2(joined(refused.errors).contains("/hidden_size"), qPrintable(joined(refused.errors)));
}

VRAM_TEST_MAIN(tst_corpus, TestCorpus, None)
#include "tst_corpus.moc"
