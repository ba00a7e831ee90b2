#pragma once
// What the timeline draws from: every track's slices (columnar, with the depth index for
// level of detail) and counter series, grouped by device. Loaded once from a ProfileDb;
// tests fill it directly. Plain C++ so the logic over it is testable without widgets.

#include "profiler/store/device_nodes.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/track_summary.h"
#include "profiler/store/track_window.h"
#include "views/timeline/slice_lod.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npu::views {

struct TimelineTrack {
    profiler::TrackRow row;
    bool isCounter = false;
    bool loaded = true;  // false while a background load has not delivered it yet
    profiler::TrackSlices slices;  // slice tracks
    std::vector<std::int32_t> dtypeId;  // per slice (string id, -1 none); empty: no OP_INFO
    DepthIndex depths;
    profiler::CounterSeries counter;  // counter tracks
    double counterMin = 0;
    double counterMax = 0;
    // Until the slices arrive: the import-time summary (depth, density), so the track is
    // laid out at its final height and painted in the first frame. Dropped on fillTrack(),
    // kept by windowed tracks, which paint it wherever their window does not reach.
    std::optional<profiler::TrackSummary> summary;
    // Windowed (files past TimelineWidget::kWindowedSlices, issue 12): `slices` holds only
    // the slices overlapping [window0, window1), read by range query, so memory follows
    // the view, not the file. Indices (SliceRef) are into the window and change with it.
    bool windowed = false;
    std::int64_t window0 = 0;
    std::int64_t window1 = 0;
    bool covers(std::int64_t t0, std::int64_t t1) const
    {
        return !windowed || (loaded && window0 <= t0 && t1 <= window1);
    }
    // Painted from the summary rather than from slices over [t0, t1).
    bool showsSummary(std::int64_t t0, std::int64_t t1) const { return !isCounter && !covers(t0, t1); }
    int rows() const
    {
        if (isCounter)
            return 1;
        if (!loaded || windowed)
            return summary ? summary->maxDepth + 1 : 1;
        return std::max(1, static_cast<int>(depths.lanes.size()));
    }
    bool empty() const { return !windowed && loaded && slices.size() == 0 && counter.ts_ns.empty(); }
};

struct TimelineGroup {
    std::int64_t deviceId = 0;
    std::string name;
    std::string kind;
    std::vector<int> tracks;  // indices into TimelineData::tracks(), in display order
    int node = -1;  // its node in a cluster run (profiler/store/device_nodes.h), -1 unplaced
};

// A slice by position: track index and index in its columns.
struct SliceRef {
    int track = -1;
    std::uint32_t index = 0;
    bool valid() const { return track >= 0; }
    bool operator==(const SliceRef&) const = default;
};

class TimelineData {
public:
    static std::unique_ptr<TimelineData> load(const profiler::ProfileDb& db);
    // Strings, devices and every track as a placeholder, with the range from the
    // database's metadata: what a background load fills in with fillTrack().
    // `windowed`: slice tracks with a summary stay windowed (never pending), filled by
    // fillWindow() with the range the view needs; counters still load whole.
    static std::unique_ptr<TimelineData> skeleton(const profiler::ProfileDb& db, bool windowed = false);
    // One track's columns and depth index; safe to call off the GUI thread.
    static TimelineTrack loadTrack(const profiler::ProfileDb& db, const profiler::TrackRow& row);
    void fillTrack(int index, TimelineTrack track);
    int pendingTracks() const { return m_pending; }

    bool windowed() const { return m_windowed; }
    profiler::DensityGrid grid() const { return {m_densityT0, m_densityBucketNs}; }
    // A windowed track's slices over [w0, w1) (columns, depth index, dtypes); off the GUI thread.
    static TimelineTrack loadWindow(const profiler::ProfileDb& db, const TimelineTrack& track,
                                    const profiler::DensityGrid& grid, std::int64_t w0, std::int64_t w1);
    void fillWindow(int index, TimelineTrack window);
    void dropWindow(int index);  // frees the slices; the track paints from its summary
    // Every slice in the file, loaded or not (sliceCount() counts the loaded ones).
    std::int64_t totalSlices() const;
    bool contains(SliceRef ref) const
    {
        return ref.track >= 0 && static_cast<std::size_t>(ref.track) < m_tracks.size() &&
               ref.index < m_tracks[static_cast<std::size_t>(ref.track)].slices.size();
    }

    // Building by hand (tests, benchmarks). Tracks of an unknown device get their own group.
    void addDevice(std::int64_t id, std::string name, std::string kind);
    void addSliceTrack(profiler::TrackRow row, profiler::TrackSlices slices);
    void addCounterTrack(profiler::TrackRow row, profiler::CounterSeries series);
    void setStrings(std::vector<std::string> strings) { m_strings = std::move(strings); }
    // The nodes of a cluster run: sets every group's node (load() and skeleton() call it).
    void setNodes(profiler::DeviceNodes nodes);
    const profiler::DeviceNodes& nodes() const { return m_nodes; }
    // Devices on more than one node: the layout puts a node header above each node's devices.
    bool multiNode() const { return m_nodes.multiNode(); }

    const std::vector<TimelineTrack>& tracks() const { return m_tracks; }
    const std::vector<TimelineGroup>& groups() const { return m_groups; }
    const std::vector<std::string>& strings() const { return m_strings; }
    const std::string& string(std::int32_t id) const;

    std::int64_t startNs() const { return m_start; }
    std::int64_t endNs() const { return m_end; }
    std::int64_t sliceCount() const { return m_sliceCount; }
    // The summaries' bucket grid (TimelineTrack::summary): bucket b starts at
    // densityT0() + b * densityBucketNs().
    std::int64_t densityT0() const { return m_densityT0; }
    std::int64_t densityBucketNs() const { return m_densityBucketNs; }

    SliceRef find(std::int64_t sliceId) const;
    std::int64_t sliceId(SliceRef ref) const { return m_tracks[ref.track].slices.id[ref.index]; }
    std::int64_t sliceStart(SliceRef ref) const { return m_tracks[ref.track].slices.start_ns[ref.index]; }
    std::int64_t sliceDur(SliceRef ref) const { return m_tracks[ref.track].slices.dur_ns[ref.index]; }
    const std::string& sliceName(SliceRef ref) const { return string(m_tracks[ref.track].slices.nameId[ref.index]); }
    const std::string& sliceCategory(SliceRef ref) const
    {
        return string(m_tracks[ref.track].slices.categoryId[ref.index]);
    }

    // Enclosing slices of `ref` on its track at lower depths, outermost first.
    std::vector<SliceRef> parentChain(SliceRef ref) const;

private:
    TimelineGroup& groupFor(std::int64_t deviceId);
    void extendRange(std::int64_t t0, std::int64_t t1);
    void addTrack(TimelineTrack track);

    std::vector<TimelineTrack> m_tracks;
    std::vector<TimelineGroup> m_groups;
    std::vector<std::string> m_strings;
    profiler::DeviceNodes m_nodes;
    std::int64_t m_start = 0;
    std::int64_t m_end = 0;
    bool m_hasRange = false;
    std::int64_t m_sliceCount = 0;
    std::int64_t m_densityT0 = 0;
    std::int64_t m_densityBucketNs = 1;
    int m_pending = 0;
    bool m_windowed = false;
};

}  // namespace npu::views
