#include "ui/controlspanel.h"
#include "ui/termstyle.h"

#include "core/io/builtin.h"
#include "core/scenario/stack.h"
#include "ui/fieldeditor.h"
#include "ui/scenariocontroller.h"
#include "ui/sliderfields.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

namespace ui {

namespace {

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

/// A log slider over the field's typical span that accepts its whole range.
LogSliderField *logSlider(core::FieldId id, LogSliderField::Formatter format)
{
    const core::FieldDescriptor &f = core::field(id);
    auto *slider = new LogSliderField(static_cast<std::uint64_t>(f.typicalMin), static_cast<std::uint64_t>(f.typicalMax),
                                      std::move(format));
    slider->setAcceptedRange(static_cast<std::uint64_t>(f.min), static_cast<std::uint64_t>(f.max));
    slider->setCountSuffixes(f.countSuffixes);
    return slider;
}

QString fieldLabel(core::FieldId id) { return QCoreApplication::translate("Field", core::field(id).label); }

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

    connect(m_controller, &ScenarioController::fieldsChanged, this, &ControlsPanel::syncFields);
    std::vector<core::FieldId> all;
    for (const core::FieldDescriptor &f : core::allFields())
        all.push_back(f.id);
    syncFields(all, true);
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
    auto *openConfig = new QPushButton(tr("Open…"));
    openConfig->setToolTip(tr("Read a model from disk: a config.json, a .gguf file, or (File > Open Model Folder) "
                              "a Hugging Face folder whose safetensors give the exact weight bytes (Ctrl+Shift+O)"));
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(openConfig);
    auto *modelLabel = new QLabel(tr("&Model:"));
    modelLabel->setBuddy(m_model);
    form->addRow(modelLabel, modelRow);
    // What the config reader assumed or left unread, beside the model.
    m_modelNote = new QLabel;
    m_modelNote->setWordWrap(true);
    m_modelNote->setTextFormat(Qt::PlainText);
    form->addRow(m_modelNote);
    connect(m_model, &QComboBox::activated, this, &ControlsPanel::modelChosen);
    connect(openConfig, &QPushButton::clicked, this, &ControlsPanel::openModelRequested);

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
        m_controller->setField(core::FieldId::Mode, std::string(core::modeId(static_cast<core::Mode>(id))));
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
    // The formats that are no weight choice (KV-cache-only, checkpoint-only)
    // come last: the slider's index is the table's.
    for (const core::FormatInfo &f : core::allFormats()) {
        if (f.cacheOnly || f.checkpointOnly)
            continue;
        formats << QString::fromUtf8(f.id);
        formatTips << QString::fromUtf8(f.label) + QStringLiteral("\n") + QString::fromUtf8(f.source);
    }
    m_precision->setChoices(formats, formatTips);
    form->addRow(tr("P&recision:"), m_precision);
    connect(m_precision, &StepSliderField::indexChanged, this, [this](int i) {
        m_controller->setField(core::FieldId::Weights, std::string(core::allFormats()[static_cast<std::size_t>(i)].id));
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
    m_optimizer->setToolTip(QCoreApplication::translate("Field", core::field(core::FieldId::Optimizer).help));
    connect(m_optimizer, &StepSliderField::indexChanged, this, [this](int i) {
        m_controller->setField(core::FieldId::Optimizer, std::string(core::allOptimizers()[static_cast<std::size_t>(i)].id));
    });

    m_batch = logSlider(core::FieldId::Batch, groupedText);
    m_batch->setToolTip(tr("Micro-batch per GPU (log scale; type any value up to %1)")
                            .arg(groupedText(static_cast<std::uint64_t>(core::field(core::FieldId::Batch).max))));
    form->addRow(tr("&Batch size:"), m_batch);
    connect(m_batch, &LogSliderField::valueChanged, this,
            [this](std::uint64_t b) { m_controller->setField(core::FieldId::Batch, static_cast<double>(b)); });

    m_sequence = logSlider(core::FieldId::Sequence, groupedText);
    m_sequence->setToolTip(tr("Sequence length / context in tokens (log scale; '32k' works; type any value up to %1)")
                               .arg(groupedText(static_cast<std::uint64_t>(core::field(core::FieldId::Sequence).max))));
    form->addRow(tr("&Sequence length:"), m_sequence);
    connect(m_sequence, &LogSliderField::valueChanged, this,
            [this](std::uint64_t n) { m_controller->setField(core::FieldId::Sequence, static_cast<double>(n)); });
    return box;
}

QWidget *ControlsPanel::buildAdvanced()
{
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    form->setContentsMargins(12, 0, 0, 0);
    // Labels above their fields, so that values and combo texts have the
    // side panel's whole width.
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    const std::pair<core::FieldGroup, QString> sections[] = {
        {core::FieldGroup::Input, tr("Input")},
        {core::FieldGroup::Training, tr("Training")},
        {core::FieldGroup::Lora, tr("LoRA")},
        {core::FieldGroup::Precision, tr("Precision and attention")},
        {core::FieldGroup::Serving, tr("Serving")},
        {core::FieldGroup::Runtime, tr("Runtime")},
    };
    for (const auto &[group, title] : sections) {
        auto *heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
        form->addRow(heading);
        addFieldRows(form, fieldsOf(group), m_controller);
    }
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
    if (sourceKey(s.source) != m_shownSource)
        fillModelCombo();
    m_parameters->setValue(core::countParameters(s.model).total);
    syncModelNote();
}

void ControlsPanel::syncModelNote()
{
    const core::Scenario &s = m_controller->scenario();
    const core::ModelSpec &m = s.model;
    const auto joined = [](const std::vector<std::string> &keys) {
        return QString::fromStdString(core::joinWithCommas(keys));
    };
    QStringList lines;
    if (s.checkpoint) {
        QStringList dtypes;
        for (const core::DtypeTotal &t : s.checkpoint->loaded)
            dtypes << QStringLiteral("%1 %2").arg(QString::fromStdString(t.dtype), bytesText(core::Bytes::fromCount(t.bytes), m_controller->unit()));
        lines << tr("Weights read from %1 %2 files: %3").arg(s.checkpoint->files).arg(QString::fromStdString(s.checkpoint->format), dtypes.join(QStringLiteral(", ")));
        if (s.checkpoint->skippedTensors > 0)
            lines << tr("Not loaded: %1 multi-token-prediction tensors (%2)")
                         .arg(s.checkpoint->skippedTensors)
                         .arg(bytesText(core::Bytes::fromCount(s.checkpoint->skippedBytes), m_controller->unit()));
    }
    if (m.familyGuessed)
        lines << tr("⚠ model_type “%1” has no family rules here: read as a Llama-style decoder. Numbers marked ~ "
                    "depend on this guess.")
                     .arg(QString::fromStdString(m.family));
    if (!m.ignoredKeys.empty())
        lines << tr("Config keys not read: %1").arg(joined(m.ignoredKeys));
    // A preset's defaults are checked by its tests; a user's config says them.
    if (!m.defaultedKeys.empty() && s.source.kind != core::ModelSource::Kind::Preset)
        lines << tr("Keys absent from the config, taken from defaults: %1").arg(m.defaultedKeys.size());
    m_modelNote->setText(lines.join(QLatin1Char('\n')));
    QStringList defaults;
    for (const std::string &key : m.defaultedKeys)
        defaults << QString::fromStdString(key);
    m_modelNote->setToolTip(defaults.join(QLatin1Char('\n')));
    m_modelNote->setVisible(!lines.isEmpty());
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
        m_model->addItem((s.checkpoint ? tr("Files: %1") : tr("config.json: %1")).arg(QString::fromStdString(s.model.name)),
                         QStringLiteral("config"));
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

void ControlsPanel::syncFields(const std::vector<core::FieldId> &fields, bool modelChanged)
{
    const core::Scenario &s = m_controller->scenario();
    const auto touched = [&fields](core::FieldId id) { return std::find(fields.begin(), fields.end(), id) != fields.end(); };
    if (modelChanged)
        syncModel();
    if (touched(core::FieldId::Mode)) {
        const QSignalBlocker block(m_mode);
        m_mode->button(static_cast<int>(s.mode))->setChecked(true);
    }
    // The precision shows the format in effect, which follows the mode and
    // the model's checkpoint when the user has not chosen one.
    // A checkpoint whose own format is no weight choice (MXFP8 throughout)
    // leaves the slider where it was: the choices come first in the table.
    const auto &formats = core::allFormats();
    for (std::size_t i = 0; i < formats.size(); ++i)
        if (formats[i].format == s.effectiveWeights() && !formats[i].cacheOnly && !formats[i].checkpointOnly
            && m_precision->index() != static_cast<int>(i)) {
            const QSignalBlocker block(m_precision);
            m_precision->setIndex(static_cast<int>(i));
        }
    if (touched(core::FieldId::Optimizer)) {
        const auto &optimizers = core::allOptimizers();
        for (std::size_t i = 0; i < optimizers.size(); ++i)
            if (optimizers[i].optimizer == s.optimizer) {
                const QSignalBlocker block(m_optimizer);
                m_optimizer->setIndex(static_cast<int>(i));
            }
    }
    if (touched(core::FieldId::Batch))
        m_batch->setValue(s.batch);
    if (touched(core::FieldId::Sequence))
        m_sequence->setValue(s.sequence);
    m_optimizer->setEnabled(core::field(core::FieldId::Optimizer).applies(s));
    m_precision->setEnabled(core::field(core::FieldId::Weights).applies(s));
    m_precision->setToolTip(s.mode == core::Mode::Train ? tr("Full training stores weights as the training regime says")
                                                        : fieldLabel(core::FieldId::Weights));
    syncStackNote();
}

void ControlsPanel::syncStackNote()
{
    const core::Scenario &s = m_controller->scenario();
    m_stackNote->setVisible(s.isTraining());
    if (!s.isTraining())
        return;
    // What the stack does to this mode's run, from its behaviour table:
    // nothing about adapters in full training.
    const core::StackBehaviour b = core::stackBehaviour(s);
    const bool adapters = s.mode == core::Mode::Lora || s.mode == core::Mode::Qlora;
    QStringList what;
    if (adapters)
        what << (b.fp32Adapters ? tr("adapters are fp32 (PEFT)") : tr("adapters in the model dtype"));
    if (adapters && b.loraDropout > 0)
        what << tr("LoRA dropout %1").arg(b.loraDropout);
    if (s.mode == core::Mode::Qlora) {
        if (b.kbitUpcastsToFp32)
            what << tr("the unquantised weights are cast to fp32 (prepare_model_for_kbit_training)");
        if (b.torchaoNf4Base)
            what << tr("a torchao NF4 base");
        if (b.quantizesLmHead)
            what << tr("every linear layer 4-bit, lm_head too");
    }
    what << tr("logits: %1").arg(QCoreApplication::translate(
        "Field", core::field(core::FieldId::Logits).choices[static_cast<std::size_t>(b.logits)].label));
    // The optimizer step the stack's releases choose, and why.
    if (b.optimizerWhy && s.optimizerImpl == core::OptimizerImpl::Auto)
        what << QCoreApplication::translate("Derivation", b.optimizerWhy);
    const core::FieldDescriptor &f = core::field(core::FieldId::Checkpointing);
    const QString checkpointing = QCoreApplication::translate(
        "Field", f.choices[static_cast<std::size_t>(s.effectiveCheckpointing())].label);
    const QString text = tr("%1: checkpointing %2%3; %4.")
                             .arg(QString::fromUtf8(core::stackInfo(s.stack).label), checkpointing,
                                  s.checkpointing ? QString() : tr(" (default)"), what.join(tr("; ")));
    if (m_stackNote->text() != text)
        m_stackNote->setText(text);
}

} // namespace ui
