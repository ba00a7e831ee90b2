#pragma once
// Thin RAII wrapper over a prepared SQLite statement, shared by the writer, the reader
// and the analyses. Keeps the C API's per-row cost (no std::string copies on bind) while
// making sure statements are finalized on every path.

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace npu::profiler {

class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(sqlite3* db, std::string_view sql) { prepare(db, sql); }
    ~SqliteStatement() { sqlite3_finalize(m_stmt); }
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement(SqliteStatement&& o) noexcept : m_stmt(o.m_stmt) { o.m_stmt = nullptr; }
    SqliteStatement& operator=(SqliteStatement&& o) noexcept {
        if (this != &o) {
            sqlite3_finalize(m_stmt);
            m_stmt = o.m_stmt;
            o.m_stmt = nullptr;
        }
        return *this;
    }

    bool prepare(sqlite3* db, std::string_view sql) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        return sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) == SQLITE_OK;
    }
    bool valid() const { return m_stmt != nullptr; }
    sqlite3_stmt* get() const { return m_stmt; }

    // Binds are 1-based like the C API.
    void bind(int i, std::int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    void bind(int i, int v) { sqlite3_bind_int64(m_stmt, i, v); }
    void bind(int i, double v) { sqlite3_bind_double(m_stmt, i, v); }
    // SQLITE_STATIC: the caller keeps the text alive until step() returns.
    void bind(int i, std::string_view v) {
        sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    }
    void bindNull(int i) { sqlite3_bind_null(m_stmt, i); }

    // Returns SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return sqlite3_step(m_stmt); }
    // Runs a write statement to completion and resets it for the next row.
    int exec() {
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        return rc;
    }
    void reset() { sqlite3_reset(m_stmt); }

    // Binds one row's values to ?1..?N in order and runs it (exec()); std::nullopt binds
    // NULL. For the small tables whose rows are plain structs.
    template <class... Values>
    int execRow(const Values&... values) {
        int i = 0;
        (bindValue(++i, values), ...);
        return exec();
    }

    std::int64_t int64(int col) const { return sqlite3_column_int64(m_stmt, col); }
    double real(int col) const { return sqlite3_column_double(m_stmt, col); }
    bool isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    std::string text(int col) const {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
        return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, col))) : std::string();
    }

private:
    void bindValue(int i, const std::string& v) { bind(i, std::string_view(v)); }
    void bindValue(int i, std::string_view v) { bind(i, v); }
    void bindValue(int i, const char* v) { bind(i, std::string_view(v)); }
    template <class T>
    void bindValue(int i, const std::optional<T>& v) {
        if (v) bindValue(i, *v);
        else bindNull(i);
    }
    template <class T>
        requires std::is_arithmetic_v<T>
    void bindValue(int i, T v) {
        if constexpr (std::is_floating_point_v<T>) bind(i, static_cast<double>(v));
        else bind(i, static_cast<std::int64_t>(v));
    }

    sqlite3_stmt* m_stmt = nullptr;
};

}  // namespace npu::profiler
