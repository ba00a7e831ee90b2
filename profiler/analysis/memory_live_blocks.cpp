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

void bindQuery(SqliteStatement& s, const LiveBlockQuery& q, std::int64_t from, std::int64_t to) {
    s.bind(1, q.device);
    s.bind(2, to);
    s.bind(3, from);
    s.bind(4, std::int64_t{q.changedInRange ? 1 : 0});
}

}  // namespace

LiveBlocks liveBlocks(const ProfileDb& db, const LiveBlockQuery& query) {
    LiveBlocks out;
    const std::int64_t from = std::min(query.from_ns, query.to_ns);
    const std::int64_t to = std::max(query.from_ns, query.to_ns);
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
