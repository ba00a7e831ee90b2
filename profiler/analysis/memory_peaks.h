#pragma once
// Peak memory per device from its memory counter tracks: "Total Allocated" /
// "Total Reserved" (Kineto [memory] events, as the importer names them) and the
// simulator's "Memory (live bytes)" (allocated; a simulation has no caching allocator,
// so it reports no reserved track).

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct MemoryPeak {
    std::int64_t device = 0;
    std::string deviceName;
    double peak_allocated_bytes = 0;
    double peak_reserved_bytes = 0;
    std::int64_t peak_allocated_ts_ns = 0;
    bool hasAllocated = false;
    bool hasReserved = false;
};

// One entry per device that has a memory track, in device order.
std::vector<MemoryPeak> computeMemoryPeaks(const ProfileDb& db);

}  // namespace npu::profiler
