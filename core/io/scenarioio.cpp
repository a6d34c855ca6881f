#include "core/io/scenarioio.h"

#include "core/io/scenariojson.h"
#include "core/stack.h"

#include <cmath>

namespace core::io {

namespace {

// The architecture's fields, listed once for writing and reading.
struct UintField { const char *key; std::uint64_t ModelSpec::*member; std::uint64_t min; std::uint64_t max; };
struct BoolField { const char *key; bool ModelSpec::*member; };
struct NumberField { const char *key; double ModelSpec::*member; };

const UintField kUintFields[] = {
    {"hidden_size", &ModelSpec::hidden, 1, 1u << 24},
    {"layers", &ModelSpec::layers, 1, 100000},
    {"heads", &ModelSpec::heads, 1, 1u << 24},
    {"kv_heads", &ModelSpec::kvHeads, 1, 1u << 24},
    {"head_dim", &ModelSpec::headDim, 1, 1u << 24},
    {"intermediate_size", &ModelSpec::intermediate, 0, 1u << 24},
    {"vocab_size", &ModelSpec::vocab, 1, 1u << 26},
    {"learned_positions", &ModelSpec::learnedPositions, 0, 1u << 24},
    {"token_types", &ModelSpec::tokenTypes, 0, 1u << 20},
    {"max_positions", &ModelSpec::maxPositions, 0, 1ull << 32},
    {"sliding_window", &ModelSpec::slidingWindow, 0, 1ull << 32},
    {"sliding_layers", &ModelSpec::slidingLayers, 0, 100000},
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
    {"experts_mxfp4", &ModelSpec::expertsMxfp4},
};

const NumberField kNumberFields[] = {
    {"attention_dropout", &ModelSpec::attentionDropout},
    {"hidden_dropout", &ModelSpec::hiddenDropout},
};

std::optional<std::string> enumString(JsonReader &r, const char *key, const char *fallback)
{
    if (!r.has(key))
        return std::string(fallback);
    return r.string(key, true);
}

template <typename T, typename Parse>
void readEnum(JsonReader &r, const char *key, const char *fallback, Parse parse, T &target, const char *expected)
{
    const auto text = enumString(r, key, fallback);
    if (!text)
        return;
    if (const auto value = parse(*text))
        target = *value;
    else
        r.error(key, "'" + *text + "' is not one of " + expected);
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
    const auto norm = r.string("norm", false).value_or("rmsnorm");
    if (norm != "rmsnorm" && norm != "layernorm")
        r.error("norm", "'" + norm + "' is not rmsnorm or layernorm");
    m.norm = norm == "layernorm" ? NormKind::LayerNorm : NormKind::RmsNorm;
    m.normsPerLayer = static_cast<int>(r.uint("norms_per_layer", 0, 8, false).value_or(2));
    m.activationSavedTensors = static_cast<int>(r.uint("activation_saved_tensors", 0, 16, false).value_or(1));
    m.torchDtype = r.string("torch_dtype", false).value_or("");
    if (auto moe = r.object("moe", false)) {
        m.moe.experts = static_cast<int>(moe->uint("experts", 0, 1u << 16, false).value_or(0));
        m.moe.expertsPerToken = static_cast<int>(moe->uint("experts_per_token", 0, 1u << 16, false).value_or(0));
        m.moe.sharedExperts = static_cast<int>(moe->uint("shared_experts", 0, 1024, false).value_or(0));
        m.moe.expertIntermediate = moe->uint("expert_intermediate_size", 0, 1u << 24, false).value_or(0);
        m.moe.firstDenseLayers = static_cast<int>(moe->uint("first_dense_layers", 0, 100000, false).value_or(0));
        m.moe.routerBias = moe->boolean("router_bias", false).value_or(false);
        m.moe.expertBias = moe->boolean("expert_bias", false).value_or(false);
        if (m.moe.experts > 0 && (m.moe.expertsPerToken < 1 || m.moe.expertsPerToken > m.moe.experts))
            moe->error("experts_per_token", "must be between 1 and experts");
    }
    if (m.kvHeads > m.heads)
        r.error("kv_heads", "exceeds heads");
    return m;
}

std::string formatList()
{
    std::string list;
    for (const FormatInfo &f : allFormats())
        list += (list.empty() ? "" : ", ") + std::string(f.id);
    return list;
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
    j["norm"] = m.norm == NormKind::LayerNorm ? "layernorm" : "rmsnorm";
    j["norms_per_layer"] = m.normsPerLayer;
    j["activation_saved_tensors"] = m.activationSavedTensors;
    j["torch_dtype"] = m.torchDtype;
    j["moe"] = {{"experts", m.moe.experts},
                {"experts_per_token", m.moe.expertsPerToken},
                {"shared_experts", m.moe.sharedExperts},
                {"expert_intermediate_size", m.moe.expertIntermediate},
                {"first_dense_layers", m.moe.firstDenseLayers},
                {"router_bias", m.moe.routerBias},
                {"expert_bias", m.moe.expertBias}};
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
    j["mode"] = modeId(s.mode);
    j["weights"] = formatInfo(s.effectiveWeights()).id;
    j["group_size"] = s.groupSize;
    j["quantize_embeddings"] = s.quantizeEmbeddings;
    j["regime"] = regimeId(s.regime);
    j["optimizer"] = optimizerInfo(s.optimizer).id;
    j["optimizer_impl"] = optimizerImplId(s.optimizerImpl);
    j["stack"] = stackInfo(s.stack).id;
    j["bitsandbytes"] = bitsandbytesVersionId(s.bitsandbytes);
    j["batch"] = s.batch;
    j["sequence"] = s.sequence;
    j["grad_accum"] = s.gradAccum;
    j["checkpointing"] = checkpointingId(s.effectiveCheckpointing());
    j["attention"] = attentionId(s.attention);
    Json targets = Json::array();
    for (LinearSlot slot : s.lora.targets)
        targets.push_back(linearSlotId(slot));
    j["lora"] = {{"rank", s.lora.rank}, {"alpha", s.lora.alpha}, {"targets", targets},
                 {"dropout", s.effectiveLoraDropout()}};
    j["kv_dtype"] = s.kvDtype ? Json(formatInfo(*s.kvDtype).id) : Json(nullptr);
    j["logits"] = logitsId(s.effectiveLogits());
    j["gpu_memory_utilization"] = s.gpuMemoryUtilization;
    j["serving"] = {{"engine", servingEngineId(s.serving)},
                    {"max_num_batched_tokens", s.maxBatchedTokens},
                    {"max_num_seqs", s.maxNumSeqs}};
    j["gpus"] = s.gpus;
    j["zero"] = s.zeroStage;
    j["parallel"] = {{"tp", s.parallel.tp},
                     {"pp", s.parallel.pp},
                     {"ep", s.parallel.ep},
                     {"sp", s.parallel.sequenceParallel},
                     {"interleave", s.parallel.interleave},
                     {"offload", offloadId(s.parallel.offload)},
                     {"gpus_per_node", s.parallel.gpusPerNode},
                     {"hybrid_shard", s.parallel.hybridShard}};
    j["workload"] = {{"tokens", s.workload.trainingTokens},
                     {"mfu", s.workload.mfu},
                     {"price_per_gpu_hour", s.workload.pricePerGpuHour},
                     {"inter_node_gb_per_s", s.workload.interNodeGBps}};
    j["gpu"] = s.gpuId;
    j["cuda_overhead_mib"] = s.cudaOverheadMib ? Json(*s.cudaOverheadMib) : Json(nullptr);
    j["cuda_loading"] = cudaLoadingId(s.cudaLoading);
    j["reserve_percent"] = s.reservePercent;
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
    if (!s.weights)
        j["weights"] = nullptr;
    if (!s.checkpointing)
        j["checkpointing"] = nullptr;
    if (!s.logits)
        j["logits"] = nullptr;
    if (!s.lora.dropout)
        j["lora"]["dropout"] = nullptr;
    j["architecture"] = modelToJson(s.model);
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
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
        bool found = false;
        for (const ModelPreset &p : presets)
            if (p.id == s.source.presetId) {
                s.model = p.model;
                found = true;
            }
        if (!found)
            r.error("model", "preset '" + s.source.presetId + "' is unknown and no architecture is saved");
    } else if (s.source.kind == ModelSource::Kind::ParameterCount) {
        s.model = modelFromParameterCount(s.source.parameters);
    } else {
        r.error("architecture", "missing; a config-file scenario must carry its architecture");
    }

    const std::string formats = formatList();
    readEnum(r, "mode", "inference", parseMode, s.mode, "inference, train, lora, qlora");
    if (r.has("weights")) {
        WeightFormat w = WeightFormat::Bf16;
        readEnum(r, "weights", "bf16", parseFormat, w, formats.c_str());
        s.weights = w;
    }
    s.groupSize = static_cast<int>(r.uint("group_size", 1, ScenarioLimits::maxGroupSize, false).value_or(128));
    s.quantizeEmbeddings = r.boolean("quantize_embeddings", false).value_or(false);
    readEnum(r, "regime", "mixed", parseRegime, s.regime, "fp32, amp, mixed, deepspeed, bf16-pure");
    readEnum(r, "optimizer", "adamw", parseOptimizer, s.optimizer, "a known optimizer (see vramplanner-cli --help)");
    readEnum(r, "optimizer_impl", "auto", parseOptimizerImpl, s.optimizerImpl, "auto, foreach, fused, loop");
    s.batch = r.uint("batch", 1, ScenarioLimits::maxBatch, false).value_or(1);
    s.sequence = r.uint("sequence", 1, ScenarioLimits::maxSequence, false).value_or(2048);
    s.gradAccum = r.uint("grad_accum", 1, ScenarioLimits::maxGradAccum, false).value_or(1);
    if (r.has("checkpointing")) {
        Checkpointing checkpointing = Checkpointing::None;
        readEnum(r, "checkpointing", "none", parseCheckpointing, checkpointing, "none, selective, full");
        s.checkpointing = checkpointing;
    }
    readEnum(r, "stack", "hf", parseStack, s.stack, "hf, torchtune, litgpt");
    readEnum(r, "bitsandbytes", "current", parseBitsandbytesVersion, s.bitsandbytes, "current, legacy");
    readEnum(r, "attention", "sdpa", parseAttention, s.attention, "eager, sdpa, flash");
    if (auto lora = r.object("lora", false)) {
        s.lora.rank = static_cast<int>(lora->uint("rank", 1, ScenarioLimits::maxLoraRank, false).value_or(16));
        s.lora.alpha = lora->number("alpha", 1e-6, 1e9, false).value_or(32);
        s.lora.dropout = lora->number("dropout", 0, ScenarioLimits::maxLoraDropout, false);
        if (lora->has("targets")) {
            const Json &targets = lora->json().at("targets");
            if (!targets.is_array()) {
                lora->error("targets", "expected an array of q, k, v, o, gate, up, down");
            } else {
                s.lora.targets.clear();
                for (const Json &t : targets) {
                    const auto slot = t.is_string() ? parseLinearSlot(t.get<std::string>()) : std::nullopt;
                    if (slot)
                        s.lora.targets.push_back(*slot);
                    else
                        lora->error("targets", "has an entry that is not one of q, k, v, o, gate, up, down");
                }
            }
        }
    }
    if (r.has("kv_dtype")) {
        WeightFormat kv = WeightFormat::Bf16;
        readEnum(r, "kv_dtype", "bf16", parseFormat, kv, formats.c_str());
        s.kvDtype = kv;
    }
    if (r.has("logits")) {
        LogitsMode logits = LogitsMode::Fp32;
        readEnum(r, "logits", "fp32", parseLogits, logits, "fp32, fp32-shift, native, chunked, fused, last");
        s.logits = logits;
    }
    s.gpuMemoryUtilization = r.number("gpu_memory_utilization", 0.01, 1, false).value_or(0.9);
    if (auto serving = r.object("serving", false)) {
        readEnum(*serving, "engine", "hf", parseServingEngine, s.serving, "hf, vllm");
        s.maxBatchedTokens = serving->uint("max_num_batched_tokens", 1, ScenarioLimits::maxSequence, false).value_or(8192);
        s.maxNumSeqs = serving->uint("max_num_seqs", 1, ScenarioLimits::maxBatch, false).value_or(256);
    }
    s.gpus = static_cast<int>(r.uint("gpus", 1, static_cast<std::uint64_t>(ScenarioLimits::maxGpus), false).value_or(1));
    s.zeroStage = static_cast<int>(r.uint("zero", 0, 3, false).value_or(0));
    if (auto p = r.object("parallel", false)) {
        s.parallel.tp = static_cast<int>(p->uint("tp", 1, ScenarioLimits::maxTp, false).value_or(1));
        s.parallel.pp = static_cast<int>(p->uint("pp", 1, ScenarioLimits::maxPp, false).value_or(1));
        s.parallel.ep = static_cast<int>(p->uint("ep", 1, ScenarioLimits::maxEp, false).value_or(1));
        s.parallel.sequenceParallel = p->boolean("sp", false).value_or(false);
        s.parallel.interleave = static_cast<int>(p->uint("interleave", 1, ScenarioLimits::maxInterleave, false).value_or(1));
        readEnum(*p, "offload", "none", parseOffload, s.parallel.offload, "none, optimizer, params");
        s.parallel.gpusPerNode =
            static_cast<int>(p->uint("gpus_per_node", 1, ScenarioLimits::maxGpusPerNode, false).value_or(8));
        s.parallel.hybridShard = p->boolean("hybrid_shard", false).value_or(false);
    }
    if (auto w = r.object("workload", false)) {
        s.workload.trainingTokens = w->number("tokens", 0, 1e16, false).value_or(0);
        s.workload.mfu = w->number("mfu", 1e-6, 1, false).value_or(0.4);
        s.workload.pricePerGpuHour = w->number("price_per_gpu_hour", 0, 1e6, false).value_or(0);
        s.workload.interNodeGBps = w->number("inter_node_gb_per_s", 1e-3, 1e5, false).value_or(50);
    }
    s.gpuId = r.string("gpu", false).value_or("");
    s.cudaOverheadMib = r.number("cuda_overhead_mib", 0, ScenarioLimits::maxCudaOverheadMib, false);
    readEnum(r, "cuda_loading", "lazy", parseCudaLoading, s.cudaLoading, "lazy, eager");
    s.reservePercent = r.number("reserve_percent", 0, 99.9, false).value_or(5.0);

    if (!result.errors.empty())
        return result;
    for (const std::string &e : validateScenario(s))
        result.errors.push_back("/" + e);
    if (result.errors.empty())
        result.value = std::move(s);
    return result;
}

} // namespace core::io
