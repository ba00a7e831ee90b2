#include "profiler/importers/memory_snapshot/memory_snapshot_importer.h"

#include "engine/memory/device_allocator.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_map.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_replay.h"
#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace npu::profiler {

ImportSummary emitMemorySnapshot(const MemorySnapshot& snap, const std::vector<SnapshotReplay>& replays, TraceSink& sink) {
    ImportSummary summary;
    sink.setMeta("source", "memory_snapshot");
    for (std::size_t d = 0; d < replays.size(); ++d) {
        const SnapshotReplay& replay = replays[d];
        const auto device = sink.addDevice("gpu" + std::to_string(d), "gpu");
        ++summary.devices;
        const auto allocated = sink.addTrack(device, -1, TrackKind::counter, "Total Allocated", 100);
        const auto reserved = sink.addTrack(device, -1, TrackKind::counter, "Total Reserved", 101);
        const auto model = sink.addTrack(device, -1, TrackKind::counter, "Caching allocator model: reserved", 102);
        for (const auto& s : replay.measured) {
            sink.addCounter(allocated, s.t_ns, static_cast<double>(s.allocated));
            sink.addCounter(reserved, s.t_ns, static_cast<double>(s.reserved));
            summary.counters += 2;
        }
        summary.events += static_cast<std::int64_t>(d < snap.device_traces.size() ? snap.device_traces[d].size() : 0);
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
    // One replay per device, read by both the counters and the memory map.
    std::vector<SnapshotReplay> replays;
    for (std::size_t d = 0; d < std::max<std::size_t>(1, snap->device_traces.size()); ++d)
        replays.push_back(snapshotReplay(*snap, static_cast<int>(d)));
    ImportSummary summary = emitMemorySnapshot(*snap, replays, **writer);
    // emitMemorySnapshot adds device d as id d (a fresh writer numbers devices from 0).
    for (std::size_t d = 0; d < replays.size(); ++d)
        if (auto s = writeMemoryMap((*writer)->handle(), static_cast<std::int64_t>(d),
                                    snapshotMemoryMap(*snap, replays[d], static_cast<int>(d)));
            !s)
            return makeError(outDb.string() + ": " + s.message());
    progress(0.9, "building indexes");
    if (auto s = (*writer)->commit(); !s) return s.error();
    summary.db = outDb;
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress(1.0, "import done");
    return summary;
}

}  // namespace npu::profiler
