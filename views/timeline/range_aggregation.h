#pragma once
// Per-name statistics over a time range of the loaded timeline (the selection-range
// table): how many slices overlap it, their time inside it, their self time inside it
// (minus their direct children's), and each name's share of all self time in the range,
// so the shares sum to 100 %. Plain C++ over TimelineData; a candidate for
// profiler/analysis once it is needed outside the GUI.

#include "views/timeline/timeline_data.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::views {

struct RangeStat {
    std::int32_t nameId = -1;
    std::string name;
    std::int64_t count = 0;
    std::int64_t totalNs = 0;  // clipped to the range
    std::int64_t selfNs = 0;
    double share = 0;  // selfNs / sum of selfNs, 0..1
};

// Sorted by total time, longest first. Times in database nanoseconds.
std::vector<RangeStat> aggregateRange(const TimelineData& data, std::int64_t t0, std::int64_t t1);

}  // namespace npu::views
