// Parameter counts: the first test of the engine (issue #2). Expected values
// are published exact counts or hand calculations written out here.

#include "core/base/message.h"
#include "core/engine/estimate.h"
#include "core/io/builtin.h"
#include "core/io/hfconfig.h"
#include "core/model/modelspec.h"
#include "tests/support/testregistry.h"

#include <QFile>
#include <algorithm>
#include <QtTest>

namespace {

core::ModelSpec configFixture(const QString &file)
{
    QFile f(QStringLiteral(VRAM_TEST_DATA_DIR "/configs/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(f.fileName()));
    const auto result = core::io::parseHfConfig(f.readAll().toStdString(), file.toStdString());
    if (!result.ok())
        qFatal("%s: %s", qPrintable(file), result.errors.empty() ? "?" : result.errors.front().c_str());
    return *result.value;
}

} // namespace

class TestParameters : public QObject
{
    Q_OBJECT

private slots:
    void exactPresetCounts_data();
    void exactPresetCounts();
    void configFixtureCounts_data();
    void configFixtureCounts();
    void roundedPublishedCounts_data();
    void roundedPublishedCounts();
    void moeActiveParameters_data();
    void moeActiveParameters();
    void everyPresetLoads();
    void heuristicKeepsDeclaredCount_data();
    void heuristicKeepsDeclaredCount();
    void unknownModelTypeWarns();
    void missingKeyIsNamed();
    void mtpModuleLoadsOnRequest();
};

void TestParameters::exactPresetCounts_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qulonglong>("expected");
    // The exact counts listed in issue #2 (published counts of the checkpoints).
    QTest::newRow("Llama-2-7b") << "llama-2-7b" << 6738415616ull;
    QTest::newRow("Baichuan-7B") << "baichuan-7b" << 7000559616ull;
    QTest::newRow("Llama-3-8B") << "llama-3-8b" << 8030261248ull;
    QTest::newRow("Mistral-7B") << "mistral-7b" << 7241732096ull;
    QTest::newRow("Mixtral-8x7B") << "mixtral-8x7b" << 46702792704ull;
    QTest::newRow("Llama-2-70b") << "llama-2-70b" << 68976648192ull;
    QTest::newRow("LLaMA-65B") << "llama-65b" << 65285660672ull;
    QTest::newRow("GPT-2") << "gpt2" << 124439808ull;
    // Pythia README (EleutherAI/pythia), "Total params" column: 6,857,302,016.
    QTest::newRow("Pythia-6.9B") << "pythia-6.9b" << 6857302016ull;
}

void TestParameters::exactPresetCounts()
{
    QFETCH(QString, preset);
    QFETCH(qulonglong, expected);
    const core::io::ModelPreset *p = core::io::findPreset(preset.toStdString());
    QVERIFY2(p, qPrintable(preset));
    QCOMPARE(static_cast<qulonglong>(core::countParameters(p->model).total), expected);
}

void TestParameters::configFixtureCounts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qulonglong>("expected");
    QTest::newRow("llama config.json") << "llama-llama-2-7b.json" << 6738415616ull;
    QTest::newRow("mistral config.json") << "mistral-mistral-7b-v0.1.json" << 7241732096ull;
    QTest::newRow("mixtral config.json") << "mixtral-mixtral-8x7b.json" << 46702792704ull;
    QTest::newRow("baichuan config.json (W_pack)") << "baichuan-baichuan-7b.json" << 7000559616ull;
    QTest::newRow("gpt2 config.json") << "gpt2-gpt2.json" << 124439808ull;
    QTest::newRow("gpt_neox config.json") << "gpt_neox-pythia-6.9b.json" << 6857302016ull;
    // Falcon-7B by hand (h = 4544, 71 heads of 64, MQA, L = 32, V = 65024,
    // no biases, one LayerNorm per parallel block, tied embeddings):
    //   embedding 65024 x 4544                     =   295,469,056
    //   per layer: qkv 4544 x (71 + 2) x 64        =    21,229,568
    //              dense 4544 x 4544               =    20,647,936
    //              mlp 2 x 4544 x 18176            =   165,183,488
    //              LayerNorm 2 x 4544              =         9,088
    //              = 207,070,080 x 32              = 6,626,242,560
    //   final LayerNorm                            =         9,088
    //   total                                      = 6,921,720,704
    QTest::newRow("falcon config.json (hand count)") << "falcon-falcon-7b-instruct.json" << 6921720704ull;
    // BERT-large: BertForSequenceClassification has 335,143,938 parameters
    // (measured-cases.json, arch.total_params); less the 2-label classifier
    // (1024 x 2 + 2 = 2,050) that is the 335,141,888 of BertModel + pooler.
    QTest::newRow("bert config.json") << "bert-bert-large-uncased.json" << 335141888ull;
    // OLMo 3.1 32B by hand from modeling_olmo3.py (h = 5120, 40 heads and 8
    // KV heads of 5120 / 40 = 128, I = 27648, L = 64, V = 100278, untied; no
    // input norm, post_attention and post_feedforward RMSNorms; q_norm and
    // k_norm over the whole projection, 40 x 128 and 8 x 128 wide):
    //   embedding + lm_head 2 x 100278 x 5120      =  1,026,846,720
    //   per layer: q, o 2 x 5120 x 5120            =     52,428,800
    //              k, v 2 x 1024 x 5120            =     10,485,760
    //              gate, up, down 3 x 27648 x 5120 =    424,673,280
    //              2 RMSNorms 2 x 5120             =         10,240
    //              q_norm 5120 + k_norm 1024       =          6,144
    //              = 487,604,224 x 64              = 31,206,670,336
    //   final norm                                 =          5,120
    //   total                                      = 32,233,522,176
    // Ai2 states no count beyond the name "32B"; this hand sum is the check.
    QTest::newRow("olmo3 config.json (hand count)") << "olmo3-olmo-3.1-32b-instruct.json" << 32233522176ull;
    // EXAONE 4.0 32B by hand from modeling_exaone4.py (h = 5120, 40/8 heads
    // of 128, I = 27392, L = 64, V = 102400, untied; the same two post-norms
    // as OLMo; q_norm and k_norm per head, 128 wide each):
    //   embedding + lm_head 2 x 102400 x 5120      =  1,048,576,000
    //   per layer: q, o, k, v as OLMo above        =     62,914,560
    //              gate, up, down 3 x 27392 x 5120 =    420,741,120
    //              2 RMSNorms + 2 x 128            =         10,496
    //              = 483,666,176 x 64              = 30,954,635,264
    //   final norm                                 =          5,120
    //   total                                      = 32,003,216,384
    // The card's "30.95B without embeddings" is 30,954,640,384 (layers and
    // final norm): tst_families.
    QTest::newRow("exaone4 config.json (hand count)") << "exaone4-exaone-4.0-32b.json" << 32003216384ull;
    // MiniMax-M2.7 by hand from modeling_minimax_m2.py (h = 3072, 48 heads
    // and 8 KV heads of 128, L = 62, 256 experts of I = 1536, V = 200064,
    // untied; q/k norms over the whole projection; router 256 x 3072 and
    // e_score_correction_bias 256; MTP modules not counted):
    //   embedding + lm_head 2 x 200064 x 3072      =  1,229,193,216
    //   per layer: q, o 2 x 6144 x 3072            =     37,748,736
    //              k, v 2 x 1024 x 3072            =      6,291,456
    //              q_norm 6144 + k_norm 1024       =          7,168
    //              2 RMSNorms 2 x 3072             =          6,144
    //              router 256 x 3072 + 256         =        786,688
    //              experts 256 x 3 x 1536 x 3072   =  3,623,878,656
    //              = 3,668,718,848 x 62            = 227,460,568,576
    //   final norm                                 =          3,072
    //   total                                      = 228,689,764,864
    QTest::newRow("minimax_m2 config.json (hand count)") << "minimax_m2-minimax-m2.7.json" << 228689764864ull;
}

void TestParameters::configFixtureCounts()
{
    QFETCH(QString, file);
    QFETCH(qulonglong, expected);
    QCOMPARE(static_cast<qulonglong>(core::countParameters(configFixture(file)).total), expected);
}

void TestParameters::roundedPublishedCounts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("billions");
    QTest::addColumn<double>("unit");
    // Model cards publish counts to one or two decimals of a billion, some
    // rounded and some truncated (Qwen2.5-7B: 7.6156 -> "7.61B"); the exact
    // count must lie within one unit of the last published digit.
    QTest::newRow("Qwen2.5-7B 7.61B (model card)") << "qwen2-qwen2.5-7b.json" << 7.61 << 0.01;
    QTest::newRow("Qwen3-8B 8.2B (model card)") << "qwen3-qwen3-8b.json" << 8.2 << 0.1;
    QTest::newRow("Gemma-2-9B 9.24B (HF safetensors size)") << "gemma2-gemma-2-9b.json" << 9.24 << 0.01;
    QTest::newRow("Phi-3-mini 3.8B (model card)") << "phi3-phi-3-mini-4k-instruct.json" << 3.8 << 0.1;
    QTest::newRow("Phi-2 2.7B (model card)") << "phi-phi-2.json" << 2.7 << 0.1;
    QTest::newRow("gpt-oss-20b 20.91B (OpenAI model card)") << "gpt_oss-gpt-oss-20b.json" << 20.91 << 0.01;
    QTest::newRow("DeepSeekMoE 16.4B (Dai et al. 2024, Table 2)") << "deepseek-deepseek-moe-16b-chat.json" << 16.4 << 0.1;
    QTest::newRow("Gemma-2B 2.51B (Gemma report Table 2: 2.5B)") << "gemma-gemma-2b.json" << 2.5 << 0.1;
    QTest::newRow("StarCoder 15.5B (Li et al. 2023)") << "gpt_bigcode-starcoder-co-format.json" << 15.5 << 0.1;
}

void TestParameters::roundedPublishedCounts()
{
    QFETCH(QString, file);
    QFETCH(double, billions);
    QFETCH(double, unit);
    const double counted = static_cast<double>(core::countParameters(configFixture(file)).total) / 1e9;
    QVERIFY2(std::abs(counted - billions) < unit,
             qPrintable(QStringLiteral("counted %1 B, published %2 B").arg(counted, 0, 'f', 4).arg(billions)));
}

void TestParameters::moeActiveParameters_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("activeBillions");
    QTest::addColumn<double>("halfUnit");
    // Mistral AI, "Mixtral of experts": 12.9B active parameters per token.
    QTest::newRow("Mixtral 12.9B active") << "mixtral-mixtral-8x7b.json" << 12.9 << 0.05;
    // DeepSeekMoE paper (Dai et al. 2024): 2.8B activated parameters.
    QTest::newRow("DeepSeekMoE 2.8B active") << "deepseek-deepseek-moe-16b-chat.json" << 2.8 << 0.05;
    // OpenAI gpt-oss model card: 3.61B active, counted without the token
    // embedding (201,088 x 2,880 = 579,133,440): 4.19B with it.
    QTest::newRow("gpt-oss-20b 3.61B + embedding") << "gpt_oss-gpt-oss-20b.json" << 3.61 + 0.579133440 << 0.006;
}

void TestParameters::moeActiveParameters()
{
    QFETCH(QString, file);
    QFETCH(double, activeBillions);
    QFETCH(double, halfUnit);
    const double active = static_cast<double>(core::countParameters(configFixture(file)).active) / 1e9;
    QVERIFY2(std::abs(active - activeBillions) <= halfUnit, qPrintable(QString::number(active, 'f', 4)));
}

void TestParameters::everyPresetLoads()
{
    // At least 25 presets (issue #2), every one with a positive count.
    QVERIFY(core::io::builtinPresets().size() >= 25);
    for (const core::io::ModelPreset &p : core::io::builtinPresets()) {
        QVERIFY2(core::countParameters(p.model).total > 0, p.id.c_str());
        if (p.paramsPublished)
            QCOMPARE(static_cast<qulonglong>(core::countParameters(p.model).total),
                     static_cast<qulonglong>(*p.paramsPublished));
    }
}

void TestParameters::heuristicKeepsDeclaredCount_data()
{
    QTest::addColumn<qulonglong>("parameters");
    QTest::newRow("7B") << 7000000000ull;
    QTest::newRow("0.5B") << 500000000ull;
    QTest::newRow("70B") << 70000000000ull;
    QTest::newRow("2T") << 2000000000000ull;
    QTest::newRow("125M") << 125000000ull;
}

void TestParameters::heuristicKeepsDeclaredCount()
{
    QFETCH(qulonglong, parameters);
    const core::ModelSpec m = core::modelFromParameterCount(parameters);
    QCOMPARE(static_cast<qulonglong>(core::countParameters(m).total), parameters);
    QCOMPARE(m.hidden, 128 * m.layers); // the documented h/L = 128 shape
    QVERIFY(m.intermediate > 0);
}

void TestParameters::unknownModelTypeWarns()
{
    const std::string config = R"({"model_type": "brand_new_llm", "hidden_size": 1024, "num_hidden_layers": 4,
        "num_attention_heads": 8, "intermediate_size": 2816, "vocab_size": 1000, "mixer_pattern": [1, 0],
        "rope_theta": 10000})";
    const auto result = core::io::parseHfConfig(config, "x");
    QVERIFY(result.ok());
    const core::ModelSpec &m = *result.value;
    QVERIFY(m.familyGuessed);
    // The two keys it had to assume, with the rule used; the one key it
    // could not read (rope_theta changes no memory and is not listed).
    QCOMPARE(m.defaultedKeys, (std::vector<std::string>{
        "num_key_value_heads = 8 (num_attention_heads: multi-head attention)",
        "head_dim = 128 (hidden_size / num_attention_heads)"}));
    QCOMPARE(m.ignoredKeys, std::vector<std::string>{"mixer_pattern"});
    core::Scenario s;
    s.model = m;
    const core::Estimate e = core::estimate(s);
    const auto says = [&e](const char *what) {
        return std::any_of(e.warnings.begin(), e.warnings.end(), [&](const core::Message &w) {
            return core::render(w).find(what) != std::string::npos;
        });
    };
    QVERIFY(says("'brand_new_llm' has no family rules"));
    QVERIFY(says("every number depends on that guess"));
    QVERIFY(says("config keys not read: mixer_pattern"));
    // Llama-style by hand: 2 x 1000 x 1024 + 4 x (4 x 1024^2 + 3 x 1024 x 2816 + 2 x 1024) + 1024
    QCOMPARE(core::countParameters(*result.value).total, 2ull * 1000 * 1024 + 4 * (4ull * 1024 * 1024 + 3ull * 1024 * 2816 + 2048) + 1024);
}

void TestParameters::missingKeyIsNamed()
{
    const auto result = core::io::parseHfConfig(R"({"model_type": "llama", "hidden_size": 4096})", "x");
    QVERIFY(!result.ok());
    bool named = false;
    for (const std::string &e : result.errors)
        named = named || e.find("/num_hidden_layers") != std::string::npos;
    QVERIFY(named);
}

void TestParameters::mtpModuleLoadsOnRequest()
{
    // DeepSeek-V3's MTP module (README_WEIGHTS.md: one more decoder layer
    // with enorm, hnorm, eh_proj and shared_head.norm; embedding and head
    // shared; "11.5B unique parameters"). By hand, h = 7168:
    //   MLA attention 187,107,328 + two norms 14,336 + router 256 x 7168 =
    //   1,835,008 + its bias 256 + 256 experts x 3 x 7168 x 2048 =
    //   11,274,289,152 + shared expert 44,040,192 = 11,507,286,272;
    //   eh_proj 7168 x 14336 = 102,760,448; three norms 21,504:
    //   11,610,068,224 (the published checkpoint's model.layers.61.* tensors
    //   less its copies of the embedding and head sum to the same).
    const core::io::ModelPreset *p = core::io::findPreset("deepseek-v3");
    QVERIFY(p);
    core::ModelSpec m = p->model;
    QCOMPARE(m.mtpLayers, 1ull);
    QCOMPARE(core::countParameters(m).mtp, 0ull); // off by default, as transformers loads it
    m.loadMtp = true;
    const core::ParameterCounts c = core::countParameters(m);
    QCOMPARE(c.mtp, 11610068224ull);
    QCOMPARE(c.total, 671026419200ull + 11610068224ull);
}

VRAM_TEST_MAIN(tst_parameters, TestParameters, None)
#include "tst_parameters.moc"
