// Which kinds of module a checkpoint's quantisation config quantises, by
// testing its patterns against the module names the kinds go by.

#include "core/io/quantconfig.h"

#include <algorithm>
#include <regex>
#include <unordered_set>

namespace core::io {

namespace {

/// A config with more patterns than this lies about itself; the largest
/// published list seen (MiniMax-M3 NVFP4's quantized_layers) has 22,422.
constexpr std::size_t kMaxPatterns = 200000;

/// fnmatch's '*' and '?' over the whole name (ModelOpt's exclude_modules).
bool globMatch(const std::string &pattern, const std::string &name)
{
    std::size_t p = 0, n = 0, star = std::string::npos, mark = 0;
    while (n < name.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
            ++p;
            ++n;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = n;
        } else if (star != std::string::npos) {
            p = star + 1;
            n = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

/// Whether std::regex (a backtracking matcher) runs `pattern` over a short
/// module name in bounded time: at most four quantifiers (each can multiply
/// the work by the name's length) and none on a group that holds a
/// quantifier or an alternation ("(a*)*b" backtracks exponentially). The
/// producers' lists use one or two (".*self_attn.*"). Any other pattern
/// matches nothing here.
bool boundedRegex(const std::string &pattern)
{
    if (pattern.size() > 512)
        return false;
    std::vector<std::size_t> open;
    int quantifiers = 0;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '*' || c == '+' || c == '?' || c == '{') {
            if (++quantifiers > 4)
                return false;
        } else if (c == '\\') {
            ++i;
        } else if (c == '(') {
            open.push_back(i);
        } else if (c == ')' && !open.empty()) {
            const std::string inside = pattern.substr(open.back() + 1, i - open.back() - 1);
            open.pop_back();
            const bool quantified = i + 1 < pattern.size() && std::string("*+?{").find(pattern[i + 1]) != std::string::npos;
            if (quantified && inside.find_first_of("*+?{|") != std::string::npos)
                return false;
        }
    }
    return true;
}

/// A list of patterns, each compiled once.
class PatternSet
{
public:
    PatternSet(const std::vector<std::string> &patterns, ModulePatterns style)
    {
        for (std::size_t i = 0; i < patterns.size() && i < kMaxPatterns; ++i) {
            const std::string &p = patterns[i];
            if (style == ModulePatterns::CompressedTensors && p.rfind("re:", 0) == 0) {
                if (!boundedRegex(p.substr(3)))
                    continue;
                try {
                    m_regexes.emplace_back(p.substr(3), std::regex::ECMAScript | std::regex::optimize);
                } catch (const std::regex_error &) {
                    // Python would refuse it too; such a pattern matches nothing.
                }
            } else if (style == ModulePatterns::Glob && p.find_first_of("*?") != std::string::npos) {
                m_globs.push_back(p);
            } else if (style == ModulePatterns::Transformers) {
                addTransformersKey(p);
            } else {
                m_names.insert(p);
            }
        }
    }

    bool matches(const std::string &name) const
    {
        // A per-module list (ModelOpt's quantized_layers) is looked up, not scanned.
        if (m_names.count(name) > 0)
            return true;
        for (const std::string &key : m_prefixOrSuffix)
            if (name.compare(0, key.size(), key) == 0
                || (name.size() >= key.size() && name.compare(name.size() - key.size(), key.size(), key) == 0))
                return true;
        for (const std::string &p : m_globs)
            if (globMatch(p, name))
                return true;
        // compressed-tensors calls re.match: anchored at the start only.
        for (const std::regex &re : m_regexes)
            if (std::regex_search(name, re, std::regex_constants::match_continuous))
                return true;
        return false;
    }

    bool names(const std::string &className) const
    {
        return m_names.count(className) > 0;
    }

private:
    /// A transformers key: one with a wildcard a regex matched from the
    /// start (a suffix of it is no name); a plain one a prefix or a suffix
    /// (its dots read as regex "any character" match themselves in module
    /// names, so literally).
    void addTransformersKey(const std::string &key)
    {
        if (key.find_first_of("*+?[](){}|^$\\") == std::string::npos) {
            m_prefixOrSuffix.push_back(key);
            return;
        }
        if (!boundedRegex(key))
            return;
        try {
            m_regexes.emplace_back(key, std::regex::ECMAScript | std::regex::optimize);
        } catch (const std::regex_error &) {
        }
    }

    std::unordered_set<std::string> m_names; ///< exact names
    std::vector<std::string> m_prefixOrSuffix; ///< transformers' plain keys
    std::vector<std::string> m_globs;        ///< fnmatch patterns with a wildcard
    std::vector<std::regex> m_regexes;
};

/// The prefixes a decoder layer goes by: transformers' CausalLM
/// (model.layers), its multimodal models (model.language_model.layers),
/// Kimi K2.5's remote code (language_model.model.layers), Nemotron-H
/// (backbone.layers), DeepSeek-V4's reference code (layers).
const char *const kLayerPrefixes[] = {"model.", "model.language_model.", "language_model.model.", "backbone.", ""};

/// Which mixer a module name belongs to, where a layer can hold two
/// (Falcon-H1's attention beside its Mamba block): a layer's attention is
/// tested by the attention names only, its Mamba block by the Mamba names.
enum class MixerNames { Any, Attention, Mamba };

struct TargetNames
{
    unsigned target;
    std::vector<const char *> inLayer; ///< after "layers.<i>."
    std::vector<const char *> whole;   ///< full names (output head, embeddings)
    /// The model_type these names are the only ones of (its modules sit
    /// elsewhere than the usual names say); nullptr: every other family's.
    const char *family = nullptr;
    MixerNames mixer = MixerNames::Any;
};

/// Each kind's names across the families' modeling code: transformers
/// (self_attn, mlp.experts, mlp.shared_experts / shared_expert, mlp.gate),
/// Mixtral and MiniMax (block_sparse_moe), Nemotron-H (mixer), Qwen3-Next
/// and Qwen3.5 (linear_attn), DeepSeek-V4's reference code (attn, ffn; its
/// vLLM and transformers modules fuse wq_a and wkv as attn.fused_wqa_wkv
/// and name the experts' projections gate_proj, up_proj, down_proj), the
/// Mamba hybrids (Jamba, Bamba, Granite 4.0, Falcon-H1: mamba.in_proj,
/// feed_forward; Granite 4.0's shared_mlp and block_sparse_moe
/// input_linear; Jamba's feed_forward.experts and router), Nemotron 3's
/// latent projections beside its experts.
/// Gemma 4 keeps its experts and router beside the dense MLP, not in it
/// (modeling_gemma4.py Gemma4TextDecoderLayer: self.router, self.experts),
/// so its "layers.N.mlp*" exclusions leave the experts quantised.
const std::vector<TargetNames> &targetNames()
{
    static const std::vector<TargetNames> names = {
        {kQuantMixerIn,
         {"self_attn.q_proj", "self_attn.q_a_proj", "self_attn.kv_a_proj_with_mqa", "self_attn.qkv_proj",
          "mixer.q_proj", "attn.wq_a", "attn.fused_wqa_wkv"},
         {},
         nullptr,
         MixerNames::Attention},
        {kQuantMixerIn, {"linear_attn.in_proj_qkvz", "linear_attn.in_proj_qkv"}, {}},
        {kQuantMixerIn, {"mixer.in_proj", "mamba.in_proj"}, {}, nullptr, MixerNames::Mamba},
        {kQuantMixerOut, {"self_attn.o_proj", "mixer.o_proj", "attn.wo_a"}, {}, nullptr, MixerNames::Attention},
        {kQuantMixerOut, {"linear_attn.out_proj"}, {}},
        {kQuantMixerOut, {"mixer.out_proj", "mamba.out_proj"}, {}, nullptr, MixerNames::Mamba},
        {kQuantDenseMlp,
         {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", "mixer.up_proj", "ffn.w1", "feed_forward.gate_proj",
          "feed_forward.up_proj", "feed_forward.down_proj", "shared_mlp.input_linear", "mixer.fc1_latent_proj"},
         {}},
        {kQuantSharedExperts,
         {"mlp.shared_experts.gate_proj", "mlp.shared_expert.gate_proj", "block_sparse_moe.shared_experts.gate_proj",
          "mixer.shared_experts.up_proj", "ffn.shared_experts.w1", "ffn.shared_experts.gate_proj"},
         {}},
        {kQuantExperts,
         {"mlp.experts.0.gate_proj", "mlp.experts.0.down_proj", "mlp.experts.gate_up_proj", "mlp.experts",
          "block_sparse_moe.experts.0.w1", "mixer.experts.0.up_proj", "ffn.experts.0.w1", "ffn.experts.0.gate_proj",
          "ffn.experts", "feed_forward.experts.0.gate_proj", "block_sparse_moe.input_linear"},
         {}},
        {kQuantExperts, {"experts.gate_up_proj", "experts.down_proj", "experts"}, {}, "gemma4_text"},
        {kQuantRouter,
         {"mlp.gate", "mlp.router", "block_sparse_moe.gate", "mixer.gate", "ffn.gate", "feed_forward.router",
          "block_sparse_moe.router.layer"},
         {}},
        {kQuantRouter, {"router.proj", "router"}, {}, "gemma4_text"},
        {kQuantLmHead, {}, {"lm_head", "language_model.lm_head", "head"}},
        {kQuantEmbedding, {},
         {"model.embed_tokens", "model.language_model.embed_tokens", "language_model.model.embed_tokens",
          "backbone.embeddings", "embed"}},
    };
    return names;
}

/// The names of one kind of module in `family`'s models: its own where the
/// table has them, else the usual ones; of one mixer only where `mixer`
/// says which.
std::vector<const TargetNames *> namesOf(unsigned target, const std::string &family, MixerNames mixer)
{
    std::vector<const TargetNames *> own, usual;
    for (const TargetNames &t : targetNames()) {
        if (t.target != target || (mixer != MixerNames::Any && t.mixer != MixerNames::Any && t.mixer != mixer))
            continue;
        if (t.family == nullptr)
            usual.push_back(&t);
        else if (family == t.family)
            own.push_back(&t);
    }
    return own.empty() ? usual : own;
}

/// The mixer whose names a scope's modules go by.
MixerNames mixerNamesOf(LayerScope scope)
{
    if (scope == LayerScope::AttentionLayers || scope == LayerScope::WindowedAttentionLayers)
        return MixerNames::Attention;
    return scope == LayerScope::MambaLayers ? MixerNames::Mamba : MixerNames::Any;
}

/// Every full name of one kind of module in `layer`.
std::vector<std::string> fullNames(const std::vector<const TargetNames *> &entries, std::uint64_t layer)
{
    std::vector<std::string> all;
    for (const TargetNames *t : entries) {
        all.insert(all.end(), t->whole.begin(), t->whole.end());
        for (const char *prefix : kLayerPrefixes)
            for (const char *name : t->inLayer)
                all.push_back(std::string(prefix) + "layers." + std::to_string(layer) + "." + name);
    }
    return all;
}

/// What a quantisation config covers when its targets name no module:
/// every linear layer (compressed-tensors' "Linear", ModelOpt's default);
/// routers are left out (most are excluded by name, and DeepSeek's MoEGate
/// is no nn.Linear), embeddings are no linear layer.
constexpr unsigned kLinearTargets =
    kQuantMixerIn | kQuantMixerOut | kQuantDenseMlp | kQuantSharedExperts | kQuantExperts | kQuantLmHead;

constexpr unsigned kAllTargets[] = {kQuantMixerIn,  kQuantMixerOut, kQuantDenseMlp, kQuantSharedExperts,
                                    kQuantExperts,  kQuantRouter,   kQuantLmHead,   kQuantEmbedding};

/// Whether `q` puts one kind of module of one layer in its format.
class ModuleTest
{
public:
    ModuleTest(const CheckpointQuantization &q, const ModelSpec &m)
        : m_model(m)
        , m_excluded(q.excluded, q.patterns)
        , m_targets(q.targets, q.patterns)
        , m_linearTargets(q.targets.empty() || m_targets.names("Linear"))
    {
    }

    bool quantized(unsigned target, std::uint64_t layer, MixerNames mixer = MixerNames::Any) const
    {
        const std::vector<std::string> names = fullNames(namesOf(target, m_model.family, mixer), layer);
        const auto any = [&](const PatternSet &set) {
            return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return set.matches(n); });
        };
        const bool covered = (m_linearTargets && (kLinearTargets & target)) || any(m_targets);
        return covered && !any(m_excluded);
    }

private:
    const ModelSpec &m_model;
    PatternSet m_excluded;
    PatternSet m_targets;
    bool m_linearTargets;
};

/// The layer whose names stand for every layer's: a middle one, the first
/// for the dense MLP of a model with dense leading layers.
std::uint64_t middleLayer(const ModelSpec &m, unsigned target)
{
    const bool denseFirst = target == kQuantDenseMlp && m.moe.isMoe() && m.moe.denseLayers > 0;
    return denseFirst ? 0 : m.layers / 2;
}

/// The kinds of module a layer of these blocks holds, by scope.
std::vector<std::pair<LayerScope, unsigned>> modulesOf(const LayerBlocks &b, const ModelSpec &m)
{
    std::vector<std::pair<LayerScope, unsigned>> modules;
    for (const LayerScope mixer : {b.mixer, b.besideMixer})
        if (mixer != LayerScope::None) {
            modules.emplace_back(mixer, kQuantMixerIn);
            modules.emplace_back(mixer, kQuantMixerOut);
        }
    if (b.mlp == LayerScope::DenseLayers)
        modules.emplace_back(b.mlp, kQuantDenseMlp);
    if (b.mlp == LayerScope::MoeLayers) {
        modules.emplace_back(b.mlp, kQuantExperts);
        modules.emplace_back(b.mlp, kQuantRouter);
        if (m.moe.sharedExperts > 0)
            modules.emplace_back(b.mlp, kQuantSharedExperts);
        if (m.moe.latentWidth > 0) // Nemotron 3's fc1/fc2_latent_proj: dense linears of the MoE block
            modules.emplace_back(b.mlp, kQuantDenseMlp);
    }
    return modules;
}

/// Layer by layer: each kind of module quantised in every layer that has
/// it is a target; one quantised in some of a scope's layers is partial.
QuantizedModules perLayer(const ModuleTest &test, const ModelSpec &m, const std::vector<LayerBlocks> &layout)
{
    struct Tally
    {
        LayerScope scope;
        unsigned target;
        std::uint64_t layers = 0;
        std::uint64_t quantized = 0;
    };
    std::vector<Tally> tallies;
    for (std::uint64_t i = 0; i < layout.size(); ++i)
        for (const auto &[scope, target] : modulesOf(layout[i], m)) {
            auto t = std::find_if(tallies.begin(), tallies.end(),
                                  [&, s = scope, g = target](const Tally &x) { return x.scope == s && x.target == g; });
            if (t == tallies.end())
                t = tallies.insert(tallies.end(), Tally{scope, target});
            ++t->layers;
            t->quantized += test.quantized(target, i, mixerNamesOf(scope)) ? 1 : 0;
        }
    QuantizedModules result;
    for (const unsigned target : kAllTargets) {
        bool all = true, none = true, present = false;
        for (const Tally &t : tallies)
            if (t.target == target) {
                present = true;
                all = all && t.quantized == t.layers;
                none = none && t.quantized == 0;
            }
        if (!present) {
            // A kind the layout does not place (the output head and
            // embeddings): as a middle layer's names say.
            if (test.quantized(target, middleLayer(m, target)))
                result.targets |= target;
        } else if (all) {
            result.targets |= target;
        } else if (!none) {
            for (const Tally &t : tallies)
                if (t.target == target)
                    result.partial.push_back({t.scope, t.target, t.quantized});
        }
    }
    return result;
}

} // namespace

QuantizedModules quantizedModules(const CheckpointQuantization &q, const ModelSpec &m,
                                  const std::vector<LayerBlocks> &layout)
{
    if (!q.listsModules || q.format.empty() || m.layers == 0)
        return {};
    const ModuleTest test(q, m);
    if (layout.size() == m.layers)
        return perLayer(test, m, layout);
    QuantizedModules result;
    for (const unsigned target : kAllTargets)
        if (test.quantized(target, middleLayer(m, target)))
            result.targets |= target;
    return result;
}

} // namespace core::io
