#pragma once
// Selection-range aggregation for the timeline: per slice name within [t0, t1) on the
// chosen tracks, the count, the total time clipped to the range, the self time (clipped
// time minus the clipped time of its children one level deeper) and shares, with the
// average, shortest and longest whole duration (Perfetto's area-selection aggregates).

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct RangeAggregateRow {
    std::string name;
    std::int64_t count = 0;
    std::int64_t total_ns = 0;   // clipped to the range
    std::int64_t self_ns = 0;    // total minus children at depth + 1
    double share = 0;            // self / sum of all rows' self: nested time counted once, sums to 1
    double range_fraction = 0;   // total / (t1 - t0): how much of the range this name covers per track
    // Whole durations of the overlapping slices (not clipped): what one call takes.
    std::int64_t dur_sum_ns = 0;
    std::int64_t min_ns = 0;
    std::int64_t max_ns = 0;
    std::int64_t average_ns() const { return count > 0 ? dur_sum_ns / count : 0; }
};

struct RangeAggregation {
    std::vector<RangeAggregateRow> rows;  // sorted by total descending
    std::int64_t t0 = 0, t1 = 0;
    std::int64_t slices = 0;
};

// Slices overlapping [t0, t1) on `tracks` (all tracks with slices when empty).
RangeAggregation aggregateRange(const ProfileDb& db, const std::vector<std::int64_t>& tracks, std::int64_t t0,
                                std::int64_t t1);

}  // namespace npu::profiler
