#pragma once
// The Passes panel's table: one row per graph pass of a simulated run (PASS_STATS,
// profiler/store/fusion_store) in the order the passes ran, then a Total row (nodes,
// kernels and bytes before the first pass and after the last, FLOPs likewise, the
// passes' summed time). Display text in the one units formatter; SortRole gives raw
// numbers. Before Total, a "Fusion passes" row sums the graph_level passes (level >= 1)
// alone, the figures fusion is judged by. Both sort last whichever way a column is
// sorted (PassesSortProxy).

#include "engine/result/simulation_result.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace npu::views {

class PassesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name, Level, NodesBefore, NodesAfter, KernelsBefore, KernelsAfter, BytesBefore, BytesAfter, Flops, Time,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int TotalRole = Qt::UserRole + 1;  // true on the summary rows

    explicit PassesModel(QObject* parent = nullptr);

    void setPasses(std::vector<engine::PassRecord> passes);
    const std::vector<engine::PassRecord>& passes() const { return m_passes; }
    // The pass of a row ("" for the summary rows).
    QString passName(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant value(const engine::PassRecord& p, int column, bool display) const;

    std::vector<engine::PassRecord> m_passes;
    std::vector<engine::PassRecord> m_summaries;  // Fusion passes (when any ran), Total
};

// Sorts by PassesModel::SortRole and keeps the Total row at the bottom.
class PassesSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

}  // namespace npu::views
