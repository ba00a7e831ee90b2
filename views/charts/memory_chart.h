#pragma once
// The Memory tab: the run's memory counter tracks (live bytes for a simulated run,
// allocated/reserved for an imported one) as step lines over time, with the device
// capacity as a line and the peak marked. Series are reduced in the profiler (fixed
// buckets, max per bucket) to about one point per pixel of the visible range, again
// after every zoom or pan, so the chart stays fast and never hides a peak.

#include "profiler/store/profile_db.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemTracer;
class QCPItemText;
class QCPRange;
class QLabel;

namespace npu::views {

class MemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);

    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);

    QCustomPlot* plot() const { return m_plot; }
    int seriesCount() const { return int(m_series.size()); }
    int pointCount() const;  // points currently handed to QCustomPlot, all series
    double capacityBytes() const { return m_capacity; }
    double peakBytes() const { return m_peakValue; }

public slots:
    void resetZoom();

private:
    struct Series {
        QString name;
        profiler::CounterSeries samples;
    };
    void rebuild();
    void reduceVisible();

    std::shared_ptr<const profiler::ProfileDb> m_db;
    std::vector<Series> m_series;
    QCustomPlot* m_plot;
    QLabel* m_info;
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemTracer* m_peakMarker = nullptr;
    QCPItemText* m_peakLabel = nullptr;
    std::int64_t m_t0 = 0, m_t1 = 0;   // database time of the full range
    double m_timeDiv = 1e6;            // ns per axis unit
    double m_byteDiv = 1 << 30;        // bytes per axis unit
    double m_capacity = 0;
    double m_peakValue = 0;
    bool m_reducing = false;
};

}  // namespace npu::views
