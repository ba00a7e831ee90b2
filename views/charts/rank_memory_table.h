#pragma once
// The Memory tab's "Memory per rank class" table: for a cluster run, a row per class of
// ranks that do identical work (the ranks of one pipeline stage) at the class's own
// peak, its memory replayed through the stage's pipeline schedule: the micro-batches in
// flight, the activations each holds, peak and reserved bytes, and the peak's breakdown
// (weights, masters, gradients, optimizer states, activations, temporaries, allocator
// overhead). Rows from profiler::rankClassMemoryRows over the run's stored memory
// summary; hidden for runs without rank classes.

#include "profiler/store/profile_db.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace npu::views {

class RecordTableModel;

class RankMemoryTable : public QWidget {
    Q_OBJECT
public:
    explicit RankMemoryTable(QWidget* parent = nullptr);

    void setDatabase(const profiler::ProfileDb* db);
    RecordTableModel* model() const { return m_model; }

private:
    QLabel* m_title;
    QTableView* m_view;
    RecordTableModel* m_model;
};

}  // namespace npu::views
