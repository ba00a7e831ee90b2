#pragma once
// The whole run's device activity as a density strip (the timeline's overview lane, as
// Perfetto's): each bucket's busy time summed over the device streams (a CPU-only profile:
// its threads), read from the stored track summaries (TRACK_DENSITY, no slice read), and
// scaled so the busiest bucket is 1.

#include <cstdint>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct RunDensity {
    std::vector<double> buckets;  // 0..1 across [t0, t1]; empty: no summaries or no busy time
    std::int64_t t0 = 0, t1 = 0;  // database time
};

RunDensity deviceDensity(const ProfileDb& db);

}  // namespace npu::profiler
