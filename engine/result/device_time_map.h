#pragma once
// A device's memory record moved along a time map, as its tasks were moved: the layouts
// that place a simulated run's pieces on a rank's timeline (PPO's ranks and pipeline
// stages, paced what-ifs) move its memory events, allocator samples, blocks and segments
// the same way. A block or segment still live at the end (free -1) stays so.

#include "engine/result/simulation_result.h"

namespace npu::engine {

template <typename TimeMap>
void remapMemoryTimes(DeviceResult& d, const TimeMap& map) {
    for (MemoryEvent& e : d.memory) e.t_ns = map(e.t_ns);
    for (AllocatorSample& s : d.allocator_samples) s.t_ns = map(s.t_ns);
    for (PlacedBlock& b : d.memory_blocks) {
        b.alloc_ns = map(b.alloc_ns);
        if (b.free_ns >= 0) b.free_ns = map(b.free_ns);
    }
    for (SegmentSpan& s : d.memory_segments) {
        s.alloc_ns = map(s.alloc_ns);
        if (s.free_ns >= 0) s.free_ns = map(s.free_ns);
    }
}

}  // namespace npu::engine
