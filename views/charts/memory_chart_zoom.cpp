// MemoryChart's view of time: the value readout under the cursor, and the level of
// detail kept as the user zooms (each series reduced to about a sample per pixel of the
// visible range; the memory map follows the same range).
#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/charts/memory_chart.h"

#include "profiler/analysis/counter_reducer.h"
#include "profiler/analysis/counter_value.h"
#include "views/charts/memory_map.h"
#include "views/common/units.h"

#include <QLabel>

#include <algorithm>

namespace npu::views {

QString MemoryChart::readoutAt(double x) {
    if (m_series.empty()) return {};
    const std::int64_t t = m_t0 + std::int64_t(x * m_timeDiv);
    QStringList parts;
    for (const Series& s : m_series)
        if (const auto v = profiler::counterValueAt(s.samples, t)) parts << QStringLiteral("%1 %2").arg(s.name, formatBytes(*v));
    const QString text = QStringLiteral("at %1: ").arg(formatDuration(double(t - m_t0))) +
                         (parts.isEmpty() ? QStringLiteral("no sample yet") : parts.join(QStringLiteral(" · ")));
    m_readout->setText(text);
    if (m_cursorLine) {
        m_cursorLine->point1->setCoords(x, 0);
        m_cursorLine->point2->setCoords(x, 1);
        m_cursorLine->setVisible(true);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return text;
}

void MemoryChart::onMouseMove(QMouseEvent* event) {
    if (m_series.empty() || !m_plot->axisRect()->rect().contains(event->pos())) return;
    readoutAt(m_plot->xAxis->pixelToCoord(event->position().x()));
}

void MemoryChart::resetZoom() {
    if (m_series.empty()) return;
    m_plot->xAxis->setRange(0, double(m_t1 - m_t0) / m_timeDiv);  // triggers reduceVisible
    reduceVisible();
}

void MemoryChart::reduceVisible() {
    if (m_series.empty()) return;
    m_reducing = true;
    const QCPRange r = m_plot->xAxis->range();
    const std::int64_t v0 = m_t0 + std::int64_t(r.lower * m_timeDiv);
    const std::int64_t v1 = m_t0 + std::int64_t(r.upper * m_timeDiv) + 1;
    const int buckets = std::max(200, m_plot->axisRect()->width());
    m_map->setTimeRange(v0, v1);
    for (size_t i = 0; i < m_series.size(); ++i) {
        const profiler::CounterSeries reduced = profiler::reduceCounter(m_series[i].samples, v0, v1, buckets);
        QVector<double> x(int(reduced.ts_ns.size())), y(int(reduced.ts_ns.size()));
        for (size_t k = 0; k < reduced.ts_ns.size(); ++k) {
            x[int(k)] = double(reduced.ts_ns[k] - m_t0) / m_timeDiv;
            y[int(k)] = reduced.value[k] / m_byteDiv;
        }
        m_plot->graph(int(i))->setData(x, y, true);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_reducing = false;
}

}  // namespace npu::views
