#include "profiler/importers/memory_snapshot/memory_snapshot_map.h"

#include <unordered_map>

namespace npu::profiler {

MemoryMapData snapshotMemoryMap(const MemorySnapshot& snap, const SnapshotReplay& replay, int device) {
    MemoryMapData out;
    static const std::vector<SnapshotEvent> kNone;
    const auto& events = device < static_cast<int>(snap.device_traces.size()) ? snap.device_traces[static_cast<std::size_t>(device)] : kNone;
    auto timeOf = [&](std::size_t i) {
        return events[i].time_us >= 0 ? events[i].time_us * 1000 : static_cast<std::int64_t>(i) * 1000;
    };
    const std::int64_t start = events.empty() ? 0 : timeOf(0);
    // Open blocks and segments by address: index into out.blocks / out.segments.
    std::unordered_map<std::int64_t, std::size_t> openBlock, openSegment;
    for (const auto& seg : replay.seed) {
        openSegment[seg.address] = out.segments.size();
        out.segments.push_back({seg.address, seg.size, start, -1, seg.small ? "small" : "large"});
        for (const auto& b : seg.live) {
            openBlock[b.addr] = out.blocks.size();
            out.blocks.push_back({b.addr, b.size, start, -1, "", "live when the trace began", ""});
        }
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
        const SnapshotEvent& e = events[i];
        const std::int64_t t = timeOf(i);
        if (e.action == "alloc") {
            openBlock[e.addr] = out.blocks.size();
            out.blocks.push_back({e.addr, e.size, t, -1, "", "", ""});
        } else if (e.action == "free_completed") {
            if (auto it = openBlock.find(e.addr); it != openBlock.end()) {
                out.blocks[it->second].free_ns = t;
                openBlock.erase(it);
            }
        } else if (e.action == "segment_alloc") {
            openSegment[e.addr] = out.segments.size();
            out.segments.push_back({e.addr, e.size, t, -1, ""});
        } else if (e.action == "segment_free") {
            if (auto it = openSegment.find(e.addr); it != openSegment.end()) {
                out.segments[it->second].free_ns = t;
                openSegment.erase(it);
            }
        }
    }
    return out;
}

}  // namespace npu::profiler
