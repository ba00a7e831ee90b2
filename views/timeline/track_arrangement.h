#pragma once
// How the user arranged the timeline's tracks: pinned to the top (in pin order), a custom
// order, hidden tracks and a name filter. Tracks are named by their database id, so an
// arrangement belongs to one database (TimelineView keeps one per database in
// timeline_settings). Plain C++: the layout reads it, tests build it by hand.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace npu::views {

struct TrackArrangement {
    std::vector<std::int64_t> pinned;  // shown first, in this order, in a "Pinned" area that does not scroll
    std::vector<std::int64_t> order;   // custom order (within a device group); unlisted tracks follow by sort index
    std::set<std::int64_t> hidden;
    std::string filter;  // case-insensitive substring of the track or device name; not saved

    bool isPinned(std::int64_t track) const;
    bool isHidden(std::int64_t track) const { return hidden.count(track) > 0; }
    // True when the name passes the filter (an empty filter passes everything).
    bool passesFilter(const std::string& trackName, const std::string& deviceName) const;
    void setPinned(std::int64_t track, bool pinned);
    void setHidden(std::int64_t track, bool hide);
    // Moves `track` to just before `before` (or to the end with -1) in `order`, which is
    // first completed from `current` (the ids as laid out now) so unlisted tracks keep
    // their places. Pinned tracks reorder within the pinned list instead.
    void moveBefore(std::int64_t track, std::int64_t before, const std::vector<std::int64_t>& current);
    // Position of a track in the custom order, or -1 when unlisted.
    int orderOf(std::int64_t track) const;
    bool isDefault() const { return pinned.empty() && order.empty() && hidden.empty(); }
    bool operator==(const TrackArrangement&) const = default;
};

}  // namespace npu::views
