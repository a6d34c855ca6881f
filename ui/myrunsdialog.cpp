#include "ui/myrunsdialog.h"

#include "core/io/runarchive.h"
#include "core/io/textfile.h"
#include "ui/termstyle.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <filesystem>

namespace ui {

MyRunsDialog::MyRunsDialog(core::ByteUnit unit, QWidget *parent)
    : QDialog(parent), m_unit(unit), m_header(new QLabel), m_table(new QTableWidget(0, 9))
{
    setWindowTitle(tr("My Runs"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Date"), tr("GPU"), tr("Device"), tr("Quantity"), tr("Planned"),
                                        tr("Measured"), tr("Error"), tr("Planner term")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(960, 520);
    reload();
}

void MyRunsDialog::reload()
{
    m_table->setRowCount(0);
    const std::filesystem::path path = core::io::runArchivePath();
    const QString where = QString::fromStdString(path.string());
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) {
        m_header->setText(tr("No kept runs yet: File > Compare with a Run…, then Keep in My Runs, adds one."));
        return;
    }
    std::string error;
    const auto text = core::io::readTextFile(path.string(), core::kMaxInputBytes, error);
    const auto archive = text ? core::io::loadRunArchive(*text) : core::LoadResult<core::io::RunArchive>{};
    if (!archive.ok()) {
        m_header->setText(tr("%1 cannot be read: %2")
                              .arg(where, QString::fromStdString(text ? archive.errors.front() : error)));
        return;
    }
    const std::vector<core::io::KeptRun> &runs = archive.value->runs;
    QStringList scenarios;
    for (std::size_t i = 0; i < runs.size(); ++i)
        scenarios << tr("#%1 %2 (%3)").arg(i + 1).arg(QString::fromStdString(runs[i].scenario), QString::fromStdString(runs[i].log));
    m_header->setText(tr("%n run(s) kept in %1", "", static_cast<int>(runs.size())).arg(where) + QLatin1Char('\n')
                      + scenarios.join(QLatin1Char('\n')));
    for (std::size_t i = 0; i < runs.size(); ++i) {
        for (const core::io::KeptRow &r : runs[i].rows) {
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            const double error = r.measuredBytes ? 100.0 * (static_cast<double>(r.plannedBytes) - static_cast<double>(r.measuredBytes))
                    / static_cast<double>(r.measuredBytes)
                                                 : 0.0;
            const QStringList cells = {
                QStringLiteral("#%1 %2").arg(i + 1).arg(QString::fromStdString(runs[i].engine)),
                QString::fromStdString(runs[i].created),
                QString::fromStdString(runs[i].gpuId),
                QString::fromStdString(r.device),
                QCoreApplication::translate("RunLog", r.label.c_str()),
                bytesText(core::Bytes::fromCount(r.plannedBytes), m_unit),
                bytesText(core::Bytes::fromCount(r.measuredBytes), m_unit),
                tr("%1 %").arg((error > 0 ? QStringLiteral("+") : QString()) + QString::number(error, 'f', 1)),
                QString::fromStdString(r.term)};
            for (int c = 0; c < cells.size(); ++c)
                m_table->setItem(row, c, new QTableWidgetItem(cells[c]));
        }
    }
    m_table->resizeColumnsToContents();
}

} // namespace ui
