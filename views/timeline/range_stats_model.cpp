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

QString RangeStatsModel::nameAt(int row) const
{
    return row >= 0 && row < rowCount() ? QString::fromStdString(m_rows[static_cast<std::size_t>(row)].name) : QString();
}

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
        case AverageColumn: return formatDuration(r.average_ns());
        case MinColumn: return formatDuration(r.min_ns);
        case MaxColumn: return formatDuration(r.max_ns);
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
        case AverageColumn: return QVariant::fromValue<qlonglong>(r.average_ns());
        case MinColumn: return QVariant::fromValue<qlonglong>(r.min_ns);
        case MaxColumn: return QVariant::fromValue<qlonglong>(r.max_ns);
        case SelfColumn: return QVariant::fromValue<qlonglong>(r.self_ns);
        case ShareColumn: return r.share;
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return QString::fromStdString(r.name);
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TotalColumn: return tr("Time of these slices inside the range (clipped to it)");
        case AverageColumn:
        case MinColumn:
        case MaxColumn: return tr("Over the whole durations of the slices overlapping the range");
        case SelfColumn: return tr("Time inside the range minus the time of their direct children");
        case ShareColumn: return tr("Share of all self time in the range: the rows sum to 100 %");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case CountColumn: return tr("Count");
    case TotalColumn: return tr("Total in range");
    case AverageColumn: return tr("Average");
    case MinColumn: return tr("Min");
    case MaxColumn: return tr("Max");
    case SelfColumn: return tr("Self");
    case ShareColumn: return tr("Share of self");
    default: return {};
    }
}

void RangeStatsModel::sort(int column, Qt::SortOrder order)
{
    // A layout change, not a reset: a reset re-initialises the header, whose sort
    // indicator would sort again. Persistent indexes follow their rows.
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const auto key = [column](const profiler::RangeAggregateRow& a, const profiler::RangeAggregateRow& b) {
        switch (column) {
        case NameColumn: return a.name < b.name;
        case CountColumn: return a.count < b.count;
        case AverageColumn: return a.average_ns() < b.average_ns();
        case MinColumn: return a.min_ns < b.min_ns;
        case MaxColumn: return a.max_ns < b.max_ns;
        case SelfColumn:
        case ShareColumn: return a.self_ns < b.self_ns;
        default: return a.total_ns < b.total_ns;
        }
    };
    std::vector<int> perm(m_rows.size());
    for (std::size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<int>(i);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
        const auto& ra = m_rows[static_cast<std::size_t>(a)];
        const auto& rb = m_rows[static_cast<std::size_t>(b)];
        return order == Qt::AscendingOrder ? key(ra, rb) : key(rb, ra);
    });
    std::vector<profiler::RangeAggregateRow> sorted;
    sorted.reserve(m_rows.size());
    std::vector<int> newRowOf(m_rows.size());
    for (std::size_t i = 0; i < perm.size(); ++i) {
        sorted.push_back(std::move(m_rows[static_cast<std::size_t>(perm[i])]));
        newRowOf[static_cast<std::size_t>(perm[i])] = static_cast<int>(i);
    }
    m_rows = std::move(sorted);
    QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    for (const QModelIndex& i : from)
        to.append(index(newRowOf[static_cast<std::size_t>(i.row())], i.column()));
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

}  // namespace npu::views
