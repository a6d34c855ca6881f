#include "ui/utilizationdialog.h"

#include "core/analysis/performance.h"
#include "core/analysis/utilization.h"
#include "core/base/units.h"
#include "core/scenario/fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>
#include <utility>

namespace ui {

namespace {

// The seed notes' examples (000 §7.1 and §7.2): 100 TFLOPS measured on an
// A100; 1,536 tokens/s/GPU against LLaMA 7B's 3,300.
constexpr double kNotesTflops = 100;
constexpr double kNotesTokens = 1536;
constexpr double kNotesReferenceTokens = 3300;
const char *const kDefaultGpu = "a100-sxm4-80gb";

QString fixed(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

QString grouped(double value)
{
    return QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(std::llround(std::max(0.0, value)))));
}

QDoubleSpinBox *numberBox(double max, int decimals, const QString &suffix)
{
    auto *box = new QDoubleSpinBox;
    box->setRange(0, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setGroupSeparatorShown(true);
    return box;
}

QSpinBox *countBox(int min, int max)
{
    auto *box = new QSpinBox;
    box->setRange(min, max);
    box->setGroupSeparatorShown(true);
    return box;
}

QLabel *resultLabel(const char *name)
{
    auto *label = new QLabel;
    label->setObjectName(QLatin1String(name));
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label->setOpenExternalLinks(true);
    return label;
}

} // namespace

UtilizationDialog::UtilizationDialog(const core::Scenario &scenario, const core::Catalog &catalog, QWidget *parent)
    : QDialog(parent)
    , m_scenario(scenario)
    , m_catalog(catalog)
    , m_gpu(new QComboBox)
    , m_precision(new QComboBox)
    , m_peak(new QLabel)
    , m_achieved(numberBox(1e6, 1, tr(" TFLOPS")))
    , m_tokens(numberBox(1e9, 0, tr(" tokens/s")))
    , m_reference(numberBox(1e9, 0, tr(" tokens/s")))
    , m_params(numberBox(1e5, 3, tr(" billion")))
    , m_work(new QComboBox)
    , m_attention(new QCheckBox(tr("Count &attention FLOPs (12 × L × h × s per trained token)")))
    , m_layers(countBox(1, 100000))
    , m_width(countBox(1, std::numeric_limits<int>::max()))
    , m_sequence(countBox(1, static_cast<int>(core::field(core::FieldId::Sequence).max)))
    , m_flopsRatio(resultLabel("flopsRatio"))
    , m_throughputRatio(resultLabel("throughputRatio"))
    , m_mfu(resultLabel("mfu"))
    , m_referenceMfu(resultLabel("referenceMfu"))
    , m_caveat(resultLabel("caveat"))
{
    setWindowTitle(tr("GPU Utilisation"));
    auto *intro
        = new QLabel(tr("Three ways to read a run's GPU utilisation. The seed notes rank them (S16): a profiler "
                        "trace is the most accurate, then the FLOPs ratio, then the throughput ratio."));
    intro->setWordWrap(true);

    for (const core::GpuSpec &g : catalog.gpus)
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    const int scenarioGpu = m_gpu->findData(QString::fromStdString(scenario.gpuId));
    m_gpu->setCurrentIndex(scenarioGpu >= 0 ? scenarioGpu : std::max(0, m_gpu->findData(QLatin1String(kDefaultGpu))));
    for (const core::PrecisionInfo &p : core::allPrecisions())
        m_precision->addItem(QString::fromLatin1(p.id), static_cast<int>(p.precision));
    m_achieved->setValue(kNotesTflops);
    m_tokens->setValue(kNotesTokens);
    m_reference->setValue(kNotesReferenceTokens);
    // MFU counts the parameters a token runs through: the active ones of an MoE.
    m_params->setMinimum(0.001);
    m_params->setValue(static_cast<double>(core::countParameters(scenario.model).active) / 1e9);
    m_work->addItem(tr("Training step: 6N per token"), static_cast<int>(core::FlopsWork::Training));
    m_work->addItem(tr("Forward only (inference): 2N per token"), static_cast<int>(core::FlopsWork::ForwardOnly));
    m_work->setCurrentIndex(scenario.isTraining() ? 0 : 1);
    m_layers->setValue(static_cast<int>(std::max<std::uint64_t>(1, scenario.model.layers)));
    m_width->setValue(static_cast<int>(
        std::min<std::uint64_t>(std::max<std::uint64_t>(1, scenario.model.qWidth()), std::numeric_limits<int>::max())));
    m_sequence->setValue(static_cast<int>(scenario.sequence));
    m_attention->setChecked(scenario.model.layers > 0 && scenario.model.qWidth() > 0);

    // The symbols of the formula, each with its meaning as a tooltip.
    auto *attention = new QHBoxLayout;
    const auto addSymbol = [attention](const char *symbol, QSpinBox *box, const QString &meaning) {
        auto *name = new QLabel(QLatin1String(symbol));
        name->setToolTip(meaning);
        box->setToolTip(meaning);
        attention->addWidget(name);
        attention->addWidget(box, 1);
    };
    addSymbol("L", m_layers, tr("Layers"));
    addSymbol("h", m_width, tr("Attention width: heads × head size"));
    addSymbol("s", m_sequence, tr("Sequence length in tokens"));

    auto *form = new QFormLayout;
    form->addRow(tr("&GPU:"), m_gpu);
    form->addRow(tr("&Precision:"), m_precision);
    form->addRow(tr("Datasheet peak:"), m_peak);
    form->addRow(tr("Achieved (&FLOPs ratio):"), m_achieved);
    form->addRow(tr("&Measured per GPU:"), m_tokens);
    form->addRow(tr("&Reference run per GPU:"), m_reference);
    form->addRow(tr("Model parameters &N:"), m_params);
    form->addRow(tr("&Work per token:"), m_work);
    form->addRow(m_attention);
    form->addRow(QString(), attention);

    // Named for tests and accessibility tools.
    const std::pair<QWidget *, const char *> names[] = { { m_gpu, "gpu" }, { m_precision, "precision" },
        { m_achieved, "achievedTflops" }, { m_tokens, "tokensPerSecond" }, { m_reference, "referenceTokensPerSecond" },
        { m_params, "parameters" }, { m_work, "work" }, { m_attention, "attention" }, { m_layers, "layers" },
        { m_width, "width" }, { m_sequence, "sequence" } };
    for (const auto &[widget, name] : names)
        widget->setObjectName(QLatin1String(name));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *rule = new QFrame;
    rule->setFrameShape(QFrame::HLine);
    rule->setFrameShadow(QFrame::Sunken);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(rule);
    for (QLabel *result : { m_flopsRatio, m_throughputRatio, m_mfu, m_referenceMfu, m_caveat })
        layout->addWidget(result);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(640);

    gpuChanged();
    connect(m_gpu, &QComboBox::currentIndexChanged, this, &UtilizationDialog::gpuChanged);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &UtilizationDialog::recompute);
    connect(m_work, &QComboBox::currentIndexChanged, this, &UtilizationDialog::recompute);
    connect(m_attention, &QCheckBox::toggled, this, &UtilizationDialog::recompute);
    for (QDoubleSpinBox *box : { m_achieved, m_tokens, m_reference, m_params })
        connect(box, &QDoubleSpinBox::valueChanged, this, &UtilizationDialog::recompute);
    for (QSpinBox *box : { m_layers, m_width, m_sequence })
        connect(box, &QSpinBox::valueChanged, this, &UtilizationDialog::recompute);
}

const core::GpuSpec *UtilizationDialog::gpu() const
{
    return m_catalog.find(m_gpu->currentData().toString().toStdString());
}

core::Precision UtilizationDialog::precision() const
{
    return static_cast<core::Precision>(m_precision->currentData().toInt());
}

void UtilizationDialog::gpuChanged()
{
    // The precision the scenario computes in on this GPU (bf16, or fp16
    // where the GPU has no bf16); the user may pick another.
    if (const core::GpuSpec *g = gpu()) {
        const QSignalBlocker block(m_precision);
        m_precision->setCurrentIndex(
            m_precision->findData(static_cast<int>(core::computePrecisionFor(m_scenario, *g))));
    }
    recompute();
}

void UtilizationDialog::recompute()
{
    const core::GpuSpec *g = gpu();
    const QString precisionName = m_precision->currentText();
    const double peak = g ? g->peak.at(precision()).value_or(0) : 0;
    m_peak->setText(peak > 0 ? tr("%1 TFLOPS, dense %2").arg(fixed(peak, 1), precisionName)
                             : tr("not in the catalog for %1").arg(precisionName));
    showThroughputRatio();
    if (peak > 0) {
        showFlopsRatio(*g, peak);
        showMfu(peak);
        return;
    }
    const QString none = tr("The catalog gives no %1 peak for this GPU: choose another precision.").arg(precisionName);
    for (QLabel *result : { m_flopsRatio, m_mfu, m_referenceMfu, m_caveat })
        result->setText(none);
}

void UtilizationDialog::showThroughputRatio()
{
    // Seed notes 000 §7.2 (S15): measured over reference throughput.
    const double tokens = m_tokens->value();
    const double reference = m_reference->value();
    m_throughputRatio->setText(
        tr("Throughput ratio (S15): <b>%1 %</b>").arg(fixed(core::throughputRatioPercent(tokens, reference), 2))
        + QStringLiteral("<br>")
        + tr("measured ÷ reference tokens/s per GPU = %1 ÷ %2").arg(grouped(tokens), grouped(reference))
        + QStringLiteral("<br><small>%1</small>")
              .arg(tr("Source: seed notes §7.2, which take the reference run to be at full utilisation.")));
}

void UtilizationDialog::showFlopsRatio(const core::GpuSpec &g, double peak)
{
    // Seed notes 000 §7.1 (S14): achieved over the datasheet's dense peak.
    const double achieved = m_achieved->value();
    const QString source = QString::fromStdString(g.source).toHtmlEscaped();
    m_flopsRatio->setText(
        tr("FLOPs ratio (S14): <b>%1 %</b>").arg(fixed(core::flopsUtilizationPercent(achieved, peak), 2))
        + QStringLiteral("<br>") + tr("achieved ÷ peak = %1 TFLOPS ÷ %2 TFLOPS").arg(fixed(achieved, 1), fixed(peak, 1))
        + QStringLiteral("<br><small>%1</small>")
              .arg(tr("Source: seed notes §7.1; peak: %1, dense %2, from %3")
                       .arg(QString::fromStdString(g.name).toHtmlEscaped(), m_precision->currentText(),
                           QStringLiteral("<a href=\"%1\">%1</a>").arg(source))));
}

void UtilizationDialog::showMfu(double peak)
{
    // PaLM (Chowdhery et al. 2022) App. B: 6N (+ 12 L h s) FLOPs per
    // trained token; the forward alone is a third of it.
    const bool training = static_cast<core::FlopsWork>(m_work->currentData().toInt()) == core::FlopsWork::Training;
    const bool attention = m_attention->isChecked();
    const double attentionFlops = attention
        ? core::attentionTrainingFlopsPerToken(m_layers->value(), m_width->value(), m_sequence->value())
        : 0.0;
    const double flops = core::modelFlopsPerToken(
        m_params->value() * 1e9, attentionFlops, training ? core::FlopsWork::Training : core::FlopsWork::ForwardOnly);
    const QString n = fixed(m_params->value(), 3) + QStringLiteral("e9");
    const QString lhs = QStringLiteral("%1 × %2 × %3")
                            .arg(grouped(m_layers->value()), grouped(m_width->value()), grouped(m_sequence->value()));
    const QString formula = attention
        ? (training ? QStringLiteral("6N + 12·L·h·s = 6 × %1 + 12 × %2")
                    : QStringLiteral("2N + 4·L·h·s = 2 × %1 + 4 × %2"))
              .arg(n, lhs)
        : (training ? QStringLiteral("6N = 6 × %1") : QStringLiteral("2N = 2 × %1")).arg(n);
    const QString gflop = fixed(flops / 1e9, 2);
    const QString source = QStringLiteral("<br><small>%1</small>")
                               .arg(tr("Source: PaLM, Chowdhery et al. 2022, Appendix B (6N per trained token: "
                                       "Kaplan et al. 2020 §2.1)"));
    const auto substituted = [&](double tokensPerSecond) {
        return tr("tokens/s × FLOPs per token ÷ peak = %1 × %2 GFLOP ÷ %3 TFLOPS")
            .arg(grouped(tokensPerSecond), gflop, fixed(peak, 1));
    };
    const double tokens = m_tokens->value();
    const double reference = m_reference->value();
    const double mfu = core::mfuPercent(tokens, flops, peak);
    const double referenceMfu = core::mfuPercent(reference, flops, peak);
    m_mfu->setText(tr("Model FLOPs utilisation (MFU): <b>%1 %</b>").arg(fixed(mfu, 2)) + QStringLiteral("<br>")
        + tr("FLOPs per token = %1 = %2 GFLOP").arg(formula, gflop) + QStringLiteral("<br>") + substituted(tokens)
        + source);
    m_referenceMfu->setText(tr("The reference run's MFU: <b>%1 %</b>").arg(fixed(referenceMfu, 2))
        + QStringLiteral("<br>") + substituted(reference) + source);
    m_caveat->setText(
        tr("⚠ The throughput ratio is relative to a run that was itself at %1 % MFU, not at full use: "
           "this run's %2 % of the reference is %3 % of the GPU's peak.")
            .arg(fixed(referenceMfu, 1), fixed(core::throughputRatioPercent(tokens, reference), 1), fixed(mfu, 1)));
}

} // namespace ui
