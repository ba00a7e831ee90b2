#pragma once
// A profiler's own SQLite output (torch_npu, msprof, Nsight Systems export) opened
// read-only for import. Importers read it with one SELECT per table, letting SQLite do
// the joins (names through STRING_IDS, enums, args as json_object) and streaming rows in
// the order they are written: no table is loaded into memory. The schema differs
// between tool versions, so queries are built from the columns that exist: col() gives
// the first present spelling of a column or NULL, and notes the absence as a diagnostic.

#include "base/expected.h"
#include "profiler/importers/common/import_diagnostics.h"

#include <sqlite3.h>

#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace npu::profiler {

class SqliteSource {
public:
    static Expected<std::unique_ptr<SqliteSource>> open(const std::filesystem::path& file);
    ~SqliteSource();

    sqlite3* handle() const { return m_db; }
    const std::filesystem::path& path() const { return m_path; }
    bool hasTable(std::string_view table) const;
    bool hasColumn(std::string_view table, std::string_view column) const;
    // "alias.column" for the first spelling present, else "NULL" (and a missing_column
    // diagnostic naming the table and the spellings tried).
    std::string col(std::string_view table, std::string_view alias, std::initializer_list<std::string_view> spellings,
                    ImportDiagnostics& diag) const;
    // A one-value query (counts for diagnostics and format checks); 0 on error.
    std::int64_t scalar(const std::string& sql) const;

private:
    SqliteSource() = default;
    sqlite3* m_db = nullptr;
    std::filesystem::path m_path;
    std::map<std::string, std::set<std::string>, std::less<>> m_columns;  // table -> columns
};

}  // namespace npu::profiler
