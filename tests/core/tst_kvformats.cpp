// The KV cache formats each serving engine takes, and what each costs a
// token: vLLM's per-token-head formats carry an fp32 scale per token and
// head for K and for V (vllm/v1/kv_cache_interface.py
// AttentionSpec.page_size_bytes), NVFP4 packs head/2 value bytes and
// head/16 E4M3 scale bytes (nvfp4_kv_cache_full_dim). Worked by hand for
// Llama 3.1 8B: 32 layers, 8 KV heads of 128.

#include "core/analysis/fit.h"
#include "core/analysis/suggest.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/modelfiles.h"
#include "core/scenario/fields.h"
#include "core/scenario/scenario.h"
#include "tests/support/presetscenario.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

core::Scenario llama31(core::ServingEngine engine)
{
    core::Scenario s = testsupport::presetScenario("llama-3.1-8b");
    s.serving = engine;
    return s;
}

bool refused(const core::Scenario &s, const std::string &start)
{
    for (const std::string &e : core::validateScenario(s))
        if (e.rfind(start, 0) == 0)
            return true;
    return false;
}

} // namespace

class TestKvFormats : public QObject
{
    Q_OBJECT

private slots:
    void bytesPerToken_data();
    void bytesPerToken();
    void eachEngineTakesItsOwn();
    void vllmReleasesTakeTheirOwn();
    void cacheFormatsAreNoWeights();
    void cacheOnlyFormatsComeLast();
    void suggestionsRunOnTheCard();
    void sparseMlaDefaultsToFp8UnderVllm();
};

void TestKvFormats::bytesPerToken_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("bytes");
    // 32 layers x 8 heads x 2 (K, V) x ...
    QTest::newRow("bf16") << "bf16" << 32.0 * 8 * 2 * 128 * 2;                    // 131,072
    QTest::newRow("fp8") << "fp8" << 32.0 * 8 * 2 * 128;                          // 65,536
    QTest::newRow("fp8 per token and head") << "fp8-per-token-head" << 32.0 * 8 * 2 * (128 + 4); // 67,584
    QTest::newRow("int8 per token and head") << "int8-per-token-head" << 32.0 * 8 * 2 * (128 + 4);
    QTest::newRow("nvfp4") << "nvfp4" << 32.0 * 8 * 2 * (64 + 8);                 // 36,864
    QTest::newRow("int4 per token and head") << "int4-per-token-head" << 32.0 * 8 * 2 * (64 + 4); // 34,816
    // TurboQuant: one slot per token and head for K and V (fp8 keys or
    // key bits + a 2-byte norm; value bits + 4 bytes of scale and zero),
    // in 28 layers; the first and last two layers stay bf16 (4 x 8 x 512).
    QTest::newRow("turboquant k8v4") << "turboquant-k8v4" << 28.0 * 8 * (128 + 64 + 4) + 4.0 * 8 * 512;
    QTest::newRow("turboquant 4bit nc") << "turboquant-4bit-nc" << 28.0 * 8 * (64 + 2 + 64 + 4) + 4.0 * 8 * 512;
    QTest::newRow("turboquant k3v4 nc") << "turboquant-k3v4-nc" << 28.0 * 8 * (48 + 2 + 64 + 4) + 4.0 * 8 * 512;
    QTest::newRow("turboquant 3bit nc") << "turboquant-3bit-nc" << 28.0 * 8 * (48 + 2 + 48 + 4) + 4.0 * 8 * 512;
}

void TestKvFormats::bytesPerToken()
{
    QFETCH(QString, format);
    QFETCH(double, bytes);
    core::Scenario s = llama31(core::ServingEngine::Vllm);
    s.kvDtype = core::parseFormat(format.toStdString());
    QVERIFY(s.kvDtype);
    const core::Estimate e = core::estimate(s);
    QVERIFY2(e.isValid(), e.errors.empty() ? "" : core::render(e.errors.front()).c_str());
    QCOMPARE(e.details.kvBytesPerToken, bytes);
}

void TestKvFormats::eachEngineTakesItsOwn()
{
    // vLLM's CacheDType has no plain int4 or int8 and no GGUF block type.
    core::Scenario vllm = llama31(core::ServingEngine::Vllm);
    for (core::WeightFormat f : {core::WeightFormat::Int4, core::WeightFormat::Int8, core::WeightFormat::GgufQ8_0}) {
        vllm.kvDtype = f;
        QVERIFY(refused(vllm, "kv_dtype: vLLM does not take"));
    }
    // llama.cpp's cache types are its GGUF blocks and the float types.
    core::Scenario llama = llama31(core::ServingEngine::LlamaCpp);
    llama.kvDtype = core::WeightFormat::Nvfp4;
    QVERIFY(refused(llama, "kv_dtype: llama.cpp does not take"));
    llama.kvDtype = core::WeightFormat::GgufQ8_0;
    QVERIFY(!refused(llama, "kv_dtype"));
    // SGLang: bf16 and the fp8 spellings; TensorRT-LLM: fp8 and nvfp4.
    core::Scenario sglang = llama31(core::ServingEngine::Sglang);
    sglang.kvDtype = core::WeightFormat::Fp8PerTokenHead;
    QVERIFY(refused(sglang, "kv_dtype: SGLang does not take"));
    core::Scenario trtllm = llama31(core::ServingEngine::Trtllm);
    trtllm.kvDtype = core::WeightFormat::Nvfp4;
    QVERIFY(!refused(trtllm, "kv_dtype"));
}

void TestKvFormats::vllmReleasesTakeTheirOwn()
{
    // vLLM's CacheDType at its release tags: the per-token-head formats and
    // TurboQuant from 0.20.0 (PRs 38378, 38479), nvfp4 usable from 0.21.0
    // (PR 40177), int4_per_token_head from 0.25.0, fp8 long before.
    const auto at = [](const char *vllm) {
        core::Scenario s = llama31(core::ServingEngine::Vllm);
        std::optional<core::Message> error;
        s.versions = *core::parseLibraryVersions(std::string("vllm=") + vllm, error);
        return s;
    };
    core::Scenario s = at("0.19");
    s.kvDtype = core::WeightFormat::Int8PerTokenHead;
    QVERIFY(refused(s, "kv_dtype: vLLM 0.19 does not take int8-per-token-head (it came with vLLM PR 38378, v0.20.0)"));
    s.kvDtype = core::WeightFormat::TurboquantK8V4;
    QVERIFY(refused(s, "kv_dtype: vLLM 0.19 does not take turboquant-k8v4"));
    s.kvDtype = core::WeightFormat::Fp8;
    QVERIFY(!refused(s, "kv_dtype"));
    s = at("0.20");
    s.kvDtype = core::WeightFormat::Int8PerTokenHead;
    QVERIFY(!refused(s, "kv_dtype"));
    s.kvDtype = core::WeightFormat::Nvfp4;
    QVERIFY(refused(s, "kv_dtype: vLLM 0.20 does not take nvfp4"));
    s = at("0.21");
    QVERIFY(!refused(s, "kv_dtype"));
    s.kvDtype = core::WeightFormat::Int4PerTokenHead;
    QVERIFY(refused(s, "kv_dtype: vLLM 0.21 does not take int4-per-token-head"));
    // The current release (no version given) takes them all.
    s.versions = {};
    QVERIFY(!refused(s, "kv_dtype"));
}

void TestKvFormats::cacheFormatsAreNoWeights()
{
    core::Scenario s = llama31(core::ServingEngine::Vllm);
    s.weights = core::WeightFormat::Fp8PerTokenHead;
    QVERIFY(refused(s, "weights: fp8-per-token-head is a KV cache format"));
    std::optional<core::Message> error;
    QVERIFY(!core::parseFieldValue(core::field(core::FieldId::Weights), "int8-per-token-head", error));
    QVERIFY(core::parseFieldValue(core::field(core::FieldId::KvDtype), "int8-per-token-head", error));
    // vLLM's own spellings name the same formats.
    const auto vllmSpelling = core::parseFieldValue(core::field(core::FieldId::KvDtype), "fp8_per_token_head", error);
    QVERIFY(vllmSpelling);
    QCOMPARE(std::get<std::string>(*vllmSpelling), std::string("fp8-per-token-head"));
}

void TestKvFormats::cacheOnlyFormatsComeLast()
{
    // The window's precision slider indexes the format table, leaving the
    // KV-cache-only and checkpoint-only formats out: they must come after
    // every weight choice.
    bool otherSeen = false;
    for (const core::FormatInfo &f : core::allFormats()) {
        const bool choice = !f.cacheOnly && !f.checkpointOnly;
        QVERIFY2(!choice || !otherSeen, f.id);
        otherSeen = otherSeen || !choice;
    }
    QVERIFY(otherSeen);
}

void TestKvFormats::suggestionsRunOnTheCard()
{
    // Llama 3.1 8B under vLLM, two sequences of 128k tokens: 32 GiB of bf16
    // KV cache and 15 GiB of weights do not fit an A100 40GB. Half the KV
    // bytes would; the format that does it must run on an A100: not fp8
    // (Ada and later), not NVFP4 (SM100 only).
    core::Scenario s = llama31(core::ServingEngine::Vllm);
    s.sequence = 131072;
    s.batch = 2;
    const auto suggested = [&s](const char *gpuId) {
        const core::GpuSpec &gpu = *core::io::builtinCatalog().find(gpuId);
        core::Catalog one;
        one.gpus.push_back(gpu);
        const core::EstimateWithFits fits = core::estimateWithFits(s, one, {gpu.id});
        core::FitSearch search(s);
        std::vector<std::string> formats;
        for (const core::FitSuggestion &f : search.suggestionsFor(fits.fits.front()))
            for (const core::FieldChange &c : f.changes)
                if (c.field == core::FieldId::KvDtype)
                    formats.push_back(std::get<std::string>(c.value));
        return formats;
    };
    const std::vector<std::string> onA100 = suggested("a100-sxm4-40gb");
    QVERIFY(!onA100.empty());
    for (const std::string &f : onA100)
        QVERIFY2(f != "nvfp4" && f != "fp8" && f != "fp8-per-token-head", qPrintable(QString::fromStdString(f)));
    QVERIFY(!core::capabilityWarnings([&s] { auto v = s; v.kvDtype = core::WeightFormat::Nvfp4; return v; }(),
                                      *core::io::builtinCatalog().find("b200-180gb"))
                 .size());
}

void TestKvFormats::sparseMlaDefaultsToFp8UnderVllm()
{
    // DeepSeek-V3.2 under vLLM: its latent is fp8_ds_mla unless bf16 is
    // asked for, 512 fp8 values + 4 fp32 scales + 64 bf16 RoPE values =
    // 656 B a token and layer, with the indexer's 128 fp8 keys and an fp32
    // scale (132 B): 61 layers x 788 = 48,068 B. In bf16 the latent is
    // (512 + 64) x 2 = 1,152 B: 61 x 1,284 = 78,324 B. SGLang keeps bf16.
    const auto config = core::io::loadModelFiles(VRAM_TEST_DATA_DIR "/configs/2026/deepseek-ai--DeepSeek-V3.2_config.json");
    QVERIFY(config.ok());
    core::Scenario s;
    s.model = config.value->model;
    s.serving = core::ServingEngine::Vllm;
    QCOMPARE(core::estimate(s).details.kvBytesPerToken, 61.0 * (656 + 132));
    s.kvDtype = core::WeightFormat::Fp8;
    QCOMPARE(core::estimate(s).details.kvBytesPerToken, 61.0 * (656 + 132));
    s.kvDtype = core::WeightFormat::Bf16;
    QCOMPARE(core::estimate(s).details.kvBytesPerToken, 61.0 * (1152 + 132));
    // The per-token-head and TurboQuant formats need K and V heads.
    s.kvDtype = core::WeightFormat::Turboquant4BitNc;
    QVERIFY(refused(s, "kv_dtype: turboquant-4bit-nc needs K and V heads"));
}

VRAM_TEST_MAIN(tst_kvformats, TestKvFormats, Core)
#include "tst_kvformats.moc"
