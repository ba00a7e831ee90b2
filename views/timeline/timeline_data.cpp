#include "views/timeline/timeline_data.h"

#include "profiler/store/slice_dtypes.h"

#include <algorithm>

namespace npu::views {

std::unique_ptr<TimelineData> TimelineData::load(const profiler::ProfileDb& db)
{
    auto data = std::make_unique<TimelineData>();
    data->m_strings = db.strings();
    for (const profiler::DeviceRow& d : db.devices())
        data->addDevice(d.id, d.name, d.kind);
    data->setNodes(profiler::deviceNodes(db));
    for (const profiler::TrackRow& t : db.tracks()) {
        TimelineTrack track = loadTrack(db, t);
        // Empty tracks (process containers, idle streams) would only add blank rows.
        if (!track.empty())
            data->addTrack(std::move(track));
    }
    return data;
}

std::unique_ptr<TimelineData> TimelineData::skeleton(const profiler::ProfileDb& db, bool windowed)
{
    auto data = std::make_unique<TimelineData>();
    data->m_strings = db.strings();
    for (const profiler::DeviceRow& d : db.devices())
        data->addDevice(d.id, d.name, d.kind);
    data->setNodes(profiler::deviceNodes(db));
    profiler::TrackSummaries summaries = profiler::readTrackSummaries(db);
    data->m_densityT0 = summaries.t0;
    data->m_densityBucketNs = summaries.bucketNs;
    // Without summaries (a version-5 file opened read-only) there is nothing to paint
    // outside a window nor to find long slices with: such files load whole.
    data->m_windowed = windowed && summaries.present;
    for (const profiler::TrackRow& t : db.tracks()) {
        TimelineTrack track;
        track.row = t;
        track.isCounter = t.kind == profiler::TrackKind::counter;
        track.loaded = false;
        // Summaries come by track id, tracks in display order.
        const auto it = std::lower_bound(summaries.tracks.begin(), summaries.tracks.end(), t.id,
                                         [](const profiler::TrackSummary& a, std::int64_t id) { return a.track < id; });
        if (it != summaries.tracks.end() && it->track == t.id)
            track.summary = std::move(*it);
        else if (summaries.present && !track.isCounter) {
            // No slices (a process container, an idle stream): nothing to load, no row.
            data->m_tracks.push_back(std::move(track));
            data->m_tracks.back().loaded = true;
            data->groupFor(t.device).tracks.push_back(static_cast<int>(data->m_tracks.size()) - 1);
            continue;
        }
        if (data->m_windowed && track.summary) {
            track.windowed = true;  // not pending: filled by the view's windows
            data->m_tracks.push_back(std::move(track));
            data->groupFor(t.device).tracks.push_back(static_cast<int>(data->m_tracks.size()) - 1);
            continue;
        }
        ++data->m_pending;
        data->m_tracks.push_back(std::move(track));
        data->groupFor(t.device).tracks.push_back(static_cast<int>(data->m_tracks.size()) - 1);
    }
    const auto [t0, t1] = db.timeRange();
    data->extendRange(t0, t1);
    return data;
}

TimelineTrack TimelineData::loadTrack(const profiler::ProfileDb& db, const profiler::TrackRow& row)
{
    TimelineTrack track;
    track.row = row;
    track.isCounter = row.kind == profiler::TrackKind::counter;
    if (track.isCounter) {
        track.counter = db.counter(row.id);
        if (!track.counter.value.empty()) {
            const auto [mn, mx] = std::minmax_element(track.counter.value.begin(), track.counter.value.end());
            track.counterMin = std::min(0.0, *mn);
            track.counterMax = *mx;
        }
    } else {
        track.slices = db.trackSlices(row.id);
        track.dtypeId = profiler::sliceDTypeIds(db, row.id, track.slices.id);
        track.depths = buildDepthIndex(track.slices);
    }
    return track;
}

void TimelineData::fillTrack(int index, TimelineTrack track)
{
    TimelineTrack& slot = m_tracks[static_cast<std::size_t>(index)];
    if (!slot.loaded)
        --m_pending;
    track.loaded = true;
    slot = std::move(track);
    if (slot.isCounter && !slot.counter.ts_ns.empty())
        extendRange(slot.counter.ts_ns.front(), slot.counter.ts_ns.back());
    if (!slot.isCounter && slot.slices.size() > 0) {
        for (const DepthLane& lane : slot.depths.lanes)
            if (!lane.blockPrefixEnd.empty())
                extendRange(slot.slices.start_ns.front(), lane.blockPrefixEnd.back());
        m_sliceCount += static_cast<std::int64_t>(slot.slices.size());
    }
}

TimelineTrack TimelineData::loadWindow(const profiler::ProfileDb& db, const TimelineTrack& track,
                                       const profiler::DensityGrid& grid, std::int64_t w0, std::int64_t w1)
{
    TimelineTrack out;
    out.row = track.row;
    out.windowed = true;
    out.window0 = w0;
    out.window1 = w1;
    if (!track.summary)
        return out;
    out.slices = profiler::trackSlicesInWindow(db, *track.summary, grid, w0, w1);
    out.dtypeId = profiler::sliceDTypeIdsOf(db, out.slices.id);
    out.depths = buildDepthIndex(out.slices);
    return out;
}

void TimelineData::fillWindow(int index, TimelineTrack window)
{
    TimelineTrack& slot = m_tracks[static_cast<std::size_t>(index)];
    m_sliceCount += static_cast<std::int64_t>(window.slices.size()) - static_cast<std::int64_t>(slot.slices.size());
    slot.slices = std::move(window.slices);
    slot.dtypeId = std::move(window.dtypeId);
    slot.depths = std::move(window.depths);
    slot.window0 = window.window0;
    slot.window1 = window.window1;
    slot.loaded = true;
}

void TimelineData::dropWindow(int index)
{
    TimelineTrack& slot = m_tracks[static_cast<std::size_t>(index)];
    m_sliceCount -= static_cast<std::int64_t>(slot.slices.size());
    // Assigned fresh rather than cleared, so the capacity goes too.
    slot.slices = profiler::TrackSlices();
    slot.dtypeId = {};
    slot.depths = DepthIndex();
    slot.loaded = false;
}

std::int64_t TimelineData::totalSlices() const
{
    std::int64_t n = 0;
    for (const TimelineTrack& t : m_tracks)
        n += t.windowed && t.summary ? t.summary->sliceCount : static_cast<std::int64_t>(t.slices.size());
    return n;
}

void TimelineData::addTrack(TimelineTrack track)
{
    m_tracks.emplace_back();
    groupFor(track.row.device).tracks.push_back(static_cast<int>(m_tracks.size()) - 1);
    ++m_pending;
    m_tracks.back().loaded = false;
    fillTrack(static_cast<int>(m_tracks.size()) - 1, std::move(track));
}

void TimelineData::addDevice(std::int64_t id, std::string name, std::string kind)
{
    TimelineGroup g;
    g.deviceId = id;
    g.name = std::move(name);
    g.kind = std::move(kind);
    m_groups.push_back(std::move(g));
}

void TimelineData::setNodes(profiler::DeviceNodes nodes)
{
    m_nodes = std::move(nodes);
    for (TimelineGroup& g : m_groups)
        g.node = m_nodes.nodeOf(g.deviceId);
}

TimelineGroup& TimelineData::groupFor(std::int64_t deviceId)
{
    for (TimelineGroup& g : m_groups) {
        if (g.deviceId == deviceId)
            return g;
    }
    addDevice(deviceId, "device " + std::to_string(deviceId), {});
    return m_groups.back();
}

void TimelineData::extendRange(std::int64_t t0, std::int64_t t1)
{
    if (!m_hasRange) {
        m_start = t0;
        m_end = t1;
        m_hasRange = true;
        return;
    }
    m_start = std::min(m_start, t0);
    m_end = std::max(m_end, t1);
}

void TimelineData::addSliceTrack(profiler::TrackRow row, profiler::TrackSlices slices)
{
    if (slices.size() == 0)
        return;
    TimelineTrack track;
    track.row = std::move(row);
    track.depths = buildDepthIndex(slices);
    track.slices = std::move(slices);
    addTrack(std::move(track));
}

void TimelineData::addCounterTrack(profiler::TrackRow row, profiler::CounterSeries series)
{
    if (series.ts_ns.empty())
        return;
    TimelineTrack track;
    track.row = std::move(row);
    track.isCounter = true;
    const auto [mn, mx] = std::minmax_element(series.value.begin(), series.value.end());
    track.counterMin = std::min(0.0, *mn);
    track.counterMax = *mx;
    track.counter = std::move(series);
    addTrack(std::move(track));
}

const std::string& TimelineData::string(std::int32_t id) const
{
    static const std::string empty;
    if (id < 0 || static_cast<std::size_t>(id) >= m_strings.size())
        return empty;
    return m_strings[static_cast<std::size_t>(id)];
}

SliceRef TimelineData::find(std::int64_t sliceId) const
{
    // A linear scan over the id columns: ~1 ms per million slices, paid only on a
    // selection by id, cheaper than keeping a hash map of every slice.
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        const auto& ids = m_tracks[t].slices.id;
        const auto it = std::find(ids.begin(), ids.end(), sliceId);
        if (it != ids.end())
            return SliceRef{static_cast<int>(t), static_cast<std::uint32_t>(it - ids.begin())};
    }
    return {};
}

std::vector<SliceRef> TimelineData::parentChain(SliceRef ref) const
{
    std::vector<SliceRef> chain;
    if (!ref.valid())
        return chain;
    const TimelineTrack& track = m_tracks[ref.track];
    const std::int64_t s = track.slices.start_ns[ref.index];
    const std::int64_t e = s + track.slices.dur_ns[ref.index];
    for (int d = track.slices.depth[ref.index] - 1; d >= 0; --d) {
        const DepthLane& lane = track.depths.lanes[static_cast<std::size_t>(d)];
        // The enclosing slice at depth d is the last one starting at or before s that
        // still covers [s, e).
        const auto it = std::upper_bound(lane.index.begin(), lane.index.end(), s, [&](std::int64_t t, std::uint32_t i) {
            return t < track.slices.start_ns[i];
        });
        for (auto k = it; k != lane.index.begin();) {
            --k;
            const std::int64_t ps = track.slices.start_ns[*k];
            if (ps + track.slices.dur_ns[*k] >= e) {
                chain.push_back(SliceRef{ref.track, *k});
                break;
            }
            // Earlier slices end before this one did (no overlap at one depth), so stop.
            if (prefixMaxEnd(track.slices, lane, static_cast<std::size_t>(k - lane.index.begin())) < e)
                break;
        }
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

}  // namespace npu::views
