#include "views/passes/passes_model.h"

#include "engine/passes/pass_summary.h"
#include "views/common/units.h"

namespace npu::views {

PassesModel::PassesModel(QObject* parent) : QAbstractTableModel(parent) {}

void PassesModel::setPasses(std::vector<engine::PassRecord> passes) {
    beginResetModel();
    m_passes = std::move(passes);
    m_summaries = engine::passSummaries(m_passes);
    endResetModel();
}

QString PassesModel::passName(int row) const {
    return row >= 0 && static_cast<size_t>(row) < m_passes.size() ? QString::fromStdString(m_passes[static_cast<size_t>(row)].name)
                                                                  : QString();
}

int PassesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_passes.size() + m_summaries.size());
}

int PassesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PassesModel::value(const engine::PassRecord& p, int column, bool display) const {
    auto delta = [&](double before, double after, auto format) -> QVariant {
        if (!display) return after;
        return before == after ? format(after) : format(before) + QStringLiteral(" → ") + format(after);
    };
    switch (column) {
    case Name: return QString::fromStdString(p.name);
    case Level:
        if (p.level < 0) return display ? QVariant(QString()) : QVariant(-1);
        return p.level;
    case NodesBefore: return p.nodes_before;
    case NodesAfter: return p.nodes_after;
    case KernelsBefore: return p.kernels_before;
    case KernelsAfter: return p.kernels_after;
    case BytesBefore: return display ? QVariant(formatBytes(p.bytes_before)) : QVariant(p.bytes_before);
    case BytesAfter: return display ? QVariant(formatBytes(p.bytes_after)) : QVariant(p.bytes_after);
    // Fusion keeps FLOPs; building the training graph adds the backward's, shown as a change.
    case Flops: return delta(p.flops_before, p.flops_after, [](double v) { return formatFlops(v); });
    case Time: return display ? QVariant(formatDuration(p.ms * 1e6)) : QVariant(p.ms);
    default: return {};
    }
}

QVariant PassesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const size_t row = static_cast<size_t>(index.row());
    const bool total = row >= m_passes.size();
    const engine::PassRecord& p = total ? m_summaries[row - m_passes.size()] : m_passes[row];
    switch (role) {
    case Qt::DisplayRole: return value(p, index.column(), true);
    case SortRole: return value(p, index.column(), false);
    case TotalRole: return total;
    case Qt::TextAlignmentRole:
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (total) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (total && row + 1 < m_passes.size() + m_summaries.size())
            return tr("The graph_level passes alone: the graph before the first fusion pass and after the last");
        if (total) return tr("The run's graph before the first pass and after the last; time summed");
        if (index.column() == Name)
            return tr("graph_level %1 pass; click to frame the nodes it produced in the Graph tab").arg(p.level);
        return {};
    default: return {};
    }
}

QVariant PassesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    // Two lines for the before/after pairs: one-line headers made these six columns wider
    // than their figures, and the last one (Time) went past the tab's edge at 1280 px.
    static const char* const names[] = {"Pass",           "Level",      "Nodes\nbefore", "Nodes\nafter", "Kernels\nbefore",
                                        "Kernels\nafter", "HBM\nbefore", "HBM\nafter",    "FLOPs",        "Time"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

bool PassesSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const bool lt = left.data(PassesModel::TotalRole).toBool(), rt = right.data(PassesModel::TotalRole).toBool();
    // The summary rows stay last, in their own order: "greatest" ascending, "least"
    // descending.
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    if (lt && rt) return ascending ? left.row() < right.row() : left.row() > right.row();
    if (lt || rt) return ascending ? rt : lt;
    return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace npu::views
