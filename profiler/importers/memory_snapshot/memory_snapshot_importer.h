#pragma once
// Imports a PyTorch memory snapshot (memory_snapshot_reader.h) as a run: per device the
// measured "Total Allocated" / "Total Reserved" after every allocator event (the names
// Kineto's [memory] counters have, so the same memory views and peaks apply), and the
// engine's caching-allocator model replayed over the same requests as a
// "Caching allocator model: reserved" counter beside the measurement. Blocks with their
// addresses (for a memory map) are not stored yet.

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/common/import_summary.h"

#include <filesystem>
#include <vector>

namespace npu::profiler {

class TraceSink;
struct MemorySnapshot;
struct SnapshotReplay;

Expected<ImportSummary> importMemorySnapshot(const std::filesystem::path& file, const std::filesystem::path& outDb,
                                             const Progress& progress = {});

// Emits the snapshot into any sink (tests use an in-memory one): device d's counters from
// replays[d] (snapshotReplay of that device; one per device trace, at least one).
ImportSummary emitMemorySnapshot(const MemorySnapshot& snapshot, const std::vector<SnapshotReplay>& replays, TraceSink& sink);

}  // namespace npu::profiler
