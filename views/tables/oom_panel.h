#pragma once
// The Diagnostics tab's out-of-memory view for a simulated run whose allocator ran out
// of device memory (the report's memory.oom, stored with the run in META_DATA "memory"):
// the instant and the op whose allocation failed, the largest tensors live then, and
// the playbook's advice — each step with the peak (allocated, reserved) and step time
// re-simulating it gave, and whether it fits. "Show in Timeline" goes to the failing op.

#include "engine/result/memory_summary.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTableView;

namespace npu::views {

class RecordTableModel;

class OomPanel : public QWidget {
    Q_OBJECT
public:
    explicit OomPanel(QWidget* parent = nullptr);

    // capacity: the device's memory (0 when unknown); t0: the run's start, for times.
    void setSummary(const std::optional<engine::MemorySummary>& summary, double capacity, qint64 t0);
    bool hasOom() const { return m_present; }
    QString headline() const;
    RecordTableModel* tensorsModel() const { return m_tensors; }
    RecordTableModel* adviceModel() const { return m_advice; }

signals:
    // The failing op (slice name) and the instant, database time.
    void showInTimeline(const QString& op, qint64 t_ns);

private:
    bool m_present = false;
    QString m_op;
    qint64 m_time = -1;
    QLabel* m_headline;
    RecordTableModel* m_tensors;
    RecordTableModel* m_advice;
    QTableView* m_tensorTable;
    QTableView* m_adviceTable;
};

}  // namespace npu::views
