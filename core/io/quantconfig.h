#pragma once

// Internal to core/io: what a checkpoint's quantisation config says (its
// config.json quantization_config, or ModelOpt's hf_quant_config.json
// beside it), so a quantised model loads as what it is: the format of the
// quantised modules, their group size, and which modules stay unquantised.

#include "core/io/jsonreader.h"
#include "core/model/modelspec.h"

#include <string>
#include <vector>

namespace core::io {

/// How a producer spells module names in its lists.
enum class ModulePatterns {
    CompressedTensors, ///< "re:<regex>" matched from the start (re.match), else the exact name
    Glob,              ///< ModelOpt's fnmatch patterns ("model.layers.*.self_attn*")
    /// transformers' modules_to_not_convert (quantizers_utils.py
    /// should_convert_module): a key skips every module whose name it
    /// matches from the start as a regex (re.match), or that ends with it.
    Transformers,
};

struct CheckpointQuantization
{
    std::string format;  ///< a WeightFormat id; empty when none this planner models
    int groupSize = 0;   ///< values per scale, where the format takes one
    ModulePatterns patterns = ModulePatterns::CompressedTensors;
    /// What the format is applied to: compressed-tensors targets ("Linear",
    /// "re:.*experts.*"); empty: every linear layer.
    std::vector<std::string> targets;
    /// Modules left in the checkpoint's dtype (ignore, exclude_modules).
    std::vector<std::string> excluded;
    /// The config lists modules (targets or exclusions), so which ones are
    /// quantised is the config's word, not the format's rule.
    bool listsModules = false;
    /// quant_method fp8 or mxfp4: transformers' and vLLM's own quantizers,
    /// which replace linear layers only (MXFP4 the experts only), whatever
    /// the list leaves.
    bool linearLayersOnly = false;
    /// A second scheme beside the first (ModelOpt's MIXED_PRECISION: NVFP4
    /// MLPs beside FP8 attention), for its own targets; empty when none.
    std::string restFormat;
    /// The rest format's own modules (its config group's targets); empty:
    /// every other linear module of the layers.
    std::vector<std::string> restTargets;
};

/// A `quantization_config` object: bitsandbytes, GPTQ, AWQ, FP8, MXFP4,
/// compressed-tensors and ModelOpt (with several config groups, the one of
/// fewest bits is the format of its targets and the next the rest's).
/// An unmodelled one yields an empty format and a warning naming the method.
CheckpointQuantization readQuantizationConfig(JsonReader &quant, std::vector<std::string> &warnings);

/// ModelOpt's hf_quant_config.json ({"producer": ..., "quantization":
/// {"quant_algo", "group_size", "exclude_modules", "quantized_layers", ...}}).
CheckpointQuantization readModelOptQuantConfig(JsonReader &file, std::vector<std::string> &warnings);

/// A decoder layer's token mixer and MLP, as scopes of the tensor groups
/// (None: the layer has no such block); `besideMixer`, a second mixer that
/// runs beside the first (Falcon-H1's Mamba block beside its attention).
struct LayerBlocks
{
    LayerScope mixer = LayerScope::None;
    LayerScope mlp = LayerScope::None;
    LayerScope besideMixer = LayerScope::None;
};

/// Which modules a checkpoint ships in its format.
struct QuantizedModules
{
    unsigned targets = 0; ///< QuantTarget bits quantised in every layer that has them
    std::vector<PartialQuantization> partial;
};

/// The modules of `model` that `q` quantises: each kind of module is tested
/// by its names as transformers and the producers spell them
/// (model.layers.N.self_attn.q_proj, ...mlp.experts.0.gate_proj, ...). With
/// a `layout` of one entry per layer (Nemotron-H's pattern), every layer is
/// tested as what it is; without one, a middle layer stands for all (the
/// first for the dense MLP of a model with dense leading layers). Nothing
/// when `q` lists no modules.
QuantizedModules quantizedModules(const CheckpointQuantization &q, const ModelSpec &model,
                                  const std::vector<LayerBlocks> &layout);

} // namespace core::io
