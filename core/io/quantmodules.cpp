// Which kinds of module a checkpoint's quantisation config quantises, by
// testing its patterns against the module names the kinds go by.

#include "core/io/quantconfig.h"

#include <algorithm>
#include <regex>

namespace core::io {

namespace {

/// A config with more patterns than this lies about itself; the largest
/// published list seen (MiniMax-M3 NVFP4) has about 60,000.
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
        : m_style(style)
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
            } else {
                m_names.push_back(p);
            }
        }
    }

    bool matches(const std::string &name) const
    {
        for (const std::string &p : m_names)
            if (m_style == ModulePatterns::Glob ? globMatch(p, name) : p == name)
                return true;
        // compressed-tensors calls re.match: anchored at the start only.
        for (const std::regex &re : m_regexes)
            if (std::regex_search(name, re, std::regex_constants::match_continuous))
                return true;
        return false;
    }

    bool names(const std::string &className) const
    {
        return std::find(m_names.begin(), m_names.end(), className) != m_names.end();
    }

private:
    ModulePatterns m_style;
    std::vector<std::string> m_names;
    std::vector<std::regex> m_regexes;
};

/// The prefixes a decoder layer goes by: transformers' CausalLM
/// (model.layers), its multimodal models (model.language_model.layers),
/// Kimi K2.5's remote code (language_model.model.layers), Nemotron-H
/// (backbone.layers), DeepSeek-V4's reference code (layers).
const char *const kLayerPrefixes[] = {"model.", "model.language_model.", "language_model.model.", "backbone.", ""};

struct TargetNames
{
    unsigned target;
    bool denseLayer; ///< named in a dense layer (the first), not a middle one
    std::vector<const char *> inLayer; ///< after "layers.<i>."
    std::vector<const char *> whole;   ///< full names (output head, embeddings)
};

/// Each kind's names across the families' modeling code: transformers
/// (self_attn, mlp.experts, mlp.shared_experts / shared_expert, mlp.gate),
/// Mixtral and MiniMax (block_sparse_moe), Nemotron-H (mixer), Qwen3-Next
/// and Qwen3.5 (linear_attn), DeepSeek-V4's reference code (attn, ffn).
const std::vector<TargetNames> &targetNames()
{
    static const std::vector<TargetNames> names = {
        {kQuantMixerIn, false,
         {"self_attn.q_proj", "self_attn.q_a_proj", "self_attn.kv_a_proj_with_mqa", "self_attn.qkv_proj",
          "linear_attn.in_proj_qkvz", "mixer.in_proj", "mixer.q_proj", "attn.wq_a"},
         {}},
        {kQuantMixerOut, false, {"self_attn.o_proj", "linear_attn.out_proj", "mixer.out_proj", "mixer.o_proj", "attn.wo_a"}, {}},
        {kQuantDenseMlp, true, {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", "mixer.up_proj", "ffn.w1"}, {}},
        {kQuantSharedExperts, false,
         {"mlp.shared_experts.gate_proj", "mlp.shared_expert.gate_proj", "block_sparse_moe.shared_experts.gate_proj",
          "mixer.shared_experts.up_proj", "ffn.shared_experts.w1"},
         {}},
        {kQuantExperts, false,
         {"mlp.experts.0.gate_proj", "mlp.experts.0.down_proj", "mlp.experts.gate_up_proj", "mlp.experts",
          "block_sparse_moe.experts.0.w1", "mixer.experts.0.up_proj", "ffn.experts.0.w1"},
         {}},
        {kQuantRouter, false, {"mlp.gate", "mlp.router", "block_sparse_moe.gate", "mixer.gate", "ffn.gate"}, {}},
        {kQuantLmHead, false, {}, {"lm_head", "language_model.lm_head", "head"}},
        {kQuantEmbedding, false, {},
         {"model.embed_tokens", "model.language_model.embed_tokens", "language_model.model.embed_tokens",
          "backbone.embeddings", "embed"}},
    };
    return names;
}

/// Every full name of one kind of module in `layer`.
std::vector<std::string> fullNames(const TargetNames &t, std::uint64_t layer)
{
    std::vector<std::string> all(t.whole.begin(), t.whole.end());
    for (const char *prefix : kLayerPrefixes)
        for (const char *name : t.inLayer)
            all.push_back(std::string(prefix) + "layers." + std::to_string(layer) + "." + name);
    return all;
}

/// What a quantisation config covers when its targets name no module:
/// every linear layer (compressed-tensors' "Linear", ModelOpt's default);
/// routers are left out (most are excluded by name, and DeepSeek's MoEGate
/// is no nn.Linear), embeddings are no linear layer.
constexpr unsigned kLinearTargets =
    kQuantMixerIn | kQuantMixerOut | kQuantDenseMlp | kQuantSharedExperts | kQuantExperts | kQuantLmHead;

} // namespace

unsigned quantizedTargets(const CheckpointQuantization &q, const ModelSpec &m)
{
    if (!q.listsModules || q.format.empty() || m.layers == 0)
        return 0;
    const PatternSet excluded(q.excluded, q.patterns);
    const PatternSet targets(q.targets, q.patterns);
    const bool linearTargets = q.targets.empty() || targets.names("Linear");
    const std::uint64_t middle = m.layers / 2;
    const std::uint64_t dense = m.moe.isMoe() && m.moe.denseLayers > 0 ? 0 : middle;
    unsigned quantized = 0;
    for (const TargetNames &t : targetNames()) {
        const std::vector<std::string> names = fullNames(t, t.denseLayer ? dense : middle);
        const auto any = [&](const PatternSet &set) {
            return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return set.matches(n); });
        };
        const bool covered = (linearTargets && (kLinearTargets & t.target)) || any(targets);
        if (covered && !any(excluded))
            quantized |= t.target;
    }
    return quantized;
}

} // namespace core::io
