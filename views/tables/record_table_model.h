#pragma once
// A read-only table of records for the small tables of the views (summary, diagnostics,
// step breakdown, compare deltas, range aggregation): each cell keeps the value shown
// and the value sorted by, so durations display as "4.21 ms" but sort as numbers.
// The numbers come from profiler analyses; this model only holds them.

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace npu::views {

struct RecordCell {
    QVariant display;   // what the cell shows
    QVariant sort;      // what it sorts by (display when null)
    QString toolTip;
    RecordCell() = default;
    RecordCell(QVariant d, QVariant s = {}, QString tip = {})
        : display(std::move(d)), sort(std::move(s)), toolTip(std::move(tip)) {}
};

class RecordTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole;
    // Share columns: a fraction in [0, 1] the ShareBarDelegate draws as a bar.
    static constexpr int FractionRole = Qt::UserRole + 1;

    explicit RecordTableModel(QObject* parent = nullptr);

    void setHeaders(const QStringList& headers, const QStringList& toolTips = {});
    void setRows(std::vector<std::vector<RecordCell>> rows);
    // Cells of this column whose sort value is a fraction are exposed under FractionRole.
    void setFractionColumn(int column) { m_fractionColumn = column; }
    // Key/value tables read better with every value left-aligned.
    void setLeftAligned(bool left) { m_leftAligned = left; }
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    const RecordCell& cell(int row, int column) const { return m_rows.at(row).at(column); }

private:
    QStringList m_headers;
    QStringList m_headerTips;
    std::vector<std::vector<RecordCell>> m_rows;
    int m_fractionColumn = -1;
    bool m_leftAligned = false;
};

}  // namespace npu::views
