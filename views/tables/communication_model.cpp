#include "views/tables/communication_model.h"

#include "views/common/units.h"

namespace npu::views {

CommunicationModel::CommunicationModel(QObject* parent) : QAbstractTableModel(parent) {}

void CommunicationModel::setOps(std::vector<profiler::CommOpRecord> ops) {
    beginResetModel();
    m_ops = std::move(ops);
    endResetModel();
}

int CommunicationModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_ops.size());
}

int CommunicationModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CommunicationModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const auto& r = m_ops[static_cast<size_t>(index.row())];
    const auto text = [](const std::string& s) { return QString::fromStdString(s); };
    const std::int64_t durations[] = {r.elapse_ns, r.transit_ns, r.wait_ns, r.synchronization_ns, r.idle_ns};
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Elapse || index.column() == Rank ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole) return {};
    const bool display = role == Qt::DisplayRole;
    switch (index.column()) {
    case Rank: return qlonglong(r.rank);
    case Step: return text(r.step);
    case Type: return text(r.type);
    case Op: return text(r.op);
    case Group: return text(r.group);
    case Elapse:
    case Transit:
    case Wait:
    case Synchronization:
    case Idle: {
        const auto ns = durations[index.column() - Elapse];
        return display ? formatDuration(double(ns)) : QVariant(qlonglong(ns));
    }
    case WaitRatio: return display ? formatPercent(r.wait_ratio) : QVariant(r.wait_ratio);
    case SyncRatio: return display ? formatPercent(r.synchronization_ratio) : QVariant(r.synchronization_ratio);
    default: return {};
    }
}

QVariant CommunicationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const names[] = {"Rank", "Step", "Type", "Op", "Group", "Elapse", "Transit", "Wait",
                                        "Synchronization", "Idle", "Wait ratio", "Sync ratio"};
    static const char* const tips[] = {
        "Rank of the device", "Profiler step", "collective or p2p", "HCCL op", "Communication group",
        "Op duration on the rank", "Time moving data over links", "Time waiting for peers before transit",
        "Time synchronizing with peers (part of wait)", "Elapse - transit - wait",
        "wait / (wait + transit) (Ascend's Wait Time Ratio)", "synchronization / (synchronization + transit)"};
    if (role == Qt::DisplayRole) return QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole) return QString::fromLatin1(tips[section]);
    return {};
}

}  // namespace npu::views
