#include "profiler/importers/memory_snapshot_importer.h"

#include "engine/memory/device_allocator.h"
#include "profiler/importers/memory_snapshot_replay.h"
#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <unordered_map>

namespace npu::profiler {

namespace {

std::string blockArgs(std::int64_t addr, std::int64_t size) {
    return nlohmann::json{{"addr", addr}, {"size", size}}.dump();
}

}  // namespace

ImportSummary emitMemorySnapshot(const MemorySnapshot& snap, TraceSink& sink) {
    ImportSummary summary;
    sink.setMeta("source", "memory_snapshot");
    for (std::size_t d = 0; d < std::max<std::size_t>(1, snap.device_traces.size()); ++d) {
        const SnapshotReplay replay = snapshotReplay(snap, static_cast<int>(d));
        const auto device = sink.addDevice("gpu" + std::to_string(d), "gpu");
        ++summary.devices;
        const auto allocated = sink.addTrack(device, -1, TrackKind::counter, "Total Allocated", 100);
        const auto reserved = sink.addTrack(device, -1, TrackKind::counter, "Total Reserved", 101);
        const auto model = sink.addTrack(device, -1, TrackKind::counter, "Caching allocator model: reserved", 102);
        const auto blocks = sink.addTrack(device, -1, TrackKind::other, "Memory blocks", 103);
        const auto segments = sink.addTrack(device, -1, TrackKind::other, "Memory segments", 104);
        for (const auto& s : replay.measured) {
            sink.addCounter(allocated, s.t_ns, static_cast<double>(s.allocated));
            sink.addCounter(reserved, s.t_ns, static_cast<double>(s.reserved));
            summary.counters += 2;
        }
        const std::int64_t end = replay.measured.empty() ? 0 : replay.measured.back().t_ns + 1000;
        // Blocks and segments at their real addresses, from the trace's own events.
        static const std::vector<SnapshotEvent> none;
        const auto& events = d < snap.device_traces.size() ? snap.device_traces[d] : none;
        std::unordered_map<std::int64_t, std::pair<std::int64_t, std::int64_t>> openBlock, openSegment;  // addr -> (t, size)
        for (const auto& seg : replay.seed) {
            openSegment[seg.address] = {0, seg.size};
            for (const auto& b : seg.live) openBlock[b.addr] = {0, b.size};
        }
        for (std::size_t i = 0; i < events.size(); ++i) {
            const SnapshotEvent& e = events[i];
            ++summary.events;
            const std::int64_t t = e.time_us >= 0 ? e.time_us * 1000 : static_cast<std::int64_t>(i) * 1000;
            if (e.action == "alloc") {
                openBlock[e.addr] = {t, e.size};
            } else if (e.action == "free_completed" || e.action == "segment_free") {
                auto& open = e.action == "free_completed" ? openBlock : openSegment;
                auto it = open.find(e.addr);
                if (it == open.end()) continue;
                sink.addSlice(e.action == "free_completed" ? blocks : segments, it->second.first, t - it->second.first, 0,
                              e.action == "free_completed" ? "block" : "segment", "memory",
                              blockArgs(e.addr, it->second.second));
                ++summary.slices;
                open.erase(it);
            } else if (e.action == "segment_alloc") {
                openSegment[e.addr] = {t, e.size};
            }
        }
        for (const auto& [addr, ts] : openBlock) {
            sink.addSlice(blocks, ts.first, end - ts.first, 0, "block", "memory", blockArgs(addr, ts.second));
            ++summary.slices;
        }
        for (const auto& [addr, ts] : openSegment) {
            sink.addSlice(segments, ts.first, end - ts.first, 0, "segment", "memory", blockArgs(addr, ts.second));
            ++summary.slices;
        }
        // The engine's model of the same allocator over the same requests.
        engine::CachingAllocator cache;
        seedCachingAllocator(cache, replay);
        const engine::AllocatorRun run = engine::replay(replay.trace, cache);
        for (const auto& s : run.samples) sink.addCounter(model, s.t_ns, static_cast<double>(s.reserved));
        summary.counters += static_cast<std::int64_t>(run.samples.size());
        if (replay.ooms > 0) sink.addDiagnostic("memory_snapshot_oom", Severity::warning, replay.ooms, "allocator reported out of memory");
    }
    return summary;
}

Expected<ImportSummary> importMemorySnapshot(const std::filesystem::path& file, const std::filesystem::path& outDb,
                                             const Progress& progress) {
    const auto started = std::chrono::steady_clock::now();
    progress(0.0, "reading memory snapshot");
    auto snap = readMemorySnapshot(file);
    if (!snap) return snap.error();
    auto writer = ProfileDbWriter::create(outDb);
    if (!writer) return writer.error();
    progress(0.3, "storing allocator events");
    ImportSummary summary = emitMemorySnapshot(*snap, **writer);
    progress(0.9, "building indexes");
    if (auto s = (*writer)->commit(); !s) return s.error();
    summary.db = outDb;
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress(1.0, "import done");
    return summary;
}

}  // namespace npu::profiler
