#include "profiler/importers/memory_snapshot/memory_snapshot_replay.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace npu::profiler {

using engine::MemoryCategory;

SnapshotReplay snapshotReplay(const MemorySnapshot& snap, int device) {
    SnapshotReplay out;
    static const std::vector<SnapshotEvent> none;
    const auto& events = device >= 0 && static_cast<std::size_t>(device) < snap.device_traces.size()
                             ? snap.device_traces[static_cast<std::size_t>(device)]
                             : none;
    // What the trace itself did to addresses and segments.
    std::set<std::int64_t> segmentsMade, openAtEnd;
    std::map<std::int64_t, std::int64_t> preFreed;  // blocks live before the trace and freed in it
    {
        std::set<std::int64_t> open;
        for (const auto& e : events) {
            if (e.action == "segment_alloc") segmentsMade.insert(e.addr);
            else if (e.action == "alloc") open.insert(e.addr);
            else if (e.action == "free_completed" && !open.erase(e.addr)) preFreed[e.addr] = e.size;
        }
        openAtEnd = open;
    }
    // Segments reserved before the trace, with the blocks that were live in them then.
    std::unordered_map<std::int64_t, int> seedBuffer;  // address -> buffer
    for (const auto& seg : snap.segments) {
        if (segmentsMade.count(seg.address)) continue;
        SnapshotSeedSegment s{seg.address, seg.total_size, seg.small, {}};
        auto addLive = [&](std::int64_t addr, std::int64_t size) {
            engine::BufferLifetime b;
            b.bytes = size;
            b.category = MemoryCategory::temporaries;
            out.trace.buffers.push_back(b);
            const int id = static_cast<int>(out.trace.buffers.size()) - 1;
            seedBuffer[addr] = id;
            s.live.push_back({id, addr, size});
            out.allocatedAtStart += size;
        };
        for (const auto& b : seg.blocks)
            if (b.state != "inactive" && !openAtEnd.count(b.address)) addLive(b.address, b.size);
        for (const auto& [addr, size] : preFreed)
            if (addr >= seg.address && addr < seg.address + seg.total_size) addLive(addr, size);
        out.reservedAtStart += seg.total_size;
        out.seed.push_back(std::move(s));
    }
    std::unordered_map<std::int64_t, int> open;  // address -> buffer
    std::int64_t allocated = out.allocatedAtStart, reserved = out.reservedAtStart;
    out.measuredAllocatedPeak = allocated;
    out.measuredReservedPeak = reserved;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const SnapshotEvent& e = events[i];
        const std::int64_t t = e.time_us >= 0 ? e.time_us * 1000 : static_cast<std::int64_t>(i) * 1000;
        if (e.action == "alloc") {
            open[e.addr] = out.trace.addAlloc(t, e.size, MemoryCategory::temporaries);
            allocated += e.size;
        } else if (e.action == "free_completed") {
            auto it = open.find(e.addr);
            int buffer = -1;
            if (it != open.end()) {
                buffer = it->second;
                open.erase(it);
            } else if (auto s = seedBuffer.find(e.addr); s != seedBuffer.end()) {
                buffer = s->second;
                seedBuffer.erase(s);
            }
            if (buffer >= 0) out.trace.addFree(t, buffer);
            allocated -= e.size;
        } else if (e.action == "segment_alloc") {
            reserved += e.size;
            out.segmentAllocSizes.push_back(e.size);
        } else if (e.action == "segment_free") {
            reserved -= e.size;
        } else if (e.action == "oom") {
            ++out.ooms;
        }
        out.measuredAllocatedPeak = std::max(out.measuredAllocatedPeak, allocated);
        out.measuredReservedPeak = std::max(out.measuredReservedPeak, reserved);
        out.measured.push_back({t, allocated, reserved, allocated, 0});
    }
    return out;
}

void seedCachingAllocator(engine::CachingAllocator& allocator, const SnapshotReplay& replay) {
    for (const auto& s : replay.seed) allocator.adoptSegment(s.address, s.size, s.small, s.live);
}

}  // namespace npu::profiler
