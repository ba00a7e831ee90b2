#pragma once
// The Operators tab: operator statistics of a run, grouped by name, op type or category,
// for all devices (kernels, or kernels and CPU ops) or one, filterable by name, sorted by total time (descending) by
// default, with the share drawn as a bar.

#include "profiler/analysis/op_statistics.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <utility>

class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QLabel;
class QMenu;
class QModelIndex;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class OpStatsModel;

class OpStatsView : public QWidget {
    Q_OBJECT
public:
    explicit OpStatsView(QWidget* parent = nullptr);

    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    void setGrouping(profiler::OpGrouping grouping);
    void setFilterText(const QString& text);
    // Restricts the statistics to slices overlapping [t0, t1) ns (database time); the
    // selection-range aggregation under the timeline uses this.
    void setRange(std::optional<std::pair<qint64, qint64>> range);

    OpStatsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    QLabel* infoLabel() const { return m_info; }
    QComboBox* deviceCombo() const { return m_device; }
    // A large run's statistics are being computed off the GUI thread (the info line says so).
    bool computing() const { return m_computing; }
    // Selects and scrolls to the row a slice counts in (its name, op type or category under
    // the current grouping), switching the device and clearing the filter when they hide
    // it: the timeline's "Show in Operators". False when no row holds it.
    bool showSlice(qint64 sliceId);
    // The row's context menu (Show in Timeline, Filter to This, Copy Name); the caller owns it.
    QMenu* contextMenuFor(const QModelIndex& proxyIndex);
    // Device combo data of the "kernels and CPU ops of every device" entry.
    static constexpr qlonglong kEverything = -2;

signals:
    // The key of a double-clicked row (a name, op type or category), e.g. to search the timeline.
    void rowActivated(const QString& key, profiler::OpGrouping grouping);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void recompute();
    void measureNames();   // after the model changes: the names' width (m_nameWidth)
    void fitNameColumn();  // the Name column within what the view leaves it
    void updateInfo();
    void showStatistics(profiler::OpStatistics statistics, profiler::OpGrouping grouping);
    QString keyAt(const QModelIndex& proxyIndex) const;

    int m_nameWidth = 360;  // what the names need (measureNames)
    std::shared_ptr<const profiler::ProfileDb> m_db;
    std::optional<std::pair<qint64, qint64>> m_range;
    quint64 m_generation = 0;  // each recompute; a result of an older one is dropped
    bool m_computing = false;
    OpStatsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QComboBox* m_grouping;
    QComboBox* m_device;
    QLineEdit* m_filter;
    QLabel* m_info;
};

}  // namespace npu::views
