#include "profiler/store/track_summary.h"

#include "profiler/store/npudb_schema.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <cstdint>
#include <string>

namespace npu::profiler {
namespace {

struct Accumulator {
    TrackSummary summary;
    std::int64_t offsetNs = 0;  // an aliased track's shift from the class track it shows
    std::vector<std::vector<DensityCell>> lanes;  // [depth][bucket], dense while scanning
};

std::int64_t metaInt(const ProfileDb& db, const char* key, std::int64_t fallback) {
    const std::string text = db.meta(key);
    std::int64_t v = fallback;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty() ? v : fallback;
}

}  // namespace

Status writeTrackSummaries(sqlite3* db, std::int64_t t0, std::int64_t t1) {
    if (auto s = execSql(db, npudbSummaryTablesSql(), "creating the track summary tables"); !s) return s;
    if (auto s = execSql(db, "DELETE FROM TRACK_SUMMARY; DELETE FROM TRACK_DENSITY;", "clearing track summaries"); !s)
        return s;
    // Bucket width rounded up so the last end still falls in bucket kDensityBuckets - 1.
    // Unsigned: a hostile file's extent may not fit a signed difference.
    const std::uint64_t span = t1 > t0 ? static_cast<std::uint64_t>(t1) - static_cast<std::uint64_t>(t0) : 0;
    const auto bucketNs = static_cast<std::int64_t>(span / kDensityBuckets + 1);
    SqliteStatement meta(db, "INSERT OR REPLACE INTO META_DATA(name, value) VALUES(?,?)");
    const std::string t0Text = std::to_string(t0), widthText = std::to_string(bucketNs);
    meta.bind(1, std::string_view("density_t0_ns"));
    meta.bind(2, std::string_view(t0Text));
    if (meta.exec() != SQLITE_DONE) return makeError(std::string("writing density_t0_ns: ") + sqlite3_errmsg(db));
    meta.bind(1, std::string_view("density_bucket_ns"));
    meta.bind(2, std::string_view(widthText));
    if (meta.exec() != SQLITE_DONE) return makeError(std::string("writing density_bucket_ns: ") + sqlite3_errmsg(db));

    SqliteStatement insTrack(db, "INSERT INTO TRACK_SUMMARY VALUES(?,?,?,?,?,?)");
    SqliteStatement insCell(db, "INSERT INTO TRACK_DENSITY VALUES(?,?,?,?,?,?)");
    if (!insTrack.valid() || !insCell.valid())
        return makeError(std::string("preparing the track summary inserts: ") + sqlite3_errmsg(db));
    // An aliased track (rank classes) is its class track shifted: it is summarised in the
    // same pass, from the class track's rows moved by its offset.
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> aliasesOf;  // class track -> (alias, offset)
    {
        SqliteStatement a(db, "SELECT track_id, source_track_id, offset_ns FROM main.TRACK_ALIAS ORDER BY track_id");
        while (a.valid() && a.step() == SQLITE_ROW) aliasesOf[a.int64(1)].emplace_back(a.int64(0), a.int64(2));
    }
    std::vector<Accumulator> group;  // the class track, then its aliases
    std::string firstError;
    auto flush = [&] {
        for (Accumulator& acc : group) {
            const TrackSummary& t = acc.summary;
            if (insTrack.execRow(t.track, t.sliceCount, t.maxDepth, t.startNs, t.endNs, t.maxDurNs) != SQLITE_DONE &&
                firstError.empty())
                firstError = sqlite3_errmsg(db);
            for (const auto& lane : acc.lanes)
                for (const DensityCell& c : lane)
                    if (c.count > 0 && insCell.execRow(t.track, c.depth, c.bucket, c.count, c.busyNs, c.endNs) != SQLITE_DONE &&
                        firstError.empty())
                        firstError = sqlite3_errmsg(db);
        }
        group.clear();
    };
    auto add = [&](Accumulator& acc, int depth, std::int64_t start, std::int64_t dur) {
        TrackSummary& t = acc.summary;
        if (t.sliceCount == 0) t.startNs = start;
        ++t.sliceCount;
        t.maxDepth = std::max(t.maxDepth, depth);
        const std::int64_t end = start > INT64_MAX - dur ? INT64_MAX : start + dur;
        t.endNs = std::max(t.endNs, end);
        t.maxDurNs = std::max(t.maxDurNs, dur);
        if (acc.lanes.size() <= static_cast<std::size_t>(depth)) acc.lanes.resize(static_cast<std::size_t>(depth) + 1);
        auto& lane = acc.lanes[static_cast<std::size_t>(depth)];
        if (lane.empty()) lane.resize(kDensityBuckets);
        const std::uint64_t offset = start > t0 ? static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(t0) : 0;
        const auto b = static_cast<std::size_t>(
            std::min<std::uint64_t>(offset / static_cast<std::uint64_t>(bucketNs), kDensityBuckets - 1));
        DensityCell& c = lane[b];
        c.depth = depth;
        c.bucket = static_cast<std::int32_t>(b);
        ++c.count;
        c.busyNs += dur;
        c.endNs = std::max(c.endNs, end);
    };
    // Index order (no sort): one track after the other, so one track's cells are in memory.
    // main.TASK: the stored rows, not a connection's rank class view.
    SqliteStatement q(db, "SELECT track_id, depth, start_ns, dur_ns FROM main.TASK ORDER BY track_id, start_ns");
    std::int64_t current = -1;
    while (q.step() == SQLITE_ROW) {
        const std::int64_t track = q.int64(0);
        const int depth = static_cast<int>(std::clamp<std::int64_t>(q.int64(1), 0, 1 << 16));
        const std::int64_t start = q.int64(2), dur = std::max<std::int64_t>(0, q.int64(3));
        if (track != current || group.empty()) {
            flush();
            current = track;
            group.emplace_back().summary.track = track;
            if (const auto a = aliasesOf.find(track); a != aliasesOf.end())
                for (const auto& [alias, shift] : a->second) {
                    Accumulator& acc = group.emplace_back();
                    acc.summary.track = alias;
                    acc.offsetNs = shift;
                }
        }
        for (Accumulator& acc : group) add(acc, depth, start + acc.offsetNs, dur);
    }
    flush();
    if (!firstError.empty()) return makeError("writing track summaries: " + firstError);
    return {};
}

TrackSummaries readTrackSummaries(const ProfileDb& db) {
    TrackSummaries out;
    SqliteStatement tracks(db.handle(), "SELECT track_id, slice_count, max_depth, start_ns, end_ns, max_dur_ns "
                                        "FROM TRACK_SUMMARY ORDER BY track_id");
    if (!tracks.valid()) return out;  // a version-5 file that could not be upgraded
    out.present = true;
    out.t0 = metaInt(db, "density_t0_ns", 0);
    out.bucketNs = std::max<std::int64_t>(1, metaInt(db, "density_bucket_ns", 1));
    while (tracks.step() == SQLITE_ROW) {
        TrackSummary t;
        t.track = tracks.int64(0);
        t.sliceCount = tracks.int64(1);
        t.maxDepth = static_cast<int>(tracks.int64(2));
        t.startNs = tracks.int64(3);
        t.endNs = tracks.int64(4);
        t.maxDurNs = tracks.int64(5);
        out.tracks.push_back(std::move(t));
    }
    SqliteStatement cells(db.handle(), "SELECT track_id, depth, bucket, count, busy_ns, end_ns FROM TRACK_DENSITY "
                                       "ORDER BY track_id, depth, bucket");
    std::size_t k = 0;
    while (cells.valid() && cells.step() == SQLITE_ROW) {
        const std::int64_t track = cells.int64(0);
        while (k < out.tracks.size() && out.tracks[k].track < track) ++k;
        if (k == out.tracks.size() || out.tracks[k].track != track) continue;  // orphan row: ignored
        out.tracks[k].cells.push_back(DensityCell{static_cast<std::int32_t>(cells.int64(1)),
                                                  static_cast<std::int32_t>(cells.int64(2)), cells.int64(3),
                                                  cells.int64(4), cells.int64(5)});
    }
    return out;
}

}  // namespace npu::profiler
