#pragma once
// Vertical layout of the timeline: a header per device group (collapsible), then its
// tracks, each as tall as its deepest nesting (slice tracks) or a fixed chart height
// (counter tracks). y is in content coordinates, before vertical scrolling.

#include "views/timeline/timeline_data.h"

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
    enum class Kind { group, track };
    Kind kind = Kind::track;
    int group = 0;   // index into TimelineData::groups()
    int track = -1;  // index into TimelineData::tracks() for Kind::track
    int y = 0;
    int height = 0;
};

struct TrackLayout {
    std::vector<LayoutRow> rows;
    int contentHeight = 0;

    // The row at content y, or -1.
    int rowAt(int y) const;
    // The layout row of a track, or -1 when its group is collapsed.
    int rowOfTrack(int track) const;
};

TrackLayout layoutTracks(const TimelineData& data, const std::set<std::int64_t>& collapsedDevices,
                         const LayoutMetrics& metrics);

}  // namespace npu::views
