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
                         const LayoutMetrics& metrics, const TrackArrangement* arrangement,
                         const std::set<int>* collapsedNodes)
{
    static const TrackArrangement kNone;
    const TrackArrangement& arr = arrangement ? *arrangement : kNone;
    TrackLayout layout;
    int y = 0;
    const auto& groups = data.groups();
    const auto& tracks = data.tracks();
    auto trackHeight = [&](int t) {
        const TimelineTrack& track = tracks[static_cast<std::size_t>(t)];
        const int body = track.isCounter ? metrics.counterHeight : track.rows() * metrics.rowHeight;
        return body + 2 * metrics.trackPadding;
    };
    // Tracks that loaded empty (process containers, idle streams) get no row, nor do
    // hidden ones and those the filter leaves out.
    auto shown = [&](int t, const TimelineGroup& g) {
        const TimelineTrack& track = tracks[static_cast<std::size_t>(t)];
        return !track.empty() && !arr.isHidden(track.row.id) && arr.passesFilter(track.row.name, g.name);
    };

    // The pinned area: in pin order, above every group.
    std::vector<std::pair<int, int>> pinned;  // track, group
    for (const std::int64_t id : arr.pinned) {
        for (std::size_t g = 0; g < groups.size(); ++g) {
            for (const int t : groups[g].tracks) {
                if (tracks[static_cast<std::size_t>(t)].row.id == id && shown(t, groups[g]))
                    pinned.emplace_back(t, static_cast<int>(g));
            }
        }
    }
    if (!pinned.empty()) {
        layout.rows.push_back(LayoutRow{LayoutRow::Kind::group, -1, -1, y, metrics.groupHeaderHeight, true});
        y += metrics.groupHeaderHeight;
        for (const auto& [t, g] : pinned) {
            const int h = trackHeight(t);
            layout.rows.push_back(LayoutRow{LayoutRow::Kind::track, g, t, y, h, true, groups[static_cast<std::size_t>(g)].node});
            y += h;
        }
        layout.pinnedHeight = y;
    }

    // The order of the device groups: node by node on several nodes (those no node
    // places first), else as loaded. A node's header goes above its first group with rows.
    std::vector<std::size_t> groupOrder(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        groupOrder[g] = g;
    const bool byNode = data.multiNode();
    if (byNode)
        std::stable_sort(groupOrder.begin(), groupOrder.end(), [&](std::size_t a, std::size_t b) { return groups[a].node < groups[b].node; });
    int headedNode = -1;
    for (const std::size_t g : groupOrder) {
        std::vector<int> order;
        for (const int t : groups[g].tracks) {
            if (shown(t, groups[g]) && !arr.isPinned(tracks[static_cast<std::size_t>(t)].row.id))
                order.push_back(t);
        }
        if (order.empty())
            continue;
        const int node = groups[g].node;
        if (byNode && node >= 0) {
            if (node != headedNode) {
                layout.rows.push_back(LayoutRow{LayoutRow::Kind::node, -1, -1, y, metrics.groupHeaderHeight, false, node});
                y += metrics.groupHeaderHeight;
                headedNode = node;
            }
            if (collapsedNodes && collapsedNodes->count(node))
                continue;
        }
        layout.rows.push_back(LayoutRow{LayoutRow::Kind::group, static_cast<int>(g), -1, y, metrics.groupHeaderHeight, false, node});
        y += metrics.groupHeaderHeight;
        if (collapsedDevices.count(groups[g].deviceId))
            continue;
        // The custom order first (tracks the user placed), then the rest by sort index.
        auto key = [&](int t) {
            const int custom = arr.orderOf(tracks[static_cast<std::size_t>(t)].row.id);
            return std::make_pair(custom < 0 ? 1 : 0, custom < 0 ? tracks[static_cast<std::size_t>(t)].row.sortIndex : custom);
        };
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
        for (const int t : order) {
            const int h = trackHeight(t);
            layout.rows.push_back(LayoutRow{LayoutRow::Kind::track, static_cast<int>(g), t, y, h, false, node});
            y += h;
        }
    }
    layout.contentHeight = y;
    return layout;
}

}  // namespace npu::views
