#include "ui/clusterpanel.h"

#include "core/analysis/performance.h"
#include "core/analysis/plan.h"
#include "core/scenario/servingruntime.h"
#include "ui/fieldeditor.h"
#include "ui/language.h"
#include "ui/scenariocontroller.h"
#include "ui/servingtext.h"
#include "ui/termstyle.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <climits>
#include <cmath>

namespace ui {

namespace {

QString hours(double seconds)
{
    if (seconds < 3600)
        return QCoreApplication::translate("ClusterPanel", "%1 min").arg(seconds / 60.0, 0, 'f', 1);
    if (seconds < 86400 * 3)
        return QCoreApplication::translate("ClusterPanel", "%1 h").arg(seconds / 3600.0, 0, 'f', 1);
    return QCoreApplication::translate("ClusterPanel", "%1 days").arg(seconds / 86400.0, 0, 'f', 1);
}

} // namespace

ClusterPanel::ClusterPanel(ScenarioController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_figures(new QLabel), m_ranks(new QCustomPlot),
      m_plan(new QTableWidget(0, 8)), m_planNote(new QLabel)
{
    m_planNote->setWordWrap(true);
    m_figures->setTextFormat(Qt::RichText);
    m_figures->setWordWrap(true);
    m_figures->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_ranks->setMinimumHeight(160);
    m_plan->setHorizontalHeaderLabels({tr("GPUs"), tr("tp"), tr("pp"), tr("dp"), tr("ZeRO"), tr("Checkpointing"),
                                       tr("Offload"), tr("Per GPU / step")});
    m_plan->verticalHeader()->setVisible(false);
    m_plan->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_plan->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_plan->horizontalHeader()->setStretchLastSection(true);
    m_plan->setToolTip(tr("Double-click a layout to use it"));

    // The GPUs and how they split the model, and the run's length and
    // price: editors from the field descriptors, side by side.
    auto *layoutForm = new QFormLayout;
    addFieldRows(layoutForm, fieldsOf(core::FieldGroup::Cluster), m_controller);
    auto *workloadForm = new QFormLayout;
    addFieldRows(workloadForm, fieldsOf(core::FieldGroup::Workload), m_controller);
    auto *forms = new QHBoxLayout;
    forms->addLayout(layoutForm, 1);
    forms->addLayout(workloadForm, 1);
    // Named apart from the Deploy view's Plan for Me, which plans serving.
    auto *planButton = new QPushButton(tr("Find La&youts"));
    planButton->setToolTip(tr("The smallest number of the focus GPU at which some layout fits, fastest layouts first"));

    auto *left = new QVBoxLayout;
    left->addLayout(forms);
    left->addWidget(m_figures, 1);
    auto *right = new QVBoxLayout;
    right->addWidget(m_ranks, 1);
    right->addWidget(planButton);
    right->addWidget(m_plan, 1);
    right->addWidget(m_planNote);
    auto *top = new QHBoxLayout(this);
    top->addLayout(left, 3);
    top->addLayout(right, 2);

    connect(planButton, &QPushButton::clicked, this, &ClusterPanel::plan);
    connect(m_plan, &QTableWidget::cellDoubleClicked, this, [this](int row) { applyPlanRow(row); });
    connect(m_controller, &ScenarioController::estimateChanged, this, &ClusterPanel::showFigures);
    // A plan answers the scenario it was made for: any other edit (undo
    // too) or another scenario empties it.
    connect(m_controller, &ScenarioController::fieldsChanged, this, [this] {
        if (!m_applyingPlan)
            clearPlan();
    });
    connect(m_controller, &ScenarioController::scenarioReplaced, this, &ClusterPanel::clearPlan);
    showFigures();
}

void ClusterPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_figuresStale)
        showFigures();
}

void ClusterPanel::showFigures()
{
    // Off screen (another tab is open) the figures and the rank chart wait
    // until the panel is shown: they would cost every slider step a replot.
    m_figuresStale = !isVisibleTo(window());
    if (m_figuresStale)
        return;
    const core::Scenario &s = m_controller->result().scenario;
    const core::Estimate &e = m_controller->result().estimate;
    const core::GpuSpec *gpu = m_controller->focusGpu();
    if (!e.isValid() || !gpu) {
        m_figures->setText(e.isValid() ? QString() : tr("<b>Layout not valid:</b> %1").arg(firstProblem(e)));
        return;
    }
    const core::ByteUnit unit = m_controller->unit();
    const core::Performance p = core::performance(s, e, *gpu);
    // English plurals without %n, which would need an English .qm.
    QString text = (s.gpus == 1 ? tr("<b>%1 GPU</b> = tp %2 × pp %3 × dp %4, most loaded rank: %5 stage")
                                : tr("<b>%1 GPUs</b> = tp %2 × pp %3 × dp %4, most loaded rank: %5 stage"))
                       .arg(groupedCount(s.gpus))
                       .arg(s.parallel.tp)
                       .arg(s.parallel.pp)
                       .arg(s.dataParallel())
                       .arg(e.details.stage == core::Stage::First ? tr("first")
                            : e.details.stage == core::Stage::Last ? tr("last")
                                                                   : tr("every"));
    text += QStringLiteral("<br>") + tr("Per GPU %1 of %2 on %3: <b>%4</b>")
                                         .arg(bytesText(e.total, unit), bytesText(gpu->capacity(), unit), shortGpuName(*gpu),
                                              e.total <= gpu->capacity() ? tr("fits") : tr("does not fit"));
    if (const QString host = hostMemoryText(e, unit); !host.isEmpty())
        text += QStringLiteral("<br>") + tr("Host memory for offload: %1 per GPU").arg(host);
    if (s.isTraining()) {
        text += QStringLiteral("<br>") + tr("Step: <b>%1 s</b> = %2 s compute, %3 s pipeline bubble, %4 s communication%5")
                                             .arg(p.stepSeconds, 0, 'f', 3)
                                             .arg(p.stepComputeSeconds, 0, 'f', 3)
                                             .arg(p.step[core::StepPart::PipelineBubble], 0, 'f', 3)
                                             .arg(p.stepCommSeconds, 0, 'f', 3)
                                             .arg(p.communicationBound ? tr(" — <b>communication-bound</b>") : QString());
        text += QStringLiteral("<br>") + tr("Step parts: %1").arg(QString::fromStdString(core::describeStepParts(p.step, 3, translateForCore)));
        if (p.trainingSeconds > 0) {
            text += QStringLiteral("<br>")
                + tr("Training time: <b>%1</b>, %2 GPU-hours").arg(hours(p.trainingSeconds), groupedCount(p.gpuHours));
            if (p.cost > 0)
                text += tr(", cost <b>$%1</b>").arg(groupedCount(p.cost));
        }
    } else {
        const ServingNumbers n = servingNumbers(p);
        text += QStringLiteral("<br>") + tr("Decode up to %1 tokens/s (memory bandwidth), prefill %2 tokens/s").arg(n.aggregate, n.prefill);
        text += QStringLiteral("<br>") + tr("Serving %n sequence(s): first token after %1 s, then %2 tokens/s each", "",
                                            static_cast<int>(std::min<std::uint64_t>(s.batch, INT_MAX)))
                                             .arg(n.ttftSeconds, n.perSequence);
        if (!n.costPerMillion.isEmpty())
            text += tr(", <b>$%1</b> per million generated tokens").arg(n.costPerMillion);
        text += QStringLiteral("<br>") + tr("Requests of %1 output tokens: %2 per second on these GPUs")
                                             .arg(groupedCount(static_cast<double>(s.workload.outputTokens)), n.requestsPerSecond);
        if (!n.gpusForRate.isEmpty())
            text += tr("; <b>%1 GPUs</b> for %2 per second").arg(n.gpusForRate, QString::number(s.workload.requestRate, 'f', 2));
    }
    m_figures->setText(text);

    // Per-rank bars: the pipeline's first and last stage side by side.
    m_ranks->clearPlottables();
    m_ranks->clearItems();
    const std::vector<core::Estimate> stages = core::estimateStages(m_controller->result());
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    const bool devices = core::splitsLayersByMemory(s) && stages.size() > 1;
    for (std::size_t i = 0; i < stages.size(); ++i)
        ticker->addTick(static_cast<double>(i + 1),
                        devices ? tr("GPU %1").arg(stages[i].details.device)
                                : (stages.size() == 1 ? tr("every rank") : (i == 0 ? tr("first stage") : tr("last stage"))));
    m_ranks->xAxis->setTicker(ticker);
    QCPBars *below = nullptr;
    double top = core::toGiga(gpu->capacity(), unit);
    for (core::TermId id : core::allTerms()) {
        QVector<double> keys;
        QVector<double> values;
        for (std::size_t i = 0; i < stages.size(); ++i) {
            keys << static_cast<double>(i + 1);
            values << core::toGiga(stages[i].terms[static_cast<std::size_t>(id)], unit);
        }
        auto *bars = new QCPBars(m_ranks->xAxis, m_ranks->yAxis);
        bars->setData(keys, values);
        bars->setBrush(termColor(id));
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.5);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    for (const core::Estimate &stage : stages)
        top = std::max(top, core::toGiga(stage.total, unit));
    auto *capacity = new QCPItemStraightLine(m_ranks);
    capacity->point1->setCoords(0, core::toGiga(gpu->capacity(), unit));
    capacity->point2->setCoords(1, core::toGiga(gpu->capacity(), unit));
    capacity->setPen(QPen(palette().color(QPalette::Text), 2, Qt::DashLine));
    m_ranks->xAxis->setRange(0.4, static_cast<double>(stages.size()) + 0.6);
    m_ranks->yAxis->setRange(0, top * 1.1);
    m_ranks->yAxis->setLabel(QString::fromUtf8(core::gigaSuffix(unit)));
    m_ranks->replot(QCustomPlot::rpQueuedReplot);
}

void ClusterPanel::plan()
{
    const core::GpuSpec *gpu = m_controller->focusGpu();
    if (!gpu)
        return;
    // Offloaded states are checked against the machine's host memory where
    // the scenario gives it, else against a DGX H100's, and the note says so.
    const core::Scenario &base = m_controller->scenario();
    core::PlanRequest request;
    if (base.hostMemoryGib > 0)
        request.hostBytesPerNode = base.hostMemoryGib * 1024.0 * 1024.0 * 1024.0;
    const QString host = bytesText(core::Bytes::fromDouble(request.hostBytesPerNode), m_controller->unit());
    m_planNote->setText(base.hostMemoryGib > 0
                            ? tr("Offloaded states are checked against %1 of host memory per node.").arg(host)
                            : tr("Offload layouts assume %1 of host memory per node, as in a DGX H100; set Host "
                                 "memory in the advanced settings to plan for your machine.")
                                  .arg(host));
    const auto layouts = core::planLayouts(base, *gpu, request);
    m_planned.clear();
    m_plan->setRowCount(0);
    for (const core::PlanOption &o : layouts) {
        const core::Scenario &s = o.scenario;
        const int row = m_plan->rowCount();
        m_plan->insertRow(row);
        const QStringList cells = {QString::number(s.gpus),
                                   QString::number(s.parallel.tp),
                                   QString::number(s.parallel.pp),
                                   QString::number(s.dataParallel()),
                                   QString::number(s.zeroStage),
                                   QString::fromUtf8(core::checkpointingId(s.effectiveCheckpointing())),
                                   QString::fromUtf8(core::offloadId(s.parallel.offload)),
                                   tr("%1 / %2 s").arg(bytesText(o.estimate.total, m_controller->unit())).arg(o.stepSeconds, 0, 'f', 2)};
        for (int c = 0; c < cells.size(); ++c)
            m_plan->setItem(row, c, new QTableWidgetItem(cells[c]));
        m_planned.push_back(s);
    }
    if (layouts.empty()) {
        m_plan->insertRow(0);
        m_plan->setItem(0, 0, new QTableWidgetItem(tr("No layout up to 1,024 GPUs fits")));
        // The what-would-fit search says why, and what would, as set.
        const core::EstimateWithFits asSet = core::estimateWithFits(base, m_controller->catalog(), {gpu->id});
        const core::GpuFit *fit = asSet.fitFor(gpu->id);
        const QStringList why = fit ? whatWouldFitLines(asSet, *fit, m_controller->unit()) : QStringList();
        if (!why.isEmpty())
            m_planNote->setText(m_planNote->text() + QLatin1Char('\n') + why.join(QLatin1Char('\n')));
    }
}

void ClusterPanel::applyPlanRow(int row)
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_planned.size())
        return;
    const core::Scenario chosen = m_planned[static_cast<std::size_t>(row)];
    m_applyingPlan = true;
    m_controller->update(tr("Use a planned layout"), [&chosen](core::Scenario &s) {
        s.gpus = chosen.gpus;
        s.parallel = chosen.parallel;
        s.zeroStage = chosen.zeroStage;
        s.checkpointing = chosen.checkpointing;
    });
    m_applyingPlan = false;
}

void ClusterPanel::clearPlan()
{
    m_planned.clear();
    m_plan->setRowCount(0);
    m_planNote->clear();
}

} // namespace ui
