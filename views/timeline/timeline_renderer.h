#pragma once
// Draws a timeline frame with QPainter. The draw lists (folded slice rectangles and
// reduced counter columns) are rebuilt by rebuild() when the view range or width
// changes, into buffers reused from frame to frame; paint() only walks them.

#include "views/timeline/timeline_palette.h"
#include "views/timeline/counter_lod.h"
#include "views/timeline/slice_lod.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/track_layout.h"

#include <QColor>
#include <QFont>
#include <QPolygonF>
#include <QString>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

class QPainter;

namespace npu::views {

// A flag on the time axis (Perfetto's flags): database time and the user's note.
struct TimelineFlag {
    std::int64_t t_ns = 0;
    QString note;
    bool operator==(const TimelineFlag&) const = default;
};

// Where the selected slice is: kept apart from its SliceRef so a windowed track can
// outline it while its window is not loaded (from the database, at selection time).
struct SelectedPlace {
    int track = -1;
    std::int64_t start = 0;
    std::int64_t dur = 0;
    int depth = 0;
};

// Everything one frame needs besides the draw lists. Times are database nanoseconds.
// A device group's header text, "name  (kind)": painted in the gutter, and what the
// gutter's width is fitted to. Under its node's header (`underNode`) the name's leading
// "node N · " is left out: the header says it.
QString groupHeaderLabel(const TimelineGroup& g, bool underNode = false);
// A node's header text, "node 1 · hostA · 8 ranks" (the host when the run recorded it).
QString nodeHeaderLabel(const TimelineData& data, int node);
// How far a node's device groups and tracks are indented under its header, in the gutter.
constexpr int kNodeIndent = 10;

struct TimelineFrame {
    const TimelineData* data = nullptr;
    const TrackLayout* layout = nullptr;
    LayoutMetrics metrics;
    const std::set<std::int64_t>* collapsed = nullptr;
    const std::set<int>* collapsedNodes = nullptr;
    const TrackArrangement* arrangement = nullptr;  // hidden tracks stay out of a folded node's lane
    std::int64_t t0 = 0;
    std::int64_t t1 = 1;
    std::int64_t rulerOrigin = 0;  // ruler labels count from here
    int gutterWidth = 200;
    int rulerHeight = 28;
    int width = 0;   // whole widget
    int height = 0;
    int plotWidth = 0;  // width of the time area right of the gutter
    int scrollY = 0;
    SelectedPlace selected;
    const std::vector<std::vector<std::uint8_t>>* highlighted = nullptr;  // per track, per slice
    bool hasRange = false;
    std::int64_t range0 = 0;
    std::int64_t range1 = 0;
    std::vector<std::pair<SliceRef, SliceRef>> flows;  // from, to
    int cursorX = -1;  // plot x of the mouse, -1 when outside
    const std::vector<int>* rangeTracks = nullptr;  // area selection: these tracks only; empty = all
    const std::vector<TimelineFlag>* flags = nullptr;
    int dropLineY = -1;  // widget y of the insertion line while a track is dragged in the gutter
    SliceColouring colouring = SliceColouring::category;
    // Windowed tracks drawn from their summary by design (the view holds more slices
    // than a window may), per track: no "loading…" plate on them.
    const std::vector<char>* summaryOnly = nullptr;
};

// What is under a point of a track: a slice, a folded block, or nothing.
struct TimelineHit {
    SliceRef slice;       // the slice, or a fold's first slice
    std::uint32_t count = 0;  // 0 nothing, 1 a slice, >1 a folded block
    float x0 = 0;
    float x1 = 0;
};

class TimelineRenderer {
public:
    void rebuild(const TimelineData& data, std::int64_t t0, std::int64_t t1, int plotWidth);
    void paint(QPainter& painter, const TimelineFrame& frame);

    int drawnItems() const { return m_drawnItems; }
    int foldedBlocks() const { return m_foldedBlocks; }

    TimelineHit hitTest(int track, int depth, double plotX) const;
    const CounterColumns* counterColumns(int track) const;

private:
    void paintTracks(QPainter& p, const TimelineFrame& f);
    void paintTrackRows(QPainter& p, const TimelineFrame& f, bool pinned);
    void paintFlags(QPainter& p, const TimelineFrame& f);
    void paintFlagsOnRuler(QPainter& p, const TimelineFrame& f);
    void paintSliceTrack(QPainter& p, const TimelineFrame& f, int track, int top);
    void paintSelection(QPainter& p, const TimelineFrame& f, int track, int top);
    void paintFoldedNode(QPainter& p, const TimelineFrame& f, int node, int top, int height);  // timeline_node_lane.cpp
    void paintCounterTrack(QPainter& p, const TimelineFrame& f, int track, int top, int height);
    void paintFlows(QPainter& p, const TimelineFrame& f);
    void paintGutter(QPainter& p, const TimelineFrame& f);
    void paintRuler(QPainter& p, const TimelineFrame& f);
    void paintRange(QPainter& p, const TimelineFrame& f);
    const QColor& colorOf(std::int32_t categoryId);
    bool isRangeCategory(std::int32_t categoryId);       // gpu_user_annotation
    const QColor& rangeColorOf(std::int32_t nameId);  // by name without its numbers
    QColor sliceColor(SliceColouring colouring, const TimelineTrack& track, std::uint32_t slice);
    const QString& nameOf(std::int32_t nameId);
    int sliceTop(const TimelineFrame& f, int track, int depth) const;

    const TimelineData* m_data = nullptr;
    std::vector<DrawItem> m_items;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_trackItems;  // [begin, end) in m_items
    std::vector<CounterColumns> m_counters;
    std::vector<QColor> m_colors;     // by category string id, filled on first use
    std::vector<char> m_colorReady;
    std::vector<QColor> m_rangeColors;  // by name string id (rangeColorOf)
    std::vector<char> m_rangeColorReady;
    std::int32_t m_rangeCategory = -2;  // string id of gpu_user_annotation; -2: not looked up
    std::vector<QString> m_names;     // by name string id, filled on first use
    std::vector<char> m_nameReady;
    QPolygonF m_polygon;
    int m_drawnItems = 0;
    int m_foldedBlocks = 0;
};

}  // namespace npu::views
