#pragma once
// Imports a PyTorch memory snapshot (memory_snapshot_reader.h) as a run: per device the
// measured "Total Allocated" / "Total Reserved" after every allocator event, every block
// from its alloc to its free_completed on a "Memory blocks" track and every segment on
// a "Memory segments" track (args carry addr and size, for the memory map), and the
// engine's caching-allocator model replayed over the same requests as a
// "Caching allocator model: reserved" counter beside the measurement.

#include "engine/core/expected.h"
#include "engine/core/progress.h"
#include "profiler/importers/trace_importer.h"

#include <filesystem>

namespace npu::profiler {

class TraceSink;
struct MemorySnapshot;

Expected<ImportSummary> importMemorySnapshot(const std::filesystem::path& file, const std::filesystem::path& outDb,
                                             const Progress& progress = {});

// Emits the snapshot into any sink (tests use an in-memory one).
ImportSummary emitMemorySnapshot(const MemorySnapshot& snapshot, TraceSink& sink);

}  // namespace npu::profiler
