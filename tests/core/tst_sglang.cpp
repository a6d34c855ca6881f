// SGLang's token pool: its default mem_fraction_static worked by hand from
// server_args.py, and the pool rule fed each real start-up log's own
// figures (tests/data/logs/sglang-*.log, sources in SOURCES.md), which must
// land within 2 % of the #tokens the log printed.

#include "core/analysis/fit.h"
#include "core/analysis/performance.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/modelfiles.h"
#include "core/memory/cachingallocator.h"
#include "core/memory/loadedweights.h"
#include "core/memory/sglangpool.h"
#include "core/runs/runlog.h"
#include "tests/support/datalog.h"
#include "tests/support/presetscenario.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <cmath>

using core::runlog::Quantity;

namespace {

/// A text model with MLA.
core::SglangModel mlaModel()
{
    core::SglangModel model;
    model.mla = true;
    return model;
}

/// A text model decoded with `draft`.
core::SglangModel drafting(core::SpeculativeDraft draft)
{
    core::SglangModel model;
    model.draft = draft;
    return model;
}

/// A card of `mib` MiB from `vendor`, as the catalog describes one.
core::GpuSpec card(double mib, const char *vendor = "NVIDIA")
{
    core::GpuSpec gpu;
    gpu.vendor = vendor;
    gpu.memory = core::Bytes::fromDouble(mib * 1024.0 * 1024.0);
    return gpu;
}

/// The smallest reading over the ranks, as SGLang all-reduces with MIN.
double smallest(const core::runlog::RunLog &log, Quantity q)
{
    double least = -1;
    for (const auto *r : log.find(q))
        if (least < 0 || static_cast<double>(r->bytes.count()) < least)
            least = static_cast<double>(r->bytes.count());
    return least;
}

/// The planner's KV bytes per token and rank for a preset at `tp`.
double cellOf(const char *preset, int tp)
{
    core::Scenario s;
    s.model = core::io::findPreset(preset)->model;
    s.serving = core::ServingEngine::Sglang;
    s.gpus = tp;
    s.parallel.tp = tp;
    return core::estimate(s).details.kvBytesPerToken;
}

/// SGLang serving the corpus config `file` (tests/data/configs/2026).
core::Scenario sglangOn(const char *file)
{
    const auto config = core::io::loadModelFiles(std::string(VRAM_TEST_DATA_DIR "/configs/2026/") + file);
    if (!config.ok())
        qFatal("%s does not load", file);
    core::Scenario s;
    s.model = config.value->model;
    s.checkpoint = config.value->checkpoint;
    s.serving = core::ServingEngine::Sglang;
    return s;
}

} // namespace

class TestSglang : public QObject
{
    Q_OBJECT

private slots:
    void readerTakesEveryFigure();
    void defaultFractionFollowsTheCard();
    void defaultFractionFollowsTheRelease();
    void visionTowerScalesTheFraction();
    void logsOwnFiguresGiveItsPool_data();
    void logsOwnFiguresGiveItsPool();
    void issue21348FromTheCard();
    void weightsAsSglangMeasuresThem();
    void eachRankHoldsItsPartsAtTheirWidths();
    void segmentsFollowTheCachingAllocator();
    void rotaryCacheFollowsTheRotatedPart();
    void communicatorsFromNcclSource();
    void cardsOnOtherLinksGetTheirOwnEstimate();
    void distributedStartHoldsTheBuffers();
    void planSizesThePoolFromTheCard();
    void runningRequestsFollowThePool();
};

void TestSglang::readerTakesEveryFigure()
{
    // The figures each log prints, copied from its text by hand (GB: GiB).
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    const auto bytes = [](const core::runlog::RunLog &l, Quantity q, const std::string &rank) {
        for (const auto *r : l.find(q))
            if (r->device == rank)
                return static_cast<double>(r->bytes.count());
        return -1.0;
    };
    const core::runlog::RunLog qwq = testsupport::readDataLog("sglang-2025-03-qwq32b-4xl4-tp4-llms-in-clouds.log");
    QVERIFY(qwq.settings.memFractionStatic && qwq.settings.tensorParallel);
    QCOMPARE(qwq.settings.memFractionStatic->value, 0.85);
    QCOMPARE(qwq.settings.tensorParallel->value, 4ull);
    QCOMPARE(qwq.settings.memFractionStatic->line, std::size_t(1));
    for (const char *rank : {"TP0", "TP1", "TP2", "TP3"}) {
        QCOMPARE(bytes(qwq, Quantity::SglangFreeBeforeLoad, rank), std::round(21.63 * kGiB));
        QCOMPARE(bytes(qwq, Quantity::SglangFreeAfterLoad, rank), std::round(6.09 * kGiB));
        QCOMPARE(bytes(qwq, Quantity::SglangWeightLoad, rank), std::round(15.54 * kGiB));
        QCOMPARE(bytes(qwq, Quantity::SglangKvCache, rank), 2 * std::round(1.42 * kGiB));
        QCOMPARE(bytes(qwq, Quantity::SglangFreeAfterPool, rank), std::round(2.09 * kGiB));
    }
    QCOMPARE(qwq.find(Quantity::SglangDistInit).size(), std::size_t(4));
    QCOMPARE(bytes(qwq, Quantity::SglangDistInit, "TP2"), std::round(0.13 * kGiB));
    QCOMPARE(qwq.find(Quantity::SglangKvTokens).size(), std::size_t(4));
    QCOMPARE(qwq.find(Quantity::SglangKvTokens).front()->number, 46611.0);

    // Grok-2's log, among progress bars, warnings and Gloo's lines: only
    // TP0 prints its distributed start and free memory.
    const core::runlog::RunLog grok = testsupport::readDataLog("sglang-2025-09-grok2-fp8-8xh100-tp8-blog.log");
    QVERIFY(grok.settings.memFractionStatic && grok.settings.tensorParallel);
    QCOMPARE(grok.settings.memFractionStatic->value, 0.831);
    QCOMPARE(grok.settings.tensorParallel->value, 8ull);
    QCOMPARE(grok.find(Quantity::SglangDistInit).size(), std::size_t(1));
    QCOMPARE(bytes(grok, Quantity::SglangDistInit, "TP0"), std::round(1.25 * kGiB));
    QCOMPARE(bytes(grok, Quantity::SglangFreeBeforeLoad, "TP0"), std::round(77.43 * kGiB));
    QCOMPARE(bytes(grok, Quantity::SglangFreeAfterLoad, "TP0"), std::round(40.69 * kGiB));
    QCOMPARE(bytes(grok, Quantity::SglangWeightLoad, "TP0"), std::round(36.73 * kGiB));
    QCOMPARE(grok.find(Quantity::SglangKvTokens).size(), std::size_t(8));
    QCOMPARE(grok.find(Quantity::SglangKvTokens).back()->number, 903439.0);
    QCOMPARE(bytes(grok, Quantity::SglangKvCache, "TP7"), 2 * std::round(13.79 * kGiB));
    QCOMPARE(bytes(grok, Quantity::SglangFreeAfterPool, "TP0"), std::round(11.22 * kGiB));

    const core::runlog::RunLog kimi = testsupport::readDataLog("sglang-2026-02-kimi-k25-8xmi355x-tp8-memory.log");
    QCOMPARE(kimi.find(Quantity::SglangFreeAfterLoad).size(), std::size_t(8));
    QCOMPARE(bytes(kimi, Quantity::SglangFreeAfterLoad, "TP1"), std::round(210.38 * kGiB));
    QCOMPARE(bytes(kimi, Quantity::SglangFreeAfterLoad, "TP3"), std::round(209.96 * kGiB));
    QCOMPARE(bytes(kimi, Quantity::SglangWeightLoad, "TP0"), std::round(73.58 * kGiB));
    QCOMPARE(bytes(kimi, Quantity::SglangKvCache, "TP7"), std::round(160.63 * kGiB)); // MLA: one KV size
    QCOMPARE(bytes(kimi, Quantity::SglangFreeAfterPool, "TP1"), std::round(45.65 * kGiB));
    QCOMPARE(kimi.find(Quantity::SglangKvTokens).back()->number, 2454421.0);

    const core::runlog::RunLog llama = testsupport::readDataLog("sglang-2025-03-llama31-8b-tp1-pr4760.log");
    QCOMPARE(bytes(llama, Quantity::SglangFreeAfterLoad, "TP0"), std::round(63.48 * kGiB));
    QCOMPARE(bytes(llama, Quantity::SglangWeightLoad, "TP0"), std::round(15.11 * kGiB));
    QCOMPARE(bytes(llama, Quantity::SglangKvCache, "TP0"), 2 * std::round(27.02 * kGiB));
    QCOMPARE(llama.find(Quantity::SglangKvTokens).front()->number, 442750.0);
    QVERIFY(!llama.settings.memFractionStatic);
}

void TestSglang::defaultFractionFollowsTheCard()
{
    // An H100 SXM (nvidia-smi 81,559 MiB) at TP 1: chunked prefill 8,192,
    // decode graphs up to 256: 512 + 8,192 x 1.5 + 256 x 2 + 1 x 1 / 8 x
    // 1,024 = 13,440 MiB, over the 10 GiB floor; prefill graphs at the 58
    // captured sizes up to 8,192 add 464 MiB. (81,559 - 13,904) / 81,559 =
    // 0.8295 -> 0.830; an MLA model runs no prefill graphs: 0.835.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, {}), 0.830);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, mlaModel()), 0.835);
    // An L4 (23,034 MiB) at TP 4: chunked prefill 2,048, graphs up to 80:
    // 512 + 3,072 + 160 + 512 = 4,256 MiB, prefill graphs at 42 sizes up to
    // 2,048: + 336 = 4,592; (23,034 - 4,592) / 23,034 = 0.8006 -> 0.801.
    QCOMPARE(core::sglangDefaultMemFraction(23034, 4, 1, {}), 0.801);
    // The same four L4s as TP 2 x PP 2: graphs up to 24 (TP under 4), 512 +
    // 3,072 + 48 + 512 = 4,144 MiB. Breakable graphs have no rule against a
    // pipeline (_disable_breakable_cudagraph_if_incompatible, 0.5.15): +
    // 336 = 4,480, (23,034 - 4,480) / 23,034 = 0.8055 -> 0.806. The
    // piecewise graphs of 0.5.10 to 0.5.14 were off with a pipeline
    // (_handle_piecewise_cuda_graph): (23,034 - 4,144) / 23,034 = 0.8201
    // -> 0.820.
    std::optional<core::Message> error;
    const core::LibraryVersions piecewise = *core::parseLibraryVersions("sglang=0.5.14", error);
    QCOMPARE(core::sglangDefaultMemFraction(23034, 2, 2, {}), 0.806);
    QCOMPARE(core::sglangDefaultMemFraction(23034, 2, 2, {}, piecewise), 0.820);
    // A GGUF file: breakable graphs keep their reserve, the piecewise ones
    // were off (0.801 and (23,034 - 4,256) / 23,034 = 0.8152 -> 0.815).
    core::SglangModel gguf;
    gguf.gguf = true;
    QCOMPARE(core::sglangDefaultMemFraction(23034, 4, 1, gguf), 0.801);
    QCOMPARE(core::sglangDefaultMemFraction(23034, 4, 1, gguf, piecewise), 0.815);
    // Qwen3-Next: off among the piecewise graphs' architectures, not the
    // breakable ones'; DeepSeek-V4 off in both. On the H100: 0.830 or 0.835.
    core::SglangModel next;
    next.family = "qwen3_next";
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, next), 0.830);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, next, piecewise), 0.835);
    core::SglangModel v4;
    v4.family = "deepseek_v4";
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, v4), 0.835);
    // An AMD card captures no prefill graphs in any release (tc_piecewise's
    // "non-CUDA hardware" rule): an MI300X's 196,592 MiB at TP 8, chunked
    // prefill 16,384 and graphs up to 512 reserve 512 + 24,576 + 1,024 +
    // 1,024 = 27,136 MiB, (196,592 - 27,136) / 196,592 = 0.8620 -> 0.862;
    // the same on a CUDA card of that size adds 74 sizes up to 16,384 x 8
    // MiB: 27,728, 0.8590 -> 0.859.
    core::SglangModel rocm;
    rocm.cudaGpu = false;
    QCOMPARE(core::sglangDefaultMemFraction(196592, 8, 1, rocm), 0.862);
    QCOMPARE(core::sglangDefaultMemFraction(196592, 8, 1, {}), 0.859);
    core::Scenario mi300x = testsupport::presetScenario("llama-3.1-8b");
    mi300x.serving = core::ServingEngine::Sglang;
    mi300x.gpus = 8;
    mi300x.parallel.tp = 8;
    QCOMPARE(core::sglangMemFraction(mi300x, card(196592, "AMD")), 0.862);
}

void TestSglang::defaultFractionFollowsTheRelease()
{
    const auto at = [](const char *sglang) {
        std::optional<core::Message> error;
        return *core::parseLibraryVersions(std::string("sglang=") + sglang, error);
    };
    const core::SglangModel text{};
    const core::SglangModel mla = mlaModel();
    // v0.4.6: by TP size up to 80 GiB (an H100's 81,559 MiB: 0.88 alone,
    // 0.85 at TP 4); an H200's 143,771 MiB less 13 GiB, unrounded.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, text, at("0.4.6")), 0.88);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 4, 1, text, at("0.4.6")), 0.85);
    QCOMPARE(core::sglangDefaultMemFraction(143771, 1, 1, text, at("0.4.6")), (143771.0 - 13312.0) / 143771.0);
    // 0.4.7.post1 to 0.5.2, by the memory class: the H100 (under 90 GiB)
    // reserves 9.5 + 1 / 2 = 10 GiB: (81,559 - 10,240) / 81,559 = 0.8744 ->
    // 0.874; an L4 at TP 4 (under 35 GiB) 2.8 + 4 / 10 = 3.2 GiB:
    // (23,034 - 3,276.8) / 23,034 = 0.8577 -> 0.858.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, text, at("0.5.0")), 0.874);
    QCOMPARE(core::sglangDefaultMemFraction(23034, 4, 1, text, at("0.5.0")), 0.858);
    // What SGLang v0.5.2rc2 chose on 8 x H100 80GB HBM3 (Grok-2's log,
    // server_args): 9.5 + 8 / 2 = 13.5 GiB, (81,559 - 13,824) / 81,559 =
    // 0.8305 -> 0.831.
    const core::runlog::RunLog grok = testsupport::readDataLog("sglang-2025-09-grok2-fp8-8xh100-tp8-blog.log");
    QCOMPARE(core::sglangDefaultMemFraction(81559, 8, 1, text, at("0.5.2")), grok.settings.memFractionStatic->value);
    // 0.5.3 to 0.5.9: the parts without the prefill graphs: 13,440 MiB,
    // 0.835 for a text model as for MLA.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, text, at("0.5.5")), 0.835);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, mla, at("0.5.5")), 0.835);
    // 0.5.10 to 0.5.14: prefill graphs by default; MLA reserves 1.5 GiB for
    // them: 13,440 + 1,536 = 14,976, (81,559 - 14,976) / 81,559 = 0.8164.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, text, at("0.5.12")), 0.830);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, mla, at("0.5.12")), 0.816);
    // 0.5.15: MLA runs no prefill graphs.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, mla, at("0.5.15")), 0.835);

    // Speculative decoding on the same H100. 0.4.7.post1 to 0.5.1: 2 GiB
    // more for any draft: 10,240 + 2,048 = 12,288, 0.8493 -> 0.849; 0.5.2, a
    // standalone draft 6 GiB: 16,384, 0.7991 -> 0.799; 0.5.3 to 0.5.9, an
    // EAGLE draft (MTP) 2 GiB after the 10 GiB floor (which no card's
    // defaults reach: over 60 GiB they reserve 13,312 MiB or more): 13,440 +
    // 2,048 = 15,488, 0.8101 -> 0.810; 0.5.10 to 0.5.13 4 GiB, beside the prefill
    // graphs' 464: 13,904 + 4,096 = 18,000, 0.7793 -> 0.779, and a
    // standalone draft 13,904 + 6,144 = 20,048, 0.7542 -> 0.754; from 0.5.14
    // the pool sizes the draft's cache: nothing reserved, 0.830.
    const core::SglangModel standalone = drafting(core::SpeculativeDraft::Model);
    const core::SglangModel eagle = drafting(core::SpeculativeDraft::Mtp);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, standalone, at("0.5.1")), 0.849);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, eagle, at("0.5.1")), 0.849);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, standalone, at("0.5.2")), 0.799);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, eagle, at("0.5.9")), 0.810);
    // 0.5.10 turned the prefill graphs off under speculative decoding (PR
    // 22128 allowed them in 0.5.11): 13,440 + 4,096 = 17,536, 0.7850 -> 0.785.
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, eagle, at("0.5.10")), 0.785);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, eagle, at("0.5.13")), 0.779);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, standalone, at("0.5.13")), 0.754);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, standalone, at("0.5.14")), 0.830);
    QCOMPARE(core::sglangDefaultMemFraction(81559, 1, 1, eagle, at("0.5.15")), 0.830);
    // A scenario's drafter: a draft preset is STANDALONE, the MTP layers
    // (--load-mtp) EAGLE. DeepSeek-V3 is MLA: at 0.5.13 on the same card
    // 13,440 + 1,536 (its prefill graphs) + 4,096 = 19,072, (81,559 -
    // 19,072) / 81,559 = 0.7662 -> 0.766.
    core::Scenario mtp = testsupport::presetScenario("deepseek-v3");
    mtp.serving = core::ServingEngine::Sglang;
    mtp.versions = at("0.5.13");
    QCOMPARE(mtp.speculativeDraft(), core::SpeculativeDraft::None);
    mtp.model.loadMtp = true;
    QCOMPARE(mtp.speculativeDraft(), core::SpeculativeDraft::Mtp);
    QCOMPARE(core::sglangMemFraction(mtp, card(81559)), 0.766);
}

void TestSglang::visionTowerScalesTheFraction()
{
    // adjust_mem_fraction_for_vlm on an H100 (81,559 MiB) at 0.5.15: a
    // multimodal model runs no prefill graphs, 13,440 MiB reserved, 0.835;
    // Gemma 3's SigLIP (27 layers of 1,152): 27 x 1,152^2 / (24 x 1,024^2)
    // = 1.4238, x 0.95 x (1 - 0.1 x 0.4238) = 0.90974 -> 0.75963.
    // Qwen2.5-VL writes `depth`, not num_hidden_layers: SGLang reads 24,
    // with hidden 1,280: 1.5625 -> 0.95 x 0.94375 = 0.89656 -> 0.74863.
    core::Scenario gemma = testsupport::presetScenario("gemma-3-27b-it");
    gemma.serving = core::ServingEngine::Sglang;
    QVERIFY(std::abs(core::sglangMemFraction(gemma, card(81559)) - 0.835 * 0.95 * (1 - 0.1 * (27.0 * 1152 * 1152 / (24.0 * 1024 * 1024) - 1))) < 1e-12);
    QVERIFY(std::abs(core::sglangMemFraction(gemma, card(81559)) - 0.75963) < 1e-5);
    core::Scenario qwen = testsupport::presetScenario("qwen2.5-vl-7b-instruct");
    qwen.serving = core::ServingEngine::Sglang;
    QVERIFY(std::abs(core::sglangMemFraction(qwen, card(81559)) - 0.835 * 0.95 * 0.94375) < 1e-12);
    // Before 0.4.9.post3 every multimodal fraction was x 0.9, one the user
    // set included (model_runner.py): the memory-class table's 0.874 ->
    // 0.7866, a set 0.8 -> 0.72. From then on a set fraction stays.
    std::optional<core::Message> error;
    gemma.versions = *core::parseLibraryVersions("sglang=0.4.8", error);
    QVERIFY(std::abs(core::sglangMemFraction(gemma, card(81559)) - 0.874 * 0.9) < 1e-12);
    gemma.memFractionStatic = 0.8;
    QVERIFY(std::abs(core::sglangMemFraction(gemma, card(81559)) - 0.72) < 1e-12);
    gemma.versions = {};
    QCOMPARE(core::sglangMemFraction(gemma, card(81559)), 0.8);
}

void TestSglang::logsOwnFiguresGiveItsPool_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("tp");
    QTest::addColumn<double>("fraction");
    // The KV bytes a token and rank, where no preset describes the model
    // (0: the preset's, cellOf).
    QTest::addColumn<double>("cell");
    // sglang PR 4760 (March 2025): Llama 3.1 8B on one GPU; its fraction is
    // not printed: SGLang 0.4's default for one card of 80 GiB or less, 0.88
    // (server_args.py at v0.4.6).
    QTest::newRow("Llama 3.1 8B, TP 1") << "sglang-2025-03-llama31-8b-tp1-pr4760.log"
                                        << "llama-3.1-8b" << 1 << 0.88 << 0.0;
    // llms-in-clouds: QwQ-32B (Qwen2.5-32B's shape) on 4 x L4, TP 4; the
    // server_args line prints mem_fraction_static=0.85 (read from the log).
    QTest::newRow("QwQ-32B, 4 x L4, TP 4") << "sglang-2025-03-qwq32b-4xl4-tp4-llms-in-clouds.log"
                                           << "qwen2.5-32b" << 4 << -1.0 << 0.0;
    // Kimi K2.5 on 8 x MI355X, TP 8, MLA; its server_args line (same paste,
    // outside the kept block) prints mem_fraction_static=0.8260405859375.
    QTest::newRow("Kimi K2.5, 8 x MI355X, TP 8, MLA") << "sglang-2026-02-kimi-k25-8xmi355x-tp8-memory.log"
                                                      << "kimi-k2.5" << 8 << 0.8260405859375 << 0.0;
    // mystous/vllm_hybrid's SGLang run of August 2026: Qwen3-30B-A3B-FP8 on
    // one H100 80GB HBM3; its server_args line (outside the kept block)
    // prints mem_fraction_static=0.83. FP8 weights, a bf16 cache.
    QTest::newRow("Qwen3-30B-A3B-FP8, H100, TP 1") << "sglang-2026-08-qwen3-30b-a3b-fp8-h100-tp1-vllm-hybrid.log"
                                                   << "qwen3-30b-a3b" << 1 << 0.83 << 0.0;
    // Shivank Chaudhary's Grok-2 deployment (September 2025): xai-org/grok-2
    // in fp8 on 8 x H100 80GB HBM3, TP 8, SGLang v0.5.2rc2; its server_args
    // line prints mem_fraction_static=0.831. No preset is Grok's: its cell
    // by hand, 64 layers x 1 of 8 KV heads x 128 x 2 x 2 B (bf16, the
    // cache's dtype under kv_cache_dtype='auto'); the heads and head_dim
    // are those of SGLang's Grok configs, the layers what the log's K size
    // gives (13.79 GiB / 903,439 / 256 B = 64.0).
    QTest::newRow("Grok-2 FP8, 8 x H100, TP 8") << "sglang-2025-09-grok2-fp8-8xh100-tp8-blog.log" << "" << 8 << -1.0
                                                << 64.0 * 1 * 128 * 2 * 2;
}

void TestSglang::logsOwnFiguresGiveItsPool()
{
    QFETCH(QString, log);
    QFETCH(QString, preset);
    QFETCH(int, tp);
    QFETCH(double, fraction);
    QFETCH(double, cell);
    const core::runlog::RunLog l = testsupport::readDataLog(log.toUtf8().constData());
    if (fraction < 0) {
        QVERIFY(l.settings.memFractionStatic);
        fraction = l.settings.memFractionStatic->value;
    }
    // Free before the weights: "Load weight begin" where printed, else what
    // was free after them plus what they took ("mem usage").
    double before = smallest(l, Quantity::SglangFreeBeforeLoad);
    const double after = smallest(l, Quantity::SglangFreeAfterLoad);
    if (before < 0)
        before = after + smallest(l, Quantity::SglangWeightLoad);
    if (cell == 0)
        cell = cellOf(preset.toUtf8().constData(), tp);
    const auto tokens = static_cast<double>(core::sglangPoolTokens(core::sglangPoolBytes(before, after, fraction), cell));
    const auto printed = l.find(Quantity::SglangKvTokens);
    QVERIFY(!printed.empty());
    const double logged = printed.front()->number;
    QVERIFY2(std::abs(tokens - logged) <= 0.02 * logged,
             qPrintable(QStringLiteral("%1 tokens against %2 printed").arg(tokens).arg(logged)));
    // The cell itself: the pool SGLang printed (K + V, or MLA's KV) over
    // its #tokens is the planner's KV bytes per token within the print's
    // rounding (%.2f GB).
    const double pool = static_cast<double>(l.find(Quantity::SglangKvCache).front()->bytes.count());
    QVERIFY2(std::abs(pool / logged - cell) <= 0.005 * cell,
             qPrintable(QStringLiteral("%1 B a token printed, %2 planned").arg(pool / logged).arg(cell)));
}

void TestSglang::issue21348FromTheCard()
{
    // vLLM issue 21348: SGLang with Qwen3-235B-A22B-FP8 on 4 x H100 at TP 4,
    // --mem-fraction-static 0.93, printed only its pool. Its cell is the
    // planner's: 94 layers x 1 KV head a rank x 128 x 2 x 2 B = 48,128 B,
    // and (8.23 + 8.23) GiB / 367,404 tokens = 48,107 B within the print's
    // rounding. The log prints no free memory: planned from the catalog's
    // H100 SXM, what SGLang measures before the weights is the card less
    // the CUDA context (512 MiB) and its TP communicator and custom
    // all-reduce (communicatorsFromNcclSource: 24 x 2 x 12 + 32 x 16 x 0.5
    // + 26 = 858 MiB); the pool is 3.4 % larger than printed (README:
    // SGLang's start-up allocates more than NCCL's buffers).
    const core::runlog::RunLog l = testsupport::readDataLog("sglang-2025-07-qwen3-235b-a22b-fp8-4xh100-tp4-vllm21348.log");
    const double printed = l.find(Quantity::SglangKvTokens).front()->number;
    QCOMPARE(printed, 367404.0);
    core::Scenario s = sglangOn("Qwen--Qwen3-235B-A22B-FP8_config.json");
    s.gpus = 4;
    s.parallel.tp = 4;
    s.memFractionStatic = 0.93;
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    s = core::onServingCard(s, gpu);
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.details.kvBytesPerToken, 48128.0);
    const double pool = static_cast<double>(l.find(Quantity::SglangKvCache).front()->bytes.count());
    QVERIFY(std::abs(pool / printed - 48128.0) <= 0.005 * 48128.0);
    const double mib = 1024.0 * 1024.0;
    const double freeBefore = static_cast<double>(gpu.capacity().count()) - (512 + 24 * 2 * 12 + 32 * 16 * 0.5 + 26) * mib;
    // What SGLang counts as its weights on a rank beyond the tensors, by
    // hand: its fp32 rotary cache of 40,960 x 128 x 4 B = 20 MiB and the
    // caching allocator's tails. Each layer's qkv_proj (2,304 x 4,096 B
    // = 9 MiB) takes a new 20 MiB segment whose rest (11 MiB) takes o_proj
    // (8 MiB): 3 MiB a layer. embed_tokens and lm_head (37,984 x 4,096 x
    // 2 B = 296.75 MiB each) round up to 298 MiB. The 94 routers (1 MiB)
    // pair up in 2 MiB small segments beside the norms: at most 4 MiB
    // more. The tensors by hand: of the published 235,093,634,560
    // parameters the checkpoint keeps in bf16 (modules_to_not_convert) the
    // embedding and lm_head, 2 x 151,936 x 4096, split over the 4 ranks,
    // and the routers and norms, 94 x (128 x 4096 + 2 x 4096 + 2 x 128) +
    // 4096, whole on each; the rest in fp8, a quarter each (its 128 x 128
    // block scales, about 3.6 MiB a rank, left out as in the planner).
    const double tables = 2.0 * 151936 * 4096;
    const double whole = 94.0 * (128 * 4096 + 2 * 4096 + 2 * 128) + 4096;
    const double tensors = (235093634560.0 - tables - whole) / 4 + tables / 4 * 2 + whole * 2;
    const double weights = static_cast<double>(e.term(core::TermId::Weights).count());
    const double tails = 94 * 3 * mib + 2 * 1.25 * mib;
    const double rotary = 40960.0 * 128 * 4;
    const double extras = weights - tensors;
    QVERIFY2(extras >= tails + rotary && extras <= tails + rotary + 4 * mib,
             qPrintable(QStringLiteral("%1 MiB beyond the tensors").arg(extras / mib)));
    const double byHand = std::floor((0.93 * freeBefore - weights) / 48128.0);
    const auto planned = static_cast<double>(core::kvTokenBudget(s, e, gpu));
    QVERIFY2(std::abs(planned - byHand) <= 1, qPrintable(QStringLiteral("%1 against %2").arg(planned).arg(byHand)));
    QVERIFY2(std::abs(planned - printed) <= 0.035 * printed,
             qPrintable(QStringLiteral("%1 tokens planned against %2 printed").arg(planned).arg(printed)));
}

void TestSglang::weightsAsSglangMeasuresThem()
{
    // mystous/vllm_hybrid's SGLang run (August 2026) printed what
    // Qwen3-30B-A3B-FP8 took on one H100: "Load weight end. ... mem
    // usage=29.15 GB" (GiB, to 0.005). SGLang measures it with the free
    // memory after empty_cache: the tensors, the fp32 rotary cache and the
    // caching allocator's tails (each layer's o_proj, 8 MiB, opens a 20 MiB
    // segment whose rest takes the next layer's qkv_proj, 10 MiB: 2 MiB a
    // layer). Without those the plan was 126 MiB short.
    const core::runlog::RunLog l = testsupport::readDataLog("sglang-2026-08-qwen3-30b-a3b-fp8-h100-tp1-vllm-hybrid.log");
    const double measured = smallest(l, Quantity::SglangWeightLoad);
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    QCOMPARE(measured, std::round(29.15 * kGiB));
    const core::Scenario s = sglangOn("Qwen--Qwen3-30B-A3B-FP8_config.json");
    const double planned = static_cast<double>(core::estimate(s).term(core::TermId::Weights).count());
    QVERIFY2(std::abs(planned - measured) <= 0.005 * kGiB,
             qPrintable(QStringLiteral("%1 GiB planned against 29.15 printed").arg(planned / kGiB, 0, 'f', 4)));
}

void TestSglang::eachRankHoldsItsPartsAtTheirWidths()
{
    // Kimi K2.5 at TP 8 (its log: "Load weight end ... mem usage=73.58 GB"
    // on 8 x MI355X). Its routed experts ship in int4 with a bf16 scale per
    // 32 (4.5 bits); attention, the shared experts, the dense layer, the
    // tables, norms and routers in bf16 (the ignore list). Each rank holds
    // an eighth of the experts, of the layers' split weights and of the
    // vocabulary, and all of the replicated ones: MLA's q_a_proj and
    // kv_a_proj_with_mqa, 61 x 7168 x (1536 + 576); the 60 routers and
    // their biases, 60 x 384 x (7168 + 1); the norms, 61 x (2 x 7168 + 1536
    // + 512) + 7168. The layers' split weights are the rest of the count.
    const core::Scenario base = sglangOn("moonshotai--Kimi-K2.5_config.json");
    core::Scenario s = base;
    s.gpus = 8;
    s.parallel.tp = 8;
    const double experts = 1014686023680.0;
    const double tables = 2.0 * 163840 * 7168;
    const double replicated = 61.0 * 7168 * (1536 + 576) + 60.0 * 384 * (7168 + 1) + 61.0 * (2 * 7168 + 1536 + 512) + 7168;
    const double total = static_cast<double>(core::countParameters(s.model).total);
    QCOMPARE(total, 1026879376368.0);
    const double split = total - experts - tables - replicated;
    const double tensors = experts / 8 * 4.5 / 8 + (split + tables) / 8 * 2 + replicated * 2;
    // Beside them SGLang's fp32 rotary cache (262,144 x 64 x 4 B) and the
    // caching allocator's segment tails, which stay under 256 MiB here.
    const double rotary = 262144.0 * 64 * 4;
    const double weights = static_cast<double>(core::estimate(s).term(core::TermId::Weights).count());
    const double mib = 1024.0 * 1024.0;
    QVERIFY2(weights - tensors - rotary >= 0 && weights - tensors - rotary <= 256 * mib,
             qPrintable(QStringLiteral("%1 MiB beyond the tensors").arg((weights - tensors - rotary) / mib)));
}

void TestSglang::rotaryCacheFollowsTheRotatedPart()
{
    // SGLang's cos/sin cache holds max_position_embeddings x the rotated
    // dimensions in fp32, one per rotary shape: Qwen3-Next rotates a
    // quarter of its 256-wide heads (partial_rotary_factor 0.25),
    // MiniMax-M2.5 64 of 128 (rotary_dim), GLM-4.5 half of 128.
    const std::pair<const char *, double> expected[] = {
        {"Qwen--Qwen3-Next-80B-A3B-Instruct_config.json", 262144.0 * 64 * 4},
        {"MiniMaxAI--MiniMax-M2.5_config.json", 196608.0 * 64 * 4},
        {"zai-org--GLM-4.5_config.json", 131072.0 * 64 * 4},
        // A second cache where the sliding layers' RoPE is their own:
        // Gemma 4 31B rotates a quarter of its 512-wide global heads and the
        // whole of its 256-wide sliding ones; Laguna XS.2 half of 128, and
        // the whole 128 in its sliding layers.
        {"google--gemma-4-31B-it_config.json", 131072.0 * (128 + 256) * 4},
        {"poolside--Laguna-XS.2-FP8_config.json", 262144.0 * (64 + 128) * 4},
    };
    for (const auto &[file, bytes] : expected)
        QCOMPARE(core::rotaryCache(sglangOn(file).model, 4.0, "").value, bytes);
}

void TestSglang::segmentsFollowTheCachingAllocator()
{
    // c10's rules worked by hand (CUDACachingAllocator.cpp).
    const std::uint64_t mib = 1024 * 1024;
    // 1 to 10 MiB: a 20 MiB segment, split while over 1 MiB remains.
    QCOMPARE(core::cachingAllocatorReserved({9 * mib, 8 * mib}), 20 * mib);
    QCOMPARE(core::cachingAllocatorReserved({9 * mib, 8 * mib, 9 * mib, 8 * mib}), 40 * mib);
    // 10 MiB and over: rounded up to 2 MiB, alone.
    QCOMPARE(core::cachingAllocatorReserved({10 * mib}), 10 * mib);
    QCOMPARE(core::cachingAllocatorReserved({11 * mib, 1}), 12 * mib + 2 * mib);
    // 8 MiB then 10 MiB: the 12 MiB rest takes the 10 MiB, and what is left
    // (2 MiB) is free for a later request of up to 2 MiB.
    QCOMPARE(core::cachingAllocatorReserved({8 * mib, 10 * mib, 2 * mib}), 20 * mib);
    // A rest of exactly 1 MiB is not split off: 19 MiB leaves 1 MiB that
    // nothing else gets.
    QCOMPARE(core::cachingAllocatorReserved({19 * mib, mib + 512}), 40 * mib);
    // Up to 1 MiB: 2 MiB segments, split down to 512 B.
    QCOMPARE(core::cachingAllocatorReserved({mib, mib}), 2 * mib);
    QCOMPARE(core::cachingAllocatorReserved({mib, 1, mib}), 4 * mib);
    QCOMPARE(core::cachingAllocatorReserved(std::vector<std::uint64_t>(4096, 512)), 2 * mib);
    QCOMPARE(core::cachingAllocatorReserved(std::vector<std::uint64_t>(4097, 1)), 4 * mib);
}

void TestSglang::communicatorsFromNcclSource()
{
    // NCCL's buffers for one connection, from its constants (v2.26.2
    // device.h, init.cc computeBuffSizes): LL 8 lines x 512 threads x 8
    // steps x 16 B, LL128 120 x 640 x 8 x 8 B, Simple 4 MiB. The receiver
    // holds all three beside its 4 KiB ncclRecvMem, the sender its 4 KiB
    // ncclSendMem, each rounded up to 2 MiB (transport/p2p.cc CUDA_IPC_MIN).
    constexpr double kMiB = 1024.0 * 1024.0;
    const auto to2Mib = [](double b) { return std::ceil(b / (2 * kMiB)) * 2 * kMiB; };
    const double receive = to2Mib(4096 + 8.0 * 512 * 8 * 16 + 120.0 * 640 * 8 * 8 + 4 * kMiB);
    const double send = to2Mib(4096);
    QCOMPARE(receive, 10 * kMiB);
    QCOMPARE(send, 2 * kMiB);
    // SGLang's custom all-reduce: cudaMalloc'd signal + buffer (8 MiB +
    // 3,456 B, whole 2 MiB pages) and buffer (8 MiB), rank data 8 MiB.
    const double customAllReduce = to2Mib(8 * kMiB + 3456) + 8 * kMiB + 8 * kMiB;
    const core::Catalog &catalog = core::io::builtinCatalog();
    const auto comm = [&](const char *gpu, int tp, int pp, core::ServingEngine engine) {
        core::Scenario s;
        s.model = core::io::findPreset("llama-3.1-8b")->model;
        s.serving = engine;
        s.parallel.tp = tp;
        s.parallel.pp = pp;
        s.gpus = tp * pp;
        s = core::onServingCard(s, *catalog.find(gpu));
        return static_cast<double>(core::estimate(s).term(core::TermId::CommBuffers).count());
    };
    // H100 SXM, TP 4: 24 channels; a middle rank of the ring and of the
    // tree's chain connects twice each way on each; the shared p2p buffers
    // are 32 p2p channels x 16 steps x 512 KiB (all-NVLink chunk).
    const double nvlinkShared = 32 * 16 * 0.5 * kMiB;
    QCOMPARE(comm("h100-sxm5-80gb", 4, 1, core::ServingEngine::Sglang),
             24 * 2 * (send + receive) + nvlinkShared + customAllReduce);
    // Two ranks: one connection each way.
    QCOMPARE(comm("h100-sxm5-80gb", 2, 1, core::ServingEngine::Sglang),
             24 * 1 * (send + receive) + nvlinkShared + customAllReduce);
    // TP 2 x PP 2: a communicator of two ranks for each.
    QCOMPARE(comm("h100-sxm5-80gb", 2, 2, core::ServingEngine::Sglang),
             2 * (24 * (send + receive) + nvlinkShared) + customAllReduce);
    // PCIe: 4 channels and 4 p2p channels of 128 KiB chunks; the custom
    // all-reduce needs NVLink beyond two GPUs.
    const double pcieShared = 4 * 16 * 0.125 * kMiB;
    QCOMPARE(comm("l4", 4, 1, core::ServingEngine::Sglang), 4 * 2 * (send + receive) + pcieShared);
    QCOMPARE(comm("l40s", 2, 1, core::ServingEngine::Sglang), 4 * 1 * (send + receive) + pcieShared + customAllReduce);
    // One GPU: no communicator.
    QCOMPARE(comm("h100-sxm5-80gb", 1, 1, core::ServingEngine::Sglang), 0.0);
    // Another vendor's card keeps NCCL_BUFFSIZE's rule: 4 MiB x 2 x 32 x 2.
    QCOMPARE(comm("mi300x", 4, 1, core::ServingEngine::Sglang), 512 * kMiB);
    const auto commOn = [&](const char *gpu, int tp, int gpus) {
        core::Scenario s;
        s.model = core::io::findPreset("llama-3.1-8b")->model;
        s.serving = core::ServingEngine::Sglang;
        s.parallel.tp = tp;
        s.gpus = gpus;
        s = core::onServingCard(s, *catalog.find(gpu));
        return static_cast<double>(core::estimate(s).term(core::TermId::CommBuffers).count());
    };
    // Four GPUs splitting the layers (no tp or pp): a pipeline of four.
    QCOMPARE(commOn("h100-sxm5-80gb", 1, 4), 24 * 2 * (send + receive) + nvlinkShared);
    // TP 2 on eight GPUs: four replicas, each with its TP communicator only.
    QCOMPARE(commOn("h100-sxm5-80gb", 2, 8), 24 * (send + receive) + nvlinkShared + customAllReduce);
    // vLLM keeps NCCL_BUFFSIZE's rule: 4 MiB x 2 directions x 32 channels x
    // 2 protocols (and on an H100 its all-reduce fusion workspace,
    // tst_deployment vllmFusionWorkspaceFollowsTheCard).
    QCOMPARE(comm("a100-sxm4-80gb", 4, 1, core::ServingEngine::Vllm), 512 * kMiB);
}

void TestSglang::cardsOnOtherLinksGetTheirOwnEstimate()
{
    // SGLang at TP 2: the H100 SXM's communicators are NVLink's, the L40S's
    // PCIe's, each in its own estimate and fit.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.serving = core::ServingEngine::Sglang;
    s.parallel.tp = 2;
    s.gpus = 2;
    const core::Catalog &catalog = core::io::builtinCatalog();
    const core::GpuSpec &h100 = *catalog.find("h100-sxm5-80gb");
    const core::GpuSpec &l40s = *catalog.find("l40s");
    const core::EstimateWithFits fits = core::estimateWithFits(s, catalog, {"h100-sxm5-80gb", "l40s"});
    const core::Bytes nvlink = fits.estimateOn(h100).term(core::TermId::CommBuffers);
    const core::Bytes pcie = fits.estimateOn(l40s).term(core::TermId::CommBuffers);
    QCOMPARE(nvlink, core::estimate(core::onServingCard(s, h100)).term(core::TermId::CommBuffers));
    QCOMPARE(pcie, core::estimate(core::onServingCard(s, l40s)).term(core::TermId::CommBuffers));
    // By hand (communicatorsFromNcclSource): (24 x 12 + 256 + 26) MiB over
    // NVLink, (4 x 12 + 8 + 26) MiB over PCIe.
    QCOMPARE(nvlink, core::Bytes::mib(24 * 12 + 256 + 26));
    QCOMPARE(pcie, core::Bytes::mib(4 * 12 + 8 + 26));
    QCOMPARE(fits.otherCards.size(), std::size_t(1));
    QCOMPARE(fits.fits.size(), std::size_t(2));
    for (const core::GpuFit &fit : fits.fits) {
        const core::GpuSpec &gpu = *catalog.find(fit.gpuId);
        QCOMPARE(fit.kvTokens, core::kvTokenBudget(fits.scenarioOn(gpu), fits.estimateOn(gpu), gpu));
    }
    // On one GPU nothing connects: the L40S shares the H100's estimate,
    // while its search for more GPUs ran on PCIe's communicators.
    s.parallel.tp = 1;
    s.gpus = 1;
    const core::EstimateWithFits one = core::estimateWithFits(s, catalog, {"h100-sxm5-80gb", "l40s"});
    QVERIFY(one.otherCards.empty());
    QCOMPARE(&one.estimateOn(l40s), &one.estimate);
}

void TestSglang::distributedStartHoldsTheBuffers()
{
    // What SGLang's distributed start took, as its logs print it on every
    // rank ("Init torch distributed ends. [elapsed=..., ]mem usage=X GB"),
    // holds the communicator's buffers and more (README): four sm_120 PCIe
    // cards with NCCL 2.29.7 printed 0.39 GiB, against 4 channels x 2
    // connections x 12 MiB + 4 x 16 x 128 KiB = 104 MiB planned for four
    // PCIe GPUs at TP 4 (no custom all-reduce beyond two). The four L4s'
    // 0.13 GiB (readerTakesEveryFigure) is not compared: their buffers were
    // in host memory (NCCL's SHM transport, every rank the same).
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    core::Scenario s;
    s.model = core::io::findPreset("qwen2.5-32b")->model;
    s.serving = core::ServingEngine::Sglang;
    s.parallel.tp = 4;
    s.gpus = 4;
    s.servingCard.link = core::GpuLink::Pcie;
    const auto planned = static_cast<double>(core::estimate(s).term(core::TermId::CommBuffers).count());
    QCOMPARE(planned, 104.0 * 1024 * 1024);
    const core::runlog::RunLog l = testsupport::readDataLog("sglang-2026-09-glm-4xrtxpro6000-tp4-dist-init-issue40558.log");
    const auto readings = l.find(Quantity::SglangDistInit);
    QCOMPARE(readings.size(), std::size_t(4));
    for (const auto *r : readings) {
        QCOMPARE(static_cast<double>(r->bytes.count()), std::round(0.39 * kGiB));
        QVERIFY(planned <= static_cast<double>(r->bytes.count()));
    }
    // Over NVLink: Grok-2's 8 x H100 80GB HBM3 at TP 8 (SGLang v0.5.2rc2,
    // NCCL 2.27.3) printed 1.25 GiB on TP0, against 24 x 2 x 12 + 32 x 16 x
    // 0.5 + 26 = 858 MiB planned (communicatorsFromNcclSource). What was
    // in use before it, the card's 79.19 GiB less the 77.43 free before the
    // weights and the 1.25, is the planned CUDA context (512 MiB) within
    // the rounding of the two prints and of the catalog's 79.19 (0.005 GiB
    // each).
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.parallel.tp = 8;
    s.gpus = 8;
    const core::GpuSpec &h100 = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    s = core::onServingCard(s, h100);
    const core::Estimate e = core::estimate(s);
    constexpr double kMiB = 1024.0 * 1024.0;
    QCOMPARE(static_cast<double>(e.term(core::TermId::CommBuffers).count()), 858 * kMiB);
    const core::runlog::RunLog grok = testsupport::readDataLog("sglang-2025-09-grok2-fp8-8xh100-tp8-blog.log");
    const double printed = static_cast<double>(grok.find(Quantity::SglangDistInit).front()->bytes.count());
    QVERIFY(858 * kMiB <= printed);
    const double context = static_cast<double>(h100.capacity().count())
        - static_cast<double>(grok.find(Quantity::SglangFreeBeforeLoad).front()->bytes.count()) - printed;
    QVERIFY2(std::abs(context - static_cast<double>(e.term(core::TermId::CudaOverhead).count())) <= 0.015 * kGiB,
             qPrintable(QStringLiteral("%1 MiB before the distributed start").arg(context / kMiB)));
}

void TestSglang::planSizesThePoolFromTheCard()
{
    // Before the hardware exists: the card's memory less the CUDA context
    // (512 MiB) is what SGLang would find free, times its default fraction,
    // less the weights as it measures them, over 131,072 B a token (Llama 3.1 8B: 32 layers x 8
    // KV heads x 128 x 2 x 2 B).
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.serving = core::ServingEngine::Sglang;
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.details.kvBytesPerToken, 131072.0);
    const double capacity = static_cast<double>(gpu.capacity().count());
    // SGLang's rule reads nvidia-smi's memory.total, the catalog's 81,559
    // MiB for this card: reserved 13,904 MiB as above, (81,559 - 13,904) /
    // 81,559 = 0.8295 -> 0.830 (the August 2026 log's printed 0.83). What
    // SGLang finds free is of the CUDA-visible 79.19 GiB = 81,090.6 MiB.
    QCOMPARE(gpu.reportedTotal(), core::Bytes::mib(81559));
    QCOMPARE(std::round(capacity / (1024.0 * 1024.0) * 10) / 10, 81090.6);
    const double fraction = 0.830;
    QCOMPARE(e.term(core::TermId::CudaOverhead).count() + e.term(core::TermId::CommBuffers).count(),
             512ull * 1024 * 1024);
    // SGLang measures its weights by the free memory: the tensors, its
    // fp32 rotary cache (131,072 positions x 128 x 4 B = 64 MiB) and what
    // the caching allocator's segments hold beyond them. Every matrix is a
    // whole number of 2 MiB (embed_tokens and lm_head 1,002 MiB, qkv 48,
    // o 32, gate_up 224, down 112), so only the 65 RMSNorm weights of
    // 8 KiB leave a tail, in their one 2 MiB small segment.
    const double rotary = 131072.0 * 128 * 4;
    const double smallSegmentTail = 2.0 * 1024 * 1024 - 65 * 8192;
    const double weights = 8'030'261'248.0 * 2 + rotary + smallSegmentTail;
    QCOMPARE(static_cast<double>(e.term(core::TermId::Weights).count()), weights);
    const auto expected =
        static_cast<std::uint64_t>(((capacity - 512.0 * 1024 * 1024) * fraction - weights) / 131072.0);
    QCOMPARE(core::kvTokenBudget(s, e, gpu), expected);
    // An explicit --mem-fraction-static wins.
    s.memFractionStatic = 0.5;
    QCOMPARE(core::kvTokenBudget(s, e, gpu),
             static_cast<std::uint64_t>(((capacity - 512.0 * 1024 * 1024) * 0.5 - weights) / 131072.0));
}

void TestSglang::runningRequestsFollowThePool()
{
    // Unset --max-running-requests: int(tokens / context_len x 512), within
    // 2,048..4,096, and at most half the pool's tokens.
    QCOMPARE(core::sglangMaxRunningRequests(411'864, 131'072), 2048ull); // 1,608 -> 2,048
    QCOMPARE(core::sglangMaxRunningRequests(10'000'000, 8'192), 4096ull); // 625,000 -> 4,096
    QCOMPARE(core::sglangMaxRunningRequests(3'000, 131'072), 1500ull);    // half of 3,000
    // Grok-2's log: "max_total_num_tokens=903439, ..., max_running_requests=3529,
    // context_len=131072": 903,439 / 131,072 x 512 = 3,529.06.
    QCOMPARE(core::sglangMaxRunningRequests(903'439, 131'072), 3529ull);
    // The sequences a replica decodes together: what the pool holds at the
    // scenario's context, up to those requests. Llama 3.1 8B (context
    // 131,072) on an H100: its pool of about 412k tokens holds more than
    // 2,048 requests of 128 tokens, so the cap, 2,048 (412k / 131,072 x 512
    // is under 2,048); at 8,192 tokens a request the pool is the limit.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3.1-8b")->model;
    s.serving = core::ServingEngine::Sglang;
    s.sequence = 128;
    const core::GpuSpec &gpu = *core::io::builtinCatalog().find("h100-sxm5-80gb");
    const core::Estimate e = core::estimate(s);
    const std::uint64_t pool = core::kvTokenBudget(s, e, gpu);
    QVERIFY(pool / 128 > 2048);
    QCOMPARE(core::performance(s, e, gpu).servingRows, 2048ull);
    s.sequence = 8192;
    const core::Estimate longer = core::estimate(s);
    QCOMPARE(core::performance(s, longer, gpu).servingRows, core::kvTokenBudget(s, longer, gpu) / 8192);
}

VRAM_TEST_MAIN(tst_sglang, TestSglang, Core)
#include "tst_sglang.moc"
