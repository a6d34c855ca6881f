#pragma once

#include "core/model/catalog.h"

#include <QDialog>
#include <QStringList>

class QListWidget;

namespace ui {

/// Chooses which catalog GPUs the chart and the fit table show.
class GpuPicker : public QDialog
{
    Q_OBJECT

public:
    GpuPicker(const core::Catalog &catalog, const QStringList &shown, QWidget *parent = nullptr);
    QStringList chosen() const;

private:
    QListWidget *m_list;
};

} // namespace ui
