#pragma once
// The import tests' two sides: a shared sample imported through the one entry point
// (importProfile) into a temporary .npudb, and the figures it should hold computed
// independently with plain SQL on the vendor's own file (sqlite3 C API, read-only).

#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace npu::profiler::testing {

// Every row of a query, each value as a double (NULL -> NaN); a query that does not
// prepare warns and gives no rows.
inline std::vector<std::vector<double>> sqlRows(const std::filesystem::path& file, const std::string& sql) {
    std::vector<std::vector<double>> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                std::vector<double> row;
                for (int i = 0; i < sqlite3_column_count(st); ++i)
                    row.push_back(sqlite3_column_type(st, i) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, i));
                out.push_back(std::move(row));
            }
        } else {
            qWarning("%s: %s", sql.c_str(), sqlite3_errmsg(db));
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

// The first value of a query: -1 when it gives no row, 0 for NULL (as sqlite3_column_double reads it).
inline double sqlValue(const std::filesystem::path& file, const std::string& sql) {
    const auto rows = sqlRows(file, sql);
    if (rows.empty() || rows[0].empty()) return -1;
    return std::isnan(rows[0][0]) ? 0.0 : rows[0][0];
}

inline std::int64_t sqlCount(const std::filesystem::path& file, const std::string& sql) {
    return static_cast<std::int64_t>(sqlValue(file, sql));
}

// A count from the imported database itself.
inline std::int64_t stored(const ProfileDb& db, const std::string& sql) { return sqlCount(db.path(), sql); }

// The sample imported into dir/name and opened; null (with a warning naming the import
// error) when either fails.
inline std::unique_ptr<ProfileDb> importAndOpen(const std::filesystem::path& in, const QTemporaryDir& dir,
                                                const char* name) {
    const auto out = std::filesystem::path(dir.path().toStdString()) / name;
    auto r = importProfile(in, out);
    if (!r) {
        qWarning("%s", r.message().c_str());
        return nullptr;
    }
    auto db = ProfileDb::open(out);
    return db ? std::move(db.value()) : nullptr;
}

}  // namespace npu::profiler::testing
