#pragma once
// Half-open time intervals [start, end) in ns and the set operations the device metrics
// and step breakdown are made of (union, intersection, clipping).

#include <cstdint>
#include <vector>

namespace npu::profiler {

struct Interval {
    std::int64_t start = 0;
    std::int64_t end = 0;
};

// Sorted, disjoint, non-empty intervals covering the same time as `v`.
std::vector<Interval> mergeIntervals(std::vector<Interval> v);
std::int64_t totalLength(const std::vector<Interval>& merged);
// Time covered by both; inputs must be merged.
std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b);
// The parts of `v` inside [lo, hi); empty intervals are dropped.
std::vector<Interval> clipIntervals(const std::vector<Interval>& v, std::int64_t lo, std::int64_t hi);

}  // namespace npu::profiler
