#pragma once
// The timeline's overview lane, as Perfetto's: the whole run's device activity
// (profiler::deviceDensity) as a strip with the visible window drawn on it. Click to
// centre the view there, drag to show the dragged span.

#include <QWidget>

#include <memory>
#include <vector>

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class OverviewLane : public QWidget {
    Q_OBJECT
public:
    explicit OverviewLane(QWidget* parent = nullptr);

    void setDatabase(const profiler::ProfileDb* db);
    // The timeline's visible window, in database time.
    void setViewport(qint64 t0, qint64 t1);

    // Buckets of busy time across [extentStart, extentEnd], 0..1 (1: the busiest).
    const std::vector<double>& density() const { return m_density; }
    qint64 extentStart() const { return m_t0; }
    qint64 extentEnd() const { return m_t1; }
    QSize sizeHint() const override { return {400, 28}; }

signals:
    void viewportRequested(qint64 t0, qint64 t1);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    qint64 timeAt(double x) const;
    double xAt(qint64 t) const;

    std::vector<double> m_density;
    qint64 m_t0 = 0, m_t1 = 0;          // the lane's extent
    qint64 m_view0 = 0, m_view1 = 0;    // the visible window
    double m_dragFrom = -1;             // press x, -1 when not pressed
    double m_dragTo = -1;
};

}  // namespace npu::views
