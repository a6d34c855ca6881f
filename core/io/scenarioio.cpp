#include "core/io/scenarioio.h"

#include "core/io/scenariojson.h"
#include "core/model/layerkinds.h"
#include "core/scenario/fields.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace core::io {

namespace {

// The architecture's fields, listed once for writing and reading.
struct UintField { const char *key; std::uint64_t ModelSpec::*member; std::uint64_t min; std::uint64_t max; };
struct BoolField { const char *key; bool ModelSpec::*member; };
struct NumberField { const char *key; double ModelSpec::*member; };

const UintField kUintFields[] = {
    {"hidden_size", &ModelSpec::hidden, 1, ModelLimits::maxWidth},
    {"layers", &ModelSpec::layers, 1, ModelLimits::maxLayers},
    {"heads", &ModelSpec::heads, 1, ModelLimits::maxWidth},
    {"kv_heads", &ModelSpec::kvHeads, 1, ModelLimits::maxWidth},
    {"head_dim", &ModelSpec::headDim, 1, ModelLimits::maxWidth},
    {"intermediate_size", &ModelSpec::intermediate, 0, ModelLimits::maxWidth},
    {"vocab_size", &ModelSpec::vocab, 1, ModelLimits::maxVocab},
    {"learned_positions", &ModelSpec::learnedPositions, 0, ModelLimits::maxWidth},
    {"token_types", &ModelSpec::tokenTypes, 0, 1u << 20},
    {"max_positions", &ModelSpec::maxPositions, 0, ModelLimits::maxPositions},
    {"sliding_window", &ModelSpec::slidingWindow, 0, ModelLimits::maxPositions},
    {"sliding_layers", &ModelSpec::slidingLayers, 0, ModelLimits::maxLayers},
    {"sliding_kv_heads", &ModelSpec::slidingKvHeads, 0, ModelLimits::maxWidth},
    {"sliding_head_dim", &ModelSpec::slidingHeadDim, 0, ModelLimits::maxWidth},
    {"sliding_v_head_dim", &ModelSpec::slidingValueHeadDim, 0, ModelLimits::maxWidth},
    {"sliding_heads", &ModelSpec::slidingHeads, 0, ModelLimits::maxWidth},
    {"output_gate_per_head", &ModelSpec::outputGatePerHead, 0, ModelLimits::maxWidth},
    {"kv_shared_layers", &ModelSpec::kvSharedLayers, 0, ModelLimits::maxLayers},
    {"wide_mlp_layers", &ModelSpec::wideMlpLayers, 0, ModelLimits::maxLayers},
    {"per_layer_input_width", &ModelSpec::perLayerInputWidth, 0, ModelLimits::maxWidth},
    {"per_layer_input_vocab", &ModelSpec::perLayerInputVocab, 0, ModelLimits::maxVocab},
    {"kv_lora_rank", &ModelSpec::kvLoraRank, 0, ModelLimits::maxWidth},
    {"q_lora_rank", &ModelSpec::qLoraRank, 0, ModelLimits::maxWidth},
    {"qk_rope_head_dim", &ModelSpec::ropeHeadDim, 0, ModelLimits::maxWidth},
    {"rotary_dim", &ModelSpec::rotaryDims, 0, ModelLimits::maxWidth},
    {"sliding_rotary_dim", &ModelSpec::slidingRotaryDims, 0, ModelLimits::maxWidth},
    {"v_head_dim", &ModelSpec::valueHeadDim, 0, ModelLimits::maxWidth},
    {"linear_layers", &ModelSpec::linearLayers, 0, ModelLimits::maxLayers},
    {"linear_key_heads", &ModelSpec::linearKeyHeads, 0, ModelLimits::maxWidth},
    {"linear_value_heads", &ModelSpec::linearValueHeads, 0, ModelLimits::maxWidth},
    {"linear_key_head_dim", &ModelSpec::linearKeyDim, 0, ModelLimits::maxWidth},
    {"linear_value_head_dim", &ModelSpec::linearValueDim, 0, ModelLimits::maxWidth},
    {"linear_conv_kernel", &ModelSpec::linearConvKernel, 0, 1024},
    {"index_heads", &ModelSpec::indexHeads, 0, ModelLimits::maxWidth},
    {"index_head_dim", &ModelSpec::indexHeadDim, 0, ModelLimits::maxWidth},
    {"indexer_layers", &ModelSpec::indexerLayers, 0, ModelLimits::maxLayers},
    {"mamba_layers", &ModelSpec::mambaLayers, 0, ModelLimits::maxLayers},
    {"mamba_heads", &ModelSpec::mambaHeads, 0, ModelLimits::maxWidth},
    {"mamba_head_dim", &ModelSpec::mambaHeadDim, 0, ModelLimits::maxWidth},
    {"ssm_state_size", &ModelSpec::ssmState, 0, ModelLimits::maxWidth},
    {"ssm_groups", &ModelSpec::ssmGroups, 0, ModelLimits::maxWidth},
    {"mamba_conv_kernel", &ModelSpec::mambaConvKernel, 0, 1024},
    {"mamba_dt_rank", &ModelSpec::mambaTimeStepRank, 0, ModelLimits::maxWidth},
    {"mlp_activation_params", &ModelSpec::mlpActivationParams, 0, 16},
    {"ssm_state_bytes", &ModelSpec::ssmStateBytes, 0, 8},
    {"layers_without_mlp", &ModelSpec::layersWithoutMlp, 0, ModelLimits::maxLayers},
    {"layers_without_mixer", &ModelSpec::layersWithoutMixer, 0, ModelLimits::maxLayers},
    {"mixers_as_linear", &ModelSpec::mixersAsLinear, 0, ModelLimits::maxLayers},
    {"mlps_as_linear", &ModelSpec::mlpsAsLinear, 0, ModelLimits::maxLayers},
    {"output_groups", &ModelSpec::outputGroups, 0, ModelLimits::maxWidth},
    {"output_lora_rank", &ModelSpec::outputLoraRank, 0, ModelLimits::maxWidth},
    {"hyper_connections", &ModelSpec::hyperConnections, 0, 64},
    {"hash_routed_layers", &ModelSpec::hashRoutedLayers, 0, ModelLimits::maxLayers},
    {"mtp_layers", &ModelSpec::mtpLayers, 0, 1024},
    {"attending_mamba_layers", &ModelSpec::attendingMambaLayers, 0, ModelLimits::maxLayers},
    {"shared_blocks", &ModelSpec::sharedBlocks, 0, ModelLimits::maxLayers},
    {"adapter_rank", &ModelSpec::adapterRank, 0, ModelLimits::maxWidth},
    {"vision_parameters", &ModelSpec::visionParameters, 0, ScenarioLimits::maxParameters},
    {"audio_parameters", &ModelSpec::audioParameters, 0, ScenarioLimits::maxParameters},
    {"image_tokens", &ModelSpec::imageTokens, 0, ModelLimits::maxWidth},
    {"vision_config_layers", &ModelSpec::visionConfigLayers, 0, ModelLimits::maxLayers},
    {"vision_config_hidden", &ModelSpec::visionConfigHidden, 0, ModelLimits::maxWidth},
    {"declared_parameters", &ModelSpec::declaredParameters, 0, ScenarioLimits::maxParameters},
    {"unplaced_parameters", &ModelSpec::unplacedParameters, 0, ScenarioLimits::maxParameters},
};

const BoolField kBoolFields[] = {
    {"gated_mlp", &ModelSpec::gatedMlp},         {"tied_embeddings", &ModelSpec::tiedEmbeddings},
    {"final_norm", &ModelSpec::finalNorm},       {"embedding_norm", &ModelSpec::embeddingNorm},
    {"qkv_bias", &ModelSpec::qkvBias},           {"attn_out_bias", &ModelSpec::attnOutBias},
    {"mlp_bias", &ModelSpec::mlpBias},           {"lm_head_bias", &ModelSpec::lmHeadBias},
    {"qk_norm", &ModelSpec::qkNorm},             {"attention_sinks", &ModelSpec::attentionSinks},
    {"pooler", &ModelSpec::pooler},              {"encoder_only", &ModelSpec::encoderOnly},
    {"parallel_block", &ModelSpec::parallelBlock}, {"softmax_in_fp32", &ModelSpec::softmaxInFp32},
    {"gated_attention", &ModelSpec::gatedAttention},
    {"lightning_attention", &ModelSpec::lightningAttention},
    {"short_conv", &ModelSpec::shortConv},
    {"kimi_delta_attention", &ModelSpec::kimiDeltaAttention},
    {"full_rank_output_gate", &ModelSpec::fullRankOutputGate},
    {"block_attention_residuals", &ModelSpec::blockAttentionResiduals},
    {"qk_norm_whole_projection", &ModelSpec::qkNormWholeProjection},
    {"no_rope", &ModelSpec::noRope},
    {"chunked_attention", &ModelSpec::chunkedAttention},
    {"key_is_value", &ModelSpec::keyIsValue},
    {"sinks_windowed_only", &ModelSpec::sinksWindowedOnly},
    {"msa_indexer", &ModelSpec::msaIndexer},
    {"layer_scalars", &ModelSpec::layerScalars},
    {"norm_per_block", &ModelSpec::normPerBlock},
    {"mamba_conv_bias", &ModelSpec::mambaConvBias},
    {"mamba_proj_bias", &ModelSpec::mambaProjBias},
    {"mamba_norm", &ModelSpec::mambaNorm},
    {"attention_adapters", &ModelSpec::attentionAdapters},
    {"own_state_cache", &ModelSpec::ownStateCache},
    {"mtp_windowed", &ModelSpec::mtpWindowed},
    {"mtp_dense_mlp", &ModelSpec::mtpDenseMlp},
    {"mtp_own_head", &ModelSpec::mtpOwnHead},
    {"family_guessed", &ModelSpec::familyGuessed},
    {"shape_guessed", &ModelSpec::shapeGuessed},
};

/// Lists of config keys kept with the model (what was assumed or ignored).
struct KeyListField { const char *key; std::vector<std::string> ModelSpec::*member; };
const KeyListField kKeyListFields[] = {
    {"defaulted_keys", &ModelSpec::defaultedKeys},
    {"ignored_keys", &ModelSpec::ignoredKeys},
};

const NumberField kNumberFields[] = {
    {"attention_dropout", &ModelSpec::attentionDropout},
    {"hidden_dropout", &ModelSpec::hiddenDropout},
};

/// The JSON slot of a field: "lora.rank" is j["lora"]["rank"].
Json &fieldSlot(Json &j, const FieldDescriptor &f)
{
    const std::string key = f.key;
    const auto dot = key.find('.');
    return dot == std::string::npos ? j[key] : j[key.substr(0, dot)][key.substr(dot + 1)];
}

Json fieldToJson(const FieldDescriptor &f, const FieldValue &value)
{
    if (std::holds_alternative<std::monostate>(value))
        return nullptr;
    if (const bool *on = std::get_if<bool>(&value))
        return *on;
    if (const std::string *text = std::get_if<std::string>(&value)) {
        if (f.kind != FieldKind::ChoiceSet && f.kind != FieldKind::TextList)
            return *text;
        Json ids = Json::array();
        std::istringstream in(*text);
        for (std::string id; std::getline(in, id, ',');)
            ids.push_back(id);
        return ids;
    }
    const double number = std::get<double>(value);
    if (f.kind == FieldKind::Integer)
        return static_cast<std::uint64_t>(number);
    return number;
}

/// Reads one field where the file has it; absent keeps the default, null
/// returns an optional field to its default.
void readField(JsonReader &root, const FieldDescriptor &f, Scenario &s)
{
    const std::string path = f.key;
    const auto dot = path.find('.');
    std::optional<JsonReader> parent =
        dot == std::string::npos ? std::nullopt : root.object(path.substr(0, dot).c_str(), false);
    if (dot != std::string::npos && !parent)
        return;
    JsonReader &r = parent ? *parent : root;
    const std::string leaf = dot == std::string::npos ? path : path.substr(dot + 1);
    const char *key = leaf.c_str();
    if (!r.json().is_object() || !r.json().contains(leaf))
        return;
    if (r.json().at(leaf).is_null()) {
        if (f.optional())
            f.assign(s, FieldValue());
        else
            r.error(key, "must not be null");
        return;
    }
    std::optional<FieldValue> value;
    switch (f.kind) {
    case FieldKind::Integer:
        if (const auto v = r.uint(key, static_cast<std::uint64_t>(f.min), static_cast<std::uint64_t>(f.max), true))
            value = static_cast<double>(*v);
        break;
    case FieldKind::Number:
        if (const auto v = r.number(key, f.min, f.max, true))
            value = *v;
        break;
    case FieldKind::Flag:
        if (const auto v = r.boolean(key, true))
            value = *v;
        break;
    case FieldKind::Choice:
        if (const auto v = r.string(key, true))
            value = canonicalChoice(f, *v);
        break;
    case FieldKind::Text:
    case FieldKind::ModelPreset:
    case FieldKind::NumberList:
        if (const auto v = r.string(key, true))
            value = *v;
        break;
    case FieldKind::ChoiceSet:
    case FieldKind::TextList: {
        const Json &ids = r.json().at(leaf);
        std::string joined;
        bool strings = ids.is_array();
        for (const Json &id : strings ? ids : Json::array()) {
            strings = strings && id.is_string();
            if (strings)
                joined += (joined.empty() ? "" : ",") + id.get<std::string>();
        }
        if (strings)
            value = joined;
        else
            r.error(key, f.kind == FieldKind::TextList ? std::string("expected an array of ids") : "expected an array of " + choiceList(f));
        break;
    }
    }
    if (!value)
        return;
    if (const std::optional<Message> problem = checkFieldValue(f, *value))
        r.error(key, render(*problem));
    else
        f.assign(s, *value);
}

/// A per-layer list of at most maxLayers values from 0 (when `zero`) or 1
/// to `max`: the dense MLP widths, the compression ratios.
std::vector<std::uint64_t> readLayerList(JsonReader &r, const char *key, bool zero, std::uint64_t max)
{
    std::vector<std::uint64_t> values;
    if (!r.has(key))
        return values;
    const Json &list = r.json().at(key);
    if (!list.is_array() || list.size() > ModelLimits::maxLayers) {
        r.error(key, "expected a list of at most " + std::to_string(ModelLimits::maxLayers) + " values");
        return values;
    }
    for (const Json &v : list) {
        const bool ok = v.is_number_unsigned() && (zero || v.get<std::uint64_t>() > 0) && v.get<std::uint64_t>() <= max;
        if (!ok) {
            r.error(key, "expected values from " + std::to_string(zero ? 0 : 1) + " to " + std::to_string(max));
            return {};
        }
        values.push_back(v.get<std::uint64_t>());
    }
    return values;
}

/// The layer scopes as scenario files spell them.
const std::pair<LayerScope, const char *> kScopeNames[] = {
    {LayerScope::AllLayers, "all"},        {LayerScope::AttentionLayers, "attention"},
    {LayerScope::WindowedAttentionLayers, "windowed_attention"}, {LayerScope::LinearLayers, "linear_attention"},
    {LayerScope::MambaLayers, "mamba"},    {LayerScope::DenseLayers, "dense_mlp"},
    {LayerScope::MoeLayers, "moe"},
};

/// checkpoint_partial_targets (or checkpoint_rest_partial_targets):
/// [{"scope": "mamba", "target": 1, "quantized_layers": 17}, ...].
std::vector<PartialQuantization> readPartialTargets(JsonReader &r, const char *key)
{
    std::vector<PartialQuantization> partial;
    if (!r.has(key))
        return partial;
    const Json &list = r.json().at(key);
    // One entry per scope and QuantTarget kind (eight) at most.
    const std::size_t most = std::size(kScopeNames) * 8;
    if (!list.is_array() || list.size() > most) {
        r.error(key, "expected a list of at most " + std::to_string(most) + " scope, target and layer-count entries");
        return partial;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_object()) {
            r.error(key, "expected objects with scope, target and quantized_layers");
            return {};
        }
        std::vector<std::string> errors;
        JsonReader entry(list[i], r.pointerOf(key) + "/" + std::to_string(i), errors);
        PartialQuantization p;
        const std::string scope = entry.string("scope", true).value_or("");
        const auto named = std::find_if(std::begin(kScopeNames), std::end(kScopeNames),
                                        [&](const auto &n) { return scope == n.second; });
        p.target = static_cast<unsigned>(entry.uint("target", 1, kQuantEmbedding, true).value_or(0));
        p.quantizedLayers = entry.uint("quantized_layers", 0, ModelLimits::maxLayers, true).value_or(0);
        if (named == std::end(kScopeNames) || (p.target & (p.target - 1)) != 0 || !errors.empty()) {
            r.error(key, "entry " + std::to_string(i) + " needs a scope (all, attention, mamba, moe ...), one "
                             "quantisation target bit and a layer count");
            return {};
        }
        p.scope = named->first;
        partial.push_back(p);
    }
    return partial;
}

Json partialTargetsJson(const std::vector<PartialQuantization> &partial)
{
    Json list = Json::array();
    for (const PartialQuantization &p : partial) {
        const auto named = std::find_if(std::begin(kScopeNames), std::end(kScopeNames),
                                        [&](const auto &n) { return p.scope == n.first; });
        list.push_back({{"scope", named != std::end(kScopeNames) ? named->second : "all"},
                        {"target", p.target},
                        {"quantized_layers", p.quantizedLayers}});
    }
    return list;
}

ModelSpec readModel(JsonReader &r)
{
    ModelSpec m;
    m.name = r.string("name", false).value_or("");
    m.family = r.string("family", false).value_or("");
    for (const UintField &f : kUintFields)
        if (auto v = r.uint(f.key, f.min, f.max, f.min > 0))
            m.*f.member = *v;
    for (const BoolField &f : kBoolFields)
        if (auto v = r.boolean(f.key, false))
            m.*f.member = *v;
    for (const NumberField &f : kNumberFields)
        if (auto v = r.number(f.key, 0, 1, false))
            m.*f.member = *v;
    // Files saved before attending_mamba_layers said Falcon-H1's layout as
    // a flag: every Mamba layer attends.
    if (!r.has("attending_mamba_layers") && r.boolean("mamba_beside_attention", false).value_or(false))
        m.attendingMambaLayers = m.mambaLayers;
    for (const KeyListField &f : kKeyListFields)
        m.*f.member = r.strings(f.key, 4096);
    m.mlpWidths = readLayerList(r, "mlp_widths", false, ModelLimits::maxWidth);
    m.compressRatios = readLayerList(r, "compress_ratios", true, ModelLimits::maxPositions);
    const auto norm = r.string("norm", false).value_or("rmsnorm");
    if (norm != "rmsnorm" && norm != "layernorm")
        r.error("norm", "'" + norm + "' is not rmsnorm or layernorm");
    m.norm = norm == "layernorm" ? NormKind::LayerNorm : NormKind::RmsNorm;
    m.normsPerLayer = static_cast<int>(r.uint("norms_per_layer", 0, 8, false).value_or(2));
    m.activationSavedTensors = static_cast<int>(r.uint("activation_saved_tensors", 0, 16, false).value_or(1));
    m.torchDtype = r.string("torch_dtype", false).value_or("");
    // "experts_mxfp4": files written before checkpoint formats were read.
    m.checkpointFormat = r.boolean("experts_mxfp4", false).value_or(false)
        ? "mxfp4"
        : r.string("checkpoint_format", false).value_or("");
    if (!m.checkpointFormat.empty() && !parseWeightFormat(m.checkpointFormat))
        r.error("checkpoint_format", "'" + m.checkpointFormat + "' is not a weight format");
    m.checkpointGroupSize = static_cast<int>(r.uint("checkpoint_group_size", 0, 1u << 20, false).value_or(0));
    m.checkpointRestFormat = r.string("checkpoint_rest_format", false).value_or("");
    if (!m.checkpointRestFormat.empty() && !parseWeightFormat(m.checkpointRestFormat))
        r.error("checkpoint_rest_format", "'" + m.checkpointRestFormat + "' is not a weight format");
    m.checkpointQuantizedTargets =
        r.uint("checkpoint_quantized_targets", 0, 0xff, false).value_or(0);
    m.checkpointPartialTargets = readPartialTargets(r, "checkpoint_partial_targets");
    m.checkpointRestTargets = r.uint("checkpoint_rest_targets", 0, 0xff, false).value_or(0);
    m.checkpointRestPartialTargets = readPartialTargets(r, "checkpoint_rest_partial_targets");
    if (auto moe = r.object("moe", false)) {
        m.moe.experts = static_cast<int>(moe->uint("experts", 0, 1u << 16, false).value_or(0));
        m.moe.expertsPerToken = static_cast<int>(moe->uint("experts_per_token", 0, 1u << 16, false).value_or(0));
        m.moe.sharedExperts = static_cast<int>(moe->uint("shared_experts", 0, 1024, false).value_or(0));
        m.moe.expertIntermediate = moe->uint("expert_intermediate_size", 0, ModelLimits::maxWidth, false).value_or(0);
        // "first_dense_layers": files written before Llama 4's interleaving.
        const char *dense = moe->has("first_dense_layers") ? "first_dense_layers" : "dense_layers";
        m.moe.denseLayers = static_cast<int>(moe->uint(dense, 0, ModelLimits::maxLayers, false).value_or(0));
        m.moe.routerBias = moe->boolean("router_bias", false).value_or(false);
        m.moe.expertBias = moe->boolean("expert_bias", false).value_or(false);
        m.moe.sharedExpertGate = moe->boolean("shared_expert_gate", false).value_or(false);
        m.moe.withDenseMlp = moe->boolean("with_dense_mlp", false).value_or(false);
        m.moe.routerScales = moe->boolean("router_scales", false).value_or(false);
        m.moe.latentWidth = moe->uint("latent_width", 0, ModelLimits::maxWidth, false).value_or(0);
        m.moe.latentNorm = moe->boolean("latent_norm", false).value_or(false);
        if (m.moe.experts > 0 && (m.moe.expertsPerToken < 1 || m.moe.expertsPerToken > m.moe.experts))
            moe->error("experts_per_token", "must be between 1 and experts");
    }
    if (m.kvHeads > m.heads)
        r.error("kv_heads", "exceeds heads");
    const std::uint64_t windowedKv = m.slidingKvHeads > 0 ? m.slidingKvHeads : m.kvHeads;
    if (m.slidingHeads > 0 && windowedKv > 0 && m.slidingHeads % windowedKv != 0)
        r.error("sliding_heads", "must be a multiple of the windowed layers' key-value heads");
    if (!m.compressRatios.empty() && m.compressRatios.size() != m.layers)
        r.error("compress_ratios", "has " + std::to_string(m.compressRatios.size()) + " ratios for "
                                       + std::to_string(m.layers) + " layers");
    else if (distinctRatios(m.compressRatios) > kMaxCacheGroups)
        r.error("compress_ratios", "holds more than " + std::to_string(kMaxCacheGroups) + " different ratios");
    if (!m.mlpWidths.empty() && m.mlpWidths.size() != m.denseMlpLayers())
        r.error("mlp_widths", "has " + std::to_string(m.mlpWidths.size()) + " widths for "
                                  + std::to_string(m.denseMlpLayers()) + " dense MLP layers");
    return m;
}

} // namespace

Json modelToJson(const ModelSpec &m)
{
    Json j;
    j["name"] = m.name;
    j["family"] = m.family;
    for (const UintField &f : kUintFields)
        j[f.key] = m.*f.member;
    for (const BoolField &f : kBoolFields)
        j[f.key] = m.*f.member;
    for (const NumberField &f : kNumberFields)
        j[f.key] = m.*f.member;
    for (const KeyListField &f : kKeyListFields)
        j[f.key] = m.*f.member;
    if (!m.mlpWidths.empty())
        j["mlp_widths"] = m.mlpWidths;
    if (!m.compressRatios.empty())
        j["compress_ratios"] = m.compressRatios;
    j["norm"] = m.norm == NormKind::LayerNorm ? "layernorm" : "rmsnorm";
    j["norms_per_layer"] = m.normsPerLayer;
    j["activation_saved_tensors"] = m.activationSavedTensors;
    j["torch_dtype"] = m.torchDtype;
    j["checkpoint_format"] = m.checkpointFormat;
    j["checkpoint_group_size"] = m.checkpointGroupSize;
    if (!m.checkpointRestFormat.empty())
        j["checkpoint_rest_format"] = m.checkpointRestFormat;
    j["checkpoint_quantized_targets"] = m.checkpointQuantizedTargets;
    if (!m.checkpointPartialTargets.empty())
        j["checkpoint_partial_targets"] = partialTargetsJson(m.checkpointPartialTargets);
    if (m.namesRestModules()) {
        j["checkpoint_rest_targets"] = m.checkpointRestTargets;
        j["checkpoint_rest_partial_targets"] = partialTargetsJson(m.checkpointRestPartialTargets);
    }
    j["moe"] = {{"experts", m.moe.experts},
                {"experts_per_token", m.moe.expertsPerToken},
                {"shared_experts", m.moe.sharedExperts},
                {"expert_intermediate_size", m.moe.expertIntermediate},
                {"dense_layers", m.moe.denseLayers},
                {"router_bias", m.moe.routerBias},
                {"expert_bias", m.moe.expertBias},
                {"shared_expert_gate", m.moe.sharedExpertGate},
                {"with_dense_mlp", m.moe.withDenseMlp},
                {"router_scales", m.moe.routerScales},
                {"latent_width", m.moe.latentWidth},
                {"latent_norm", m.moe.latentNorm}};
    return j;
}

namespace {

/// [file, device] bytes, then the host copies of each CPU build in
/// allCpuBuilds' order (files saved before they existed have none).
PlacedBytes readPlaced(const Json &group, JsonReader &r, const char *key)
{
    const bool counts = group.is_array()
        && std::all_of(group.begin(), group.end(), [](const Json &n) { return n.is_number_unsigned(); });
    if (!counts || (group.size() != 2 && group.size() != 2 + kCpuBuilds)) {
        r.error(key, "expected [file bytes, device bytes, and the host copies of each CPU build]");
        return {};
    }
    PlacedBytes p{group[0].get<std::uint64_t>(), group[1].get<std::uint64_t>(), {}};
    for (std::size_t b = 0; b + 2 < group.size(); ++b)
        p.hostCopies[b] = group[b + 2].get<std::uint64_t>();
    return p;
}

Json placedToJson(const PlacedBytes &p)
{
    Json group = Json::array({p.file, p.device});
    for (const std::uint64_t copies : p.hostCopies)
        group.push_back(copies);
    return group;
}

GgufPlacement readPlacement(JsonReader &r)
{
    GgufPlacement p;
    for (const auto &[key, group] : {std::pair{"input", &p.input}, std::pair{"output", &p.output}})
        if (r.has(key))
            *group = readPlaced(r.json().at(key), r, key);
    const Json *layers = r.has("layers") ? &r.json().at("layers") : nullptr;
    if (!layers || !layers->is_array() || layers->size() > ModelLimits::maxLayers) {
        r.error("layers", "expected an array of at most " + std::to_string(ModelLimits::maxLayers) + " layers");
        return p;
    }
    for (const Json &layer : *layers)
        p.layers.push_back(readPlaced(layer, r, "layers"));
    if (r.has("experts") && r.json().at("experts").is_array() && r.json().at("experts").size() == p.layers.size())
        for (const Json &layer : r.json().at("experts"))
            p.experts.push_back(readPlaced(layer, r, "experts"));
    else
        p.experts.resize(p.layers.size()); // files written before --n-cpu-moe was modelled
    return p;
}

CheckpointWeights readCheckpoint(JsonReader &r, std::vector<std::string> &errors)
{
    constexpr std::uint64_t kMax = ~0ull;
    CheckpointWeights c;
    c.path = r.string("path", true).value_or("");
    c.format = r.string("format", true).value_or("");
    if (c.format != "safetensors" && c.format != "gguf")
        r.error("format", "'" + c.format + "' is not safetensors or gguf");
    c.files = r.uint("files", 0, 1u << 20, false).value_or(0);
    c.skippedTensors = r.uint("skipped_tensors", 0, kMax, false).value_or(0);
    c.skippedBytes = r.uint("skipped_bytes", 0, kMax, false).value_or(0);
    if (!r.has("loaded") || !r.json().at("loaded").is_array() || r.json().at("loaded").size() > 256) {
        r.error("loaded", "expected an array of at most 256 dtype totals");
        return c;
    }
    const Json &loaded = r.json().at("loaded");
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        JsonReader d(loaded[i], r.pointerOf("loaded") + "/" + std::to_string(i), errors);
        c.loaded.push_back({d.string("dtype", true).value_or(""), d.uint("tensors", 0, kMax, true).value_or(0),
                            d.uint("elements", 0, kMax, true).value_or(0), d.uint("bytes", 0, kMax, true).value_or(0)});
    }
    if (auto placement = r.object("placement", false))
        c.placement = readPlacement(*placement);
    return c;
}

} // namespace

Json checkpointToJson(const CheckpointWeights &c)
{
    Json loaded = Json::array();
    for (const DtypeTotal &d : c.loaded)
        loaded.push_back({{"dtype", d.dtype}, {"tensors", d.tensors}, {"elements", d.elements}, {"bytes", d.bytes}});
    Json j = {{"path", c.path},       {"format", c.format},
              {"files", c.files},     {"loaded", loaded},
              {"skipped_tensors", c.skippedTensors}, {"skipped_bytes", c.skippedBytes}};
    if (c.placement) {
        const auto list = [](const std::vector<PlacedBytes> &groups) {
            Json items = Json::array();
            for (const PlacedBytes &group : groups)
                items.push_back(placedToJson(group));
            return items;
        };
        j["placement"] = {{"input", placedToJson(c.placement->input)},
                          {"output", placedToJson(c.placement->output)},
                          {"layers", list(c.placement->layers)},
                          {"experts", list(c.placement->experts)}};
    }
    return j;
}

Json scenarioToJson(const Scenario &s)
{
    Json j;
    Json source;
    switch (s.source.kind) {
    case ModelSource::Kind::Preset:
        source = {{"kind", "preset"}, {"preset", s.source.presetId}};
        break;
    case ModelSource::Kind::ConfigFile:
        source = {{"kind", "config"}, {"path", s.source.configPath}};
        break;
    case ModelSource::Kind::ParameterCount:
        source = {{"kind", "params"}, {"params", s.source.parameters}};
        break;
    }
    j["model"] = source;
    for (const FieldDescriptor &f : allFields())
        if (!f.isShorthand())
            fieldSlot(j, f) = fieldToJson(f, f.effective(s));
    return j;
}

std::string saveScenario(const Scenario &s)
{
    Json j;
    j["schema_version"] = kScenarioSchemaVersion;
    j["kind"] = "vramplanner-scenario";
    const Json inputs = scenarioToJson(s);
    for (auto it = inputs.begin(); it != inputs.end(); ++it)
        j[it.key()] = it.value();
    // Defaults that follow other inputs (the mode, the training stack) stay
    // defaults in the file, so that a reopened scenario still follows them;
    // reports show the values in effect.
    for (const FieldDescriptor &f : allFields())
        if (!f.isShorthand())
            fieldSlot(j, f) = fieldToJson(f, f.stored(s));
    j["architecture"] = modelToJson(s.model);
    if (s.checkpoint)
        j["checkpoint"] = checkpointToJson(*s.checkpoint);
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void resolveDraft(Scenario &s, const std::vector<ModelPreset> &presets)
{
    if (!s.draft.isSet() || s.draft.model)
        return;
    if (const ModelPreset *preset = findPresetIn(presets, s.draft.presetId))
        s.draft.model = preset->model;
}

LoadResult<Scenario> loadScenario(const std::string &text, const std::vector<ModelPreset> &presets)
{
    LoadResult<Scenario> result;
    const std::optional<Json> json = parseJson(text, result.errors);
    if (!json)
        return result;
    if (!json->is_object()) {
        result.errors.push_back("/: expected a scenario object");
        return result;
    }
    JsonReader r(*json, "", result.errors);
    const auto version = r.uint("schema_version", 1, 1000000, true);
    if (!version)
        return result;
    if (*version != static_cast<std::uint64_t>(kScenarioSchemaVersion)) {
        r.error("schema_version", "is " + std::to_string(*version) + "; this version of VRAM Planner reads "
                                      + std::to_string(kScenarioSchemaVersion));
        return result;
    }
    if (r.string("kind", false).value_or("vramplanner-scenario") != "vramplanner-scenario")
        r.error("kind", "is not 'vramplanner-scenario'");

    Scenario s;
    if (auto model = r.object("model", true)) {
        const std::string kind = model->string("kind", true).value_or("");
        if (kind == "preset") {
            s.source.kind = ModelSource::Kind::Preset;
            s.source.presetId = model->string("preset", true).value_or("");
        } else if (kind == "config") {
            s.source.kind = ModelSource::Kind::ConfigFile;
            s.source.configPath = model->string("path", true).value_or("");
        } else if (kind == "params") {
            s.source.kind = ModelSource::Kind::ParameterCount;
            s.source.parameters = model->uint("params", 1, ScenarioLimits::maxParameters, true).value_or(0);
        } else if (!kind.empty()) {
            model->error("kind", "'" + kind + "' is not preset, config or params");
        }
    }
    if (auto arch = r.object("architecture", false)) {
        s.model = readModel(*arch);
    } else if (s.source.kind == ModelSource::Kind::Preset) {
        if (const ModelPreset *preset = findPresetIn(presets, s.source.presetId))
            s.model = preset->model;
        else
            r.error("model", "preset '" + s.source.presetId + "' is unknown and no architecture is saved");
    } else if (s.source.kind == ModelSource::Kind::ParameterCount) {
        s.model = modelFromParameterCount(s.source.parameters);
    } else {
        r.error("architecture", "missing; a config-file scenario must carry its architecture");
    }
    if (auto checkpoint = r.object("checkpoint", false))
        s.checkpoint = readCheckpoint(*checkpoint, result.errors);

    for (const FieldDescriptor &f : allFields())
        readField(r, f, s);
    // The draft is saved as its preset id ("draft": {"preset": ...}) and
    // resolved like the model's own preset source above.
    resolveDraft(s, presets);

    if (!result.errors.empty())
        return result;
    for (const std::string &e : validateScenario(s))
        result.errors.push_back("/" + e);
    if (result.errors.empty())
        result.value = std::move(s);
    return result;
}

} // namespace core::io
