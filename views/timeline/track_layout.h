#pragma once
// Vertical layout of the timeline: a header per device group (collapsible), then its
// tracks, each as tall as its deepest nesting (slice tracks) or a fixed chart height
// (counter tracks). y is in content coordinates, before vertical scrolling. With a
// TrackArrangement, pinned tracks come first under a "Pinned" header (group -1) and stay
// put while the rest scrolls beneath them; hidden and filtered-out tracks get no row.
// A cluster run on several nodes (TimelineData::multiNode) gets a node header above each
// node's device groups, in node order; a collapsed node keeps only its header. Devices
// no node places come first, without one.

#include "views/timeline/timeline_data.h"
#include "views/timeline/track_arrangement.h"

#include <cstdint>
#include <set>
#include <vector>

namespace npu::views {

struct LayoutMetrics {
    int groupHeaderHeight = 24;
    int rowHeight = 18;       // one nesting depth
    int counterHeight = 48;
    int trackPadding = 3;     // above and below a track's rows
};

struct LayoutRow {
    enum class Kind { group, track, node };
    Kind kind = Kind::track;
    int group = 0;   // index into TimelineData::groups(); -1 for the "Pinned" header
    int track = -1;  // index into TimelineData::tracks() for Kind::track
    int y = 0;
    int height = 0;
    bool pinned = false;  // in the pinned area at the top, which does not scroll
    int node = -1;        // Kind::node: the node it heads; else its device's node (-1 unplaced)
};

struct TrackLayout {
    std::vector<LayoutRow> rows;
    int contentHeight = 0;
    int pinnedHeight = 0;  // rows with y below this are pinned

    // A row's top in track-area coordinates (0 = just under the ruler) at a scroll offset.
    int areaTop(const LayoutRow& row, int scrollY) const { return row.pinned ? row.y : row.y - scrollY; }
    // The row under track-area y at a scroll offset, or -1.
    int rowAtArea(int y, int scrollY) const { return rowAt(y < pinnedHeight ? y : y + scrollY); }

    // The row at content y, or -1.
    int rowAt(int y) const;
    // The layout row of a track, or -1 when its group is collapsed.
    int rowOfTrack(int track) const;
};

TrackLayout layoutTracks(const TimelineData& data, const std::set<std::int64_t>& collapsedDevices,
                         const LayoutMetrics& metrics, const TrackArrangement* arrangement = nullptr,
                         const std::set<int>* collapsedNodes = nullptr);

}  // namespace npu::views
