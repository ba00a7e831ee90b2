#include "profiler/store/npudb_schema.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"
#include "profiler/store/track_summary.h"

#include <sqlite3.h>

#include <string>

namespace npu::profiler {

std::string_view npudbTablesSql() {
    return R"sql(
CREATE TABLE META_DATA(name TEXT PRIMARY KEY, value TEXT);
CREATE TABLE STRING_IDS(id INTEGER PRIMARY KEY, value TEXT UNIQUE);
CREATE TABLE DEVICE(id INTEGER PRIMARY KEY, name_id INTEGER, kind TEXT);
CREATE TABLE TRACK(id INTEGER PRIMARY KEY, device_id INTEGER, parent_id INTEGER, kind TEXT, name_id INTEGER,
                   sort_index INTEGER);
CREATE TABLE TASK(id INTEGER PRIMARY KEY, track_id INTEGER, start_ns INTEGER, dur_ns INTEGER, depth INTEGER,
                  name_id INTEGER, category_id INTEGER, args_id INTEGER);
CREATE TABLE ARGS(id INTEGER PRIMARY KEY, json TEXT);
CREATE TABLE FLOW(id INTEGER PRIMARY KEY, from_task INTEGER, to_task INTEGER, kind_id INTEGER);
CREATE TABLE COUNTER(track_id INTEGER, ts_ns INTEGER, value REAL);
CREATE TABLE OP_INFO(task_id INTEGER PRIMARY KEY, op_type_id INTEGER, dtype_id INTEGER, flops REAL, bytes REAL,
                     node_id INTEGER);
CREATE TABLE STEP(id INTEGER PRIMARY KEY, start_ns INTEGER, end_ns INTEGER);
CREATE TABLE DIAGNOSTIC(kind_id INTEGER, severity INTEGER, count INTEGER, example TEXT);
)sql" /* schema 2 */ R"sql(
CREATE TABLE PASS_STATS(id INTEGER PRIMARY KEY, name TEXT, level INTEGER, nodes_before INTEGER, nodes_after INTEGER,
                        kernels_before INTEGER, kernels_after INTEGER, bytes_before REAL, bytes_after REAL,
                        flops_before REAL, flops_after REAL, ms REAL);
CREATE TABLE RUN_GRAPH(name TEXT PRIMARY KEY, format TEXT, data BLOB);
)sql";
}

// Version 3. Small tables (one row per op and rank): names kept as text.
std::string_view npudbCommTablesSql() {
    return R"sql(
CREATE TABLE IF NOT EXISTS COMM_OP(rank INTEGER, step TEXT, type TEXT, op TEXT, group_name TEXT, start_ns INTEGER,
                     elapse_ns INTEGER, transit_ns INTEGER, wait_ns INTEGER, synchronization_ns INTEGER,
                     idle_ns INTEGER, wait_ratio REAL, synchronization_ratio REAL);
CREATE TABLE IF NOT EXISTS COMM_BANDWIDTH(rank INTEGER, step TEXT, type TEXT, op TEXT, transport TEXT, size_mb REAL,
                     time_ns INTEGER, bandwidth_gbps REAL, large_packet_ratio REAL);
CREATE TABLE IF NOT EXISTS COMM_PACKET(rank INTEGER, step TEXT, type TEXT, op TEXT, transport TEXT, packet_size_mb REAL,
                     count INTEGER, time_ns INTEGER);
CREATE TABLE IF NOT EXISTS COMM_MATRIX(step TEXT, type TEXT, group_op TEXT, op TEXT, src_rank INTEGER,
                     dst_rank INTEGER, transport TEXT, size_mb REAL, time_ns INTEGER, bandwidth_gbps REAL);
CREATE TABLE IF NOT EXISTS OP_MEMORY_ALLOC(device TEXT, op TEXT, size_bytes INTEGER, alloc_ns INTEGER,
                     release_ns INTEGER, active_release_ns INTEGER, duration_ns INTEGER, stream INTEGER,
                     alloc_total_allocated_mb REAL, alloc_total_reserved_mb REAL);
)sql";
}

// Version 4. The memory map: every allocator block with its address and lifetime, and the
// segments reserved from the device (simulated runs, imported memory snapshots).
std::string_view npudbMemoryTablesSql() {
    return R"sql(
CREATE TABLE IF NOT EXISTS MEMORY_BLOCK(device_id INTEGER, addr INTEGER, size INTEGER, alloc_ns INTEGER,
                     free_ns INTEGER, category TEXT, name TEXT, producer TEXT);
CREATE TABLE IF NOT EXISTS MEMORY_SEGMENT(device_id INTEGER, addr INTEGER, size INTEGER, alloc_ns INTEGER,
                     free_ns INTEGER, pool TEXT);
)sql";
}

// Version 5. msprof-analyze's cluster analysis as Ascend computed it: the step breakdown
// per step and rank (ClusterStepTraceTime, cluster_step_trace_time.csv; "stage" rows keep
// their rank set in idx, rank NULL) in integer nanoseconds, and the communication groups.
std::string_view npudbClusterTablesSql() {
    return R"sql(
CREATE TABLE IF NOT EXISTS CLUSTER_STEP(step TEXT, type TEXT, idx TEXT, rank INTEGER, computing_ns INTEGER,
                     communication_not_overlapped_ns INTEGER, overlapped_ns INTEGER, communication_ns INTEGER,
                     free_ns INTEGER, stage_ns INTEGER, bubble_ns INTEGER,
                     communication_not_overlapped_exclude_receive_ns INTEGER);
CREATE TABLE IF NOT EXISTS COMM_GROUP(type TEXT, rank_set TEXT, size INTEGER);
)sql";
}

// Version 6. Per-track summaries for the timeline's first frame (profiler/store/track_summary.h).
std::string_view npudbSummaryTablesSql() {
    return R"sql(
CREATE TABLE IF NOT EXISTS TRACK_SUMMARY(track_id INTEGER PRIMARY KEY, slice_count INTEGER, max_depth INTEGER,
                     start_ns INTEGER, end_ns INTEGER, max_dur_ns INTEGER);
CREATE TABLE IF NOT EXISTS TRACK_DENSITY(track_id INTEGER, depth INTEGER, bucket INTEGER, count INTEGER,
                     busy_ns INTEGER, end_ns INTEGER, PRIMARY KEY(track_id, depth, bucket)) WITHOUT ROWID;
)sql";
}

// Version 7. Rank classes (profiler/store/rank_classes.h): a rank whose tasks are another
// rank's, shifted, stores none of its own.
std::string_view npudbRankClassTablesSql() {
    return R"sql(
CREATE TABLE IF NOT EXISTS RANK_CLASS(device_id INTEGER PRIMARY KEY, class_device_id INTEGER, offset_ns INTEGER,
                     first_task_id INTEGER, task_count INTEGER, class_first_task_id INTEGER);
CREATE TABLE IF NOT EXISTS TRACK_ALIAS(track_id INTEGER PRIMARY KEY, source_track_id INTEGER, offset_ns INTEGER,
                     task_id_shift INTEGER);
)sql";
}

std::string_view npudbTaskIndexSql() {
    return "CREATE INDEX TASK_TRACK_START ON TASK(track_id, start_ns, depth, dur_ns, name_id, category_id);";
}

std::string_view npudbCounterIndexSql() { return "CREATE INDEX COUNTER_TRACK_TS ON COUNTER(track_id, ts_ns);"; }

std::string_view npudbIndexesSql() {
    return R"sql(
CREATE INDEX FLOW_FROM ON FLOW(from_task);
CREATE INDEX FLOW_TO ON FLOW(to_task);
)sql";
}

Status execSql(sqlite3* db, std::string_view sql, std::string_view what) {
    char* err = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = std::string(what) + ": " + (err ? err : sqlite3_errmsg(db));
        sqlite3_free(err);
        return makeError(std::move(message));
    }
    return {};
}

Expected<int> readSchemaVersion(sqlite3* db, const std::filesystem::path& file) {
    SqliteStatement probe;
    if (!probe.prepare(db, "SELECT value FROM META_DATA WHERE name = 'schema_version'")) {
        const int code = sqlite3_errcode(db);
        if (code == SQLITE_NOTADB)
            return makeError(file.string() + " is not a profiling database (.npudb): not an SQLite file");
        return makeError(file.string() + " is not a profiling database (.npudb): no META_DATA table (" +
                         sqlite3_errmsg(db) + ")");
    }
    if (probe.step() != SQLITE_ROW)
        return makeError(file.string() + " is not a profiling database (.npudb): META_DATA has no schema_version");
    const std::string text = probe.text(0);
    try {
        size_t used = 0;
        const int version = std::stoi(text, &used);
        if (used != text.size() || version < 1) throw std::invalid_argument(text);
        return version;
    } catch (const std::exception&) {
        return makeError(file.string() + ": META_DATA schema_version is '" + text +
                         "', expected a positive integer");
    }
}

Status migrateNpudb(const std::filesystem::path& file, int fromVersion) {
    if (fromVersion == kSchemaVersion) return {};
    if (fromVersion > kSchemaVersion)
        return makeError(file.string() + " uses .npudb schema version " + std::to_string(fromVersion) +
                         ", newer than this NPU Studio reads (version " + std::to_string(kSchemaVersion) +
                         "); open it with a newer NPU Studio");
    if (fromVersion < 1) return makeError(file.string() + ": unknown .npudb schema version " + std::to_string(fromVersion));
    // One transaction: each step brings the file one version up; a failure leaves it as it was.
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return makeError(file.string() + ": cannot upgrade .npudb schema version " + std::to_string(fromVersion) +
                         " to " + std::to_string(kSchemaVersion) + " (" + why + "; is the file writable?)");
    }
    Status s = execSql(db, "BEGIN", "upgrading " + file.string());
    if (s && fromVersion < 2)  // 2: graph passes and the graph a simulated run ran
        s = execSql(db, R"sql(
CREATE TABLE IF NOT EXISTS PASS_STATS(id INTEGER PRIMARY KEY, name TEXT, level INTEGER, nodes_before INTEGER,
                        nodes_after INTEGER, kernels_before INTEGER, kernels_after INTEGER, bytes_before REAL,
                        bytes_after REAL, flops_before REAL, flops_after REAL, ms REAL);
CREATE TABLE IF NOT EXISTS RUN_GRAPH(name TEXT PRIMARY KEY, format TEXT, data BLOB);)sql",
                    "upgrading " + file.string() + " to version 2");
    if (s && fromVersion < 3) s = execSql(db, npudbCommTablesSql(), "upgrading " + file.string() + " to version 3");
    if (s && fromVersion < 4) s = execSql(db, npudbMemoryTablesSql(), "upgrading " + file.string() + " to version 4");
    if (s && fromVersion < 5) s = execSql(db, npudbClusterTablesSql(), "upgrading " + file.string() + " to version 5");
    if (s && fromVersion < 6) {
        // The summaries come from a pass over TASK: ~3 s per 10M slices, once per file.
        // The extent the writer stored; a full scan only for files without it.
        std::int64_t t0 = 0, t1 = 0;
        SqliteStatement range(db, "SELECT (SELECT CAST(value AS INTEGER) FROM META_DATA WHERE name = 'time_min_ns'), "
                                  "(SELECT CAST(value AS INTEGER) FROM META_DATA WHERE name = 'time_max_ns')");
        if (range.step() != SQLITE_ROW || range.isNull(0) || range.isNull(1))
            range.prepare(db, "SELECT min(lo), max(hi) FROM (SELECT min(start_ns) lo, max(start_ns + dur_ns) hi "
                              "FROM TASK UNION ALL SELECT min(ts_ns), max(ts_ns) FROM COUNTER)");
        else
            range.reset();
        if (range.step() == SQLITE_ROW && !range.isNull(0)) {
            t0 = range.int64(0);
            t1 = range.int64(1);
        }
        range = SqliteStatement();
        s = writeTrackSummaries(db, t0, t1);
        if (!s) s = makeError("upgrading " + file.string() + " to version 6: " + s.message());
    }
    // 7: rank classes; an older file stores every rank in full, so both tables stay empty.
    if (s && fromVersion < 7) s = execSql(db, npudbRankClassTablesSql(), "upgrading " + file.string() + " to version 7");
    if (s)
        s = execSql(db, "INSERT OR REPLACE INTO META_DATA(name, value) VALUES('schema_version', '" +
                            std::to_string(kSchemaVersion) + "')",
                    "upgrading " + file.string());
    if (s) s = execSql(db, "COMMIT", "upgrading " + file.string());
    else sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);  // keep the first error
    sqlite3_close(db);
    return s;
}

}  // namespace npu::profiler
