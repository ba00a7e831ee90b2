// MemoryChart's decorations over the curves: the legend wrapped to the plot's width, the
// peak's label kept inside the plot, and the memory map's series (allocated bytes by
// category, fragmentation on the right axis).
#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/charts/memory_chart.h"

#include "views/charts/legend_wrap.h"
#include "views/charts/memory_map.h"

namespace npu::views {

int MemoryChart::legendColumns() const { return m_plot->legend->wrap(); }

void MemoryChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    placeMap();
    fitLegend();
    placePeakLabel();
}

void MemoryChart::fitLegend() {
    wrapLegendToWidth(m_plot->legend, m_plot->width() - 90, 44, 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryChart::placePeakLabel() {
    // Left of the marker when the peak is in the right half, so the label stays in the plot.
    if (!m_peakLabel || !m_peakMarker) return;
    const double x = m_peakMarker->position->coords().x();
    const auto range = m_plot->xAxis->range();
    const bool right = range.size() > 0 && x > range.lower + 0.55 * range.size();
    m_peakLabel->position->setCoords(right ? -6 : 6, -6);
    m_peakLabel->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// From the memory map's blocks: allocated bytes stacked by category (filled, under the
// counter lines) and the fragmentation, (reserved - allocated) / reserved, in percent on
// the right axis. Drawn whole: a step has a few thousand block events, not millions.
void MemoryChart::addMapSeries() {
    const auto& s = m_mapSeries;
    m_plot->yAxis2->setVisible(false);
    bool categorised = false;
    for (const auto& c : s.categories) categorised = categorised || !c.empty();
    if (s.ts_ns.empty()) return;
    if (!m_plot->layer(QStringLiteral("categories"))) m_plot->addLayer(QStringLiteral("categories"), m_plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    QVector<double> x(int(s.ts_ns.size()));
    for (std::size_t k = 0; k < s.ts_ns.size(); ++k) x[int(k)] = double(s.ts_ns[k] - m_t0) / m_timeDiv;
    if (categorised) {
        QVector<double> stacked(int(s.ts_ns.size()), 0.0);
        QCPGraph* below = nullptr;
        for (std::size_t c = 0; c < s.categories.size(); ++c) {
            for (std::size_t k = 0; k < s.ts_ns.size(); ++k) stacked[int(k)] += s.bytesByCategory[c][k] / m_byteDiv;
            QCPGraph* g = m_plot->addGraph();
            g->setLayer(QStringLiteral("categories"));
            g->setName(QString::fromStdString(s.categories[c].empty() ? std::string("other") : s.categories[c]));
            g->setLineStyle(QCPGraph::lsStepLeft);
            const QColor color = MemoryMap::categoryColor(s.categories[c]);
            g->setPen(Qt::NoPen);
            g->setBrush(QColor(color.red(), color.green(), color.blue(), 110));
            if (below) g->setChannelFillGraph(below);
            g->setData(x, stacked, true);
            below = g;
        }
    }
    QCPGraph* frag = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    frag->setName(QStringLiteral("fragmentation % (right axis)"));
    frag->setLineStyle(QCPGraph::lsStepLeft);
    frag->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
    QVector<double> y(int(s.ts_ns.size()));
    for (std::size_t k = 0; k < s.ts_ns.size(); ++k) y[int(k)] = 100.0 * s.fragmentation[k];
    frag->setData(x, y, true);
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(QStringLiteral("fragmentation (%)"));
    m_plot->yAxis2->setRange(0, 105);
}

}  // namespace npu::views
