#include "views/timeline/overview_lane.h"

#include "profiler/analysis/run_density.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace npu::views {

OverviewLane::OverviewLane(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(22);
    setMaximumHeight(34);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    setToolTip(QStringLiteral("Overview of the whole run: device busy time per column. Click to centre the view, drag to show a span."));
}

void OverviewLane::setDatabase(const profiler::ProfileDb* db) {
    m_view0 = m_view1 = 0;
    profiler::RunDensity density = db ? profiler::deviceDensity(*db) : profiler::RunDensity{};
    m_density = std::move(density.buckets);
    m_t0 = density.t0;
    m_t1 = density.t1;
    setVisible(!m_density.empty());
    update();
}

void OverviewLane::setViewport(qint64 t0, qint64 t1) {
    m_view0 = t0;
    m_view1 = t1;
    update();
}

qint64 OverviewLane::timeAt(double x) const {
    const double f = std::clamp(x / std::max(1, width()), 0.0, 1.0);
    return m_t0 + static_cast<qint64>(f * static_cast<double>(m_t1 - m_t0));
}

double OverviewLane::xAt(qint64 t) const {
    return m_t1 > m_t0 ? static_cast<double>(t - m_t0) / static_cast<double>(m_t1 - m_t0) * width() : 0;
}

void OverviewLane::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(246, 246, 246));
    if (m_density.empty()) return;
    const double w = width(), h = height() - 2;
    const double per = w / static_cast<double>(m_density.size());
    const QColor bar(52, 101, 164);
    for (std::size_t i = 0; i < m_density.size(); ++i) {
        if (m_density[i] <= 0) continue;
        const double bh = std::max(1.0, m_density[i] * h);
        p.fillRect(QRectF(static_cast<double>(i) * per, h + 1 - bh, std::max(per, 1.0), bh), bar);
    }
    // The visible window: the rest dimmed, its edges drawn.
    const double a = std::clamp(xAt(m_view0), 0.0, w), b = std::clamp(xAt(m_view1), 0.0, w);
    const QColor dim(255, 255, 255, 150);
    p.fillRect(QRectF(0, 0, a, height()), dim);
    p.fillRect(QRectF(b, 0, w - b, height()), dim);
    p.setPen(QPen(QColor(30, 30, 30), 1));
    p.drawRect(QRectF(a, 0.5, std::max(2.0, b - a), height() - 1.0));
    if (m_dragFrom >= 0 && m_dragTo >= 0 && std::abs(m_dragTo - m_dragFrom) > 3) {
        p.fillRect(QRectF(std::min(m_dragFrom, m_dragTo), 0, std::abs(m_dragTo - m_dragFrom), height()), QColor(52, 152, 219, 70));
    }
    p.setPen(QColor(200, 200, 200));
    p.drawLine(0, height() - 1, width(), height() - 1);
}

void OverviewLane::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    m_dragFrom = m_dragTo = event->position().x();
}

void OverviewLane::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragFrom < 0) return;
    m_dragTo = event->position().x();
    update();
}

void OverviewLane::mouseReleaseEvent(QMouseEvent* event) {
    if (m_dragFrom < 0 || event->button() != Qt::LeftButton) return;
    const double from = m_dragFrom, to = event->position().x();
    m_dragFrom = m_dragTo = -1;
    if (std::abs(to - from) > 3) {
        emit viewportRequested(timeAt(std::min(from, to)), timeAt(std::max(from, to)));
    } else {  // a click: the same span, centred there
        const qint64 half = std::max<qint64>(1, (m_view1 - m_view0) / 2);
        const qint64 c = timeAt(to);
        emit viewportRequested(c - half, c + half);
    }
    update();
}

}  // namespace npu::views
