// Image encoders of multimodal config.json files (core/io/visionconfig) and
// the class defaults sparse configs leave out (core/io/familydefaults).
// Expected counts are hand calculations from the tensor lists of the
// transformers modeling files, written out in the comments; none was
// produced by running the code under test.

#include "tests/support/testregistry.h"
#include "core/io/familydefaults.h"
#include "core/io/jsonreader.h"
#include "core/io/visionconfig.h"

#include <QFile>
#include <QtTest>

#include <algorithm>

using core::io::Json;

namespace {

Json configFixture(const QString &file)
{
    QFile f(QStringLiteral(VRAM_TEST_DATA_DIR "/configs/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(f.fileName()));
    std::vector<std::string> errors;
    const std::optional<Json> json = core::io::parseJson(f.readAll().toStdString(), errors);
    if (!json)
        qFatal("%s: %s", qPrintable(file), errors.empty() ? "?" : errors.front().c_str());
    return *json;
}

/// The text model's width, where the published config keeps it.
std::uint64_t textHidden(const Json &config)
{
    const Json &text = config.contains("text_config") ? config.at("text_config") : config;
    return text.at("hidden_size").get<std::uint64_t>();
}

struct Reading
{
    std::optional<core::VisionTower> tower;
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
};

Reading readTower(const Json &config, std::uint64_t hidden)
{
    Reading r;
    core::io::JsonReader reader(config, "", r.errors);
    r.tower = core::io::readVisionTower(reader, config.at("model_type").get<std::string>(), hidden, r.warnings);
    return r;
}

bool contains(const std::vector<std::string> &lines, const std::string &text)
{
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string &line) { return line.find(text) != std::string::npos; });
}

} // namespace

class TestVision : public QObject
{
    Q_OBJECT

private slots:
    void publishedTowers_data();
    void publishedTowers();
    void textPlusVisionMatchesPublisher_data();
    void textPlusVisionMatchesPublisher();
    void siglipClassDefaults();
    void noVisionPart();
    void unknownFamilyWarns();
    void badVisionValueNamesPointer();
    void gemma3SparseTextDefaults();
    void statedKeysAreKept_data();
    void statedKeysAreKept();
};

void TestVision::publishedTowers_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<quint64>("parameters");
    QTest::addColumn<quint64>("projector");
    QTest::addColumn<quint64>("tokens");
    QTest::addColumn<quint64>("imageSize");

    // google/gemma-3-12b-it: SigLIP so400m, h 1152, I 4304, 27 layers, 896 px,
    // patch 14; text width 3840 (modeling_siglip.py, modeling_gemma3.py).
    //   patch Conv2d  1152*3*14*14 + 1152 bias      =     678,528
    //   positions     (896/14)^2 = 4096 * 1152      =   4,718,592
    //   per layer: q,k,v,o 4*(1152^2 + 1152)        =   5,313,024
    //              layer_norm1/2 2*(1152 + 1152)    =       4,608
    //              fc1 1152*4304 + 4304             =   4,962,512
    //              fc2 4304*1152 + 1152             =   4,959,360
    //              = 15,239,504; x 27               = 411,466,608
    //   post_layernorm                              =       2,304
    //   vision_use_head false: no pooling head
    //   tower                                       = 416,866,032
    //   projector: mm_input_projection 1152*3840    =   4,423,680
    //              mm_soft_emb_norm                 =       1,152
    //                                               =   4,424,832
    //   total                                       = 421,290,864
    // Tokens: mm_tokens_per_image = 256 (64x64 patches pooled 4x4).
    QTest::newRow("gemma-3-12b-it siglip") << "gemma3-gemma-3-12b-it.json" << "siglip" << quint64(421290864)
                                           << quint64(4424832) << quint64(256) << quint64(896);

    // meta-llama/Llama-4-Scout-17B-16E: h 1408, I 5632, 34 layers, 336 px,
    // patch 14, adapter 4096, projector 4096 -> 5120 (modeling_llama4.py).
    //   patch unfold Linear 3*14*14 * 1408 (no bias)  =     827,904
    //   class_embedding                               =       1,408
    //   positional_embedding_vlm (576 + 1) * 1408     =     812,416
    //   layernorm_pre/post 2*(1408 + 1408)            =       5,632
    //   per layer: q,k,v,o 4*(1408^2 + 1408)          =   7,935,488
    //              fc1 1408*5632 + 5632               =   7,935,488
    //              fc2 5632*1408 + 1408               =   7,931,264
    //              2 LayerNorms 4*1408                =       5,632
    //              = 23,807,872; x 34                 = 809,467,648
    //   vision_adapter fc1 5632*4096 + fc2 4096*4096  =  39,845,888
    //   tower                                         = 850,960,896
    //   multi_modal_projector.linear_1 4096*5120      =  20,971,520
    //   total                                         = 871,932,416
    // The tensor sizes agree one by one with a printed parameter table of
    // the Scout checkpoint (code-index id 41112263523).
    // Tokens: one 336 px tile, 24x24 patches pixel-shuffled by 0.5 each
    // way: 576 / 4 = 144.
    QTest::newRow("llama-4-scout llama4 vision") << "llama4-llama-4-scout-17b-16e.json" << "llama4"
                                                 << quint64(871932416) << quint64(20971520) << quint64(144)
                                                 << quint64(336);

    // Qwen2.5-VL-7B: h 1280, I 3420, depth 32, patch 14, temporal 2, merge 2,
    // out 3584 (modeling_qwen2_5_vl.py).
    //   patch_embed Conv3d 1280*3*2*14*14 (no bias)   =   1,505,280
    //   per block: norm1, norm2 2*1280                =       2,560
    //              qkv 1280*3840 + 3840               =   4,919,040
    //              proj 1280*1280 + 1280              =   1,639,680
    //              gate, up 2*(1280*3420 + 3420)      =   8,762,040
    //              down 3420*1280 + 1280              =   4,378,880
    //              = 19,702,200; x 32                 = 630,470,400
    //   merger: ln_q 1280                             =       1,280
    //           mlp.0 5120*5120 + 5120                =  26,219,520
    //           mlp.2 5120*3584 + 3584                =  18,353,664
    //                                                 =  44,574,464
    //   total                                         = 676,550,144
    // Tokens at 448x448: (448/14)^2 / 2^2 = 1024 / 4 = 256.
    QTest::newRow("qwen2.5-vl-7b vision") << "qwen2_5_vl-qwen2.5-vl-7b-instruct.json" << "qwen2_5_vl"
                                          << quint64(676550144) << quint64(44574464) << quint64(256) << quint64(448);

    // Qwen3-VL-30B-A3B-Instruct: h 1152, I 4304, depth 27, patch 16,
    // temporal 2, merge 2, out 2048, 2304 learned positions, deepstack mergers
    // after blocks 8, 16, 24 (modeling_qwen3_vl_moe.py Qwen3VLMoeVisionModel).
    //   patch_embed Conv3d 1152*3*2*16*16 + 1152 bias  =   1,770,624
    //   pos_embed 2304*1152                            =   2,654,208
    //   per block: norm1, norm2 LayerNorm 2*2*1152     =       4,608
    //              qkv 1152*3456 + 3456                =   3,984,768
    //              proj 1152*1152 + 1152               =   1,328,256
    //              linear_fc1 1152*4304 + 4304         =   4,962,512
    //              linear_fc2 4304*1152 + 1152         =   4,959,360
    //              = 15,239,504; x 27                  = 411,466,608
    //   merger: norm LayerNorm(1152) 2*1152            =       2,304
    //           linear_fc1 4608*4608 + 4608            =  21,238,272
    //           linear_fc2 4608*2048 + 2048            =   9,439,232
    //                                                  =  30,679,808
    //   3 deepstack mergers, LayerNorm(4608) each:
    //           3 * (2*4608 + 21,238,272 + 9,439,232)  =  92,060,160
    //   projector (all four mergers)                   = 122,739,968
    //   total                                          = 538,631,408
    // With the language model (Qwen3-30B-A3B's shape, 30,532,122,624) it is
    // the 31,070,754,032 a report sums from the checkpoint (tst_families).
    // Tokens at 448x448: (448/16)^2 / 2^2 = 784 / 4 = 196.
    QTest::newRow("qwen3-vl-30b-a3b vision") << "qwen3_vl_moe-qwen3-vl-30b-a3b-instruct.json" << "qwen3_vl"
                                             << quint64(538631408) << quint64(122739968) << quint64(196)
                                             << quint64(448);

    // Qwen3.5-9B: the same tower, merger to the text width 4096, and no
    // deepstack mergers (modular_qwen3_5.py Qwen3_5VisionModel deletes them):
    //   embeddings and 27 blocks as above             = 415,891,440
    //   merger: LayerNorm(1152) 2*1152                =       2,304
    //           linear_fc1 4608*4608 + 4608           =  21,238,272
    //           linear_fc2 4608*4096 + 4096           =  18,878,464
    //                                                 =  40,119,040
    //   total                                         = 456,010,480
    // With the language model (8,953,803,264, tst_families) and the MTP
    // module it is the Hub's safetensors total, 9,653,104,368.
    QTest::newRow("qwen3.5-9b vision") << "qwen3_5-qwen3.5-9b.json" << "qwen3_vl" << quint64(456010480)
                                       << quint64(40119040) << quint64(196) << quint64(448);

    // Mistral Small 3.x 24B: Pixtral h 1024, I 4096, 24 layers, patch 14,
    // 1540 px, merge 2, no projector bias; text width 5120
    // (modeling_pixtral.py, modeling_mistral3.py).
    //   patch_conv 1024*3*14*14 (no bias)             =     602,112
    //   ln_pre                                        =       1,024
    //   per layer: attention_norm, ffn_norm 2*1024    =       2,048
    //              q,k,v,o 4*1024*1024                =   4,194,304
    //              gate, up, down 3*4096*1024         =  12,582,912
    //              = 16,779,264; x 24                 = 402,702,336
    //   projector: norm 1024                          =       1,024
    //              merging_layer 4096*1024            =   4,194,304
    //              linear_1 1024*5120                 =   5,242,880
    //              linear_2 5120*5120                 =  26,214,400
    //                                                 =  35,652,608
    //   total                                         = 438,958,080
    // Tokens at 1540 px: 1540 / (14*2) = 55 rows of 55, each row closed by
    // [IMG_BREAK] or [IMG_END]: 55 * 56 = 3080.
    QTest::newRow("mistral-small-3.x pixtral") << "mistral3-mistral-small-3.x-24b.json" << "pixtral"
                                               << quint64(438958080) << quint64(35652608) << quint64(3080)
                                               << quint64(1540);
}

void TestVision::publishedTowers()
{
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QFETCH(quint64, parameters);
    QFETCH(quint64, projector);
    QFETCH(quint64, tokens);
    QFETCH(quint64, imageSize);

    const Json config = configFixture(file);
    const Reading r = readTower(config, textHidden(config));
    QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors.front().c_str());
    QVERIFY(r.warnings.empty());
    QVERIFY(r.tower.has_value());
    QCOMPARE(QString::fromStdString(r.tower->kind), kind);
    QCOMPARE(quint64(r.tower->parameters), parameters);
    QCOMPARE(quint64(r.tower->projectorParameters), projector);
    QCOMPARE(quint64(r.tower->tokensPerImage), tokens);
    QCOMPARE(quint64(r.tower->imageSize), imageSize);
}

void TestVision::textPlusVisionMatchesPublisher_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<quint64>("text");
    QTest::addColumn<double>("published");
    QTest::addColumn<double>("tolerance");

    // Gemma 3 12B language model (Gemma3TextConfig defaults filled: vocab
    // 262208, head_dim 256, 8 KV heads; tied embeddings):
    //   embed 262208*3840                             =  1,006,878,720
    //   per layer: q 4096*3840, o 3840*4096           =     31,457,280
    //              k, v 2*2048*3840                   =     15,728,640
    //              gate, up, down 3*15360*3840        =    176,947,200
    //              4 RMSNorms 4*3840 + q/k norm 2*256 =         15,872
    //              = 224,148,992; x 48                = 10,759,151,616
    //   final norm                                    =          3,840
    //   text                                          = 11,766,034,176
    // (Keras Hub's gemma3_12b_text preset states 11,765,788,416 params with
    // a 262144-row table: 64*3840 = 245,760 fewer, so the layers agree.)
    // Google names the model 12B; text + vision = 12,187,325,040.
    QTest::newRow("gemma-3-12b-it 12B") << "gemma3-gemma-3-12b-it.json" << quint64(11766034176ull) << 12e9 << 0.5e9;

    // Llama 4 Scout language model (all 48 layers MoE, step 1; 16 routed
    // experts + 1 shared; untied):
    //   embed + lm_head 2*202048*5120                 =   2,068,971,520
    //   per layer: q, o 2*5120*5120                   =      52,428,800
    //              k, v 2*1024*5120                   =      10,485,760
    //              experts 16*(5120*16384 + 8192*5120)=   2,013,265,920
    //              shared expert 3*8192*5120          =     125,829,120
    //              router 16*5120                     =          81,920
    //              2 RMSNorms                         =          10,240
    //              = 2,202,101,760; x 48              = 105,700,884,480
    //   final norm                                    =           5,120
    //   text                                          = 107,769,861,120
    // Meta states 109B total; text + vision = 108,641,793,536.
    QTest::newRow("llama-4-scout 109B") << "llama4-llama-4-scout-17b-16e.json" << quint64(107769861120ull) << 109e9
                                        << 0.5e9;

    // Mistral Small 3.x language model (vocab 131072, 40 layers, 32/8 heads
    // of 128, I 32768, untied):
    //   embed + lm_head 2*131072*5120                 =  1,342,177,280
    //   per layer: q, o 2*4096*5120                   =     41,943,040
    //              k, v 2*1024*5120                   =     10,485,760
    //              gate, up, down 3*32768*5120        =    503,316,480
    //              2 RMSNorms                         =         10,240
    //              = 555,755,520; x 40                = 22,230,220,800
    //   final norm                                    =          5,120
    //   text                                          = 23,572,403,200
    // Mistral states 24B; text + vision = 24,011,361,280.
    QTest::newRow("mistral-small 24B") << "mistral3-mistral-small-3.x-24b.json" << quint64(23572403200ull) << 24e9
                                       << 0.5e9;
}

void TestVision::textPlusVisionMatchesPublisher()
{
    QFETCH(QString, file);
    QFETCH(quint64, text);
    QFETCH(double, published);
    QFETCH(double, tolerance);

    const Json config = configFixture(file);
    const Reading r = readTower(config, textHidden(config));
    QVERIFY(r.tower.has_value());
    const double total = static_cast<double>(text + r.tower->parameters);
    QVERIFY2(std::abs(total - published) < tolerance, qPrintable(QString::number(total, 'f', 0)));
}

void TestVision::siglipClassDefaults()
{
    // An empty vision_config takes every SiglipVisionConfig default: h 768,
    // I 3072, 12 layers, 3 channels, 224 px, patch 16, and (no
    // vision_use_head key) the pooling head.
    //   patch Conv2d 768*3*16*16 + 768                =     590,592
    //   positions (224/16)^2 = 196 * 768              =     150,528
    //   per layer: q,k,v,o 4*(768^2 + 768)            =   2,362,368
    //              2 LayerNorms 4*768                 =       3,072
    //              fc1 768*3072 + 3072                =   2,362,368
    //              fc2 3072*768 + 768                 =   2,360,064
    //              = 7,087,872; x 12                  =  85,054,464
    //   post_layernorm                                =       1,536
    //   head: probe 768, in_proj 3*768^2 + 3*768,
    //         out_proj 768^2 + 768, LayerNorm 1,536,
    //         mlp 4,722,432                           =   7,087,104
    //   tower                                         =  92,884,224
    //   projector 768*2560 + 768                      =   1,966,848
    //   total                                         =  94,851,072
    const Json config = Json::parse(R"({"model_type": "gemma3", "vision_config": {}})");
    const Reading r = readTower(config, 2560);
    QVERIFY(r.tower.has_value());
    QCOMPARE(quint64(r.tower->parameters), quint64(94851072));
    QCOMPARE(quint64(r.tower->projectorParameters), quint64(1966848));
    QCOMPARE(quint64(r.tower->tokensPerImage), quint64(256)); // Gemma3Config.mm_tokens_per_image default
    QCOMPARE(quint64(r.tower->imageSize), quint64(224));
}

void TestVision::noVisionPart()
{
    const Json config = Json::parse(R"({"model_type": "gemma3_text", "hidden_size": 1152})");
    const Reading r = readTower(config, 1152);
    QVERIFY(!r.tower.has_value());
    QVERIFY(r.warnings.empty());
    QVERIFY(r.errors.empty());
}

void TestVision::unknownFamilyWarns()
{
    const Json config =
        Json::parse(R"({"model_type": "llava", "vision_config": {"hidden_size": 1024, "patch_size": 14}})");
    const Reading r = readTower(config, 4096);
    QVERIFY(!r.tower.has_value());
    QCOMPARE(r.warnings.size(), size_t(1));
    QVERIFY2(contains(r.warnings, "/vision_config: no vision rules for model_type 'llava'"), r.warnings[0].c_str());
    QVERIFY2(contains(r.warnings, "ignored keys: hidden_size, patch_size"), r.warnings[0].c_str());
}

void TestVision::badVisionValueNamesPointer()
{
    const Json config = Json::parse(R"({"model_type": "mistral3", "vision_config": {"hidden_size": -1024}})");
    const Reading r = readTower(config, 5120);
    QVERIFY(contains(r.errors, "/vision_config/hidden_size: is negative"));
}

void TestVision::gemma3SparseTextDefaults()
{
    // google/gemma-3-12b-it's text_config names 8 keys; transformers fills
    // the rest from Gemma3TextConfig.
    const Json config = configFixture("gemma3-gemma-3-12b-it.json");
    std::vector<std::string> assumed;
    const Json text = core::io::withFamilyDefaults(config.at("text_config"), "gemma3_text", assumed);
    QCOMPARE(text.at("head_dim").get<int>(), 256);
    QCOMPARE(text.at("vocab_size").get<int>(), 262208);
    QCOMPARE(text.at("query_pre_attn_scalar").get<int>(), 256);
    QCOMPARE(text.at("sliding_window_pattern").get<int>(), 6);
    QVERIFY(text.at("tie_word_embeddings").get<bool>());
    QVERIFY(contains(assumed, "head_dim = 256 (Gemma3TextConfig default)"));
    QVERIFY(contains(assumed, "vocab_size = 262208 (Gemma3TextConfig default)"));
    // 48 layers, every 6th global: layers 6, 12, ..., 48 (1-based) = 8 full.
    const Json &types = text.at("layer_types");
    QCOMPARE(types.size(), size_t(48));
    QCOMPARE(std::count(types.begin(), types.end(), Json("full_attention")), 8);
    QCOMPARE(types.at(5).get<std::string>(), std::string("full_attention"));
    QCOMPARE(types.at(4).get<std::string>(), std::string("sliding_attention"));
    QVERIFY(contains(assumed, "layer_types = 40 sliding, 8 full"));
    // Stated keys stay as published.
    QCOMPARE(text.at("num_key_value_heads").get<int>(), 8);
    QCOMPARE(text.at("num_attention_heads").get<int>(), 16);
    QCOMPARE(text.at("sliding_window").get<int>(), 1024);
    // The parent's model_type selects the same defaults.
    std::vector<std::string> viaParent;
    QCOMPARE(core::io::withFamilyDefaults(config.at("text_config"), "gemma3", viaParent), text);
    QCOMPARE(viaParent, assumed);
}

void TestVision::statedKeysAreKept_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("modelType");
    QTest::addColumn<QStringList>("assumedKeys");

    // Scout's text_config states everything but these two (the tie flag
    // sits at the top level).
    QTest::newRow("llama4 scout") << "llama4-llama-4-scout-17b-16e.json" << "llama4_text"
                                  << QStringList{"no_rope_layer_interval", "tie_word_embeddings"};
    QTest::newRow("mistral small") << "mistral3-mistral-small-3.x-24b.json" << "mistral"
                                   << QStringList{"tie_word_embeddings"};
    // Qwen/Qwen2.5-VL-7B-Instruct as published (transformers 4.41.2) has no
    // text_config: the text keys sit at the top level and state every
    // Qwen2_5_VLTextConfig default the reader knows, tie_word_embeddings
    // (false) included, so nothing is assumed.
    QTest::newRow("qwen2.5-vl (flat, as published)") << "qwen2_5_vl-qwen2.5-vl-7b-instruct.json" << "qwen2_5_vl"
                                                     << QStringList{};
}

void TestVision::statedKeysAreKept()
{
    QFETCH(QString, file);
    QFETCH(QString, modelType);
    QFETCH(QStringList, assumedKeys);

    const Json config = configFixture(file);
    // The language model is the text_config, or the object itself when the
    // file has none (as parseHfConfig reads it).
    const Json &stated = config.contains("text_config") ? config.at("text_config") : config;
    std::vector<std::string> assumed;
    const Json text = core::io::withFamilyDefaults(stated, modelType.toStdString(), assumed);
    QStringList keys;
    for (const std::string &line : assumed)
        keys << QString::fromStdString(line.substr(0, line.find(" = ")));
    QCOMPARE(keys, assumedKeys);
    for (const auto &item : stated.items())
        QCOMPARE(text.at(item.key()), item.value());
}

VRAM_TEST_MAIN(tst_vision, TestVision, None)
#include "tst_vision.moc"
