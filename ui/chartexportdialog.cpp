#include "ui/chartexportdialog.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace ui {

ChartExportDialog::ChartExportDialog(ExportFormat format, QWidget *parent)
    : QDialog(parent), m_page(new QComboBox), m_width(new QSpinBox), m_height(new QSpinBox)
{
    setWindowTitle(tr("Export Chart"));
    m_page->addItem(tr("Size in pixels"), QString());
    for (const ExportPage &page : exportPages())
        m_page->addItem(QCoreApplication::translate("ExportPage", page.label), QString::fromLatin1(page.id));
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(320, 8000);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(1600);
    m_height->setValue(1000);
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Size:"), m_page);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    if (format == ExportFormat::Png) {
        // The same drawing at a higher pixel ratio: 192 dpi doubles the pixels.
        m_dpi = new QComboBox;
        for (int dpi : {96, 144, 192, 300})
            m_dpi->addItem(tr("%1 dpi").arg(dpi), dpi);
        form->addRow(tr("&Resolution:"), m_dpi);
    }
    if (const ExportPage *page = defaultExportPage(format))
        m_page->setCurrentIndex(m_page->findData(QString::fromLatin1(page->id)));
    connect(m_page, &QComboBox::currentIndexChanged, this, &ChartExportDialog::pageChosen);
    pageChosen();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void ChartExportDialog::pageChosen()
{
    const ExportPage *page = findExportPage(m_page->currentData().toString());
    m_width->setEnabled(!page);
    m_height->setEnabled(!page);
}

ChartExportOptions ChartExportDialog::options() const
{
    const int dpi = m_dpi ? m_dpi->currentData().toInt() : 96;
    if (const ExportPage *page = findExportPage(m_page->currentData().toString()))
        return pageOptions(*page, dpi);
    ChartExportOptions options;
    options.size = QSize(m_width->value(), m_height->value());
    options.dpi = dpi;
    options.scale = dpi / 96.0;
    return options;
}

} // namespace ui
