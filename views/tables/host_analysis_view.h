#pragma once
// The Host tab of an imported PyTorch trace: CPU op statistics with self and total time,
// which op launched which kernels (ac2g flows), and per stream the launch delay and
// queue length as HTA reports them, with the queue length over time as a chart. The
// analyses are profiler/analysis (cpu_op_statistics, kernel_launches); they run off the
// GUI thread on their own connection. A double-click on an op row shows its slices.

#include "profiler/analysis/cpu_op_statistics.h"
#include "profiler/analysis/kernel_launches.h"

#include <QFutureWatcher>
#include <QWidget>

#include <filesystem>

class QCustomPlot;
class QLabel;

namespace npu::views {

class RecordTableModel;

class HostAnalysisView : public QWidget {
    Q_OBJECT
public:
    explicit HostAnalysisView(QWidget* parent = nullptr);
    ~HostAnalysisView() override;

    void setDatabase(const std::filesystem::path& db);  // empty clears
    bool isComputing() const { return m_watcher.isRunning(); }

    RecordTableModel* cpuOps() const { return m_cpuOps; }
    RecordTableModel* opKernels() const { return m_opKernels; }
    RecordTableModel* streams() const { return m_streams; }

signals:
    void opActivated(const QString& name);  // double-click on an op row
    void computed();

private:
    struct Result {
        std::vector<profiler::CpuOpRow> cpuOps;
        std::vector<profiler::OpKernelsRow> opKernels;
        std::vector<profiler::StreamLaunchStats> streams;
        std::string error;
    };
    void show(const Result& r);

    QFutureWatcher<Result> m_watcher;
    RecordTableModel* m_cpuOps;
    RecordTableModel* m_opKernels;
    RecordTableModel* m_streams;
    QCustomPlot* m_queuePlot;
    QLabel* m_status;
};

}  // namespace npu::views
