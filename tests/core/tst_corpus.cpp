// The 2025-26 corpus (tests/data/configs/2026, sources in its SOURCES.md):
// every published config.json there loads, and where the Hub's safetensors
// total of an unquantised checkpoint is published, the planner's parameter
// count (text + vision + MTP modules the checkpoint ships) is that total.

#include "tests/support/testregistry.h"
#include "core/io/hfconfig.h"
#include "core/modelspec.h"

#include <QDir>
#include <QFile>
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
