#include "ui/termstyle.h"

#include "core/explain/report.h"
#include "ui/language.h"

#include <QCoreApplication>

namespace ui {

QString termName(core::TermId id) { return QString::fromStdString(core::termName(id, translateForCore)); }

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

QString markGuess(const QString &text, const core::ModelSpec &model)
{
    return model.guessed() ? QStringLiteral("~ ") + text : text;
}

QString scenarioSummary(const core::Scenario &s) { return QString::fromStdString(core::summarize(s, translateForCore)); }

QString phaseName(core::Phase phase) { return QString::fromStdString(core::phaseName(phase, translateForCore)); }

QString verdictText(const core::GpuFit &fit) { return QString::fromStdString(core::verdictText(fit, translateForCore)); }

QString headroomText(const core::GpuFit &fit, core::ByteUnit unit)
{
    if (fit.fits || fit.shortfall.isSaturated())
        return bytesText(fit.fits ? fit.headroom : fit.shortfall, unit, 1);
    return QStringLiteral("−") + bytesText(fit.shortfall, unit, 1);
}

QStringList whatWouldFitLines(const core::EstimateWithFits &result, const core::GpuFit &fit, core::ByteUnit unit)
{
    QStringList lines;
    core::FitSearch search(result.scenario);
    const auto reason = search.reasonFor(result.estimate, fit);
    if (!reason)
        return lines;
    lines << QString::fromStdString(core::fitReasonText(*reason, unit, translateForCore)) + QLatin1Char('.');
    const std::vector<core::FitSuggestion> found = search.suggestionsFor(fit);
    lines << QCoreApplication::translate("Report", core::suggestionsHeading(found));
    for (const core::FitSuggestion &suggestion : found)
        lines << QStringLiteral("• ")
                + QString::fromStdString(core::suggestionText(result.scenario, suggestion, unit, translateForCore));
    return lines;
}

QColor verdictColor(bool fits, int gpusNeeded)
{
    if (fits)
        return QColor(0x00, 0x7A, 0x5A);
    return gpusNeeded > 0 ? QColor(0xB0, 0x6A, 0x00) : QColor(0xC0, 0x3A, 0x00);
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
