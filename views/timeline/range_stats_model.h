#pragma once
// Table model over the selected range's per-name statistics, computed by
// profiler::aggregateRange (no metric is born in a widget).

#include "profiler/analysis/range_aggregation.h"

#include <QAbstractTableModel>

#include <vector>

namespace npu::views {

class RangeStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        CountColumn,
        TotalColumn,
        AverageColumn,
        MinColumn,
        MaxColumn,
        SelfColumn,
        ShareColumn,
        ColumnCount
    };

    explicit RangeStatsModel(QObject* parent = nullptr);

    void setRows(std::vector<profiler::RangeAggregateRow> rows, qint64 rangeNs);
    void clear();
    qint64 rangeNs() const { return m_rangeNs; }
    QString nameAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

private:
    std::vector<profiler::RangeAggregateRow> m_rows;
    qint64 m_rangeNs = 0;
};

}  // namespace npu::views
