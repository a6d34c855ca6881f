#include "core/memory/trainingrun.h"

#include "core/model/formats.h"

#include <algorithm>

namespace core {

namespace {

/// Full training: every parameter trains, dtypes follow the regime.
TrainingRun fullTraining(const Scenario &s, TrainingRun run)
{
    run.trainable = regimeBytes(s.regime);
    const double e = run.trainable.activationBytes;
    // AMP and fp32 keep fp32 parameters, so the residual stream and the
    // norms' outputs are fp32; autocast casts each linear input to 16 bits.
    const double residual = s.regime == Regime::Amp || s.regime == Regime::Fp32 ? 4.0 : e;
    run.dtypes = {e, residual, residual, e, e, run.autocast};
    run.logitsBytes = e;
    return run;
}

/// LoRA / QLoRA: a frozen base in the weight format, adapters as the stack
/// makes them.
TrainingRun adapterTraining(const Scenario &s, TrainingRun run)
{
    const WeightFormat wf = s.effectiveWeights();
    const bool floatBase = isFloatFormat(wf);
    // TRL and accelerate load a QLoRA model that FSDP / ZeRO-3 will shard on
    // cpu/meta and skip prepare_model_for_kbit_training for it
    // (trl sft_trainer is_sharded_qlora).
    const bool shardedLoad = (s.zeroStage >= 3 && s.shardDegree() > 1) || s.parallel.offload == Offload::OptimizerAndParams;
    run.kbitUpcast = run.stack.kbitUpcastsToFp32 && !floatBase && !shardedLoad;
    run.lmHeadQuantized = run.stack.quantizesLmHead && !floatBase;
    run.unquantizedBytes = floatBase ? elementBytes(wf) : (run.kbitUpcast ? 4.0 : 2.0);

    // Adapters: fp32 where PEFT upcasts them (autocast_adapter_dtype), no
    // master copy since they are fp32 already; else the regime's bytes.
    if (run.stack.fp32Adapters)
        run.trainable = {4, 0, 4, run.autocast ? 2.0 : 0.0, 4, 2, "peft get_peft_model autocast_adapter_dtype=True"};
    else
        run.trainable = regimeBytes(s.regime);

    // Activations are 16-bit unless an fp32 base runs without autocast. The
    // residual stream has the dtype of the embeddings and norms; a 4-bit
    // layer returns its output in its input's dtype (Linear4bit:
    // `.to(inp_dtype)`), so after the kbit upcast the projections' outputs
    // are fp32 too, and attention runs in them unless autocast casts.
    const double compute = floatBase && elementBytes(wf) >= 4.0 && !run.autocast ? 4.0 : 2.0;
    const double residual = std::max(run.unquantizedBytes, compute);
    const double linearOut = run.kbitUpcast ? 4.0 : compute;
    run.dtypes = {compute, residual, residual, linearOut, run.autocast ? compute : linearOut, run.autocast};

    Trainability &t = run.trainability;
    t.fullModel = false;
    t.loraRank = s.lora.rank;
    for (LinearSlot slot : s.lora.targets)
        t.loraSlots |= 1u << static_cast<unsigned>(slot);
    t.adapterDtypeBytes = run.trainable.weights;
    t.adapterCastsInput = run.stack.adapterCastsInput && floatBase;
    t.adapterOutputBytes = run.autocast ? compute : run.trainable.weights;
    t.adapterDropout = s.effectiveLoraDropout() > 0.0;
    t.fusedQkvAdapter = run.stack.fusedQkvAdapter;
    t.repeatsKvAlways = run.stack.repeatsKvAlways;
    // bitsandbytes MatMul4Bit kept `ctx.tensors = (A, B)` up to 0.43.1
    // (autograd/_functions.py; "(None, B)" since #1270, 0.43.2); MatMul8bitLt
    // keeps A in every version (ctx.tensors = (CAt, subA, A)).
    t.baseKeepsInputs = !run.stack.torchaoNf4Base
        && ((isBitsandbytes4Bit(wf) && !versionRuleHolds(s.versions, VersionRule::BitsandbytesDropsInput))
            || wf == WeightFormat::BnbInt8);
    t.baseCastsInput = isBitsandbytes4Bit(wf);
    t.lmHeadKeepsInput = t.baseKeepsInputs && run.lmHeadQuantized;

    const bool torchaoNf4 = run.stack.torchaoNf4Base && (wf == WeightFormat::Nf4 || wf == WeightFormat::Nf4Dq);
    if (!floatBase)
        run.dequantBytesPerElement = torchaoNf4 && !run.stack.compiledLayers ? 8.0 + 3.0 * compute : compute;
    // lm_head runs in the dtype of its weight and input unless autocast
    // casts: fp32 after the kbit upcast.
    run.logitsBytes = run.autocast ? compute : std::max(run.unquantizedBytes, compute);
    return run;
}

} // namespace

TrainingRun trainingRun(const Scenario &s)
{
    TrainingRun run;
    run.stack = stackBehaviour(s);
    run.autocast = s.regime == Regime::Amp;
    run.adapters = s.mode == Mode::Lora || s.mode == Mode::Qlora;
    run = run.adapters ? adapterTraining(s, run) : fullTraining(s, run);
    run.trainability.ligerKernels = run.stack.ligerNormAndSwiglu;
    run.trainability.compiledLayers = run.stack.compiledLayers;
    run.trainability.offloadsWholeForward = run.stack.offloadsWholeForward;
    run.trainability.unslothRmsNorm = run.stack.unslothRmsNorm;
    run.trainability.unslothFusedLora = run.stack.unslothFusedLora;
    return run;
}

} // namespace core
