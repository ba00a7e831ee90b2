#include "profiler/store/sqlite_attach.h"

#include "profiler/store/npudb_schema.h"
#include "profiler/store/sqlite_statement.h"

#include <cctype>
#include <cstdio>

namespace npu::profiler {
namespace {

bool isIdentifier(std::string_view s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

}  // namespace

std::string readOnlyUri(const std::filesystem::path& file) {
    const std::string path = std::filesystem::absolute(file).generic_string();
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#' || static_cast<unsigned char>(c) < 0x20) {
            char esc[4];
            std::snprintf(esc, sizeof esc, "%%%02X", static_cast<unsigned char>(c));
            uri += esc;
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}

Status copyFromAttached(sqlite3* db, const std::filesystem::path& file, std::string_view alias, std::string_view sql) {
    if (!isIdentifier(alias)) return makeError("attaching " + file.string() + ": '" + std::string(alias) + "' is not a name");
    {
        SqliteStatement attach(db, "ATTACH ?1 AS " + std::string(alias));
        const std::string uri = readOnlyUri(file);
        attach.bind(1, std::string_view(uri));
        if (!attach.valid() || attach.exec() != SQLITE_DONE)
            return makeError(file.string() + ": cannot attach it to copy its tables (" + sqlite3_errmsg(db) + ")");
    }
    const std::string what = "copying the tables of " + file.string();
    const Status copied = execSql(db, sql, what);
    Status ended = execSql(db, "COMMIT", what);
    if (ended) ended = execSql(db, "DETACH " + std::string(alias), what);
    if (auto begun = execSql(db, "BEGIN", what); !begun && ended) ended = begun;
    return copied ? ended : copied;
}

}  // namespace npu::profiler
