#include "profiler/store/slice_dtypes.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <unordered_map>

namespace npu::profiler {

std::vector<std::int32_t> sliceDTypeIds(const ProfileDb& db, std::int64_t track, const std::vector<std::int64_t>& sliceIds) {
    std::vector<std::int32_t> out;
    // Imported runs have no OP_INFO: skip the per-slice lookups of the join.
    SqliteStatement any(db.handle(), "SELECT EXISTS(SELECT 1 FROM OP_INFO)");
    if (any.step() != SQLITE_ROW || any.int64(0) == 0) return out;
    SqliteStatement q(db.handle(), "SELECT t.id, o.dtype_id FROM TASK t JOIN OP_INFO o ON o.task_id = t.id WHERE t.track_id = ?");
    q.bind(1, track);
    std::unordered_map<std::int64_t, std::int32_t> byId;
    while (q.step() == SQLITE_ROW)
        if (!q.isNull(1)) byId.emplace(q.int64(0), static_cast<std::int32_t>(q.int64(1)));
    if (byId.empty()) return out;
    out.reserve(sliceIds.size());
    for (const std::int64_t id : sliceIds) {
        const auto it = byId.find(id);
        out.push_back(it == byId.end() ? -1 : it->second);
    }
    return out;
}

std::vector<std::int32_t> sliceDTypeIdsOf(const ProfileDb& db, const std::vector<std::int64_t>& sliceIds) {
    std::vector<std::int32_t> out;
    SqliteStatement any(db.handle(), "SELECT EXISTS(SELECT 1 FROM OP_INFO)");
    if (any.step() != SQLITE_ROW || any.int64(0) == 0) return out;
    SqliteStatement q(db.handle(), "SELECT dtype_id FROM OP_INFO WHERE task_id = ?");
    out.reserve(sliceIds.size());
    bool anyDType = false;
    for (const std::int64_t id : sliceIds) {
        q.bind(1, id);
        std::int32_t dtype = -1;
        if (q.step() == SQLITE_ROW && !q.isNull(0)) dtype = static_cast<std::int32_t>(q.int64(0));
        q.reset();
        anyDType = anyDType || dtype >= 0;
        out.push_back(dtype);
    }
    if (!anyDType) out.clear();  // as sliceDTypeIds: empty when none has one
    return out;
}

}  // namespace npu::profiler
