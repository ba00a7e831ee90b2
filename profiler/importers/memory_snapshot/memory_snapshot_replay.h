#pragma once
// A memory snapshot's trace as the engine's allocators consume it: the malloc/free
// requests of one device (alloc and free_completed; a block is reusable only once its
// free completed), the state the allocator was in when the trace began (segments
// reserved earlier and the blocks live in them, reconstructed from the final segments
// minus what the trace did), and the measured allocated/reserved after every event, so
// engine::CachingAllocator can be replayed over the same requests and compared.
// Traces without time_us get one microsecond per event (an ordinal time axis).

#include "engine/memory/allocation_trace.h"
#include "engine/memory/caching_allocator.h"
#include "engine/result/memory_summary.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_reader.h"

#include <cstdint>
#include <vector>

namespace npu::profiler {

struct SnapshotSeedSegment {
    std::int64_t address = 0;
    std::int64_t size = 0;
    bool small = false;
    std::vector<engine::CachingAllocator::LiveBlock> live;  // buffers index the replay trace
};

struct SnapshotReplay {
    engine::AllocationTrace trace;
    std::vector<SnapshotSeedSegment> seed;
    std::vector<engine::AllocatorSample> measured;     // after every trace event
    std::vector<std::int64_t> segmentAllocSizes;      // in trace order
    std::int64_t allocatedAtStart = 0;
    std::int64_t reservedAtStart = 0;
    std::int64_t measuredAllocatedPeak = 0;
    std::int64_t measuredReservedPeak = 0;
    int ooms = 0;
};

SnapshotReplay snapshotReplay(const MemorySnapshot& snapshot, int device = 0);

// A caching allocator in the state the trace began with.
void seedCachingAllocator(engine::CachingAllocator& allocator, const SnapshotReplay& replay);

}  // namespace npu::profiler
