#include "profiler/store/memory_block_store.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

namespace npu::profiler {

Status writeMemoryMap(sqlite3* db, std::int64_t deviceId, const MemoryMapData& data) {
    SqliteStatement block(db, "INSERT INTO MEMORY_BLOCK(device_id, addr, size, alloc_ns, free_ns, category, name, producer) "
                              "VALUES(?,?,?,?,?,?,?,?)");
    SqliteStatement segment(db, "INSERT INTO MEMORY_SEGMENT(device_id, addr, size, alloc_ns, free_ns, pool) VALUES(?,?,?,?,?,?)");
    if (!block.valid() || !segment.valid()) return makeError(std::string("MEMORY_BLOCK: ") + sqlite3_errmsg(db));
    for (const auto& b : data.blocks)
        if (block.execRow(deviceId, b.addr, b.size, b.alloc_ns, b.free_ns, std::string_view(b.category), std::string_view(b.name),
                          std::string_view(b.producer)) != SQLITE_DONE)
            return makeError(std::string("MEMORY_BLOCK: ") + sqlite3_errmsg(db));
    for (const auto& s : data.segments)
        if (segment.execRow(deviceId, s.addr, s.size, s.alloc_ns, s.free_ns, std::string_view(s.pool)) != SQLITE_DONE)
            return makeError(std::string("MEMORY_SEGMENT: ") + sqlite3_errmsg(db));
    return {};
}

Status writeSimulationMemoryMaps(sqlite3* db, const engine::SimulationResult& result) {
    for (std::size_t i = 0; i < result.devices.size(); ++i) {
        const auto& dev = result.devices[i];
        MemoryMapData data;
        data.blocks.reserve(dev.memory_blocks.size());
        for (const auto& b : dev.memory_blocks)
            data.blocks.push_back({b.addr, b.size, b.alloc_ns, b.free_ns, b.category, b.name, b.producer});
        for (const auto& s : dev.memory_segments)
            data.segments.push_back({s.addr, s.size, s.alloc_ns, s.free_ns, s.small ? "small" : "large"});
        if (auto st = writeMemoryMap(db, static_cast<std::int64_t>(i), data); !st) return st;
    }
    return {};
}

MemoryMapData readMemoryMap(const ProfileDb& db, std::int64_t deviceId) {
    MemoryMapData out;
    SqliteStatement blocks(db.handle(), "SELECT addr, size, alloc_ns, free_ns, category, name, producer FROM MEMORY_BLOCK "
                                        "WHERE device_id = ? ORDER BY alloc_ns, addr");
    if (blocks.valid()) {
        blocks.bind(1, deviceId);
        while (blocks.step() == SQLITE_ROW)
            out.blocks.push_back({blocks.int64(0), blocks.int64(1), blocks.int64(2), blocks.int64(3), blocks.text(4),
                                  blocks.text(5), blocks.text(6)});
    }
    SqliteStatement segments(db.handle(), "SELECT addr, size, alloc_ns, free_ns, pool FROM MEMORY_SEGMENT WHERE device_id = ? "
                                          "ORDER BY addr, alloc_ns");
    if (segments.valid()) {
        segments.bind(1, deviceId);
        while (segments.step() == SQLITE_ROW)
            out.segments.push_back({segments.int64(0), segments.int64(1), segments.int64(2), segments.int64(3), segments.text(4)});
    }
    return out;
}

std::vector<std::int64_t> memoryMapDevices(const ProfileDb& db) {
    std::vector<std::int64_t> out;
    SqliteStatement q(db.handle(), "SELECT DISTINCT device_id FROM MEMORY_BLOCK ORDER BY device_id");
    if (!q.valid()) return out;
    while (q.step() == SQLITE_ROW) out.push_back(q.int64(0));
    return out;
}

}  // namespace npu::profiler
