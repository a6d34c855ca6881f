// Every verdict short of "fits" says why and what would make it fit: for a
// dozen scenarios across modes, engines, formats and layouts, and every GPU
// of the catalog, the reason's terms add up to its total, and every change
// suggested, applied as the window applies it, makes that GPU fit at the
// total it promised.

#include "core/analysis/fit.h"
#include "core/analysis/suggest.h"
#include "core/io/builtin.h"
#include "core/scenario/fields.h"
#include "tests/support/testregistry.h"

#include <QtTest>

#include <algorithm>

namespace {

/// A preset with inputs set as the CLI's options set them (field keys).
core::Scenario scenarioOf(const std::string &preset, const std::vector<std::pair<std::string, std::string>> &inputs)
{
    core::Scenario s;
    const auto *found = core::io::findPreset(preset);
    if (!found)
        qFatal("no preset %s", preset.c_str());
    s.model = found->model;
    for (const auto &[key, text] : inputs) {
        const core::FieldDescriptor *f = core::findFieldByKey(key);
        if (!f)
            qFatal("no field %s", key.c_str());
        std::optional<core::Message> error;
        const auto value = core::parseFieldValue(*f, text, error);
        if (!value)
            qFatal("%s %s: %s", key.c_str(), text.c_str(), (error ? core::render(*error) : std::string()).c_str());
        f->assign(s, *value);
    }
    return s;
}

} // namespace

class TestSuggest : public QObject
{
    Q_OBJECT

private slots:
    void everyVerdictExplained_data();
    void everyVerdictExplained();
};

void TestSuggest::everyVerdictExplained_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("inputs"); // field key, value, key, value ...
    QTest::addColumn<bool>("allOffered");
    QTest::addColumn<bool>("wantsPairs"); // some GPU is offered pairs only
    const auto row = [](const char *name, const char *preset, const QStringList &inputs, bool allOffered = true,
                        bool wantsPairs = false) {
        QTest::newRow(name) << QString(preset) << inputs << allOffered << wantsPairs;
    };
    row("8B generate 64 x 8k", "llama-3-8b", {"batch", "64", "sequence", "8k"}, true, true);
    row("8B vLLM 32k", "llama-3-8b", {"serving.engine", "vllm", "sequence", "32k"});
    row("8B llama.cpp q4_k_m", "llama-3-8b", {"serving.engine", "llamacpp", "weights", "gguf-q4_k_m", "sequence", "16k"});
    row("70B generate bf16", "llama-2-70b", {});
    row("70B vLLM fp8 on 2", "llama-2-70b", {"serving.engine", "vllm", "weights", "fp8", "gpus", "2"});
    row("7B full training", "llama-2-7b", {"mode", "train", "batch", "4"});
    row("7B full training ZeRO-3 on 4", "llama-2-7b", {"mode", "train", "gpus", "4", "zero", "3"});
    row("8B LoRA 4 x 4k", "llama-3-8b", {"mode", "lora", "batch", "4", "sequence", "4k"});
    row("8B QLoRA 2 x 2k", "llama-3-8b", {"mode", "qlora", "batch", "2"});
    row("70B QLoRA", "llama-2-70b", {"mode", "qlora"});
    row("Mixtral vLLM", "mixtral-8x7b", {"serving.engine", "vllm"});
    row("13B training checkpointed 8 x 4k", "llama-2-13b",
        {"mode", "train", "batch", "8", "sequence", "4k", "checkpointing", "full"});
    // Layouts the widest split must respect: three pipeline stages, tensor
    // parallel pairs, a mixed device set.
    row("8B 8 x 8k on 3 stages", "llama-3-8b", {"batch", "8", "sequence", "8k", "parallel.pp", "3", "gpus", "3"});
    row("8B 64 x 8k tp 2", "llama-3-8b", {"batch", "64", "sequence", "8k", "parallel.tp", "2", "gpus", "2"});
    // A mixed device set fixes the GPU count: the small cards are offered
    // nothing, but each is still told why (what each of the two holds).
    row("70B on a 4090 and a 3090", "llama-2-70b", {"devices", "rtx-4090,rtx-3090"}, false);
}

void TestSuggest::everyVerdictExplained()
{
    QFETCH(QString, preset);
    QFETCH(QStringList, inputs);
    QFETCH(bool, allOffered);
    QFETCH(bool, wantsPairs);
    std::vector<std::pair<std::string, std::string>> set;
    for (int i = 0; i + 1 < inputs.size(); i += 2)
        set.emplace_back(inputs[i].toStdString(), inputs[i + 1].toStdString());
    const core::Scenario scenario = scenarioOf(preset.toStdString(), set);
    const core::Catalog &catalog = core::io::builtinCatalog();
    const core::EstimateWithFits result = core::estimateWithFits(scenario, catalog);
    QVERIFY(result.estimate.isValid());
    core::FitSearch search(scenario);
    int shortOfFits = 0, offered = 0, pairs = 0;
    for (const core::GpuFit &fit : result.fits) {
        const auto reason = search.reasonFor(result.estimate, fit);
        QCOMPARE(reason.has_value(), !fit.fits);
        if (fit.fits)
            continue;
        ++shortOfFits;
        // Why: the terms each GPU holds where the verdict looked add up to
        // its total, largest first, over the GPU's memory by `over`.
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < reason->blocking.size(); ++i) {
            sum += reason->blocking[i].second.count();
            if (i > 0)
                QVERIFY(reason->blocking[i - 1].second >= reason->blocking[i].second);
        }
        QCOMPARE(sum, reason->total.count());
        QCOMPARE(reason->total.count() - reason->over.count(), fit.capacity.count());
        // Split only where no count fits, and then to a layout that runs.
        QVERIFY(!reason->splitFloor() || fit.gpusNeeded <= 0);
        QVERIFY(reason->total.count() > 0);
        if (!reason->splitFloor())
            QCOMPARE(reason->over.count(), fit.shortfall.count());
        // What would fit: each change, applied field by field, fits this
        // GPU at the total promised.
        const std::vector<core::FitSuggestion> found = search.suggestionsFor(fit);
        offered += found.empty() ? 0 : 1;
        pairs += static_cast<int>(std::count_if(found.begin(), found.end(), [](const core::FitSuggestion &f) { return f.pair; }));
        for (const core::FitSuggestion &suggestion : found) {
            core::Scenario changed = scenario;
            core::applyChanges(changed, suggestion.changes);
            const core::EstimateWithFits after = core::estimateWithFits(changed, catalog, {fit.gpuId});
            QVERIFY2(after.fits.size() == 1 && after.fits.front().fits,
                     qPrintable(QString::fromStdString(fit.gpuId + ": " + suggestion.foundBy)));
            QCOMPARE(after.estimate.total.count(), suggestion.total.count()); // the one GPU asked is the focus
        }
    }
    // Every scenario is short of some GPU, and every GPU it is short of is
    // offered a change: none of these needs more than two.
    QVERIFY(shortOfFits > 0);
    if (allOffered)
        QCOMPARE(offered, shortOfFits);
    QVERIFY(!wantsPairs || pairs > 0);
}

VRAM_TEST_MAIN(tst_suggest, TestSuggest, None)
#include "tst_suggest.moc"
