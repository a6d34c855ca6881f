#pragma once

// SGLang's KV token pool: how much memory it gives the pool and how many
// tokens that holds, read from SGLang's source (release/v0.5.15, 0b3bb0c;
// v0.4.6, 84022c0 where it differs).

#include "core/model/catalog.h"
#include "core/scenario/libraryversions.h"
#include "core/scenario/scenario.h"

#include <cstdint>
#include <string>

namespace core {

/// What SGLang's default fraction asks of the model and the card: its
/// prefill graphs are off for multimodal models, on cards that do not run
/// CUDA and, by release, with a pipeline, a GGUF file, a draft or some
/// architectures; a flat reserve under MLA; a draft reserves memory by
/// release.
struct SglangModel
{
    bool mla = false;
    bool multimodal = false;
    /// A draft model runs as SGLang's STANDALONE algorithm, MTP layers as
    /// EAGLE (NEXTN).
    SpeculativeDraft draft = SpeculativeDraft::None;
    /// A multimodal model's vision_config num_hidden_layers and hidden_size
    /// (0: absent, read as SGLang's 24 and 1,024).
    std::uint64_t visionLayers = 0;
    std::uint64_t visionHidden = 0;
    /// The card runs CUDA; on ROCm, NPUs, Apple's MPS and Intel's XPU
    /// SGLang captures no prefill graphs.
    bool cudaGpu = true;
    /// The weights come from a GGUF file.
    bool gguf = false;
    /// The config's model_type ("qwen3_next"), for the architectures whose
    /// prefill graphs SGLang turns off.
    std::string family;
};

/// SGLang's default mem_fraction_static for a card of `capacityMib` MiB
/// (server_args.py _handle_gpu_memory_settings, v0.5.15): it reserves
/// 512 MiB, 1.5 MiB per token of the chunked prefill (at least 2,048), 2 MiB
/// per decode CUDA-graph batch slot, 1 GiB per 8 GPUs of the TP x PP group
/// and, where the prefill runs as breakable CUDA graphs (the default on
/// CUDA since PR 29458, switched off for MLA and most multimodal models;
/// see sglangCapturesPrefillGraphs), 8 MiB per captured prefill size; at least 10 GiB on cards over 60 GiB;
/// and keeps the rest, rounded to 0.001. The chunked prefill and the decode
/// graphs' batch follow the card's size.
///
/// Older releases (the version rules of kSglangFractionRules): before
/// 0.4.7.post1 a table by TP size (v0.4.6, 84022c0: 0.88, 0.87 from 2 GPUs,
/// 0.85 from 4, 0.81 from 8, 0.79 from 16; over 80 GiB the card less
/// 13 GiB); to 0.5.2 what the card's memory class reserves (PR 7054:
/// 2.8 GiB + 0.1 GiB a GPU under 35 GiB, 9.5 + 0.5 a GPU under 90, 12 +
/// 0.5 a GPU under 160, 32 GiB above); from 0.5.3 the parts above, with
/// the prefill graphs from 0.5.10 (MLA: 1.5 GiB until 0.5.15 turned its
/// graphs off; none with a pipeline, where SGLang captures none).
/// Speculative decoding reserves 2 GiB more from 0.4.7.post1; from 0.5.2 a
/// standalone draft 6 GiB; from 0.5.10 EAGLE-family drafts 4 GiB (from
/// 0.5.3 after the 10 GiB floor); from 0.5.14 nothing (the pool sizes the
/// draft's cache). The multimodal scaling is sglangMemFraction's.
double sglangDefaultMemFraction(double capacityMib, int tensorParallel, int pipelineParallel,
                                const SglangModel &model, const LibraryVersions &versions = {});

/// Whether SGLang captures the prefill's CUDA graphs by default, and so
/// reserves for them. From 0.5.10 (PR 16331) as torch.compile's piecewise
/// graphs, off (server_args.py _handle_piecewise_cuda_graph, later
/// _disable_tc_piecewise_cudagraph_if_incompatible) for multimodal models,
/// on cards that do not run CUDA, with a pipeline (PP > 1), for a GGUF
/// file, for Qwen3-Next and DeepSeek-V4 (model_config.py
/// piecewise_cuda_graph_disabled_model_archs at the 0.5.13 and 0.5.14
/// branch points) and, in 0.5.10, with speculative decoding (allowed by
/// PR 22128, 0.5.11). From 0.5.15 (PR 29458) CUDA cards capture breakable
/// graphs instead, off only for MLA, DeepSeek-V4 and multimodal models
/// (_disable_breakable_cudagraph_if_incompatible): a pipeline, a draft and
/// a GGUF file keep them; other cards keep the piecewise rules, and so none.
bool sglangCapturesPrefillGraphs(int pipelineParallel, const SglangModel &model, const LibraryVersions &versions);

/// The fraction a scenario runs on `gpu` (its capacity and platform): its
/// --mem-fraction-static, else SGLang's rule for its release, its model
/// kind (MLA, multimodal, draft, GGUF), the card's platform and its TP and
/// PP degrees. A multimodal model's
/// default is scaled by its vision tower (adjust_mem_fraction_for_vlm, from
/// 0.4.9.post3); before, every fraction of one, set or not, x 0.9
/// (model_runner.py).
double sglangMemFraction(const Scenario &scenario, const GpuSpec &gpu);

/// The bytes SGLang gives its KV pool (model_runner_kv_cache_mixin.py
/// _profile_available_bytes): the free memory after the weights loaded
/// less (1 - mem_fraction_static) of what was free before they loaded.
double sglangPoolBytes(double freeBeforeLoad, double freeAfterLoad, double memFractionStatic);

/// The tokens those bytes hold (pool_configurator.py: bytes // cell, then
/// down to a whole page); 0 when the weights leave nothing.
std::uint64_t sglangPoolTokens(double poolBytes, double cellBytes, std::uint64_t pageSize = 1);

/// The requests SGLang runs at once when --max-running-requests is unset
/// (model_runner_kv_cache_mixin.py, v0.5.15): int(tokens / context_len x
/// 512) clamped to 2,048..4,096, and at most half the pool's tokens.
std::uint64_t sglangMaxRunningRequests(std::uint64_t poolTokens, std::uint64_t contextLength);

} // namespace core
