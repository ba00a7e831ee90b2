#pragma once
// The loss scale of a multi-step fp16 run, one point per step: the scale the step used as
// a step line on a log2 axis (GradScaler moves it by factors of two), the steps whose
// optimizer update was skipped after an overflow marked in red at the scale they used.
// Read from the run's "Loss scale" / "Optimizer step skipped" counter tracks
// (profiler/store/loss_scale_store.h). Hidden for runs without loss scaling.

#include <QWidget>

#include <memory>

class QCustomPlot;
class QLabel;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class LossScaleChart : public QWidget {
    Q_OBJECT
public:
    explicit LossScaleChart(QWidget* parent = nullptr);

    // Shows the run's loss scale per step; hides itself when the run has none.
    void setDatabase(const std::shared_ptr<const profiler::ProfileDb>& db);

    QCustomPlot* plot() const { return m_plot; }
    int stepCount() const { return m_steps; }
    int skippedCount() const { return m_skipped; }

private:
    QCustomPlot* m_plot;
    QLabel* m_title;
    int m_steps = 0;
    int m_skipped = 0;
};

}  // namespace npu::views
