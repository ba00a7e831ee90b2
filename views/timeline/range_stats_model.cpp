#include "views/timeline/range_stats_model.h"

#include "views/timeline/time_ruler.h"

#include <algorithm>

namespace npu::views {

RangeStatsModel::RangeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeStatsModel::setRows(std::vector<profiler::RangeAggregateRow> rows, qint64 rangeNs)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_rangeNs = rangeNs;
    endResetModel();
}

void RangeStatsModel::clear() { setRows({}, 0); }

int RangeStatsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RangeStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const profiler::RangeAggregateRow& r = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn: return QString::fromStdString(r.name);
        case CountColumn: return QVariant::fromValue<qlonglong>(r.count);
        case TotalColumn: return formatDuration(r.total_ns);
        case SelfColumn: return formatDuration(r.self_ns);
        case ShareColumn: return QStringLiteral("%1 %").arg(r.share * 100, 0, 'f', 1);
        default: return {};
        }
    }
    if (role == Qt::UserRole) {  // raw values, for sorting and tests
        switch (index.column()) {
        case NameColumn: return QString::fromStdString(r.name);
        case CountColumn: return QVariant::fromValue<qlonglong>(r.count);
        case TotalColumn: return QVariant::fromValue<qlonglong>(r.total_ns);
        case SelfColumn: return QVariant::fromValue<qlonglong>(r.self_ns);
        case ShareColumn: return r.share;
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case CountColumn: return tr("Count");
    case TotalColumn: return tr("Total in range");
    case SelfColumn: return tr("Self");
    case ShareColumn: return tr("Share of self");
    default: return {};
    }
}

void RangeStatsModel::sort(int column, Qt::SortOrder order)
{
    beginResetModel();
    const auto key = [column](const profiler::RangeAggregateRow& a, const profiler::RangeAggregateRow& b) {
        switch (column) {
        case NameColumn: return a.name < b.name;
        case CountColumn: return a.count < b.count;
        case SelfColumn:
        case ShareColumn: return a.self_ns < b.self_ns;
        default: return a.total_ns < b.total_ns;
        }
    };
    if (order == Qt::AscendingOrder)
        std::stable_sort(m_rows.begin(), m_rows.end(), key);
    else
        std::stable_sort(m_rows.begin(), m_rows.end(),
                         [&](const profiler::RangeAggregateRow& a, const profiler::RangeAggregateRow& b) { return key(b, a); });
    endResetModel();
}

}  // namespace npu::views
