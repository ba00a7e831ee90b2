#include "views/tables/op_stats_model.h"

#include "views/common/units.h"
#include "views/tables/distinguishing_elide.h"

namespace npu::views {

OpStatsModel::OpStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpStatsModel::setStatistics(profiler::OpStatistics stats, profiler::OpGrouping grouping) {
    beginResetModel();
    m_stats = std::move(stats);
    m_grouping = grouping;
    std::vector<QString> keys;
    keys.reserve(m_stats.rows.size());
    for (const auto& r : m_stats.rows) keys.push_back(QString::fromStdString(r.key));
    m_sharedPrefix = sharedPrefixLengths(keys);
    endResetModel();
}

int OpStatsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_stats.rows.size()); }

int OpStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const profiler::OpStatRow& r = m_stats.rows[index.row()];
    const int col = index.column();
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Key: return QString::fromStdString(r.key);
        case Category: return QString::fromStdString(r.category);
        case DType: return QString::fromStdString(r.dtype);
        case Count: return QVariant::fromValue<qlonglong>(r.count);
        case Total: return formatDuration(double(r.total_ns));
        case Mean: return formatDuration(r.mean_ns);
        case Min: return formatDuration(double(r.min_ns));
        case Max: return formatDuration(double(r.max_ns));
        case Share: return formatPercent(r.share);
        }
    } else if (role == SortRole) {
        switch (col) {
        case Key: return QString::fromStdString(r.key);
        case Category: return QString::fromStdString(r.category);
        case DType: return QString::fromStdString(r.dtype);
        case Count: return QVariant::fromValue<qlonglong>(r.count);
        case Total: return QVariant::fromValue<qlonglong>(r.total_ns);
        case Mean: return r.mean_ns;
        case Min: return QVariant::fromValue<qlonglong>(r.min_ns);
        case Max: return QVariant::fromValue<qlonglong>(r.max_ns);
        case Share: return r.share;
        }
    } else if (role == DistinctFromRole && col == Key) {
        return m_sharedPrefix[std::size_t(index.row())];
    } else if (role == FractionRole && col == Share) {
        return r.share;
    } else if (role == Qt::ToolTipRole) {
        if (col == Key) return QString::fromStdString(r.key);
        if (col >= Total && col <= Max)
            return QStringLiteral("%1 ns").arg(col == Mean ? qlonglong(r.mean_ns)
                                               : col == Total ? qlonglong(r.total_ns)
                                               : col == Min  ? qlonglong(r.min_ns)
                                                             : qlonglong(r.max_ns));
        if (col == Share)
            return QStringLiteral("%1 of the summed time %2 of all rows").arg(formatPercent(r.share), formatDuration(double(m_stats.reference_ns)));
    } else if (role == Qt::TextAlignmentRole) {
        return col <= DType ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter)) : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    }
    return {};
}

QVariant OpStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Key:
            return m_grouping == profiler::OpGrouping::byName   ? QStringLiteral("Name")
                   : m_grouping == profiler::OpGrouping::byType ? QStringLiteral("Op type")
                                                                : QStringLiteral("Category");
        case Category: return QStringLiteral("Category");
        case DType: return QStringLiteral("Dtype");
        case Count: return QStringLiteral("Count");
        case Total: return QStringLiteral("Total");
        case Mean: return QStringLiteral("Mean");
        case Min: return QStringLiteral("Min");
        case Max: return QStringLiteral("Max");
        case Share: return QStringLiteral("Share");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Total: return QStringLiteral("Sum of the durations of all occurrences");
        case Share: return QStringLiteral("Total over the reference time (the step time when the run has steps, else the busy span)");
        case Category: return QStringLiteral("Most common category of the group");
        case DType: return QStringLiteral("The dtypes the group's ops compute in, most time first (simulated runs)");
        default: return {};
        }
    }
    return {};
}

}  // namespace npu::views
