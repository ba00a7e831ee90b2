#include "profiler/importers/common/sqlite_source.h"

#include "profiler/store/sqlite_attach.h"
#include "profiler/store/sqlite_statement.h"

namespace npu::profiler {

Expected<std::unique_ptr<SqliteSource>> SqliteSource::open(const std::filesystem::path& file) {
    std::unique_ptr<SqliteSource> s(new SqliteSource());
    s->m_path = file;
    // Read-only and immutable: the profiler's output is never changed, and immutable skips
    // locking, which also lets files on read-only media open.
    const std::string uri = readOnlyUri(file);
    if (sqlite3_open_v2(uri.c_str(), &s->m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK)
        return makeError(file.string() + ": cannot open as SQLite: " + std::string(sqlite3_errmsg(s->m_db)));
    SqliteStatement tables(s->m_db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')");
    if (!tables.valid() || tables.step() == SQLITE_NOTADB)
        return makeError(file.string() + ": not an SQLite database (expected a profiler's .db / .sqlite output)");
    tables.reset();
    while (tables.step() == SQLITE_ROW) s->m_columns[tables.text(0)];
    for (auto& [table, columns] : s->m_columns) {
        SqliteStatement info(s->m_db, "SELECT name FROM pragma_table_info(?)");
        info.bind(1, std::string_view(table));
        while (info.step() == SQLITE_ROW) columns.insert(info.text(0));
    }
    if (s->m_columns.empty()) return makeError(file.string() + ": the database has no tables");
    return s;
}

SqliteSource::~SqliteSource() { sqlite3_close(m_db); }

bool SqliteSource::hasTable(std::string_view table) const { return m_columns.find(table) != m_columns.end(); }

bool SqliteSource::hasColumn(std::string_view table, std::string_view column) const {
    const auto it = m_columns.find(table);
    return it != m_columns.end() && it->second.count(std::string(column)) > 0;
}

std::string SqliteSource::col(std::string_view table, std::string_view alias,
                              std::initializer_list<std::string_view> spellings, ImportDiagnostics& diag) const {
    for (auto s : spellings)
        if (hasColumn(table, s)) return std::string(alias) + "." + std::string(s);
    diag.add(DiagnosticKind::missing_column, [&] {
        std::string tried;
        for (auto s : spellings) tried += (tried.empty() ? "" : "/") + std::string(s);
        return m_path.filename().string() + ": " + std::string(table) + " has no column " + tried;
    });
    return "NULL";
}

std::int64_t SqliteSource::scalar(const std::string& sql) const {
    SqliteStatement q(m_db, sql);
    return q.valid() && q.step() == SQLITE_ROW ? q.int64(0) : 0;
}

}  // namespace npu::profiler
