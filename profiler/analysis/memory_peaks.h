#pragma once
// Peak memory per device from its allocated and reserved memory counter tracks (which
// tracks those are: memory_counter.h; the highest of a device's tracks of each kind).

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
