#include "views/tables/diagnostics_view.h"

#include "profiler/importers/diagnostic_kinds.h"
#include "profiler/store/profile_db.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

DiagnosticsView::DiagnosticsView(QWidget* parent) : QWidget(parent) {
    m_model = new RecordTableModel(this);
    m_model->setHeaders({QStringLiteral("Severity"), QStringLiteral("Kind"), QStringLiteral("Count"), QStringLiteral("Example")});
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(RecordTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::DescendingOrder);
    m_table->verticalHeader()->setVisible(false);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int widths[] = {80, 240, 80};
    for (int c = 0; c < 3; ++c) m_table->horizontalHeader()->resizeSection(c, widths[c]);
    m_info = new QLabel(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_info);
    layout->addWidget(m_table, 1);
}

void DiagnosticsView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    std::vector<std::vector<RecordCell>> rows;
    qint64 total = 0;
    if (db) {
        for (const auto& d : db->diagnostics()) {
            static const QString names[] = {QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error")};
            const int sev = std::clamp(int(d.severity), 0, 2);
            const QString example = QString::fromStdString(d.example);
            const auto* info = profiler::findDiagnostic(d.kind);  // the list's meaning as the kind's tooltip
            const QString kind = QString::fromStdString(d.kind);
            rows.push_back({RecordCell(names[sev], sev),
                            RecordCell(kind, {}, info ? QString::fromUtf8(info->description.data(), qsizetype(info->description.size())) : kind),
                            RecordCell(QString::number(d.count), qlonglong(d.count)), RecordCell(example, {}, example)});
            total += d.count;
        }
    }
    m_info->setText(!db ? QStringLiteral("No run open.")
                    : rows.empty() ? QStringLiteral("No import problems recorded for this run.")
                                   : QStringLiteral("%1 problem(s) of %2 kind(s); odd events were counted and skipped, "
                                                    "the rest of the trace was imported.")
                                         .arg(total)
                                         .arg(rows.size()));
    m_model->setRows(std::move(rows));
}

}  // namespace npu::views
