#pragma once

// SGLang's KV token pool: how much memory it gives the pool and how many
// tokens that holds, read from SGLang's source (release/v0.5.15, 0b3bb0c;
// v0.4.6, 84022c0 where it differs).

#include "core/scenario/scenario.h"

#include <cstdint>

namespace core {

/// SGLang's default mem_fraction_static for a card of `capacityMib` MiB
/// (server_args.py _handle_gpu_memory_settings, v0.5.15): it reserves
/// 512 MiB, 1.5 MiB per token of the chunked prefill (at least 2,048), 2 MiB
/// per decode CUDA-graph batch slot, 1 GiB per 8 GPUs of the TP x PP group
/// and, where the prefill runs as breakable CUDA graphs (the default on
/// CUDA since PR 29458, switched off for MLA and most multimodal models),
/// 8 MiB per captured prefill size; at least 10 GiB on cards over 60 GiB;
/// and keeps the rest, rounded to 0.001. The chunked prefill and the decode
/// graphs' batch follow the card's size.
double sglangDefaultMemFraction(double capacityMib, int tensorParallel, int pipelineParallel, bool prefillGraphs);

/// The fraction a scenario runs on a card of `capacityMib`: its
/// --mem-fraction-static, else SGLang's rule (prefill graphs for models
/// that are neither MLA nor multimodal).
double sglangMemFraction(const Scenario &scenario, double capacityMib);

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
