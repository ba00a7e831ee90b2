#pragma once
// The Memory tab's "Parameters and model states by model" table: for a simulated run, a
// row per model of the training mode (PPO's actor, critic, reward and reference; DPO's
// policy and reference; one "model" row otherwise, where LoRA's base is the frozen part
// and its adapters the trainable one) with its trainable and frozen parameters and the
// bytes one device holds of its trainable weights, frozen weights, gradients and
// optimizer states (tensor-parallel shard and ZeRO applied), then a row of the totals.
// Rows from profiler::modelStateRows over the run's summary (params_by_model,
// bytes_by_model); hidden for runs without them (imported traces).

#include "profiler/store/profile_db.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace npu::views {

class RecordTableModel;

class ModelStateTable : public QWidget {
    Q_OBJECT
public:
    explicit ModelStateTable(QWidget* parent = nullptr);

    void setDatabase(const profiler::ProfileDb* db);
    RecordTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

private:
    QLabel* m_title;
    QTableView* m_view;
    RecordTableModel* m_model;
};

}  // namespace npu::views
