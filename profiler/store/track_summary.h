#pragma once
// Per-track summaries written at import (schema version 6, docs/npudb-schema.md): each
// slice track's count, nesting depth, extent and longest slice (TRACK_SUMMARY), and its
// busy time in kDensityBuckets equal buckets across the trace, per depth (TRACK_DENSITY).
// The timeline lays out and paints a track from them before its slices are read, so a
// 10M-slice file shows its shape in the first frame, as Perfetto's precomputed track
// summaries do. Older files get them computed once, by the 5 -> 6 migration.

#include "base/expected.h"

#include <cstdint>
#include <vector>

struct sqlite3;

namespace npu::profiler {

class ProfileDb;

// Buckets across [time_min_ns, time_max_ns]: ~1 per pixel of a full-width timeline, so
// the zoomed-out first frame looks like the loaded one; 1024 x depths rows per track.
inline constexpr int kDensityBuckets = 1024;

struct DensityCell {
    std::int32_t depth = 0;
    std::int32_t bucket = 0;
    std::int64_t count = 0;   // slices starting in the bucket
    std::int64_t busyNs = 0;  // their summed durations
    std::int64_t endNs = 0;   // the latest end among them (a long slice reaches past its bucket)
};

struct TrackSummary {
    std::int64_t track = 0;
    std::int64_t sliceCount = 0;
    int maxDepth = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t maxDurNs = 0;
    std::vector<DensityCell> cells;  // non-empty buckets, by depth then bucket
};

struct TrackSummaries {
    bool present = false;  // false: a version-5 file opened read-only (no summary tables)
    std::int64_t t0 = 0;   // bucket b covers [t0 + b * bucketNs, t0 + (b + 1) * bucketNs)
    std::int64_t bucketNs = 1;
    std::vector<TrackSummary> tracks;  // slice tracks with at least one slice, by track id
};

// Creates the tables if needed and fills them from TASK in one pass over the covering
// (track, start) index; [t0, t1] is the trace's extent. Runs inside the caller's transaction.
Status writeTrackSummaries(sqlite3* db, std::int64_t t0, std::int64_t t1);

TrackSummaries readTrackSummaries(const ProfileDb& db);

}  // namespace npu::profiler
