#pragma once

#include "ui/exporter.h"

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace ui {

/// Size and resolution of a PNG chart export.
class PngExportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PngExportDialog(QWidget *parent = nullptr);
    ChartExportOptions options() const;

private:
    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_dpi;
};

} // namespace ui
