#pragma once

#include "ui/exporter.h"

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace ui {

/// The size of a chart export: a printed page, slide or column, or a size
/// in pixels; for a PNG also its resolution.
class ChartExportDialog : public QDialog
{
    Q_OBJECT

public:
    ChartExportDialog(ExportFormat format, QWidget *parent = nullptr);
    ChartExportOptions options() const;

private:
    void pageChosen();

    QComboBox *m_page;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_dpi = nullptr;
};

} // namespace ui
