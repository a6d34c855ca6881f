// What each training stack keeps, checked against hand calculations from
// the libraries' own code (the lines are cited beside each expectation):
// PEFT + bitsandbytes (hf), torchtune + torchao NF4, LitGPT.

#include "core/engine/estimate.h"
#include "core/explain/explain.h"
#include "core/io/builtin.h"
#include "core/scenario/fields.h"
#include "core/scenario/servingruntime.h"
#include "core/scenario/stack.h"
#include "tests/support/substitution.h"
#include "tests/support/testregistry.h"

#include <QtTest>

namespace {

core::Scenario adapterRun(const char *id, core::Mode mode, core::TrainingStack stack)
{
    core::Scenario s;
    s.model = core::io::findPreset(id)->model;
    s.source = {core::ModelSource::Kind::Preset, id, "", 0};
    s.mode = mode;
    s.stack = stack;
    s.regime = core::Regime::Bf16Pure;
    return s;
}

constexpr double kH = 4096;  // Llama 2 7B hidden size
constexpr double kI = 11008; // and MLP width

} // namespace

class TestStacks : public QObject
{
    Q_OBJECT

private slots:
    void defaultsFollowTheStack();
    void autocastNeverCopiesQuantizedWeights();
    void kbitUpcastMakesTheResidualFp32();
    void dequantisationHoldsOneMatrix();
    void legacyBitsandbytesKeepsLayerInputs();
    void dropoutGivesEachAdapterItsOwnInput();
    void peftCastsAdapterInputsToFp32();
    void lossAndRecomputeNeverCoexist();
    void vllmProfilesForwardThenSampler();
    void logitsFollowTheLoopAndTheLoss();
    void trainerDefaultsFollowTheVersions();
    void plainLoopKeepsItsOutputThroughBackward();
    void ligerKernelsKeepLess();
    void offloadedCheckpointsWaitInHostMemory();
    void compiledLayersKeepWhatTheirProductsRead();
    void compiledTorchtuneLossHoldsTheLogitsOnce();
    void torchtuneOffloadsTheWholeForward();
    void unslothLoraLayersKeepTheirInputs();
    void loadingQuantisesOneWeightAtATime();
    void shardedLoadGathersOneUnit();
    void workspaceDerivationAddsUp_data();
    void workspaceDerivationAddsUp();
};

void TestStacks::trainerDefaultsFollowTheVersions()
{
    // A full fine-tune of Llama 3 8B in bf16 under the Trainer: the current
    // releases (transformers >= 4.54 with torch >= 2.8) default to
    // adamw_torch_fused, no full-size temporary; the Trainer of 2024
    // (transformers 4.44, torch 2.3) to adamw_torch, torch.optim.AdamW,
    // whose foreach step holds one bf16 copy of the parameters: 2 B x P
    // more at the optimizer step, nothing else.
    core::Scenario now;
    now.model = core::io::findPreset("llama-3-8b")->model;
    now.mode = core::Mode::Train;
    now.regime = core::Regime::Bf16Pure;
    core::Scenario then = now;
    std::optional<core::Message> error;
    then.versions = *core::parseLibraryVersions("transformers=4.44,torch=2.3", error);
    QCOMPARE(now.effectiveOptimizerImpl(), core::OptimizerImpl::Fused);
    QCOMPARE(then.effectiveOptimizerImpl(), core::OptimizerImpl::Foreach);
    const auto stepTotal = [](const core::Scenario &s) {
        for (const core::PhaseTotal &p : core::estimate(s).phases)
            if (p.phase == core::Phase::OptimizerStep)
                return p.terms[static_cast<std::size_t>(core::TermId::Workspace)];
        return core::Bytes();
    };
    const double params = static_cast<double>(core::countParameters(now.model).total);
    QCOMPARE(static_cast<double>((stepTotal(then) - stepTotal(now)).count()), 2.0 * params);
    // Why, rule by rule: 4.44 meets 4.32 (torch's AdamW), not 4.54 with
    // torch 2.8 (fused); torch 2.3 runs foreach.
    int held = 0, missed = 0;
    for (const core::VersionRuleUse &use : core::versionRulesUsed(then))
        (use.holds ? held : missed) += 1;
    QCOMPARE(held, 2);  // trainer_torch_adamw, torch_foreach_adamw
    QCOMPARE(missed, 2); // trainer_fused_adamw, loss_upcasts_logits (4.46)
    // The Trainer before 4.32 stepped with its own AdamW, one parameter at a
    // time; PyTorch before 2.0 had torch.optim.AdamW loop too.
    then.versions = *core::parseLibraryVersions("transformers=4.31", error);
    QCOMPARE(then.effectiveOptimizerImpl(), core::OptimizerImpl::Loop);
    then.versions = *core::parseLibraryVersions("transformers=4.40,torch=1.13", error);
    QCOMPARE(then.effectiveOptimizerImpl(), core::OptimizerImpl::Loop);
    // An explicit --optimizer-impl still wins.
    then.optimizerImpl = core::OptimizerImpl::Fused;
    QCOMPARE(then.effectiveOptimizerImpl(), core::OptimizerImpl::Fused);
    // --bnb legacy is --versions bitsandbytes=0.43.1.
    const core::FieldDescriptor &bnb = core::field(core::FieldId::Bitsandbytes);
    core::Scenario q = adapterRun("llama-2-7b", core::Mode::Qlora, core::TrainingStack::Hf);
    bnb.assign(q, std::string("legacy"));
    QCOMPARE(core::libraryVersionsText(q.versions), std::string("bitsandbytes=0.43.1"));
    QVERIFY(!core::parseLibraryVersions("transformers=four", error));
    QVERIFY(QString::fromStdString(core::render(*error)).contains("'four'"));
    QVERIFY(!core::parseLibraryVersions("tensorflow=2.1", error));
    // The rules table is in the enum's order (versionRuleInfo indexes it).
    for (std::size_t i = 0; i < core::allVersionRules().size(); ++i)
        QCOMPARE(static_cast<std::size_t>(core::allVersionRules()[i].rule), i);
}

void TestStacks::plainLoopKeepsItsOutputThroughBackward()
{
    // `out = model(**batch, labels=labels); out.loss.backward()`: `out`
    // holds the bf16 logits while the loss runs backward, beside what the
    // Trainer holds then (ForCausalLMLoss's log-softmax backward: the fp32
    // gradient in and out and the saved fp32 log-softmax, 12 B an element).
    // Qwen2.5 0.5B, vocabulary 151,936, LoRA, batch 1 x 1,024 tokens:
    //   Trainer: 1,024 x 151,936 x 12 B; loop: 1,024 x 151,936 x (2 + 12) B.
    core::Scenario trainer = adapterRun("qwen2.5-0.5b", core::Mode::Lora, core::TrainingStack::Hf);
    trainer.batch = 1;
    trainer.sequence = 1024;
    trainer.optimizerImpl = core::OptimizerImpl::Fused;
    core::Scenario loop = trainer;
    loop.stack = core::TrainingStack::Loop;
    const double elements = 1024.0 * 151936.0;
    QCOMPARE(static_cast<double>(core::estimate(trainer).term(core::TermId::Logits).count()), elements * 12);
    QCOMPARE(static_cast<double>(core::estimate(loop).term(core::TermId::Logits).count()), elements * 14);
    // Its optimizer is torch.optim.AdamW(model.parameters()): foreach on
    // CUDA (PyTorch >= 2.0), not the Trainer's fused default; PEFT's
    // defaults are the Trainer's (fp32 adapters, QLoRA's checkpointing).
    loop.optimizerImpl = core::OptimizerImpl::Auto;
    QCOMPARE(loop.effectiveOptimizerImpl(), core::OptimizerImpl::Foreach);
    QVERIFY(core::stackBehaviour(loop).fp32Adapters);
    loop.mode = core::Mode::Qlora;
    QCOMPARE(loop.effectiveCheckpointing(), core::Checkpointing::Full);
    QCOMPARE(core::parseStack("loop"), std::optional(core::TrainingStack::Loop));
}

void TestStacks::ligerKernelsKeepLess()
{
    // Llama 3 8B LoRA in bf16, batch 1 x 2,048 tokens, use_liger_kernel:
    // fused linear cross-entropy (ops/fused_linear_cross_entropy.py):
    // inc_factor = ceil(128,256 / 4,096) = 32, chunk = next power of two of
    // 2,048 / 32 = 64 tokens. The forward holds grad_input (2,048 x 4,096
    // x 2 B), one chunk's logits (64 x 128,256 x 2 B) and the fp32 loss per
    // token (2,048 x 4 B): 33,202,176 B, against the whole logits.
    core::Scenario s = adapterRun("llama-3-8b", core::Mode::Lora, core::TrainingStack::Hf);
    s.batch = 1;
    s.sequence = 2048;
    core::Scenario liger = s;
    liger.liger = true;
    QCOMPARE(liger.effectiveLogits(), core::LogitsMode::FusedLinear);
    const core::Estimate with = core::estimate(liger);
    const core::Estimate without = core::estimate(s);
    const auto forwardLogits = [](const core::Estimate &e) {
        for (const core::PhaseTotal &p : e.phases)
            if (p.phase == core::Phase::Forward)
                return p.terms[static_cast<std::size_t>(core::TermId::Logits)].count();
        return std::uint64_t(0);
    };
    QCOMPARE(forwardLogits(with), 2048ull * 4096 * 2 + 64ull * 128256 * 2 + 2048ull * 4);
    // RMSNorm keeps its bf16 input, not the fp32 copy pow saves (2 B less a
    // hidden element, two norms a layer); SwiGLU keeps gate and up and
    // recomputes silu (one bf16 intermediate row less): per token and layer
    // 2 x 2 x 4,096 + 2 x 14,336 = 45,056 B less.
    QCOMPARE(without.details.activationPerTokenPerLayer - with.details.activationPerTokenPerLayer, 45056.0);
    // An explicit --logits still wins.
    liger.logits = core::LogitsMode::Fp32;
    QCOMPARE(liger.effectiveLogits(), core::LogitsMode::Fp32);
}

void TestStacks::offloadedCheckpointsWaitInHostMemory()
{
    // Unsloth's offloaded gradient checkpointing: each layer's input goes to
    // the CPU (hidden_states.to("cpu", non_blocking=True)) and the GPU keeps
    // none. Llama 3 8B QLoRA (fp32 residual after the kbit upcast), batch 2
    // x 4,096 tokens: 32 layers x 2 x 4,096 x 4,096 x 4 B = 4 GiB move from
    // the GPU's activations to host memory; the recompute peak is full
    // checkpointing's.
    core::Scenario full = adapterRun("llama-3-8b", core::Mode::Qlora, core::TrainingStack::Hf);
    full.regime = core::Regime::Mixed;
    full.batch = 2;
    full.sequence = 4096;
    full.checkpointing = core::Checkpointing::Full;
    core::Scenario offloaded = full;
    offloaded.checkpointing = core::Checkpointing::Offloaded;
    const core::Estimate f = core::estimate(full);
    const core::Estimate o = core::estimate(offloaded);
    QCOMPARE(f.term(core::TermId::Activations) - o.term(core::TermId::Activations), core::Bytes::gib(4));
    QCOMPARE(o.details.hostBytesPerGpu, 4.0 * 1024 * 1024 * 1024);
    QCOMPARE(f.details.hostBytesPerGpu, 0.0);
    QVERIFY(core::recomputesLayers(*offloaded.checkpointing));
    // --unsloth makes it the default; an explicit --checkpointing wins.
    full.unsloth = true;
    QCOMPARE(full.effectiveCheckpointing(), core::Checkpointing::Full);
    full.checkpointing.reset();
    QCOMPARE(full.effectiveCheckpointing(), core::Checkpointing::Offloaded);
}

void TestStacks::compiledLayersKeepWhatTheirProductsRead()
{
    // Llama 3.2 3B (h 3,072, 24 heads of 128, 8 KV heads, MLP 8,192), full
    // fine-tune in bf16 with SDPA. Eager autograd, per token and layer:
    // each RMSNorm keeps the fp32 input pow saved (4 h) and, its weight
    // training, the normalised bf16 input (2 h); the norm's output feeds
    // the projections (2 h); q (2 x 3,072), K and V repeated to all heads
    // (2 x 2 x 3,072), the SDPA output (2 x 3,072) and its fp32 log-sum-exp
    // (4 x 24); silu's input gate (2 I), act(gate) and up for their product
    // (2 x 2 I) and down_proj's input (2 I).
    constexpr double h = 3072;
    constexpr double I = 8192;
    const double eager = 2 * (4 * h + 2 * h + 2 * h) + 2 * 3072 + 2 * 2 * 3072 + 2 * 3072 + 4 * 24
        + 2 * I + 2 * 2 * I + 2 * I;
    QCOMPARE(eager, 139360.0);
    core::Scenario s = adapterRun("llama-3.2-3b", core::Mode::Train, core::TrainingStack::Torchtune);
    s.checkpointing = core::Checkpointing::None;
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer, eager);
    // Compiled, the min-cut partitioner recomputes each norm's fp32 work
    // from its bf16 input (2 h) and act(gate) from gate, but keeps what a
    // matrix product or the attention kernel reads in backward
    // (ban_recompute_materialized_backward): the norms' outputs, the
    // repeated K and V, gate, up and the product.
    s.compile = true;
    const double compiled = 2 * (2 * h + 2 * h) + 2 * 3072 + 2 * 2 * 3072 + 2 * 3072 + 4 * 24 + 2 * 2 * I + 2 * I;
    QCOMPARE(compiled, 98400.0);
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer, compiled);
    // Inductor fuses torchao's NF4 dequantisation: one bf16 copy of the
    // largest matrix (8,192 x 3,072) instead of 14 B a weight.
    s.mode = core::Mode::Qlora;
    QCOMPARE(core::estimate(s).details.dequantBytes, 2.0 * I * h);
    s.compile = false;
    QCOMPARE(core::estimate(s).details.dequantBytes, 14.0 * I * h);
}

void TestStacks::compiledTorchtuneLossHoldsTheLogitsOnce()
{
    // torchtune's compile_loss compiles each chunk's upcast and
    // cross-entropy: the bf16 logits (2 B each) are all the loss saves, and
    // backward writes one chunk's bf16 gradient at a time (2 B / 8 chunks).
    core::Scenario s = adapterRun("llama-3.2-3b", core::Mode::Lora, core::TrainingStack::Torchtune);
    s.batch = 2;
    s.sequence = 4096;
    QCOMPARE(s.effectiveLogits(), core::LogitsMode::Chunked);
    s.compile = true;
    QCOMPARE(s.effectiveLogits(), core::LogitsMode::Fused);
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.details.logitsElementBytes, 2.0 + 2.0 / 8);
    const auto logitsAt = [&e](core::Phase phase) {
        for (const core::PhaseTotal &p : e.phases)
            if (p.phase == phase)
                return p.terms[static_cast<std::size_t>(core::TermId::Logits)].count();
        return std::uint64_t(0);
    };
    QCOMPARE(logitsAt(core::Phase::Forward), 2ull * 4096 * 128256 * 2);
    QCOMPARE(logitsAt(core::Phase::Backward), 2ull * 4096 * 128256 * 2 + 2ull * 4096 * 128256 * 2 / 8);
    // An explicit --logits wins over the compiled loss.
    s.logits = core::LogitsMode::Chunked;
    QCOMPARE(s.effectiveLogits(), core::LogitsMode::Chunked);
}

void TestStacks::torchtuneOffloadsTheWholeForward()
{
    // torchtune's OffloadActivations hooks the model's whole forward but the
    // output layer: with checkpointing, every layer's input (28 x 2 x 4,096
    // x 3,072 x 2 B) and the final RMSNorm's fp32 input (2 x 4,096 x 4 x
    // 3,072 B) go to host memory, and the GPU keeps none of them. Unsloth's
    // checkpointer moves the layer inputs only.
    core::Scenario s = adapterRun("llama-3.2-3b", core::Mode::Qlora, core::TrainingStack::Torchtune);
    s.batch = 2;
    s.sequence = 4096;
    s.checkpointing = core::Checkpointing::Offloaded;
    const core::Estimate tt = core::estimate(s);
    constexpr double tokens = 2 * 4096;
    QCOMPARE(tt.details.hostBytesPerGpu, 28 * tokens * 3072 * 2 + tokens * 4 * 3072);
    QCOMPARE(tt.term(core::TermId::Activations).count(), 0ull);
    s.stack = core::TrainingStack::Hf;
    s.unsloth = true;
    s.regime = core::Regime::Bf16Pure;
    const core::Estimate unsloth = core::estimate(s);
    QVERIFY(unsloth.term(core::TermId::Activations).count() > 0);
}

void TestStacks::unslothLoraLayersKeepTheirInputs()
{
    // Llama 3 8B (h 4,096, 32 heads, K/V 1,024 wide, MLP 14,336), LoRA on
    // every projection, bf16, no checkpointing, with Unsloth's patched
    // model: fast_rms_layernorm keeps each norm's input (2 h twice);
    // LoRA_QKV keeps X, the attention input (2 h); SDPA q (2 x 4,096), K and
    // V repeated (2 x 2 x 4,096), its output (2 x 4,096, also LoRA_W's X)
    // and log-sum-exp (4 x 32); LoRA_MLP keeps X (2 h), e and g (2 x 2 I),
    // and recomputes x.A, act(gate) and the product in backward.
    constexpr double h = 4096;
    constexpr double I = 14336;
    const double perToken = 2 * 2 * h + 2 * h + 2 * 4096 + 2 * 2 * 4096 + 2 * 4096 + 4 * 32 + 2 * h + 2 * 2 * I;
    QCOMPARE(perToken, 123008.0);
    core::Scenario s = adapterRun("llama-3-8b", core::Mode::Lora, core::TrainingStack::Hf);
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::K, core::LinearSlot::V, core::LinearSlot::O,
                      core::LinearSlot::Gate, core::LinearSlot::Up, core::LinearSlot::Down};
    s.unsloth = true;
    s.checkpointing = core::Checkpointing::None;
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer, perToken);
    // With dropout Unsloth leaves PEFT's LoRA layers as they are (no fast
    // patching) but still runs its RMSNorm: PEFT's layers keep what they
    // keep, the norms 4 B less a hidden element than LlamaRMSNorm's fp32
    // copy (two a layer).
    s.lora.dropout = 0.05;
    core::Scenario peft = s;
    peft.unsloth = false;
    QCOMPARE(core::estimate(peft).details.activationPerTokenPerLayer - core::estimate(s).details.activationPerTokenPerLayer,
             2 * (4 * h - 2 * h));
}

void TestStacks::loadingQuantisesOneWeightAtATime()
{
    // Loading a 4-bit base, each linear weight comes to the GPU in 16 bits
    // and is quantised there, one at a time. LitGPT quantises the lm_head
    // too (Lightning's _quantize_on_load_hook, weight.to(dtype=torch.half)):
    // its 128,256 x 4,096 x 2 B copy, beside every other weight and the
    // adapters (built before load_checkpoint). transformers keeps the
    // lm_head in 16 bits (get_keys_to_not_convert): its largest quantised
    // weight is an MLP matrix, 14,336 x 4,096 x 2 B, and PEFT's adapters
    // come after from_pretrained.
    const auto loadPhase = [](const core::Scenario &s) {
        for (const core::PhaseTotal &p : core::estimate(s).phases)
            if (p.phase == core::Phase::Load)
                return p;
        return core::PhaseTotal{};
    };
    core::Scenario lit = adapterRun("llama-3-8b", core::Mode::Qlora, core::TrainingStack::LitGpt);
    lit.batch = 1;
    lit.sequence = 128;
    const core::PhaseTotal litLoad = loadPhase(lit);
    QCOMPARE(litLoad.phase, core::Phase::Load);
    QCOMPARE(litLoad.terms[static_cast<std::size_t>(core::TermId::Workspace)].count(), 128256ull * 4096 * 2);
    QVERIFY(litLoad.terms[static_cast<std::size_t>(core::TermId::Lora)].count() > 0);
    QCOMPARE(litLoad.terms[static_cast<std::size_t>(core::TermId::Activations)].count(), 0ull);
    core::Scenario hf = lit;
    hf.stack = core::TrainingStack::Hf;
    const core::PhaseTotal hfLoad = loadPhase(hf);
    QCOMPARE(hfLoad.terms[static_cast<std::size_t>(core::TermId::Workspace)].count(), 14336ull * 4096 * 2);
    QCOMPARE(hfLoad.terms[static_cast<std::size_t>(core::TermId::Lora)].count(), 0ull);
    // Neither loader holds more than the step: the one-at-a-time copy is no
    // larger than the dequantised weight a 4-bit layer makes when it runs.
    QVERIFY(core::estimate(lit).peakPhase != core::Phase::Load);
    QVERIFY(core::estimate(hf).peakPhase != core::Phase::Load);
    // A 16-bit base loads as it is: no load phase.
    hf.mode = core::Mode::Lora;
    QCOMPARE(loadPhase(hf).phase, core::Phase::Forward);
}

void TestStacks::shardedLoadGathersOneUnit()
{
    // Llama 2 7B, full fine-tune in bf16, ZeRO-3 over 8 GPUs. FSDP's
    // sync_module_states moves one unit to the GPU, broadcasts and shards
    // it before the next; transformers' zero3 loader gathers one module at
    // a time. Each rank holds its shard (6,738,415,616 x 2 B / 8) and one
    // decoder layer whole: 4 x 4,096^2 + 3 x 4,096 x 11,008 + 2 x 4,096 =
    // 202,383,360 parameters x 2 B. No gradient or optimizer state exists.
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Train, core::TrainingStack::Hf);
    s.gpus = 8;
    s.zeroStage = 3;
    const core::Estimate e = core::estimate(s);
    const core::PhaseTotal *load = nullptr;
    for (const core::PhaseTotal &p : e.phases)
        if (p.phase == core::Phase::Load)
            load = &p;
    QVERIFY(load);
    const auto term = [load](core::TermId id) { return load->terms[static_cast<std::size_t>(id)].count(); };
    QCOMPARE(term(core::TermId::Weights), 6'738'415'616ull * 2 / 8);
    QCOMPARE(term(core::TermId::GatherBuffer), 202'383'360ull * 2);
    QCOMPARE(term(core::TermId::Optimizer), 0ull);
    QCOMPARE(term(core::TermId::Gradients), 0ull);
    QVERIFY(e.peakPhase != core::Phase::Load);
    // Whole layers on every GPU (ZeRO-2): nothing is gathered, no load phase.
    s.zeroStage = 2;
    for (const core::PhaseTotal &p : core::estimate(s).phases)
        QVERIFY(p.phase != core::Phase::Load);
}

void TestStacks::defaultsFollowTheStack()
{
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Qlora, core::TrainingStack::Hf);
    // peft prepare_model_for_kbit_training(use_gradient_checkpointing=True).
    QCOMPARE(s.effectiveCheckpointing(), core::Checkpointing::Full);
    QCOMPARE(s.effectiveWeights(), core::WeightFormat::Nf4Dq);
    QCOMPARE(s.effectiveLoraDropout(), 0.0); // LoraConfig(lora_dropout=0.0)
    s.mode = core::Mode::Lora;
    QCOMPARE(s.effectiveCheckpointing(), core::Checkpointing::None); // TrainingArguments default
    // torchtune configs: enable_activation_checkpointing: True, fused AdamW,
    // chunked cross-entropy.
    s.stack = core::TrainingStack::Torchtune;
    QCOMPARE(s.effectiveCheckpointing(), core::Checkpointing::Full);
    QCOMPARE(s.effectiveOptimizerImpl(), core::OptimizerImpl::Fused);
    QCOMPARE(s.effectiveLogits(), core::LogitsMode::Chunked);
    // LitGPT finetune/lora.py: lora_dropout=0.05, no checkpointing on one device.
    s.stack = core::TrainingStack::LitGpt;
    QCOMPARE(s.effectiveLoraDropout(), 0.05);
    QCOMPARE(s.effectiveCheckpointing(), core::Checkpointing::None);
    // An explicit choice wins.
    s.checkpointing = core::Checkpointing::Selective;
    QCOMPARE(s.effectiveCheckpointing(), core::Checkpointing::Selective);
    s.mode = core::Mode::Inference;
    QCOMPARE(s.effectiveCheckpointing(), core::Checkpointing::None);
}

void TestStacks::autocastNeverCopiesQuantizedWeights()
{
    // The reproduction: Llama 2 70B QLoRA under AMP, FSDP full shard.
    core::Scenario s = adapterRun("llama-2-70b", core::Mode::Qlora, core::TrainingStack::Hf);
    s.weights = core::WeightFormat::Nf4;
    s.regime = core::Regime::Amp;
    s.zeroStage = 3;
    s.gpus = 2;
    s.checkpointing = core::Checkpointing::Full;
    s.attention = core::Attention::Flash;
    s.batch = 4;
    s.sequence = 4096;
    s.lora.rank = 16;
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::K, core::LinearSlot::V, core::LinearSlot::O};
    const core::Estimate e = core::estimate(s);
    // Adapters: 16 x (in + out) for q (8192 + 8192), k and v (8192 + 1024),
    // o (8192 + 8192), in 80 layers = 65,536,000 fp32 parameters. autocast
    // caches one 16-bit cast of each (fp32 leaves that require grad only,
    // ATen cached_cast); the 4-bit base is never autocast, and FSDP's
    // sharded load skips the fp32 upcast, so no frozen fp32 weight exists.
    QCOMPARE(e.details.loraParams, 65'536'000ull);
    QCOMPARE(e.details.autocastBytes, 65'536'000.0 * 2);
    QVERIFY(!e.details.kbitUpcast);
    // The gathered layer is stored NF4: 2 x 855,654,400 parameters x 4.5 / 8.
    QCOMPARE(e.term(core::TermId::GatherBuffer).count(),
             static_cast<std::uint64_t>(std::ceil(2.0 * 855'654'400 * 4.5 / 8)));
}

void TestStacks::kbitUpcastMakesTheResidualFp32()
{
    // Full checkpointing keeps each layer's input: L x b x s x h x bytes,
    // plus the final norm's fp32 input (4 h per token; LlamaRMSNorm).
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Qlora, core::TrainingStack::Hf);
    s.sequence = 512;
    const double tokens = 512;
    // prepare_model_for_kbit_training: fp32 embeddings and norms, so the
    // hidden states between layers are fp32.
    QCOMPARE(core::estimate(s).details.activationOutsideLayers, tokens * 4 * kH);
    QCOMPARE(static_cast<double>(core::estimate(s).term(core::TermId::Activations).count()), 32 * tokens * kH * 4 + tokens * 4 * kH);
    s.stack = core::TrainingStack::Torchtune; // bf16 throughout
    QCOMPARE(static_cast<double>(core::estimate(s).term(core::TermId::Activations).count()), 32 * tokens * kH * 2 + tokens * 4 * kH);
}

void TestStacks::dequantisationHoldsOneMatrix()
{
    // The largest 4-bit matrix of Llama 2 7B is an MLP projection, 11,008 x 4,096.
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Qlora, core::TrainingStack::Hf);
    // bitsandbytes MatMul4Bit: F.dequantize_4bit(B, state).to(A.dtype), one 16-bit copy.
    QCOMPARE(core::estimate(s).details.dequantBytes, 2.0 * kI * kH);
    // torchao NF4Tensor.get_original_weight: two int64 index tensors of n/2
    // (8 B per weight) and dequantised halves, scaled halves and their
    // torch.stack in bf16 (3 x 2 B) are alive together.
    s.stack = core::TrainingStack::Torchtune;
    QCOMPARE(core::estimate(s).details.dequantBytes, 14.0 * kI * kH);
    // LitGPT quantises lm_head too: 32,000 x 4,096 dequantised per call.
    s.stack = core::TrainingStack::LitGpt;
    QCOMPARE(core::estimate(s).details.headDequantBytes, 2.0 * 32000 * kH);
    // A 16-bit base dequantises nothing.
    s.mode = core::Mode::Lora;
    QCOMPARE(core::estimate(s).details.dequantBytes, 0.0);
}

void TestStacks::legacyBitsandbytesKeepsLayerInputs()
{
    // LoRA on q and v without dropout: the adapters already keep the
    // attention input, and SDPA keeps its output (o_proj's input). What
    // bitsandbytes <= 0.43.1 adds by keeping each 4-bit layer's input A:
    // the MLP input (gate, up: 2 h bytes) and down_proj's (2 I bytes).
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Qlora, core::TrainingStack::LitGpt);
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::V};
    s.lora.dropout = 0.0;
    const double current = core::estimate(s).details.activationPerTokenPerLayer;
    s.versions.set(core::Library::Bitsandbytes, core::kLastBitsandbytesKeepingInputs);
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer - current, 2 * kH + 2 * kI);
    // torchao's linear_nf4 saves only the weight, whatever bitsandbytes does.
    s.stack = core::TrainingStack::Torchtune;
    const double torchao = core::estimate(s).details.activationPerTokenPerLayer;
    s.versions.set(core::Library::Bitsandbytes, std::nullopt);
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer, torchao);
}

void TestStacks::dropoutGivesEachAdapterItsOwnInput()
{
    // Without dropout lora_A reads the attention input itself (2 h bytes,
    // kept once). With dropout each adapter keeps its dropped copy (2 h)
    // and a 1-byte mask (h): q and v keep 6 h instead of 2 h.
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Lora, core::TrainingStack::Torchtune);
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::V};
    s.lora.dropout = 0.0;
    const double none = core::estimate(s).details.activationPerTokenPerLayer;
    s.lora.dropout = 0.1;
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer - none, 4 * kH);
    // LitGPT's LoRAQKVLinear has one dropout for the fused qkv input: 3 h
    // instead of 2 h.
    s.stack = core::TrainingStack::LitGpt;
    s.lora.dropout = 0.0;
    const double fused = core::estimate(s).details.activationPerTokenPerLayer;
    s.lora.dropout = 0.1;
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer - fused, kH);
}

void TestStacks::peftCastsAdapterInputsToFp32()
{
    // peft lora.Linear.forward casts x to the fp32 adapters' dtype: q and v
    // each keep a 4 h copy (8 h) where a bf16 adapter shares the 2 h input;
    // lora_A's rank-8 output is fp32 too (2 x 8 x 4 B against 2 x 8 x 2 B).
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Lora, core::TrainingStack::Torchtune);
    s.lora.rank = 8;
    s.lora.targets = {core::LinearSlot::Q, core::LinearSlot::V};
    const double bf16 = core::estimate(s).details.activationPerTokenPerLayer;
    s.stack = core::TrainingStack::Hf;
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer - bf16, 6 * kH + 32);
    // Under autocast lora_A keeps the 16-bit cast autocast made of the fp32
    // copy: still one private copy per adapter, 2 h each.
    s.regime = core::Regime::Amp;
    QCOMPARE(core::estimate(s).details.activationPerTokenPerLayer - bf16, 2 * kH);
}

void TestStacks::lossAndRecomputeNeverCoexist()
{
    // The loss's saved tensors and gradients are freed before the last
    // layer is recomputed, so the backward peak is one or the other.
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Qlora, core::TrainingStack::Torchtune);
    s.batch = 4;
    s.logits = core::LogitsMode::Fp32; // 14 B per logit: the loss is the larger moment
    const core::Estimate e = core::estimate(s);
    const core::PhaseTotal backward = e.phases[1];
    QCOMPARE(backward.phase, core::Phase::Backward);
    QCOMPARE(std::string(backward.moment), std::string("loss backward"));
    QCOMPARE(backward.terms[static_cast<std::size_t>(core::TermId::Workspace)].count(), 0ull);
    QVERIFY(e.details.recomputeLayerBytes > 0);
}

void TestStacks::vllmProfilesForwardThenSampler()
{
    // Llama 3 8B under vllm serve on an H100 (the default card: 70 GiB or
    // more): 8,192 batched tokens, 1,024 sequences, bf16.
    // vLLM 0.24, the last release with V1's model runner for dense models.
    core::Scenario s;
    s.model = core::io::findPreset("llama-3-8b")->model;
    s.serving = core::ServingEngine::Vllm;
    s.sequence = 8192;
    std::optional<core::Message> error;
    s.versions = *core::parseLibraryVersions("vllm=0.24", error);
    const core::Estimate e = core::estimate(s);
    // Profile forward, attention skipped: residual and normed input (2 h)
    // plus merged gate_up (2 I) and SiluAndMul's output (I):
    // 8192 x 2 B x (2 x 4096 + 3 x 14336) = 838,860,800 B.
    QCOMPARE(e.details.workspaceBytes, 838'860'800.0);
    // Sampler warm-up (0.17 on: Triton's top-k and top-p in place): 1,024
    // rows x 128,256 x (2 bf16 + 4 fp32 + 4 probabilities + 4 exponential
    // draw) B = 1,838,678,016, plus the forward's hidden states 8192 x 4096
    // x 2 B = 67,108,864: 1,905,786,880 B, the larger moment.
    QCOMPARE(e.term(core::TermId::Logits).count(), 1'905'786'880ull);
    QCOMPARE(e.term(core::TermId::Workspace).count(), 0ull);
    QCOMPARE(std::string(e.phases.front().moment), std::string("sampler warm-up"));
    // Before 0.17 it sorted: 2 + 26 B, 1,024 x 128,256 x 28 = 3,677,356,032
    // + 67,108,864 = 3,744,464,896 B.
    core::Scenario sorted = s;
    sorted.versions = *core::parseLibraryVersions("vllm=0.16", error);
    QCOMPARE(core::estimate(sorted).term(core::TermId::Logits).count(), 3'744'464'896ull);
    // From 0.25 a dense model runs on Model Runner V2, whose warm-up samples
    // greedily: the bf16 logits alone, 1,024 x 128,256 x 2 = 262,668,288 B
    // + the hidden states 67,108,864 = 329,777,152 B, below the forward's
    // 838,860,800 B, which is now the larger moment. An MoE model keeps V1's
    // top-k and top-p until 0.29 (Mixtral: 32,000 x 14 B a row).
    core::Scenario v2 = s;
    v2.versions = *core::parseLibraryVersions("vllm=0.25", error);
    const core::Estimate onV2 = core::estimate(v2);
    QCOMPARE(onV2.term(core::TermId::Logits).count(), 0ull);
    QCOMPARE(onV2.details.workspaceBytes, 838'860'800.0);
    QVERIFY(core::vllmModelRunnerV2(v2));
    v2.model = core::io::findPreset("mixtral-8x7b")->model;
    QVERIFY(!core::vllmModelRunnerV2(v2));
    v2.versions = *core::parseLibraryVersions("vllm=0.29", error);
    QVERIFY(core::vllmModelRunnerV2(v2));
    // On a card under 70 GiB (an L4): 2,048 tokens and 256 sequences.
    // Forward 2048 x 2 x (2 x 4096 + 3 x 14336) = 209,715,200 B; sampler
    // 256 x 128,256 x 14 = 459,669,504 + 2048 x 4096 x 2 = 16,777,216.
    const core::Scenario small = core::onServingCard(s, *core::io::builtinCatalog().find("l4"));
    const core::Estimate onL4 = core::estimate(small);
    QCOMPARE(onL4.details.workspaceBytes, 209'715'200.0);
    QCOMPARE(onL4.term(core::TermId::Logits).count(), 476'446'720ull);
    // Fewer batched tokens than sequences: one row per token.
    s.maxBatchedTokens = 128;
    QCOMPARE(core::estimate(s).details.samplerRows, 128.0);
}

void TestStacks::logitsFollowTheLoopAndTheLoss()
{
    // Bytes per logit at the start of backward. log_softmax_backward holds
    // its saved fp32 output and the fp32 gradient in and out: 12 B.
    core::Scenario s = adapterRun("llama-2-7b", core::Mode::Lora, core::TrainingStack::Torchtune);
    s.logits = core::LogitsMode::Fp32;
    // torchtune's recipes delete the logits before loss.backward() since
    // 0.3.0 (PR 1235); before, `logits` stayed a local across it: + 2 B.
    QCOMPARE(core::estimate(s).details.logitsElementBytes, 12.0);
    s.versions.set(core::Library::Torchtune, core::Version{0, 2, 0});
    QCOMPARE(core::estimate(s).details.logitsElementBytes, 14.0);
    // The Hugging Face Trainer has dropped the model outputs by then.
    s.stack = core::TrainingStack::Hf;
    QCOMPARE(core::estimate(s).details.logitsElementBytes, 12.0);
    // transformers <= 4.44 / torchtune 2024: the model returns fp32 logits and
    // the loss shifts a contiguous fp32 copy; a loop that keeps it: + 4 B.
    s.logits = core::LogitsMode::Fp32Shift;
    QCOMPARE(core::estimate(s).details.logitsElementBytes, 12.0);
    s.stack = core::TrainingStack::Torchtune;
    QCOMPARE(core::estimate(s).details.logitsElementBytes, 16.0);
    // Forward, at the loss: fp32 logits, the shifted copy, the log-softmax:
    // 12 B for each of 1 x 2,048 x 32,000 logits, with full checkpointing's
    // layer inputs and the other terms unchanged between the two moments.
    s.checkpointing = core::Checkpointing::Full;
    const core::Estimate e = core::estimate(s);
    QCOMPARE(e.phases.front().terms[static_cast<std::size_t>(core::TermId::Logits)].count(),
             12ull * 2048 * 32000);
}

void TestStacks::workspaceDerivationAddsUp_data()
{
    QTest::addColumn<int>("stack");
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("regime");
    QTest::addColumn<int>("checkpointing");
    QTest::newRow("hf qlora amp") << int(core::TrainingStack::Hf) << int(core::Mode::Qlora) << int(core::Regime::Amp)
                                  << int(core::Checkpointing::Full);
    QTest::newRow("torchtune qlora, no checkpointing")
        << int(core::TrainingStack::Torchtune) << int(core::Mode::Qlora) << int(core::Regime::Bf16Pure)
        << int(core::Checkpointing::None);
    QTest::newRow("litgpt qlora") << int(core::TrainingStack::LitGpt) << int(core::Mode::Qlora)
                                  << int(core::Regime::Bf16Pure) << int(core::Checkpointing::None);
    QTest::newRow("full training amp") << int(core::TrainingStack::Hf) << int(core::Mode::Train)
                                       << int(core::Regime::Amp) << int(core::Checkpointing::Full);
}

void TestStacks::workspaceDerivationAddsUp()
{
    QFETCH(int, stack);
    QFETCH(int, mode);
    QFETCH(int, regime);
    QFETCH(int, checkpointing);
    core::Scenario s = adapterRun("llama-3-8b", static_cast<core::Mode>(mode), static_cast<core::TrainingStack>(stack));
    s.regime = static_cast<core::Regime>(regime);
    s.checkpointing = static_cast<core::Checkpointing>(checkpointing);
    s.sequence = 512;
    const core::Estimate e = core::estimate(s);
    const core::Derivation d = core::explainTerm(s, e, core::TermId::Workspace);
    // The substituted values are the parts shown in the formula; they add
    // up to the term (each part rounded up to whole bytes on its own).
    const std::string substituted(d.substituted);
    const std::optional<double> sum = testsupport::evaluateTerm(substituted);
    QVERIFY2(sum, substituted.c_str());
    const double workspace = static_cast<double>(e.term(core::TermId::Workspace).count());
    const double parts = static_cast<double>(testsupport::productCount(substituted));
    QVERIFY2(std::abs(*sum - workspace) <= parts + 1.0, substituted.c_str());
}

VRAM_TEST_MAIN(tst_stacks, TestStacks, None)
#include "tst_stacks.moc"
