#pragma once

#include "core/analysis/fit.h"
#include "core/base/units.h"
#include "core/engine/estimate.h"

#include <QColor>
#include <QString>
#include <QStringList>

namespace ui {

/// Translated display name of a term ("Weights", "KV cache", ...).
QString termName(core::TermId id);

/// Colour of a term in charts: a colour-blind-safe palette (Okabe & Ito 2008,
/// "Color Universal Design", extended with Paul Tol's muted scheme).
QColor termColor(core::TermId id);

/// core::formatBytes as a QString, in the user's unit.
QString bytesText(core::Bytes bytes, core::ByteUnit unit, int decimals = 2);

/// `text` marked "~" when the model's architecture is a guess (a config of
/// an unknown model_type), so every number that depends on it says so.
QString markGuess(const QString &text, const core::ModelSpec &model);

/// One translated line describing the scenario, for chart titles:
/// "Llama 3 8B · full training · bf16 · batch 2 · 2,048 tokens · 1 GPU".
QString scenarioSummary(const core::Scenario &scenario);

/// Translated name of a phase ("forward", "backward", ...).
QString phaseName(core::Phase phase);

/// "fits", "needs 5 x", "cannot fit" for one GPU, translated.
QString verdictText(const core::GpuFit &fit);

/// The headroom column: "12.3 GiB", "−4.5 GiB" when short, "exceeds" when
/// the total is beyond counting (as core::formatHeadroom, translated).
QString headroomText(const core::GpuFit &fit, core::ByteUnit unit);

/// Why `fit`'s GPU does not take the scenario and what would make it fit,
/// a line each (the split floor, the heading, one line a suggestion);
/// empty when it fits. Searches: call on demand, not per repaint.
QStringList whatWouldFitLines(const core::EstimateWithFits &result, const core::GpuFit &fit, core::ByteUnit unit);

/// The colour of a verdict (Okabe-Ito): bluish green = fits, orange =
/// needs several, vermillion = cannot fit.
QColor verdictColor(bool fits, int gpusNeeded);
inline QColor verdictColor(const core::GpuFit &fit) { return verdictColor(fit.fits, fit.gpusNeeded); }

/// A GPU's name without the vendor prefix, for axis labels ("A100 SXM4 80GB").
QString shortGpuName(const core::GpuSpec &gpu);

} // namespace ui
