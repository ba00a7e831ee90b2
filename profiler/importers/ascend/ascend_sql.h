#pragma once
// SQL fragments shared by the importers that copy Ascend's analysis databases with SQLite
// itself (analysis.db, cluster_analysis.db; TraceSink::copyFromSqlite): unit conversion,
// Ascend's ratio definitions and "the first row of each run of equal keys".

#include <initializer_list>
#include <string>

namespace npu::profiler {

// Ascend's milliseconds (scale "1e6") or microseconds ("1e3") as integer nanoseconds;
// SQLite's round() goes half away from zero like the text readers' llround.
inline std::string ascendNsSql(const std::string& column, const char* scale) {
    return "CAST(round(" + column + " * " + scale + ") AS INTEGER)";
}

// Ascend's Wait / Synchronization Time Ratio: part / (part + transit), 0 when both are 0.
inline std::string ascendRatioSql(const std::string& part, const std::string& transit) {
    return "CASE WHEN " + part + " + " + transit + " > 0 THEN " + part + " * 1.0 / (" + part + " + " + transit +
           ") ELSE 0 END";
}

// True on a row (aliased t) of `table` whose previous row (a rowid seek, no memory held)
// has other `keys`: the first row of each run, for tables that repeat a figure on every
// row of a group written together (bandwidth per packet-size bucket). A GROUP BY would
// hold every key in memory (210 MB for 2.9M rows).
inline std::string firstOfRunSql(const std::string& table, std::initializer_list<const char*> keys) {
    std::string same;
    for (const char* k : keys) same += std::string(" AND p.") + k + " IS t." + k;
    return "NOT EXISTS (SELECT 1 FROM " + table + " AS p WHERE p.rowid = (SELECT max(rowid) FROM " + table +
           " WHERE rowid < t.rowid)" + same + ")";
}

}  // namespace npu::profiler
