#pragma once
// The .npudb schema (documented in docs/npudb-schema.md): table definitions, the
// indexes built after the bulk load, and the migration hook that upgrades an older
// database to kSchemaVersion.

#include "base/expected.h"

#include <filesystem>
#include <string_view>

struct sqlite3;

namespace npu::profiler {

// Tables only; the indexes are separate so the writer chooses when to build them.
std::string_view npudbTablesSql();
// The communication tables added by version 2 (also run by the writer).
std::string_view npudbCommTablesSql();
// Version 4: MEMORY_BLOCK and MEMORY_SEGMENT (the memory map).
std::string_view npudbMemoryTablesSql();
// Version 5: CLUSTER_STEP and COMM_GROUP (msprof-analyze's cluster analysis).
std::string_view npudbClusterTablesSql();
// Version 6: TRACK_SUMMARY and TRACK_DENSITY (filled by writeTrackSummaries).
std::string_view npudbSummaryTablesSql();
// Version 7: RANK_CLASS and TRACK_ALIAS (profiler/store/rank_classes.h).
std::string_view npudbRankClassTablesSql();
// The covering (track, start) index of TASK.
std::string_view npudbTaskIndexSql();
// COUNTER(track_id, ts_ns): the writer keeps it live (samples arrive per track in time order).
std::string_view npudbCounterIndexSql();
// FLOW indexes, built after the bulk insert.
std::string_view npudbIndexesSql();

// Runs a multi-statement SQL text; the error names what was being done.
Status execSql(sqlite3* db, std::string_view sql, std::string_view what);

// The META_DATA schema_version, or an error naming the file when it is not an npudb.
Expected<int> readSchemaVersion(sqlite3* db, const std::filesystem::path& file);

// Upgrades the database at `file` in place from `fromVersion` to kSchemaVersion, one
// version step at a time inside one transaction: 1 -> 2 adds the communication tables.
Status migrateNpudb(const std::filesystem::path& file, int fromVersion);

}  // namespace npu::profiler
