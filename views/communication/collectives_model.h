#pragma once
// One row per collective (per rank for imports, per kind and group for simulations):
// elapsed, transit, wait and synchronization time, wait ratio = wait / (wait + transit),
// transit size and the achieved bandwidth per link type. Durations display through the
// shared unit formatter and sort as numbers (SortRole). Rows come from
// profiler::communicationOverview; this model only holds them.

#include "profiler/analysis/communication_overview.h"

#include <QAbstractTableModel>

#include <vector>

namespace npu::views {

class CollectivesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Step, Collective, Group, Count, Elapse, Transit, Wait, Synchronization, WaitRatio, Size, Bandwidth, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit CollectivesModel(QObject* parent = nullptr);
    void setRows(std::vector<profiler::CollectiveRow> rows);
    const std::vector<profiler::CollectiveRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<profiler::CollectiveRow> m_rows;
};

}  // namespace npu::views
