#include "core/io/reportjson.h"

#include "core/analysis/llamafit.h"
#include "core/analysis/performance.h"
#include "core/analysis/suggest.h"
#include "core/explain/explain.h"
#include "core/explain/report.h"
#include "core/explain/servingplanreport.h"
#include "core/io/scenariojson.h"
#include "core/memory/deepspeed.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"

#include <algorithm>
#include <cmath>

namespace core::io {

namespace {

/// Every library release the run uses ("current" where unset) and each
/// default a release changed that the scenario's stack reads: whether its
/// versions meet the release, and the default that follows.
Json libraryVersionsJson(const Scenario &s)
{
    Json versions = Json::object();
    for (const LibraryInfo &info : allLibraries()) {
        const auto &v = s.versions.of(info.library);
        versions[info.id] = v ? versionText(*v) : "current";
    }
    Json rules = Json::array();
    for (const VersionRuleUse &use : versionRulesUsed(s)) {
        const VersionRuleInfo &r = *use.rule;
        std::string since = std::string(libraryInfo(r.library).id) + " " + versionText(r.since);
        if (r.alsoLibrary)
            since += " with " + std::string(libraryInfo(*r.alsoLibrary).id) + " " + versionText(r.alsoSince);
        rules.push_back({{"rule", r.id},
                         {"since", since},
                         {"holds", use.holds},
                         {"default", use.holds ? r.after : r.before},
                         {"source", r.source}});
    }
    return {{"libraries", versions}, {"rules", rules}};
}

/// Warnings in English: the JSON report is data for programs.
std::vector<std::string> renderAll(const std::vector<Message> &messages)
{
    std::vector<std::string> texts;
    for (const Message &m : messages)
        texts.push_back(render(m));
    return texts;
}

Json termsJson(const TermBytes &terms, Bytes total)
{
    Json j = Json::object();
    for (TermId id : allTerms())
        j[termId(id)] = terms[static_cast<std::size_t>(id)].count();
    j["total"] = total.count();
    return j;
}

/// A training step's parts by id ("pipeline_bubble"), seconds; they add up
/// to step_seconds.
Json stepPartsJson(const StepTime &step)
{
    Json j = Json::object();
    for (StepPart part : allStepParts())
        j[stepPartId(part)] = step[part];
    return j;
}

/// A mixed device set (--devices): each GPU's share and fit, in split order;
/// null without one.
Json deviceSetJson(const DeviceSetFit &set)
{
    if (set.devices.empty())
        return nullptr;
    Json devices = Json::array();
    for (const DeviceFit &device : set.devices)
        devices.push_back({{"id", device.gpuId},
                           {"memory_bytes", device.capacity.count()},
                           {"per_gpu_bytes", termsJson(device.terms, device.total)},
                           {"fits", device.fits},
                           {"headroom_bytes", device.headroomBytes()},
                           {"layers", device.layers},
                           {"kv_tokens", set.hasKvTokens ? Json(device.kvTokens) : Json(nullptr)}});
    return {{"fits", set.fits},
            {"kv_tokens", set.hasKvTokens ? Json(set.kvTokens) : Json(nullptr)},
            {"list", devices},
            {"notes", renderAll(set.notes)}};
}

Json optionalNumber(const std::optional<double> &value)
{
    return value ? Json(*value) : Json(nullptr);
}

/// Why a GPU is short of "fits" (null when it fits): how far over, the
/// sentence, and where no count fits, what blocks: each GPU's terms split
/// as far as it goes, largest first. Where more GPUs fit nothing blocks
/// (the scenario's own terms are per_gpu_bytes).
Json whyJson(FitSearch &search, const Estimate &e, const GpuFit &fit)
{
    const auto reason = search.reasonFor(e, fit);
    if (!reason)
        return nullptr;
    Json blocking = Json::array();
    if (reason->splitFloor())
        for (const auto &[term, bytes] : reason->blocking)
            blocking.push_back({{"term", termId(term)}, {"bytes", bytes.count()}});
    return {{"blocking", std::move(blocking)},
            {"gpus", reason->gpus},
            {"split_as_far_as_it_goes", reason->splitFloor()},
            {"per_gpu_bytes", reason->total.count()},
            {"shortfall_bytes", reason->over.count()},
            {"text", fitReasonText(*reason, ByteUnit::GiB)}};
}

/// The changes that make it fit (empty when it fits): each a set of field
/// ids and values as the registry writes them, the per-GPU total and GPU
/// count with them, whether it is a pair (found where nothing alone fits),
/// and what found it.
Json whatWouldFitJson(const Scenario &s, FitSearch &search, const GpuFit &fit)
{
    Json found = Json::array();
    for (const FitSuggestion &suggestion : search.suggestionsFor(fit)) {
        Json changes = Json::object();
        int gpus = s.gpus;
        for (const FieldChange &change : suggestion.changes) {
            const FieldDescriptor &f = field(change.field);
            if (const double *number = std::get_if<double>(&change.value))
                changes[f.key] = *number == std::floor(*number) ? Json(static_cast<long long>(*number)) : Json(*number);
            else if (const bool *on = std::get_if<bool>(&change.value))
                changes[f.key] = *on;
            else
                changes[f.key] = formatFieldValue(f, change.value);
            if (change.field == FieldId::Gpus)
                gpus = static_cast<int>(std::get<double>(change.value));
        }
        found.push_back({{"changes", std::move(changes)},
                         {"per_gpu_bytes", suggestion.total.count()},
                         {"gpus", gpus},
                         {"pair", suggestion.pair},
                         {"by", suggestion.foundBy}});
    }
    return found;
}

} // namespace

std::string estimateToJson(const Scenario &s, const EstimateWithFits &result, const Catalog &catalog)
{
    const Estimate &e = result.estimate;
    const EstimateDetails &d = e.details;
    Json j;
    j["schema_version"] = 1;
    j["model"] = {{"name", s.model.name},
                  {"family", s.model.family},
                  {"params_total", d.params.total},
                  {"params_active", d.params.active},
                  {"params_trainable", d.trainableParams},
                  {"layers", s.model.layers},
                  {"hidden_size", s.model.hidden},
                  {"heads", s.model.heads},
                  {"kv_heads", s.model.kvHeads},
                  {"head_dim", s.model.headDim},
                  {"intermediate_size", s.model.intermediate},
                  {"vocab_size", s.model.vocab},
                  {"kv_cache_bytes_per_token", static_cast<std::uint64_t>(kvCacheBytesPerToken(s, d.kvElementBytes))},
                  {"params_vision", d.params.vision},
                  {"params_audio", d.params.audio},
                  {"params_mtp", d.params.mtp},
                  {"family_guessed", s.model.guessed()},
                  {"defaulted_keys", s.model.defaultedKeys},
                  {"ignored_keys", s.model.ignoredKeys}};
    if (s.checkpoint)
        j["model"]["checkpoint"] = checkpointToJson(*s.checkpoint);
    if (const ModelSpec *draft = s.draftInUse())
        j["model"]["draft"] = {{"preset", s.draft.presetId},
                               {"name", draft->name},
                               {"params_total", countParameters(*draft).total}};
    j["scenario"] = scenarioToJson(s);
    j["library_versions"] = libraryVersionsJson(s);
    j["per_gpu_bytes"] = termsJson(e.terms, e.total);
    j["peak_phase"] = phaseId(e.peakPhase);
    Json phases = Json::array();
    for (const PhaseTotal &p : e.phases)
        phases.push_back({{"phase", phaseId(p.phase)}, {"moment", p.moment}, {"per_gpu_bytes", termsJson(p.terms, p.total)}});
    j["phases"] = phases;
    Json derivations = Json::object();
    const std::array<Derivation, kTermCount> all = explainTerms(result);
    for (TermId id : allTerms()) {
        const Derivation &why = all[static_cast<std::size_t>(id)];
        derivations[termId(id)] = {{"formula", why.formula}, {"substituted", why.substituted}, {"result", why.result},
                                   {"note", why.note},       {"legend", why.legend},           {"source", why.source}};
    }
    j["derivations"] = derivations;
    Json gpus = Json::array();
    FitSearch search(s);
    for (const GpuFit &fit : result.fits) {
        const GpuSpec *gpu = catalog.find(fit.gpuId);
        gpus.push_back({{"id", fit.gpuId},
                        {"name", gpu ? gpu->name : fit.gpuId},
                        {"memory_bytes", fit.capacity.count()},
                        {"fits", fit.fits},
                        {"headroom_bytes", fit.headroomBytes()},
                        {"gpus_needed", fit.gpusNeeded > 0 ? Json(fit.gpusNeeded) : Json(nullptr)},
                        {"max_batch", fit.maxBatch},
                        {"max_seq", fit.maxSequence},
                        {"kv_tokens", fit.hasKvTokens ? Json(fit.kvTokens) : Json(nullptr)},
                        {"concurrent_sequences", fit.hasKvTokens ? Json(fit.concurrentSequences) : Json(nullptr)},
                        {"max_model_len_auto", fit.hasAutoContext ? Json(fit.autoContext) : Json(nullptr)},
                        {"max_gpu_layers", fit.hasGpuLayers && fit.maxGpuLayers >= 0 ? Json(fit.maxGpuLayers) : Json(nullptr)},
                        {"why", whyJson(search, e, fit)},
                        {"what_would_fit", whatWouldFitJson(s, search, fit)},
                        {"warnings", renderAll(fit.warnings)}});
        // Where the engine's estimate follows the card, the row's own, and
        // the batch defaults where those are what follows it.
        if (gpu && totalFollowsTheCard(s))
            gpus.back()["per_gpu_bytes"] = result.estimateOn(*gpu).total.count();
        if (gpu && defaultsFollowTheCard(s)) {
            const Scenario &onCard = result.scenarioOn(*gpu);
            gpus.back()["max_num_seqs"] = onCard.effectiveMaxNumSeqs();
            gpus.back()["max_num_batched_tokens"] = onCard.effectiveMaxBatchedTokens();
        }
    }
    j["gpus"] = gpus;
    j["devices"] = deviceSetJson(result.deviceSet);
    j["warnings"] = renderAll(e.warnings);
    const Parallelism &par = s.parallel;
    j["parallelism"] = {{"tp", par.tp},
                        {"pp", par.pp},
                        {"dp", s.dataParallel()},
                        {"ep", par.ep},
                        {"sp", par.sequenceParallel},
                        {"interleave", par.interleave},
                        {"offload", offloadId(par.offload)},
                        {"gpus_per_node", par.gpusPerNode},
                        {"hybrid_shard", par.hybridShard},
                        {"shard_degree", s.shardDegree()},
                        {"nodes", (s.gpus + par.gpusPerNode - 1) / par.gpusPerNode},
                        {"stage", stageId(d.stage)},
                        {"micro_batches_in_flight", d.microBatchesInFlight}};
    j["host_memory_bytes_per_gpu"] = static_cast<std::uint64_t>(d.hostBytesPerGpu);
    j["host_memory"] = {{"needed_bytes_per_machine", static_cast<std::uint64_t>(hostBytesPerMachine(s, e))},
                        {"available_bytes", s.hostMemoryGib > 0 ? Json(static_cast<std::uint64_t>(s.hostMemoryGib * 1024 * 1024 * 1024))
                                                                : Json(nullptr)}};
    j["llama_server_fit"] = nullptr;
    const GpuSpec *focus = focusGpu(s, catalog);
    if (focus && fitsItselfAtLoad(s)) {
        const auto fitJson = [&s](const LlamaServerFit &f) {
            return Json{{"outcome", llamaServerFitOutcomeId(f.outcome)},
                        {"context", f.context},
                        {"trained_context", f.trainedContext},
                        {"gpu_layers", f.gpuLayers},
                        {"cpu_moe_layers", f.cpuMoeLayers},
                        {"gpu_layers_per_device", f.gpuLayersPerDevice},
                        {"per_gpu_bytes", f.perGpu.count()},
                        {"target_bytes", f.target.count()},
                        {"text", render(llamaServerFitMessage(f, s.model))}};
        };
        LlamaServerFitOptions options;
        const LlamaServerFit unset = llamaServerFit(s, *focus, options);
        options.contextSet = true;
        j["llama_server_fit"] = {{"gpu", focus->id},
                                 {"margin_bytes", options.margin.count()},
                                 {"without_context", fitJson(unset)},
                                 {"with_context", fitJson(llamaServerFit(s, *focus, options))}};
    }
    j["performance"] = nullptr;
    if (const GpuSpec *gpu = focus) {
        const Performance p = performance(s, e, *gpu);
        j["performance"] = {{"gpu", gpu->id},
                            {"gpu_chosen", gpu->id == s.gpuId},
                            {"peak_tflops", p.peakTflops},
                            {"mfu", s.workload.mfu},
                            {"flops_per_token", p.flopsPerToken},
                            {"tokens_per_step", p.tokensPerStep},
                            {"step_compute_seconds", p.stepComputeSeconds},
                            {"data_parallel_bytes_per_step", p.dataParallelBytes},
                            {"tensor_parallel_bytes_per_step", p.tensorParallelBytes},
                            {"pipeline_bytes_per_step", p.pipelineBytes},
                            {"step_communication_seconds", p.stepCommSeconds},
                            {"communication_bound", p.communicationBound},
                            {"step_seconds", p.stepSeconds},
                            {"step_parts_seconds", stepPartsJson(p.step)},
                            {"training_seconds", p.trainingSeconds},
                            {"gpu_hours", p.gpuHours},
                            {"cost", p.cost},
                            {"decode_tokens_per_second", p.decodeTokensPerSecond},
                            {"prefill_tokens_per_second", p.prefillTokensPerSecond}};
        if (!s.isTraining()) {
            // The focused GPU's serving figures for the scenario's batch; the
            // KV budget's concurrency comes from its fit.
            const auto fit = std::find_if(result.fits.begin(), result.fits.end(),
                                          [&s](const GpuFit &f) { return f.gpuId == s.gpuId; });
            const bool budget = fit != result.fits.end() && fit->hasKvTokens;
            j["serving"] = {{"gpu", gpu->id},
                            {"max_concurrent_sequences", budget ? Json(fit->concurrentSequences) : Json(nullptr)},
                            {"ttft_seconds", p.ttftSeconds},
                            {"decode_tokens_per_second", p.decodeTokensPerSecondPerSequence},
                            {"aggregate_tokens_per_second", p.decodeTokensPerSecond},
                            {"cost_per_million_tokens", p.costPerMillionTokens > 0 ? Json(p.costPerMillionTokens) : Json(nullptr)},
                            {"sequences_decoding_together", p.servingRows},
                            {"requests_per_second", p.requestsPerSecond},
                            {"target_requests_per_second", s.workload.requestRate > 0 ? Json(s.workload.requestRate) : Json(nullptr)},
                            {"gpus_for_target_rate", p.gpusForRequestRate > 0 ? Json(p.gpusForRequestRate) : Json(nullptr)}};
        }
    }
    if (s.isTraining() && s.zeroStage >= 2) {
        // DeepSpeed's own estimator for the same model, as a cross-check.
        const int nodes = std::max(1, (s.gpus + par.gpusPerNode - 1) / par.gpusPerNode);
        const int perNode = std::min(s.gpus, par.gpusPerNode);
        const double P = static_cast<double>(d.params.total);
        const deepspeed::Needs n = s.zeroStage == 2
            ? deepspeed::zero2(P, perNode, nodes, par.offload != Offload::None)
            : deepspeed::zero3(P, static_cast<double>(d.params.largestLayer), perNode, nodes,
                               par.offload == Offload::None ? deepspeed::Zero3Offload::None
                                   : par.offload == Offload::Optimizer ? deepspeed::Zero3Offload::Optimizer
                                                                       : deepspeed::Zero3Offload::OptimizerAndParams,
                               true);
        j["cross_checks"] = {{"deepspeed_model_states_bytes_per_gpu", static_cast<std::uint64_t>(n.gpuBytes)},
                             {"deepspeed_cpu_bytes_per_node", static_cast<std::uint64_t>(n.cpuBytes)}};
    }
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string planToJson(const GpuSpec &gpu, const std::vector<PlanOption> &layouts, const EstimateWithFits &asSet)
{
    Json list = Json::array();
    for (const PlanOption &o : layouts) {
        const Scenario &s = o.scenario;
        list.push_back({{"gpus", s.gpus},
                        {"tp", s.parallel.tp},
                        {"pp", s.parallel.pp},
                        {"dp", s.dataParallel()},
                        {"sp", s.parallel.sequenceParallel},
                        {"zero", s.zeroStage},
                        {"checkpointing", checkpointingId(s.effectiveCheckpointing())},
                        {"offload", offloadId(s.parallel.offload)},
                        {"per_gpu_bytes_total", o.estimate.total.count()},
                        {"headroom_bytes", (gpu.capacity() - o.estimate.total).count()},
                        {"host_memory_bytes_per_gpu", static_cast<std::uint64_t>(o.estimate.details.hostBytesPerGpu)},
                        {"step_seconds", o.stepSeconds},
                        {"step_compute_seconds", o.performance.stepComputeSeconds},
                        {"step_communication_seconds", o.performance.stepCommSeconds},
                        {"step_parts_seconds", stepPartsJson(o.performance.step)},
                        {"communication_bound", o.performance.communicationBound}});
    }
    Json plan{{"schema_version", 1}, {"gpu", gpu.id}, {"layouts", list}, {"why", nullptr}, {"what_would_fit", Json::array()}};
    // No layout fits: why the scenario as set does not, and what would.
    const GpuFit *fit = asSet.fitFor(gpu.id);
    if (list.empty() && fit) {
        FitSearch search(asSet.scenario);
        plan["why"] = whyJson(search, asSet.estimate, *fit);
        plan["what_would_fit"] = whatWouldFitJson(asSet.scenario, search, *fit);
    }
    return plan.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

namespace {

Json replicaJson(const Scenario &s)
{
    return {{"engine", runtimeInfo(s.serving).id},
            {"gpu", s.gpuId},
            {"tp", s.parallel.tp},
            {"pp", s.parallel.pp},
            {"gpus", s.gpus},
            {"kv_cache_dtype", servingPlanKvId(s)}};
}

/// A cost where the GPU has a price, else null.
Json priced(double price, double value) { return price > 0 ? Json(value) : Json(nullptr); }

Json loadJson(const ReplicaLoad &load)
{
    return {{"request_rate", load.requestRate}, {"prefill_share", load.prefillShare}, {"rows", load.rows},
            {"step_seconds", load.stepSeconds}, {"ttft_seconds", load.ttftSeconds}, {"tpot_seconds", load.tpotSeconds}};
}

} // namespace

std::string servingPlanToJson(const Scenario &base, const ServingPlan &plan)
{
    const Workload &w = base.workload;
    Json layouts = Json::array();
    for (const ServingLayout &l : plan.layouts) {
        Json row = replicaJson(l.scenario);
        row.update({{"per_gpu_bytes_total", l.estimate.total.count()},
                    {"prefill_seconds", l.prefillSeconds},
                    {"max_rows", l.maxRows},
                    {"replica_capacity", {{"request_rate", l.capacity.requestRate},
                                          {"limit", servingLimitId(l.capacity.limit)},
                                          {"load", loadJson(l.capacity.load)}}},
                    {"load", loadJson(l.load)},
                    {"replicas", l.replicas},
                    {"total_gpus", l.gpus},
                    {"gpu_hours_per_million_tokens", l.gpuHoursPerMillionTokens},
                    {"price_per_gpu_hour", priced(l.pricePerGpuHour, l.pricePerGpuHour)},
                    {"cost_per_hour", priced(l.pricePerGpuHour, l.costPerHour)},
                    {"cost_per_million_tokens", priced(l.pricePerGpuHour, l.costPerMillionTokens)}});
        layouts.push_back(std::move(row));
    }
    Json rejected = Json::array();
    for (const RejectedLayout &r : plan.rejected) {
        Json row = replicaJson(r.scenario);
        row["reason"] = render(r.reason);
        rejected.push_back(std::move(row));
    }
    const Json planJson{{"schema_version", 1},
                     {"model", base.model.name},
                     {"prompt_tokens", static_cast<std::uint64_t>(promptTokens(base))},
                     {"output_tokens", std::min(w.outputTokens, base.contextTokens())},
                     {"request_rate", w.requestRate},
                     {"ttft_target_seconds", w.ttftTargetSeconds},
                     {"tpot_target_seconds", w.tpotTargetSeconds},
                     {"decode_bandwidth_share", w.decodeBandwidthShare},
                     {"mfu", w.mfu},
                     {"layouts", layouts},
                     {"rejected", rejected}};
    return planJson.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string catalogToJson(const Catalog &catalog)
{
    Json list = Json::array();
    for (const GpuSpec &g : catalog.gpus) {
        list.push_back({{"id", g.id},
                        {"name", g.name},
                        {"vendor", g.vendor},
                        {"architecture", g.architecture},
                        {"compute_capability", g.computeCapability},
                        {"memory_bytes", g.memory.count()},
                        {"usable_memory_bytes", g.usableMemory ? Json(g.usableMemory->count()) : Json(nullptr)},
                        {"nvidia_smi_total_mib",
                         g.nvidiaSmiTotal ? Json(g.nvidiaSmiTotal->count() >> 20) : Json(nullptr)},
                        {"memory_bandwidth_gb_per_s", g.bandwidthGBps},
                        {"peak_tflops",
                         {{"fp32", optionalNumber(g.peak.fp32)},
                          {"tf32", optionalNumber(g.peak.tf32)},
                          {"fp16", optionalNumber(g.peak.fp16)},
                          {"bf16", optionalNumber(g.peak.bf16)},
                          {"fp8", optionalNumber(g.peak.fp8)},
                          {"int8", optionalNumber(g.peak.int8)}}},
                        {"supports",
                         {{"bf16", g.supportsBf16},
                          {"flash_attention_2", g.supportsFlashAttention2},
                          {"fp8", g.supportsFp8}}},
                        {"default_shown", g.defaultShown},
                        {"source", g.source}});
    }
    return Json{{"schema_version", 1}, {"gpus", list}}.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string presetsToJson(const std::vector<ModelPreset> &presets)
{
    Json list = Json::array();
    for (const ModelPreset &p : presets) {
        const ParameterCounts counts = countParameters(p.model);
        list.push_back({{"id", p.id},
                        {"name", p.name},
                        {"family", p.model.family},
                        {"hf_repo", p.hfRepo},
                        {"params_total", counts.total},
                        {"params_active", counts.active},
                        {"source", p.source}});
    }
    return Json{{"schema_version", 1}, {"models", list}}.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string matrixToJson(const FormatMatrix &matrix)
{
    Json formats = Json::array();
    for (WeightFormat f : matrix.formats)
        formats.push_back(formatInfo(f).id);
    Json cells = Json::array();
    for (std::size_t i = 0; i < matrix.formats.size(); ++i)
        for (std::size_t j = 0; j < matrix.gpuIds.size(); ++j) {
            const MatrixCell &c = matrix.at(i, j);
            cells.push_back({{"format", formatInfo(matrix.formats[i]).id},
                             {"gpu", matrix.gpuIds[j]},
                             {"fits", c.fits},
                             {"total_bytes", c.total.count()},
                             {"max_seq", c.maxSequence},
                             {"gpus_needed", c.gpusNeeded > 0 ? Json(c.gpusNeeded) : Json(nullptr)}});
        }
    return Json({{"schema_version", 1}, {"formats", formats}, {"gpus", matrix.gpuIds}, {"cells", cells}}).dump(2) + "\n";
}

} // namespace core::io
