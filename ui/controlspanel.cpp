#include "ui/controlspanel.h"

#include "core/io/builtin.h"
#include "core/overheads.h"
#include "core/stack.h"
#include "ui/scenariocontroller.h"
#include "ui/sliderfields.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace ui {

namespace {

const core::LinearSlot kSlots[7] = {core::LinearSlot::Q,    core::LinearSlot::K,  core::LinearSlot::V,
                                    core::LinearSlot::O,    core::LinearSlot::Gate, core::LinearSlot::Up,
                                    core::LinearSlot::Down};

/// "7.24B", "125M", "1.20T": parameter counts as people say them.
QString parameterText(std::uint64_t n)
{
    const double v = static_cast<double>(n);
    if (v >= 1e12)
        return QStringLiteral("%1T").arg(v / 1e12, 0, 'f', 2);
    if (v >= 1e9)
        return QStringLiteral("%1B").arg(v / 1e9, 0, 'f', 2);
    return QStringLiteral("%1M").arg(v / 1e6, 0, 'f', 0);
}

QString groupedText(std::uint64_t n) { return QString::fromStdString(core::groupDigits(n)); }

template <typename Enum>
int indexOfData(const QComboBox *combo, Enum value)
{
    return combo->findData(static_cast<int>(value));
}

/// A combo box that does not widen the side panel to its longest item.
QComboBox *compactCombo()
{
    auto *combo = new QComboBox;
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(12);
    return combo;
}

QComboBox *enumCombo(std::initializer_list<std::pair<QString, int>> items)
{
    auto *combo = compactCombo();
    for (const auto &[label, value] : items)
        combo->addItem(label, value);
    return combo;
}

} // namespace

ControlsPanel::ControlsPanel(ScenarioController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller)
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildMainControls());
    m_advancedToggle = new QToolButton;
    m_advancedToggle->setText(tr("&Advanced settings"));
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
    m_advancedToggle->setAutoRaise(true);
    layout->addWidget(m_advancedToggle);
    m_advanced = buildAdvanced();
    m_advanced->setVisible(false);
    layout->addWidget(m_advanced);
    layout->addStretch(1);
    connect(m_advancedToggle, &QToolButton::toggled, this, [this](bool open) {
        m_advanced->setVisible(open);
        m_advancedToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        QSettings().setValue(QStringLiteral("advancedOpen"), open);
    });
    m_advancedToggle->setChecked(QSettings().value(QStringLiteral("advancedOpen"), false).toBool());

    connect(m_controller, &ScenarioController::scenarioReplaced, this, &ControlsPanel::syncFromScenario);
    connect(m_controller, &ScenarioController::estimateChanged, this, &ControlsPanel::updateEnabledState);
    connect(m_controller, &ScenarioController::estimateChanged, this, &ControlsPanel::syncModel);
    // Other panels change advanced settings too (a cluster plan sets GPUs,
    // ZeRO stage and checkpointing; calibration the reserve and context).
    connect(m_controller, &ScenarioController::estimateChanged, this, &ControlsPanel::syncAdvanced);
    syncFromScenario();
}

QWidget *ControlsPanel::buildMainControls()
{
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    // Labels above their fields: a narrow side panel keeps the sliders long.
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);

    m_model = compactCombo();
    m_model->setToolTip(tr("A preset (its published config.json), a custom parameter count, or a config.json you opened"));
    fillModelCombo();
    auto *openConfig = new QPushButton(tr("config.json…"));
    openConfig->setToolTip(tr("Read a Hugging Face config.json (Ctrl+Shift+O)"));
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(openConfig);
    auto *modelLabel = new QLabel(tr("&Model:"));
    modelLabel->setBuddy(m_model);
    form->addRow(modelLabel, modelRow);
    connect(m_model, &QComboBox::activated, this, &ControlsPanel::modelChosen);
    connect(openConfig, &QPushButton::clicked, this, &ControlsPanel::openConfigRequested);

    m_mode = new QButtonGroup(this);
    auto *modeRow = new QHBoxLayout;
    modeRow->setSpacing(0);
    const QString modeNames[] = {tr("Inference"), tr("Full training"), tr("LoRA"), tr("QLoRA")};
    for (int i = 0; i < 4; ++i) {
        auto *button = new QPushButton(modeNames[i]);
        button->setCheckable(true);
        m_mode->addButton(button, i);
        modeRow->addWidget(button);
    }
    auto *modeLabel = new QLabel(tr("M&ode:"));
    modeLabel->setBuddy(m_mode->button(0));
    form->addRow(modeLabel, modeRow);
    connect(m_mode, &QButtonGroup::idClicked, this, [this](int id) {
        m_controller->update([id](core::Scenario &s) { s.mode = static_cast<core::Mode>(id); });
        updateEnabledState();
    });
    // What the training stack turns on for this mode, so that QLoRA's
    // defaults (checkpointing, the kbit upcast) are visible where the mode
    // is chosen; changed in the advanced settings.
    m_stackNote = new QLabel;
    m_stackNote->setWordWrap(true);
    m_stackNote->setTextFormat(Qt::PlainText);
    form->addRow(m_stackNote);

    m_parameters = new LogSliderField(100'000'000ull, 2'000'000'000'000ull, parameterText);
    m_parameters->setToolTip(tr("Parameter count (log scale, 0.1B to 2T). Moving it describes the model by its count only."));
    form->addRow(tr("&Parameters:"), m_parameters);
    connect(m_parameters, &LogSliderField::valueChanged, this,
            [this](std::uint64_t n) { m_controller->useParameterCount(n); });

    m_precision = new StepSliderField;
    QStringList formats;
    QStringList formatTips;
    for (const core::FormatInfo &f : core::allFormats()) {
        formats << QString::fromUtf8(f.id);
        formatTips << QString::fromUtf8(f.label) + QStringLiteral("\n") + QString::fromUtf8(f.source);
    }
    m_precision->setChoices(formats, formatTips);
    m_precision->setToolTip(tr("Weight format, by bits per weight"));
    form->addRow(tr("P&recision:"), m_precision);
    connect(m_precision, &StepSliderField::indexChanged, this, [this](int i) {
        m_controller->update([i](core::Scenario &s) { s.weights = core::allFormats()[static_cast<std::size_t>(i)].format; });
    });

    m_optimizer = new StepSliderField;
    QStringList optimizers;
    QStringList optimizerTips;
    for (const core::OptimizerInfo &o : core::allOptimizers()) {
        optimizers << QString::fromUtf8(o.id);
        optimizerTips << QString::fromUtf8(o.label) + QStringLiteral("\n") + QString::fromUtf8(o.source);
    }
    m_optimizer->setChoices(optimizers, optimizerTips);
    form->addRow(tr("Op&timizer:"), m_optimizer);
    connect(m_optimizer, &StepSliderField::indexChanged, this, [this](int i) {
        m_controller->update([i](core::Scenario &s) { s.optimizer = core::allOptimizers()[static_cast<std::size_t>(i)].optimizer; });
    });

    m_batch = new LogSliderField(1, 4096, groupedText);
    m_batch->setToolTip(tr("Micro-batch per GPU (log scale, 1 to 4,096)"));
    form->addRow(tr("&Batch size:"), m_batch);
    connect(m_batch, &LogSliderField::valueChanged, this,
            [this](std::uint64_t b) { m_controller->update([b](core::Scenario &s) { s.batch = b; }); });

    m_sequence = new LogSliderField(128, 1u << 20, groupedText);
    m_sequence->setToolTip(tr("Sequence length / context in tokens (log scale, 128 to 1M; '32k' works)"));
    form->addRow(tr("&Sequence length:"), m_sequence);
    connect(m_sequence, &LogSliderField::valueChanged, this,
            [this](std::uint64_t n) { m_controller->update([n](core::Scenario &s) { s.sequence = n; }); });
    return box;
}

QWidget *ControlsPanel::buildAdvanced()
{
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    form->setContentsMargins(12, 0, 0, 0);
    auto apply = [this](std::function<void(core::Scenario &)> change) { m_controller->update(change); };

    m_regime = compactCombo();
    for (const core::RegimeInfo &r : core::allRegimes())
        m_regime->addItem(QString::fromUtf8(r.label), static_cast<int>(r.regime));
    form->addRow(tr("Training regime:"), m_regime);
    connect(m_regime, &QComboBox::activated, this, [this, apply](int i) {
        const auto regime = static_cast<core::Regime>(m_regime->itemData(i).toInt());
        apply([regime](core::Scenario &s) { s.regime = regime; });
    });

    m_stack = compactCombo();
    for (const core::StackInfo &info : core::allStacks())
        m_stack->addItem(QString::fromUtf8(info.label), static_cast<int>(info.stack));
    m_stack->setToolTip(tr("The software that runs the training: each keeps different tensors for the same settings"));
    form->addRow(tr("Training stack:"), m_stack);
    connect(m_stack, &QComboBox::activated, this, [this, apply](int i) {
        const auto stack = static_cast<core::TrainingStack>(m_stack->itemData(i).toInt());
        apply([stack](core::Scenario &s) { s.stack = stack; });
    });

    m_bitsandbytes = enumCombo({{tr("0.43.2 or later"), int(core::BitsandbytesVersion::Current)},
                                {tr("0.43.1 or earlier (keeps each 4-bit layer's input)"),
                                 int(core::BitsandbytesVersion::Legacy)}});
    m_bitsandbytes->setToolTip(tr("bitsandbytes up to 0.43.1 kept the input of every 4-bit layer for the backward pass"));
    form->addRow(tr("bitsandbytes:"), m_bitsandbytes);
    connect(m_bitsandbytes, &QComboBox::activated, this, [this, apply](int i) {
        const auto version = static_cast<core::BitsandbytesVersion>(m_bitsandbytes->itemData(i).toInt());
        apply([version](core::Scenario &s) { s.bitsandbytes = version; });
    });

    m_optimizerImpl = enumCombo({{tr("auto"), int(core::OptimizerImpl::Auto)},
                                 {tr("foreach (one full-size temporary)"), int(core::OptimizerImpl::Foreach)},
                                 {tr("fused"), int(core::OptimizerImpl::Fused)},
                                 {tr("per-parameter loop"), int(core::OptimizerImpl::Loop)}});
    form->addRow(tr("Optimizer step:"), m_optimizerImpl);
    connect(m_optimizerImpl, &QComboBox::activated, this, [this, apply](int i) {
        const auto impl = static_cast<core::OptimizerImpl>(m_optimizerImpl->itemData(i).toInt());
        apply([impl](core::Scenario &s) { s.optimizerImpl = impl; });
    });

    m_checkpointing = enumCombo({{tr("stack default"), -1},
                                 {tr("none"), int(core::Checkpointing::None)},
                                 {tr("selective"), int(core::Checkpointing::Selective)},
                                 {tr("full"), int(core::Checkpointing::Full)}});
    form->addRow(tr("Checkpointing:"), m_checkpointing);
    connect(m_checkpointing, &QComboBox::activated, this, [this, apply](int i) {
        const int v = m_checkpointing->itemData(i).toInt();
        apply([v](core::Scenario &s) {
            s.checkpointing = v < 0 ? std::nullopt : std::optional(static_cast<core::Checkpointing>(v));
        });
    });

    m_attention = enumCombo({{tr("eager (stores s² scores)"), int(core::Attention::Eager)},
                             {tr("SDPA"), int(core::Attention::Sdpa)},
                             {tr("FlashAttention-2"), int(core::Attention::Flash)}});
    form->addRow(tr("Attention:"), m_attention);
    connect(m_attention, &QComboBox::activated, this, [this, apply](int i) {
        const auto a = static_cast<core::Attention>(m_attention->itemData(i).toInt());
        apply([a](core::Scenario &s) { s.attention = a; });
    });

    m_gradAccum = new QSpinBox;
    m_gradAccum->setRange(1, static_cast<int>(core::ScenarioLimits::maxGradAccum));
    form->addRow(tr("Gradient accumulation:"), m_gradAccum);
    connect(m_gradAccum, &QSpinBox::valueChanged, this,
            [apply](int v) { apply([v](core::Scenario &s) { s.gradAccum = static_cast<std::uint64_t>(v); }); });

    m_loraRank = new QSpinBox;
    m_loraRank->setRange(1, core::ScenarioLimits::maxLoraRank);
    form->addRow(tr("LoRA rank:"), m_loraRank);
    connect(m_loraRank, &QSpinBox::valueChanged, this, [apply](int r) { apply([r](core::Scenario &s) { s.lora.rank = r; }); });

    auto *targets = new QWidget;
    auto *grid = new QGridLayout(targets);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < 7; ++i) {
        m_loraTargets[static_cast<std::size_t>(i)] = new QCheckBox(QString::fromUtf8(core::linearSlotId(kSlots[i])));
        grid->addWidget(m_loraTargets[static_cast<std::size_t>(i)], i / 4, i % 4);
        connect(m_loraTargets[static_cast<std::size_t>(i)], &QCheckBox::toggled, this, [this, apply] {
            std::vector<core::LinearSlot> chosen;
            for (int j = 0; j < 7; ++j)
                if (m_loraTargets[static_cast<std::size_t>(j)]->isChecked())
                    chosen.push_back(kSlots[j]);
            apply([chosen](core::Scenario &s) { s.lora.targets = chosen; });
        });
    }
    form->addRow(tr("LoRA targets:"), targets);

    // The minimum stands for "unset": the stack's own default.
    m_loraDropout = new QDoubleSpinBox;
    m_loraDropout->setRange(-0.05, core::ScenarioLimits::maxLoraDropout);
    m_loraDropout->setSingleStep(0.05);
    m_loraDropout->setSpecialValueText(tr("stack default"));
    m_loraDropout->setToolTip(tr("Dropout on the adapters' input: each adapter then keeps its own copy of the input and a mask"));
    form->addRow(tr("LoRA dropout:"), m_loraDropout);
    connect(m_loraDropout, &QDoubleSpinBox::valueChanged, this, [apply](double p) {
        apply([p](core::Scenario &s) { s.lora.dropout = p < 0 ? std::nullopt : std::optional(p); });
    });

    m_kvDtype = compactCombo();
    m_kvDtype->addItem(tr("same as activations"), -1);
    for (const core::FormatInfo &f : core::allFormats())
        if (f.usableForKvCache)
            m_kvDtype->addItem(QString::fromUtf8(f.id), static_cast<int>(f.format));
    form->addRow(tr("KV cache format:"), m_kvDtype);
    connect(m_kvDtype, &QComboBox::activated, this, [this, apply](int i) {
        const int v = m_kvDtype->itemData(i).toInt();
        apply([v](core::Scenario &s) {
            s.kvDtype = v < 0 ? std::nullopt : std::optional(static_cast<core::WeightFormat>(v));
        });
    });

    m_logits = enumCombo({{tr("default"), -1},
                          {tr("fp32 upcast (Hugging Face Trainer)"), int(core::LogitsMode::Fp32)},
                          {tr("fp32 from the model, shifted copy (transformers ≤ 4.44)"),
                           int(core::LogitsMode::Fp32Shift)},
                          {tr("activation dtype"), int(core::LogitsMode::Native)},
                          {tr("chunked loss"), int(core::LogitsMode::Chunked)},
                          {tr("fused or compiled loss"), int(core::LogitsMode::Fused)},
                          {tr("last token only (generate)"), int(core::LogitsMode::LastToken)}});
    form->addRow(tr("Logits:"), m_logits);
    connect(m_logits, &QComboBox::activated, this, [this, apply](int i) {
        const int v = m_logits->itemData(i).toInt();
        apply([v](core::Scenario &s) { s.logits = v < 0 ? std::nullopt : std::optional(static_cast<core::LogitsMode>(v)); });
    });

    m_groupSize = new QSpinBox;
    m_groupSize->setRange(1, core::ScenarioLimits::maxGroupSize);
    m_groupSize->setToolTip(tr("GPTQ/AWQ quantisation group size"));
    form->addRow(tr("Group size:"), m_groupSize);
    connect(m_groupSize, &QSpinBox::valueChanged, this, [apply](int g) { apply([g](core::Scenario &s) { s.groupSize = g; }); });

    m_quantizeEmbeddings = new QCheckBox(tr("Quantise embeddings too"));
    m_quantizeEmbeddings->setToolTip(tr("Quantise the embeddings and lm_head as well; libraries keep them at 16 bits by default"));
    form->addRow(QString(), m_quantizeEmbeddings);
    connect(m_quantizeEmbeddings, &QCheckBox::toggled, this,
            [apply](bool on) { apply([on](core::Scenario &s) { s.quantizeEmbeddings = on; }); });

    m_gpus = new QSpinBox;
    m_gpus->setRange(1, core::ScenarioLimits::maxGpus);
    form->addRow(tr("GPUs:"), m_gpus);
    connect(m_gpus, &QSpinBox::valueChanged, this, [apply](int n) { apply([n](core::Scenario &s) { s.gpus = n; }); });

    m_zero = enumCombo({{tr("0 (data parallel)"), 0}, {tr("1 (optimizer states)"), 1}, {tr("2 (+ gradients)"), 2},
                        {tr("3 (+ weights, FSDP full shard)"), 3}});
    form->addRow(tr("ZeRO stage:"), m_zero);
    connect(m_zero, &QComboBox::activated, this, [apply](int i) { apply([i](core::Scenario &s) { s.zeroStage = i; }); });

    m_cudaAuto = new QCheckBox(tr("auto"));
    m_cudaMib = new QDoubleSpinBox;
    m_cudaMib->setRange(0, core::ScenarioLimits::maxCudaOverheadMib);
    m_cudaMib->setDecimals(0);
    m_cudaMib->setSuffix(tr(" MiB"));
    auto *cudaRow = new QHBoxLayout;
    cudaRow->addWidget(m_cudaAuto);
    cudaRow->addWidget(m_cudaMib, 1);
    form->addRow(tr("CUDA context:"), cudaRow);
    connect(m_cudaAuto, &QCheckBox::toggled, this, [this, apply](bool automatic) {
        m_cudaMib->setEnabled(!automatic);
        const double mib = m_cudaMib->value();
        apply([automatic, mib](core::Scenario &s) { s.cudaOverheadMib = automatic ? std::nullopt : std::optional(mib); });
    });
    connect(m_cudaMib, &QDoubleSpinBox::valueChanged, this, [this, apply](double mib) {
        if (!m_cudaAuto->isChecked())
            apply([mib](core::Scenario &s) { s.cudaOverheadMib = mib; });
    });

    m_cudaLoading = enumCombo({{tr("lazy (CUDA ≥ 11.7)"), int(core::CudaLoading::Lazy)},
                               {tr("eager (older stacks)"), int(core::CudaLoading::Eager)}});
    form->addRow(tr("CUDA module loading:"), m_cudaLoading);
    connect(m_cudaLoading, &QComboBox::activated, this, [this, apply](int i) {
        const auto l = static_cast<core::CudaLoading>(m_cudaLoading->itemData(i).toInt());
        apply([l](core::Scenario &s) { s.cudaLoading = l; });
    });

    m_reserve = new QDoubleSpinBox;
    m_reserve->setRange(0, 99);
    m_reserve->setSuffix(QStringLiteral(" %"));
    m_reserve->setToolTip(tr("Allocator reserve / fragmentation margin, as a share of tensor memory"));
    form->addRow(tr("Reserve margin:"), m_reserve);
    connect(m_reserve, &QDoubleSpinBox::valueChanged, this,
            [apply](double p) { apply([p](core::Scenario &s) { s.reservePercent = p; }); });

    m_utilization = new QDoubleSpinBox;
    m_utilization->setRange(0.05, 1.0);
    m_utilization->setSingleStep(0.05);
    m_utilization->setToolTip(tr("vLLM gpu_memory_utilization: the share of each GPU that weights, activations and the KV cache may use together; the KV-cache budget is what remains"));
    form->addRow(tr("Serving memory share:"), m_utilization);
    connect(m_utilization, &QDoubleSpinBox::valueChanged, this,
            [apply](double u) { apply([u](core::Scenario &s) { s.gpuMemoryUtilization = u; }); });

    m_servingEngine = enumCombo({{tr("Transformers generate()"), int(core::ServingEngine::Generate)},
                                 {tr("vLLM (start-up profile)"), int(core::ServingEngine::Vllm)}});
    m_servingEngine->setToolTip(tr("vLLM sizes its KV cache after profiling one forward of max_num_batched_tokens "
                                   "tokens and a sampler warm-up of max_num_seqs rows"));
    form->addRow(tr("Serving engine:"), m_servingEngine);
    connect(m_servingEngine, &QComboBox::activated, this, [this, apply](int i) {
        const auto engine = static_cast<core::ServingEngine>(m_servingEngine->itemData(i).toInt());
        apply([engine](core::Scenario &s) { s.serving = engine; });
    });
    m_maxBatchedTokens = new QSpinBox;
    m_maxBatchedTokens->setRange(1, static_cast<int>(core::ScenarioLimits::maxSequence));
    form->addRow(tr("max_num_batched_tokens:"), m_maxBatchedTokens);
    connect(m_maxBatchedTokens, &QSpinBox::valueChanged, this, [apply](int n) {
        apply([n](core::Scenario &s) { s.maxBatchedTokens = static_cast<std::uint64_t>(n); });
    });
    m_maxNumSeqs = new QSpinBox;
    m_maxNumSeqs->setRange(1, static_cast<int>(core::ScenarioLimits::maxBatch));
    form->addRow(tr("max_num_seqs:"), m_maxNumSeqs);
    connect(m_maxNumSeqs, &QSpinBox::valueChanged, this,
            [apply](int n) { apply([n](core::Scenario &s) { s.maxNumSeqs = static_cast<std::uint64_t>(n); }); });
    return box;
}

namespace {
QString sourceKey(const core::ModelSource &source)
{
    // The picker shows "Custom parameter count" whatever the count is.
    return QStringLiteral("%1|%2|%3")
        .arg(static_cast<int>(source.kind))
        .arg(QString::fromStdString(source.presetId), QString::fromStdString(source.configPath));
}
} // namespace

void ControlsPanel::syncModel()
{
    const core::Scenario &s = m_controller->scenario();
    if (sourceKey(s.source) == m_shownSource)
        return;
    fillModelCombo();
    m_parameters->setValue(core::countParameters(s.model).total);
    // A checkpoint's own format (gpt-oss MXFP4) may have changed the weights.
    const auto &formats = core::allFormats();
    for (std::size_t i = 0; i < formats.size(); ++i)
        if (formats[i].format == s.effectiveWeights())
            m_precision->setIndex(static_cast<int>(i));
}

void ControlsPanel::fillModelCombo()
{
    const QSignalBlocker block(m_model);
    m_shownSource = sourceKey(m_controller->scenario().source);
    m_model->clear();
    for (const core::io::ModelPreset &p : core::io::builtinPresets())
        m_model->addItem(QString::fromStdString(p.name), QString::fromStdString(p.id));
    m_model->insertSeparator(m_model->count());
    const core::Scenario &s = m_controller->scenario();
    m_model->addItem(tr("Custom parameter count"), QStringLiteral("params"));
    if (s.source.kind == core::ModelSource::Kind::ConfigFile) {
        m_model->addItem(tr("config.json: %1").arg(QString::fromStdString(s.model.name)), QStringLiteral("config"));
        m_model->setItemData(m_model->count() - 1, QString::fromStdString(s.source.configPath), Qt::ToolTipRole);
    }
    switch (s.source.kind) {
    case core::ModelSource::Kind::Preset:
        m_model->setCurrentIndex(m_model->findData(QString::fromStdString(s.source.presetId)));
        break;
    case core::ModelSource::Kind::ParameterCount:
        m_model->setCurrentIndex(m_model->findData(QStringLiteral("params")));
        break;
    case core::ModelSource::Kind::ConfigFile:
        m_model->setCurrentIndex(m_model->findData(QStringLiteral("config")));
        break;
    }
}

void ControlsPanel::modelChosen(int index)
{
    const QString id = m_model->itemData(index).toString();
    if (id == QLatin1String("config"))
        return;
    if (id == QLatin1String("params"))
        m_controller->useParameterCount(m_parameters->value());
    else
        m_controller->usePreset(id.toStdString());
}

void ControlsPanel::syncFromScenario()
{
    const core::Scenario &s = m_controller->scenario();
    fillModelCombo();
    m_mode->button(static_cast<int>(s.mode))->setChecked(true);
    m_parameters->setValue(core::countParameters(s.model).total);
    const auto &formats = core::allFormats();
    for (std::size_t i = 0; i < formats.size(); ++i)
        if (formats[i].format == s.effectiveWeights())
            m_precision->setIndex(static_cast<int>(i));
    const auto &optimizers = core::allOptimizers();
    for (std::size_t i = 0; i < optimizers.size(); ++i)
        if (optimizers[i].optimizer == s.optimizer)
            m_optimizer->setIndex(static_cast<int>(i));
    m_batch->setValue(s.batch);
    m_sequence->setValue(s.sequence);
    syncAdvanced();
    updateEnabledState();
}

void ControlsPanel::syncAdvanced()
{
    const core::Scenario &s = m_controller->scenario();
    const QList<QWidget *> advanced = m_advanced->findChildren<QWidget *>();
    std::vector<std::unique_ptr<QSignalBlocker>> blockers;
    for (QWidget *w : advanced)
        blockers.push_back(std::make_unique<QSignalBlocker>(w));
    m_regime->setCurrentIndex(indexOfData(m_regime, s.regime));
    m_optimizerImpl->setCurrentIndex(indexOfData(m_optimizerImpl, s.optimizerImpl));
    m_stack->setCurrentIndex(indexOfData(m_stack, s.stack));
    m_bitsandbytes->setCurrentIndex(indexOfData(m_bitsandbytes, s.bitsandbytes));
    m_checkpointing->setCurrentIndex(s.checkpointing ? indexOfData(m_checkpointing, *s.checkpointing) : 0);
    m_attention->setCurrentIndex(indexOfData(m_attention, s.attention));
    m_gradAccum->setValue(static_cast<int>(s.gradAccum));
    m_loraRank->setValue(s.lora.rank);
    for (int i = 0; i < 7; ++i)
        m_loraTargets[static_cast<std::size_t>(i)]->setChecked(
            std::find(s.lora.targets.begin(), s.lora.targets.end(), kSlots[i]) != s.lora.targets.end());
    m_loraDropout->setValue(s.lora.dropout.value_or(m_loraDropout->minimum()));
    m_kvDtype->setCurrentIndex(s.kvDtype ? m_kvDtype->findData(static_cast<int>(*s.kvDtype)) : 0);
    m_logits->setCurrentIndex(s.logits ? m_logits->findData(static_cast<int>(*s.logits)) : 0);
    m_groupSize->setValue(s.groupSize);
    m_quantizeEmbeddings->setChecked(s.quantizeEmbeddings);
    m_gpus->setValue(s.gpus);
    m_zero->setCurrentIndex(s.zeroStage);
    m_cudaAuto->setChecked(!s.cudaOverheadMib);
    m_cudaMib->setEnabled(s.cudaOverheadMib.has_value());
    // Unset: show the default the engine uses for the module loading.
    m_cudaMib->setValue(core::cudaOverheadMib(s));
    m_cudaLoading->setCurrentIndex(indexOfData(m_cudaLoading, s.cudaLoading));
    m_reserve->setValue(s.reservePercent);
    m_utilization->setValue(s.gpuMemoryUtilization);
    m_servingEngine->setCurrentIndex(indexOfData(m_servingEngine, s.serving));
    m_maxBatchedTokens->setValue(static_cast<int>(s.maxBatchedTokens));
    m_maxNumSeqs->setValue(static_cast<int>(s.maxNumSeqs));
}

void ControlsPanel::updateEnabledState()
{
    const core::Scenario &s = m_controller->scenario();
    const bool training = s.isTraining();
    const bool lora = s.mode == core::Mode::Lora || s.mode == core::Mode::Qlora;
    m_optimizer->setEnabled(training);
    m_precision->setEnabled(s.mode != core::Mode::Train);
    m_precision->setToolTip(s.mode == core::Mode::Train ? tr("Full training stores weights as the training regime says")
                                                        : tr("Weight format, by bits per weight"));
    m_loraDropout->setEnabled(lora);
    m_bitsandbytes->setEnabled(s.mode == core::Mode::Qlora && s.stack != core::TrainingStack::Torchtune);
    for (QWidget *w : {static_cast<QWidget *>(m_regime), static_cast<QWidget *>(m_stack), static_cast<QWidget *>(m_optimizerImpl),
                       static_cast<QWidget *>(m_checkpointing), static_cast<QWidget *>(m_gradAccum),
                       static_cast<QWidget *>(m_zero)})
        w->setEnabled(training);
    m_loraRank->setEnabled(lora);
    for (QCheckBox *c : m_loraTargets)
        c->setEnabled(lora);
    m_utilization->setEnabled(!training);
    m_servingEngine->setEnabled(!training);
    const bool vllm = !training && s.serving == core::ServingEngine::Vllm;
    m_maxBatchedTokens->setEnabled(vllm);
    m_maxNumSeqs->setEnabled(vllm);
    syncDefaults();
}

void ControlsPanel::syncDefaults()
{
    const core::Scenario &s = m_controller->scenario();
    const auto &formats = core::allFormats();
    for (std::size_t i = 0; i < formats.size(); ++i)
        if (formats[i].format == s.effectiveWeights() && m_precision->index() != static_cast<int>(i)) {
            const QSignalBlocker block(m_precision);
            m_precision->setIndex(static_cast<int>(i));
        }
    m_stackNote->setVisible(s.isTraining());
    if (!s.isTraining())
        return;
    QString what;
    switch (s.stack) {
    case core::TrainingStack::Hf:
        what = s.mode == core::Mode::Qlora
            ? tr("PEFT's prepare_model_for_kbit_training casts the unquantised weights to fp32 and turns on "
                 "gradient checkpointing; adapters are fp32.")
            : tr("Adapters are fp32 (PEFT); the loss upcasts all logits to fp32.");
        break;
    case core::TrainingStack::Torchtune:
        what = tr("Adapters in the model dtype, a torchao NF4 base for QLoRA, activation checkpointing and a "
                  "chunked fp32 loss.");
        break;
    case core::TrainingStack::LitGpt:
        what = tr("Adapters in the model dtype, every linear layer 4-bit for QLoRA (lm_head too), LoRA dropout "
                  "0.05, no checkpointing on one GPU.");
        break;
    }
    const QString checkpointing = m_checkpointing->itemText(indexOfData(m_checkpointing, s.effectiveCheckpointing()));
    const QString text = tr("%1: checkpointing %2%3. %4")
                             .arg(QString::fromUtf8(core::stackInfo(s.stack).label), checkpointing,
                                  s.checkpointing ? QString() : tr(" (default)"), what);
    if (m_stackNote->text() != text)
        m_stackNote->setText(text);
}

} // namespace ui
