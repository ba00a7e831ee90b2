#include "profiler/analysis/op_statistics.h"

#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <string>

namespace npu::profiler {
namespace {

std::int64_t maxSliceDuration(const ProfileDb& db) {
    const std::string cached = db.meta("max_dur_ns");
    std::int64_t v = 0;
    if (!cached.empty() && std::from_chars(cached.data(), cached.data() + cached.size(), v).ec == std::errc())
        return v;
    SqliteStatement q(db.handle(), "SELECT max(dur_ns) FROM TASK");
    return q.step() == SQLITE_ROW ? q.int64(0) : 0;
}

struct Group {
    std::int64_t count = 0, total = 0;
    std::int64_t min = std::numeric_limits<std::int64_t>::max(), max = std::numeric_limits<std::int64_t>::min();
    std::map<std::int32_t, std::int64_t> categoryCounts;
};

// The SQL groups by (key, category) so that the most common category of a name can be
// picked afterwards; the key is a STRING_IDS id in every grouping.
std::string statisticsSql(const OpStatOptions& o) {
    std::string key = o.grouping == OpGrouping::byName ? "t.name_id"
                      : o.grouping == OpGrouping::byType ? "coalesce(oi.op_type_id, t.category_id)"
                                                          : "t.category_id";
    std::string dur = o.range ? "(min(t.start_ns + t.dur_ns, ?2) - max(t.start_ns, ?1))" : "t.dur_ns";
    std::string sql = "SELECT " + key + ", t.category_id, count(*), sum(" + dur + "), min(" + dur + "), max(" + dur +
                      ") FROM TASK t JOIN TRACK k ON k.id = t.track_id";
    if (o.grouping == OpGrouping::byType) sql += " LEFT JOIN OP_INFO oi ON oi.task_id = t.id";
    sql += " WHERE k.kind NOT IN ('counter','process')";
    if (o.kernelsOnly)
        sql += " AND k.kind IN ('compute','comm','memcpy') AND t.category_id NOT IN "
               "(SELECT id FROM STRING_IDS WHERE value = 'gpu_user_annotation')";
    if (o.device) sql += " AND k.device_id = ?3";
    // The lower bound lets SQLite walk the (track, start) index instead of scanning.
    if (o.range) sql += " AND t.start_ns < ?2 AND t.start_ns >= ?4 AND t.start_ns + t.dur_ns > ?1";
    sql += " GROUP BY 1, 2";
    return sql;
}

std::int64_t referenceTime(const ProfileDb& db, const OpStatOptions& o) {
    if (o.range) return o.range->second - o.range->first;
    std::int64_t steps = 0;
    for (const auto& s : db.steps()) steps += s.end_ns - s.start_ns;
    if (steps > 0) return steps;
    std::string sql = "SELECT min(t.start_ns), max(t.start_ns + t.dur_ns) FROM TASK t JOIN TRACK k ON k.id = t.track_id "
                      "WHERE k.kind NOT IN ('counter','process')";
    if (o.kernelsOnly) sql += " AND k.kind IN ('compute','comm','memcpy')";
    if (o.device) sql += " AND k.device_id = ?1";
    SqliteStatement q(db.handle(), sql);
    if (o.device) q.bind(1, *o.device);
    return q.step() == SQLITE_ROW ? q.int64(1) - q.int64(0) : 0;
}

}  // namespace

OpStatistics computeOpStatistics(const ProfileDb& db, const OpStatOptions& options) {
    OpStatistics out;
    out.reference_ns = referenceTime(db, options);
    SqliteStatement q(db.handle(), statisticsSql(options));
    if (options.range) {
        q.bind(1, options.range->first);
        q.bind(2, options.range->second);
        q.bind(4, options.range->first - maxSliceDuration(db));
    }
    if (options.device) q.bind(3, *options.device);

    std::map<std::int32_t, Group> groups;
    while (q.step() == SQLITE_ROW) {
        auto& g = groups[static_cast<std::int32_t>(q.int64(0))];
        const auto count = q.int64(2);
        g.count += count;
        g.total += q.int64(3);
        g.min = std::min(g.min, q.int64(4));
        g.max = std::max(g.max, q.int64(5));
        g.categoryCounts[static_cast<std::int32_t>(q.int64(1))] += count;
    }
    out.rows.reserve(groups.size());
    for (const auto& [key, g] : groups) {
        OpStatRow r;
        r.key = db.string(key);
        const auto common = std::max_element(g.categoryCounts.begin(), g.categoryCounts.end(),
                                             [](const auto& a, const auto& b) { return a.second < b.second; });
        r.category = db.string(common->first);
        r.count = g.count;
        r.total_ns = g.total;
        r.mean_ns = g.count ? double(g.total) / double(g.count) : 0.0;
        r.min_ns = g.min;
        r.max_ns = g.max;
        r.share = out.reference_ns > 0 ? double(g.total) / double(out.reference_ns) : 0.0;
        out.rows.push_back(std::move(r));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const OpStatRow& a, const OpStatRow& b) {
        return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.key < b.key;
    });
    return out;
}

}  // namespace npu::profiler
