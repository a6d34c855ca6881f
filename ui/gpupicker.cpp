#include "ui/gpupicker.h"

#include "ui/termstyle.h"

#include <QDialogButtonBox>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

GpuPicker::GpuPicker(const core::Catalog &catalog, const QStringList &shown, QWidget *parent)
    : QDialog(parent), m_list(new QListWidget)
{
    setWindowTitle(tr("Choose GPUs"));
    for (const core::GpuSpec &gpu : catalog.gpus) {
        const QString id = QString::fromStdString(gpu.id);
        auto *item = new QListWidgetItem(QStringLiteral("%1  (%2)").arg(QString::fromStdString(gpu.name),
                                                                     bytesText(gpu.memory, core::ByteUnit::GiB, 0)));
        item->setData(Qt::UserRole, id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(shown.contains(id) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(QString::fromStdString(gpu.source));
        m_list->addItem(item);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QPushButton *defaults = buttons->addButton(tr("&Defaults"), QDialogButtonBox::ResetRole);
    connect(defaults, &QPushButton::clicked, this, [this, &catalog] {
        for (int i = 0; i < m_list->count(); ++i)
            m_list->item(i)->setCheckState(catalog.gpus[static_cast<std::size_t>(i)].defaultShown ? Qt::Checked : Qt::Unchecked);
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(buttons);
    resize(460, 560);
}

QStringList GpuPicker::chosen() const
{
    QStringList ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            ids << m_list->item(i)->data(Qt::UserRole).toString();
    return ids;
}

} // namespace ui
