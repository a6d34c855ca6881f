// The validated loader layer: catalog, presets, config.json and scenario
// files; malformed input gives errors naming the JSON pointer.

#include "core/base/units.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/catalogio.h"
#include "core/io/hfconfig.h"
#include "core/io/scenarioio.h"
#include "core/model/macosworkingset.h"
#include "core/scenario/stack.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <cmath>
#include <cstdio>

namespace {

bool anyErrorContains(const std::vector<std::string> &errors, const std::string &text)
{
    for (const std::string &e : errors)
        if (e.find(text) != std::string::npos)
            return true;
    return false;
}

std::string joined(const std::vector<std::string> &errors)
{
    std::string all;
    for (const std::string &e : errors)
        all += e + "; ";
    return all;
}

} // namespace

class TestLoaders : public QObject
{
    Q_OBJECT

private slots:
    void builtinCatalogIsComplete();
    void badCatalogs_data();
    void badCatalogs();
    void macosWorkingSetFollowsTheRelease_data();
    void macosWorkingSetFollowsTheRelease();
    void badConfigs_data();
    void badConfigs();
    void scenarioRoundTrip();
    void badScenarios_data();
    void badScenarios();
    void parseCount_data();
    void parseCount();
    void formatBytes_data();
    void formatBytes();
    void bytesReadAsPrintfWritesThem();
    void saturatingBytes();
};

void TestLoaders::builtinCatalogIsComplete()
{
    const core::Catalog &catalog = core::io::builtinCatalog();
    QVERIFY(catalog.gpus.size() >= 30);
    for (const char *id : {"v100-sxm2-16gb", "v100-sxm2-32gb", "a100-sxm4-40gb", "a100-sxm4-80gb", "h100-sxm5-80gb",
                           "h200-sxm-141gb", "b200-180gb", "l4", "l40s", "a10", "t4", "rtx-3060", "rtx-3070",
                           "rtx-3080", "rtx-3090", "rtx-4060-ti-16gb", "rtx-4070", "rtx-4080", "rtx-4090",
                           "rtx-5090", "gtx-960", "gtx-1080-ti", "rtx-2080-ti", "mi300x"}) {
        const core::GpuSpec *gpu = catalog.find(id);
        QVERIFY2(gpu, id);
        QVERIFY2(!gpu->source.empty(), id);
    }
    // Datasheet capacities (marketed GB are binary for VRAM): A100 80GB and
    // GTX 960 4GB; a usable figure never exceeds the nominal one.
    QCOMPARE(catalog.find("a100-sxm4-80gb")->memory, core::Bytes::gib(80));
    QCOMPARE(catalog.find("gtx-960")->memory, core::Bytes::gib(4));
    // V100 16GB: nvidia-smi reports 16160 MiB (HF "Model training anatomy").
    QCOMPARE(catalog.find("v100-sxm2-16gb")->capacity(), core::Bytes::mib(16160));
    // Capability flags: bf16 and FlashAttention-2 need Ampere, fp8 Ada/Hopper.
    QVERIFY(!catalog.find("v100-sxm2-32gb")->supportsBf16);
    QVERIFY(catalog.find("a100-sxm4-80gb")->supportsBf16 && catalog.find("a100-sxm4-80gb")->supportsFlashAttention2);
    QVERIFY(!catalog.find("a100-sxm4-80gb")->supportsFp8 && catalog.find("h100-sxm5-80gb")->supportsFp8);
    QVERIFY(catalog.find("rtx-4090")->supportsFp8);
}

void TestLoaders::badCatalogs_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    const QString entry = QStringLiteral(R"({"id": "x", "name": "X", "source": "s", "memory_bytes": %1})");
    const QString wrap = QStringLiteral(R"({"schema_version": 1, "gpus": [%1]})");
    QTest::newRow("truncated") << R"({"schema_version": 1, "gpus": [)" << "malformed JSON";
    QTest::newRow("not an object") << "[1, 2]" << "expected an object";
    QTest::newRow("negative memory") << wrap.arg(entry.arg(-1)) << "/gpus/0/memory_bytes";
    QTest::newRow("huge float memory") << wrap.arg(entry.arg(QStringLiteral("1e300"))) << "/gpus/0/memory_bytes";
    QTest::newRow("fractional memory") << wrap.arg(entry.arg(1.5)) << "/gpus/0/memory_bytes";
    QTest::newRow("string memory") << wrap.arg(entry.arg(QStringLiteral("\"80GB\""))) << "/gpus/0/memory_bytes: is a string";
    QTest::newRow("zero memory") << wrap.arg(entry.arg(0)) << "/gpus/0/memory_bytes";
    QTest::newRow("duplicate ids") << wrap.arg(entry.arg(1024) + "," + entry.arg(2048)) << "/gpus/1/id: duplicate";
    QTest::newRow("wrong version") << R"({"schema_version": 7, "gpus": []})" << "/schema_version";
    QTest::newRow("missing id") << wrap.arg(R"({"name": "X", "source": "s", "memory_bytes": 1024})") << "/gpus/0/id";
    QTest::newRow("deep nesting") << QString(200, '[') + QString(200, ']') << "deeper than";
    const QString mac = QStringLiteral(R"({"id": "m", "name": "M", "source": "s", "memory_bytes": 1024, %1})");
    QTest::newRow("macOS 12") << wrap.arg(mac.arg(R"("macos": "12")")) << "/gpus/0/macos: '12' is not a macOS release";
    QTest::newRow("macOS and usable") << wrap.arg(mac.arg(R"("macos": "26", "usable_memory_bytes": 512)"))
                                      << "/gpus/0/macos: give usable_memory_bytes or macos, not both";
    // nvidia-smi's total lies between the CUDA-visible total and the card's
    // memory (1 MiB = 1,048,576 B here).
    QTest::newRow("nvidia-smi above the card") << wrap.arg(mac.arg(R"("nvidia_smi_total_mib": 2048)"))
                                               << "/gpus/0/nvidia_smi_total_mib: exceeds memory_bytes";
    const QString card = QStringLiteral(R"({"id": "c", "name": "C", "source": "s", "memory_bytes": 4194304, %1})");
    QTest::newRow("nvidia-smi below usable")
        << wrap.arg(card.arg(R"("usable_memory_bytes": 3145728, "nvidia_smi_total_mib": 2)"))
        << "/gpus/0/nvidia_smi_total_mib: is less than usable_memory_bytes";
    QTest::newRow("nvidia-smi on another vendor's card")
        << wrap.arg(card.arg(R"("vendor": "AMD", "nvidia_smi_total_mib": 3)"))
        << "/gpus/0/nvidia_smi_total_mib: is nvidia-smi's figure; this card's vendor is AMD";
}

void TestLoaders::macosWorkingSetFollowsTheRelease_data()
{
    // Metal's recommendedMaxWorkingSetSize as llama.cpp and others printed
    // it (sources in core/model/macosworkingset.cpp): memory in GiB, macOS
    // release, the reading in bytes.
    QTest::addColumn<double>("gib");
    QTest::addColumn<int>("release");
    QTest::addColumn<double>("reading");
    constexpr double MiB = 1024.0 * 1024.0;
    QTest::newRow("32 GB, macOS 13 (ollama#434)") << 32.0 << 13 << 21845.34 * MiB;
    QTest::newRow("64 GB, macOS 14 (llama.cpp#1870)") << 64.0 << 14 << 49152.0 * MiB;
    QTest::newRow("96 GB, macOS 15.0 (LibXPUInfo#25)") << 96.0 << 15 << 73728.0 * MiB;
    QTest::newRow("32 GB, macOS 26") << 32.0 << 26 << 26800.60e6;
    QTest::newRow("36 GB, macOS 26") << 36.0 << 26 << 30150.67e6;
    QTest::newRow("48 GB, macOS 26") << 48.0 << 26 << 40200.90e6;
    QTest::newRow("64 GB, macOS 26") << 64.0 << 26 << 55662788608.0;
    QTest::newRow("128 GB, macOS 26 (ds4#893)") << 128.0 << 26 << 107.52 * 1024 * MiB;
}

void TestLoaders::macosWorkingSetFollowsTheRelease()
{
    QFETCH(double, gib);
    QFETCH(int, release);
    QFETCH(double, reading);
    const core::Bytes memory = core::Bytes::fromDouble(gib * 1024 * 1024 * 1024);
    const double planned = static_cast<double>(core::macosWorkingSetBytes(memory, release).count());
    QVERIFY2(std::abs(planned - reading) <= 1e-4 * reading,
             qPrintable(QStringLiteral("%1 B planned against %2 read").arg(planned, 0, 'f', 0).arg(reading, 0, 'f', 0)));
    QVERIFY(core::macosWorkingSet(memory, release).read);
    // A catalog entry that names its release gets that working set.
    const auto catalog = core::io::loadCatalog(
        QStringLiteral(R"({"schema_version": 1, "gpus": [{"id": "m", "name": "M", "vendor": "Apple", "source": "s", )"
                       R"("memory_bytes": %1, "macos": "%2"}]})")
            .arg(static_cast<qulonglong>(memory.count()))
            .arg(release)
            .toStdString());
    QVERIFY2(catalog.ok(), joined(catalog.errors).c_str());
    QCOMPARE(catalog.value->gpus.front().capacity(), core::macosWorkingSetBytes(memory, release));
    // 8 GB on macOS 26 has no reading: the share before it, said so.
    QVERIFY(!core::macosWorkingSet(core::Bytes::fromDouble(8.0 * 1024 * 1024 * 1024), 26).read);
    QCOMPARE(core::parseMacosRelease("macOS 15.6"), std::optional<int>(15));
    QVERIFY(!core::parseMacosRelease("19"));
}

void TestLoaders::badCatalogs()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const auto result = core::io::loadCatalog(json.toStdString());
    QVERIFY(!result.ok());
    QVERIFY2(anyErrorContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
}

void TestLoaders::badConfigs_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("layers 1e300") << R"({"model_type":"llama","hidden_size":4096,"num_hidden_layers":1e300,
        "num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000})" << "/num_hidden_layers";
    QTest::newRow("negative heads") << R"({"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,
        "num_attention_heads":-32,"intermediate_size":11008,"vocab_size":32000})" << "/num_attention_heads";
    QTest::newRow("kv heads do not divide") << R"({"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,
        "num_attention_heads":32,"num_key_value_heads":5,"intermediate_size":11008,"vocab_size":32000})"
                                            << "/num_key_value_heads";
    QTest::newRow("vocab as string") << R"({"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,
        "num_attention_heads":32,"intermediate_size":11008,"vocab_size":"32000"})" << "/vocab_size: is a string";
    QTest::newRow("not JSON") << "hidden_size = 4096" << "malformed JSON";
}

void TestLoaders::badConfigs()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const auto result = core::io::parseHfConfig(json.toStdString(), "bad");
    QVERIFY(!result.ok());
    QVERIFY2(anyErrorContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
}

void TestLoaders::scenarioRoundTrip()
{
    core::Scenario s;
    s.model = core::io::findPreset("mixtral-8x7b")->model;
    s.source = {core::ModelSource::Kind::Preset, "mixtral-8x7b", "", 0};
    s.mode = core::Mode::Qlora;
    s.weights = core::WeightFormat::Nf4;
    s.regime = core::Regime::Bf16Pure;
    s.optimizer = core::Optimizer::PagedAdamW8bit;
    s.batch = 3;
    s.sequence = 12345;
    s.gradAccum = 7;
    s.checkpointing = core::Checkpointing::Full;
    s.attention = core::Attention::Flash;
    s.lora.rank = 64;
    s.lora.alpha = 16;
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::Down};
    s.kvDtype = core::WeightFormat::Fp8;
    s.logits = core::LogitsMode::Chunked;
    s.gpus = 4;
    s.zeroStage = 3;
    s.gpuId = "h100-sxm5-80gb";
    s.cudaOverheadMib = 777.5;
    s.reservePercent = 12.5;
    s.stack = core::TrainingStack::LitGpt;
    s.versions.set(core::Library::Bitsandbytes, core::kLastBitsandbytesKeepingInputs);
    s.lora.dropout = 0.1;
    s.serving = core::ServingEngine::Vllm;
    s.maxBatchedTokens = 4096;
    s.maxNumSeqs = 64;
    const std::string saved = core::io::saveScenario(s);
    const auto loaded = core::io::loadScenario(saved);
    QVERIFY2(loaded.ok(), joined(loaded.errors).c_str());
    // Same inputs: the file written again is byte-identical, and the engine agrees.
    QCOMPARE(core::io::saveScenario(*loaded.value), saved);
    QCOMPARE(core::estimate(*loaded.value).total, core::estimate(s).total);
    QCOMPARE(core::countParameters(loaded.value->model).total, core::countParameters(s.model).total);
    QCOMPARE(loaded.value->stack, core::TrainingStack::LitGpt);
    QCOMPARE(loaded.value->lora.dropout, std::optional<double>(0.1));
    QCOMPARE(loaded.value->maxNumSeqs, 64ull);

    // Defaults that follow the stack stay defaults: a reopened QLoRA
    // scenario still checkpoints because its stack does, not because the
    // file pinned it.
    core::Scenario defaults;
    defaults.model = s.model;
    defaults.mode = core::Mode::Qlora;
    const auto reopened = core::io::loadScenario(core::io::saveScenario(defaults));
    QVERIFY2(reopened.ok(), joined(reopened.errors).c_str());
    QVERIFY(!reopened.value->checkpointing && !reopened.value->lora.dropout && !reopened.value->weights);
    QCOMPARE(reopened.value->effectiveCheckpointing(), core::Checkpointing::Full);
}

void TestLoaders::badScenarios_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("future version") << R"({"schema_version": 2, "model": {"kind": "params", "params": 7000000000}})"
                                    << "/schema_version: is 2";
    QTest::newRow("no version") << R"({"model": {"kind": "params", "params": 7000000000}})" << "/schema_version";
    QTest::newRow("batch zero") << R"({"schema_version": 1, "model": {"kind": "params", "params": 7000000000},
        "batch": 0})" << "/batch";
    QTest::newRow("dropout past the limit") << R"({"schema_version": 1, "model": {"kind": "params", "params": 7000000000},
        "lora": {"dropout": 0.97}})" << "/lora/dropout";
    QTest::newRow("unknown mode") << R"({"schema_version": 1, "model": {"kind": "params", "params": 7000000000},
        "mode": "dance"})" << "/mode: 'dance'";
    QTest::newRow("unknown preset") << R"({"schema_version": 1, "model": {"kind": "preset", "preset": "nope"}})"
                                    << "preset 'nope'";
    QTest::newRow("NaN-like reserve") << R"({"schema_version": 1, "model": {"kind": "params", "params": 7000000000},
        "reserve_percent": 1e999})" << "malformed JSON";
    QTest::newRow("bad lora target") << R"({"schema_version": 1, "model": {"kind": "params", "params": 7000000000},
        "lora": {"targets": ["q", "elbow"]}})" << "/lora/targets";
}

void TestLoaders::badScenarios()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const auto result = core::io::loadScenario(json.toStdString(), core::io::builtinPresets());
    QVERIFY(!result.ok());
    QVERIFY2(anyErrorContains(result.errors, expected.toStdString()), joined(result.errors).c_str());
}

void TestLoaders::parseCount_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("expected");
    QTest::newRow("7e9") << "7e9" << 7000000000ull;
    QTest::newRow("7B") << "7B" << 7000000000ull;
    QTest::newRow("0.5b") << "0.5b" << 500000000ull;
    QTest::newRow("1.2T") << "1.2T" << 1200000000000ull;
    QTest::newRow("125M") << "125M" << 125000000ull;
    QTest::newRow("integer") << "6738415616" << 6738415616ull;
    QTest::newRow("empty") << "" << 0ull;
    QTest::newRow("negative") << "-7B" << 0ull;
    QTest::newRow("words") << "seven" << 0ull;
    QTest::newRow("overflow") << "1e30" << 0ull;
    QTest::newRow("trailing junk") << "7Bx" << 0ull;
    QTest::newRow("32k, decimal") << "32k" << 32000ull;
    QTest::newRow("1.5k") << "1.5k" << 1500ull;
    QTest::newRow("not whole") << "2.5" << 0ull;
    QTest::newRow("separators") << "6,738,415,616" << 6738415616ull;
    QTest::newRow("only commas") << ",," << 0ull;
}

void TestLoaders::parseCount()
{
    QFETCH(QString, text);
    QFETCH(qulonglong, expected);
    QCOMPARE(static_cast<qulonglong>(core::parseCount(text.toStdString()).value_or(0)), expected);
    // Binary suffixes change k and M only: 1.5k tokens of context are 1,536.
    const auto binary = core::parseCount(text.toStdString(), core::CountSuffixes::Binary);
    const QChar last = text.isEmpty() ? QChar() : text.back().toLower();
    if (last == 'k' && expected > 0)
        QCOMPARE(static_cast<qulonglong>(binary.value_or(0)), expected * 1024 / 1000);
    else if (last == 'm' && expected > 0)
        QCOMPARE(static_cast<qulonglong>(binary.value_or(0)), expected / 1000000 * 1048576);
    else
        QCOMPARE(static_cast<qulonglong>(binary.value_or(0)), expected);
}

void TestLoaders::formatBytes_data()
{
    QTest::addColumn<qulonglong>("bytes");
    QTest::addColumn<bool>("decimal");
    QTest::addColumn<QString>("text");
    QTest::newRow("512 KiB") << 524288ull << false << "512.00 KiB";
    QTest::newRow("13.04 GiB") << 14001119232ull << false << "13.04 GiB";
    QTest::newRow("14 GB") << 14000000000ull << true << "14.00 GB";
    QTest::newRow("bytes") << 1000ull << false << "1,000 B";
}

void TestLoaders::formatBytes()
{
    QFETCH(qulonglong, bytes);
    QFETCH(bool, decimal);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(core::formatBytes(core::Bytes::fromCount(bytes),
                                                      decimal ? core::ByteUnit::GB : core::ByteUnit::GiB)),
             text);
}

void TestLoaders::bytesReadAsPrintfWritesThem()
{
    // formatBytes writes binary units from integers; printf ("%.*f" of the
    // double, which is exact) is the reference, ties (x.xx5 exactly: 5,
    // 1,029 and 1,031 x 2^10 / 2^11 ...) included, and groupDigits is
    // checked against a comma put every third digit by hand.
    std::vector<std::uint64_t> counts = {0, 1, 5, 999, 1000, 1023, 1024, 1029, 1536, 5 * 512, 1031 * 512,
                                         (1ull << 30) + (1ull << 22), (1ull << 53) - 1, 1ull << 53, UINT64_MAX / 3};
    std::uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 5000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        counts.push_back(x >> (x % 60));
    }
    const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    for (const std::uint64_t count : counts) {
        std::string grouped = std::to_string(count);
        for (int at = static_cast<int>(grouped.size()) - 3; at > 0; at -= 3)
            grouped.insert(static_cast<std::size_t>(at), ",");
        QCOMPARE(core::groupDigits(count), grouped);
        for (int decimals : {0, 1, 2, 3}) {
            double value = static_cast<double>(count);
            int index = 0;
            while (value >= 1024.0 && index < 6) {
                value /= 1024.0;
                ++index;
            }
            char printed[64];
            std::snprintf(printed, sizeof printed, "%.*f %s", decimals, value, units[index]);
            const std::string expected = index == 0 ? grouped + " B" : printed;
            QCOMPARE(core::formatBytes(core::Bytes::fromCount(count), core::ByteUnit::GiB, decimals), expected);
        }
    }
}

void TestLoaders::saturatingBytes()
{
    const core::Bytes big = core::Bytes::max();
    QVERIFY((big + core::Bytes::gib(1)).isSaturated());
    QVERIFY(big.times(3).isSaturated());
    QVERIFY(core::Bytes::fromDouble(1e300).isSaturated());
    QVERIFY(core::Bytes::fromDouble(std::nan("")).isSaturated());
    QCOMPARE(core::Bytes::fromDouble(-5).count(), 0ull);
    QCOMPARE(QString::fromStdString(core::formatBytes(big)), QStringLiteral("exceeds"));
}

VRAM_TEST_MAIN(tst_loaders, TestLoaders, None)
#include "tst_loaders.moc"
