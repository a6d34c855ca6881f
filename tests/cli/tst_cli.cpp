// vramplanner-cli through runCli(args, out, err): the JSON contract, the
// table, scenario files and bad arguments (exit 2 naming the argument).

#include "app/cli/cli.h"
#include "core/base/units.h"
#include "core/scenario/fields.h"
#include "core/scenario/scenario.h"
#include "tests/support/testregistry.h"
#include "tests/support/weightfilewriter.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <regex>
#include <sstream>

namespace {

struct Run
{
    int code = -1;
    std::string out;
    std::string err;
};

Run run(std::vector<std::string> args)
{
    std::ostringstream out;
    std::ostringstream err;
    Run r;
    r.code = cli::runCli(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

QJsonObject runJson(std::vector<std::string> args)
{
    args.push_back("--json");
    const Run r = run(args);
    if (r.code != 0)
        qFatal("exit %d: %s", r.code, r.err.c_str());
    return QJsonDocument::fromJson(QByteArray::fromStdString(r.out)).object();
}

const char *const kTerms[] = {"weights", "gradients", "optimizer", "activations", "kv_cache", "cuda_overhead",
                              "logits", "master_weights", "lora", "allocator_reserve", "comm_buffers"};

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void helpAndVersion();
    void listings();
    void jsonContract();
    void paramsSpellings_data();
    void paramsSpellings();
    void configFileAndFolder();
    void ggufImpliesItsRuntimeAndFormat();
    void draftPreset();
    void unknownModelTypeWarns();
    void tableOutput();
    void extremeScenarioSaysExceeds();
    void saveAndReloadScenario();
    void calibrateThenEstimate();
    void clusterFlagsAndPerformance();
    void textShowsWhatJsonHas();
    void deploymentFlags();
    void engineVersionFollowsTheEngine();
    void servingTimesAgainstPublishedBenchmarks();
    void fileErrorsNameTheFile();
    void qloraDefaultsFollowTheStack();
    void planAndUtilization();
    void planServeHandCase();
    void suggestionsEachMakeItFit();
    void userCatalogAddsAndReplacesGpus();
    void brokenUserCatalogIsReported();
    void compareLlamaCppLog();
    void compareKeepAndValidateMine();
    void validateConfigsListsEachReading();
    void compareRefusesUnreadableLogs();
    void calibrateFromLog();
    void badArguments_data();
    void badArguments();
};

void TestCli::helpAndVersion()
{
    const Run help = run({"--help"});
    QCOMPARE(help.code, 0);
    QVERIFY(help.out.find("--lora-targets") != std::string::npos);
    for (const char *option : {"--stack", "--bnb", "--lora-dropout", "--serving-engine", "--max-num-seqs"})
        QVERIFY2(help.out.find(option) != std::string::npos, option);
    const Run version = run({"--version"});
    QCOMPARE(version.code, 0);
    QVERIFY(version.out.find("vramplanner-cli 0.") == 0);
}

void TestCli::listings()
{
    const QJsonObject gpus = QJsonDocument::fromJson(QByteArray::fromStdString(run({"gpus", "--json"}).out)).object();
    QVERIFY(gpus.value("gpus").toArray().size() >= 30);
    const QJsonObject models = QJsonDocument::fromJson(QByteArray::fromStdString(run({"models", "--json"}).out)).object();
    QVERIFY(models.value("models").toArray().size() >= 25);
    QVERIFY(run({"models"}).out.find("6,738,415,616") != std::string::npos); // Llama-2-7b
}

void TestCli::jsonContract()
{
    const QJsonObject j = runJson({"estimate", "--preset", "llama-2-7b", "--mode", "train", "--batch", "2"});
    QCOMPARE(j.value("schema_version").toInt(), 1);
    QCOMPARE(j.value("model").toObject().value("params_total").toDouble(), 6738415616.0);
    QCOMPARE(j.value("scenario").toObject().value("batch").toInt(), 2);
    QCOMPARE(j.value("scenario").toObject().value("optimizer").toString(), QStringLiteral("adamw"));
    const QJsonObject bytes = j.value("per_gpu_bytes").toObject();
    double sum = 0;
    for (auto it = bytes.begin(); it != bytes.end(); ++it)
        if (it.key() != QLatin1String("total"))
            sum += it.value().toDouble();
    QCOMPARE(sum, bytes.value("total").toDouble());
    for (const char *t : kTerms)
        QVERIFY2(bytes.contains(QLatin1String(t)), t);
    QCOMPARE(bytes.value("kv_cache").toDouble(), 0.0); // present and 0: no KV cache in training
    QVERIFY(!j.value("peak_phase").toString().isEmpty());
    const QJsonArray gpus = j.value("gpus").toArray();
    QVERIFY(gpus.size() >= 30);
    for (const QJsonValue &g : gpus) {
        const QJsonObject fit = g.toObject();
        for (const char *key : {"id", "name", "memory_bytes", "fits", "headroom_bytes", "gpus_needed", "max_batch",
                                "max_seq", "kv_tokens", "warnings"})
            QVERIFY2(fit.contains(QLatin1String(key)), key);
    }
    QVERIFY(j.value("derivations").toObject().value("weights").toObject().value("formula").isString());
}

void TestCli::paramsSpellings_data()
{
    QTest::addColumn<QString>("spelling");
    QTest::newRow("7e9") << "7e9";
    QTest::newRow("7B") << "7B";
    QTest::newRow("7b") << "7b";
    QTest::newRow("integer") << "7000000000";
}

void TestCli::paramsSpellings()
{
    QFETCH(QString, spelling);
    const QJsonObject j = runJson({"estimate", "--params", spelling.toStdString(), "--weights", "fp16"});
    QCOMPARE(j.value("model").toObject().value("params_total").toDouble(), 7e9);
    QCOMPARE(j.value("per_gpu_bytes").toObject().value("weights").toDouble(), 14e9); // S1
}

void TestCli::configFileAndFolder()
{
    const std::string file = VRAM_TEST_DATA_DIR "/configs/mistral-mistral-7b-v0.1.json";
    QCOMPARE(runJson({"estimate", "--config", file}).value("model").toObject().value("params_total").toDouble(),
             7241732096.0);
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QString::fromStdString(file), dir.filePath("config.json")));
    QCOMPARE(runJson({"estimate", "--config", dir.path().toStdString()}).value("model").toObject().value("params_total").toDouble(),
             7241732096.0);
}

void TestCli::ggufImpliesItsRuntimeAndFormat()
{
    // A GGUF file is what llama.cpp runs, in the type its general.file_type
    // names (15: Q4_K_M): both follow from the file; --serving-engine and
    // --weights still choose otherwise.
    constexpr std::uint32_t kF32 = 0; // ggml_type GGML_TYPE_F32
    const std::uint64_t h = 256, ffn = 512, vocab = 1000;
    testsupport::GgufFile file;
    file.text("general.architecture", "llama")
        .u32("general.file_type", 15)
        .u32("llama.block_count", 2)
        .u32("llama.context_length", 4096)
        .u32("llama.embedding_length", h)
        .u32("llama.feed_forward_length", ffn)
        .u32("llama.attention.head_count", 4)
        .u32("llama.attention.head_count_kv", 4)
        .tensor("token_embd.weight", {h, vocab}, kF32, 4 * h * vocab)
        .tensor("output_norm.weight", {h}, kF32, 4 * h);
    for (int l = 0; l < 2; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        for (const char *norm : {"attn_norm.weight", "ffn_norm.weight"})
            file.tensor(b + norm, {h}, kF32, 4 * h);
        for (const char *square : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight"})
            file.tensor(b + square, {h, h}, kF32, 4 * h * h);
        file.tensor(b + "ffn_gate.weight", {h, ffn}, kF32, 4 * h * ffn)
            .tensor(b + "ffn_up.weight", {h, ffn}, kF32, 4 * h * ffn)
            .tensor(b + "ffn_down.weight", {ffn, h}, kF32, 4 * ffn * h);
    }
    QTemporaryDir dir;
    const std::string path = dir.filePath("tiny.gguf").toStdString();
    file.write(path);
    const QJsonObject implied = runJson({"estimate", "--model", path}).value("scenario").toObject();
    QCOMPARE(implied.value("serving").toObject().value("engine").toString(), QString("llamacpp"));
    QCOMPARE(implied.value("weights").toString(), QString("gguf-q4_k_m"));
    const QJsonObject chosen =
        runJson({"estimate", "--model", path, "--serving-engine", "vllm"}).value("scenario").toObject();
    QCOMPARE(chosen.value("serving").toObject().value("engine").toString(), QString("vllm"));
}

void TestCli::unknownModelTypeWarns()
{
    QTemporaryDir dir;
    QFile config(dir.filePath("config.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"model_type": "brand_new_llm", "hidden_size": 2048, "num_hidden_layers": 16,
        "num_attention_heads": 16, "intermediate_size": 5632, "vocab_size": 32000})");
    config.close();
    const QJsonObject j = runJson({"estimate", "--config", dir.path().toStdString()});
    const QJsonArray warnings = j.value("warnings").toArray();
    QVERIFY(!warnings.isEmpty());
    QVERIFY(warnings.first().toString().contains(QLatin1String("brand_new_llm")));
}

void TestCli::tableOutput()
{
    const Run r = run({"estimate", "--preset", "baichuan-7b", "--weights", "int4", "--units", "gib"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.find("3.26 GiB") != std::string::npos); // S12
    QVERIFY(r.out.find("GTX 960") != std::string::npos);
    const Run gb = run({"estimate", "--preset", "baichuan-7b", "--weights", "int4", "--units", "gb"});
    QVERIFY(gb.out.find("3.50 GB") != std::string::npos); // 3,500,279,808 B
}

void TestCli::extremeScenarioSaysExceeds()
{
    // 2T parameters, 1M-token context, batch 65,536, 1,024 GPUs: more bytes
    // than 64 bits count. The total and every GPU's headroom say "exceeds";
    // no wrapped or clamped number, no nan or inf.
    const std::vector<std::string> extreme = {"estimate", "--params", "2T", "--mode", "train", "--seq", "1048576",
                                              "--batch", "65536", "--gpus", "1024"};
    const Run table = run(extreme);
    QCOMPARE(table.code, 0);
    std::istringstream lines(table.out);
    int gpuRows = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("  total", 0) == 0)
            QVERIFY2(line.find("exceeds") != std::string::npos, line.c_str());
        if (line.rfind("NVIDIA", 0) == 0 || line.rfind("AMD", 0) == 0) {
            ++gpuRows;
            QVERIFY2(line.find("exceeds") != std::string::npos, line.c_str());
        }
    }
    QVERIFY(gpuRows > 5);
    QVERIFY(!std::regex_search(table.out, std::regex("\\b-?(nan|inf)\\b")));
    const QJsonArray gpus = runJson(extreme).value("gpus").toArray();
    QVERIFY(!gpus.isEmpty());
    for (const QJsonValue &gpu : gpus) {
        QCOMPARE(gpu.toObject().value("fits").toBool(), false);
        QCOMPARE(gpu.toObject().value("headroom_bytes").toDouble(), -std::ldexp(1.0, 62)); // documented clamp
    }
}

namespace {

/// Points the user data directory at `dir` for one test.
struct UserDataDir
{
    explicit UserDataDir(const QString &dir) { qputenv("VRAMPLANNER_DATA_DIR", dir.toLocal8Bit()); }
    ~UserDataDir() { qunsetenv("VRAMPLANNER_DATA_DIR"); }
};

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

QJsonObject gpuById(const QJsonArray &gpus, const QString &id)
{
    for (const QJsonValue &gpu : gpus)
        if (gpu.toObject().value("id").toString() == id)
            return gpu.toObject();
    return {};
}

} // namespace

void TestCli::userCatalogAddsAndReplacesGpus()
{
    QTemporaryDir dir;
    const UserDataDir userData(dir.path());
    // A lab card the catalog lacks, and the GTX 960 redefined as its 2 GiB
    // variant: 24 x 2^30 = 25,769,803,776 B; 2 x 2^30 = 2,147,483,648 B.
    writeFile(dir.filePath("gpus.json"), R"({"schema_version": 1, "gpus": [
        {"id": "lab-card-24g", "name": "Lab card 24G", "memory_bytes": 25769803776, "source": "our lab", "default_shown": true},
        {"id": "gtx-960", "name": "NVIDIA GeForce GTX 960 2GB", "memory_bytes": 2147483648, "source": "board label"}]})");
    const Run listing = run({"gpus", "--json"});
    QCOMPARE(listing.code, 0);
    QVERIFY(listing.err.empty());
    const QJsonArray gpus = QJsonDocument::fromJson(QByteArray::fromStdString(listing.out)).object().value("gpus").toArray();
    QCOMPARE(gpuById(gpus, "lab-card-24g").value("memory_bytes").toDouble(), 25769803776.0);
    QCOMPARE(gpuById(gpus, "gtx-960").value("memory_bytes").toDouble(), 2147483648.0);
    // Llama-2-7B bf16 weights alone are 13.5 GB: they fit 24 GiB, not 2 GiB.
    const QJsonObject j = runJson({"estimate", "--preset", "llama-2-7b", "--gpu", "lab-card-24g"});
    QVERIFY(gpuById(j.value("gpus").toArray(), "lab-card-24g").value("fits").toBool());
    QVERIFY(!gpuById(j.value("gpus").toArray(), "gtx-960").value("fits").toBool());
}

void TestCli::brokenUserCatalogIsReported()
{
    QTemporaryDir dir;
    const UserDataDir userData(dir.path());
    writeFile(dir.filePath("gpus.json"), R"({"schema_version": 1, "gpus": [{"id": "no-memory", "name": "x", "source": "y"}]})");
    const Run r = run({"gpus"});
    QCOMPARE(r.code, 0); // the built-in catalog still answers
    QVERIFY2(r.err.find("gpus.json: /gpus/0/memory_bytes") != std::string::npos, r.err.c_str());
    QVERIFY(r.err.find("built-in catalog") != std::string::npos);
    QVERIFY(r.out.find("no-memory") == std::string::npos);
}

void TestCli::saveAndReloadScenario()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("s.json").toStdString();
    const QJsonObject first = runJson({"estimate", "--preset", "qwen2.5-7b", "--mode", "qlora", "--lora-rank", "32",
                                       "--seq", "8192", "--save-scenario", path});
    const QJsonObject again = runJson({"estimate", "--scenario", path});
    QCOMPARE(again.value("per_gpu_bytes").toObject(), first.value("per_gpu_bytes").toObject());
    QCOMPARE(again.value("scenario").toObject(), first.value("scenario").toObject());
    // Options override the file.
    const QJsonObject overridden = runJson({"estimate", "--scenario", path, "--batch", "8"});
    QCOMPARE(overridden.value("scenario").toObject().value("batch").toInt(), 8);
}

void TestCli::calibrateThenEstimate()
{
    QTemporaryDir dir;
    const std::string profile = dir.filePath("a100.json").toStdString();
    const Run fit = run({"calibrate", "--preset", "llama-2-7b", "--gpu", "a100-sxm4-80gb",
                         "--nvidia-smi", "15000MiB", "--name", "lab", "--save-profile", profile});
    QCOMPARE(fit.code, 0);
    QVERIFY(fit.out.find("fitted cuda_overhead") != std::string::npos);
    // The profile makes the estimate reproduce the measured 15,000 MiB.
    const QJsonObject j = runJson({"estimate", "--preset", "llama-2-7b", "--calibration", profile});
    QVERIFY(std::abs(j.value("per_gpu_bytes").toObject().value("total").toDouble() - 15000.0 * 1048576) < 4096);
    QCOMPARE(run({"calibrate", "--preset", "gpt2", "--nvidia-smi", "much"}).code, 2);
}

void TestCli::clusterFlagsAndPerformance()
{
    const QJsonObject j = runJson({"estimate", "--preset", "llama-2-70b", "--mode", "train", "--nodes", "8", "--tp", "8",
                                   "--pp", "2", "--sp", "--zero", "1", "--gpu", "h100-sxm5-80gb", "--tokens", "2T",
                                   "--price-per-gpu-hour", "2.5"});
    const QJsonObject par = j.value("parallelism").toObject();
    QCOMPARE(par.value("dp").toInt(), 4); // 64 GPUs / (8 x 2)
    QCOMPARE(par.value("nodes").toInt(), 8);
    QCOMPARE(j.value("scenario").toObject().value("gpus").toInt(), 64);
    const QJsonObject perf = j.value("performance").toObject();
    QCOMPARE(perf.value("peak_tflops").toDouble(), 989.0); // H100 SXM dense bf16
    QVERIFY(perf.value("gpu_hours").toDouble() > 0);
    QCOMPARE(perf.value("cost").toDouble(), perf.value("gpu_hours").toDouble() * 2.5);
    // Existing keys stay; new ones are added.
    QVERIFY(j.contains("per_gpu_bytes") && j.contains("gpus") && j.contains("host_memory_bytes_per_gpu"));
    QCOMPARE(perf.value("gpu_chosen").toBool(), true);

    // No --gpu: the figures are for the same default GPU the window shows,
    // and both outputs say it was not chosen.
    const QJsonObject unchosen = runJson({"estimate", "--preset", "llama-2-7b"}).value("performance").toObject();
    QCOMPARE(unchosen.value("gpu").toString(), QString(core::Scenario::kDefaultFocusGpu));
    QCOMPARE(unchosen.value("gpu_chosen").toBool(), false);
    QVERIFY(run({"estimate", "--preset", "llama-2-7b"}).out.find("no GPU chosen, so the default") != std::string::npos);
}

namespace {

/// A GPU's entry in `estimate --json`'s gpus list.
QJsonObject gpuEntry(const QJsonObject &estimate, const QString &id)
{
    for (const QJsonValue &g : estimate.value("gpus").toArray())
        if (g.toObject().value("id").toString() == id)
            return g.toObject();
    return {};
}

/// The CLI options of a what_would_fit entry's changes (field id: value),
/// through the field registry's flags.
std::map<std::string, std::string> optionsOf(const QJsonObject &changes)
{
    std::map<std::string, std::string> options;
    for (auto it = changes.begin(); it != changes.end(); ++it) {
        const core::FieldDescriptor *f = core::findFieldByKey(it.key().toStdString());
        if (!f)
            qFatal("no field %s", qPrintable(it.key()));
        // A switch (true) is given by its name alone: an empty value.
        options[std::string("--") + f->flag] = it.value().isBool() ? std::string()
            : it.value().isString()                                  ? it.value().toString().toStdString()
                                                                     : QString::number(it.value().toDouble(), 'g', 17).toStdString();
    }
    return options;
}

/// `options` after `args`, a switch (empty value) by its name alone.
void addOptions(std::vector<std::string> &args, const std::map<std::string, std::string> &options)
{
    for (const auto &[option, value] : options) {
        args.push_back(option);
        if (!value.empty())
            args.push_back(value);
    }
}

} // namespace

void TestCli::suggestionsEachMakeItFit()
{
    // Llama 3 8B in bf16 needs about 16.7 GiB; an RTX 3070 holds 7.8 GiB.
    // Every change suggested, given back to the CLI as the options its
    // field ids name, must make the same scenario fit, at the total it
    // promised.
    const std::vector<std::string> base = {"estimate", "--preset", "llama-3-8b", "--gpu", "rtx-3070"};
    const QJsonObject rtx = gpuEntry(runJson(base), "rtx-3070");
    QVERIFY(!rtx.value("fits").toBool());
    // Why: one GPU as set holds more than the card; three of them split it,
    // so nothing blocks.
    const QJsonObject why = rtx.value("why").toObject();
    QCOMPARE(why.value("gpus").toInt(), 1);
    QVERIFY(!why.value("split_as_far_as_it_goes").toBool());
    QVERIFY(why.value("blocking").toArray().isEmpty());
    QVERIFY(why.value("text").toString().startsWith("As set, one GPU holds"));
    QCOMPARE(why.value("shortfall_bytes").toDouble(), -rtx.value("headroom_bytes").toDouble());
    const QJsonArray each = rtx.value("what_would_fit").toArray();
    QVERIFY(each.size() >= 2);
    bool gpus = false;
    for (const QJsonValue &v : each) {
        const QJsonObject suggestion = v.toObject();
        // One input, or what one layout sets together (tp and its GPUs).
        const auto options = optionsOf(suggestion.value("changes").toObject());
        QVERIFY(options.size() == 1 || options.count("--tp"));
        std::vector<std::string> changed = base;
        addOptions(changed, options);
        const QJsonObject after = runJson(changed);
        const QJsonObject fitted = gpuEntry(after, "rtx-3070");
        QVERIFY2(fitted.value("fits").toBool(), changed.back().c_str());
        QVERIFY(fitted.value("why").isNull() && fitted.value("what_would_fit").toArray().isEmpty());
        QCOMPARE(after.value("per_gpu_bytes").toObject().value("total").toDouble(),
                 suggestion.value("per_gpu_bytes").toDouble());
        QCOMPARE(suggestion.value("gpus").toInt(), options.count("--gpus") ? std::stoi(options.at("--gpus")) : 1);
        gpus = gpus || (options.size() == 1 && options.count("--gpus"));
    }
    // The table's "needs 3 x" is among them.
    QVERIFY(gpus);
    // At batch 64 x 8k nothing alone fits, and no GPU count does: the
    // reason is what each GPU holds with one of Llama 3 8B's 32 layers
    // apiece, more than the card's 7.8 GiB.
    const std::map<std::string, std::string> stuckOptions = {{"--batch", "64"}, {"--seq", "8k"}};
    std::vector<std::string> stuckArgs = base;
    addOptions(stuckArgs, stuckOptions);
    const QJsonObject stuck = gpuEntry(runJson(stuckArgs), "rtx-3070");
    // Pairs then: both changes given back to the CLI make it fit.
    const QJsonArray pairs = stuck.value("what_would_fit").toArray();
    QVERIFY(!pairs.isEmpty());
    for (const QJsonValue &v : pairs) {
        std::map<std::string, std::string> options = stuckOptions;
        const auto changes = optionsOf(v.toObject().value("changes").toObject());
        QVERIFY(v.toObject().value("pair").toBool());
        QVERIFY(changes.size() >= 2); // two changes; the GPUs bring their ZeRO stage in training
        for (const auto &[option, value] : changes)
            options[option] = value;
        std::vector<std::string> both = base;
        addOptions(both, options);
        const QJsonObject after = runJson(both);
        QVERIFY(gpuEntry(after, "rtx-3070").value("fits").toBool());
        QCOMPARE(after.value("per_gpu_bytes").toObject().value("total").toDouble(),
                 v.toObject().value("per_gpu_bytes").toDouble());
    }
    const QJsonObject floor = stuck.value("why").toObject();
    QVERIFY(floor.value("split_as_far_as_it_goes").toBool());
    QCOMPARE(floor.value("gpus").toInt(), 32);
    double sum = 0;
    for (const QJsonValue &term : floor.value("blocking").toArray())
        sum += term.toObject().value("bytes").toDouble();
    QCOMPARE(sum, floor.value("per_gpu_bytes").toDouble());
    QVERIFY(floor.value("per_gpu_bytes").toDouble() > 7.8 * 1024 * 1024 * 1024);
    QCOMPARE(floor.value("per_gpu_bytes").toDouble() - floor.value("shortfall_bytes").toDouble(),
             stuck.value("memory_bytes").toDouble());
}

void TestCli::deploymentFlags()
{
    // A 24 GB and an 8 GB card under llama.cpp: each device's layers and
    // fit, in split order; the 8 GB card takes fewer layers.
    const QJsonObject j = runJson({"estimate", "--preset", "llama-3-8b", "--weights", "gguf-q4_k_m", "--serving-engine",
                                   "llamacpp", "--devices", "rtx-4090,rtx-3070", "--host-memory", "0.25", "--beams", "2",
                                   "--gpu", "rtx-4090", "--request-rate", "3", "--output-tokens", "128"});
    QCOMPARE(j.value("scenario").toObject().value("gpus").toInt(), 2);
    QCOMPARE(j.value("scenario").toObject().value("beams").toInt(), 2);
    const QJsonObject devices = j.value("devices").toObject();
    const QJsonArray list = devices.value("list").toArray();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list[0].toObject().value("id").toString(), QString("rtx-4090"));
    QVERIFY(list[0].toObject().value("layers").toInt() > list[1].toObject().value("layers").toInt());
    QCOMPARE(list[0].toObject().value("layers").toInt() + list[1].toObject().value("layers").toInt(), 32);
    // A quarter GiB of RAM is less than token_embd alone (Q4_K: 128,256 x
    // 4,096 x 4.5 bits = 282 MiB): the host side is warned.
    QVERIFY(j.value("host_memory").toObject().value("needed_bytes_per_machine").toDouble() > 282e6);
    bool warned = false;
    for (const QJsonValue &w : j.value("warnings").toArray())
        warned = warned || w.toString().startsWith("host memory");
    QVERIFY(warned);
    const QJsonObject serving = j.value("serving").toObject();
    QVERIFY(serving.value("requests_per_second").toDouble() > 0);
    QCOMPARE(serving.value("gpus_for_target_rate").toInt(),
             2 * static_cast<int>(std::ceil(3.0 / serving.value("requests_per_second").toDouble())));
    const Run text = run({"estimate", "--preset", "llama-3-8b", "--weights", "gguf-q4_k_m", "--serving-engine",
                          "llamacpp", "--devices", "rtx-4090,rtx-3070", "--gpu", "rtx-4090", "--request-rate", "3"});
    for (const char *expected : {"Devices, in split order", "NVIDIA GeForce RTX 3070 8GB", "3.00 per second need"})
        QVERIFY2(text.out.find(expected) != std::string::npos, expected);
}

void TestCli::textShowsWhatJsonHas()
{
    // Time, cost and the communication-bound flag on the focused GPU, the
    // parallel layout in the scenario line, catalog names in full.
    const Run r = run({"estimate", "--preset", "llama-2-70b", "--mode", "train", "--nodes", "8", "--tp", "8", "--pp",
                       "2", "--sp", "--zero", "1", "--gpu", "h100-sxm5-80gb", "--tokens", "2T",
                       "--price-per-gpu-hour", "2.5"});
    QCOMPARE(r.code, 0);
    for (const char *expected : {"tp 8, pp 2 with sp", "communication-bound", "GPU-hours", ", cost ",
                                 "NVIDIA GeForce RTX 3090 24GB", "2,000,000,000,000 tokens"})
        QVERIFY2(r.out.find(expected) != std::string::npos, expected);
    // Counts take the spellings --params takes.
    QVERIFY(run({"estimate", "--preset", "gpt2", "--seq", "1e3"}).out.find("sequence 1000") != std::string::npos);
    // A plan of one GPU is "1 GPU", and the footnote appears only beside a
    // communication-bound row.
    const Run plan = run({"plan", "--preset", "llama-2-7b", "--mode", "train", "--gpu", "a100-sxm4-80gb",
                          "--max-gpus", "1"});
    QVERIFY(plan.out.find("(1 GPU)") != std::string::npos);
    const auto stars = std::count(plan.out.begin(), plan.out.end(), '*'); // row markers, plus the footnote's
    QCOMPARE(plan.out.find("* communication-bound") != std::string::npos, stars > 0);
    QVERIFY(stars != 1);
    // A layout that waits on its links is marked, and the footnote explains it.
    const Run bound = run({"plan", "--preset", "llama-2-7b", "--mode", "train", "--gpu", "a100-sxm4-80gb",
                           "--min-gpus", "16", "--max-gpus", "16", "--inter-node-gbps", "0.1"});
    QVERIFY2(std::count(bound.out.begin(), bound.out.end(), '*') >= 2, bound.out.c_str());
    const Run help = run({"plan", "--help"});
    QCOMPARE(help.code, 0);
    QVERIFY(help.out.find("Usage:") != std::string::npos);
}

void TestCli::engineVersionFollowsTheEngine()
{
    // --engine-version is the chosen engine's release, whichever order the
    // options come in: vLLM 0.8's share is 0.9, SGLang 0.4.6's fraction its
    // TP table's 0.88 on an H100 at TP 1.
    for (const auto &args : {std::vector<std::string>{"--serving-engine", "vllm", "--engine-version", "0.8"},
                             std::vector<std::string>{"--engine-version", "0.8", "--serving-engine", "vllm"}}) {
        std::vector<std::string> all = {"estimate", "--preset", "llama-3.1-8b"};
        all.insert(all.end(), args.begin(), args.end());
        const QJsonObject o = runJson(all);
        QCOMPARE(o["library_versions"].toObject()["libraries"].toObject()["vllm"].toString(), QStringLiteral("0.8"));
        QCOMPARE(o["scenario"].toObject()["gpu_memory_utilization"].toDouble(), 0.9);
    }
    const auto h100Tokens = [](const QJsonObject &o) {
        for (const QJsonValue &g : o["gpus"].toArray())
            if (g.toObject()["id"].toString() == QStringLiteral("h100-sxm5-80gb"))
                return g.toObject()["kv_tokens"].toDouble();
        return -1.0;
    };
    const QJsonObject old = runJson({"estimate", "--preset", "llama-3.1-8b", "--serving-engine", "sglang",
                                     "--engine-version", "0.4.6"});
    const QJsonObject current = runJson({"estimate", "--preset", "llama-3.1-8b", "--serving-engine", "sglang"});
    QCOMPARE(old["library_versions"].toObject()["libraries"].toObject()["sglang"].toString(), QStringLiteral("0.4.6"));
    // 0.88 of the card against 0.5.15's 0.829: a larger pool.
    QVERIFY(h100Tokens(old) > h100Tokens(current) && h100Tokens(current) > 0);
}

void TestCli::servingTimesAgainstPublishedBenchmarks()
{
    // Every published serving benchmark runs; a bandwidth roofline is never
    // slower than a measured decode (exit 0 says so).
    const Run r = run({"validate", "--serving", VRAM_TEST_DATA_DIR "/../validation/serving-time-cases.json"});
    QVERIFY2(r.code == 0, (r.out + r.err).c_str());
    for (const char *id : {"llamacpp-rtx4090-llama7b-q8_0-tg128", "trtllm-4xh100-llama2-70b-fp8-2048-ttft",
                           "nim-2xh100-llama33-70b-fp8-itl", "vllm-h100-llama3-8b-light-load",
                           "nim-2xh100-llama33-70b-fp8-c25-tpot"})
        QVERIFY2(r.out.find(id) != std::string::npos, id);
    // A file that is not a case list is named.
    const Run bad = run({"validate", "--serving", VRAM_TEST_DATA_DIR "/logs/SOURCES.md"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.find("SOURCES.md") != std::string::npos);
}

void TestCli::fileErrorsNameTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("root:x:0:0");
    f.close();
    const Run r = run({"estimate", "--config", path.toStdString()});
    QCOMPARE(r.code, 2);
    // "<path>: malformed JSON", not "<path>malformed JSON".
    QVERIFY2(r.err.find(path.toStdString() + ": malformed JSON") != std::string::npos, r.err.c_str());
}

void TestCli::qloraDefaultsFollowTheStack()
{
    // QLoRA under Hugging Face PEFT checkpoints by default; the table says so.
    const Run hf = run({"estimate", "--preset", "llama-3-8b", "--mode", "qlora"});
    QCOMPARE(hf.code, 0);
    QVERIFY(hf.out.find("checkpointing full, stack hf") != std::string::npos);
    const QJsonObject j = runJson({"estimate", "--preset", "llama-3-8b", "--mode", "qlora", "--stack", "litgpt"});
    const QJsonObject scenario = j.value("scenario").toObject();
    QCOMPARE(scenario.value("checkpointing").toString(), QStringLiteral("none"));
    QCOMPARE(scenario.value("stack").toString(), QStringLiteral("litgpt"));
    QCOMPARE(scenario.value("lora").toObject().value("dropout").toDouble(), 0.05);
    // Each phase names the moment of its peak.
    QVERIFY(!j.value("phases").toArray().at(1).toObject().value("moment").toString().isEmpty());
}

void TestCli::planServeHandCase()
{
    // tst_serveplan's hand-worked case through the command line: TP 1's
    // 4.874 ms step misses the 4 ms target, one replica of TP 2 (2 GPUs)
    // meets it; --engines, --gpu-prices and each output format.
    const std::vector<std::string> base = {"plan", "--serve", "--preset", "llama-3-8b", "--gpu", "h100-sxm5-80gb",
                                           "--prompt-tokens", "1792", "--output-tokens", "256", "--request-rate", "0.5",
                                           "--ttft", "0.5", "--tpot", "0.004", "--engines", "vllm",
                                           "--gpu-prices", "h100-sxm5-80gb=2"};
    std::vector<std::string> json = base;
    json.push_back("--json");
    const Run r = run(json);
    QCOMPARE(r.code, 0);
    const QJsonObject plan = QJsonDocument::fromJson(QByteArray::fromStdString(r.out)).object();
    QCOMPARE(plan.value("prompt_tokens").toDouble(), 1792.0);
    const QJsonObject best = plan.value("layouts").toArray().first().toObject();
    QCOMPARE(best.value("engine").toString(), QStringLiteral("vllm"));
    QCOMPARE(best.value("tp").toInt(), 2);
    QCOMPARE(best.value("total_gpus").toInt(), 2);
    // $2 per GPU-hour x 2 GPUs over 0.5 x 256 tokens a second, per million.
    QVERIFY(std::abs(best.value("cost_per_million_tokens").toDouble() - 2.0 * 2 / (0.5 * 256 * 3600) * 1e6) < 1e-6);
    const QJsonArray rejected = plan.value("rejected").toArray();
    QVERIFY(std::any_of(rejected.begin(), rejected.end(), [](const QJsonValue &v) {
        return v.toObject().value("tp").toInt() == 1
            && v.toObject().value("reason").toString().contains(QStringLiteral("decode step takes 4.9 ms"));
    }));
    const Run text = run(base);
    QVERIFY2(text.out.find("Serving plan: Llama 3 8B: prompts of 1,792 tokens") != std::string::npos, text.out.c_str());
    std::vector<std::string> csv = base;
    csv.push_back("--csv");
    QVERIFY(run(csv).out.rfind("engine,gpu,tp,pp,", 0) == 0);
    std::vector<std::string> markdown = base;
    markdown.push_back("--markdown");
    QVERIFY(run(markdown).out.rfind("# Serving plan", 0) == 0);
    // A target nothing meets: exit 1, and the text says why.
    std::vector<std::string> tight = base;
    tight[tight.size() - 5] = "0.0001";
    const Run none = run(tight);
    QCOMPARE(none.code, 1);
    QVERIFY2(none.out.find("No layout serves these targets.") != std::string::npos, none.out.c_str());
    std::vector<std::string> badEngine = base;
    badEngine[badEngine.size() - 3] = "vllm,nope";
    QCOMPARE(run(badEngine).code, 2);
    // Training has no serving plan; --serve's options need it, and plan's
    // training options are not its.
    std::vector<std::string> training = base;
    training.insert(training.end(), {"--mode", "train"});
    QCOMPARE(run(training).code, 2);
    QCOMPARE(run({"plan", "--preset", "llama-3-8b", "--gpu", "h100-sxm5-80gb", "--gpu-ids", "l4"}).code, 2);
    std::vector<std::string> offload = base;
    offload.push_back("--no-offload");
    QCOMPARE(run(offload).code, 2);
}

void TestCli::planAndUtilization()
{
    const Run plan = run({"plan", "--preset", "llama-2-70b", "--mode", "train", "--gpu", "a100-sxm4-80gb", "--min-gpus",
                          "8", "--max-gpus", "8", "--json"});
    QCOMPARE(plan.code, 0);
    const QJsonArray layouts = QJsonDocument::fromJson(QByteArray::fromStdString(plan.out)).object().value("layouts").toArray();
    QVERIFY(!layouts.isEmpty());
    for (const QJsonValue &l : layouts)
        QVERIFY(l.toObject().value("offload").toString() != QLatin1String("none")); // 70B on 8 x A100 needs offload
    QCOMPARE(run({"plan", "--preset", "gpt2"}).code, 2); // needs --gpu
    // No layout of up to 4 RTX 3070s serves Llama 2 70B: the plan says why
    // and what would fit, from the same search as estimate's, and each
    // change given back to estimate fits the card.
    const std::vector<std::string> base = {"--preset", "llama-2-70b", "--gpu", "rtx-3070"};
    std::vector<std::string> planArgs = {"plan", "--max-gpus", "4", "--json"};
    planArgs.insert(planArgs.begin() + 1, base.begin(), base.end());
    const QJsonObject none = QJsonDocument::fromJson(QByteArray::fromStdString(run(planArgs).out)).object();
    QVERIFY(none.value("layouts").toArray().isEmpty());
    QVERIFY(none.value("why").toObject().value("text").toString().startsWith("As set, one GPU holds"));
    const QJsonArray wouldFit = none.value("what_would_fit").toArray();
    QVERIFY(!wouldFit.isEmpty());
    for (const QJsonValue &v : wouldFit) {
        std::vector<std::string> args = {"estimate"};
        args.insert(args.end(), base.begin(), base.end());
        addOptions(args, optionsOf(v.toObject().value("changes").toObject()));
        QVERIFY(gpuEntry(runJson(args), "rtx-3070").value("fits").toBool());
    }
    std::vector<std::string> textArgs = planArgs;
    textArgs.pop_back();
    QVERIFY(run(textArgs).out.find("Each of these alone makes it fit") != std::string::npos);
    const Run s14 = run({"utilization", "--gpu", "a100-sxm4-80gb", "--measured-tflops", "100"});
    QCOMPARE(s14.code, 0);
    QVERIFY(s14.out.find("32.05 %") != std::string::npos);
    const Run s15 = run({"utilization", "--preset", "llama-2-7b", "--mode", "train", "--gpu", "a100-sxm4-80gb",
                         "--tokens-per-second", "1536", "--reference-tokens-per-second", "3300"});
    QVERIFY(s15.out.find("46.55 %") != std::string::npos); // 1536 / 3300 = 46.545 %
    QCOMPARE(run({"utilization", "--gpu", "a100-sxm4-80gb"}).code, 2);
}

void TestCli::draftPreset()
{
    // Qwen2.5-0.5B by hand from its config.json (hidden 896, 24 layers,
    // 14 heads, 2 KV heads of 64, MLP 4864, vocabulary 151936, tied, q/k/v
    // biases): embedding 136,134,656 + 24 x 14,912,384 per layer + final
    // norm 896 = 494,032,768 (the Hub's safetensors count); in bf16 its
    // weights are 2 B each.
    const QJsonObject plain = runJson({"estimate", "--preset", "qwen2.5-7b"});
    const QJsonObject drafted = runJson({"estimate", "--preset", "qwen2.5-7b", "--draft-preset", "qwen2.5-0.5b"});
    const QJsonObject draft = drafted["model"].toObject()["draft"].toObject();
    QCOMPARE(draft["preset"].toString(), QStringLiteral("qwen2.5-0.5b"));
    QCOMPARE(draft["params_total"].toDouble(), 494032768.0);
    QVERIFY(!plain["model"].toObject().contains("draft"));
    QCOMPARE(drafted["scenario"].toObject()["draft"].toObject()["preset"].toString(), QStringLiteral("qwen2.5-0.5b"));
    const auto weights = [](const QJsonObject &j) { return j["per_gpu_bytes"].toObject()["weights"].toDouble(); };
    QCOMPARE(weights(drafted) - weights(plain), 494032768.0 * 2);
    // --help names the option.
    QVERIFY(run({"estimate", "--help"}).out.find("--draft-preset ID") != std::string::npos);
}

void TestCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named");
    QTest::newRow("no command") << QStringList{} << "missing command";
    QTest::newRow("unknown command") << QStringList{"estimat"} << "unknown command";
    QTest::newRow("no model") << QStringList{"estimate"} << "--preset";
    QTest::newRow("unknown option") << QStringList{"estimate", "--preset", "gpt2", "--batchsize", "4"} << "--batchsize";
    QTest::newRow("batch zero") << QStringList{"estimate", "--preset", "gpt2", "--batch", "0"} << "--batch";
    QTest::newRow("batch not a number") << QStringList{"estimate", "--preset", "gpt2", "--batch", "four"} << "--batch";
    QTest::newRow("absurd sequence") << QStringList{"estimate", "--preset", "gpt2", "--seq", "99999999999"} << "--seq";
    QTest::newRow("unknown preset") << QStringList{"estimate", "--preset", "gpt5"} << "--preset";
    QTest::newRow("two models") << QStringList{"estimate", "--preset", "gpt2", "--params", "7B"} << "--params";
    QTest::newRow("bad params") << QStringList{"estimate", "--params", "lots"} << "--params";
    QTest::newRow("bad weights") << QStringList{"estimate", "--preset", "gpt2", "--weights", "int3"} << "--weights";
    QTest::newRow("kv format") << QStringList{"estimate", "--preset", "gpt2", "--kv-dtype", "nf4"} << "--kv-dtype";
    QTest::newRow("bad zero") << QStringList{"estimate", "--preset", "gpt2", "--zero", "4"} << "--zero";
    QTest::newRow("params over the limit") << QStringList{"estimate", "--params", "101T"} << "100T";
    QTest::newRow("fractional sequence") << QStringList{"estimate", "--preset", "gpt2", "--seq", "2.5"} << "--seq";
    QTest::newRow("unknown command lists all") << QStringList{"estimat"} << "utilization, calibrate, validate";
    QTest::newRow("unknown stack") << QStringList{"estimate", "--preset", "gpt2", "--mode", "qlora", "--stack", "peft"}
                                   << "--stack";
    QTest::newRow("unknown bitsandbytes") << QStringList{"estimate", "--preset", "gpt2", "--bnb", "0.42"} << "--bnb";
    QTest::newRow("dropout past the limit") << QStringList{"estimate", "--preset", "gpt2", "--lora-dropout", "0.97"}
                                            << "--lora-dropout";
    QTest::newRow("unknown serving engine") << QStringList{"estimate", "--preset", "gpt2", "--serving-engine", "tgi"}
                                            << "--serving-engine";
    QTest::newRow("no batched tokens") << QStringList{"estimate", "--preset", "gpt2", "--max-num-batched-tokens", "0"}
                                       << "--max-num-batched-tokens";
    QTest::newRow("NaN reserve") << QStringList{"estimate", "--preset", "gpt2", "--reserve-percent", "nan"} << "--reserve-percent";
    QTest::newRow("unknown gpu") << QStringList{"estimate", "--preset", "gpt2", "--gpu", "rtx-9090"} << "--gpu";
    QTest::newRow("missing value") << QStringList{"estimate", "--preset"} << "--preset";
    QTest::newRow("repeated") << QStringList{"estimate", "--preset", "gpt2", "--seq", "1", "--seq", "2"} << "--seq";
    QTest::newRow("missing config") << QStringList{"estimate", "--config", "/nonexistent/config.json"} << "--config";
    QTest::newRow("bad targets") << QStringList{"estimate", "--preset", "gpt2", "--lora-targets", "q,elbow"} << "--lora-targets";
    QTest::newRow("bad units") << QStringList{"gpus", "--units", "tib"} << "--units";
    QTest::newRow("tp not dividing gpus") << QStringList{"estimate", "--preset", "gpt2", "--gpus", "6", "--tp", "4"} << "gpus";
    QTest::newRow("sp without tp") << QStringList{"estimate", "--preset", "gpt2", "--sp"} << "sp";
    QTest::newRow("bad offload") << QStringList{"estimate", "--preset", "gpt2", "--offload", "nvme"} << "--offload";
    QTest::newRow("bad mfu") << QStringList{"estimate", "--preset", "gpt2", "--mfu", "2"} << "--mfu";
    QTest::newRow("unknown device") << QStringList{"estimate", "--preset", "gpt2", "--devices", "rtx-4090,rtx-9999"}
                                    << "rtx-9999";
    QTest::newRow("empty device id") << QStringList{"estimate", "--preset", "gpt2", "--devices", "rtx-4090,"} << "--devices";
    QTest::newRow("no beams") << QStringList{"estimate", "--preset", "gpt2", "--beams", "0"} << "--beams";
    QTest::newRow("unknown draft") << QStringList{"estimate", "--preset", "gpt2", "--draft-preset", "gpt5-nano"}
                                   << "--draft-preset: 'gpt5-nano'";
    QTest::newRow("kv offload both ways") << QStringList{"estimate", "--preset", "gpt2", "--kv-offload", "--no-kv-offload"}
                                          << "--kv-offload and --no-kv-offload";
    QTest::newRow("negative cpu offload") << QStringList{"estimate", "--preset", "gpt2", "--cpu-offload-gb", "-1"}
                                          << "--cpu-offload-gb";
    QTest::newRow("device_map offload with tp")
        << QStringList{"estimate", "--preset", "llama-3-8b", "--gpu-layers", "8", "--gpus", "2", "--tp", "2"} << "--gpu-layers";
    QTest::newRow("ep on a dense model") << QStringList{"estimate", "--preset", "gpt2", "--gpus", "2", "--ep", "2"} << "ep";
}

void TestCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    std::vector<std::string> list;
    for (const QString &a : args)
        list.push_back(a.toStdString());
    const Run r = run(list);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.empty());
    QVERIFY2(r.err.find(named.toStdString()) != std::string::npos, r.err.c_str());
}

VRAM_TEST_MAIN(tst_cli, TestCli, None)
#include "tst_cli.moc"

namespace {

/// A llama.cpp load log, its lines printed with llama.cpp's format strings
/// ("%s: %12s model buffer size = %8.2f MiB", "%s: n_ctx         = %u", ...).
QByteArray llamaCppLog()
{
    return "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\r\n"
           "load_tensors: offloaded 33/33 layers to GPU\r\n"
           "load_tensors:        CUDA0 model buffer size =  3891.25 MiB\r\n"
           "llama_context: n_seq_max     = 1\r\n"
           "llama_context: n_ctx         = 8192\r\n"
           "llama_context: n_ubatch      = 512\r\n"
           "llama_context: flash_attn    = enabled\r\n"
           "llama_kv_cache:      CUDA0 KV buffer size =  1024.00 MiB\r\n"
           "llama_kv_cache: size = 1024.00 MiB (  8192 cells,  32 layers,  1/1 seqs), K (q8_0):  512.00 MiB, V (q8_0):  512.00 MiB\r\n"
           "sched_reserve:      CUDA0 compute buffer size =   296.01 MiB\r\n";
}

} // namespace

void TestCli::compareLlamaCppLog()
{
    QTemporaryDir dir;
    const QString log = dir.filePath("server.log");
    writeFile(log, llamaCppLog());
    const Run table = run({"compare", "--log", log.toStdString(), "--preset", "llama-3.1-8b", "--weights", "gguf-q4_k_m",
                           "--ubatch", "1024"});
    QCOMPARE(table.code, 0);
    // n_ctx 8192 at line 5 becomes the sequence; the user's --ubatch stays.
    QVERIFY2(table.out.find("sequence                8192        from the log, line 5") != std::string::npos, table.out.c_str());
    QVERIFY2(table.out.find("serving.ubatch          512         yours (the log says so), line 6") != std::string::npos,
             table.out.c_str());
    QVERIFY(table.out.find("kv_dtype                gguf-q8_0") != std::string::npos);
    QVERIFY(table.out.find("workspace + logits") != std::string::npos);

    const QJsonObject j = runJson({"compare", "--log", log.toStdString(), "--preset", "llama-3.1-8b", "--weights", "gguf-q4_k_m"});
    const QJsonArray rows = j.value("rows").toArray();
    QVERIFY(!rows.isEmpty());
    const QJsonObject model = rows.at(0).toObject();
    QCOMPARE(model.value("quantity").toString(), QStringLiteral("llamacpp.model_buffer"));
    // 3891.25 MiB = 3891 x 1,048,576 + 262,144 = 4,080,271,360 B.
    QCOMPARE(model.value("measured_bytes").toDouble(), 4080271360.0);
    QCOMPARE(model.value("term").toString(), QStringLiteral("weights"));
    QCOMPARE(model.value("difference_bytes").toDouble(),
             model.value("planned_bytes").toDouble() - model.value("measured_bytes").toDouble());
    // The estimate of the same scenario plans the same weights.
    const QJsonObject e = runJson({"estimate", "--preset", "llama-3.1-8b", "--weights", "gguf-q4_k_m", "--serving-engine",
                                   "llamacpp", "--seq", "8192", "--kv-dtype", "gguf-q8_0", "--gpu", "rtx-4090"});
    QCOMPARE(model.value("planned_bytes").toDouble(), e.value("per_gpu_bytes").toObject().value("weights").toDouble());
}

void TestCli::compareKeepAndValidateMine()
{
    QTemporaryDir dir;
    const UserDataDir userData(dir.path());
    const QString log = dir.filePath("server.log");
    writeFile(log, llamaCppLog());
    const Run empty = run({"validate", "--mine"});
    QCOMPARE(empty.code, 0);
    QVERIFY(empty.out.find("No kept runs yet") == 0);
    for (int i = 0; i < 2; ++i)
        QCOMPARE(run({"compare", "--log", log.toStdString(), "--preset", "llama-3.1-8b", "--weights", "gguf-q4_k_m", "--keep"}).code, 0);
    QFile archive(dir.filePath("runs.json"));
    QVERIFY(archive.open(QIODevice::ReadOnly));
    const QJsonObject kept = QJsonDocument::fromJson(archive.readAll()).object();
    QCOMPARE(kept.value("kind").toString(), QStringLiteral("vramplanner-runs"));
    QCOMPARE(kept.value("runs").toArray().size(), 2);
    const Run mine = run({"validate", "--mine"});
    QCOMPARE(mine.code, 0);
    QVERIFY2(mine.out.find("2 kept") != std::string::npos, mine.out.c_str());
    QVERIFY(mine.out.find("llamacpp.kv_buffer") != std::string::npos);
    QVERIFY(mine.out.find("median |error|") != std::string::npos);
    // A broken archive is reported and left as it was.
    writeFile(dir.filePath("runs.json"), "{ not json");
    const Run broken = run({"compare", "--log", log.toStdString(), "--preset", "llama-3.1-8b", "--keep"});
    QCOMPARE(broken.code, 1);
    QVERIFY(broken.err.find("left as it is") != std::string::npos);
    QFile again(dir.filePath("runs.json"));
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), QByteArray("{ not json"));
    QCOMPARE(run({"validate", "--mine"}).code, 1);
}

/// validate --configs: a folder of configs, each with how it was read; a
/// guess lists what it assumed; a refused file names its key and exits 1.
void TestCli::validateConfigsListsEachReading()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("known"));
    writeFile(dir.filePath("known/config.json"), R"({"model_type": "llama", "hidden_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 128,
        "vocab_size": 100})");
    writeFile(dir.filePath("brand_new_config.json"), R"({"model_type": "brand_new_llm", "hidden_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100})");
    writeFile(dir.filePath("brand_new_hf_quant_config.json"), "not a model config, not read");
    const Run read = run({"validate", "--configs", dir.path().toStdString()});
    QCOMPARE(read.code, 0);
    // 64 x 100 embedding and head, 2 x (4 x 64 x 64 attention + 3 x 64 x 128 MLP + 2 x 64 norms), 64.
    const std::uint64_t llama = 2 * 64 * 100 + 2 * (4 * 64 * 64 + 3 * 64 * 128 + 2 * 64) + 64;
    QVERIFY2(read.out.find("llama, " + core::groupDigits(llama) + " parameters, family rules") != std::string::npos,
             read.out.c_str());
    QVERIFY2(read.out.find("layers: 2 full attention (4 KV heads of 16)") != std::string::npos, read.out.c_str());
    QVERIFY2(read.out.find("brand_new_llm") != std::string::npos, read.out.c_str());
    QVERIFY(read.out.find("assumed num_key_value_heads = 4") != std::string::npos);
    QVERIFY(read.out.find("2 configs: 1 read by their family's rules, 0 partly guessed, 1 guessed, 0 refused")
            != std::string::npos);
    writeFile(dir.filePath("broken_config.json"), R"({"model_type": "llama", "hidden_size": -1})");
    const Run refused = run({"validate", "--configs", dir.path().toStdString()});
    QCOMPARE(refused.code, 1);
    QVERIFY2(refused.out.find("refused: ") != std::string::npos, refused.out.c_str());
    QVERIFY(refused.out.find("/hidden_size") != std::string::npos);
}

void TestCli::compareRefusesUnreadableLogs()
{
    QTemporaryDir dir;
    const QString foreign = dir.filePath("notes.txt");
    writeFile(foreign, "dear diary\n");
    const Run r = run({"compare", "--log", foreign.toStdString(), "--preset", "llama-2-7b"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.find("notes.txt: no line of a known run log") != std::string::npos, r.err.c_str());
    const QString bad = dir.filePath("bad.log");
    writeFile(bad, "INFO [gpu_worker.py:1] Available KV cache memory: lots GiB\n");
    const Run b = run({"compare", "--log", bad.toStdString(), "--preset", "llama-2-7b"});
    QCOMPARE(b.code, 2);
    QVERIFY2(b.err.find("line 1: expected a size in GiB") != std::string::npos, b.err.c_str());
    QCOMPARE(run({"compare", "--preset", "llama-2-7b"}).code, 2); // no --log
}

void TestCli::calibrateFromLog()
{
    QTemporaryDir dir;
    const QString log = dir.filePath("train.log");
    // torch.cuda.memory_stats() as JSON, then nvidia-smi --query-gpu CSV.
    writeFile(log, "{\"allocated_bytes.all.peak\": 14000000000, \"reserved_bytes.all.peak\": 15000000000}\n"
                   "name, memory.used [MiB], memory.total [MiB]\nNVIDIA A100-SXM4-80GB, 15000 MiB, 81920 MiB\n");
    const Run fit = run({"calibrate", "--log", log.toStdString(), "--preset", "llama-2-7b"});
    QCOMPARE(fit.code, 0);
    // The GPU comes from the log's name; reserve = (15e9 - 14e9) / 14e9 = 7.1 %.
    QVERIFY2(fit.out.find("fitted reserve        7.1 %") != std::string::npos, fit.out.c_str());
    QVERIFY(fit.out.find("A100") != std::string::npos || fit.out.find("a100") != std::string::npos);
    // nvidia-smi 15000 MiB = 15,728,640,000 B; less 15e9 reserved = 728,640,000 B = 694.9 MiB of context.
    QVERIFY2(fit.out.find("fitted cuda_overhead  695 MiB") != std::string::npos, fit.out.c_str());
}
