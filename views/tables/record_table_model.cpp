#include "views/tables/record_table_model.h"

namespace npu::views {

RecordTableModel::RecordTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RecordTableModel::setHeaders(const QStringList& headers, const QStringList& toolTips) {
    beginResetModel();
    m_headers = headers;
    m_headerTips = toolTips;
    m_rows.clear();
    endResetModel();
}

void RecordTableModel::setRows(std::vector<std::vector<RecordCell>> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    for (auto& row : m_rows) row.resize(m_headers.size());
    endResetModel();
}

void RecordTableModel::clear() { setRows({}); }

int RecordTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RecordTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_headers.size()); }

QVariant RecordTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const RecordCell& c = m_rows[index.row()][index.column()];
    switch (role) {
    case Qt::DisplayRole:
        return c.display;
    case SortRole:
        return c.sort.isValid() ? c.sort : c.display;
    case FractionRole:
        return index.column() == m_fractionColumn ? c.sort : QVariant();
    case Qt::ToolTipRole:
        return c.toolTip.isEmpty() ? QVariant() : QVariant(c.toolTip);
    case Qt::TextAlignmentRole: {
        const bool numeric = !m_leftAligned && c.sort.isValid() && c.sort.canConvert<double>() && c.sort.typeId() != QMetaType::QString;
        return numeric ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
    }
    default:
        return {};
    }
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= m_headers.size()) return {};
    if (role == Qt::DisplayRole) return m_headers[section];
    if (role == Qt::ToolTipRole && section < m_headerTips.size()) return m_headerTips[section];
    return {};
}

}  // namespace npu::views
