#include "profiler/store/sql_query.h"

#include "profiler/store/rank_classes.h"

#include <sqlite3.h>

#include <chrono>
#include <memory>

namespace npu::profiler {

namespace {
int checkCancel(void* flag) { return static_cast<const std::atomic<bool>*>(flag)->load() ? 1 : 0; }
}  // namespace

Expected<SqlQueryResult> runReadOnlyQuery(const std::filesystem::path& dbPath, const std::string& sql,
                                          const std::atomic<bool>* cancel, std::int64_t maxRows) {
    const auto started = std::chrono::steady_clock::now();
    sqlite3* raw = nullptr;
    if (sqlite3_open_v2(dbPath.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string message = raw ? sqlite3_errmsg(raw) : "out of memory";
        sqlite3_close(raw);
        return makeError(dbPath.string() + ": cannot open read-only: " + message);
    }
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
    // Every rank as if stored (rank classes); before query_only, which refuses the views.
    if (auto views = installRankClassViews(db.get()); !views) return makeError(dbPath.string() + ": " + views.message());
    sqlite3_exec(db.get(), "PRAGMA query_only = 1", nullptr, nullptr, nullptr);
    if (cancel) sqlite3_progress_handler(db.get(), 10000, checkCancel, const_cast<std::atomic<bool>*>(cancel));

    sqlite3_stmt* rawStmt = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db.get(), sql.c_str(), static_cast<int>(sql.size()), &rawStmt, &tail) != SQLITE_OK)
        return makeError(std::string("query: ") + sqlite3_errmsg(db.get()));
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(rawStmt, sqlite3_finalize);
    if (!stmt) return makeError("query: empty statement (expected one SELECT)");
    for (const char* p = tail; p && *p; ++p)
        if (*p != ' ' && *p != '\n' && *p != '\t' && *p != '\r' && *p != ';')
            return makeError("query: only one statement at a time (a second one starts at \"" +
                             std::string(p).substr(0, 30) + "\")");
    if (!sqlite3_stmt_readonly(stmt.get())) return makeError("query: the panel is read-only; this statement writes");

    SqlQueryResult out;
    const int columns = sqlite3_column_count(stmt.get());
    for (int c = 0; c < columns; ++c) out.table.header.emplace_back(sqlite3_column_name(stmt.get(), c));
    int rc;
    while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
        if (out.totalRows++ >= maxRows) continue;
        std::vector<std::string> row;
        row.reserve(static_cast<size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), c));
            row.emplace_back(text ? std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt.get(), c))) : std::string());
        }
        out.table.rows.push_back(std::move(row));
    }
    if (rc == SQLITE_INTERRUPT || (cancel && cancel->load())) return cancelledError("query cancelled");
    if (rc != SQLITE_DONE) return makeError(std::string("query: ") + sqlite3_errmsg(db.get()));
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

}  // namespace npu::profiler
