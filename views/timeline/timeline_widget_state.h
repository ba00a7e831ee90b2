#pragma once
// TimelineWidget's private state, shared by its painting and input translation units.

#include "views/timeline/time_viewport.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_renderer.h"
#include "views/timeline/timeline_settings.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/track_layout.h"
#include "views/timeline/shortcut_overlay.h"

#include <QFuture>
#include <QPoint>
#include <QScrollBar>

#include <atomic>

#include <memory>
#include <set>
#include <unordered_set>
#include <vector>

namespace npu::views {

// What lies under a widget position.
struct TimelineWidget::PointInfo {
    bool inRuler = false;
    bool inGutter = false;
    int layoutRow = -1;
    int track = -1;   // slice or counter track under the point
    int depth = -1;   // nesting row within a slice track
    double plotX = -1;
    TimelineHit hit;  // slice or folded block under the point
};

struct TimelineWidget::State {
    enum class Drag { none, pending, pan, range, moveTrack, gutter };

    std::shared_ptr<const profiler::ProfileDb> db;
    std::unique_ptr<TimelineData> data;
    // Background load: the flag stops the worker, the generation drops tracks it posted
    // for a database that has since been replaced.
    std::shared_ptr<std::atomic<bool>> cancelLoad;
    std::vector<QFuture<void>> loaders;
    int generation = 0;
    // Windowed data (large files): one window batch in flight at a time, on the worker's
    // own connection; `windowAgain` asks for another pass when it is done.
    std::shared_ptr<std::unique_ptr<profiler::ProfileDb>> windowDb;
    qint64 windowedFrom = TimelineWidget::kWindowedSlices;
    qint64 windowBudget = TimelineWidget::kWindowBudgetSlices;
    QFuture<void> windowLoader;
    bool windowBusy = false;
    std::vector<char> summaryOnly;  // per track: the view holds more than a window may
    // What the selection, flows and highlights are, by slice id: windowed SliceRefs
    // change with every window, so they are resolved again from these after each.
    std::int64_t selectedId = -1;
    SelectedPlace selectedPlace;  // drawn from, whether or not a window holds the slice
    std::vector<std::pair<std::int64_t, std::int64_t>> flowIds;
    std::vector<std::int64_t> highlightIds;
    std::unordered_set<std::int64_t> highlightSet;  // of highlightIds, built on first use
    TimeViewport viewport;  // database time
    qint64 offset = 0;
    bool hasExtraBounds = false;
    qint64 extra0 = 0;  // view time
    qint64 extra1 = 0;
    std::set<std::int64_t> collapsed;
    std::set<int> collapsedNodes;  // cluster runs: nodes folded to their header
    LayoutMetrics metrics;
    TrackLayout layout;
    TimelineRenderer renderer;
    QScrollBar* vbar = nullptr;
    ShortcutOverlay* shortcuts = nullptr;  // "?" help (shortcut_overlay.h)
    int scrollY = 0;
    int gutterWidth = 200;
    bool gutterDragged = false;  // the user set the width: no refit on the next database
    int rulerHeight = 28;

    SliceRef selected;
    std::vector<std::pair<SliceRef, SliceRef>> flows;
    std::vector<std::vector<std::uint8_t>> highlighted;
    bool hasRange = false;
    std::int64_t range0 = 0;  // database time
    std::int64_t range1 = 0;
    std::vector<int> rangeTracks;  // area selection: track indices; empty = all tracks
    int rangeAnchorRow = -1;       // layout row where an area drag began (-1: on the ruler)
    TrackArrangement arrangement;
    std::vector<TimelineFlag> flags;  // database time, sorted
    int dragTrack = -1;               // track index being moved in the gutter
    std::int64_t dropBefore = -1;     // track id it would land before (-1: end of group)
    int dropLineY = -1;
    SliceColouring colouring = loadSliceColouring();

    Drag drag = Drag::none;
    QPoint pressPos;
    std::int64_t pressT0 = 0;     // view start when a pan began
    std::int64_t rangeAnchor = 0; // time where a range drag began
    int cursorX = -1;
    SliceRef hovered;
    bool listsDirty = true;
    int builtWidth = -1;
    std::int64_t builtT0 = 0;
    std::int64_t builtT1 = 0;
};

}  // namespace npu::views
