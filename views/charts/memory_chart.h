#pragma once
// The Memory tab: the run's memory counter tracks (live bytes for a simulated run,
// allocated/reserved for an imported one) as step lines over time, one device at a time
// (a host's few bytes would flatten a GPU's gigabytes), with the device capacity as a
// line, the peak marked, every series' peak named in the headline and the values at the
// cursor in a readout. Series are reduced in the profiler (fixed
// buckets, max per bucket) to about one point per pixel of the visible range, again
// after every zoom or pan, so the chart stays fast and never hides a peak. Below it,
// on the same time axis, the device's memory map (memory_map.h) when the run has blocks,
// and the blocks live at the instant clicked on the chart or alive in the range
// Shift+dragged on it (memory_blocks_panel.h). Above the chart, for a simulated run of
// the open project, the what-if row (memory_what_if_bar.h).

#include "profiler/analysis/memory_map_series.h"
#include "profiler/store/profile_db.h"

#include <QPoint>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemTracer;
class QCPItemText;
class QCPItemRect;
class QCPRange;
class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTabWidget;
class QMouseEvent;

namespace npu::views {

class MemoryBlocksPanel;
class MemoryMap;
class MemoryWhatIfBar;
class ModelStateTable;
class RankMemoryTable;

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
    std::int64_t peakTime() const { return m_peakTs; }  // database time, -1 without a peak
    QString headline() const;
    // The device whose series are drawn, and the devices that have memory counters.
    QComboBox* deviceCombo() const { return m_device; }
    QStringList seriesNames() const;
    // What the readout shows for the cursor at plot x (axis units); also set on hover.
    QString readoutAt(double x);
    QString readout() const;
    MemoryMap* memoryMap() const { return m_map; }
    MemoryBlocksPanel* blocksPanel() const { return m_blocks; }
    MemoryWhatIfBar* whatIfBar() const { return m_whatIf; }
    // Parameters and model-state bytes per model (model_state_table.h).
    ModelStateTable* modelStates() const { return m_modelStates; }
    // A cluster run's memory per pipeline stage (rank_memory_table.h).
    RankMemoryTable* rankMemory() const { return m_rankMemory; }
    // A run without memory data shows this message instead of empty axes (visible then).
    QLabel* emptyMessage() const { return m_empty; }
    QPushButton* peakButton() const { return m_toPeak; }
    // The legend's columns (it sits in a row above the plot and wraps to its width).
    int legendColumns() const;
    // The chart's selection (memory_chart_selection.cpp), in database time: an instant
    // (from == to) or a range, marked on the chart and listed in the blocks panel.
    void selectTimes(std::int64_t from_ns, std::int64_t to_ns);
    void clearTimeSelection();
    std::pair<std::int64_t, std::int64_t> selectedTimes() const { return {m_selFrom, m_selTo}; }
    // Axis coordinate <-> database time.
    double axisOf(std::int64_t t_ns) const { return double(t_ns - m_t0) / m_timeDiv; }
    std::int64_t timeOf(double x) const { return m_t0 + std::int64_t(x * m_timeDiv); }

public slots:
    void resetZoom();

signals:
    // "Peak in Timeline": a database time (ns) to show in the timeline.
    void timeActivated(qint64 t_ns);
    // "Show in Timeline" on a block: its producer op's slice (TASK id).
    void sliceActivated(qint64 taskId);

private:
    struct Series {
        QString name;
        std::int64_t device = 0;
        profiler::CounterSeries samples;
    };
    void rebuild();
    void showDevice();
    void updateDetailTabs();  // a tab per detail the run has
    void placeMap();          // under the chart, or a tab when the chart would be squashed
    void reduceVisible();
    void addMapSeries();
    void onMouseMove(QMouseEvent* event);
    void fitLegend();
    void placePeakLabel();
    void resizeEvent(QResizeEvent* event) override;
    // memory_chart_selection.cpp
    void buildSelection();
    void drawSelection();

    std::shared_ptr<const profiler::ProfileDb> m_db;
    std::vector<Series> m_all;     // every counter track of the run
    std::vector<Series> m_series;  // the shown device's
    profiler::MemoryMapSeries m_mapSeries;  // from the device's memory map, when the run has one
    QCustomPlot* m_plot;
    QLabel* m_info;
    QLabel* m_readout;
    QLabel* m_empty;
    QPushButton* m_toPeak;
    QSplitter* m_split;
    QTabWidget* m_details;  // [memory map |] live blocks | memory per rank class | model states
    QWidget *m_mapPage, *m_blocksPage, *m_rankPage, *m_statesPage;
    static constexpr int kMapUnderChartHeight = 560;  // below it the map is a tab (placeMap)
    QComboBox* m_device;
    MemoryMap* m_map;
    MemoryBlocksPanel* m_blocks;
    MemoryWhatIfBar* m_whatIf;
    RankMemoryTable* m_rankMemory = nullptr;
    ModelStateTable* m_modelStates;
    QCPItemRect* m_selectionBox = nullptr;
    QCPItemStraightLine* m_selectionLine = nullptr;
    std::int64_t m_selFrom = -1, m_selTo = -1;
    QPoint m_pressPos;
    QCPItemStraightLine* m_cursorLine = nullptr;
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemTracer* m_peakMarker = nullptr;
    QCPItemText* m_peakLabel = nullptr;
    std::int64_t m_t0 = 0, m_t1 = 0;   // database time of the full range
    double m_timeDiv = 1e6;            // ns per axis unit
    double m_byteDiv = 1 << 30;        // bytes per axis unit
    double m_capacity = 0;
    double m_peakValue = 0;
    std::int64_t m_peakTs = -1;
    bool m_reducing = false;
};

}  // namespace npu::views
