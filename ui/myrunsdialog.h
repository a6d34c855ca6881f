#pragma once

#include "core/base/units.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace ui {

/// Tools > My Runs: the lab's own error table, each quantity of each run
/// kept from a comparison (runs.json in the user data folder), as
/// `vramplanner-cli validate --mine` prints it.
class MyRunsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit MyRunsDialog(core::ByteUnit unit, QWidget *parent = nullptr);

    /// Reads runs.json again; a file that cannot be read is named in the header.
    void reload();
    QTableWidget *table() const { return m_table; }

    enum Column { RunColumn, DateColumn, GpuColumn, DeviceColumn, QuantityColumn, PlannedColumn, MeasuredColumn, ErrorColumn, TermColumn };

private:
    core::ByteUnit m_unit;
    QLabel *m_header;
    QTableWidget *m_table;
};

} // namespace ui
