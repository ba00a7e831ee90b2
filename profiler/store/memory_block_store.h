#pragma once
// The memory map's data, stored with a run (MEMORY_BLOCK, MEMORY_SEGMENT; schema 4,
// docs/npudb-schema.md): every block the allocator handed out with its address and
// lifetime, and the segments it reserved from the device. Written for simulated runs
// (the chosen allocator's replay, engine/memory) and imported memory snapshots (the
// real addresses of the snapshot's trace).

#include "base/expected.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <string>
#include <vector>

struct sqlite3;

namespace npu::profiler {

class ProfileDb;

struct MemoryBlockRow {
    std::int64_t addr = 0;
    std::int64_t size = 0;
    std::int64_t alloc_ns = 0;
    std::int64_t free_ns = -1;  // -1: live at the end
    std::string category;       // weights, gradients, activations, ... ("" when unknown)
    std::string name;
    std::string producer;
};

struct MemorySegmentRow {
    std::int64_t addr = 0;
    std::int64_t size = 0;
    std::int64_t alloc_ns = 0;
    std::int64_t free_ns = -1;
    std::string pool;           // small | large | "" (one pool)
};

struct MemoryMapData {
    std::vector<MemoryBlockRow> blocks;
    std::vector<MemorySegmentRow> segments;
    bool empty() const { return blocks.empty() && segments.empty(); }
};

// Inside the writer's open transaction. A simulation writer adds the run's devices in
// result order from id 0 (emitSimulation), so device i's blocks go under id i.
Status writeMemoryMap(sqlite3* db, std::int64_t deviceId, const MemoryMapData& data);
Status writeSimulationMemoryMaps(sqlite3* db, const engine::SimulationResult& result);

// Empty for runs without blocks (traces, files written before schema 4).
MemoryMapData readMemoryMap(const ProfileDb& db, std::int64_t deviceId);
// Devices that have blocks, in id order.
std::vector<std::int64_t> memoryMapDevices(const ProfileDb& db);

}  // namespace npu::profiler
