#pragma once
// Under the Memory chart: the blocks live at the instant clicked on the chart, or alive
// in the range box-selected on it (profiler/analysis/memory_live_blocks, from
// MEMORY_BLOCK: simulated runs and imported snapshots alike), largest first, with size,
// category, producer op and lifetime. "Allocated or released in range" keeps only the
// blocks that changed inside the selection (MindStudio Insight's filter); "Show in
// Timeline" (or double-click) jumps to the producer op's slice.

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class RecordTableModel;

class MemoryBlocksPanel : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBlocksPanel(QWidget* parent = nullptr);

    // t0: the database time the chart counts from (times are shown relative to it).
    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db, std::int64_t device, std::int64_t t0);
    // Database times; from == to: an instant. Fills the table.
    void setSelection(std::int64_t from_ns, std::int64_t to_ns);
    void clearSelection();
    void setChangedOnly(bool on);

    RecordTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QString headline() const;
    bool hasSelection() const { return m_from >= 0; }
    // "Show in Timeline" for a table (proxy) row: emits sliceRequested for the producer's
    // slice, or timeRequested for the block's allocation when no slice names it. False
    // for an invalid row.
    bool showInTimeline(int proxyRow);

    static constexpr int kMaxRows = 5000;  // largest first; the headline counts them all

signals:
    void sliceRequested(qint64 taskId);
    void timeRequested(qint64 t_ns);

private:
    void refresh();

    std::shared_ptr<const profiler::ProfileDb> m_db;
    std::int64_t m_device = 0, m_t0 = 0;
    std::int64_t m_from = -1, m_to = -1;
    struct RowRef {
        std::int64_t alloc_ns = 0;
        std::string producer;
    };
    std::vector<RowRef> m_refs;  // by source row
    RecordTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_info;
    QCheckBox* m_changedOnly;
    QPushButton* m_toTimeline;
};

}  // namespace npu::views
