#pragma once
// The rank x rank communication matrix as a heatmap (QCPColorMap): source ranks down
// (the ranks captured), destination ranks across, one metric at a time (bandwidth,
// transit size, transit time or link type), each cell labelled when the matrix is small
// enough to read. The slowest link (lowest bandwidth between two different ranks) is
// boxed in black: red is the low end of the bandwidth scale. Links are the profiler's
// (profiler::communicationOverview: Ascend's matrix, or the simulated collectives on
// their rings); several link types between the same pair add up.

#include "profiler/analysis/communication_overview.h"

#include <QWidget>

#include <map>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QLabel;
class QStackedWidget;

namespace npu::views {

class CommMatrixChart : public QWidget {
    Q_OBJECT
public:
    enum Metric { Bandwidth, TransitSize, TransitTime, LinkType, MetricCount };

    explicit CommMatrixChart(QWidget* parent = nullptr);
    void setOverview(const profiler::CommunicationOverview& overview);
    void setMetric(Metric metric);
    Metric metric() const { return m_metric; }

    // What is drawn, for tests: the cell (src, dst) of the current metric; NaN when the
    // pair has no link (bandwidth GB/s, size MB, time ms, link type index).
    double cellValue(std::int64_t src, std::int64_t dst) const;
    std::pair<std::int64_t, std::int64_t> highlightedLink() const { return m_highlighted; }  // (-1, -1): none
    QCustomPlot* plot() const { return m_plot; }

private:
    struct Cell {
        double size_mb = 0;
        double time_ms = 0;
        QString types;
    };
    void redraw();

    QComboBox* m_metricBox;
    QStackedWidget* m_stack;
    QLabel* m_empty;
    QCustomPlot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    Metric m_metric = Bandwidth;
    std::vector<std::int64_t> m_sources;       // rows (a capture of some ranks of a larger job
    std::vector<std::int64_t> m_destinations;  // links to ranks it did not capture)
    std::map<std::pair<std::int64_t, std::int64_t>, Cell> m_cells;
    QStringList m_types;                // link types, for the categorical metric
    std::pair<std::int64_t, std::int64_t> m_highlighted{-1, -1};
    std::vector<std::pair<std::int64_t, std::int64_t>> m_equallySlow;  // boxed with it
};

}  // namespace npu::views
