// The llama.cpp engine against the buffer sizes llama.cpp printed in
// published runs, and against hand sums of its placement and KV rules
// (llama.cpp ec98e2002: llama_model::load_tensors, llama_context,
// llama_kv_cache). Every expected value is the log's figure or a product
// written out here.

#include "core/analysis/fit.h"
#include "core/analysis/performance.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/modelfiles.h"
#include "core/io/scenarioio.h"
#include "core/memory/llamacpp.h"
#include "tests/support/testregistry.h"
#include "tests/support/weightfilewriter.h"

#include <QtTest>

#include <optional>

using testsupport::GgufFile;

namespace {

constexpr std::uint32_t kF32 = 0, kQ4_K = 12, kQ6_K = 14; // ggml_type ids (ggml.h)
constexpr double kMiB = 1024.0 * 1024.0;

std::uint64_t q4k(std::uint64_t ne0, std::uint64_t ne1) { return ne0 * ne1 / 256 * 144; } // 256 per 144-byte block
std::uint64_t q6k(std::uint64_t ne0, std::uint64_t ne1) { return ne0 * ne1 / 256 * 210; } // 256 per 210-byte block

/// llama.cpp's Q4_K_M recipe (src/llama-quant.cpp, use_more_bits): attn_v
/// and ffn_down are Q6_K in the first and last eighth of the layers and in
/// every third layer between them, Q4_K elsewhere; output is Q6_K.
bool moreBits(int layer, int layers)
{
    return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
}

/// Meta-Llama-3-8B as a Q4_K_M GGUF (hidden 4096, 32 layers, 8 KV heads,
/// MLP 14336, vocabulary 128256): the file whose load the log below shows
/// ("type f32: 65 tensors, q4_K: 193, q6_K: 33").
void writeLlama3Q4KM(const std::string &path)
{
    const std::uint64_t h = 4096, kv = 1024, ffn = 14336, vocab = 128256;
    GgufFile file;
    file.text("general.architecture", "llama")
        .u32("llama.block_count", 32)
        .u32("llama.context_length", 8192)
        .u32("llama.embedding_length", h)
        .u32("llama.feed_forward_length", ffn)
        .u32("llama.attention.head_count", 32)
        .u32("llama.attention.head_count_kv", 8)
        .tensor("token_embd.weight", {h, vocab}, kQ4_K, q4k(h, vocab))
        .tensor("output_norm.weight", {h}, kF32, h * 4)
        .tensor("output.weight", {h, vocab}, kQ6_K, q6k(h, vocab));
    for (int l = 0; l < 32; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        const bool more = moreBits(l, 32);
        file.tensor(b + "attn_norm.weight", {h}, kF32, h * 4)
            .tensor(b + "attn_q.weight", {h, h}, kQ4_K, q4k(h, h))
            .tensor(b + "attn_k.weight", {h, kv}, kQ4_K, q4k(h, kv))
            .tensor(b + "attn_v.weight", {h, kv}, more ? kQ6_K : kQ4_K, more ? q6k(h, kv) : q4k(h, kv))
            .tensor(b + "attn_output.weight", {h, h}, kQ4_K, q4k(h, h))
            .tensor(b + "ffn_norm.weight", {h}, kF32, h * 4)
            .tensor(b + "ffn_gate.weight", {h, ffn}, kQ4_K, q4k(h, ffn))
            .tensor(b + "ffn_up.weight", {h, ffn}, kQ4_K, q4k(h, ffn))
            .tensor(b + "ffn_down.weight", {ffn, h}, more ? kQ6_K : kQ4_K, more ? q6k(ffn, h) : q4k(ffn, h));
    }
    file.write(path);
}

/// A Q4_K layer: q, o (4096 x 4096), k, v (4096 x 1024), gate, up, down
/// (4096 x 14336) and two f32 norms; a Q4_K_M "more bits" layer holds v and
/// down in Q6_K instead, `kMoreBits` more. Every tensor is a multiple of
/// 128 bytes and of 512 columns, so CUDA adds nothing.
const std::uint64_t kLayerBytes = 2 * q4k(4096, 4096) + 2 * q4k(4096, 1024) + 3 * q4k(4096, 14336) + 2 * 4096 * 4;
const std::uint64_t kMoreBits = q6k(4096, 1024) - q4k(4096, 1024) + q6k(14336, 4096) - q4k(14336, 4096);

core::Scenario llamaCppScenario(const core::ModelSpec &model, std::uint64_t context, bool flash)
{
    core::Scenario s;
    s.model = model;
    s.mode = core::Mode::Inference;
    s.serving = core::ServingEngine::LlamaCpp;
    s.sequence = context;
    s.attention = flash ? core::Attention::Flash : core::Attention::Eager;
    return s;
}

/// The Llama 3 8B Q4_K_M file read back, under llama.cpp at `context`
/// without flash attention; nullopt when the file did not load.
std::optional<core::Scenario> llama3FromFile(const QTemporaryDir &dir, std::uint64_t context)
{
    const std::string path = dir.filePath("llama3.gguf").toStdString();
    writeLlama3Q4KM(path);
    const auto files = core::io::loadModelFiles(path);
    if (!files.ok())
        return std::nullopt;
    core::Scenario s = llamaCppScenario(files.value->model, context, false);
    s.checkpoint = files.value->checkpoint;
    return s;
}

core::ModelSpec presetModel(const char *id)
{
    const core::io::ModelPreset *preset = core::io::findPreset(id);
    return preset ? preset->model : core::ModelSpec{};
}

double termMib(const core::Estimate &e, core::TermId id) { return static_cast<double>(e.term(id).count()) / kMiB; }

/// The compute buffer: the larger of the layer's and the output layer's
/// peaks, which the estimate keeps as workspace or logits.
double computeMib(const core::Estimate &e)
{
    return termMib(e, core::TermId::Workspace) + termMib(e, core::TermId::Logits);
}

} // namespace

class TestLlamaCpp : public QObject
{
    Q_OBJECT

private slots:
    void llama3Q4KMBuffersAsLogged();
    void contextGrowsTheScoresWithoutFlashAttention();
    void flashAttentionLeavesTheLogitsPeak();
    void partialOffloadKeepsTheFirstLayersOnTheHost();
    void layerSplitPutsTheOutputOnTheLastGpu();
    void expertsOfTheFirstLayersStayOnTheHost();
    void decodeReadsBothMemories();
    void servingLatencyAndCost();
    void appleFitsAgainstItsWorkingSet();
    void cacheTypesAndWindows();
    void latentAndRecurrentCaches();
    void quantisedValuesNeedFlashAttention();
    void scenarioKeepsThePlacement();
};

void TestLlamaCpp::llama3Q4KMBuffersAsLogged()
{
    // A llama-cpp-python load of llama-3-Korean-Bllossom-8B-Q4_K_M.gguf on
    // an RTX 3070 (github.com/developer0hye/llama-3-korean-bllossom-8b-q4-docker
    // README, mid-2024): "CPU buffer size = 281.81 MiB", "CUDA0 buffer
    // size = 4403.49 MiB", n_ctx 512, flash_attn 0, "CUDA0 KV buffer size =
    // 64.00 MiB", "CUDA_Host output buffer size = 0.49 MiB", "CUDA0 compute
    // buffer size = 258.50 MiB", "CUDA_Host compute buffer size = 9.01 MiB".
    QTemporaryDir dir;
    auto loaded = llama3FromFile(dir, 512);
    QVERIFY(loaded);
    core::Scenario s = *loaded;
    const core::Estimate e = core::estimate(s);
    QVERIFY(e.isValid());

    // Hand sum: 32 Q4_K layers, 16 of them (0-3, 28-31 and 6, 9, ..., 27)
    // with Q6_K v and down, the Q6_K output and its f32 norm.
    const std::uint64_t layer = kLayerBytes;
    const std::uint64_t extra = kMoreBits;
    const std::uint64_t gpu = 32 * layer + 16 * extra + q6k(4096, 128256) + 4096 * 4;
    QCOMPARE(e.term(core::TermId::Weights).count(), gpu);
    QCOMPARE(QString::number(static_cast<double>(gpu) / kMiB, 'f', 2), QStringLiteral("4403.49"));
    // KV: 32 layers x 512 cells x (1024 K + 1024 V) x 2 bytes (f16).
    QCOMPARE(e.term(core::TermId::KvCache).count(), 32ull * 512 * 2048 * 2);
    QCOMPARE(termMib(e, core::TermId::KvCache), 64.0);
    // Compute: the logits of 512 tokens (4 x 512 x 128256) and the output
    // matmul's input (4 x 512 x 4096) outweigh the layer's scores.
    QCOMPARE(computeMib(e), 258.5);
    QCOMPARE(e.term(core::TermId::AllocatorReserve).count(), 0ull);
    // Host: token_embd in Q4_K (281.81 MiB mapped), the host compute buffer
    // (inp_embd 4 x 512 x 4096, the f32 mask 4 x 512 x 512: 9.00 MiB, the
    // log 9.01 with its 0.01 MiB of positions and ids) and the output
    // buffer (4 x 128256 B, 0.49 MiB).
    const double host = q4k(4096, 128256) + 4.0 * 512 * (4096 + 512) + 4.0 * 128256;
    QCOMPARE(e.details.hostBytesPerGpu, host);
    QCOMPARE(QString::number(q4k(4096, 128256) / kMiB, 'f', 2), QStringLiteral("281.81"));
    QCOMPARE(e.details.layersOnGpu, 32u);
}

void TestLlamaCpp::contextGrowsTheScoresWithoutFlashAttention()
{
    // Without flash attention the f32 scores (n_ctx x n_ubatch x heads), the
    // mask copy (n_ctx x n_ubatch) and four hidden-wide rows are alive:
    //  Llama 3 8B at n_ctx 8192: 512 + 16 + 32 = 560 MiB; ollama logs
    //  "CUDA0 compute buffer size = 560.00 MiB", "CUDA0 KV buffer size =
    //  1024.00 MiB" (research notes D2: code-index ids 55209596794, 48629668660).
    core::Scenario llama = llamaCppScenario(presetModel("llama-3-8b"), 8192, false);
    llama.weights = core::WeightFormat::GgufQ4KM;
    core::Estimate e = core::estimate(llama);
    QCOMPARE(computeMib(e), 560.0);
    QCOMPARE(termMib(e, core::TermId::KvCache), 1024.0);
    // The host buffer: inp_embd and the mask, 8 + 16 MiB (logged 24.01).
    const double hostCompute = 4.0 * 512 * (4096 + 8192);
    QCOMPARE(hostCompute / kMiB, 24.0);

    //  Mistral 7B Instruct v0.2 at 2048 and 32768 (github.com/fedora-copr/
    //  logdetective pull 106): 164.00 and 2144.00 MiB compute, 4096.00 MiB
    //  KV at 32768 (32 layers x 32768 x 2048 values x 2 bytes).
    core::Scenario mistral = llamaCppScenario(presetModel("mistral-7b"), 2048, false);
    mistral.weights = core::WeightFormat::GgufQ4KM;
    mistral.model.slidingWindow = 0; // v0.2 dropped the window (its config: sliding_window null)
    QCOMPARE(computeMib(core::estimate(mistral)), 128.0 + 4 + 32);
    mistral.sequence = 32768;
    e = core::estimate(mistral);
    QCOMPARE(computeMib(e), 2048.0 + 64 + 32);
    QCOMPARE(termMib(e, core::TermId::KvCache), 4096.0);
}

void TestLlamaCpp::flashAttentionLeavesTheLogitsPeak()
{
    // Qwen3-4B (hidden 2560, 36 layers, 8 KV heads of 128, vocabulary
    // 151936, tied) with flash attention on at n_ctx 4096: "CUDA0 compute
    // buffer size = 301.75 MiB" = 4 x 512 x (151936 + 2560), "KV buffer
    // size = 576.00 MiB" = 36 x 4096 x 1024 x 2 x 2 (research notes D5:
    // code-index id 55797679949).
    core::ModelSpec qwen3 = presetModel("qwen3-8b");
    qwen3.hidden = 2560;
    qwen3.layers = 36;
    qwen3.heads = 32;
    qwen3.kvHeads = 8;
    qwen3.headDim = 128;
    qwen3.intermediate = 9728;
    qwen3.tiedEmbeddings = true;
    core::Scenario s = llamaCppScenario(qwen3, 4096, true);
    s.weights = core::WeightFormat::GgufQ4KM;
    core::Estimate e = core::estimate(s);
    QCOMPARE(computeMib(e), 301.75);
    QCOMPARE(termMib(e, core::TermId::KvCache), 576.0);

    // Mistral Small 3.x 24B (40 layers, hidden 5120, vocabulary 131072) on
    // ROCm at n_ctx 4096, flash attention on: "ROCm0 compute buffer size =
    // 266.00 MiB" = 4 x 512 x (131072 + 5120), KV 640 MiB = 40 x 4096 x
    // 1024 x 4 (research notes D6: code-index id 56815982614).
    s = llamaCppScenario(presetModel("mistral-small-3.1-24b"), 4096, true);
    s.weights = core::WeightFormat::GgufQ4KM;
    e = core::estimate(s);
    QCOMPARE(computeMib(e), 266.0);
    QCOMPARE(termMib(e, core::TermId::KvCache), 640.0);
}

void TestLlamaCpp::partialOffloadKeepsTheFirstLayersOnTheHost()
{
    // -ngl 17: the output layer first, then layers 16-31 (i_gpu_start =
    // 32 + 1 - 17, llama.cpp since PR 18148); token_embd on the host. Of
    // layers 16-31, 18, 21, 24, 27 and 28-31 are the recipe's Q6_K layers;
    // the output layer is Q6_K with its f32 norm.
    QTemporaryDir dir;
    auto loaded = llama3FromFile(dir, 512);
    QVERIFY(loaded);
    core::Scenario s = *loaded;
    s.gpuLayers = 17;
    const core::Estimate e = core::estimate(s);
    const std::uint64_t layer = kLayerBytes;
    const std::uint64_t extra = kMoreBits;
    const double output = q6k(4096, 128256) + 4096 * 4;
    QCOMPARE(static_cast<double>(e.term(core::TermId::Weights).count()), 16.0 * layer + 8.0 * extra + output);
    QCOMPARE(e.term(core::TermId::KvCache).count(), 16ull * 512 * 2048 * 2);
    QVERIFY(e.term(core::TermId::Logits).count() > 0); // the output layer computes on the GPU
    // Host: token_embd, layers 0-15 (0-3, 6, 9, 12, 15 with Q6_K), their
    // KV, and the host compute buffer: the inputs (an f32 hidden row and,
    // without flash attention, an f32 mask row per token) plus a CPU
    // layer's peak, here its gated MLP: the residual and up, gate and their
    // product, f32, per token.
    const double mapped = q4k(4096, 128256) + 16.0 * layer + 8.0 * extra;
    // The default host CPU has AVX2: its backend copies the CPU layers'
    // Q4_K matrices into CPU_REPACK (not the Q6_K ones, nor token_embd).
    const double q4kMatrices = 2.0 * q4k(4096, 4096) + q4k(4096, 1024) + 2.0 * q4k(4096, 14336);
    const double repacked = 8.0 * (q4kMatrices + q4k(4096, 1024) + q4k(14336, 4096)) + 8.0 * q4kMatrices;
    const double kv = 16.0 * 512 * 2048 * 2;
    const double compute = 4.0 * 512 * 4096 + 4.0 * 512 * 512 + 4.0 * 512 * (4096 + 3 * 14336);
    QCOMPARE(e.details.hostBytesPerGpu, mapped + repacked + kv + compute + 4.0 * 128256);
    s.cpuBuild = core::CpuBuild::None;
    QCOMPARE(core::estimate(s).details.hostBytesPerGpu, mapped + kv + compute + 4.0 * 128256);
    // -ngl 1 puts the output layer alone on the GPU; -ngl 0 nothing.
    s.gpuLayers = 1;
    QCOMPARE(static_cast<double>(core::estimate(s).term(core::TermId::Weights).count()), output);
}

void TestLlamaCpp::layerSplitPutsTheOutputOnTheLastGpu()
{
    // 32 layers and the output layer over two equal GPUs: unit u goes to
    // GPU floor(2u / 33), so GPU 0 takes layers 0-16 and GPU 1 layers 17-31
    // and the output.
    core::Scenario s = llamaCppScenario(presetModel("llama-3-8b"), 4096, true);
    s.gpus = 2;
    const core::LlamaCppLayout layout = core::llamaCppLayout(s);
    const core::LlamaCppShare first = core::llamaCppShare(s, layout, 0);
    const core::LlamaCppShare last = core::llamaCppShare(s, layout, 1);
    QCOMPARE(first.firstLayer, 0u);
    QCOMPARE(first.layers, 17u);
    QVERIFY(!first.output);
    QCOMPARE(last.firstLayer, 17u);
    QCOMPARE(last.layers, 15u);
    QVERIFY(last.output);
    // --tensor-split 24,12 (a 24 GB and a 12 GB card): units u with
    // u / 33 < 24 / 36 go to GPU 0, i.e. u <= 21: layers 0-21 there, layers
    // 22-31 and the output on GPU 1.
    s.tensorSplit = {24, 12};
    QCOMPARE(core::llamaCppShare(s, layout, 0).layers, 22u);
    QCOMPARE(core::llamaCppShare(s, layout, 1).firstLayer, 22u);
    QCOMPARE(core::llamaCppShare(s, layout, 1).layers, 10u);
    QVERIFY(core::llamaCppShare(s, layout, 1).output);
    QCOMPARE(core::estimateStages(s).size(), std::size_t(2));
    // --tensor-split 0,1: every unit u has u / 33 >= 0 / 1, so GPU 1 holds
    // all 32 layers and the output, GPU 0 none (upper_bound skips a zero
    // share).
    s.tensorSplit = {0, 1};
    QVERIFY(core::validateScenario(s).empty());
    QCOMPARE(core::llamaCppShare(s, layout, 0).layers, 0u);
    QCOMPARE(core::llamaCppShare(s, layout, 1).layers, 32u);
    QVERIFY(core::llamaCppShare(s, layout, 1).output);
    s.tensorSplit = {0, 0};
    QVERIFY(!core::validateScenario(s).empty());
    s.tensorSplit.clear();
    // -ngl 20 over two GPUs: the output layer and layers 13-31, 20 units,
    // ten each: layers 13-22 on GPU 0, 23-31 and the output on GPU 1.
    s.gpuLayers = 20;
    const core::LlamaCppLayout partial = core::llamaCppLayout(s);
    QCOMPARE(core::llamaCppShare(s, partial, 0).firstLayer, 13u);
    QCOMPARE(core::llamaCppShare(s, partial, 0).layers, 10u);
    QCOMPARE(core::llamaCppShare(s, partial, 1).layers, 9u);
    QVERIFY(core::llamaCppShare(s, partial, 1).output);
}

void TestLlamaCpp::expertsOfTheFirstLayersStayOnTheHost()
{
    // Qwen3-30B-A3B in bf16: each of its 48 layers has 128 experts of
    // gate, up and down, 2048 x 768 each: 128 x 3 x 2048 x 768 parameters,
    // 2 bytes apiece. --n-cpu-moe 10 moves ten layers' worth to the host.
    core::Scenario s = llamaCppScenario(presetModel("qwen3-30b-a3b"), 4096, true);
    s.weights = core::WeightFormat::Bf16;
    const core::Estimate all = core::estimate(s);
    s.cpuMoeLayers = 10;
    const core::Estimate split = core::estimate(s);
    const double moved = 10.0 * 128 * 3 * 2048 * 768 * 2;
    QCOMPARE(static_cast<double>(all.term(core::TermId::Weights).count() - split.term(core::TermId::Weights).count()),
             moved);
    // The host compute buffer now also holds a layer's peak, as the experts
    // run there: the larger of attention (f32 mask 4 x 512 x 4096, its f16
    // copy 2 x 512 x 4096, four rows 4 x 4 x 512 x 2048) and the MoE MLP (the
    // residual 4 x 512 x 2048 and eight experts' max(2 x 768, 768 + 2048)
    // f32 values per token: 4 x 512 x (2048 + 8 x 2816)).
    const double attention = 4.0 * 512 * 4096 + 2.0 * 512 * 4096 + 4.0 * 4 * 512 * 2048;
    const double mlp = 4.0 * 512 * (2048 + 8 * 2816);
    QCOMPARE(split.details.hostBytesPerGpu - all.details.hostBytesPerGpu, moved + std::max(attention, mlp));
    // The KV cache stays on the GPU.
    QCOMPARE(split.term(core::TermId::KvCache), all.term(core::TermId::KvCache));
}

void TestLlamaCpp::decodeReadsBothMemories()
{
    // A decode step reads every weight a token uses and the whole KV cache
    // once (Pope et al. 2022 §3): on the GPU at its bandwidth, in host
    // memory at the host's, one after the other.
    QTemporaryDir dir;
    auto loaded = llama3FromFile(dir, 512);
    QVERIFY(loaded);
    core::Scenario s = *loaded;
    const core::Catalog &catalog = core::io::builtinCatalog();
    const core::GpuSpec *gpu = catalog.find("rtx-3070");
    QVERIFY(gpu && gpu->bandwidthGBps > 0);
    const std::uint64_t layer = kLayerBytes;
    const std::uint64_t extra = kMoreBits;
    const double kvLayer = 512.0 * 2048 * 2;
    // All on the GPU: 32 layers, the output layer and 32 layers' KV.
    const double gpuAll = 32.0 * layer + 16.0 * extra + q6k(4096, 128256) + 4096 * 4 + 32 * kvLayer;
    core::Performance p = core::performance(s, core::estimate(s), *gpu);
    QCOMPARE(p.decodeTokensPerSecond, 1.0 / (gpuAll / (gpu->bandwidthGBps * 1e9)));
    // -ngl 17: the output layer, layers 16-31 and their KV on the GPU;
    // layers 0-15 and their KV read from host memory (token_embd: only a row).
    s.gpuLayers = 17;
    s.hostBandwidthGBps = 50;
    const double gpuPart = 16.0 * layer + 8.0 * extra + q6k(4096, 128256) + 4096 * 4 + 16 * kvLayer;
    const double hostPart = 16.0 * layer + 8.0 * extra + 16 * kvLayer;
    p = core::performance(s, core::estimate(s), *gpu);
    QCOMPARE(p.decodeTokensPerSecond, 1.0 / (gpuPart / (gpu->bandwidthGBps * 1e9) + hostPart / 50e9));

    // Qwen3-30B-A3B in bf16, batch 1: a token reads 8 of 128 experts per
    // layer, so 120/128 of the experts' 48 x 128 x 3 x 2048 x 768 x 2 bytes
    // stay unread; never more than the weights and the KV cache.
    core::Scenario moe = llamaCppScenario(presetModel("qwen3-30b-a3b"), 4096, true);
    moe.weights = core::WeightFormat::Bf16;
    const core::Estimate e = core::estimate(moe);
    const double all = static_cast<double>((e.term(core::TermId::Weights) + e.term(core::TermId::KvCache)).count());
    const double unread = 48.0 * 128 * 3 * 2048 * 768 * 2 * 120 / 128;
    const core::GpuSpec *h100 = catalog.find("h100-sxm5-80gb");
    QVERIFY(h100);
    const double expected = h100->bandwidthGBps * 1e9 / (all - unread);
    QVERIFY(std::abs(core::performance(moe, e, *h100).decodeTokensPerSecond - expected) < 1e-6 * expected);
}

void TestLlamaCpp::servingLatencyAndCost()
{
    // Four sequences of 8192 tokens: the first token waits for 8192 tokens
    // of prefill; each sequence then gets a quarter of the batch's decode
    // rate; $0.40 per GPU-hour buys 3600 x the batch rate tokens an hour.
    core::Scenario s = llamaCppScenario(presetModel("llama-3-8b"), 8192, true);
    s.weights = core::WeightFormat::GgufQ4KM;
    s.batch = 4;
    s.workload.pricePerGpuHour = 0.4;
    const core::GpuSpec *gpu = core::io::builtinCatalog().find("rtx-4090");
    QVERIFY(gpu);
    const core::Performance p = core::performance(s, core::estimate(s), *gpu);
    QVERIFY(p.prefillTokensPerSecond > 0 && p.decodeTokensPerSecond > 0);
    QCOMPARE(p.ttftSeconds, 8192.0 / p.prefillTokensPerSecond);
    QCOMPARE(p.decodeTokensPerSecondPerSequence, p.decodeTokensPerSecond / 4);
    QCOMPARE(p.costPerMillionTokens, 0.4 / (p.decodeTokensPerSecond * 3600) * 1e6);
}

void TestLlamaCpp::appleFitsAgainstItsWorkingSet()
{
    // A 192 GB M2 Ultra lets Metal wire 3/4 of it by default
    // (recommendedMaxWorkingSetSize: 73728 MiB of 96 GiB on an M2 Max in
    // ggml-org/llama.cpp#3213, the same share): fits are judged against
    // 144 GiB, not 192.
    // Llama 3 70B in bf16 (131 GiB of weights) with two 32k-token sequences
    // (80 layers x 2 x 32768 cells x 2048 values x 2 bytes = 20 GiB of KV):
    // within 192 GiB, beyond 144.
    core::Scenario s = llamaCppScenario(presetModel("llama-3-70b"), 32768, true);
    s.weights = core::WeightFormat::Bf16;
    s.batch = 2;
    const core::EstimateWithFits result =
        core::estimateWithFits(s, core::io::builtinCatalog(), {"apple-m2-ultra-192gb"});
    QCOMPARE(result.fits.size(), std::size_t(1));
    QCOMPARE(result.fits[0].capacity.count(), 192ull * 1024 * 1024 * 1024 * 3 / 4);
    QVERIFY(result.estimate.total.count() < 192ull * 1024 * 1024 * 1024);
    QVERIFY(!result.fits[0].fits);
}

void TestLlamaCpp::cacheTypesAndWindows()
{
    // q8_0 K and V: 34 bytes per 32 values (ggml-common.h block_q8_0).
    core::Scenario s = llamaCppScenario(presetModel("llama-3-8b"), 8192, true);
    s.kvDtype = core::WeightFormat::GgufQ8_0;
    QCOMPARE(core::estimate(s).term(core::TermId::KvCache).count(), 32ull * 8192 * 2048 / 32 * 34);
    // Four sequences of 3000 tokens: four streams of 3072 cells (256-padded).
    s.kvDtype.reset();
    s.batch = 4;
    s.sequence = 3000;
    QCOMPARE(core::estimate(s).term(core::TermId::KvCache).count(), 4ull * 32 * 3072 * 2048 * 2);
    // Gemma 3 (window 1024) at -c 16384, n_ubatch 512: the sliding-window
    // layers keep PAD256(1024 + 512) = 1536 cells, as "creating SWA KV
    // cache, size = 1536 cells" in a public log (research notes §3.4).
    core::Scenario gemma = llamaCppScenario(presetModel("gemma-3-12b-it"), 16384, true);
    QCOMPARE(core::llamaCppLayout(gemma).slidingCells, 1536u);
    QCOMPARE(core::llamaCppLayout(gemma).cells, 16384u);
}

void TestLlamaCpp::latentAndRecurrentCaches()
{
    // DeepSeek-V3 at 32768 tokens: K = 512 + 64, V = 512 per token and layer
    // in f16 over 61 layers.
    core::Scenario ds = llamaCppScenario(presetModel("deepseek-v3"), 32768, true);
    ds.weights = core::WeightFormat::GgufQ4KM;
    QCOMPARE(core::estimate(ds).term(core::TermId::KvCache).count(), 61ull * 32768 * (576 + 512) * 2);
    // Qwen3-Next-80B: 12 attention layers (2 KV heads of 256) and 36 Gated
    // DeltaNet layers with f32 state per sequence: (4 - 1) x (2 x 16 x 128 +
    // 32 x 128) convolution values and 32 x 128 x 128 recurrent ones
    // (llama.cpp n_embd_r, n_embd_s: 24576 and 524288).
    core::Scenario next = llamaCppScenario(presetModel("qwen3-next-80b-a3b-instruct"), 4096, true);
    next.weights = core::WeightFormat::GgufQ4KM;
    const std::uint64_t attention = 12ull * 4096 * (2 * 256 + 2 * 256) * 2;
    const std::uint64_t state = 36ull * (24576 + 524288) * 4;
    QCOMPARE(core::estimate(next).term(core::TermId::KvCache).count(), attention + state);
}

void TestLlamaCpp::quantisedValuesNeedFlashAttention()
{
    // llama_context throws "quantized V cache was requested, but this
    // requires Flash Attention"; the planner refuses the same.
    core::Scenario s = llamaCppScenario(presetModel("llama-3-8b"), 4096, false);
    s.kvDtype = core::WeightFormat::GgufQ4_0;
    const std::vector<std::string> errors = core::validateScenario(s);
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY(errors[0].rfind("kv_dtype_v:", 0) == 0); // V follows K unless set
    // Only V needs it (-ctk q8_0 -ctv f16 runs without flash attention);
    // a quantised V alone still does.
    s.kvDtypeV = core::WeightFormat::Fp16;
    QVERIFY(core::validateScenario(s).empty());
    s.kvDtype.reset();
    s.kvDtypeV = core::WeightFormat::GgufQ8_0;
    QCOMPARE(core::validateScenario(s).size(), std::size_t(1));
    s.kvDtype = core::WeightFormat::GgufQ4_0;
    s.kvDtypeV.reset();
    // The GGUF cache types are llama.cpp's only.
    s.serving = core::ServingEngine::Vllm;
    s.attention = core::Attention::Flash;
    QCOMPARE(core::validateScenario(s).size(), std::size_t(1));
}

void TestLlamaCpp::scenarioKeepsThePlacement()
{
    QTemporaryDir dir;
    auto loaded = llama3FromFile(dir, 4096);
    QVERIFY(loaded);
    core::Scenario s = *loaded;
    s.attention = core::Attention::Flash;
    s.gpuLayers = 20;
    s.ubatch = 256;
    s.kvOnHost = true;
    const auto back = core::io::loadScenario(core::io::saveScenario(s));
    QVERIFY2(back.ok(), back.errors.empty() ? "" : back.errors.front().c_str());
    QVERIFY(back.value->checkpoint == s.checkpoint);
    QCOMPARE(back.value->checkpoint->placement->layers.size(), std::size_t(32));
    QCOMPARE(back.value->gpuLayers, s.gpuLayers);
    QCOMPARE(back.value->ubatch, 256u);
    QVERIFY(back.value->kvOnHost);
    QCOMPARE(back.value->serving, core::ServingEngine::LlamaCpp);
}

VRAM_TEST_MAIN(tst_llamacpp, TestLlamaCpp, Core)
#include "tst_llamacpp.moc"
