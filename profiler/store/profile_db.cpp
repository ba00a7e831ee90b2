#include "profiler/store/profile_db.h"

#include "profiler/store/npudb_schema.h"
#include "profiler/store/sqlite_statement.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <system_error>

namespace npu::profiler {
namespace {

std::optional<std::int64_t> parseInt64(const std::string& s) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

Expected<sqlite3*> openReadOnly(const std::filesystem::path& file, bool oneThread = false) {
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READONLY | (oneThread ? SQLITE_OPEN_NOMUTEX : 0);
    if (sqlite3_open_v2(file.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        std::string why = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return makeError("cannot open profiling database " + file.string() + ": " + why);
    }
    return db;
}

}  // namespace

Expected<std::unique_ptr<ProfileDb>> ProfileDb::open(const std::filesystem::path& file, bool oneThread) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return makeError("cannot open profiling database " + file.string() + ": no such file");
    auto db = openReadOnly(file, oneThread);
    if (!db) return db.error();
    auto version = readSchemaVersion(*db, file);
    if (version && *version != kSchemaVersion) {
        sqlite3_close(*db);
        // A version-5 file lacks only the timeline's summaries, a version-6 file only the
        // (empty) rank class tables: when it cannot be upgraded (read-only) it still opens,
        // the timeline reads its tracks without summaries and every rank is stored.
        if (auto s = migrateNpudb(file, *version); !s && (*version < 5 || *version > kSchemaVersion)) return s.error();
        db = openReadOnly(file, oneThread);
        if (!db) return db.error();
        version = readSchemaVersion(*db, file);
    }
    if (!version) {
        sqlite3_close(*db);
        return version.error();
    }

    std::unique_ptr<ProfileDb> p(new ProfileDb());
    p->m_db = *db;
    p->m_path = file;
    if (auto s = installRankClassViews(p->m_db); !s) return makeError(file.string() + ": " + s.message());
    p->m_classes = readRankClasses(p->m_db);
    SqliteStatement q(p->m_db, "SELECT id, value FROM STRING_IDS ORDER BY id");
    if (!q.valid()) return makeError(file.string() + " is not a profiling database (.npudb): no STRING_IDS table");
    while (q.step() == SQLITE_ROW) {
        const auto id = q.int64(0);
        if (id < 0 || id > (1ll << 31)) return makeError(file.string() + ": STRING_IDS id " + std::to_string(id) +
                                                         " out of range, expected dense ids from 0");
        if (static_cast<size_t>(id) >= p->m_strings.size()) p->m_strings.resize(static_cast<size_t>(id) + 1);
        p->m_strings[static_cast<size_t>(id)] = q.text(1);
    }
    return p;
}

ProfileDb::~ProfileDb() {
    if (m_db) sqlite3_close_v2(m_db);
}

const std::string& ProfileDb::string(std::int32_t id) const {
    static const std::string empty;
    if (id < 0 || static_cast<size_t>(id) >= m_strings.size()) return empty;
    return m_strings[static_cast<size_t>(id)];
}

std::string ProfileDb::meta(const std::string& key, const std::string& fallback) const {
    SqliteStatement q(m_db, "SELECT value FROM META_DATA WHERE name = ?");
    q.bind(1, std::string_view(key));
    return q.step() == SQLITE_ROW ? q.text(0) : fallback;
}

std::vector<std::pair<std::string, std::string>> ProfileDb::allMeta() const {
    std::vector<std::pair<std::string, std::string>> out;
    SqliteStatement q(m_db, "SELECT name, value FROM META_DATA ORDER BY name");
    while (q.step() == SQLITE_ROW) out.emplace_back(q.text(0), q.text(1));
    return out;
}

std::vector<DeviceRow> ProfileDb::devices() const {
    std::vector<DeviceRow> out;
    SqliteStatement q(m_db, "SELECT id, name_id, kind FROM DEVICE ORDER BY id");
    while (q.step() == SQLITE_ROW)
        out.push_back({q.int64(0), string(static_cast<std::int32_t>(q.int64(1))), q.text(2)});
    return out;
}

std::vector<TrackRow> ProfileDb::tracks() const {
    std::vector<TrackRow> out;
    SqliteStatement q(m_db, "SELECT id, device_id, parent_id, kind, name_id, sort_index FROM TRACK "
                            "ORDER BY device_id, sort_index, id");
    while (q.step() == SQLITE_ROW) {
        TrackRow t;
        t.id = q.int64(0);
        t.device = q.int64(1);
        t.parent = q.isNull(2) ? -1 : q.int64(2);
        t.kind = parseTrackKind(q.text(3));
        t.name = string(static_cast<std::int32_t>(q.int64(4)));
        t.sortIndex = static_cast<int>(q.int64(5));
        out.push_back(std::move(t));
    }
    return out;
}

void TrackSlices::appendRows(SqliteStatement& q, const StoredTrack& stored) {
    while (q.step() == SQLITE_ROW) {
        id.push_back(q.int64(0) + stored.taskIdShift);
        start_ns.push_back(q.int64(1) + stored.offsetNs);
        dur_ns.push_back(q.int64(2));
        const auto d = static_cast<std::int32_t>(q.int64(3));
        depth.push_back(d);
        maxDepth = std::max(maxDepth, static_cast<int>(d));
        nameId.push_back(static_cast<std::int32_t>(q.int64(4)));
        categoryId.push_back(static_cast<std::int32_t>(q.int64(5)));
    }
}

TrackSlices ProfileDb::trackSlices(std::int64_t track) const {
    TrackSlices s;
    // The stored rows (an aliased rank's track: its class track's, shifted).
    const StoredTrack stored = storedTrackOf(m_classes, track);
    SqliteStatement n(m_db, "SELECT count(*) FROM main.TASK WHERE track_id = ?");
    n.bind(1, stored.track);
    if (n.step() == SQLITE_ROW) {
        const auto count = static_cast<size_t>(n.int64(0));
        s.id.reserve(count); s.start_ns.reserve(count); s.dur_ns.reserve(count);
        s.depth.reserve(count); s.nameId.reserve(count); s.categoryId.reserve(count);
    }
    SqliteStatement q(m_db, "SELECT id, start_ns, dur_ns, depth, name_id, category_id FROM main.TASK "
                            "WHERE track_id = ? ORDER BY start_ns, depth");
    q.bind(1, stored.track);
    s.appendRows(q, stored);
    return s;
}

CounterSeries ProfileDb::counter(std::int64_t track) const {
    CounterSeries c;
    SqliteStatement q(m_db, "SELECT ts_ns, value FROM COUNTER WHERE track_id = ? ORDER BY ts_ns");
    q.bind(1, track);
    while (q.step() == SQLITE_ROW) {
        c.ts_ns.push_back(q.int64(0));
        c.value.push_back(q.real(1));
    }
    return c;
}

std::vector<StepRow> ProfileDb::steps() const {
    std::vector<StepRow> out;
    SqliteStatement q(m_db, "SELECT id, start_ns, end_ns FROM STEP ORDER BY start_ns, id");
    while (q.step() == SQLITE_ROW) out.push_back({q.int64(0), q.int64(1), q.int64(2)});
    return out;
}

std::vector<DiagnosticRow> ProfileDb::diagnostics() const {
    std::vector<DiagnosticRow> out;
    SqliteStatement q(m_db, "SELECT kind_id, severity, count, example FROM DIAGNOSTIC ORDER BY rowid");
    while (q.step() == SQLITE_ROW) {
        DiagnosticRow r;
        r.kind = string(static_cast<std::int32_t>(q.int64(0)));
        r.severity = static_cast<Severity>(std::clamp<std::int64_t>(q.int64(1), 0, 2));
        r.count = q.int64(2);
        r.example = q.text(3);
        out.push_back(std::move(r));
    }
    return out;
}

Expected<SliceDetails> ProfileDb::slice(std::int64_t id) const {
    // An aliased rank's slice is read as its class's (by primary key, not through the view).
    const RankClassRow* rank = m_classes.rankOfTask(id);
    SqliteStatement q(m_db,
                      "SELECT t.track_id, t.start_ns, t.dur_ns, t.depth, t.name_id, t.category_id, a.json, "
                      "o.op_type_id, o.dtype_id, o.flops, o.bytes FROM main.TASK t "
                      "LEFT JOIN ARGS a ON a.id = t.args_id LEFT JOIN main.OP_INFO o ON o.task_id = t.id WHERE t.id = ?");
    q.bind(1, rank ? id - rank->taskIdShift() : id);
    if (q.step() != SQLITE_ROW)
        return makeError(m_path.string() + ": no slice with id " + std::to_string(id));
    SliceDetails d;
    d.id = id;
    d.track = rank ? m_classes.aliasTrack(rank->device, q.int64(0)) : q.int64(0);
    d.start_ns = q.int64(1) + (rank ? rank->offsetNs : 0);
    d.dur_ns = q.int64(2);
    d.depth = static_cast<int>(q.int64(3));
    d.name = string(static_cast<std::int32_t>(q.int64(4)));
    d.category = string(static_cast<std::int32_t>(q.int64(5)));
    d.args_json = q.text(6);
    if (!q.isNull(7)) {
        d.opType = string(static_cast<std::int32_t>(q.int64(7)));
        d.dtype = string(static_cast<std::int32_t>(q.int64(8)));
        d.flops = q.real(9);
        d.bytes = q.real(10);
    }
    return d;
}

std::vector<FlowRow> ProfileDb::flowsOf(std::int64_t slice) const {
    std::vector<FlowRow> out;
    SqliteStatement q(m_db, "SELECT id, from_task, to_task, kind_id FROM FLOW WHERE from_task = ?1 "
                            "UNION SELECT id, from_task, to_task, kind_id FROM FLOW WHERE to_task = ?1 ORDER BY 1");
    q.bind(1, slice);
    while (q.step() == SQLITE_ROW)
        out.push_back({q.int64(0), q.int64(1), q.int64(2), string(static_cast<std::int32_t>(q.int64(3)))});
    return out;
}

std::int64_t ProfileDb::sliceCount() const {
    if (auto cached = parseInt64(meta("slice_count"))) return *cached;
    SqliteStatement q(m_db, "SELECT count(*) FROM TASK");
    return q.step() == SQLITE_ROW ? q.int64(0) : 0;
}

std::pair<std::int64_t, std::int64_t> ProfileDb::timeRange() const {
    const auto lo = parseInt64(meta("time_min_ns")), hi = parseInt64(meta("time_max_ns"));
    if (lo && hi) return {*lo, *hi};
    SqliteStatement q(m_db, "SELECT min(lo), max(hi) FROM (SELECT min(start_ns) lo, max(start_ns + dur_ns) hi FROM TASK "
                            "UNION ALL SELECT min(ts_ns), max(ts_ns) FROM COUNTER)");
    if (q.step() == SQLITE_ROW && !q.isNull(0)) return {q.int64(0), q.int64(1)};
    return {0, 0};
}

}  // namespace npu::profiler
