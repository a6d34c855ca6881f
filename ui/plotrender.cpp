#include "ui/plotrender.h"

#include "ui/chartlabels.h"

#include <QBuffer>

#include <cmath>
#include <QImage>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace ui {

namespace {

/// Pixels kept free at each side of the footer.
constexpr int kFooterMargin = 8;

/// The footer as the plot's last layout row while it is drawn: the window
/// never shows it.
class FooterRow
{
public:
    FooterRow(QCustomPlot *plot, const QString &text, int layoutWidth) : m_plot(plot)
    {
        if (text.isEmpty())
            return;
        m_element = new QCPTextElement(plot);
        QFont font = plot->font();
        m_element->setFont(font);
        // The ink the chart's axes use (black in presentations); a chart
        // without axes (the deploy view's) has the palette's.
        m_element->setTextColor(plot->xAxis ? plot->xAxis->tickLabelColor() : plot->palette().color(QPalette::Text));
        m_element->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        m_element->setText(wrapText(text, font, layoutWidth - 2 * kFooterMargin));
        m_element->setMargins(QMargins(kFooterMargin, 2, kFooterMargin, 4));
        plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, m_element);
    }
    ~FooterRow()
    {
        if (!m_element)
            return;
        m_plot->plotLayout()->remove(m_element);
        m_plot->plotLayout()->simplify();
    }
    FooterRow(const FooterRow &) = delete;
    FooterRow &operator=(const FooterRow &) = delete;

private:
    QCustomPlot *m_plot;
    QCPTextElement *m_element = nullptr;
};

/// Draws the plot onto a vector device; false when the device cannot paint.
bool paint(QCustomPlot *plot, QPaintDevice &device, int width, int height)
{
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    plot->toPainter(&painter, width, height);
    painter.end();
    return true;
}

} // namespace

QByteArray renderPng(QCustomPlot *plot, int width, int height, double scale, int dpi, double textScale,
                     const QString &footer)
{
    // Larger text: the chart is laid out at 1/textScale of the size and
    // drawn textScale times larger, to the same pixels.
    const int layoutWidth = static_cast<int>(std::ceil(width / textScale));
    const int layoutHeight = static_cast<int>(std::ceil(height / textScale));
    const FooterRow row(plot, footer, layoutWidth);
    QImage image = plot->toPixmap(layoutWidth, layoutHeight, scale * textScale)
                       .toImage()
                       .copy(0, 0, static_cast<int>(width * scale), static_cast<int>(height * scale));
    const int dotsPerMeter = static_cast<int>(dpi / 0.0254 + 0.5);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray renderSvg(QCustomPlot *plot, int width, int height, const QString &title, const QString &footer)
{
    const FooterRow row(plot, footer, width);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setResolution(96); // the default 72 dpi would make the drawing 4/3 too large
    generator.setTitle(title);
    return paint(plot, generator, width, height) ? bytes : QByteArray();
}

void setUpPdf(QPdfWriter &writer, const QString &title, const QPageSize &page)
{
    writer.setCreator(QStringLiteral("VRAM Planner"));
    writer.setTitle(title);
    writer.setResolution(96);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setPageSize(page);
}

QByteArray renderPdf(QCustomPlot *plot, int width, int height, const QString &title, const QString &footer)
{
    const FooterRow row(plot, footer, width);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    setUpPdf(writer, title, QPageSize(QSizeF(width * 72.0 / 96.0, height * 72.0 / 96.0), QPageSize::Point));
    return paint(plot, writer, width, height) ? bytes : QByteArray();
}

} // namespace ui
