// Readers of the weight files users already have: safetensors checkpoints
// (a folder with or without its index, or one file) and GGUF files (one
// file or a split set), from their headers only, and the ModelSpec a GGUF
// file's metadata describes. Every expected size is a hand sum written
// here from the formats' published block layouts, never the code's output;
// hostile files are refused with a message naming the file and the place.

#include "core/io/gguf.h"
#include "core/io/ggufmodel.h"
#include "core/io/safetensors.h"
#include "tests/support/testregistry.h"
#include "tests/support/weightfilewriter.h"

#include <QElapsedTimer>
#include <QtTest>

#include <filesystem>
#include <fstream>

using testsupport::GgufBytes;
using testsupport::GgufFile;
using testsupport::SafetensorsTensor;

namespace {

// ggml tensor types (ggml.h, enum ggml_type).
constexpr std::uint32_t kF32 = 0, kF16 = 1, kQ8_0 = 8, kQ4_K = 12, kQ6_K = 14, kIQ4_XS = 23, kMXFP4 = 39;

std::string joined(const std::vector<std::string> &messages)
{
    std::string all;
    for (const std::string &m : messages)
        all += m + "\n";
    return all;
}

bool anyContains(const std::vector<std::string> &messages, const std::string &text)
{
    for (const std::string &m : messages)
        if (m.find(text) != std::string::npos)
            return true;
    return false;
}

std::string pathIn(const QTemporaryDir &dir, const char *name)
{
    return dir.filePath(QString::fromLatin1(name)).toStdString();
}

void writeText(const std::string &path, const std::string &text)
{
    std::ofstream(path, std::ios::binary) << text;
}

/// model.safetensors.index.json for shards of `tensors`.
std::string indexJson(const std::vector<std::pair<std::string, std::vector<SafetensorsTensor>>> &shards,
                      std::uint64_t totalSize)
{
    std::string map;
    for (const auto &[file, tensors] : shards)
        for (const SafetensorsTensor &t : tensors)
            map += (map.empty() ? "" : ", ") + ("\"" + t.name + "\": \"" + file + "\"");
    return R"({"metadata": {"total_size": )" + std::to_string(totalSize) + R"(}, "weight_map": {)" + map + "}}";
}

// A two-shard FP8 checkpoint with a BF16 embedding and head, F32 scales and
// norm, and an MTP layer (model.layers.61) a caller may leave out.
const std::vector<SafetensorsTensor> kShard1 = {
    {"model.embed_tokens.weight", "BF16", {32000, 4096}, 32000ull * 4096 * 2},
    {"model.layers.0.self_attn.q_proj.weight", "F8_E4M3", {4096, 4096}, 4096ull * 4096},
    {"model.layers.0.self_attn.q_proj.weight_scale_inv", "F32", {32, 32}, 32 * 32 * 4},
    {"model.layers.0.input_layernorm.weight", "BF16", {4096}, 4096 * 2},
};
const std::vector<SafetensorsTensor> kShard2 = {
    {"model.layers.1.mlp.down_proj.weight", "F8_E4M3", {4096, 11008}, 4096ull * 11008},
    {"model.norm.weight", "F32", {4096}, 4096 * 4},
    {"lm_head.weight", "BF16", {32000, 4096}, 32000ull * 4096 * 2},
    {"model.layers.61.self_attn.q_proj.weight", "BF16", {4096, 4096}, 4096ull * 4096 * 2},
};
// The sums of the eight tensors above.
constexpr std::uint64_t kCheckpointBytes = 32000ull * 4096 * 2 + 4096ull * 4096 + 32 * 32 * 4 + 4096 * 2
                                           + 4096ull * 11008 + 4096 * 4 + 32000ull * 4096 * 2 + 4096ull * 4096 * 2;

void writeCheckpoint(const QTemporaryDir &dir, std::uint64_t declaredTotal)
{
    testsupport::writeSafetensors(pathIn(dir, "model-00001-of-00002.safetensors"),
                                  testsupport::safetensorsHeader(kShard1), testsupport::dataBytes(kShard1));
    testsupport::writeSafetensors(pathIn(dir, "model-00002-of-00002.safetensors"),
                                  testsupport::safetensorsHeader(kShard2), testsupport::dataBytes(kShard2));
    writeText(pathIn(dir, "model.safetensors.index.json"),
              indexJson({{"model-00001-of-00002.safetensors", kShard1}, {"model-00002-of-00002.safetensors", kShard2}},
                        declaredTotal));
}

/// "GGUF", version 3, the counts, then `body`.
std::string ggufWith(std::uint64_t tensors, std::uint64_t pairs, const GgufBytes &body)
{
    return GgufBytes().raw("GGUF").u32(3).u64(tensors).u64(pairs).raw(body.bytes()).bytes();
}

/// One tensor info with its offset as given.
GgufBytes &tensorInfo(GgufBytes &b, const std::string &name, const std::vector<std::uint64_t> &ne, std::uint32_t type,
                      std::uint64_t offset)
{
    b.string(name).u32(static_cast<std::uint32_t>(ne.size()));
    for (const std::uint64_t n : ne)
        b.u64(n);
    return b.u32(type).u64(offset);
}

/// `head` padded to GGUF's 32-byte alignment, then `data` zeros.
std::string withData(const std::string &head, std::size_t data)
{
    return head + std::string((32 - head.size() % 32) % 32, '\0') + std::string(data, '\0');
}

core::GgufValue count(std::uint64_t value)
{
    core::GgufValue v;
    v.type = core::GgufValue::Type::Uint32;
    v.numbers.push_back({core::GgufNumber::Kind::Unsigned, value, 0, 0.0});
    return v;
}

core::GgufValue text(const std::string &value)
{
    core::GgufValue v;
    v.type = core::GgufValue::Type::String;
    v.text = value;
    return v;
}

core::GgufValue counts(const std::vector<std::uint64_t> &values)
{
    core::GgufValue v;
    v.type = core::GgufValue::Type::Array;
    v.elementType = core::GgufValue::Type::Uint32;
    v.length = values.size();
    for (const std::uint64_t value : values)
        v.numbers.push_back({core::GgufNumber::Kind::Unsigned, value, 0, 0.0});
    return v;
}

/// A metadata-only GGUF inventory of `arch` with the standard keys, a
/// token_embd of 1000 x `hidden`, and every layer's tensors.
core::WeightInventory ggufModel(const std::string &arch, std::uint64_t layers)
{
    const std::uint64_t hidden = 2048;
    core::WeightInventory w;
    w.format = core::WeightInventory::Format::Gguf;
    w.path = "synthetic.gguf";
    w.metadata["general.architecture"] = text(arch);
    w.metadata[arch + ".block_count"] = count(layers);
    w.metadata[arch + ".embedding_length"] = count(hidden);
    w.metadata[arch + ".feed_forward_length"] = count(8192);
    w.metadata[arch + ".attention.head_count"] = count(16);
    w.metadata[arch + ".attention.head_count_kv"] = count(4);
    w.tensors.push_back({"token_embd.weight", "F16", {1000, hidden}, 1000 * hidden, 2000 * hidden, 0});
    for (std::uint64_t l = 0; l < layers; ++l)
        for (const char *role : {"attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate",
                                 "ffn_up", "ffn_down"})
            w.tensors.push_back({"blk." + std::to_string(l) + "." + role + ".weight", "F16", {hidden}, hidden, 2 * hidden, 0});
    return w;
}

/// `ne` (ggml order) of F16: two bytes an element.
GgufFile &f16(GgufFile &file, const std::string &name, const std::vector<std::uint64_t> &ne)
{
    std::uint64_t elements = 1;
    for (const std::uint64_t n : ne)
        elements *= n;
    return file.tensor(name, ne, kF16, 2 * elements);
}

/// Block `b`'s ("blk.N.") q, k, v and output projections over `h`, `q`
/// and `kv` wide, in F16.
void attentionProjections(GgufFile &file, const std::string &b, std::uint64_t h, std::uint64_t q, std::uint64_t kv)
{
    f16(file, b + "attn_q.weight", {h, q});
    f16(file, b + "attn_k.weight", {h, kv});
    f16(file, b + "attn_v.weight", {h, kv});
    f16(file, b + "attn_output.weight", {q, h});
}

/// Block `b`'s gated MLP of width `ff`, in F16.
void denseMlp(GgufFile &file, const std::string &b, std::uint64_t h, std::uint64_t ff)
{
    f16(file, b + "ffn_gate.weight", {h, ff});
    f16(file, b + "ffn_up.weight", {h, ff});
    f16(file, b + "ffn_down.weight", {ff, h});
}

/// Block `b`'s router with its selection bias (exp_probs_b), `experts`
/// routed experts and one shared expert, each `width` wide, in F16.
void expertsWithShared(GgufFile &file, const std::string &b, std::uint64_t h, std::uint64_t experts,
                       std::uint64_t width)
{
    f16(file, b + "ffn_gate_inp.weight", {h, experts});
    f16(file, b + "exp_probs_b.bias", {experts});
    f16(file, b + "ffn_gate_exps.weight", {h, width, experts});
    f16(file, b + "ffn_up_exps.weight", {h, width, experts});
    f16(file, b + "ffn_down_exps.weight", {width, h, experts});
    f16(file, b + "ffn_gate_shexp.weight", {h, width});
    f16(file, b + "ffn_up_shexp.weight", {h, width});
    f16(file, b + "ffn_down_shexp.weight", {width, h});
}

/// `file` written to `dir`, read back, and its model.
struct ReadBack
{
    core::LoadResult<core::WeightInventory> inventory;
    core::LoadResult<core::ModelSpec> model;
};

ReadBack readBack(const GgufFile &file, const QTemporaryDir &dir, const char *name)
{
    const std::string path = pathIn(dir, name);
    file.write(path);
    ReadBack r{core::io::readGguf(path), {}};
    if (r.inventory.ok())
        r.model = core::io::modelFromGguf(*r.inventory.value);
    return r;
}

} // namespace

class TestWeightFiles : public QObject
{
    Q_OBJECT

private slots:
    void shardedCheckpoint();
    void singleSafetensorsFile();
    void folderWithoutIndex();
    void unknownDtypeWarns();
    void missingShardIsNamed();
    void tensorMissingFromItsShard();
    void totalSizeMismatchWarns();
    void hostileSafetensors_data();
    void hostileSafetensors();
    void hostileIndexes_data();
    void hostileIndexes();
    void terabyteFolderReadsQuickly();

    void ggufTypesAndMetadata();
    void ggufSplitSet();
    void ggufMissingPartIsNamed();
    void hostileGguf_data();
    void hostileGguf();

    void llamaFromGguf();
    void unsupportedArchitecturesAreRefused_data();
    void unsupportedArchitecturesAreRefused();
    void perLayerArrays();
    void slidingLayers_data();
    void slidingLayers();
    void deepseek2FromGguf_data();
    void deepseek2FromGguf();
    void mlaKeysAreChecked();
    void qwen3nextFromGguf();
    void nemotronHFromGguf();
    void falconH1FromGguf();
    void afmoeFromGguf();
    void step35FromGguf();
    void qkNormWidth_data();
    void qkNormWidth();
};

void TestWeightFiles::shardedCheckpoint()
{
    QTemporaryDir dir;
    writeCheckpoint(dir, kCheckpointBytes);
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QVERIFY2(result.warnings.empty(), joined(result.warnings).c_str());
    const core::WeightInventory &w = *result.value;
    QCOMPARE(w.format, core::WeightInventory::Format::Safetensors);
    QCOMPARE(w.files.size(), std::size_t(2));
    QVERIFY(w.files[0].find("model-00001-of-00002.safetensors") != std::string::npos);
    QCOMPARE(w.tensors.size(), std::size_t(8));
    QCOMPARE(w.bytes(), kCheckpointBytes);
    QCOMPARE(w.elements(), 32000ull * 4096 + 4096ull * 4096 + 32 * 32 + 4096 + 4096ull * 11008 + 4096
                               + 32000ull * 4096 + 4096ull * 4096);
    // Data order within each shard, the shard's index on each tensor.
    QCOMPARE(w.tensors[0].name, std::string("model.embed_tokens.weight"));
    QCOMPARE(w.tensors[0].shape, (std::vector<std::uint64_t>{32000, 4096}));
    QCOMPARE(w.tensors[0].file, 0u);
    QCOMPARE(w.tensors[6].name, std::string("lm_head.weight"));
    QCOMPARE(w.tensors[6].file, 1u);

    const std::vector<core::DtypeTotal> rows = w.byDtype();
    QCOMPARE(rows.size(), std::size_t(3));
    QCOMPARE(rows[0].dtype, std::string("BF16"));
    QCOMPARE(rows[0].tensors, 4u);
    QCOMPARE(rows[0].bytes, 32000ull * 4096 * 2 * 2 + 4096 * 2 + 4096ull * 4096 * 2);
    QCOMPARE(rows[1].dtype, std::string("F8_E4M3"));
    QCOMPARE(rows[1].bytes, 4096ull * 4096 + 4096ull * 11008); // one byte per element
    QCOMPARE(rows[2].dtype, std::string("F32"));
    QCOMPARE(rows[2].elements, std::uint64_t(32 * 32 + 4096));

    // Leaving out the MTP layer.
    const core::TensorFilter noMtp = [](const core::StoredTensor &t) {
        return t.name.rfind("model.layers.61.", 0) != 0;
    };
    QCOMPARE(w.bytes(noMtp), kCheckpointBytes - 4096ull * 4096 * 2);
    QCOMPARE(w.byDtype(noMtp)[0].tensors, 3u);
}

void TestWeightFiles::singleSafetensorsFile()
{
    QTemporaryDir dir;
    const std::vector<SafetensorsTensor> tensors = {
        {"a", "F16", {2, 3}, 2 * 3 * 2},
        {"b", "I64", {5}, 5 * 8},
        {"mask", "BOOL", {7}, 7},
        {"empty", "F32", {0, 4}, 0},
        {"scalar", "F32", {}, 4},
        {"fp4", "F4", {2, 8}, 2 * 8 / 2}, // MX FP4: two elements per byte
    };
    const std::string path = pathIn(dir, "model.safetensors");
    testsupport::writeSafetensors(path, testsupport::safetensorsHeader(tensors), testsupport::dataBytes(tensors));
    const auto result = core::io::readSafetensors(path);
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QVERIFY2(result.warnings.empty(), joined(result.warnings).c_str());
    QCOMPARE(result.value->files, std::vector<std::string>{path});
    QCOMPARE(result.value->bytes(), std::uint64_t(12 + 40 + 7 + 0 + 4 + 8));
    QCOMPARE(result.value->elements(), std::uint64_t(6 + 5 + 7 + 0 + 1 + 16));
}

void TestWeightFiles::folderWithoutIndex()
{
    QTemporaryDir dir;
    const std::vector<SafetensorsTensor> first = {{"x", "BF16", {8, 8}, 128}};
    const std::vector<SafetensorsTensor> second = {{"y", "F32", {8}, 32}};
    testsupport::writeSafetensors(pathIn(dir, "b.safetensors"), testsupport::safetensorsHeader(second), 32);
    testsupport::writeSafetensors(pathIn(dir, "a.safetensors"), testsupport::safetensorsHeader(first), 128);
    writeText(pathIn(dir, "README.md"), "not a shard");
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QCOMPARE(result.value->files.size(), std::size_t(2));
    QVERIFY(result.value->files[0].find("a.safetensors") != std::string::npos); // by name
    QCOMPARE(result.value->bytes(), std::uint64_t(128 + 32));

    QTemporaryDir empty;
    const auto none = core::io::readSafetensors(empty.path().toStdString());
    QVERIFY(!none.ok());
    QVERIFY2(anyContains(none.errors, "has no .safetensors files"), joined(none.errors).c_str());
}

void TestWeightFiles::unknownDtypeWarns()
{
    const std::string header = R"({"q": {"dtype": "Q4_WEIRD", "shape": [10], "data_offsets": [0, 5]}})";
    const auto result = core::io::readSafetensorsBytes(testsupport::safetensorsBytes(header, 5), "odd.safetensors");
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QVERIFY2(anyContains(result.warnings, "odd.safetensors at /q/dtype: 'Q4_WEIRD' is not a dtype"),
             joined(result.warnings).c_str());
    QCOMPARE(result.value->bytes(), std::uint64_t(5)); // from data_offsets
}

void TestWeightFiles::missingShardIsNamed()
{
    QTemporaryDir dir;
    writeCheckpoint(dir, kCheckpointBytes);
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors"))));
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    QVERIFY(!result.ok());
    QVERIFY2(anyContains(result.errors, "model.safetensors.index.json at /weight_map/"), joined(result.errors).c_str());
    QVERIFY2(anyContains(result.errors, "names model-00002-of-00002.safetensors, which is not in the folder"),
             joined(result.errors).c_str());
}

void TestWeightFiles::tensorMissingFromItsShard()
{
    QTemporaryDir dir;
    writeCheckpoint(dir, kCheckpointBytes);
    // The second shard loses lm_head; the index still lists it.
    std::vector<SafetensorsTensor> shorter = kShard2;
    shorter.erase(shorter.begin() + 2);
    testsupport::writeSafetensors(pathIn(dir, "model-00002-of-00002.safetensors"),
                                  testsupport::safetensorsHeader(shorter), testsupport::dataBytes(shorter));
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    QVERIFY(!result.ok());
    QVERIFY2(anyContains(result.errors, "/weight_map/lm_head.weight: names model-00002-of-00002.safetensors, but no "
                                        "shard has this tensor"),
             joined(result.errors).c_str());
}

void TestWeightFiles::totalSizeMismatchWarns()
{
    QTemporaryDir dir;
    writeCheckpoint(dir, 999);
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QCOMPARE(result.warnings.size(), std::size_t(1));
    const std::string &w = result.warnings.front();
    QVERIFY2(w.find("/metadata/total_size: is 999 bytes") != std::string::npos, w.c_str());
    QVERIFY2(w.find("hold 619,737,088 bytes") != std::string::npos, w.c_str()); // kCheckpointBytes
}

void TestWeightFiles::hostileSafetensors_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("expected");
    const auto file = [](const std::string &header, std::uint64_t data) {
        return QByteArray::fromStdString(testsupport::safetensorsBytes(header, data));
    };
    const auto lengthOnly = [](std::uint64_t length) {
        return QByteArray::fromStdString(GgufBytes().u64(length).raw("{}").bytes());
    };
    QTest::newRow("shorter than its length field") << QByteArray("\x05\x00", 2) << "8-byte header length";
    QTest::newRow("header length 2^60") << lengthOnly(1ull << 60) << "at byte 0: header length 1,152,921,504,606,846,976 exceeds the format's limit";
    QTest::newRow("header past the end") << lengthOnly(1000) << "runs past the end of the file (10 bytes)";
    QTest::newRow("truncated header") << file(R"({"a": {"dtype": "F16", "sha)", 0) << "malformed JSON";
    QTest::newRow("header not an object") << file("[1]", 0) << "at byte 8: the JSON header must begin with '{'";
    QTest::newRow("offsets past the end")
        << file(R"({"a": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]}})", 4)
        << "at /a/data_offsets: end 8 lies past the data section's 4 bytes";
    QTest::newRow("overlapping tensors")
        << file(R"({"a": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]},
                    "b": {"dtype": "F16", "shape": [4], "data_offsets": [4, 12]}})", 12)
        << "at /b/data_offsets: bytes 4 to 12 overlap 'a' (bytes 0 to 8)";
    QTest::newRow("shape overflow")
        << file(R"({"a": {"dtype": "F16", "shape": [4294967296, 4294967296, 2], "data_offsets": [0, 0]}})", 0)
        << "at /a/shape: the product of the dimensions passes 2^64";
    QTest::newRow("size disagrees with the dtype")
        << file(R"({"a": {"dtype": "BF16", "shape": [4, 4], "data_offsets": [0, 16]}})", 16)
        << "span 16 bytes; 16 elements of BF16 take 32";
    QTest::newRow("repeated tensor name")
        << file(R"({"a": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]},
                    "a": {"dtype": "F16", "shape": [1], "data_offsets": [2, 4]}})", 4)
        << "at /a: repeats a name";
    QTest::newRow("negative dimension") << file(R"({"a": {"dtype": "F16", "shape": [-1], "data_offsets": [0, 0]}})", 0)
                                        << "at /a/shape/0: expected an integer >= 0";
    QTest::newRow("metadata not strings") << file(R"({"__metadata__": {"n": 1}})", 0)
                                          << "at /__metadata__/n: is a number";
    QTest::newRow("F4 in half a byte") << file(R"({"a": {"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}})", 2)
                                       << "3 elements of F4 do not fill a whole number of bytes";
    QTest::newRow("tensor not an object") << file(R"({"a": 1})", 0)
                                          << "at /a: expected an object with dtype, shape and data_offsets";
    QTest::newRow("missing dtype") << file(R"({"a": {"shape": [1], "data_offsets": [0, 2]}})", 2)
                                   << "at /a/dtype: missing";
    QTest::newRow("dtype a number") << file(R"({"a": {"dtype": 5, "shape": [1], "data_offsets": [0, 2]}})", 2)
                                    << "at /a/dtype: expected a string";
    QTest::newRow("repeated field")
        << file(R"({"a": {"dtype": "F16", "dtype": "F32", "shape": [1], "data_offsets": [0, 2]}})", 2)
        << "at /a/dtype: repeats a key";
    QTest::newRow("shape an object") << file(R"({"a": {"dtype": "F16", "shape": {}, "data_offsets": [0, 2]}})", 2)
                                     << "at /a/shape: expected an array of integers";
    QTest::newRow("shape of floats") << file(R"({"a": {"dtype": "F16", "shape": [1, 4.0], "data_offsets": [0, 8]}})", 8)
                                     << "at /a/shape/1: expected an integer >= 0";
    QTest::newRow("begin after end") << file(R"({"a": {"dtype": "U8", "shape": [0], "data_offsets": [8, 4]}})", 8)
                                     << "expected [begin, end] with begin <= end";
}

void TestWeightFiles::hostileSafetensors()
{
    QFETCH(QByteArray, file);
    QFETCH(QString, expected);
    const auto result = core::io::readSafetensorsBytes(file.toStdString(), "bad.safetensors");
    QVERIFY(!result.ok());
    QVERIFY2(!result.errors.empty() && result.errors.front().rfind("bad.safetensors", 0) == 0,
             joined(result.errors).c_str());
    QVERIFY2(anyContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
}

void TestWeightFiles::hostileIndexes_data()
{
    QTest::addColumn<QString>("index");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not JSON") << R"({"weight_map": )" << "model.safetensors.index.json: malformed JSON";
    QTest::newRow("no weight_map") << R"({"metadata": {}})" << "/weight_map: missing";
    QTest::newRow("outside the folder") << R"({"weight_map": {"x": "../model.safetensors"}})"
                                        << "/weight_map/x: expected the name of a file in the folder";
    QTest::newRow("negative total") << R"({"metadata": {"total_size": -1}, "weight_map": {"x": "a.safetensors"}})"
                                    << "/metadata/total_size: is a negative number";
    QTest::newRow("repeated tensor") << R"({"weight_map": {"x": "a.safetensors", "x": "a.safetensors"}})"
                                     << "/weight_map/x: repeats a name";
}

void TestWeightFiles::hostileIndexes()
{
    QFETCH(QString, index);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const std::vector<SafetensorsTensor> tensors = {{"x", "F32", {2}, 8}};
    testsupport::writeSafetensors(pathIn(dir, "a.safetensors"), testsupport::safetensorsHeader(tensors), 8);
    writeText(pathIn(dir, "model.safetensors.index.json"), index.toStdString());
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    QVERIFY(!result.ok());
    QVERIFY2(anyContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
}

void TestWeightFiles::terabyteFolderReadsQuickly()
{
    // 163 shards of 500 FP8 expert matrices (7168 x 2048, one byte per
    // element): 1.2 TB, the size of DeepSeek-V3's checkpoint.
    QTemporaryDir dir;
    const std::uint64_t shards = 163;
    const std::uint64_t perShard = 500;
    std::vector<std::pair<std::string, std::vector<SafetensorsTensor>>> index;
    for (std::uint64_t s = 1; s <= shards; ++s) {
        std::vector<SafetensorsTensor> tensors;
        for (std::uint64_t e = 0; e < perShard; ++e)
            tensors.push_back({"model.layers." + std::to_string(s) + ".mlp.experts." + std::to_string(e)
                                   + ".down_proj.weight",
                               "F8_E4M3", {7168, 2048}, 7168ull * 2048});
        const std::string name = "model-" + QString::number(s).rightJustified(5, QLatin1Char('0')).toStdString()
                                 + "-of-00163.safetensors";
        testsupport::writeSafetensors(pathIn(dir, name.c_str()), testsupport::safetensorsHeader(tensors),
                                      testsupport::dataBytes(tensors));
        index.emplace_back(name, std::move(tensors));
    }
    const std::uint64_t total = shards * perShard * 7168ull * 2048;
    writeText(pathIn(dir, "model.safetensors.index.json"), indexJson(index, total));

    QElapsedTimer timer;
    timer.start();
    const auto result = core::io::readSafetensors(dir.path().toStdString());
    const qint64 ms = timer.elapsed();
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QCOMPARE(result.value->files.size(), std::size_t(shards));
    QCOMPARE(result.value->bytes(), total);
    qInfo("%llu shards, %llu tensors, %.2f TB read in %lld ms", static_cast<unsigned long long>(shards),
          static_cast<unsigned long long>(shards * perShard), static_cast<double>(total) / 1e12, ms);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
    // Headers only: an optimised build takes a fraction of a second (0.2 s
    // on a 2-core VM); the bound leaves room for a loaded CI machine.
    // Unoptimised and sanitizer builds are only checked for the totals.
    QVERIFY2(ms < 5000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
#endif
}

void TestWeightFiles::ggufTypesAndMetadata()
{
    QTemporaryDir dir;
    const std::string path = pathIn(dir, "mixed.gguf");
    GgufFile file;
    file.text("general.architecture", "llama")
        .u32("llama.block_count", 2)
        .u32Array("llama.attention.head_count_kv", {8, 8})
        .stringArray("tokenizer.ggml.tokens", {"<s>", "</s>", "hi"})
        .u32Array("tokenizer.ggml.token_type", std::vector<std::uint32_t>(5000, 1))
        // ggml-common.h block layouts: elements per block, bytes per block.
        .tensor("token_embd.weight", {4096, 32000}, kF16, 4096ull * 32000 * 2) // F16: 2 bytes
        .tensor("blk.0.attn_q.weight", {4096, 4096}, kQ8_0, 4096ull * 4096 / 32 * 34) // Q8_0: 32 per 34-byte block
        .tensor("blk.0.ffn_down.weight", {4096, 4096}, kQ4_K, 4096ull * 4096 / 256 * 144) // Q4_K: 256 per 144 bytes
        .tensor("blk.0.ffn_up.weight", {4096, 11008}, kQ6_K, 4096ull * 11008 / 256 * 210) // Q6_K: 256 per 210 bytes
        .tensor("blk.0.ffn_gate.weight", {4096, 11008}, kIQ4_XS, 4096ull * 11008 / 256 * 136) // IQ4_XS: 256 per 136
        .tensor("blk.0.ffn_up_exps.weight", {2880, 2880, 32}, kMXFP4, 2880ull * 2880 * 32 / 32 * 17) // MXFP4: 32 per 17
        .tensor("output_norm.weight", {4096}, kF32, 4096 * 4);
    file.write(path);
    const auto result = core::io::readGguf(path);
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QVERIFY2(result.warnings.empty(), joined(result.warnings).c_str());
    const core::WeightInventory &w = *result.value;
    QCOMPARE(w.format, core::WeightInventory::Format::Gguf);
    QCOMPARE(w.tensors.size(), std::size_t(7));
    QCOMPARE(w.tensors[0].dtype, std::string("F16"));
    QCOMPARE(w.tensors[0].shape, (std::vector<std::uint64_t>{32000, 4096})); // [vocab, hidden]
    QCOMPARE(w.tensors[5].shape, (std::vector<std::uint64_t>{32, 2880, 2880}));
    QCOMPARE(w.tensors[5].elements, 2880ull * 2880 * 32); // logical elements
    QCOMPARE(w.bytes(), 4096ull * 32000 * 2 + 4096ull * 4096 / 32 * 34 + 4096ull * 4096 / 256 * 144
                            + 4096ull * 11008 / 256 * 210 + 4096ull * 11008 / 256 * 136
                            + 2880ull * 2880 * 32 / 32 * 17 + 4096 * 4);
    const std::vector<std::string> order = {"F16", "MXFP4", "Q6_K", "IQ4_XS", "Q8_0", "Q4_K", "F32"};
    const std::vector<core::DtypeTotal> rows = w.byDtype();
    QCOMPARE(rows.size(), order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        QCOMPARE(rows[i].dtype, order[i]);
    QCOMPARE(rows[2].bytes, 4096ull * 11008 / 256 * 210);

    QCOMPARE(w.metadata.at("general.architecture").text, std::string("llama"));
    QCOMPARE(w.metadata.at("llama.block_count").count(), std::optional<std::uint64_t>(2));
    const core::GgufValue &kv = w.metadata.at("llama.attention.head_count_kv");
    QVERIFY(kv.isArray());
    QCOMPARE(kv.length, 2u);
    QCOMPARE(kv.numbers.size(), std::size_t(2));
    QCOMPARE(kv.numbers[1].count(), std::optional<std::uint64_t>(8));
    const core::GgufValue &tokens = w.metadata.at("tokenizer.ggml.tokens");
    QCOMPARE(tokens.elementType, core::GgufValue::Type::String);
    QCOMPARE(tokens.length, 3u);
    QVERIFY(tokens.numbers.empty() && tokens.text.empty()); // strings are not kept
    QCOMPARE(w.metadata.at("tokenizer.ggml.token_type").length, 5000u);
    QVERIFY(w.metadata.at("tokenizer.ggml.token_type").numbers.empty()); // over 4096 entries
}

void TestWeightFiles::ggufSplitSet()
{
    QTemporaryDir dir;
    GgufFile first;
    first.text("general.architecture", "llama")
        .u16("split.no", 0)
        .u16("split.count", 2)
        .i32("split.tensors.count", 3)
        .tensor("token_embd.weight", {64, 100}, kF16, 64 * 100 * 2)
        .tensor("blk.0.attn_q.weight", {64, 64}, kQ8_0, 64 * 64 / 32 * 34);
    GgufFile second;
    second.u16("split.no", 1).u16("split.count", 2).i32("split.tensors.count", 3)
        .tensor("output.weight", {256, 100}, kQ6_K, 256 * 100 / 256 * 210);
    first.write(pathIn(dir, "Model-7B-Q4_K_M-00001-of-00002.gguf"));
    second.write(pathIn(dir, "Model-7B-Q4_K_M-00002-of-00002.gguf"));
    for (const char *given : {"Model-7B-Q4_K_M-00001-of-00002.gguf", "Model-7B-Q4_K_M-00002-of-00002.gguf"}) {
        const auto result = core::io::readGguf(pathIn(dir, given));
        QVERIFY2(result.ok(), joined(result.errors).c_str());
        const core::WeightInventory &w = *result.value;
        QCOMPARE(w.files.size(), std::size_t(2));
        QVERIFY(w.files[1].find("-00002-of-00002.gguf") != std::string::npos);
        QCOMPARE(w.tensors.size(), std::size_t(3));
        QCOMPARE(w.tensors[2].file, 1u);
        QCOMPARE(w.bytes(), std::uint64_t(64 * 100 * 2 + 64 * 64 / 32 * 34 + 256 * 100 / 256 * 210));
        QCOMPARE(w.metadata.at("general.architecture").text, std::string("llama")); // the first part's
    }
    // Part 2 read alone says so.
    std::ifstream in(pathIn(dir, "Model-7B-Q4_K_M-00002-of-00002.gguf"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto alone = core::io::readGgufBytes(bytes, "part2.gguf");
    QVERIFY2(alone.ok(), joined(alone.errors).c_str());
    QVERIFY2(anyContains(alone.warnings, "split set of 2 files, read alone"), joined(alone.warnings).c_str());
}

void TestWeightFiles::ggufMissingPartIsNamed()
{
    QTemporaryDir dir;
    GgufFile first;
    first.text("general.architecture", "llama").u16("split.no", 0).u16("split.count", 3);
    first.write(pathIn(dir, "big-00001-of-00003.gguf"));
    const auto result = core::io::readGguf(pathIn(dir, "big-00001-of-00003.gguf"));
    QVERIFY(!result.ok());
    QVERIFY2(anyContains(result.errors, "big-00002-of-00003.gguf: part 2 of 3 of the split set is missing"),
             joined(result.errors).c_str());
    QVERIFY2(anyContains(result.errors, "big-00003-of-00003.gguf: part 3 of 3"), joined(result.errors).c_str());

    // A split.count the name does not carry.
    GgufFile renamed;
    renamed.text("general.architecture", "llama").u16("split.no", 0).u16("split.count", 3);
    renamed.write(pathIn(dir, "renamed.gguf"));
    const auto lone = core::io::readGguf(pathIn(dir, "renamed.gguf"));
    QVERIFY(!lone.ok());
    QVERIFY2(anyContains(lone.errors, "split.count is 3; the set has 1 file"), joined(lone.errors).c_str());
}

void TestWeightFiles::hostileGguf_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("expected");
    const auto bytes = [](const std::string &b) { return QByteArray::fromStdString(b); };
    const auto oneTensor = [&bytes](const std::vector<std::uint64_t> &ne, std::uint32_t type, std::uint64_t offset,
                                    std::size_t data) {
        GgufBytes info;
        tensorInfo(info, "t", ne, type, offset);
        return bytes(withData(ggufWith(1, 0, info), data));
    };
    const auto onePair = [&bytes](const GgufBytes &pair) { return bytes(ggufWith(0, 1, pair)); };

    QTest::newRow("truncated header") << bytes(GgufBytes().raw("GGUF").u32(3).u64(0).bytes())
                                      << "at byte 8: the file ends inside the tensor and metadata counts";
    QTest::newRow("not GGUF") << bytes("GGML\x03\x00\x00\x00") << "at byte 0: not a GGUF file";
    QTest::newRow("version 1") << bytes(GgufBytes().raw("GGUF").u32(1).u32(0).u32(0).bytes())
                               << "at byte 4: GGUF version 1";
    QTest::newRow("big-endian") << bytes(GgufBytes().raw("GGUF").u32(0x03000000).u64(0).u64(0).bytes())
                                << "looks byte-swapped";
    QTest::newRow("lying pair count") << bytes(ggufWith(0, 1ull << 60, GgufBytes()))
                                      << "at byte 16: metadata_kv_count 1,152,921,504,606,846,976 cannot fit";
    QTest::newRow("lying tensor count") << bytes(ggufWith(1ull << 60, 0, GgufBytes()))
                                        << "at byte 24: tensor_count 1,152,921,504,606,846,976 cannot fit";
    QTest::newRow("lying array count")
        << onePair(GgufBytes().string("tokenizer.ggml.tokens").u32(testsupport::kGgufArray)
                       .u32(testsupport::kGgufString).u64(1ull << 40))
        << "'tokenizer.ggml.tokens' claims 1,099,511,627,776 entries; the 0 bytes left hold at most 0";
    QTest::newRow("lying string length")
        << onePair(GgufBytes().string("general.name").u32(testsupport::kGgufString).u64(1000).raw("short"))
        << "at byte 48: the value of 'general.name' claims 1,000 bytes; 5 are left";
    QTest::newRow("lying key length") << onePair(GgufBytes().u64(1ull << 40).raw(std::string(16, 'k')))
                                      << "at byte 24: a metadata key is 1,099,511,627,776 bytes long; the limit is 65,535";
    QTest::newRow("n_dims 9") << oneTensor(std::vector<std::uint64_t>(9, 1), kF32, 0, 4)
                              << "at byte 24: tensor 't' has 9 dimensions; GGUF allows at most 4";
    QTest::newRow("data past the end") << oneTensor({1024}, kF32, 0, 100) << "needs 4,096 bytes at offset 0";
    QTest::newRow("shape overflow") << oneTensor({1ull << 32, 1ull << 32, 2}, kF32, 0, 0)
                                    << "tensor 't' has more than 2^64 elements";
    QTest::newRow("dimension over 2^63") << oneTensor({1ull << 63}, kF32, 0, 0) << "ggml's limit is 2^63 - 1";
    QTest::newRow("rows not whole blocks") << oneTensor({100, 4}, kQ4_K, 0, 1000)
                                           << "rows of 100 elements, not a multiple of Q4_K's 256-element blocks";
    QTest::newRow("unknown type") << oneTensor({32}, 99, 0, 1000) << "ggml type 99, which this reader does not know";
    QTest::newRow("removed type") << oneTensor({32}, 31, 0, 1000) << "which ggml removed from GGUF files";
    QTest::newRow("misaligned offset") << oneTensor({4}, kF32, 16, 64)
                                       << "offset 16, not a multiple of the alignment 32";
    QTest::newRow("boolean 2") << onePair(GgufBytes().string("flag").u32(testsupport::kGgufBool).u8(2))
                               << "'flag' holds the boolean 2; only 0 and 1 are valid";
    QTest::newRow("array of arrays")
        << onePair(GgufBytes().string("nested").u32(testsupport::kGgufArray).u32(testsupport::kGgufArray).u64(1))
        << "'nested' is an array of arrays";
    QTest::newRow("unknown value type") << onePair(GgufBytes().string("odd").u32(13).u32(0))
                                        << "'odd' has value type 13";
    {
        GgufBytes pairs;
        pairs.string("a").u32(testsupport::kGgufUint8).u8(1).string("a").u32(testsupport::kGgufUint8).u8(2);
        QTest::newRow("repeated key") << bytes(ggufWith(0, 2, pairs)) << "metadata key 'a' appears twice";
    }
    {
        GgufBytes infos;
        tensorInfo(infos, "a", {8}, kF32, 0);
        tensorInfo(infos, "b", {8}, kF32, 0);
        QTest::newRow("overlapping tensors") << bytes(withData(ggufWith(2, 0, infos), 64))
                                             << "tensor 'b' (bytes 96 to 128) overlaps tensor 'a' (bytes 96 to 128)";
    }
    {
        GgufBytes infos;
        tensorInfo(infos, "a", {8}, kF32, 0);
        tensorInfo(infos, "a", {8}, kF32, 32);
        QTest::newRow("repeated tensor") << bytes(withData(ggufWith(2, 0, infos), 64)) << "tensor 'a' appears twice";
    }
    QTest::newRow("alignment not a power of two")
        << onePair(GgufBytes().string("general.alignment").u32(testsupport::kGgufUint32).u32(48))
        << "general.alignment must be a uint32 power of two";
}

void TestWeightFiles::hostileGguf()
{
    QFETCH(QByteArray, file);
    QFETCH(QString, expected);
    const auto result = core::io::readGgufBytes(file.toStdString(), "bad.gguf");
    QVERIFY(!result.ok());
    QVERIFY2(!result.errors.empty() && result.errors.front().rfind("bad.gguf", 0) == 0, joined(result.errors).c_str());
    QVERIFY2(anyContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
}

void TestWeightFiles::llamaFromGguf()
{
    // Llama 3 8B's shape (its config.json: hidden 4096, 32 layers, 32 heads,
    // 8 KV heads, MLP 14336, vocabulary 128256, 8192 positions), Q4_K with
    // F32 norms, and Llama 3.1's rope_freqs tensor.
    QTemporaryDir dir;
    const std::uint64_t h = 4096, kv = 1024, ffn = 14336, vocab = 128256;
    const auto q4k = [](std::uint64_t ne0, std::uint64_t ne1) { return ne0 * ne1 / 256 * 144; };
    GgufFile file;
    file.text("general.architecture", "llama")
        .text("general.name", "Test Llama")
        .u32("llama.block_count", 32)
        .u32("llama.context_length", 8192)
        .u32("llama.embedding_length", h)
        .u32("llama.feed_forward_length", ffn)
        .u32("llama.attention.head_count", 32)
        .u32("llama.attention.head_count_kv", 8)
        .f32("llama.rope.freq_base", 500000.0f)
        .f32("llama.attention.layer_norm_rms_epsilon", 1e-5f)
        .tensor("token_embd.weight", {h, vocab}, kQ4_K, q4k(h, vocab))
        .tensor("rope_freqs.weight", {64}, kF32, 64 * 4)
        .tensor("output_norm.weight", {h}, kF32, h * 4)
        .tensor("output.weight", {h, vocab}, kQ4_K, q4k(h, vocab));
    for (int l = 0; l < 32; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        file.tensor(b + "attn_norm.weight", {h}, kF32, h * 4)
            .tensor(b + "attn_q.weight", {h, h}, kQ4_K, q4k(h, h))
            .tensor(b + "attn_k.weight", {h, kv}, kQ4_K, q4k(h, kv))
            .tensor(b + "attn_v.weight", {h, kv}, kQ4_K, q4k(h, kv))
            .tensor(b + "attn_output.weight", {h, h}, kQ4_K, q4k(h, h))
            .tensor(b + "ffn_norm.weight", {h}, kF32, h * 4)
            .tensor(b + "ffn_gate.weight", {h, ffn}, kQ4_K, q4k(h, ffn))
            .tensor(b + "ffn_up.weight", {h, ffn}, kQ4_K, q4k(h, ffn))
            .tensor(b + "ffn_down.weight", {ffn, h}, kQ4_K, q4k(ffn, h));
    }
    const std::string path = pathIn(dir, "llama.gguf");
    file.write(path);
    const auto inventory = core::io::readGguf(path);
    QVERIFY2(inventory.ok(), joined(inventory.errors).c_str());
    const auto result = core::io::modelFromGguf(*inventory.value);
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    const core::ModelSpec &m = *result.value;
    QCOMPARE(m.name, std::string("Test Llama"));
    QCOMPARE(m.family, std::string("llama"));
    QCOMPARE(m.layers, 32u);
    QCOMPARE(m.hidden, h);
    QCOMPARE(m.heads, 32u);
    QCOMPARE(m.kvHeads, 8u);
    QCOMPARE(m.headDim, 128u); // 4096 / 32
    QCOMPARE(m.intermediate, ffn);
    QCOMPARE(m.vocab, vocab);
    QCOMPARE(m.maxPositions, 8192u);
    QVERIFY(m.gatedMlp && !m.tiedEmbeddings && m.finalNorm);
    QCOMPARE(m.norm, core::NormKind::RmsNorm);
    QCOMPARE(m.normsPerLayer, 2);
    QVERIFY(!m.qkvBias && !m.attnOutBias && !m.mlpBias && !m.qkNorm && !m.attentionSinks && !m.parallelBlock);
    QVERIFY(!m.moe.isMoe());
    QCOMPARE(m.slidingWindow, 0u);
    // 8,030,261,248: Llama 3 8B's published parameter count, which is also
    // the file's elements without the 64 rope frequencies.
    QCOMPARE(core::countParameters(m).total, 8030261248ull);
    QCOMPARE(inventory.value->elements() - 64, 8030261248ull);
    QCOMPARE(result.warnings.size(), std::size_t(2));
    QCOMPARE(result.warnings[0], std::string("ignored: llama.attention.layer_norm_rms_epsilon, llama.rope.freq_base "
                                             "(not part of the memory model)"));
    QCOMPARE(result.warnings[1], std::string("ignored: tensors rope_freqs.weight (the model does not count them)"));
    // No general.file_type: no format of its own (the tensor table prices it).
    QVERIFY(m.checkpointFormat.empty());
    // With one, the format most tensors are in (llama.h LLAMA_FTYPE_MOSTLY_Q4_K_M
    // = 15); a type with no format here (14, Q4_K_S) leaves it unset.
    const std::pair<std::uint32_t, const char *> fileTypes[] = {{15, "gguf-q4_k_m"}, {7, "gguf-q8_0"}, {14, ""}};
    for (const auto &[type, format] : fileTypes) {
        GgufFile typed = file;
        typed.u32("general.file_type", type);
        const std::string typedPath = pathIn(dir, "typed.gguf");
        typed.write(typedPath);
        const auto typedModel = core::io::modelFromGguf(*core::io::readGguf(typedPath).value);
        QVERIFY2(typedModel.ok(), joined(typedModel.errors).c_str());
        QCOMPARE(typedModel.value->checkpointFormat, std::string(format));
    }
}

void TestWeightFiles::unsupportedArchitecturesAreRefused_data()
{
    QTest::addColumn<QString>("arch");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    // MiniCPM3 has MLA, but no MLA reader here (only deepseek2 has one).
    QTest::newRow("minicpm3 MLA") << "minicpm3" << "attention.kv_lora_rank"
                                  << "minicpm3.attention.kv_lora_rank: minicpm3 has multi-head latent attention";
    QTest::newRow("mamba") << "mamba" << "ssm.state_size" << "mamba has state-space (Mamba) layers";
    QTest::newRow("qwen35") << "qwen35" << "full_attention_interval"
                            << "qwen35 has linear-attention layers between the full-attention ones";
    QTest::newRow("rwkv7") << "rwkv7" << "wkv.head_size" << "rwkv7 has RWKV time-mixing layers";
}

void TestWeightFiles::unsupportedArchitecturesAreRefused()
{
    QFETCH(QString, arch);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    core::WeightInventory w = ggufModel(arch.toStdString(), 4);
    w.metadata[arch.toStdString() + "." + key.toStdString()] = count(512);
    const auto result = core::io::modelFromGguf(w);
    QVERIFY(!result.ok());
    QVERIFY2(anyContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
    QVERIFY2(anyContains(result.errors, "cannot describe yet"), joined(result.errors).c_str());
}

void TestWeightFiles::perLayerArrays()
{
    core::WeightInventory same = ggufModel("qwen3", 4);
    same.metadata["qwen3.attention.head_count_kv"] = counts({4, 4, 4, 4});
    const auto read = core::io::modelFromGguf(same);
    QVERIFY2(read.ok(), joined(read.errors).c_str());
    QCOMPARE(read.value->kvHeads, 4u);
    QCOMPARE(read.value->family, std::string("qwen3"));

    core::WeightInventory varying = ggufModel("llama", 4);
    varying.metadata["llama.feed_forward_length"] = counts({8192, 8192, 4096, 8192});
    const auto refused = core::io::modelFromGguf(varying);
    QVERIFY(!refused.ok());
    QVERIFY2(anyContains(refused.errors, "llama.feed_forward_length: differs between layers (4096 to 8192)"),
             joined(refused.errors).c_str());

    core::WeightInventory unknown = ggufModel("newarch", 4);
    const auto generic = core::io::modelFromGguf(unknown);
    QVERIFY2(generic.ok(), joined(generic.errors).c_str());
    QVERIFY2(anyContains(generic.warnings, "assumed: 'newarch' has no rules here"), joined(generic.warnings).c_str());
    QCOMPARE(generic.value->vocab, 1000u); // token_embd's rows
    QVERIFY(generic.value->tiedEmbeddings); // no output.weight
}

void TestWeightFiles::slidingLayers_data()
{
    QTest::addColumn<QString>("arch");
    QTest::addColumn<qulonglong>("layers");
    QTest::addColumn<qulonglong>("pattern"); // 0: none in the file
    QTest::addColumn<qulonglong>("sliding");
    // llama.cpp set_swa_pattern(n): layer il slides when il % n < n - 1.
    QTest::newRow("gemma2: even layers of 42") << "gemma2" << 42ull << 0ull << 21ull;
    QTest::newRow("gemma3: 5 of each 6 of 26") << "gemma3" << 26ull << 0ull << 26ull - 4; // 5, 11, 17, 23 global
    QTest::newRow("gemma3, file pattern 4 of 8") << "gemma3" << 8ull << 4ull << 6ull;  // 3 and 7 global
    QTest::newRow("cohere2: 3 of each 4 of 40") << "cohere2" << 40ull << 0ull << 30ull;
    QTest::newRow("phi3: every layer") << "phi3" << 32ull << 0ull << 32ull;
    QTest::newRow("llama: none") << "llama" << 32ull << 0ull << 0ull;
}

void TestWeightFiles::slidingLayers()
{
    QFETCH(QString, arch);
    QFETCH(qulonglong, layers);
    QFETCH(qulonglong, pattern);
    QFETCH(qulonglong, sliding);
    const std::string a = arch.toStdString();
    core::WeightInventory w = ggufModel(a, layers);
    w.metadata[a + ".attention.sliding_window"] = count(4096);
    if (pattern != 0)
        w.metadata[a + ".attention.sliding_window_pattern"] = count(pattern);
    const auto result = core::io::modelFromGguf(w);
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QCOMPARE(result.value->slidingLayers, sliding);
    QCOMPARE(result.value->slidingWindow, sliding > 0 ? 4096u : 0u);
}

void TestWeightFiles::deepseek2FromGguf_data()
{
    QTest::addColumn<bool>("latentCache");
    // convert_hf_to_gguf.py DeepseekV2Model: newer files add key_length_mla
    // and value_length_mla, write head_count_kv 1 with key_length
    // kv_lora_rank + rope, and split attn_kv_b into attn_k_b and attn_v_b.
    QTest::newRow("MLA keys, attn_k_b and attn_v_b") << true;
    QTest::newRow("older file, attn_kv_b") << false;
}

void TestWeightFiles::deepseek2FromGguf()
{
    QFETCH(bool, latentCache);
    // DeepSeek-V2-Lite's widths (its config.json: hidden 2048, 16 heads,
    // kv_lora_rank 512, q_lora_rank null, qk_nope 128, qk_rope 64, v_head 128,
    // intermediate 10944, 64 routed experts of 1408, 6 per token, 2 shared,
    // first_k_dense_replace 1, vocabulary 102400) in 3 of its 27 layers.
    // Tensor shapes: llama-model.cpp load_tensors LLM_ARCH_DEEPSEEK2.
    const std::uint64_t h = 2048, vocab = 102400, heads = 16, nope = 128, rope = 64, vHead = 128, kvRank = 512;
    const std::uint64_t ffn = 10944, experts = 64, expertFfn = 1408, shared = 2 * 1408;
    QTemporaryDir dir;
    GgufFile file;
    file.text("general.architecture", "deepseek2")
        .u32("deepseek2.block_count", 3)
        .u32("deepseek2.context_length", 163840)
        .u32("deepseek2.embedding_length", h)
        .u32("deepseek2.feed_forward_length", ffn)
        .u32("deepseek2.attention.head_count", heads)
        .u32("deepseek2.attention.head_count_kv", latentCache ? 1 : heads)
        .u32("deepseek2.attention.key_length", latentCache ? kvRank + rope : nope + rope)
        .u32("deepseek2.attention.value_length", latentCache ? kvRank : vHead)
        .u32("deepseek2.attention.kv_lora_rank", kvRank)
        .u32("deepseek2.rope.dimension_count", rope)
        .u32("deepseek2.leading_dense_block_count", 1)
        .u32("deepseek2.expert_count", experts)
        .u32("deepseek2.expert_used_count", 6)
        .u32("deepseek2.expert_feed_forward_length", expertFfn)
        .u32("deepseek2.expert_shared_count", 2)
        .f32("deepseek2.expert_weights_scale", 1.0f)
        .u32("deepseek2.expert_gating_func", 1);
    if (latentCache)
        file.u32("deepseek2.attention.key_length_mla", nope + rope).u32("deepseek2.attention.value_length_mla", vHead);
    f16(file, "token_embd.weight", {h, vocab});
    f16(file, "output_norm.weight", {h});
    f16(file, "output.weight", {h, vocab});
    for (int l = 0; l < 3; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        f16(file, b + "attn_norm.weight", {h});
        f16(file, b + "attn_q.weight", {h, heads * (nope + rope)});
        f16(file, b + "attn_kv_a_mqa.weight", {h, kvRank + rope});
        f16(file, b + "attn_kv_a_norm.weight", {kvRank});
        if (latentCache) {
            f16(file, b + "attn_k_b.weight", {nope, kvRank, heads});
            f16(file, b + "attn_v_b.weight", {kvRank, vHead, heads});
        } else {
            f16(file, b + "attn_kv_b.weight", {kvRank, heads * (nope + vHead)});
        }
        f16(file, b + "attn_output.weight", {heads * vHead, h});
        f16(file, b + "ffn_norm.weight", {h});
        if (l == 0) {
            f16(file, b + "ffn_gate.weight", {h, ffn});
            f16(file, b + "ffn_up.weight", {h, ffn});
            f16(file, b + "ffn_down.weight", {ffn, h});
            continue;
        }
        f16(file, b + "ffn_gate_inp.weight", {h, experts});
        f16(file, b + "ffn_gate_exps.weight", {h, expertFfn, experts});
        f16(file, b + "ffn_up_exps.weight", {h, expertFfn, experts});
        f16(file, b + "ffn_down_exps.weight", {expertFfn, h, experts});
        f16(file, b + "ffn_gate_shexp.weight", {h, shared});
        f16(file, b + "ffn_up_shexp.weight", {h, shared});
        f16(file, b + "ffn_down_shexp.weight", {shared, h});
    }
    const ReadBack r = readBack(file, dir, "deepseek-v2-lite.gguf");
    QVERIFY2(r.inventory.ok(), joined(r.inventory.errors).c_str());
    QVERIFY2(r.model.ok(), joined(r.model.errors).c_str());
    const core::ModelSpec &m = *r.model.value;
    QCOMPARE(m.family, std::string("deepseek_v2"));
    QCOMPARE(m.layers, 3u);
    QCOMPARE(m.heads, heads);
    QCOMPARE(m.kvHeads, heads); // rebuilt per head from the latent
    QCOMPARE(m.kvLoraRank, kvRank);
    QCOMPARE(m.qLoraRank, 0u);
    QCOMPARE(m.ropeHeadDim, rope);
    QCOMPARE(m.headDim, nope + rope);
    QCOMPARE(m.valueHeadDim, vHead);
    QCOMPARE(m.intermediate, ffn);
    QCOMPARE(m.moe.experts, 64);
    QCOMPARE(m.moe.expertsPerToken, 6);
    QCOMPARE(m.moe.expertIntermediate, expertFfn);
    QCOMPARE(m.moe.sharedExperts, 2);
    QCOMPARE(m.moe.denseLayers, 1);
    QVERIFY(!m.moe.routerBias && !m.tiedEmbeddings && !m.qkNorm);
    QCOMPARE(m.normsPerLayer, 2);
    // Hand sum of the tensors above: embedding and head, final norm; per
    // layer two norms, q (h x 16*192), kv_a (h x 576), kv_a norm (512), the
    // latent up-projection (512 x 16*(128+128)), o (16*128 x h); the dense
    // MLP of layer 0; router, 64 experts and the 2816-wide shared expert in
    // layers 1 and 2. (At 27 layers the same sum is 15,706,484,224:
    // DeepSeek-V2-Lite's 15.7B.)
    const std::uint64_t perLayer = 2 * h + h * 3072 + h * 576 + 512 + 512 * 16 * 256 + 2048 * h;
    const std::uint64_t moeLayer = h * 64 + 3 * h * 1408 * 64 + 3 * h * 2816;
    const std::uint64_t expected = 2 * vocab * h + h + 3 * perLayer + 3 * h * ffn + 2 * moeLayer;
    QCOMPARE(expected, 1670135296ull);
    QCOMPARE(core::countParameters(m).total, expected);
    QCOMPARE(r.inventory.value->elements(), expected);
    QVERIFY2(anyContains(r.model.warnings, "deepseek2.expert_gating_func"), joined(r.model.warnings).c_str());
    QVERIFY2(!anyContains(r.model.warnings, "ignored: tensors"), joined(r.model.warnings).c_str());
}

void TestWeightFiles::mlaKeysAreChecked()
{
    // A latent-cache file whose key_length is not kv_lora_rank + rope, and
    // one that names a q_lora_rank but has no attn_q_a.
    core::WeightInventory w = ggufModel("deepseek2", 2);
    w.metadata["deepseek2.attention.kv_lora_rank"] = count(512);
    w.metadata["deepseek2.rope.dimension_count"] = count(64);
    w.metadata["deepseek2.attention.key_length"] = count(512);
    w.metadata["deepseek2.attention.value_length"] = count(512);
    w.metadata["deepseek2.attention.key_length_mla"] = count(192);
    w.metadata["deepseek2.attention.value_length_mla"] = count(128);
    w.metadata["deepseek2.attention.head_count_kv"] = count(1);
    const auto wrongKey = core::io::modelFromGguf(w);
    QVERIFY(!wrongKey.ok());
    QVERIFY2(anyContains(wrongKey.errors, "deepseek2.attention.key_length: is 512; expected 576"),
             joined(wrongKey.errors).c_str());

    w.metadata["deepseek2.attention.key_length"] = count(576);
    w.metadata["deepseek2.attention.q_lora_rank"] = count(1536);
    const auto noQa = core::io::modelFromGguf(w);
    QVERIFY(!noQa.ok());
    QVERIFY2(anyContains(noQa.errors, "deepseek2.attention.q_lora_rank: 1536, but the layers have no attn_q_a"),
             joined(noQa.errors).c_str());
}

void TestWeightFiles::qwen3nextFromGguf()
{
    // Qwen3-Next-80B-A3B's widths (its config.json: hidden 2048, 16 heads
    // of 256, 2 KV heads, 512 experts of 512, 10 per token, a 512-wide
    // shared expert, linear heads 16 key / 32 value of 128, conv 4,
    // full_attention_interval 4, vocabulary 151936) in 4 of its 48 layers:
    // three Gated DeltaNet layers, then one attention layer. Tensor shapes:
    // llama-model.cpp load_tensors LLM_ARCH_QWEN3NEXT; metadata:
    // convert_hf_to_gguf.py Qwen3NextModel (ssm.state_size = the head width,
    // ssm.group_count = key heads, ssm.time_step_rank = value heads).
    const std::uint64_t h = 2048, vocab = 151936, heads = 16, headDim = 256, kvWidth = 2 * 256;
    const std::uint64_t experts = 512, expertFfn = 512, keyWidth = 16 * 128, valueWidth = 32 * 128;
    QTemporaryDir dir;
    GgufFile file;
    file.text("general.architecture", "qwen3next")
        .u32("qwen3next.block_count", 4)
        .u32("qwen3next.context_length", 262144)
        .u32("qwen3next.embedding_length", h)
        .u32("qwen3next.feed_forward_length", 5120)
        .u32("qwen3next.attention.head_count", heads)
        .u32("qwen3next.attention.head_count_kv", 2)
        .u32("qwen3next.attention.key_length", headDim)
        .u32("qwen3next.attention.value_length", headDim)
        .u32("qwen3next.rope.dimension_count", 64)
        .u32("qwen3next.expert_count", experts)
        .u32("qwen3next.expert_used_count", 10)
        .u32("qwen3next.expert_feed_forward_length", expertFfn)
        .u32("qwen3next.expert_shared_feed_forward_length", 512)
        .u32("qwen3next.ssm.conv_kernel", 4)
        .u32("qwen3next.ssm.state_size", 128)
        .u32("qwen3next.ssm.group_count", 16)
        .u32("qwen3next.ssm.time_step_rank", 32)
        .u32("qwen3next.ssm.inner_size", valueWidth)
        .u32("qwen3next.full_attention_interval", 4);
    f16(file, "token_embd.weight", {h, vocab});
    f16(file, "output_norm.weight", {h});
    f16(file, "output.weight", {h, vocab});
    for (int l = 0; l < 4; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        f16(file, b + "attn_norm.weight", {h});
        f16(file, b + "post_attention_norm.weight", {h});
        if (l == 3) {
            f16(file, b + "attn_q.weight", {h, 2 * heads * headDim}); // queries and the output gate
            f16(file, b + "attn_k.weight", {h, kvWidth});
            f16(file, b + "attn_v.weight", {h, kvWidth});
            f16(file, b + "attn_output.weight", {heads * headDim, h});
            f16(file, b + "attn_q_norm.weight", {headDim});
            f16(file, b + "attn_k_norm.weight", {headDim});
        } else {
            f16(file, b + "ssm_in.weight", {h, 2 * keyWidth + 2 * valueWidth});
            f16(file, b + "ssm_conv1d.weight", {4, 2 * keyWidth + valueWidth});
            f16(file, b + "ssm_dt.bias", {32});
            f16(file, b + "ssm_a", {32});
            f16(file, b + "ssm_ba.weight", {h, 2 * 32});
            f16(file, b + "ssm_norm.weight", {128});
            f16(file, b + "ssm_out.weight", {valueWidth, h});
        }
        f16(file, b + "ffn_gate_inp.weight", {h, experts});
        f16(file, b + "ffn_gate_exps.weight", {h, expertFfn, experts});
        f16(file, b + "ffn_up_exps.weight", {h, expertFfn, experts});
        f16(file, b + "ffn_down_exps.weight", {expertFfn, h, experts});
        f16(file, b + "ffn_gate_inp_shexp.weight", {h});
        f16(file, b + "ffn_gate_shexp.weight", {h, 512});
        f16(file, b + "ffn_up_shexp.weight", {h, 512});
        f16(file, b + "ffn_down_shexp.weight", {512, h});
    }
    const ReadBack r = readBack(file, dir, "qwen3-next.gguf");
    QVERIFY2(r.inventory.ok(), joined(r.inventory.errors).c_str());
    QVERIFY2(r.model.ok(), joined(r.model.errors).c_str());
    const core::ModelSpec &m = *r.model.value;
    QCOMPARE(m.family, std::string("qwen3_next"));
    QCOMPARE(m.layers, 4u);
    QCOMPARE(m.linearLayers, 3u);
    QCOMPARE(m.attentionLayers(), 1u);
    QCOMPARE(m.kvHeads, 2u);
    QCOMPARE(m.headDim, headDim);
    QCOMPARE(m.linearKeyHeads, 16u);
    QCOMPARE(m.linearValueHeads, 32u);
    QCOMPARE(m.linearKeyDim, 128u);
    QCOMPARE(m.linearValueDim, 128u);
    QCOMPARE(m.linearConvKernel, 4u);
    QVERIFY(m.gatedAttention && m.qkNorm && !m.qkNormWholeProjection);
    QCOMPARE(m.moe.experts, 512);
    QCOMPARE(m.moe.expertsPerToken, 10);
    QCOMPARE(m.moe.sharedExperts, 1);
    QVERIFY(m.moe.sharedExpertGate);
    QCOMPARE(m.normsPerLayer, 2);
    // Hand sum: embedding and head, final norm; two norms and the MoE
    // (router, 512 experts, the shared expert's gate and MLP) in every
    // layer; in layers 0-2 in_proj_qkvz (h x 12288), conv (4 x 8192),
    // dt_bias and A (32 each), in_proj_ba (h x 64), norm (128), out
    // (4096 x h); in layer 3 q (h x 8192), k and v (h x 512), o (4096 x h)
    // and the two 256-wide norms.
    const std::uint64_t moe = h * 512 + 3 * h * 512 * 512 + h + 3 * h * 512;
    const std::uint64_t linear = h * 12288 + 4 * 8192 + 2 * 32 + h * 64 + 128 + 4096 * h;
    const std::uint64_t attention = h * 8192 + 2 * h * 512 + 4096 * h + 2 * 256;
    const std::uint64_t expected = 2 * vocab * h + h + 4 * (2 * h + moe) + 3 * linear + attention;
    QCOMPARE(expected, 7210003520ull);
    QCOMPARE(core::countParameters(m).total, expected);
    QCOMPARE(r.inventory.value->elements(), expected);
    QVERIFY2(!anyContains(r.model.warnings, "ignored: tensors"), joined(r.model.warnings).c_str());

    // An interval that the tensors contradict: 2 would make 2 linear layers.
    core::WeightInventory w = *r.inventory.value;
    w.metadata["qwen3next.full_attention_interval"] = count(2);
    const auto refused = core::io::modelFromGguf(w);
    QVERIFY(!refused.ok());
    QVERIFY2(anyContains(refused.errors, "qwen3next.full_attention_interval: 2 makes 2 linear-attention layers; "
                                         "the file has 3 ssm_in tensors"),
             joined(refused.errors).c_str());
}

void TestWeightFiles::nemotronHFromGguf()
{
    // Nemotron 3 Nano 30B-A3B's widths (its config.json: hidden 2688, 32
    // heads of 128, 2 KV heads, Mamba-2 with 64 heads of 64, 8 groups,
    // state 128, conv 4 with bias; 128 experts of 1856 (relu2, no gate), 6
    // per token, a 3712-wide shared expert; vocabulary 131072) in 4 blocks
    // "ME*E" of its pattern's kinds. Metadata: convert_hf_to_gguf.py
    // NemotronHModel (head_count_kv and feed_forward_length per layer, 0
    // where a block has no attention or MLP); shapes: llama-model.cpp
    // load_tensors LLM_ARCH_NEMOTRON_H.
    const std::uint64_t h = 2688, vocab = 131072, inner = 64 * 64, conv = 4096 + 2 * 8 * 128;
    const std::uint64_t experts = 128, expertFfn = 1856, shared = 3712;
    QTemporaryDir dir;
    GgufFile file;
    file.text("general.architecture", "nemotron_h_moe")
        .u32("nemotron_h_moe.block_count", 4)
        .u32("nemotron_h_moe.context_length", 262144)
        .u32("nemotron_h_moe.embedding_length", h)
        .u32Array("nemotron_h_moe.feed_forward_length", {0, expertFfn, 0, expertFfn})
        .u32("nemotron_h_moe.attention.head_count", 32)
        .u32Array("nemotron_h_moe.attention.head_count_kv", {0, 0, 2, 0})
        .u32("nemotron_h_moe.attention.key_length", 128)
        .u32("nemotron_h_moe.attention.value_length", 128)
        .u32("nemotron_h_moe.expert_count", experts)
        .u32("nemotron_h_moe.expert_used_count", 6)
        .u32("nemotron_h_moe.expert_feed_forward_length", expertFfn)
        .u32("nemotron_h_moe.expert_shared_feed_forward_length", shared)
        .u32("nemotron_h_moe.expert_shared_count", 1)
        .u32("nemotron_h_moe.ssm.conv_kernel", 4)
        .u32("nemotron_h_moe.ssm.inner_size", inner)
        .u32("nemotron_h_moe.ssm.state_size", 128)
        .u32("nemotron_h_moe.ssm.time_step_rank", 64)
        .u32("nemotron_h_moe.ssm.group_count", 8);
    f16(file, "token_embd.weight", {h, vocab});
    f16(file, "output_norm.weight", {h});
    f16(file, "output.weight", {h, vocab});
    const std::string kinds = "ME*E";
    for (std::size_t l = 0; l < kinds.size(); ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        f16(file, b + "attn_norm.weight", {h});
        if (kinds[l] == 'M') {
            f16(file, b + "ssm_in.weight", {h, 2 * inner + 2 * 8 * 128 + 64});
            f16(file, b + "ssm_conv1d.weight", {4, conv});
            f16(file, b + "ssm_conv1d.bias", {conv});
            f16(file, b + "ssm_dt.bias", {64});
            f16(file, b + "ssm_a", {1, 64});
            f16(file, b + "ssm_d", {1, 64});
            f16(file, b + "ssm_norm.weight", {inner / 8, 8});
            f16(file, b + "ssm_out.weight", {inner, h});
        } else if (kinds[l] == '*') {
            f16(file, b + "attn_q.weight", {h, 32 * 128});
            f16(file, b + "attn_k.weight", {h, 2 * 128});
            f16(file, b + "attn_v.weight", {h, 2 * 128});
            f16(file, b + "attn_output.weight", {32 * 128, h});
        } else {
            f16(file, b + "ffn_gate_inp.weight", {h, experts});
            f16(file, b + "exp_probs_b.bias", {experts});
            f16(file, b + "ffn_up_exps.weight", {h, expertFfn, experts});
            f16(file, b + "ffn_down_exps.weight", {expertFfn, h, experts});
            f16(file, b + "ffn_up_shexp.weight", {h, shared});
            f16(file, b + "ffn_down_shexp.weight", {shared, h});
        }
    }
    const ReadBack r = readBack(file, dir, "nemotron-3-nano.gguf");
    QVERIFY2(r.inventory.ok(), joined(r.inventory.errors).c_str());
    QVERIFY2(r.model.ok(), joined(r.model.errors).c_str());
    const core::ModelSpec &m = *r.model.value;
    QCOMPARE(m.family, std::string("nemotron_h"));
    QCOMPARE(m.layers, 4u);
    QCOMPARE(m.mambaLayers, 1u);
    QCOMPARE(m.attentionLayers(), 1u);
    QCOMPARE(m.moeLayers(), 2u);
    QCOMPARE(m.layersWithoutMlp, 2u);
    QCOMPARE(m.layersWithoutMixer, 2u);
    QCOMPARE(m.kvHeads, 2u);
    QCOMPARE(m.headDim, 128u);
    QCOMPARE(m.mambaHeads, 64u);
    QCOMPARE(m.mambaHeadDim, 64u);
    QCOMPARE(m.ssmState, 128u);
    QCOMPARE(m.ssmGroups, 8u);
    QCOMPARE(m.mambaConvKernel, 4u);
    QVERIFY(m.mambaConvBias && !m.gatedMlp && m.moe.routerBias);
    QCOMPARE(m.moe.sharedExperts, 2); // 3712 = 2 x 1856
    QCOMPARE(m.normsPerLayer, 1);
    QVERIFY2(anyContains(r.model.warnings, "counts as 2 experts of 1856 (nemotron_h_moe.expert_shared_count says 1)"),
             joined(r.model.warnings).c_str());
    // Hand sum: embedding and head, final norm, one norm per block; the
    // Mamba-2 block's in_proj (h x 10304), conv (4 x 6144) and its bias,
    // dt_bias, A and D (64 each), norm (4096), out_proj (4096 x h); the
    // attention block's q (h x 4096), k and v (h x 256), o (4096 x h); each
    // MoE block's router (h x 128) and its bias, 128 experts of up and down,
    // the shared expert's up and down. (For the 52 blocks of the real
    // pattern the same terms give 31,577,940,288: Nemotron 3 Nano's 31.6B.)
    const std::uint64_t mamba = h * 10304 + 4 * 6144 + 6144 + 3 * 64 + 4096 + 4096 * h;
    const std::uint64_t attention = h * 4096 + 2 * h * 256 + 4096 * h;
    const std::uint64_t moe = h * 128 + 128 + 2 * h * 1856 * 128 + 2 * h * 3712;
    const std::uint64_t expected = 2 * vocab * h + h + 4 * h + mamba + attention + 2 * moe;
    QCOMPARE(expected, 3361726016ull);
    QCOMPARE(core::countParameters(m).total, expected);
    QCOMPARE(r.inventory.value->elements(), expected);
    QVERIFY2(!anyContains(r.model.warnings, "ignored: tensors"), joined(r.model.warnings).c_str());

    // Attention blocks with different KV heads: ModelSpec has one value.
    core::WeightInventory w = *r.inventory.value;
    w.metadata["nemotron_h_moe.attention.head_count_kv"] = counts({0, 0, 2, 4});
    w.metadata["nemotron_h_moe.feed_forward_length"] = counts({0, 1856, 0, 0});
    const auto refused = core::io::modelFromGguf(w);
    QVERIFY(!refused.ok());
    QVERIFY2(anyContains(refused.errors, "nemotron_h_moe.attention.head_count_kv: differs between layers (2 to 4)"),
             joined(refused.errors).c_str());
}

void TestWeightFiles::falconH1FromGguf()
{
    // Falcon-H1-0.5B's widths (as tst_families builds its config: hidden
    // 1024, 8 heads and 2 KV heads of 64, MLP 2048, Mamba-2 d_inner 1536 in
    // 24 heads, one group, state 128, conv 4 with bias, no gated norm;
    // vocabulary 32784) in 2 layers. Metadata: llama-model.cpp
    // llama_model_falcon_h1::load_arch_hparams (ssm.* keys; every layer
    // recurrent); shapes: load_arch_tensors (every layer has ssm_in,
    // ssm_conv1d, ssm_dt, ssm_a, ssm_d, ssm_out, attention and the MLP;
    // ssm_norm only where the model has one).
    const std::uint64_t h = 1024, vocab = 32784, inner = 1536, conv = 1536 + 2 * 128, heads = 24;
    QTemporaryDir dir;
    GgufFile file;
    file.text("general.architecture", "falcon-h1")
        .u32("falcon-h1.block_count", 2)
        .u32("falcon-h1.context_length", 16384)
        .u32("falcon-h1.embedding_length", h)
        .u32("falcon-h1.feed_forward_length", 2048)
        .u32("falcon-h1.attention.head_count", 8)
        .u32("falcon-h1.attention.head_count_kv", 2)
        .u32("falcon-h1.attention.key_length", 64)
        .u32("falcon-h1.attention.value_length", 64)
        .u32("falcon-h1.ssm.conv_kernel", 4)
        .u32("falcon-h1.ssm.inner_size", inner)
        .u32("falcon-h1.ssm.state_size", 128)
        .u32("falcon-h1.ssm.time_step_rank", heads)
        .u32("falcon-h1.ssm.group_count", 1);
    f16(file, "token_embd.weight", {h, vocab});
    f16(file, "output_norm.weight", {h});
    f16(file, "output.weight", {h, vocab});
    for (int l = 0; l < 2; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        f16(file, b + "ssm_in.weight", {h, inner + conv + heads});
        f16(file, b + "ssm_conv1d.weight", {4, conv});
        f16(file, b + "ssm_conv1d.bias", {conv});
        f16(file, b + "ssm_dt.bias", {heads});
        f16(file, b + "ssm_a", {1, heads});
        f16(file, b + "ssm_d", {1, heads});
        f16(file, b + "ssm_out.weight", {inner, h});
        f16(file, b + "attn_q.weight", {h, 8 * 64});
        f16(file, b + "attn_k.weight", {h, 2 * 64});
        f16(file, b + "attn_v.weight", {h, 2 * 64});
        f16(file, b + "attn_output.weight", {8 * 64, h});
        f16(file, b + "attn_norm.weight", {h});
        f16(file, b + "ffn_norm.weight", {h});
        f16(file, b + "ffn_gate.weight", {h, 2048});
        f16(file, b + "ffn_up.weight", {h, 2048});
        f16(file, b + "ffn_down.weight", {2048, h});
    }
    const ReadBack r = readBack(file, dir, "falcon-h1-0.5b.gguf");
    QVERIFY2(r.inventory.ok(), joined(r.inventory.errors).c_str());
    QVERIFY2(r.model.ok(), joined(r.model.errors).c_str());
    const core::ModelSpec &m = *r.model.value;
    QCOMPARE(m.family, std::string("falcon_h1"));
    QCOMPARE(m.attentionLayers(), 2u);
    QCOMPARE(m.mambaLayers, 2u);
    QCOMPARE(m.mambaHeadDim, 64u);
    QVERIFY(m.mambaConvBias && !m.mambaNorm && m.gatedMlp);
    QCOMPARE(m.normsPerLayer, 2);
    // The tensors' elements, each layer as tst_families sums it by hand.
    const std::uint64_t layer = 2 * h * 512 + 2 * h * 128 + h * (inner + conv + heads) + conv * 5 + 3 * heads
        + inner * h + 3 * h * 2048 + 2 * h;
    const std::uint64_t expected = 2 * layer + 2 * vocab * h + h;
    QCOMPARE(core::countParameters(m).total, expected);
    QCOMPARE(r.inventory.value->elements(), expected);
    QVERIFY2(!anyContains(r.model.warnings, "ignored"), joined(r.model.warnings).c_str());
}

void TestWeightFiles::afmoeFromGguf()
{
    // Trinity-Nano's widths (as tst_families builds its config: hidden
    // 1024, 8 heads and 2 KV heads of 128, dense MLP 3072, 128 experts of
    // 256 with one shared expert; vocabulary 200192) in 4 layers, the first
    // two dense. Metadata: llama.cpp conversion/afmoe.py @ 051139f5
    // (expert_shared_count, expert_feed_forward_length,
    // leading_dense_block_count, attention.sliding_window); shapes:
    // llama_model_afmoe::load_arch_tensors (attn_gate beside attn_q, four
    // norms a layer, exp_probs_b.bias beside the router).
    const std::uint64_t h = 1024, vocab = 200192, q = 8 * 128, kv = 2 * 128, experts = 128, width = 256;
    QTemporaryDir dir;
    GgufFile file;
    file.text("general.architecture", "afmoe")
        .u32("afmoe.block_count", 4)
        .u32("afmoe.context_length", 131072)
        .u32("afmoe.embedding_length", h)
        .u32("afmoe.feed_forward_length", 3072)
        .u32("afmoe.attention.head_count", 8)
        .u32("afmoe.attention.head_count_kv", 2)
        .u32("afmoe.attention.sliding_window", 2048)
        .u32("afmoe.expert_count", experts)
        .u32("afmoe.expert_used_count", 8)
        .u32("afmoe.expert_shared_count", 1)
        .u32("afmoe.expert_feed_forward_length", width)
        .u32("afmoe.leading_dense_block_count", 2);
    f16(file, "token_embd.weight", {h, vocab});
    f16(file, "output_norm.weight", {h});
    f16(file, "output.weight", {h, vocab});
    for (int l = 0; l < 4; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        attentionProjections(file, b, h, q, kv);
        f16(file, b + "attn_gate.weight", {h, q});
        f16(file, b + "attn_q_norm.weight", {128});
        f16(file, b + "attn_k_norm.weight", {128});
        for (const char *norm : {"attn_norm.weight", "post_attention_norm.weight", "ffn_norm.weight",
                                 "post_ffw_norm.weight"})
            f16(file, b + norm, {h});
        if (l < 2)
            denseMlp(file, b, h, 3072);
        else
            expertsWithShared(file, b, h, experts, width);
    }
    const ReadBack r = readBack(file, dir, "trinity-nano.gguf");
    QVERIFY2(r.inventory.ok(), joined(r.inventory.errors).c_str());
    QVERIFY2(r.model.ok(), joined(r.model.errors).c_str());
    const core::ModelSpec &m = *r.model.value;
    QCOMPARE(m.family, std::string("afmoe"));
    QCOMPARE(m.normsPerLayer, 4);
    QCOMPARE(m.outputGatePerHead, 128u);
    QCOMPARE(m.slidingLayers, 3u); // il % 4 < 3
    QVERIFY(m.moe.routerBias && m.qkNorm);
    // The tensors' elements, each layer as tst_families sums it by hand.
    const std::uint64_t attention = 3 * h * q + 2 * h * kv + 2 * 128 + 4 * h;
    const std::uint64_t moe = experts * h + experts + (experts + 1) * 3 * h * width;
    const std::uint64_t expected = 4 * attention + 2 * 3 * h * 3072 + 2 * moe + 2 * vocab * h + h;
    QCOMPARE(core::countParameters(m).total, expected);
    QCOMPARE(r.inventory.value->elements(), expected);
    QVERIFY2(!anyContains(r.model.warnings, "ignored"), joined(r.model.warnings).c_str());
}

void TestWeightFiles::step35FromGguf()
{
    // Step-3.5's layout (as tst_families builds its config: a full layer,
    // then sliding ones with more query heads, a head-wise output gate,
    // dense leading layers, experts with a shared one) at small widths in
    // 4 layers; the sliding layers' KV heads differ here too (Step-3.5's
    // are 8 in both kinds), as the converter may write them. Metadata: convert_hf_to_gguf
    // Step35Model (head_count and head_count_kv per layer,
    // sliding_window_pattern a flag per layer, leading_dense_block_count,
    // expert_shared_feed_forward_length); shapes: attn_gate [n_embd, n_head]
    // (g_proj squeezed), exp_probs_b.bias beside the router.
    const std::uint64_t h = 1024, vocab = 1000, experts = 8, width = 64;
    const std::vector<std::uint64_t> heads = {8, 12, 12, 12};
    QTemporaryDir dir;
    GgufBytes pattern;
    pattern.u32(testsupport::kGgufArray).u32(testsupport::kGgufBool).u64(4);
    for (const std::uint8_t sliding : {0, 1, 1, 1})
        pattern.u8(sliding);
    GgufFile file;
    file.text("general.architecture", "step35")
        .u32("step35.block_count", 4)
        .u32("step35.context_length", 262144)
        .u32("step35.embedding_length", h)
        .u32("step35.feed_forward_length", 256)
        .u32Array("step35.attention.head_count", {8, 12, 12, 12})
        .u32Array("step35.attention.head_count_kv", {2, 4, 4, 4})
        .u32("step35.attention.key_length", 128)
        .u32("step35.attention.value_length", 128)
        .u32("step35.attention.sliding_window", 512)
        .pair("step35.attention.sliding_window_pattern", pattern)
        .u32("step35.expert_count", experts)
        .u32("step35.expert_used_count", 2)
        .u32("step35.expert_feed_forward_length", width)
        .u32("step35.expert_shared_feed_forward_length", width)
        .u32("step35.leading_dense_block_count", 1);
    f16(file, "token_embd.weight", {h, vocab});
    f16(file, "output_norm.weight", {h});
    f16(file, "output.weight", {h, vocab});
    for (int l = 0; l < 4; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        attentionProjections(file, b, h, heads[static_cast<std::size_t>(l)] * 128, l == 0 ? 256 : 512);
        f16(file, b + "attn_gate.weight", {h, heads[static_cast<std::size_t>(l)]});
        f16(file, b + "attn_q_norm.weight", {128});
        f16(file, b + "attn_k_norm.weight", {128});
        f16(file, b + "attn_norm.weight", {h});
        f16(file, b + "ffn_norm.weight", {h});
        if (l < 1)
            denseMlp(file, b, h, 256);
        else
            expertsWithShared(file, b, h, experts, width);
    }
    const ReadBack r = readBack(file, dir, "step-3.5-small.gguf");
    QVERIFY2(r.inventory.ok(), joined(r.inventory.errors).c_str());
    QVERIFY2(r.model.ok(), joined(r.model.errors).c_str());
    const core::ModelSpec &m = *r.model.value;
    QCOMPARE(m.family, std::string("step3p5"));
    QCOMPARE(m.heads, 8u);
    QCOMPARE(m.slidingHeads, 12u);
    QCOMPARE(m.kvHeads, 2u);
    QCOMPARE(m.slidingKvHeads, 4u);
    QCOMPARE(m.slidingLayers, 3u);
    QCOMPARE(m.outputGatePerHead, 1u);
    // The tensors' elements, each layer kind by hand.
    const auto attention = [h](std::uint64_t n, std::uint64_t kv) {
        return 2 * h * n * 128 + 2 * h * kv * 128 + n * h + 2 * 128 + 2 * h;
    };
    const std::uint64_t moe = experts * h + experts + (experts + 1) * 3 * h * width;
    const std::uint64_t expected = attention(8, 2) + 3 * attention(12, 4) + 3 * h * 256 + 3 * moe + 2 * vocab * h + h;
    QCOMPARE(core::countParameters(m).total, expected);
    QCOMPARE(r.inventory.value->elements(), expected);
    QVERIFY2(!anyContains(r.model.warnings, "ignored"), joined(r.model.warnings).c_str());

    // Heads per layer kind are step35's rule only: another architecture's
    // file whose heads differ between layers is refused, naming the key.
    GgufFile other;
    other.text("general.architecture", "llama")
        .u32("llama.block_count", 4)
        .u32("llama.embedding_length", h)
        .u32("llama.feed_forward_length", 256)
        .u32Array("llama.attention.head_count", {8, 12, 12, 12})
        .u32("llama.attention.sliding_window", 512)
        .pair("llama.attention.sliding_window_pattern", pattern);
    f16(other, "token_embd.weight", {h, vocab});
    const ReadBack refused = readBack(other, dir, "llama-heads-per-layer.gguf");
    QVERIFY(!refused.model.ok());
    QVERIFY2(anyContains(refused.model.errors, "llama.attention.head_count"), joined(refused.model.errors).c_str());
}

void TestWeightFiles::qkNormWidth_data()
{
    QTest::addColumn<QString>("arch");
    QTest::addColumn<qulonglong>("qNorm");
    QTest::addColumn<qulonglong>("kNorm");
    QTest::addColumn<bool>("whole");
    // ggufModel: 16 heads of 128, 4 KV heads. OLMo 2/3: attn_q_norm
    // {n_embd}, attn_k_norm {n_head_kv * head} (load_tensors LLM_ARCH_OLMO2);
    // MiniMax-M2: {n_embd_head_k * n_head}, {n_embd_k_gqa}
    // (LLM_ARCH_MINIMAX_M2); Qwen3: one head each.
    QTest::newRow("olmo2: whole projection") << "olmo2" << 2048ull << 512ull << true;
    QTest::newRow("minimax-m2: whole projection") << "minimax-m2" << 2048ull << 512ull << true;
    QTest::newRow("qwen3: one head") << "qwen3" << 128ull << 128ull << false;
}

void TestWeightFiles::qkNormWidth()
{
    QFETCH(QString, arch);
    QFETCH(qulonglong, qNorm);
    QFETCH(qulonglong, kNorm);
    QFETCH(bool, whole);
    core::WeightInventory w = ggufModel(arch.toStdString(), 2);
    for (int l = 0; l < 2; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        w.tensors.push_back({b + "attn_q_norm.weight", "F32", {qNorm}, qNorm, 4 * qNorm, 0});
        w.tensors.push_back({b + "attn_k_norm.weight", "F32", {kNorm}, kNorm, 4 * kNorm, 0});
    }
    const auto result = core::io::modelFromGguf(w);
    QVERIFY2(result.ok(), joined(result.errors).c_str());
    QVERIFY(result.value->qkNorm);
    QCOMPARE(result.value->qkNormWholeProjection, whole);
    // The q/k norms: 2 layers of both widths.
    const auto groups = core::enumerateTensors(*result.value);
    const auto norm = std::find_if(groups.begin(), groups.end(), [](const auto &g) { return g.name == "qk_norm"; });
    QVERIFY(norm != groups.end());
    QCOMPARE(norm->elements(), 2 * (qNorm + kNorm));

    w.tensors.push_back({"blk.0.attn_q_norm.weight", "F32", {1000}, 1000, 4000, 0});
    std::swap(w.tensors.front(), w.tensors.back()); // the odd one is met first
    const auto odd = core::io::modelFromGguf(w);
    QVERIFY(!odd.ok());
    QVERIFY2(anyContains(odd.errors, "blk.0.attn_q_norm.weight: 1000 wide"), joined(odd.errors).c_str());
}

VRAM_TEST_MAIN(tst_weightfiles, TestWeightFiles, None)
#include "tst_weightfiles.moc"
