#pragma once
// Reads PyTorch's memory snapshot (torch.cuda.memory._snapshot(), saved as JSON, .json or
// .json.gz): the caching allocator's segments with their blocks at the moment of the
// snapshot, and its event trace (device_traces: one list per device; older and
// hand-converted files have one flat "trace" list). Trace entries carry action, addr,
// size and, when recorded, time_us and stream.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace npu::profiler {

struct SnapshotBlock {
    std::int64_t address = 0;
    std::int64_t size = 0;
    std::string state;           // active_allocated | active_pending_free | inactive
};

struct SnapshotSegment {
    std::int64_t address = 0;
    std::int64_t total_size = 0;
    std::int64_t allocated_size = 0;
    std::int64_t stream = 0;
    bool small = false;          // segment_type "small"
    std::vector<SnapshotBlock> blocks;  // addresses derived from the segment's and the sizes before
};

struct SnapshotEvent {
    std::string action;          // alloc | free_requested | free_completed | segment_alloc | segment_free | oom | ...
    std::int64_t addr = 0;
    std::int64_t size = 0;
    std::int64_t time_us = -1;   // -1 when the trace has no times
    std::int64_t stream = 0;
};

struct MemorySnapshot {
    std::vector<SnapshotSegment> segments;
    std::vector<std::vector<SnapshotEvent>> device_traces;  // per device
};

Expected<MemorySnapshot> parseMemorySnapshot(const nlohmann::json& doc, const std::string& fileForMessages);
Expected<MemorySnapshot> readMemorySnapshot(const std::filesystem::path& file);

// True when the JSON file's top level has "segments" and "device_traces" or "trace"
// (reads only the first bytes).
bool looksLikeMemorySnapshot(const std::filesystem::path& file);

}  // namespace npu::profiler
