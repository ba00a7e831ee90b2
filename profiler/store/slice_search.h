#pragma once
// Slices by name or category id, found in the database rather than in memory: what the
// timeline's search and drill-downs read when a large file's slices are windowed
// (issue 12). One pass over the covering TASK(track_id, start_ns, ..., name_id,
// category_id) index (the planner picks it: it is narrower than the table), filtered
// inside SQLite; at most `limit` rows, the earliest.

#include <cstdint>
#include <limits>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct SliceHit {
    std::int64_t id = 0;
    std::int64_t track = 0;
    std::int64_t start_ns = 0;
    std::int64_t dur_ns = 0;
};

struct SliceFilter {
    std::vector<std::int32_t> stringIds;  // name ids, or category ids with byCategory
    bool byCategory = false;
    // Overlapping [t0, t1) as the range aggregation counts it (start < t1, end > t0; the
    // whole trace by default), on these tracks (all when empty).
    std::int64_t t0 = std::numeric_limits<std::int64_t>::min();
    std::int64_t t1 = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> tracks;
};

// Ordered by start, then track id. Empty stringIds: no rows.
std::vector<SliceHit> findSlices(const ProfileDb& db, const SliceFilter& filter, std::size_t limit);

}  // namespace npu::profiler
