#pragma once
// Rank classes (schema 7, docs/npudb-schema.md "Rank classes"): ranks that do the same
// work up to a time shift are stored once. A class's first rank (its device) keeps its
// tasks, op info, counters and intra-device flows in TASK, OP_INFO, COUNTER and FLOW; every
// other rank of the class is a row of RANK_CLASS (its device, the class device, the time
// offset, the ids its tasks take) and its tracks are rows of TRACK_ALIAS pointing at the
// class device's tracks. A rank's tasks are its class's, shifted: task id by
// task_id_shift, start by offset_ns.
//
// Every connection that reads a file with rank classes gets TEMP views named TASK, OP_INFO
// and COUNTER that show each aliased rank as if it were stored (SQLite resolves an
// unqualified name in the temp schema first), so every query, analysis and export reads
// all ranks unchanged; `main.TASK` etc. are the stored rows. Files without rank classes
// get no views: their queries run on the tables as before.

#include "base/expected.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace npu::profiler {

struct RankClassRow {
    std::int64_t device = 0;       // the aliased rank's device
    std::int64_t classDevice = 0;  // the device whose tasks it shares
    std::int64_t offsetNs = 0;     // its tasks start this much later than the class's
    std::int64_t firstTask = 0;    // its tasks' ids: [firstTask, firstTask + taskCount)
    std::int64_t taskCount = 0;
    std::int64_t classFirstTask = 0;  // the class device's first task id
    std::int64_t taskIdShift() const { return firstTask - classFirstTask; }
};

struct TrackAliasRow {
    std::int64_t sourceTrack = 0;
    std::int64_t offsetNs = 0;
    std::int64_t taskIdShift = 0;
};

// The rank classes of an open database (empty for files without them or older than 7).
struct RankClasses {
    std::vector<RankClassRow> ranks;                          // by firstTask
    std::unordered_map<std::int64_t, TrackAliasRow> tracks;   // aliased track -> its class track
    // device -> (class track -> the device's aliased track showing it)
    std::unordered_map<std::int64_t, std::unordered_map<std::int64_t, std::int64_t>> aliasByDevice;
    bool empty() const { return ranks.empty(); }
    // The device whose rows `device` shows: its class's first rank, or itself.
    std::int64_t classDeviceOf(std::int64_t device) const;
    // The aliased rank a task id belongs to; nullptr for a stored task.
    const RankClassRow* rankOfTask(std::int64_t taskId) const;
    // The aliased track of `device` that shows `sourceTrack`; -1 when there is none.
    std::int64_t aliasTrack(std::int64_t device, std::int64_t sourceTrack) const;
};

RankClasses readRankClasses(sqlite3* db);

// Where a track's rows are stored: the track itself, or an aliased track's class track
// with the shift of its starts and ids. Readers that join a track's tasks to other
// tables (OP_INFO) read main.TASK through this: a join through the views would match
// every aliased rank's rows to each task.
struct StoredTrack {
    std::int64_t track = 0;
    std::int64_t offsetNs = 0;
    std::int64_t taskIdShift = 0;
};
StoredTrack storedTrackOf(const RankClasses& classes, std::int64_t track);

// Creates the TEMP views TASK, OP_INFO and COUNTER on `db` when its main schema has rank
// classes (nothing otherwise, nor for files older than schema 7).
Status installRankClassViews(sqlite3* db);

}  // namespace npu::profiler
