#pragma once
// The Diagnostics tab of an imported run: the importer's problem counts by kind, with
// severity, count and an example event, most severe first. Double-click (or "Show in
// Timeline") shows the events a diagnostic concerns: eventsRequested.
// For a simulated run that ran out of memory: the out-of-memory view (oom_panel.h) —
// the instant, the op, the top live tensors and the advice with predicted figures.
// For a simulated cluster run with more than 30 % exposed communication: the
// communication advice (communication_advice_panel.h), each step re-simulated.

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QTableView;
class QModelIndex;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class CommunicationAdvicePanel;
class OomPanel;
class RecordTableModel;

class DiagnosticsView : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsView(QWidget* parent = nullptr);
    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    RecordTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // Emits eventsRequested for the row at a table (proxy) index; false when its example
    // names no event.
    bool activate(const QModelIndex& index);
    // The run is a simulated one that ran out of memory: the tab shows why and what to do.
    bool hasOom() const;
    OomPanel* oomPanel() const { return m_oom; }
    // The run is a simulated cluster run with communication advice.
    bool hasCommunicationAdvice() const;
    CommunicationAdvicePanel* communicationAdvicePanel() const { return m_commAdvice; }

signals:
    // The event a diagnostic's example names: slices called `name` (may be empty) and the
    // instant `t_ns` (database time, -1 when unknown).
    void eventsRequested(const QString& name, qint64 t_ns);

private:
    std::vector<std::string> m_examples;  // by source row
    RecordTableModel* m_model;
    QTableView* m_table;
    QLabel* m_info;
    OomPanel* m_oom;
    CommunicationAdvicePanel* m_commAdvice;
};

}  // namespace npu::views
