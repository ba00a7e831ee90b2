#include "profiler/store/slice_search.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <sqlite3.h>

#include <string>

namespace npu::profiler {

std::vector<SliceHit> findSlices(const ProfileDb& db, const SliceFilter& filter, std::size_t limit)
{
    std::vector<SliceHit> out;
    if (filter.stringIds.empty() || limit == 0)
        return out;
    // The id lists go into the text: numbers only, and SQLite turns a long IN list into
    // one lookup table, where a bound parameter per id would hit the variable limit.
    const auto list = [](const auto& ids) {
        std::string text;
        for (const auto id : ids)
            text += (text.empty() ? "" : ",") + std::to_string(id);
        return text;
    };
    std::string sql = "SELECT id, track_id, start_ns, dur_ns FROM TASK WHERE ";
    sql += filter.byCategory ? "category_id" : "name_id";
    sql += " IN (" + list(filter.stringIds) + ") AND start_ns < ?1 AND start_ns + dur_ns > ?2";
    if (!filter.tracks.empty())
        sql += " AND track_id IN (" + list(filter.tracks) + ")";
    sql += " ORDER BY start_ns, track_id LIMIT ?3";
    SqliteStatement q(db.handle(), sql);
    if (!q.valid())
        return out;
    q.bind(1, filter.t1);
    q.bind(2, filter.t0);
    q.bind(3, static_cast<std::int64_t>(limit));
    while (q.step() == SQLITE_ROW)
        out.push_back(SliceHit{q.int64(0), q.int64(1), q.int64(2), q.int64(3)});
    return out;
}

}  // namespace npu::profiler
