#pragma once
// ProfileDbWriter's state and its batching of rows into SQLite, private to the writer:
// profile_db_writer.cpp creates and commits the database, profile_db_writer_emit.cpp
// holds the TraceSink calls that fill it.

#include "profiler/store/profile_db.h"
#include "profiler/store/npudb_schema.h"
#include "profiler/store/profile_db_writer_rows.h"
#include "profiler/store/sqlite_statement.h"
#include "profiler/store/track_summary.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace npu::profiler {

struct ProfileDbWriter::Impl {
    sqlite3* db = nullptr;
    std::filesystem::path target;
    std::filesystem::path tmp;
    bool committed = false;
    std::string firstError;

    SqliteStatement insRankClass, insTrackAlias;
    SqliteStatement insString, insDevice, insTrack, insTask, insTaskBatch, insArgs, insFlow, insFlowBatch, insCounter,
        insCounterBatch, insOpInfo, insOpInfoBatch, insStep, insOpAlloc;

    std::unordered_map<std::string, std::int32_t, TextHash, std::equal_to<>> strings;
    std::unordered_map<writer_rows::ArgsKey, std::int64_t, writer_rows::ArgsKeyHash> args;
    std::map<std::string, std::string, std::less<>> meta;
    std::vector<std::string> diagnosticOrder;
    std::map<std::string, writer_rows::DiagnosticAccumulator, std::less<>> diagnostics;

    std::map<std::string, std::int64_t, std::less<>> deviceByName;
    // What rank classes need of what was written (addDeviceAlias): each track's row, and
    // each device's task ids and time extent.
    struct TrackInfo {
        std::int64_t device = -1, parent = -1;
        TrackKind kind = TrackKind::other;
        std::int32_t name = -1;
        int sortIndex = 0;
    };
    struct DeviceSpan {
        std::int64_t firstTask = -1, lastTask = -1, taskCount = 0;
        std::int64_t minTime = std::numeric_limits<std::int64_t>::max();
        std::int64_t maxTime = std::numeric_limits<std::int64_t>::min();
        bool alias = false;
    };
    std::vector<TrackInfo> trackInfo;     // by track id
    std::vector<DeviceSpan> deviceSpans;  // by device id
    struct Alias {
        std::int64_t device, classDevice, offsetNs, firstTask, taskCount, classFirstTask;
    };
    std::vector<Alias> aliases;
    DeviceSpan* spanOfTrack(std::int64_t track) {
        if (track < 0 || static_cast<std::size_t>(track) >= trackInfo.size()) return nullptr;
        const std::int64_t dev = trackInfo[static_cast<std::size_t>(track)].device;
        if (dev < 0 || static_cast<std::size_t>(dev) >= deviceSpans.size()) return nullptr;
        return &deviceSpans[static_cast<std::size_t>(dev)];
    }
    std::int64_t nextDevice = 0, nextTrack = 0, nextTask = 0, nextArgs = 0, nextFlow = 0, nextStep = 0;
    std::int64_t minTime = std::numeric_limits<std::int64_t>::max();
    std::int64_t maxTime = std::numeric_limits<std::int64_t>::min();
    std::int64_t maxDur = 0;
    // Categories repeat run after run; one cached lookup saves a hash per slice.
    std::string lastCategory;
    std::int32_t lastCategoryId = -1;
    std::vector<writer_rows::TaskRow> pending;
    std::vector<writer_rows::CounterInsert> pendingCounters;
    std::vector<writer_rows::FlowInsert> pendingFlows;
    std::vector<writer_rows::OpInfoInsert> pendingOpInfo;

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

    void bindTask(SqliteStatement& st, int base, const writer_rows::TaskRow& r) {
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
        if (static_cast<int>(pending.size()) == writer_rows::kTaskBatch) {
            for (int i = 0; i < writer_rows::kTaskBatch; ++i) bindTask(insTaskBatch, i * 8, pending[static_cast<size_t>(i)]);
            check(insTaskBatch.exec(), "TASK");
        } else {
            for (const auto& r : pending) {
                bindTask(insTask, 0, r);
                check(insTask.exec(), "TASK");
            }
        }
        pending.clear();
    }

    void bindCounter(SqliteStatement& st, int base, const writer_rows::CounterInsert& r) {
        st.bind(base + 1, r.track);
        st.bind(base + 2, r.ts);
        st.bind(base + 3, r.value);
    }
    // A full batch in one multi-row statement, a shorter tail row by row.
    template <class Row, class Bind>
    void flushRows(std::vector<Row>& rows, SqliteStatement& single, SqliteStatement& batch, int columns, Bind bindRow,
                   std::string_view table) {
        if (static_cast<int>(rows.size()) == writer_rows::kRowBatch) {
            for (int i = 0; i < writer_rows::kRowBatch; ++i) bindRow(batch, i * columns, rows[static_cast<size_t>(i)]);
            check(batch.exec(), table);
        } else {
            for (const auto& r : rows) {
                bindRow(single, 0, r);
                check(single.exec(), table);
            }
        }
        rows.clear();
    }
    void flushCounters() {
        flushRows(pendingCounters, insCounter, insCounterBatch, 3,
                  [this](SqliteStatement& st, int base, const auto& r) { bindCounter(st, base, r); }, "COUNTER");
    }

    void bindFlow(SqliteStatement& st, int base, const writer_rows::FlowInsert& r) {
        st.bind(base + 1, r.id);
        st.bind(base + 2, r.from);
        st.bind(base + 3, r.to);
        st.bind(base + 4, r.kind);
    }
    void flushFlows() {
        flushRows(pendingFlows, insFlow, insFlowBatch, 4,
                  [this](SqliteStatement& st, int base, const auto& r) { bindFlow(st, base, r); }, "FLOW");
    }

    void bindOpInfo(SqliteStatement& st, int base, const writer_rows::OpInfoInsert& r) {
        st.bind(base + 1, r.task);
        st.bind(base + 2, static_cast<std::int64_t>(r.opType));
        st.bind(base + 3, static_cast<std::int64_t>(r.dtype));
        st.bind(base + 4, r.flops);
        st.bind(base + 5, r.bytes);
        st.bind(base + 6, r.node);
    }
    void flushOpInfo() {
        flushRows(pendingOpInfo, insOpInfo, insOpInfoBatch, 6,
                  [this](SqliteStatement& st, int base, const auto& r) { bindOpInfo(st, base, r); }, "OP_INFO");
    }

    void flushAll() {
        flushTasks();
        flushCounters();
        flushFlows();
        flushOpInfo();
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
        const writer_rows::ArgsKey key = writer_rows::argsKey(json);
        if (auto it = args.find(key); it != args.end()) return it->second;
        const std::int64_t id = nextArgs++;
        args.emplace(key, id);
        insArgs.bind(1, id);
        insArgs.bind(2, json);
        check(insArgs.exec(), "ARGS");
        return id;
    }

    std::int64_t insertTrack(std::int64_t device, std::int64_t parent, TrackKind kind, std::int32_t nameId, int sortIndex) {
        const std::int64_t id = nextTrack++;
        insTrack.bind(1, id);
        insTrack.bind(2, device);
        insTrack.bind(3, parent);
        insTrack.bind(4, trackKindName(kind));
        insTrack.bind(5, static_cast<std::int64_t>(nameId));
        insTrack.bind(6, sortIndex);
        check(insTrack.exec(), "TRACK");
        trackInfo.push_back({device, parent, kind, nameId, sortIndex});
        return id;
    }

    void copyClassFlows();  // profile_db_writer.cpp

    void noteTime(std::int64_t a, std::int64_t b) {
        minTime = std::min(minTime, a);
        maxTime = std::max(maxTime, b);
    }
};

}  // namespace npu::profiler
