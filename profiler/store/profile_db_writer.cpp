// ProfileDbWriter's life: creating the database beside its target, and the commit that
// writes what is buffered, the summaries and indexes, and renames it into place. The
// TraceSink calls that fill it are in profile_db_writer_emit.cpp.
#include "profiler/store/profile_db_writer_impl.h"
#include "profiler/store/collective_flows.h"

#include "base/atomic_file.h"
#include "profiler/store/comm_store.h"
#include "profiler/store/sqlite_attach.h"

#include <system_error>

namespace npu::profiler {
using namespace writer_rows;

Expected<std::unique_ptr<ProfileDbWriter>> ProfileDbWriter::create(const std::filesystem::path& target) {
    std::unique_ptr<ProfileDbWriter> w(new ProfileDbWriter());
    w->m_impl = std::make_unique<Impl>();
    Impl& d = *w->m_impl;
    d.target = target;
    d.tmp = temporarySiblingPath(target);
    // NOMUTEX: a writer belongs to one thread; the serialized mode's lock per bind and
    // step was 7% of an import's CPU. URI: sources are attached read-only by URI
    // (copyFromSqlite); the absolute path keeps a target named "file:..." a plain file.
    std::error_code absEc;
    const auto file = std::filesystem::absolute(d.tmp, absEc);
    const auto rc = sqlite3_open_v2((absEc ? d.tmp : file).c_str(), &d.db,
                                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        std::string why = d.db ? sqlite3_errmsg(d.db) : "out of memory";
        return makeError("cannot create profiling database " + target.string() + ": " + why +
                         " (is the folder missing or read-only?)");
    }
    // The file is private until the rename, so durability and rollback buy nothing
    // during the bulk load: a failure deletes the temporary file instead.
    if (auto s = execSql(d.db,
                         "PRAGMA page_size=32768; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                         "PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536; PRAGMA threads=2;",
                         "configuring " + target.string());
        !s)
        return s.error();
    if (auto s = execSql(d.db, npudbTablesSql(), "creating tables in " + target.string()); !s) return s.error();
    if (auto s = execSql(d.db, npudbCommTablesSql(), "creating tables in " + target.string()); !s) return s.error();
    if (auto s = execSql(d.db, npudbMemoryTablesSql(), "creating tables in " + target.string()); !s) return s.error();
    if (auto s = execSql(d.db, npudbClusterTablesSql(), "creating tables in " + target.string()); !s) return s.error();
    if (auto s = execSql(d.db, npudbRankClassTablesSql(), "creating tables in " + target.string()); !s) return s.error();
    if (auto s = execSql(d.db, "BEGIN", "starting the transaction"); !s) return s.error();
    if (auto s = execSql(d.db, npudbTaskIndexSql(), "indexing " + target.string()); !s) return s.error();
    // Importers write each counter track's samples sorted, so this index also only appends.
    if (auto s = execSql(d.db, npudbCounterIndexSql(), "indexing " + target.string()); !s) return s.error();

    d.insString.prepare(d.db, "INSERT INTO STRING_IDS(id, value) VALUES(?,?)");
    d.insDevice.prepare(d.db, "INSERT INTO DEVICE(id, name_id, kind) VALUES(?,?,?)");
    d.insTrack.prepare(d.db,
                       "INSERT INTO TRACK(id, device_id, parent_id, kind, name_id, sort_index) VALUES(?,?,?,?,?,?)");
    d.insTask.prepare(d.db, "INSERT INTO TASK(id, track_id, start_ns, dur_ns, depth, name_id, category_id, args_id) "
                            "VALUES(?,?,?,?,?,?,?,?)");
    d.insTaskBatch.prepare(d.db, multiRowInsert(kTaskHead, kTaskRow, kTaskBatch));
    d.insCounterBatch.prepare(d.db, multiRowInsert(kCounterHead, kCounterRow, kRowBatch));
    d.insFlowBatch.prepare(d.db, multiRowInsert(kFlowHead, kFlowRow, kRowBatch));
    d.insOpInfoBatch.prepare(d.db, multiRowInsert(kOpInfoHead, kOpInfoRow, kRowBatch));
    d.pendingOpInfo.reserve(kRowBatch);
    d.pendingCounters.reserve(kRowBatch);
    d.pendingFlows.reserve(kRowBatch);
    d.pending.reserve(kTaskBatch);
    d.insArgs.prepare(d.db, "INSERT INTO ARGS(id, json) VALUES(?,?)");
    d.insFlow.prepare(d.db, "INSERT INTO FLOW(id, from_task, to_task, kind_id) VALUES(?,?,?,?)");
    d.insCounter.prepare(d.db, "INSERT INTO COUNTER(track_id, ts_ns, value) VALUES(?,?,?)");
    d.insOpInfo.prepare(d.db, "INSERT OR REPLACE INTO OP_INFO(task_id, op_type_id, dtype_id, flops, bytes, node_id) "
                              "VALUES(?,?,?,?,?,?)");
    d.insStep.prepare(d.db, "INSERT INTO STEP(id, start_ns, end_ns) VALUES(?,?,?)");
    return w;
}

ProfileDbWriter::~ProfileDbWriter() = default;

sqlite3* ProfileDbWriter::handle() const { return m_impl->db; }

Status ProfileDbWriter::copyFromSqlite(const std::filesystem::path& source, std::string_view alias, std::string_view sql) {
    return copyFromAttached(m_impl->db, source, alias, sql);
}

// An aliased rank's flows between its own slices (host launch -> kernel) are its class's,
// shifted like its task ids.
void ProfileDbWriter::Impl::copyClassFlows() {
    Impl& d = *this;
    if (d.aliases.empty()) return;
    struct Flow {
        std::int64_t from, to, kind;
    };
    std::vector<Flow> flows;
    SqliteStatement q(d.db, "SELECT from_task, to_task, kind_id FROM FLOW ORDER BY id");
    while (q.step() == SQLITE_ROW) flows.push_back({q.int64(0), q.int64(1), q.int64(2)});
    q = SqliteStatement();
    for (const auto& a : d.aliases) {
        const std::int64_t lo = a.classFirstTask, hi = a.classFirstTask + a.taskCount, shift = a.firstTask - a.classFirstTask;
        for (const Flow& f : flows)
            if (f.from >= lo && f.from < hi && f.to >= lo && f.to < hi) {
                d.pendingFlows.push_back({d.nextFlow++, f.from + shift, f.to + shift, f.kind});
                if (static_cast<int>(d.pendingFlows.size()) == kRowBatch) d.flushFlows();
            }
    }
}

Status ProfileDbWriter::commit() {
    Impl& d = *m_impl;
    if (d.committed || !d.db) return makeError("profiling database " + d.target.string() + " was already committed");
    d.flushAll();
    d.copyClassFlows();
    d.flushAll();
    if (!d.firstError.empty()) return makeError(d.firstError);

    d.meta.insert_or_assign("schema_version", std::to_string(kSchemaVersion));
    d.meta.insert_or_assign("slice_count", std::to_string(d.nextTask));
    d.meta.insert_or_assign("max_dur_ns", std::to_string(d.maxDur));
    if (d.minTime <= d.maxTime) {
        d.meta.insert_or_assign("time_min_ns", std::to_string(d.minTime));
        d.meta.insert_or_assign("time_max_ns", std::to_string(d.maxTime));
    }
    {
        SqliteStatement ins(d.db, "INSERT OR REPLACE INTO META_DATA(name, value) VALUES(?,?)");
        for (const auto& [k, v] : d.meta) {
            ins.bind(1, std::string_view(k));
            ins.bind(2, std::string_view(v));
            d.check(ins.exec(), "META_DATA");
        }
        SqliteStatement diag(d.db, "INSERT INTO DIAGNOSTIC(kind_id, severity, count, example) VALUES(?,?,?,?)");
        for (const auto& kind : d.diagnosticOrder) {
            const auto& acc = d.diagnostics.find(kind)->second;
            diag.bind(1, static_cast<std::int64_t>(d.intern(kind)));
            diag.bind(2, static_cast<int>(acc.severity));
            diag.bind(3, acc.count);
            diag.bind(4, std::string_view(acc.example));
            d.check(diag.exec(), "DIAGNOSTIC");
        }
    }
    if (!d.firstError.empty()) return makeError(d.firstError);
    // Release the prepared statements before closing: sqlite3_close refuses otherwise.
    d.insString = {}; d.insDevice = {}; d.insTrack = {}; d.insTask = {}; d.insTaskBatch = {}; d.insArgs = {};
    d.insFlow = {}; d.insFlowBatch = {}; d.insCounter = {}; d.insCounterBatch = {}; d.insOpInfo = {}; d.insOpInfoBatch = {}; d.insStep = {};
    d.insOpAlloc = {}; d.insRankClass = {}; d.insTrackAlias = {};

    if (!d.taskIndexLive)
        if (auto s = execSql(d.db, npudbTaskIndexSql(), "indexing " + d.target.string()); !s) return s;
    // Collectives are linked across every rank, the aliased ones too (collective_flows reads
    // an aliased track as its class track's, shifted).
    if (auto linked = linkCollectivesAcrossRanks(d.db); !linked) return makeError(d.target.string() + ": " + linked.message());
    // FLOW's indexes after the collective flows: built once over all rows, not kept up
    // row by row (353k flows on 64 ranks).
    if (auto s = execSql(d.db, npudbIndexesSql(), "indexing " + d.target.string()); !s) return s;
    if (auto s = writeTrackSummaries(d.db, d.minTime <= d.maxTime ? d.minTime : 0, d.minTime <= d.maxTime ? d.maxTime : 0); !s)
        return makeError("summarising tracks of " + d.target.string() + ": " + s.message());
    if (auto s = execSql(d.db, "COMMIT", "committing " + d.target.string()); !s) return s;
    if (sqlite3_close(d.db) != SQLITE_OK) return makeError("closing " + d.target.string() + ": " + sqlite3_errmsg(d.db));
    d.db = nullptr;
    if (auto s = renameIntoPlace(d.tmp, d.target); !s) return s;
    d.committed = true;
    return {};
}

}  // namespace npu::profiler
