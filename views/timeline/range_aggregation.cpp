#include "views/timeline/range_aggregation.h"

#include <algorithm>
#include <unordered_map>

namespace npu::views {

std::vector<RangeStat> aggregateRange(const TimelineData& data, std::int64_t t0, std::int64_t t1)
{
    std::vector<RangeStat> out;
    if (t1 <= t0)
        return out;
    std::unordered_map<std::int32_t, std::size_t> slot;
    const auto statFor = [&](std::int32_t nameId) -> RangeStat& {
        const auto [it, added] = slot.try_emplace(nameId, out.size());
        if (added) {
            out.emplace_back();
            out.back().nameId = nameId;
            out.back().name = data.string(nameId);
        }
        return out[it->second];
    };
    const auto clipped = [&](std::int64_t s, std::int64_t d) {
        return std::max<std::int64_t>(0, std::min(s + d, t1) - std::max(s, t0));
    };
    std::vector<std::int64_t> open;  // per depth: column index of the enclosing slice, -1 none
    for (const TimelineTrack& track : data.tracks()) {
        const profiler::TrackSlices& s = track.slices;
        if (track.isCounter || s.size() == 0)
            continue;
        // Start from the earliest slice any lane says may reach into the range, so parents
        // that began before t0 are on the stack when their children come.
        std::size_t from = s.size();
        for (const DepthLane& lane : track.depths.lanes) {
            const LaneSpan span = laneSpan(s, lane, t0, t1);
            if (span.first < lane.index.size())
                from = std::min<std::size_t>(from, lane.index[span.first]);
        }
        open.assign(track.depths.lanes.size(), -1);
        for (std::size_t i = from; i < s.size() && s.start_ns[i] < t1; ++i) {
            const int depth = std::max(0, s.depth[i]);
            const std::int64_t inside = clipped(s.start_ns[i], s.dur_ns[i]);
            open[static_cast<std::size_t>(depth)] = static_cast<std::int64_t>(i);
            if (!visibleSlice(s.start_ns[i], s.dur_ns[i], t0, t1))
                continue;
            RangeStat& stat = statFor(s.nameId[i]);
            ++stat.count;
            stat.totalNs += inside;
            stat.selfNs += inside;
            if (depth > 0) {
                const std::int64_t p = open[static_cast<std::size_t>(depth - 1)];
                if (p >= 0 && s.start_ns[static_cast<std::size_t>(p)] + s.dur_ns[static_cast<std::size_t>(p)] >=
                                  s.start_ns[i] + s.dur_ns[i])
                    statFor(s.nameId[static_cast<std::size_t>(p)]).selfNs -= inside;
            }
        }
    }
    std::int64_t selfSum = 0;
    for (const RangeStat& r : out)
        selfSum += std::max<std::int64_t>(0, r.selfNs);
    for (RangeStat& r : out)
        r.share = selfSum > 0 ? static_cast<double>(std::max<std::int64_t>(0, r.selfNs)) / static_cast<double>(selfSum) : 0;
    std::sort(out.begin(), out.end(), [](const RangeStat& a, const RangeStat& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

}  // namespace npu::views
