#include "views/tables/communication_view.h"

#include "profiler/analysis/communication_summary.h"
#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/tables/communication_model.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {
namespace {

QTableView* makeCommunicationTable(QAbstractItemModel* model, int sortRole, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto* table = new QTableView(parent);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    // QHeaderView starts at section 0 *descending*, which put rank 1 above rank 0 under an
    // arrow that reads as ascending; start in the files' order: rank (or source) ascending.
    table->sortByColumn(0, Qt::AscendingOrder);
    table->verticalHeader()->setVisible(false);
    table->setAlternatingRowColors(true);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

}  // namespace

CommunicationView::CommunicationView(QWidget* parent) : QWidget(parent) {
    m_ops = new CommunicationModel(this);
    m_matrix = new RecordTableModel(this);
    m_matrix->setHeaders({QStringLiteral("Src"), QStringLiteral("Dst"), QStringLiteral("Transport"), QStringLiteral("Size"),
                          QStringLiteral("Time"), QStringLiteral("Bandwidth")});
    m_groups = new RecordTableModel(this);
    // Ranks last: the stretched column, as a 16-rank set is long.
    m_groups->setHeaders({QStringLiteral("Group type"), QStringLiteral("Size"), QStringLiteral("Ranks")});
    m_info = new QLabel(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(makeCommunicationTable(m_ops, CommunicationModel::SortRole, split));
    split->addWidget(makeCommunicationTable(m_matrix, RecordTableModel::SortRole, split));
    split->addWidget(makeCommunicationTable(m_groups, RecordTableModel::SortRole, split));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_info);
    layout->addWidget(split, 1);
}

void CommunicationView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    m_ops->setOps(db ? profiler::loadCommOps(*db) : std::vector<profiler::CommOpRecord>{});
    std::vector<std::vector<RecordCell>> rows;
    if (db)
        for (const auto& l : profiler::communicationMatrix(*db))
            rows.push_back({RecordCell(qlonglong(l.src)), RecordCell(qlonglong(l.dst)), RecordCell(QString::fromStdString(l.transport)),
                            RecordCell(formatBytes(l.size_mb * 1e6), l.size_mb), RecordCell(formatDuration(double(l.time_ns)), qlonglong(l.time_ns)),
                            RecordCell(QStringLiteral("%1 GB/s").arg(l.bandwidth_gbps, 0, 'f', 2), l.bandwidth_gbps)});
    std::vector<std::vector<RecordCell>> groups;
    if (db)
        for (const auto& g : profiler::communicationGroups(*db))
            groups.push_back({RecordCell(QString::fromStdString(g.type)), RecordCell(qlonglong(g.size)),
                              RecordCell(QString::fromStdString(g.rankSet))});
    m_info->setText(m_ops->rowCount() == 0 && rows.empty() && groups.empty()
                        ? QStringLiteral("No communication analysis in this run (Ascend communication.json / analysis.db / "
                                         "cluster analysis).")
                        : QStringLiteral("%1 communication op(s) over all ranks; %2 link(s) in the rank × rank matrix; "
                                         "%3 communication group(s).")
                              .arg(m_ops->rowCount())
                              .arg(rows.size())
                              .arg(groups.size()));
    m_matrix->setRows(std::move(rows));
    m_groups->setRows(std::move(groups));
}

}  // namespace npu::views
