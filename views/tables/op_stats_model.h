#pragma once
// Operator statistics (profiler::computeOpStatistics) as a table: key, category, dtype, count,
// total, mean, min, max, share. Display text uses readable units; SortRole gives the
// raw numbers so sorting is numeric; FractionRole feeds the share bar.

#include "profiler/analysis/op_statistics.h"

#include <QAbstractTableModel>

namespace npu::views {

class OpStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Key, Category, DType, Count, Total, Mean, Min, Max, Share, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int FractionRole = Qt::UserRole + 1;
    // On Key: the longest prefix the key shares with another row's (distinguishing_elide.h).
    static constexpr int DistinctFromRole = Qt::UserRole + 2;

    explicit OpStatsModel(QObject* parent = nullptr);

    void setStatistics(profiler::OpStatistics stats, profiler::OpGrouping grouping);
    const profiler::OpStatistics& statistics() const { return m_stats; }
    profiler::OpGrouping grouping() const { return m_grouping; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    profiler::OpStatistics m_stats;
    profiler::OpGrouping m_grouping = profiler::OpGrouping::byName;
    std::vector<int> m_sharedPrefix;  // per row
};

}  // namespace npu::views
