#include "views/communication/collectives_model.h"

#include "views/common/units.h"

namespace npu::views {

CollectivesModel::CollectivesModel(QObject* parent) : QAbstractTableModel(parent) {}

void CollectivesModel::setRows(std::vector<profiler::CollectiveRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int CollectivesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int CollectivesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CollectivesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const auto& r = m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();
    if (role == Qt::TextAlignmentRole)
        return col >= Count || col == Rank ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole) return {};
    const bool display = role != SortRole;
    const auto text = [](const std::string& s) { return QString::fromStdString(s); };
    const double durations[] = {r.elapse_ms, r.transit_ms, r.wait_ms, r.synchronization_ms};
    switch (col) {
    case Rank:
        if (r.rank < 0) return display ? QVariant(QStringLiteral("each")) : QVariant(qlonglong(-1));
        return qlonglong(r.rank);
    case Step: return text(r.step);
    case Collective: return text(r.name);
    case Group: return text(r.group);
    case Count: return qlonglong(r.count);
    case Elapse:
    case Transit:
    case Wait:
    case Synchronization: {
        const double v = durations[col - Elapse];
        return display ? formatDuration(v * 1e6) : QVariant(v);
    }
    case WaitRatio: return display ? formatPercent(r.wait_ratio) : QVariant(r.wait_ratio);
    case Size:
        if (r.size_mb <= 0) return display ? QVariant(QStringLiteral("—")) : QVariant(0.0);
        return display ? formatBytes(r.size_mb * 1e6) : QVariant(r.size_mb);
    case Bandwidth: {
        // Sorts by the best link type's bandwidth; shows every type's.
        double best = 0;
        QStringList parts;
        for (const auto& [link, gbps] : r.bandwidth_gbps) {
            best = std::max(best, gbps);
            parts << QStringLiteral("%1 %2 GB/s").arg(text(link)).arg(gbps, 0, 'f', 2);
        }
        if (!display) return best;
        return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(", "));
    }
    default: return {};
    }
}

QVariant CollectivesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const names[] = {"Rank", "Step", "Collective", "Group", "Count", "Elapsed", "Transit", "Wait",
                                        "Synchronization", "Wait ratio", "Size", "Bandwidth by link"};
    static const char* const tips[] = {
        "Rank of the device (\"each\": one rank of the group, simulated)", "Profiler step", "Collective or HCCL op",
        "Communication group (tp/dp/pp for simulated runs)", "Calls (per iteration on one rank, simulated)",
        "Time from start to end on the rank", "Time moving data over links",
        "Time waiting for peers before transit (traces: until the latest rank starts the call)",
        "Time synchronizing with peers (part of wait; Ascend)", "wait / (wait + transit) (Ascend's Wait Time Ratio)",
        "Data moved by the rank", "Achieved bandwidth per link type: size / transit time"};
    if (role == Qt::DisplayRole) return QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole) return QString::fromLatin1(tips[section]);
    return {};
}

}  // namespace npu::views
