#pragma once
// The Summary tab: what the run is (metadata: source, project, device, model, summary
// figures), per-device metrics (HTA definitions: kernel time, idle, compute,
// non-compute, communication/computation overlap, peak memory) and the step breakdown
// in the columns of Ascend's cluster_step_trace_time.csv, and for an fp16 run with loss
// scaling the scale per step as a chart. The metrics come from the profiler's report;
// this view lays them out.

#include <nlohmann/json.hpp>

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QTableView;
class QVBoxLayout;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class LossScaleChart;
class RecordTableModel;

class SummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SummaryView(QWidget* parent = nullptr);

    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    // The profiler's run report: "devices" (array of per-device metrics) and
    // "step_breakdown" (array of per-rank/per-step rows) are shown as tables.
    void setReport(const nlohmann::json& report);

    RecordTableModel* metaModel() const { return m_meta; }
    // The headline: run, source, slices, span, and for a simulated run its key figures
    // (step time, samples/s, tokens/s, MFU, peak memory of capacity).
    QString headlineText() const;
    RecordTableModel* deviceModel() const { return m_devices; }
    RecordTableModel* stepModel() const { return m_steps; }
    LossScaleChart* lossScaleChart() const { return m_lossScale; }
    // The Run, Devices and Step breakdown tables, in that order.
    const std::vector<QTableView*>& tables() const { return m_tables; }

private:
    QTableView* addTable(QVBoxLayout* layout, const QString& title, RecordTableModel* model, QLabel** titleLabel);

    RecordTableModel* m_meta;
    RecordTableModel* m_devices;
    RecordTableModel* m_steps;
    QLabel* m_headline;
    LossScaleChart* m_lossScale;
    QLabel* m_deviceTitle = nullptr;
    QLabel* m_stepTitle = nullptr;
    std::vector<QTableView*> m_tables;  // scrolled back to the top for each run
};

}  // namespace npu::views
