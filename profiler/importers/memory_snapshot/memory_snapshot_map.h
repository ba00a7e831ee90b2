#pragma once
// The memory map of an imported memory snapshot: the blocks and segments at their real
// addresses over the trace's time. Blocks live when the trace began (the replay's seed)
// start at the first event; a block ends at its free_completed (a freed block is not
// reusable before), a segment at its segment_free; what is still held at the end has
// free_ns -1. Times as the replay counts them (time_us, else one microsecond per event).

#include "profiler/importers/memory_snapshot/memory_snapshot_replay.h"
#include "profiler/store/memory_block_store.h"

namespace npu::profiler {

MemoryMapData snapshotMemoryMap(const MemorySnapshot& snap, const SnapshotReplay& replay, int device);

}  // namespace npu::profiler
