// The llama.cpp engine's host rows against a real llama.cpp on the CPU:
// tests/validation/llamacpp-cpu-results.json, written by
// measure_llamacpp.py (llama.cpp 0.4.0 as node-llama-cpp 3.21.1 bundles
// it). Each case's GGUF file is written again from its recorded tensor
// table (byte sizes as the harness summed them) and metadata, loaded as a
// user's --model file, and planned with the context llama.cpp really made.

#include "core/engine/estimate.h"
#include "core/io/modelfiles.h"
#include "tests/support/testregistry.h"
#include "tests/support/weightfilewriter.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>
#include <fstream>

using nlohmann::json;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// ggml_type ids (ggml/include/ggml.h).
std::uint32_t ggmlType(const std::string &name)
{
    static const std::pair<const char *, std::uint32_t> kTypes[] = {
        {"F32", 0}, {"F16", 1}, {"Q4_0", 2}, {"Q8_0", 8}, {"Q4_K", 12}, {"Q6_K", 14}, {"IQ4_NL", 20}, {"BF16", 30}};
    for (const auto &[n, id] : kTypes)
        if (name == n)
            return id;
    return 0xffffffffu;
}

std::optional<core::WeightFormat> kvFormat(const std::string &name)
{
    if (name == "F16")
        return core::WeightFormat::Fp16;
    if (name == "Q8_0")
        return core::WeightFormat::GgufQ8_0;
    if (name == "Q4_0")
        return core::WeightFormat::GgufQ4_0;
    return std::nullopt;
}

json results()
{
    std::ifstream in(VRAM_VALIDATION_DIR "/llamacpp-cpu-results.json");
    return json::parse(in, nullptr, false);
}

/// The case's file, written from its tensor table and metadata.
void writeCase(const json &c, const std::string &path)
{
    testsupport::GgufFile file;
    for (const auto &[key, value] : c.at("metadata").items()) {
        if (value.is_string())
            file.text(key, value.get<std::string>());
        else if (value.is_number_float())
            file.f32(key, value.get<float>());
        else
            file.u32(key, value.get<std::uint32_t>());
    }
    for (const json &t : c.at("tensors"))
        file.tensor(t.at("name").get<std::string>(), t.at("ne").get<std::vector<std::uint64_t>>(),
                    ggmlType(t.at("type").get<std::string>()), t.at("bytes").get<std::uint64_t>());
    file.write(path);
}

struct Planned
{
    core::LlamaCppHost host;
    std::uint64_t copiedOutput = 0; ///< output.weight's file bytes when the CPU backend copies it
};

core::CpuBuild cpuBuildOf(const json &c)
{
    return c.at("cpu").get<std::string>() == "sapphirerapids" ? core::CpuBuild::Amx : core::CpuBuild::Avx2;
}

std::optional<Planned> plan(const json &c, const QTemporaryDir &dir)
{
    const std::string path = dir.filePath("case.gguf").toStdString();
    writeCase(c, path);
    const auto files = core::io::loadModelFiles(path);
    if (!files.ok())
        return std::nullopt;
    const json &ctx = c.at("context");
    core::Scenario s;
    s.model = files.value->model;
    s.checkpoint = files.value->checkpoint;
    s.mode = core::Mode::Inference;
    s.serving = core::ServingEngine::LlamaCpp;
    s.sequence = ctx.at("n_ctx_seq").get<std::uint64_t>();
    s.batch = ctx.at("n_seq_max").get<std::uint64_t>();
    s.ubatch = ctx.at("n_ubatch").get<std::uint64_t>();
    s.attention = ctx.at("flash_attn").get<std::string>() == "enabled" ? core::Attention::Flash : core::Attention::Eager;
    s.kvDtype = kvFormat(c.at("settings").at("typeK").get<std::string>());
    s.kvDtypeV = kvFormat(c.at("settings").at("typeV").get<std::string>());
    s.gpuLayers = 0;
    s.cpuBuild = cpuBuildOf(c);
    Planned p{core::estimate(s).details.llamaCppHost, 0};
    for (const json &t : c.at("tensors"))
        if (t.at("name") == "output.weight") {
            core::StoredTensor output{"output.weight", t.at("type").get<std::string>(), {}, 0, t.at("bytes").get<std::uint64_t>(), 0};
            const auto ne = t.at("ne").get<std::vector<std::uint64_t>>();
            output.shape.assign(ne.rbegin(), ne.rend());
            if (core::cpuBufferCopy(output, s.cpuBuild) > 0)
                p.copiedOutput = output.bytes;
        }
    return p;
}


double sum(const json &buffers)
{
    double total = 0;
    for (const auto &[name, mib] : buffers.items())
        total += mib.get<double>();
    return total;
}

/// Buffers the log prints with two decimals of MiB: equal but for the
/// rounding of each printed figure.
bool asPrinted(double plannedBytes, const json &printed)
{
    return std::abs(plannedBytes / kMiB - sum(printed)) <= 0.0051 * static_cast<double>(printed.size());
}

} // namespace

class TestLlamaCppCpu : public QObject
{
    Q_OBJECT

private slots:
    void modelOutputAndKvBuffersAsPrinted();
    void computeBufferError();
};

void TestLlamaCppCpu::modelOutputAndKvBuffersAsPrinted()
{
    // Every case, held back or not: these rules were read from the source
    // before the grid ran (model placement, repack and AMX copies, KV
    // cells with K and V in their own types, the output buffer of one f32
    // logits row per sequence).
    const json r = results();
    QVERIFY(r.is_object());
    QTemporaryDir dir;
    int cases = 0;
    for (const json &c : r.at("cases")) {
        const auto p = plan(c, dir);
        QVERIFY(p);
        const json &b = c.at("buffers_mib");
        const std::string name = c.at("model").get<std::string>() + " " + c.at("weights").get<std::string>() + " "
            + c.at("cpu").get<std::string>();
        // The model buffers: the mapped file and the CPU backend's copies.
        // llama.cpp maps the span from the first to the last tensor it
        // reads from the mapping; a copied output.weight at the file's end
        // falls outside it, and the planner counts it mapped (see README).
        QVERIFY2(asPrinted(p->host.weights - static_cast<double>(p->copiedOutput), b.at("model")), name.c_str());
        QVERIFY2(asPrinted(p->host.output, b.at("output")), name.c_str());
        QVERIFY2(asPrinted(p->host.kvCache, b.at("kv")), name.c_str());
        ++cases;
    }
    QCOMPARE(cases, 41);
}

void TestLlamaCppCpu::computeBufferError()
{
    // ggml-alloc replayed over the graph llama.cpp builds
    // (core/memory/llamacppgraph.h) gives the figure the context's
    // destructor prints with four decimals, for every family of the grid
    // (llama, qwen2, qwen3, qwen3moe, gemma3), held-back cases too.
    const json r = results();
    QTemporaryDir dir;
    int cases = 0;
    for (const json &c : r.at("cases")) {
        const auto p = plan(c, dir);
        QVERIFY(p);
        const double measured = sum(c.at("buffers_mib").at("compute_exact"));
        const std::string name = c.at("model").get<std::string>() + " " + c.at("weights").get<std::string>() + " "
            + std::to_string(c.at("context").at("n_seq_max").get<int>()) + " sequences";
        QVERIFY2(std::abs(p->host.compute / kMiB - measured) <= 0.00005, name.c_str());
        ++cases;
    }
    QCOMPARE(cases, 41);
}

VRAM_TEST_MAIN(tst_llamacppcpu, TestLlamaCppCpu, Core)
#include "tst_llamacppcpu.moc"
