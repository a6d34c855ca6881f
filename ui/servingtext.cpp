#include "ui/servingtext.h"

#include "ui/termstyle.h"

#include <algorithm>
#include <cmath>

namespace ui {

QString groupedCount(double value)
{
    return QString::fromStdString(core::groupDigits(static_cast<std::uint64_t>(std::llround(std::max(0.0, value)))));
}

ServingNumbers servingNumbers(const core::Performance &p)
{
    ServingNumbers n;
    n.ttftSeconds = QString::number(p.ttftSeconds, 'f', 2);
    n.perSequence = QString::number(p.decodeTokensPerSecondPerSequence, 'f', 1);
    n.aggregate = QString::fromStdString(core::formatFigure(p.decodeTokensPerSecond));
    n.prefill = groupedCount(p.prefillTokensPerSecond);
    if (p.costPerMillionTokens > 0)
        n.costPerMillion = QString::number(p.costPerMillionTokens, 'f', 2);
    n.requestsPerSecond = QString::number(p.requestsPerSecond, 'f', 2);
    if (p.gpusForRequestRate > 0)
        n.gpusForRate = groupedCount(p.gpusForRequestRate);
    return n;
}

QString hostMemoryText(const core::Estimate &e, core::ByteUnit unit)
{
    if (e.details.hostBytesPerGpu <= 0)
        return QString();
    return bytesText(core::Bytes::fromDouble(e.details.hostBytesPerGpu), unit);
}

} // namespace ui
