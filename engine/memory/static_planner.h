#pragma once
// Ahead-of-time offset assignment for a whole step, the "greedy by size" best-fit planner
// of the TFLite arena planner and XLA's heap simulator: buffers are placed largest first,
// each at the smallest gap between already-placed buffers whose lifetimes overlap it
// (the lowest offset on ties), or above them all. Knows every lifetime in advance, so
// its peak (the arena size) is what a static allocator would need; the gap to the live
// bytes peak is the fragmentation no dynamic allocator can avoid with these sizes.

#include "engine/memory/device_allocator.h"

#include <cstdint>

namespace npu::engine {

struct StaticPlan {
    std::int64_t planned_peak = 0;               // arena size
    std::vector<std::int64_t> offsets;           // per AllocationTrace buffer
    std::int64_t alignment = 512;
};

StaticPlan planStatic(const AllocationTrace& trace, std::int64_t alignment = 512);

// The plan as an allocator run (one segment = the arena), for the memory map and the
// allocator comparison.
AllocatorRun staticRun(const AllocationTrace& trace, const StaticPlan& plan);

}  // namespace npu::engine
