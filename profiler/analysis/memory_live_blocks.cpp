#include "profiler/analysis/memory_live_blocks.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>

namespace npu::profiler {

namespace {

// Parameters: ?1 device, ?2 to, ?3 from, ?4 1 for "changed in range" only.
constexpr const char* kWhere =
    " FROM MEMORY_BLOCK WHERE device_id = ?1 AND alloc_ns <= ?2 AND (free_ns < 0 OR free_ns > ?3)"
    " AND (?4 = 0 OR alloc_ns >= ?3 OR (free_ns >= ?3 AND free_ns <= ?2))";

// Ascend captures carry no addresses: operator_memory.csv / OP_MEMORY give each allocation
// its op and times (OP_MEMORY_ALLOC, device "<prefix>NPU:<k>" for the run's "<prefix>NPU
// <k>"); release -1 or NULL: live at the end; negative sizes free memory allocated before
// the capture and are not blocks. ?5: that device name.
constexpr const char* kOpWhere =
    " FROM OP_MEMORY_ALLOC WHERE device = ?5 AND size_bytes > 0 AND alloc_ns <= ?2"
    " AND (COALESCE(release_ns, -1) < 0 OR release_ns > ?3)"
    " AND (?4 = 0 OR alloc_ns >= ?3 OR (release_ns >= ?3 AND release_ns <= ?2))";

void bindQuery(SqliteStatement& s, const LiveBlockQuery& q, std::int64_t from, std::int64_t to, const std::string& opDevice = {}) {
    s.bind(1, q.device);
    s.bind(2, to);
    s.bind(3, from);
    s.bind(4, std::int64_t{q.changedInRange ? 1 : 0});
    if (!opDevice.empty()) s.bind(5, std::string_view(opDevice));
}

// OP_MEMORY_ALLOC's name of the device when it has no MEMORY_BLOCK rows, else "".
std::string operatorMemoryDevice(const ProfileDb& db, std::int64_t device) {
    SqliteStatement blocks(db.handle(), "SELECT 1 FROM MEMORY_BLOCK WHERE device_id = ?1 LIMIT 1");
    if (blocks.valid()) {
        blocks.bind(1, device);
        if (blocks.step() == SQLITE_ROW) return {};
    }
    SqliteStatement name(db.handle(), "SELECT s.value FROM DEVICE d JOIN STRING_IDS s ON s.id = d.name_id WHERE d.id = ?1");
    if (!name.valid()) return {};
    name.bind(1, device);
    if (name.step() != SQLITE_ROW) return {};
    std::string n = name.text(0);
    const auto at = n.rfind("NPU ");
    if (at == std::string::npos) return {};
    n[at + 3] = ':';
    SqliteStatement rows(db.handle(), "SELECT 1 FROM OP_MEMORY_ALLOC WHERE device = ?1 AND size_bytes > 0 LIMIT 1");
    if (!rows.valid()) return {};
    rows.bind(1, std::string_view(n));
    return rows.step() == SQLITE_ROW ? n : std::string();
}

}  // namespace

bool hasOperatorAllocations(const ProfileDb& db, std::int64_t device) { return !operatorMemoryDevice(db, device).empty(); }

LiveBlocks liveBlocks(const ProfileDb& db, const LiveBlockQuery& query) {
    LiveBlocks out;
    const std::int64_t from = std::min(query.from_ns, query.to_ns);
    const std::int64_t to = std::max(query.from_ns, query.to_ns);
    if (const std::string opDevice = operatorMemoryDevice(db, query.device); !opDevice.empty()) {
        SqliteStatement total(db.handle(), std::string("SELECT COUNT(*), COALESCE(SUM(size_bytes), 0)") + kOpWhere);
        if (!total.valid()) return out;
        bindQuery(total, query, from, to, opDevice);
        if (total.step() == SQLITE_ROW) {
            out.count = total.int64(0);
            out.bytes = total.int64(1);
        }
        std::string sql = std::string("SELECT -1, size_bytes, alloc_ns, COALESCE(release_ns, -1), '', op, ''") + kOpWhere +
                          " ORDER BY size_bytes DESC, alloc_ns";
        if (query.limit > 0) sql += " LIMIT " + std::to_string(query.limit);
        SqliteStatement rows(db.handle(), sql);
        if (!rows.valid()) return out;
        bindQuery(rows, query, from, to, opDevice);
        while (rows.step() == SQLITE_ROW)
            out.blocks.push_back({rows.int64(0), rows.int64(1), rows.int64(2), rows.int64(3), rows.text(4), rows.text(5), rows.text(6)});
        return out;
    }
    // An instant t: alloc <= t < free. A range: alive somewhere in it, alloc <= to and
    // free > from. "Changed" keeps those allocated (alloc >= from, alloc <= to holds
    // already) or released (from <= free <= to) inside it.
    SqliteStatement total(db.handle(), std::string("SELECT COUNT(*), COALESCE(SUM(size), 0)") + kWhere);
    if (!total.valid()) return out;
    bindQuery(total, query, from, to);
    if (total.step() == SQLITE_ROW) {
        out.count = total.int64(0);
        out.bytes = total.int64(1);
    }
    std::string sql = std::string("SELECT addr, size, alloc_ns, free_ns, category, name, producer") + kWhere +
                      " ORDER BY size DESC, alloc_ns, addr";
    if (query.limit > 0) sql += " LIMIT " + std::to_string(query.limit);
    SqliteStatement rows(db.handle(), sql);
    if (!rows.valid()) return out;
    bindQuery(rows, query, from, to);
    while (rows.step() == SQLITE_ROW)
        out.blocks.push_back({rows.int64(0), rows.int64(1), rows.int64(2), rows.int64(3), rows.text(4), rows.text(5), rows.text(6)});
    return out;
}

std::optional<ProducerSlice> producerSlice(const ProfileDb& db, std::int64_t device, const std::string& producer,
                                           std::int64_t alloc_ns) {
    if (producer.empty()) return std::nullopt;
    SqliteStatement q(db.handle(),
                      "SELECT TASK.id, TASK.start_ns, TASK.dur_ns FROM TASK JOIN STRING_IDS ON STRING_IDS.id = TASK.name_id "
                      "JOIN TRACK ON TRACK.id = TASK.track_id WHERE STRING_IDS.value = ?1 AND TRACK.device_id = ?2 "
                      "ORDER BY ABS(TASK.start_ns - ?3), TASK.start_ns LIMIT 1");
    if (!q.valid()) return std::nullopt;
    q.bind(1, std::string_view(producer));
    q.bind(2, device);
    q.bind(3, alloc_ns);
    if (q.step() != SQLITE_ROW) return std::nullopt;
    return ProducerSlice{q.int64(0), q.int64(1), q.int64(2)};
}

}  // namespace npu::profiler
