#pragma once

// The training inputs a scenario chooses from, with what each keeps:
// precision regimes, optimizers and their step's implementation.

#include <optional>
#include <string>
#include <vector>

namespace core {

/// How a training framework stores weights, master weights and gradients.
enum class Regime {
    Fp32,       ///< everything fp32
    Amp,        ///< PyTorch AMP: fp32 params and grads, autocast 16-bit copies
    Mixed,      ///< 16-bit weights + fp32 master copy (ZeRO paper §III-A); default
    DeepSpeed,  ///< Mixed plus DeepSpeed's extra fp32 gradient buffer
    Bf16Pure    ///< weights, grads and optimizer states all bf16
};

/// How the optimizer step is implemented, which decides its temporaries.
enum class OptimizerImpl {
    Auto,    ///< the training stack's own choice (core/scenario/stack.h)
    Foreach, ///< torch.optim multi-tensor: one full-size temporary per step
    Fused,   ///< fused/chunked kernels: no full-size temporary
    Loop     ///< one parameter at a time (torch foreach=False, transformers' AdamW): temporaries of one tensor
};

enum class Optimizer {
    AdamW, Adam, AdamAmsgrad, AdamW8bit, PagedAdamW, PagedAdamW8bit,
    Sgd, SgdMomentum, Adafactor, Lion, Adagrad, RmsProp
};

/// Bytes per trainable parameter that a regime keeps, itemised.
struct RegimeBytes
{
    double weights = 2;       ///< the copy the forward pass reads
    double masterWeights = 4; ///< fp32 copy the optimizer updates (0 if none)
    double gradients = 2;     ///< including DeepSpeed's extra fp32 buffer
    double autocastCopies = 0; ///< AMP's cached 16-bit weight casts (forward/backward only)
    double optimizerStateBytes = 4; ///< bytes of one optimizer state element
    double activationBytes = 2;     ///< element size of saved activations
    const char *source = "";
};

struct RegimeInfo
{
    Regime regime;
    const char *id;
    const char *label;     ///< what it keeps, translatable (context "Field")
    const char *shortName; ///< for titles: "mixed precision", translatable (context "Terms")
};

const std::vector<RegimeInfo> &allRegimes();
std::optional<Regime> parseRegime(const std::string &id);
const char *regimeId(Regime regime);
RegimeBytes regimeBytes(Regime regime);

struct OptimizerInfo
{
    Optimizer optimizer;
    const char *id;
    const char *label;
    /// Full-size state tensors per parameter, in the regime's state dtype.
    double statesPerParam;
    /// Fixed bytes per parameter regardless of regime (8-bit states), or < 0.
    double fixedBytesPerParam;
    const char *source;
};

const std::vector<OptimizerInfo> &allOptimizers();
const OptimizerInfo &optimizerInfo(Optimizer optimizer);
std::optional<Optimizer> parseOptimizer(const std::string &id);

std::optional<OptimizerImpl> parseOptimizerImpl(const std::string &id);
const char *optimizerImplId(OptimizerImpl impl);

} // namespace core
