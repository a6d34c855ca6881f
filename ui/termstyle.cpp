#include "ui/termstyle.h"

#include <QCoreApplication>

namespace ui {

QString termName(core::TermId id)
{
    switch (id) {
    case core::TermId::Weights:
        return QCoreApplication::translate("Terms", "Weights");
    case core::TermId::Lora:
        return QCoreApplication::translate("Terms", "LoRA adapters");
    case core::TermId::MasterWeights:
        return QCoreApplication::translate("Terms", "Master weights");
    case core::TermId::Gradients:
        return QCoreApplication::translate("Terms", "Gradients");
    case core::TermId::Optimizer:
        return QCoreApplication::translate("Terms", "Optimizer states");
    case core::TermId::Activations:
        return QCoreApplication::translate("Terms", "Activations");
    case core::TermId::Logits:
        return QCoreApplication::translate("Terms", "Logits and loss");
    case core::TermId::KvCache:
        return QCoreApplication::translate("Terms", "KV cache");
    case core::TermId::Workspace:
        return QCoreApplication::translate("Terms", "Workspace");
    case core::TermId::GatherBuffer:
        return QCoreApplication::translate("Terms", "ZeRO-3 gather buffer");
    case core::TermId::CommBuffers:
        return QCoreApplication::translate("Terms", "NCCL buffers");
    case core::TermId::CudaOverhead:
        return QCoreApplication::translate("Terms", "CUDA context");
    case core::TermId::AllocatorReserve:
        return QCoreApplication::translate("Terms", "Allocator reserve");
    case core::TermId::Count:
        break;
    }
    return QString();
}

QColor termColor(core::TermId id)
{
    static const QColor colors[core::kTermCount] = {
        QColor(0x00, 0x72, 0xB2), // weights: blue
        QColor(0x56, 0xB4, 0xE9), // lora: sky blue
        QColor(0x33, 0x22, 0x88), // master_weights: indigo
        QColor(0xE6, 0x9F, 0x00), // gradients: orange
        QColor(0xD5, 0x5E, 0x00), // optimizer: vermillion
        QColor(0x00, 0x9E, 0x73), // activations: bluish green
        QColor(0xCC, 0x79, 0xA7), // logits: reddish purple
        QColor(0xF0, 0xE4, 0x42), // kv_cache: yellow
        QColor(0xDD, 0xCC, 0x77), // workspace: sand
        QColor(0x44, 0xAA, 0x99), // gather_buffer: teal
        QColor(0x88, 0x22, 0x55), // comm_buffers: wine
        QColor(0x88, 0x88, 0x88), // cuda_overhead: grey
        QColor(0xBB, 0xBB, 0xBB), // allocator_reserve: light grey
    };
    return colors[static_cast<std::size_t>(id)];
}

QString bytesText(core::Bytes bytes, core::ByteUnit unit, int decimals)
{
    if (bytes.isSaturated())
        return QCoreApplication::translate("Terms", "exceeds");
    return QString::fromStdString(core::formatBytes(bytes, unit, decimals));
}

QString scenarioSummary(const core::Scenario &s)
{
    static const char *const modes[] = {QT_TRANSLATE_NOOP("Terms", "inference"), QT_TRANSLATE_NOOP("Terms", "full training"),
                                        QT_TRANSLATE_NOOP("Terms", "LoRA"), QT_TRANSLATE_NOOP("Terms", "QLoRA")};
    const QString format = s.mode == core::Mode::Train ? QString::fromUtf8(core::regimeId(s.regime))
                                                       : QString::fromUtf8(core::formatInfo(s.effectiveWeights()).id);
    const QString gpus = s.gpus == 1 ? QCoreApplication::translate("Terms", "1 GPU")
                                     : QCoreApplication::translate("Terms", "%1 GPUs").arg(s.gpus);
    return QCoreApplication::translate("Terms", "%1 · %2 · %3 · batch %4 · %5 tokens · %6")
        .arg(QString::fromStdString(s.model.name), QCoreApplication::translate("Terms", modes[static_cast<int>(s.mode)]),
             format, QString::fromStdString(core::groupDigits(s.batch)), QString::fromStdString(core::groupDigits(s.sequence)),
             gpus);
}

QString phaseName(core::Phase phase)
{
    switch (phase) {
    case core::Phase::Forward:
        return QCoreApplication::translate("Terms", "forward");
    case core::Phase::Backward:
        return QCoreApplication::translate("Terms", "backward");
    case core::Phase::OptimizerStep:
        return QCoreApplication::translate("Terms", "optimizer step");
    case core::Phase::Inference:
        break;
    }
    return QCoreApplication::translate("Terms", "inference");
}

QString verdictText(const core::GpuFit &fit)
{
    if (fit.fits)
        return QCoreApplication::translate("Terms", "fits");
    if (fit.gpusNeeded > 0)
        return QCoreApplication::translate("Terms", "needs %1 ×").arg(fit.gpusNeeded);
    return QCoreApplication::translate("Terms", "cannot fit");
}

QString headroomText(const core::GpuFit &fit, core::ByteUnit unit)
{
    if (fit.fits || fit.shortfall.isSaturated())
        return bytesText(fit.fits ? fit.headroom : fit.shortfall, unit, 1);
    return QStringLiteral("−") + bytesText(fit.shortfall, unit, 1);
}

QString shortGpuName(const core::GpuSpec &gpu)
{
    QString name = QString::fromStdString(gpu.name);
    for (const char *prefix : {"NVIDIA ", "AMD ", "Intel ", "Apple ", "Tesla ", "GeForce "})
        if (name.startsWith(QLatin1String(prefix)))
            name.remove(0, static_cast<int>(qstrlen(prefix)));
    return name;
}

} // namespace ui
