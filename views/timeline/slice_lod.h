#pragma once
// Level of detail for one track's slices, as plain functions over profiler::TrackSlices
// (no Qt, no database) so the folding rules can be tested by hand.
//
// Slices are split by depth once at load time. Within a depth, a prefix maximum of the
// slice ends lets a binary search find the first slice that can reach into the view,
// exactly, even when one slice is much longer than the others (a step slice covering
// the whole trace would otherwise force a scan from the start).

#include "profiler/store/profile_db.h"

#include <cstdint>
#include <vector>

namespace npu::views {

// One depth's slices: indices into the track's columns (ascending start). Per block of
// kBlock positions, the longest slice, the widest gap to the previous end and the latest
// end let the folding skip a whole block at once when every slice in it is narrow and
// they touch: at full zoom-out that turns a pass over a million slices into one over ~16
// thousand blocks. The running maximum of the ends is kept per block only (blockPrefixEnd)
// and finished within a block on demand (prefixMaxEnd): 8 bytes per slice less, ~80 MB of
// a 10M-slice file.
struct DepthLane {
    static constexpr std::size_t kBlock = 64;
    std::vector<std::uint32_t> index;
    std::vector<std::int64_t> blockMaxDur;
    std::vector<std::int64_t> blockMaxGap;
    std::vector<std::int64_t> blockMaxEnd;
    std::vector<std::int64_t> blockPrefixEnd;  // max end over blocks 0..b
};

// The latest end among the lane's positions 0..k (the running maximum at k).
std::int64_t prefixMaxEnd(const profiler::TrackSlices& slices, const DepthLane& lane, std::size_t k);

struct DepthIndex {
    std::vector<DepthLane> lanes;  // lanes[d] = slices at depth d
};

DepthIndex buildDepthIndex(const profiler::TrackSlices& slices);

// Positions [first, last) in lane.index of the slices that may be visible in [t0, t1):
// every slice before `first` ends at or before t0, every slice from `last` on starts
// at or after t1. Slices inside may still end before t0; visibleSlice() decides.
struct LaneSpan {
    std::size_t first = 0;
    std::size_t last = 0;
};
LaneSpan laneSpan(const profiler::TrackSlices& slices, const DepthLane& lane, std::int64_t t0, std::int64_t t1);

// Whether [start, start+dur) touches [t0, t1); an instant (dur 0) counts when t0 <= start < t1.
inline bool visibleSlice(std::int64_t start, std::int64_t dur, std::int64_t t0, std::int64_t t1)
{
    return start < t1 && (start + dur > t0 || start >= t0);
}

// A rectangle to draw: a single slice (count == 1) or a folded run of narrow slices.
struct DrawItem {
    float x0 = 0;
    float x1 = 0;
    std::uint32_t slice = 0;  // index in the track's columns; the first slice of a fold
    std::uint32_t count = 1;
    std::int32_t depth = 0;
};

struct LodParams {
    std::int64_t t0 = 0;
    std::int64_t t1 = 1;
    double widthPx = 1;          // pixels across [t0, t1)
    double minWidthPx = 3;       // slices narrower than this fold with their narrow neighbours
    double mergeGapPx = 1;       // narrow slices closer than this join the same fold
};

// Appends the track's draw items to `out` (not cleared, so callers reuse one buffer per
// frame). Items come lane by lane, in start order within a lane. Returns the number of
// folded blocks (items with count > 1) appended.
int buildDrawItems(const profiler::TrackSlices& slices, const DepthIndex& depths, const LodParams& params,
                   std::vector<DrawItem>& out);

}  // namespace npu::views
