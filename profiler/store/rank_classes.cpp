#include "profiler/store/rank_classes.h"

#include "profiler/store/npudb_schema.h"
#include "profiler/store/sqlite_statement.h"

#include <sqlite3.h>

#include <algorithm>

namespace npu::profiler {
namespace {

bool hasRankClasses(sqlite3* db) {
    SqliteStatement q(db, "SELECT EXISTS(SELECT 1 FROM main.RANK_CLASS)");
    return q.valid() && q.step() == SQLITE_ROW && q.int64(0) != 0;
}

}  // namespace

const RankClassRow* RankClasses::rankOfTask(std::int64_t taskId) const {
    auto it = std::upper_bound(ranks.begin(), ranks.end(), taskId,
                               [](std::int64_t id, const RankClassRow& r) { return id < r.firstTask; });
    if (it == ranks.begin()) return nullptr;
    --it;
    return taskId < it->firstTask + it->taskCount ? &*it : nullptr;
}

std::int64_t RankClasses::classDeviceOf(std::int64_t device) const {
    for (const auto& r : ranks)
        if (r.device == device) return r.classDevice;
    return device;
}

std::int64_t RankClasses::aliasTrack(std::int64_t device, std::int64_t sourceTrack) const {
    const auto d = aliasByDevice.find(device);
    if (d == aliasByDevice.end()) return -1;
    const auto t = d->second.find(sourceTrack);
    return t == d->second.end() ? -1 : t->second;
}

StoredTrack storedTrackOf(const RankClasses& classes, std::int64_t track) {
    const auto it = classes.tracks.find(track);
    if (it == classes.tracks.end()) return {track, 0, 0};
    return {it->second.sourceTrack, it->second.offsetNs, it->second.taskIdShift};
}

RankClasses readRankClasses(sqlite3* db) {
    RankClasses out;
    SqliteStatement q(db, "SELECT device_id, class_device_id, offset_ns, first_task_id, task_count, class_first_task_id "
                          "FROM main.RANK_CLASS ORDER BY first_task_id");
    while (q.valid() && q.step() == SQLITE_ROW)
        out.ranks.push_back({q.int64(0), q.int64(1), q.int64(2), q.int64(3), q.int64(4), q.int64(5)});
    SqliteStatement t(db, "SELECT a.track_id, a.source_track_id, a.offset_ns, a.task_id_shift, k.device_id "
                          "FROM main.TRACK_ALIAS a JOIN main.TRACK k ON k.id = a.track_id");
    while (t.valid() && t.step() == SQLITE_ROW) {
        out.tracks[t.int64(0)] = {t.int64(1), t.int64(2), t.int64(3)};
        out.aliasByDevice[t.int64(4)][t.int64(1)] = t.int64(0);
    }
    return out;
}

// The views' second halves join each aliased track to its class track: a filter on
// track_id reaches TRACK_ALIAS's primary key and then the class track's rows through
// TASK_TRACK_START (SQLite pushes the WHERE of a query into both halves of the UNION ALL).
Status installRankClassViews(sqlite3* db) {
    if (!hasRankClasses(db)) return {};
    return execSql(db, R"sql(
CREATE TEMP VIEW IF NOT EXISTS TASK AS
  SELECT id, track_id, start_ns, dur_ns, depth, name_id, category_id, args_id FROM main.TASK
  UNION ALL
  SELECT s.id + a.task_id_shift, a.track_id, s.start_ns + a.offset_ns, s.dur_ns, s.depth, s.name_id, s.category_id, s.args_id
  FROM main.TRACK_ALIAS a JOIN main.TASK s ON s.track_id = a.source_track_id;
CREATE TEMP VIEW IF NOT EXISTS OP_INFO AS
  SELECT task_id, op_type_id, dtype_id, flops, bytes, node_id FROM main.OP_INFO
  UNION ALL
  SELECT o.task_id + r.first_task_id - r.class_first_task_id, o.op_type_id, o.dtype_id, o.flops, o.bytes, o.node_id
  FROM main.RANK_CLASS r JOIN main.OP_INFO o
    ON o.task_id >= r.class_first_task_id AND o.task_id < r.class_first_task_id + r.task_count;
CREATE TEMP VIEW IF NOT EXISTS COUNTER AS
  SELECT track_id, ts_ns, value FROM main.COUNTER
  UNION ALL
  SELECT a.track_id, c.ts_ns + a.offset_ns, c.value
  FROM main.TRACK_ALIAS a JOIN main.COUNTER c ON c.track_id = a.source_track_id;
)sql",
                   "showing the rank classes");
}

}  // namespace npu::profiler
