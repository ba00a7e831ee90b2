#include "views/timeline/timeline_data.h"

#include <algorithm>

namespace npu::views {

std::unique_ptr<TimelineData> TimelineData::load(const profiler::ProfileDb& db)
{
    auto data = std::make_unique<TimelineData>();
    data->m_strings = db.strings();
    for (const profiler::DeviceRow& d : db.devices())
        data->addDevice(d.id, d.name, d.kind);
    for (const profiler::TrackRow& t : db.tracks()) {
        if (t.kind == profiler::TrackKind::counter)
            data->addCounterTrack(t, db.counter(t.id));
        else
            data->addSliceTrack(t, db.trackSlices(t.id));
    }
    return data;
}

void TimelineData::addDevice(std::int64_t id, std::string name, std::string kind)
{
    TimelineGroup g;
    g.deviceId = id;
    g.name = std::move(name);
    g.kind = std::move(kind);
    m_groups.push_back(std::move(g));
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
    // Empty tracks (process containers, idle streams) would only add blank rows.
    if (slices.size() == 0)
        return;
    TimelineTrack track;
    track.row = std::move(row);
    track.depths = buildDepthIndex(slices);
    std::int64_t maxEnd = slices.start_ns.front();
    for (const DepthLane& lane : track.depths.lanes) {
        if (!lane.maxEnd.empty())
            maxEnd = std::max(maxEnd, lane.maxEnd.back());
    }
    extendRange(slices.start_ns.front(), maxEnd);
    m_sliceCount += static_cast<std::int64_t>(slices.size());
    track.slices = std::move(slices);
    m_tracks.push_back(std::move(track));
    groupFor(m_tracks.back().row.device).tracks.push_back(static_cast<int>(m_tracks.size()) - 1);
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
    extendRange(series.ts_ns.front(), series.ts_ns.back());
    track.counter = std::move(series);
    m_tracks.push_back(std::move(track));
    groupFor(m_tracks.back().row.device).tracks.push_back(static_cast<int>(m_tracks.size()) - 1);
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
            if (lane.maxEnd[static_cast<std::size_t>(k - lane.index.begin())] < e)
                break;
        }
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

}  // namespace npu::views
