#pragma once

#include "core/engine/estimate.h"

#include <QString>

namespace ui {

/// One plain-language paragraph on what a term is and why it takes the
/// memory it does, translated (the "why" view, teaching mode).
QString termExplanation(core::TermId id);

} // namespace ui
