#pragma once
// A window of one track's slices: those overlapping [t0, t1), read by range queries on
// the covering TASK(track_id, start_ns, ...) index instead of the whole track, so what a
// viewer holds depends on what it shows, not on the file's size (issue 12).
//
// Slices that start before t0 and reach into it (a step slice over the whole trace) are
// found through the track's density summary (track_summary.h): only the buckets whose
// latest end passes t0 are scanned for them, so a long slice at the start of the trace
// does not turn the query into a scan of everything before the window.

#include "profiler/store/profile_db.h"
#include "profiler/store/track_summary.h"

#include <cstdint>

namespace npu::profiler {

struct DensityGrid {
    std::int64_t t0 = 0;        // TrackSummaries::t0
    std::int64_t bucketNs = 1;  // TrackSummaries::bucketNs
    int bucketOf(std::int64_t t) const;  // clamped to [0, kDensityBuckets)
    std::int64_t bucketStart(int b) const { return t0 + static_cast<std::int64_t>(b) * bucketNs; }
};

// How many of the track's slices start in the buckets overlapping [t0, t1): an upper
// bound on the window's size (plus the few long slices reaching in), cheap enough to ask
// before every load.
std::int64_t estimateWindowSlices(const TrackSummary& summary, const DensityGrid& grid, std::int64_t t0,
                                  std::int64_t t1);

// The track's slices overlapping [t0, t1) (an instant at t0 counts), sorted by start then
// depth like ProfileDb::trackSlices.
TrackSlices trackSlicesInWindow(const ProfileDb& db, const TrackSummary& summary, const DensityGrid& grid,
                                std::int64_t t0, std::int64_t t1);

}  // namespace npu::profiler
