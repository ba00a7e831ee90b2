#include "profiler/analysis/range_aggregation.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

namespace npu::profiler {
namespace {

struct Hit {
    std::int64_t start, end, clipped;
    std::int32_t depth, nameId;
    std::int64_t childTime = 0;
};

std::int64_t maxDur(const ProfileDb& db) {
    const std::string cached = db.meta("max_dur_ns");
    std::int64_t v = 0;
    if (!cached.empty() && std::from_chars(cached.data(), cached.data() + cached.size(), v).ec == std::errc()) return v;
    // main.TASK: an aliased rank's durations are its class's (rank classes).
    SqliteStatement q(db.handle(), "SELECT max(dur_ns) FROM main.TASK");
    return q.step() == SQLITE_ROW ? q.int64(0) : 0;
}

}  // namespace

RangeAggregation aggregateRange(const ProfileDb& db, const std::vector<std::int64_t>& tracks, std::int64_t t0,
                                std::int64_t t1) {
    RangeAggregation out;
    out.t0 = t0;
    out.t1 = t1;
    if (t1 <= t0) return out;
    std::vector<std::int64_t> ids = tracks;
    if (ids.empty())
        for (const auto& t : db.tracks()) ids.push_back(t.id);

    SqliteStatement q(db.handle(), "SELECT start_ns, dur_ns, depth, name_id FROM TASK WHERE track_id = ?1 "
                                   "AND start_ns < ?3 AND start_ns >= ?4 AND start_ns + dur_ns > ?2 "
                                   "ORDER BY start_ns, depth");
    const std::int64_t lower = t0 - maxDur(db);
    std::unordered_map<std::int32_t, RangeAggregateRow> byName;
    std::vector<Hit> hits;
    std::vector<size_t> openAtDepth;  // index into hits of the latest slice at each depth
    for (const auto track : ids) {
        q.reset();
        q.bind(1, track);
        q.bind(2, t0);
        q.bind(3, t1);
        q.bind(4, lower);
        hits.clear();
        openAtDepth.clear();
        while (q.step() == SQLITE_ROW) {
            const auto start = q.int64(0), end = start + q.int64(1);
            const auto depth = static_cast<std::int32_t>(q.int64(2));
            Hit h{start, end, std::min(end, t1) - std::max(start, t0), depth, static_cast<std::int32_t>(q.int64(3))};
            // The parent is the latest slice one level up that still contains this start.
            if (depth > 0 && static_cast<size_t>(depth) <= openAtDepth.size()) {
                Hit& parent = hits[openAtDepth[static_cast<size_t>(depth) - 1]];
                if (parent.start <= start && start < parent.end) parent.childTime += h.clipped;
            }
            if (openAtDepth.size() <= static_cast<size_t>(depth)) openAtDepth.resize(static_cast<size_t>(depth) + 1);
            openAtDepth[static_cast<size_t>(depth)] = hits.size();
            hits.push_back(h);
        }
        for (const auto& h : hits) {
            auto& row = byName[h.nameId];
            const std::int64_t dur = h.end - h.start;
            row.min_ns = row.count == 0 ? dur : std::min(row.min_ns, dur);
            row.max_ns = std::max(row.max_ns, dur);
            row.dur_sum_ns += dur;
            ++row.count;
            row.total_ns += h.clipped;
            row.self_ns += std::max<std::int64_t>(0, h.clipped - h.childTime);
        }
        out.slices += static_cast<std::int64_t>(hits.size());
    }
    std::int64_t selfSum = 0;
    for (auto& [id, row] : byName) {
        row.name = db.string(id);
        selfSum += row.self_ns;
    }
    for (auto& [id, row] : byName) {
        row.share = selfSum > 0 ? double(row.self_ns) / double(selfSum) : 0.0;
        row.range_fraction = double(row.total_ns) / double(t1 - t0);
        out.rows.push_back(std::move(row));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const auto& a, const auto& b) {
        return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
    });
    return out;
}

}  // namespace npu::profiler
