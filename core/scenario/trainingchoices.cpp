#include "core/scenario/trainingchoices.h"

#include "core/base/lookup.h"
#include "core/base/translatable.h"
#include "core/scenario/inputspellings.h"

namespace core {

const std::vector<RegimeInfo> &allRegimes()
{
    static const std::vector<RegimeInfo> regimes = {
        {Regime::Fp32, "fp32", QT_TRANSLATE_NOOP("Field", "fp32 (everything 32-bit)"), QT_TRANSLATE_NOOP("Terms", "fp32")},
        {Regime::Amp, "amp", QT_TRANSLATE_NOOP("Field", "PyTorch AMP (fp32 params + autocast)"), QT_TRANSLATE_NOOP("Terms", "AMP")},
        {Regime::Mixed, "mixed", QT_TRANSLATE_NOOP("Field", "16-bit weights + fp32 master (ZeRO paper)"), QT_TRANSLATE_NOOP("Terms", "mixed precision")},
        {Regime::DeepSpeed, "deepspeed", QT_TRANSLATE_NOOP("Field", "DeepSpeed accounting (+ fp32 gradient buffer)"), QT_TRANSLATE_NOOP("Terms", "DeepSpeed mixed precision")},
        {Regime::Bf16Pure, "bf16-pure", QT_TRANSLATE_NOOP("Field", "pure bf16 (weights, grads, states)"), QT_TRANSLATE_NOOP("Terms", "pure bf16")},
    };
    return regimes;
}

std::optional<Regime> parseRegime(const std::string &id)
{
    return parseById(allRegimes(), &RegimeInfo::regime, id);
}

const char *regimeId(Regime regime)
{
    return findByValue(allRegimes(), &RegimeInfo::regime, regime).id;
}

RegimeBytes regimeBytes(Regime regime)
{
    RegimeBytes b;
    switch (regime) {
    case Regime::Fp32:
        // Gradients take the parameter dtype in PyTorch; S9 in the seed notes.
        b = {4, 0, 4, 0, 4, 4, "seed notes S9; PyTorch grads match the parameter dtype"};
        break;
    case Regime::Amp:
        // torch.autocast caches one 16-bit cast of each fp32 weight for the
        // forward/backward (torch/amp/autocast_mode.py, cache_enabled=True);
        // Hugging Face "Model training anatomy" counts it as 6 B/param "model".
        b = {4, 0, 4, 2, 4, 2, "PyTorch AMP docs; HF transformers docs, Model training anatomy"};
        break;
    case Regime::Mixed:
        // Rajbhandari et al. 2020 (ZeRO) §III-A: 2 + 2 + (4 + 4 + 4) = 16 B/param with Adam.
        b = {2, 4, 2, 0, 4, 2, "Rajbhandari et al. 2020, ZeRO §III-A"};
        break;
    case Regime::DeepSpeed:
        // DeepSpeed stage_1_and_2.py estimator comment: 2_grads_16bit + 4_grads_32bit.
        b = {2, 4, 6, 0, 4, 2, "DeepSpeed runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs"};
        break;
    case Regime::Bf16Pure:
        // Optimizer states take the parameter dtype (torch.optim creates them
        // with zeros_like(param)).
        b = {2, 0, 2, 0, 2, 2, "torch.optim states are zeros_like(param): bf16 params -> bf16 states"};
        break;
    }
    return b;
}

const std::vector<OptimizerInfo> &allOptimizers()
{
    static const std::vector<OptimizerInfo> optimizers = {
        {Optimizer::AdamW, "adamw", "AdamW", 2, -1, "Loshchilov & Hutter 2019; two moments (Kingma & Ba 2015)"},
        {Optimizer::Adam, "adam", "Adam", 2, -1, "Kingma & Ba 2015, Algorithm 1: first and second moment"},
        {Optimizer::AdamAmsgrad, "adam-amsgrad", "Adam (AMSGrad)", 3, -1,
         "Reddi et al. 2018: keeps max of second moments as a third state"},
        {Optimizer::AdamW8bit, "adamw-8bit", "AdamW 8-bit (bitsandbytes)", 0, 2,
         "Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization: 2 x 1 byte states"},
        {Optimizer::PagedAdamW, "paged-adamw", "Paged AdamW (bitsandbytes)", 2, -1,
         "Dettmers et al. 2023, QLoRA §3: paged states still occupy GPU memory until evicted"},
        {Optimizer::PagedAdamW8bit, "paged-adamw-8bit", "Paged AdamW 8-bit (bitsandbytes)", 0, 2,
         "bitsandbytes PagedAdamW8bit: 2 x 1 byte states, paged"},
        {Optimizer::Sgd, "sgd", "SGD", 0, -1, "torch.optim.SGD without momentum keeps no state"},
        {Optimizer::SgdMomentum, "sgd-momentum", "SGD with momentum", 1, -1,
         "torch.optim.SGD momentum_buffer: one state (seed notes S9)"},
        {Optimizer::Adafactor, "adafactor", "Adafactor", 0, -1,
         "Shazeer & Stern 2018 §3: factored second moment, row + column vectors per matrix"},
        {Optimizer::Lion, "lion", "Lion", 1, -1, "Chen et al. 2023, Symbolic Discovery of Optimization Algorithms: momentum only"},
        {Optimizer::Adagrad, "adagrad", "Adagrad", 1, -1, "Duchi et al. 2011: sum of squared gradients"},
        {Optimizer::RmsProp, "rmsprop", "RMSprop", 1, -1, "torch.optim.RMSprop square_avg (no momentum by default)"},
    };
    return optimizers;
}

const OptimizerInfo &optimizerInfo(Optimizer optimizer)
{
    return findByValue(allOptimizers(), &OptimizerInfo::optimizer, optimizer);
}

std::optional<Optimizer> parseOptimizer(const std::string &id)
{
    return parseById(allOptimizers(), &OptimizerInfo::optimizer, id);
}

std::optional<OptimizerImpl> parseOptimizerImpl(const std::string &id) { return parseSpelling(kOptimizerImplSpellings, id); }
const char *optimizerImplId(OptimizerImpl impl) { return spell(kOptimizerImplSpellings, impl); }

} // namespace core
