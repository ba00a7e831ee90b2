#pragma once
// Two runs side by side (File > Compare Runs…): a headline with the step-time delta;
// operator deltas (B - A) sorted by impact, by name, by category, by kernel class or
// kernel by kernel (profiler::matchKernels: same name and order within the step); both
// step breakdowns; and both timelines stacked on
// a shared time axis, each offset so its first step starts at 0, kept in sync while
// zooming and panning. The comparison itself is profiler::compareRuns.

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;

namespace npu::profiler {
class ProfileDb;
struct RunComparison;
struct KernelMatching;
}

namespace npu::views {

class RecordTableModel;
class TimelineWidget;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    void setRuns(std::shared_ptr<const profiler::ProfileDb> a, std::shared_ptr<const profiler::ProfileDb> b);

    RecordTableModel* deltaModel() const { return m_deltas; }
    QLabel* headline() const { return m_headline; }
    QComboBox* grouping() const { return m_grouping; }
    RecordTableModel* stepsModelA() const { return m_stepsA; }
    RecordTableModel* stepsModelB() const { return m_stepsB; }
    TimelineWidget* timelineA() const { return m_timelineA; }
    TimelineWidget* timelineB() const { return m_timelineB; }

private:
    void fillDeltas();
    void fillKernelMatches();
    void applySharedAxis();

    std::shared_ptr<const profiler::ProfileDb> m_a, m_b;
    std::unique_ptr<profiler::RunComparison> m_comparison;
    std::unique_ptr<profiler::KernelMatching> m_kernels;
    RecordTableModel* m_deltas;
    RecordTableModel* m_stepsA;
    RecordTableModel* m_stepsB;
    QComboBox* m_grouping;
    QLabel* m_title;
    QLabel* m_headline;
    QLabel* m_titleA;
    QLabel* m_titleB;
    TimelineWidget* m_timelineA;
    TimelineWidget* m_timelineB;
    bool m_syncing = false;
};

}  // namespace npu::views
