// The built-in catalog and presets are compiled in as C++ tables written by
// vramplanner-tablegen. Here every entry is compared, member by member, with
// what the JSON loaders read from resources/ now: a member the table writer
// forgets, or a stale generated file, fails this test.

#include "core/io/builtin.h"
#include "core/io/catalogio.h"
#include "core/io/presets.h"

#include <QtTest>

#include <fstream>
#include <sstream>

namespace {

std::string resourceText(const char *name)
{
    std::ifstream in(std::string(VRAM_RESOURCES_DIR) + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Compares one member and names it (and the entry) when it differs.
#define VERIFY_SAME(table, loaded, member)                                                                   \
    QVERIFY2((table).member == (loaded).member, qPrintable(QString::fromStdString(entry) + ": " #member " differs"))

} // namespace

class TestBuiltinTables : public QObject
{
    Q_OBJECT

private slots:
    void catalogTableEqualsLoadedFile();
    void presetTablesEqualLoadedFile();
};

void TestBuiltinTables::catalogTableEqualsLoadedFile()
{
    const auto loaded = core::io::loadCatalog(resourceText("gpus.json"));
    QVERIFY(loaded.ok());
    const std::vector<core::GpuSpec> &table = core::io::builtinCatalog().gpus;
    QCOMPARE(table.size(), loaded.value->gpus.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        const core::GpuSpec &t = table[i];
        const core::GpuSpec &l = loaded.value->gpus[i];
        const std::string entry = "gpus[" + std::to_string(i) + "] " + l.id;
        VERIFY_SAME(t, l, id);
        VERIFY_SAME(t, l, name);
        VERIFY_SAME(t, l, vendor);
        VERIFY_SAME(t, l, architecture);
        VERIFY_SAME(t, l, computeCapability);
        VERIFY_SAME(t, l, launchYear);
        VERIFY_SAME(t, l, memory);
        VERIFY_SAME(t, l, usableMemory);
        VERIFY_SAME(t, l, memoryType);
        VERIFY_SAME(t, l, bandwidthGBps);
        VERIFY_SAME(t, l, peak.fp32);
        VERIFY_SAME(t, l, peak.tf32);
        VERIFY_SAME(t, l, peak.fp16);
        VERIFY_SAME(t, l, peak.bf16);
        VERIFY_SAME(t, l, peak.fp8);
        VERIFY_SAME(t, l, peak.int8);
        VERIFY_SAME(t, l, peak.fp4);
        VERIFY_SAME(t, l, supportsBf16);
        VERIFY_SAME(t, l, supportsFlashAttention2);
        VERIFY_SAME(t, l, supportsFp8);
        VERIFY_SAME(t, l, interconnect);
        VERIFY_SAME(t, l, interconnectGBps);
        VERIFY_SAME(t, l, tdpWatts);
        VERIFY_SAME(t, l, defaultShown);
        VERIFY_SAME(t, l, source);
        VERIFY_SAME(t, l, notes);
    }
}

void TestBuiltinTables::presetTablesEqualLoadedFile()
{
    const auto loaded = core::io::loadPresets(resourceText("models.json"));
    QVERIFY(loaded.ok());
    const std::vector<core::io::ModelPreset> &table = core::io::builtinPresets();
    QCOMPARE(table.size(), loaded.value->size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        const core::io::ModelPreset &t = table[i];
        const core::io::ModelPreset &l = (*loaded.value)[i];
        const std::string entry = "models[" + std::to_string(i) + "] " + l.id;
        VERIFY_SAME(t, l, id);
        VERIFY_SAME(t, l, name);
        VERIFY_SAME(t, l, hfRepo);
        VERIFY_SAME(t, l, source);
        VERIFY_SAME(t, l, paramsPublished);
        VERIFY_SAME(t, l, model.name);
        VERIFY_SAME(t, l, model.family);
        VERIFY_SAME(t, l, model.hidden);
        VERIFY_SAME(t, l, model.layers);
        VERIFY_SAME(t, l, model.heads);
        VERIFY_SAME(t, l, model.kvHeads);
        VERIFY_SAME(t, l, model.headDim);
        VERIFY_SAME(t, l, model.intermediate);
        VERIFY_SAME(t, l, model.vocab);
        VERIFY_SAME(t, l, model.learnedPositions);
        VERIFY_SAME(t, l, model.tokenTypes);
        VERIFY_SAME(t, l, model.maxPositions);
        VERIFY_SAME(t, l, model.gatedMlp);
        VERIFY_SAME(t, l, model.tiedEmbeddings);
        VERIFY_SAME(t, l, model.norm);
        VERIFY_SAME(t, l, model.normsPerLayer);
        VERIFY_SAME(t, l, model.finalNorm);
        VERIFY_SAME(t, l, model.embeddingNorm);
        VERIFY_SAME(t, l, model.qkvBias);
        VERIFY_SAME(t, l, model.attnOutBias);
        VERIFY_SAME(t, l, model.mlpBias);
        VERIFY_SAME(t, l, model.lmHeadBias);
        VERIFY_SAME(t, l, model.qkNorm);
        VERIFY_SAME(t, l, model.attentionSinks);
        VERIFY_SAME(t, l, model.pooler);
        VERIFY_SAME(t, l, model.encoderOnly);
        VERIFY_SAME(t, l, model.parallelBlock);
        VERIFY_SAME(t, l, model.moe.experts);
        VERIFY_SAME(t, l, model.moe.expertsPerToken);
        VERIFY_SAME(t, l, model.moe.sharedExperts);
        VERIFY_SAME(t, l, model.moe.expertIntermediate);
        VERIFY_SAME(t, l, model.moe.firstDenseLayers);
        VERIFY_SAME(t, l, model.moe.routerBias);
        VERIFY_SAME(t, l, model.moe.expertBias);
        VERIFY_SAME(t, l, model.slidingWindow);
        VERIFY_SAME(t, l, model.slidingLayers);
        VERIFY_SAME(t, l, model.attentionDropout);
        VERIFY_SAME(t, l, model.hiddenDropout);
        VERIFY_SAME(t, l, model.softmaxInFp32);
        VERIFY_SAME(t, l, model.activationSavedTensors);
        VERIFY_SAME(t, l, model.torchDtype);
        VERIFY_SAME(t, l, model.expertsMxfp4);
        VERIFY_SAME(t, l, model.declaredParameters);
        VERIFY_SAME(t, l, model.unplacedParameters);
    }
}

QTEST_APPLESS_MAIN(TestBuiltinTables)
#include "tst_builtintables.moc"
