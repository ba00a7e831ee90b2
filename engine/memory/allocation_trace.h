#pragma once
// The step's memory as an allocator sees it: an ordered list of malloc/free requests
// (one buffer per storage root, in the order the simulated program issues them), plus
// each buffer's lifetime. Built from the live-memory events of trackMemory (frees at an
// instant come before allocations at that instant), or from an imported PyTorch memory
// snapshot. Every allocator and planner in engine/memory consumes this one form.

#include "engine/memory/memory_category.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <vector>

namespace npu::engine {

struct AllocRequest {
    std::int64_t t_ns = 0;
    bool alloc = true;            // false: free of buffer `buffer`
    int buffer = -1;              // index into AllocationTrace::buffers
};

struct BufferLifetime {
    int tensor = -1;              // tensor id in the simulated graph (-1 for imported blocks)
    std::int64_t bytes = 0;       // requested size
    MemoryCategory category = MemoryCategory::temporaries;
    std::int64_t alloc_ns = 0;
    std::int64_t free_ns = -1;    // -1: still live at the end of the trace
    int alloc_seq = 0;            // position of the malloc in AllocationTrace::requests
    int free_seq = -1;            // position of the free, -1 if never freed
};

struct AllocationTrace {
    std::vector<AllocRequest> requests;
    std::vector<BufferLifetime> buffers;
    std::int64_t end_ns = 0;

    int addAlloc(std::int64_t t_ns, std::int64_t bytes, MemoryCategory category, int tensor = -1);
    void addFree(std::int64_t t_ns, int buffer);
};

// categories: one per tensor id (memoryCategories(graph)).
AllocationTrace allocationTrace(const std::vector<MemoryEvent>& events, const std::vector<MemoryCategory>& categories);

// Peak of live requested bytes over the trace: no allocator can do with less.
struct LiveBytesPeak {
    std::int64_t bytes = 0;
    int seq = -1;                 // request index at which the peak is reached
};
LiveBytesPeak liveBytesPeak(const AllocationTrace& trace);

}  // namespace npu::engine
