#include "ui/pngexportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace ui {

PngExportDialog::PngExportDialog(QWidget *parent)
    : QDialog(parent), m_width(new QSpinBox), m_height(new QSpinBox), m_dpi(new QComboBox)
{
    setWindowTitle(tr("Export PNG"));
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(320, 8000);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(1600);
    m_height->setValue(1000);
    // The same drawing at a higher pixel ratio: 192 dpi doubles the pixels.
    for (int dpi : {96, 144, 192, 300})
        m_dpi->addItem(tr("%1 dpi").arg(dpi), dpi);
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Resolution:"), m_dpi);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

ChartExportOptions PngExportDialog::options() const
{
    ChartExportOptions options;
    options.size = QSize(m_width->value(), m_height->value());
    options.dpi = m_dpi->currentData().toInt();
    options.scale = options.dpi / 96.0;
    return options;
}

} // namespace ui
