#pragma once
// Memory of one simulated run, from the live-memory events of trackMemory: the lower
// bound (peak live bytes), the static greedy-by-size plan and its fragmentation, the
// chosen dynamic allocator replayed request by request (its series, blocks and
// segments feed the Memory tab and the memory map), the other allocators' figures for
// comparison, the breakdown by category at the peak, and, when the chosen allocator
// runs out of the capacity, the failing op and the largest live tensors.

#include "engine/ir/graph.h"
#include "engine/memory/buddy_allocator.h"
#include "engine/memory/caching_allocator.h"
#include "engine/memory/device_allocator.h"
#include "engine/result/memory_summary.h"

#include <string>
#include <vector>

namespace npu::engine {

struct MemoryOptions {
    std::string allocator = "caching";     // caching | buddy | static
    CachingAllocatorOptions caching;
    BuddyAllocatorOptions buddy;
    bool compareAllocators = true;         // also replay the other two for the report
    bool figuresOfNeed = true;             // out of memory: figures from an uncapped replay (memory_analysis.cpp)
    int zeroStage = 0;                     // ZeRO stage of one data-parallel rank (zero_sharding.h)
    int dataParallel = 1;
};

struct MemoryAnalysis {
    MemorySummary summary;
    AllocatorRun run;                      // the chosen allocator
    std::int64_t allocatedPeak = 0;        // what max_memory_allocated would report
};

// capacity: device memory available to the allocator (bytes).
MemoryAnalysis analyseMemory(const Graph& graph, const std::vector<MemoryEvent>& events, std::int64_t capacity,
                             const MemoryOptions& options);

// Analysis of a trace without a graph (imported snapshots): categories come from the trace.
MemoryAnalysis analyseTrace(const AllocationTrace& trace, std::int64_t capacity, const MemoryOptions& options);

}  // namespace npu::engine
