#include "views/timeline/track_layout.h"

#include <algorithm>

namespace npu::views {

int TrackLayout::rowAt(int y) const
{
    // Rows are laid out top to bottom without gaps, so the last row starting at or above
    // y is the one under it.
    const auto it = std::upper_bound(rows.begin(), rows.end(), y, [](int v, const LayoutRow& r) { return v < r.y; });
    if (it == rows.begin())
        return -1;
    const auto& row = *(it - 1);
    return y < row.y + row.height ? static_cast<int>(it - 1 - rows.begin()) : -1;
}

int TrackLayout::rowOfTrack(int track) const
{
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].kind == LayoutRow::Kind::track && rows[i].track == track)
            return static_cast<int>(i);
    }
    return -1;
}

TrackLayout layoutTracks(const TimelineData& data, const std::set<std::int64_t>& collapsedDevices,
                         const LayoutMetrics& metrics)
{
    TrackLayout layout;
    int y = 0;
    const auto& groups = data.groups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<int> order;
        for (const int t : groups[g].tracks) {
            // Tracks that loaded empty (process containers, idle streams) get no row.
            if (!data.tracks()[static_cast<std::size_t>(t)].empty())
                order.push_back(t);
        }
        if (order.empty())
            continue;
        layout.rows.push_back(LayoutRow{LayoutRow::Kind::group, static_cast<int>(g), -1, y, metrics.groupHeaderHeight});
        y += metrics.groupHeaderHeight;
        if (collapsedDevices.count(groups[g].deviceId))
            continue;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return data.tracks()[a].row.sortIndex < data.tracks()[b].row.sortIndex;
        });
        for (const int t : order) {
            const TimelineTrack& track = data.tracks()[t];
            const int body = track.isCounter ? metrics.counterHeight : track.rows() * metrics.rowHeight;
            const int h = body + 2 * metrics.trackPadding;
            layout.rows.push_back(LayoutRow{LayoutRow::Kind::track, static_cast<int>(g), t, y, h});
            y += h;
        }
    }
    layout.contentHeight = y;
    return layout;
}

}  // namespace npu::views
