#pragma once
// A user's SQL over a .npudb (the query panel, Perfetto's query page): on its own
// read-only connection (SQLITE_OPEN_READONLY and PRAGMA query_only, so no statement can
// change the run), one statement, results as text, at most maxRows kept (the rest
// counted), cancellable from another thread through `cancel` (checked by SQLite's
// progress handler, which then interrupts the statement).

#include "base/expected.h"
#include "profiler/exporters/csv_table.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>

namespace npu::profiler {

struct SqlQueryResult {
    CsvTable table;               // column names and the kept rows, values as text (NULL empty)
    std::int64_t totalRows = 0;   // rows the statement produced
    bool truncated() const { return totalRows > static_cast<std::int64_t>(table.rows.size()); }
    double seconds = 0;
};

Expected<SqlQueryResult> runReadOnlyQuery(const std::filesystem::path& db, const std::string& sql,
                                          const std::atomic<bool>* cancel = nullptr, std::int64_t maxRows = 100000);

}  // namespace npu::profiler
