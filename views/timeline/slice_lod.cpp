#include "views/timeline/slice_lod.h"

#include <algorithm>
#include <limits>

namespace npu::views {

DepthIndex buildDepthIndex(const profiler::TrackSlices& slices)
{
    DepthIndex result;
    const std::size_t n = slices.size();
    int maxDepth = 0;
    for (std::size_t i = 0; i < n; ++i)
        maxDepth = std::max(maxDepth, slices.depth[i]);
    result.lanes.resize(n == 0 ? 0 : static_cast<std::size_t>(maxDepth) + 1);
    // Two passes so every lane is allocated once at its final size.
    std::vector<std::uint32_t> counts(result.lanes.size(), 0);
    for (std::size_t i = 0; i < n; ++i)
        ++counts[static_cast<std::size_t>(std::max(0, slices.depth[i]))];
    for (std::size_t d = 0; d < counts.size(); ++d)
        result.lanes[d].index.reserve(counts[d]);
    for (std::size_t i = 0; i < n; ++i)
        result.lanes[static_cast<std::size_t>(std::max(0, slices.depth[i]))].index.push_back(static_cast<std::uint32_t>(i));
    for (DepthLane& lane : result.lanes) {
        const std::size_t blocks = (lane.index.size() + DepthLane::kBlock - 1) / DepthLane::kBlock;
        lane.blockMaxDur.assign(blocks, 0);
        lane.blockMaxGap.assign(blocks, 0);
        lane.blockMaxEnd.assign(blocks, 0);
        lane.blockPrefixEnd.assign(blocks, 0);
        std::int64_t running = 0;  // max end over positions before k
        for (std::size_t k = 0; k < lane.index.size(); ++k) {
            const std::size_t b = k / DepthLane::kBlock;
            const std::uint32_t i = lane.index[k];
            const std::int64_t dur = std::max<std::int64_t>(0, slices.dur_ns[i]);
            const std::int64_t end = slices.start_ns[i] + dur;
            const std::int64_t gap = k == 0 ? 0 : slices.start_ns[i] - running;
            const bool first = k % DepthLane::kBlock == 0;
            lane.blockMaxDur[b] = first ? dur : std::max(lane.blockMaxDur[b], dur);
            lane.blockMaxGap[b] = first ? gap : std::max(lane.blockMaxGap[b], gap);
            lane.blockMaxEnd[b] = first ? end : std::max(lane.blockMaxEnd[b], end);
            running = k == 0 ? end : std::max(running, end);
            lane.blockPrefixEnd[b] = running;
        }
    }
    return result;
}

std::int64_t prefixMaxEnd(const profiler::TrackSlices& slices, const DepthLane& lane, std::size_t k)
{
    const std::size_t b = k / DepthLane::kBlock;
    std::int64_t m = b > 0 ? lane.blockPrefixEnd[b - 1] : std::numeric_limits<std::int64_t>::min();
    for (std::size_t j = b * DepthLane::kBlock; j <= k; ++j) {
        const std::uint32_t i = lane.index[j];
        m = std::max(m, slices.start_ns[i] + std::max<std::int64_t>(0, slices.dur_ns[i]));
    }
    return m;
}

LaneSpan laneSpan(const profiler::TrackSlices& slices, const DepthLane& lane, std::int64_t t0, std::int64_t t1)
{
    LaneSpan span;
    // The running max end is non-decreasing: the first position where it passes t0 is the
    // first slice that can overlap the view. Instants exactly at t0 have end == t0, hence >=.
    // Found per block first, then within the block.
    const auto block = static_cast<std::size_t>(
        std::lower_bound(lane.blockPrefixEnd.begin(), lane.blockPrefixEnd.end(), t0) - lane.blockPrefixEnd.begin());
    span.first = lane.index.size();
    if (block < lane.blockPrefixEnd.size()) {
        std::int64_t running = block > 0 ? lane.blockPrefixEnd[block - 1] : std::numeric_limits<std::int64_t>::min();
        const std::size_t stop = std::min(lane.index.size(), (block + 1) * DepthLane::kBlock);
        for (std::size_t k = block * DepthLane::kBlock; k < stop; ++k) {
            const std::uint32_t i = lane.index[k];
            running = std::max(running, slices.start_ns[i] + std::max<std::int64_t>(0, slices.dur_ns[i]));
            if (running >= t0) {
                span.first = k;
                break;
            }
        }
    }
    const auto startOf = [&](std::uint32_t i) { return slices.start_ns[i]; };
    span.last = static_cast<std::size_t>(
        std::lower_bound(lane.index.begin() + static_cast<std::ptrdiff_t>(span.first), lane.index.end(), t1,
                         [&](std::uint32_t i, std::int64_t t) { return startOf(i) < t; }) -
        lane.index.begin());
    return span;
}

int buildDrawItems(const profiler::TrackSlices& slices, const DepthIndex& depths, const LodParams& params,
                   std::vector<DrawItem>& out)
{
    if (params.t1 <= params.t0 || params.widthPx <= 0)
        return 0;
    const double scale = params.widthPx / static_cast<double>(params.t1 - params.t0);
    // Slices far outside the view are clamped so float coordinates stay meaningful.
    const double lo = -2.0;
    const double hi = params.widthPx + 2.0;
    int folds = 0;
    const std::int64_t* start = slices.start_ns.data();
    const std::int64_t* dur = slices.dur_ns.data();

    for (std::size_t d = 0; d < depths.lanes.size(); ++d) {
        const DepthLane& lane = depths.lanes[d];
        const LaneSpan span = laneSpan(slices, lane, params.t0, params.t1);
        bool pending = false;
        DrawItem fold;
        fold.depth = static_cast<std::int32_t>(d);
        const auto flush = [&] {
            if (!pending)
                return;
            if (fold.count > 1)
                ++folds;
            out.push_back(fold);
            pending = false;
        };
        for (std::size_t k = span.first; k < span.last; ++k) {
            if (pending && k % DepthLane::kBlock == 0 && k + DepthLane::kBlock <= span.last) {
                // A block of narrow, touching slices joins the pending fold whole: the
                // same result the slice-by-slice rules below would give.
                const std::size_t b = k / DepthLane::kBlock;
                if (static_cast<double>(lane.blockMaxDur[b]) * scale < params.minWidthPx &&
                    static_cast<double>(lane.blockMaxGap[b]) * scale <= params.mergeGapPx) {
                    const double x1 = std::clamp(static_cast<double>(lane.blockMaxEnd[b] - params.t0) * scale, lo, hi);
                    fold.x1 = std::max(fold.x1, static_cast<float>(x1));
                    fold.count += static_cast<std::uint32_t>(DepthLane::kBlock);
                    k += DepthLane::kBlock - 1;
                    continue;
                }
            }
            const std::uint32_t i = lane.index[k];
            const std::int64_t s = start[i];
            const std::int64_t len = std::max<std::int64_t>(0, dur[i]);
            if (!visibleSlice(s, len, params.t0, params.t1))
                continue;
            const double x0 = std::clamp(static_cast<double>(s - params.t0) * scale, lo, hi);
            const double x1 = std::clamp(static_cast<double>(s + len - params.t0) * scale, lo, hi);
            if (x1 - x0 < params.minWidthPx) {
                if (pending && x0 <= fold.x1 + params.mergeGapPx) {
                    fold.x1 = std::max(fold.x1, static_cast<float>(x1));
                    ++fold.count;
                    continue;
                }
                flush();
                fold.x0 = static_cast<float>(x0);
                fold.x1 = static_cast<float>(x1);
                fold.slice = i;
                fold.count = 1;
                pending = true;
            } else {
                flush();
                out.push_back(DrawItem{static_cast<float>(x0), static_cast<float>(x1), i, 1,
                                       static_cast<std::int32_t>(d)});
            }
        }
        flush();
    }
    return folds;
}

}  // namespace npu::views
