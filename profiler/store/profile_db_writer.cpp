#include "profiler/store/profile_db.h"

#include "engine/core/atomic_file.h"
#include "profiler/store/comm_store.h"
#include "profiler/store/npudb_schema.h"
#include "profiler/store/profile_db_writer_rows.h"
#include "profiler/store/sqlite_attach.h"
#include "profiler/store/sqlite_statement.h"
#include "profiler/store/track_summary.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <system_error>
#include <unordered_map>

namespace npu::profiler {
using namespace writer_rows;

struct ProfileDbWriter::Impl {
    sqlite3* db = nullptr;
    std::filesystem::path target;
    std::filesystem::path tmp;
    bool committed = false;
    std::string firstError;

    SqliteStatement insString, insDevice, insTrack, insTask, insTaskBatch, insArgs, insFlow, insFlowBatch, insCounter,
        insCounterBatch, insOpInfo, insStep, insOpAlloc;

    std::unordered_map<std::string, std::int32_t, TextHash, std::equal_to<>> strings;
    std::unordered_map<ArgsKey, std::int64_t, ArgsKeyHash> args;
    std::map<std::string, std::string, std::less<>> meta;
    std::vector<std::string> diagnosticOrder;
    std::map<std::string, DiagnosticAccumulator, std::less<>> diagnostics;

    std::map<std::string, std::int64_t, std::less<>> deviceByName;
    std::int64_t nextDevice = 0, nextTrack = 0, nextTask = 0, nextArgs = 0, nextFlow = 0, nextStep = 0;
    std::int64_t minTime = std::numeric_limits<std::int64_t>::max();
    std::int64_t maxTime = std::numeric_limits<std::int64_t>::min();
    std::int64_t maxDur = 0;
    // Categories repeat run after run; one cached lookup saves a hash per slice.
    std::string lastCategory;
    std::int32_t lastCategoryId = -1;
    std::vector<TaskRow> pending;
    std::vector<CounterInsert> pendingCounters;
    std::vector<FlowInsert> pendingFlows;

    // The TASK index is live from the start: importers and the simulation writer emit
    // track by track in start order, which appends to the index B-tree at the cost of a
    // few % per insert and saves the whole sort at commit (5M slices: 3.8 s CPU in total
    // against 5.4 s). Should a producer interleave tracks, the index is dropped and built
    // at commit instead.
    bool taskIndexLive = true;
    std::int64_t lastTrack = std::numeric_limits<std::int64_t>::min();
    std::int64_t lastStart = std::numeric_limits<std::int64_t>::min();
    std::int64_t outOfOrder = 0;

    void noteOrder(std::int64_t track, std::int64_t start) {
        if (track < lastTrack || (track == lastTrack && start < lastStart)) {
            if (++outOfOrder > 10000 && outOfOrder * 20 > nextTask && taskIndexLive) {
                flushTasks();
                check(sqlite3_exec(db, "DROP INDEX TASK_TRACK_START", nullptr, nullptr, nullptr), "dropping an index");
                taskIndexLive = false;
            }
        }
        lastTrack = track;
        lastStart = start;
    }

    void bindTask(SqliteStatement& st, int base, const TaskRow& r) {
        st.bind(base + 1, r.id);
        st.bind(base + 2, r.track);
        st.bind(base + 3, r.start);
        st.bind(base + 4, r.dur);
        st.bind(base + 5, r.depth);
        st.bind(base + 6, r.name);
        st.bind(base + 7, r.category);
        if (r.args < 0)
            st.bindNull(base + 8);
        else
            st.bind(base + 8, r.args);
    }

    void flushTasks() {
        if (static_cast<int>(pending.size()) == kTaskBatch) {
            for (int i = 0; i < kTaskBatch; ++i) bindTask(insTaskBatch, i * 8, pending[static_cast<size_t>(i)]);
            check(insTaskBatch.exec(), "TASK");
        } else {
            for (const auto& r : pending) {
                bindTask(insTask, 0, r);
                check(insTask.exec(), "TASK");
            }
        }
        pending.clear();
    }

    void bindCounter(SqliteStatement& st, int base, const CounterInsert& r) {
        st.bind(base + 1, r.track);
        st.bind(base + 2, r.ts);
        st.bind(base + 3, r.value);
    }
    void flushCounters() {
        if (static_cast<int>(pendingCounters.size()) == kRowBatch) {
            for (int i = 0; i < kRowBatch; ++i) bindCounter(insCounterBatch, i * 3, pendingCounters[static_cast<size_t>(i)]);
            check(insCounterBatch.exec(), "COUNTER");
        } else {
            for (const auto& r : pendingCounters) {
                bindCounter(insCounter, 0, r);
                check(insCounter.exec(), "COUNTER");
            }
        }
        pendingCounters.clear();
    }

    void bindFlow(SqliteStatement& st, int base, const FlowInsert& r) {
        st.bind(base + 1, r.id);
        st.bind(base + 2, r.from);
        st.bind(base + 3, r.to);
        st.bind(base + 4, r.kind);
    }
    void flushFlows() {
        if (static_cast<int>(pendingFlows.size()) == kRowBatch) {
            for (int i = 0; i < kRowBatch; ++i) bindFlow(insFlowBatch, i * 4, pendingFlows[static_cast<size_t>(i)]);
            check(insFlowBatch.exec(), "FLOW");
        } else {
            for (const auto& r : pendingFlows) {
                bindFlow(insFlow, 0, r);
                check(insFlow.exec(), "FLOW");
            }
        }
        pendingFlows.clear();
    }

    void flushAll() {
        flushTasks();
        flushCounters();
        flushFlows();
    }

    ~Impl() {
        if (db) sqlite3_close_v2(db);
        if (!committed && !tmp.empty()) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
        }
    }

    void check(int rc, std::string_view what) {
        if (rc != SQLITE_DONE && rc != SQLITE_OK && firstError.empty())
            firstError = "writing " + target.string() + ": " + std::string(what) + ": " + sqlite3_errmsg(db);
    }

    std::int32_t intern(std::string_view s) {
        if (auto it = strings.find(s); it != strings.end()) return it->second;
        const auto id = static_cast<std::int32_t>(strings.size());
        auto [it, inserted] = strings.emplace(std::string(s), id);
        insString.bind(1, static_cast<std::int64_t>(id));
        insString.bind(2, std::string_view(it->first));
        check(insString.exec(), "STRING_IDS");
        return id;
    }

    // Producers pass the same stable name texts again and again (the importer's string
    // pool): a direct-mapped cache by address skips hashing the name. The cached entry
    // is trusted only if the text at that address still equals the interned string.
    struct NameCacheEntry {
        const char* data = nullptr;
        const std::string* stored = nullptr;
        std::int32_t id = -1;
    };
    std::array<NameCacheEntry, 4096> nameCache{};

    std::int32_t internName(std::string_view s) {
        if (s.empty()) return intern(s);
        auto& e = nameCache[(reinterpret_cast<std::uintptr_t>(s.data()) >> 3) & (nameCache.size() - 1)];
        if (e.data == s.data() && e.stored->size() == s.size() && std::memcmp(e.stored->data(), s.data(), s.size()) == 0)
            return e.id;
        auto it = strings.find(s);
        if (it == strings.end()) {
            intern(s);
            it = strings.find(s);
        }
        e = {s.data(), &it->first, it->second};
        return it->second;
    }

    std::int32_t internCategory(std::string_view s) {
        if (lastCategoryId >= 0 && s == lastCategory) return lastCategoryId;
        lastCategoryId = intern(s);
        lastCategory.assign(s);
        return lastCategoryId;
    }

    std::int64_t internArgs(std::string_view json) {
        const ArgsKey key = argsKey(json);
        if (auto it = args.find(key); it != args.end()) return it->second;
        const std::int64_t id = nextArgs++;
        args.emplace(key, id);
        insArgs.bind(1, id);
        insArgs.bind(2, json);
        check(insArgs.exec(), "ARGS");
        return id;
    }

    void noteTime(std::int64_t a, std::int64_t b) {
        minTime = std::min(minTime, a);
        maxTime = std::max(maxTime, b);
    }
};

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

void ProfileDbWriter::setMeta(std::string_view key, std::string_view value) {
    m_impl->meta.insert_or_assign(std::string(key), std::string(value));
}

std::int64_t ProfileDbWriter::addDevice(std::string_view name, std::string_view kind) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextDevice++;
    d.insDevice.bind(1, id);
    d.insDevice.bind(2, static_cast<std::int64_t>(d.intern(name)));
    d.insDevice.bind(3, kind);
    d.check(d.insDevice.exec(), "DEVICE");
    d.deviceByName.try_emplace(std::string(name), id);
    return id;
}

std::int64_t ProfileDbWriter::deviceNamed(std::string_view name, std::string_view kind) {
    const auto it = m_impl->deviceByName.find(name);
    return it != m_impl->deviceByName.end() ? it->second : addDevice(name, kind);
}

std::int64_t ProfileDbWriter::addTrack(std::int64_t device, std::int64_t parent, TrackKind kind,
                                       std::string_view name, int sortIndex) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextTrack++;
    d.insTrack.bind(1, id);
    d.insTrack.bind(2, device);
    d.insTrack.bind(3, parent);
    d.insTrack.bind(4, trackKindName(kind));
    d.insTrack.bind(5, static_cast<std::int64_t>(d.intern(name)));
    d.insTrack.bind(6, sortIndex);
    d.check(d.insTrack.exec(), "TRACK");
    return id;
}

std::int64_t ProfileDbWriter::addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                                       std::string_view name, std::string_view category,
                                       std::string_view args_json) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextTask++;
    if (d.taskIndexLive) d.noteOrder(track, start_ns);
    const std::int64_t args = (args_json.empty() || args_json == "{}") ? -1 : d.internArgs(args_json);
    d.pending.push_back({id, track, start_ns, dur_ns, depth, d.internName(name), d.internCategory(category), args});
    if (static_cast<int>(d.pending.size()) == kTaskBatch) d.flushTasks();
    d.noteTime(start_ns, start_ns + std::max<std::int64_t>(dur_ns, 0));
    d.maxDur = std::max(d.maxDur, dur_ns);
    return id;
}

void ProfileDbWriter::addCounter(std::int64_t track, std::int64_t ts_ns, double value) {
    Impl& d = *m_impl;
    d.pendingCounters.push_back({track, ts_ns, value});
    if (static_cast<int>(d.pendingCounters.size()) == kRowBatch) d.flushCounters();
    d.noteTime(ts_ns, ts_ns);
}

void ProfileDbWriter::addFlow(std::int64_t fromSlice, std::int64_t toSlice, std::string_view kind) {
    Impl& d = *m_impl;
    d.pendingFlows.push_back({d.nextFlow++, fromSlice, toSlice, static_cast<std::int64_t>(d.intern(kind))});
    if (static_cast<int>(d.pendingFlows.size()) == kRowBatch) d.flushFlows();
}

void ProfileDbWriter::addOpInfo(std::int64_t slice, std::string_view opType, std::string_view dtype, double flops,
                                double bytes, std::int64_t nodeId) {
    Impl& d = *m_impl;
    d.insOpInfo.bind(1, slice);
    d.insOpInfo.bind(2, static_cast<std::int64_t>(d.intern(opType)));
    d.insOpInfo.bind(3, static_cast<std::int64_t>(d.intern(dtype)));
    d.insOpInfo.bind(4, flops);
    d.insOpInfo.bind(5, bytes);
    d.insOpInfo.bind(6, nodeId);
    d.check(d.insOpInfo.exec(), "OP_INFO");
}

void ProfileDbWriter::addStep(std::int64_t start_ns, std::int64_t end_ns) {
    Impl& d = *m_impl;
    d.insStep.bind(1, d.nextStep++);
    d.insStep.bind(2, start_ns);
    d.insStep.bind(3, end_ns);
    d.check(d.insStep.exec(), "STEP");
}

void ProfileDbWriter::addDiagnostic(std::string_view kind, Severity severity, std::int64_t count,
                                    std::string_view example) {
    Impl& d = *m_impl;
    auto it = d.diagnostics.find(kind);
    if (it == d.diagnostics.end()) {
        d.diagnosticOrder.emplace_back(kind);
        it = d.diagnostics.emplace(std::string(kind), DiagnosticAccumulator{}).first;
        it->second.example.assign(example);
    }
    it->second.severity = std::max(it->second.severity, severity);
    it->second.count += count;
    if (it->second.example.empty()) it->second.example.assign(example);
}

sqlite3* ProfileDbWriter::handle() const { return m_impl->db; }

void ProfileDbWriter::addCommunication(const CommunicationData& c) {
    Impl& d = *m_impl;
    if (auto st = writeCommunication(d.db, c); !st && d.firstError.empty())
        d.firstError = "writing " + d.target.string() + ": " + st.message();
}

void ProfileDbWriter::addOpAllocation(const OpAllocationRecord& r) {
    Impl& d = *m_impl;
    if (!d.insOpAlloc.valid()) d.insOpAlloc.prepare(d.db, "INSERT INTO OP_MEMORY_ALLOC VALUES(?,?,?,?,?,?,?,?,?,?)");
    // Negative times mean "none in the source" (still live at the end of the capture).
    auto orNull = [](std::int64_t v) { return v < 0 ? std::nullopt : std::optional<std::int64_t>(v); };
    d.check(d.insOpAlloc.execRow(r.device, r.op, r.size_bytes, r.alloc_ns, orNull(r.release_ns), orNull(r.active_release_ns),
                                 orNull(r.duration_ns), r.stream, r.alloc_total_allocated_mb, r.alloc_total_reserved_mb),
            "OP_MEMORY_ALLOC");
}

Status ProfileDbWriter::copyFromSqlite(const std::filesystem::path& source, std::string_view alias, std::string_view sql) {
    return copyFromAttached(m_impl->db, source, alias, sql);
}

Status ProfileDbWriter::commit() {
    Impl& d = *m_impl;
    if (d.committed || !d.db) return makeError("profiling database " + d.target.string() + " was already committed");
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
    d.insFlow = {}; d.insFlowBatch = {}; d.insCounter = {}; d.insCounterBatch = {}; d.insOpInfo = {}; d.insStep = {};
    d.insOpAlloc = {};

    if (!d.taskIndexLive)
        if (auto s = execSql(d.db, npudbTaskIndexSql(), "indexing " + d.target.string()); !s) return s;
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
