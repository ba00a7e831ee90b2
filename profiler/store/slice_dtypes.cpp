#include "profiler/store/slice_dtypes.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <unordered_map>

namespace npu::profiler {

std::vector<std::int32_t> sliceDTypeIds(const ProfileDb& db, std::int64_t track, const std::vector<std::int64_t>& sliceIds) {
    std::vector<std::int32_t> out;
    // Imported runs have no OP_INFO: skip the per-slice lookups of the join.
    SqliteStatement any(db.handle(), "SELECT EXISTS(SELECT 1 FROM main.OP_INFO)");
    if (any.step() != SQLITE_ROW || any.int64(0) == 0) return out;
    // The stored rows (main.*): an aliased rank's track reads its class track's, ids shifted.
    const auto alias = db.rankClasses().tracks.find(track);
    const bool aliased = alias != db.rankClasses().tracks.end();
    SqliteStatement q(db.handle(),
                      "SELECT t.id, o.dtype_id FROM main.TASK t JOIN main.OP_INFO o ON o.task_id = t.id WHERE t.track_id = ?");
    q.bind(1, aliased ? alias->second.sourceTrack : track);
    const std::int64_t shift = aliased ? alias->second.taskIdShift : 0;
    std::unordered_map<std::int64_t, std::int32_t> byId;
    while (q.step() == SQLITE_ROW)
        if (!q.isNull(1)) byId.emplace(q.int64(0) + shift, static_cast<std::int32_t>(q.int64(1)));
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
    SqliteStatement any(db.handle(), "SELECT EXISTS(SELECT 1 FROM main.OP_INFO)");
    if (any.step() != SQLITE_ROW || any.int64(0) == 0) return out;
    SqliteStatement q(db.handle(), "SELECT dtype_id FROM main.OP_INFO WHERE task_id = ?");
    out.reserve(sliceIds.size());
    bool anyDType = false;
    for (const std::int64_t id : sliceIds) {
        const RankClassRow* rank = db.rankClasses().rankOfTask(id);  // an aliased rank's: its class's row
        q.bind(1, rank ? id - rank->taskIdShift() : id);
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
