#pragma once
// Ascend's per-op communication analysis (COMM_OP rows of an imported run) as a table:
// rank, step, type, op, group, then elapse, transit, wait, synchronization and idle
// times and the wait / synchronization ratios. Durations display through the shared
// unit formatter and sort as numbers (SortRole). The rows come from
// profiler::loadCommOps; this model only holds them.

#include "profiler/store/comm_records.h"

#include <QAbstractTableModel>

#include <vector>

namespace npu::views {

class CommunicationModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Step, Type, Op, Group, Elapse, Transit, Wait, Synchronization, Idle, WaitRatio, SyncRatio, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit CommunicationModel(QObject* parent = nullptr);
    void setOps(std::vector<profiler::CommOpRecord> ops);
    const std::vector<profiler::CommOpRecord>& ops() const { return m_ops; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<profiler::CommOpRecord> m_ops;
};

}  // namespace npu::views
