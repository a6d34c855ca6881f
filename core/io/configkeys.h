#pragma once

// Internal to core/io: reading a config.json's keys while keeping account
// of what was read, what a family default stood in for, and what was left.

#include "core/io/jsonreader.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace core::io {

class ConfigKeys
{
public:
    /// `configClass` names the transformers class whose defaults stand in
    /// for absent keys; null when no family rules matched (then a default
    /// is a guess, and is recorded as one).
    ConfigKeys(JsonReader &reader, const char *configClass);

    JsonReader &reader() { return m_reader; }

    /// The first of `keys` present (an error names the first spelling when
    /// `required` and none is).
    std::optional<std::uint64_t> firstUint(std::initializer_list<const char *> keys, std::uint64_t min,
                                           std::uint64_t max, bool required = false);
    /// The first of `keys` present, as one integer or as a list of one per
    /// layer whose entries agree (Hunyuan's moe_topk); a list of another
    /// length, or whose entries differ, is an error.
    std::optional<std::uint64_t> firstLayerUint(std::initializer_list<const char *> keys, std::uint64_t layers,
                                                std::uint64_t min, std::uint64_t max, bool required = false);
    /// `key`, or `classDefault` recorded as "key = value (Class default)".
    std::uint64_t uint(const char *key, std::uint64_t min, std::uint64_t max, std::uint64_t classDefault);
    /// The first of `keys`, or `fallback` recorded with `rule` ("hidden_size / num_attention_heads"; null:
    /// as the class default, under the first key).
    std::uint64_t firstUintOr(std::initializer_list<const char *> keys, std::uint64_t min, std::uint64_t max,
                              std::uint64_t fallback, const char *rule);
    /// The string `key`, or `classDefault` recorded as "key = value (Class default)".
    std::string string(const char *key, const char *classDefault);
    /// Records an assumption the reader made about `key` ("key: what (why)").
    void assume(const char *key, const std::string &what, const char *why);
    /// Drops the default recorded for `key`: a per-layer list decided it
    /// (Llama-Nemotron's block_configs for its null num_key_value_heads).
    void decidedElsewhere(const char *key);
    /// An array of at most `maxCount` unsigned integers (empty if absent).
    std::vector<std::uint64_t> uints(const char *key, std::size_t maxCount);

    /// Absent keys whose default was used, as "key = value (why)".
    const std::vector<std::string> &defaulted() const { return m_defaulted; }
    /// Keys present that nothing read, less those documented as changing
    /// no memory (token ids, norm epsilons, RoPE bases, router loss weights).
    std::vector<std::string> ignored() const;

private:
    void recordDefault(const char *key, const std::string &value, const char *rule);

    JsonReader &m_reader;
    const char *m_class;
    std::set<std::string> m_seen;
    std::vector<std::string> m_defaulted;
};

} // namespace core::io
