#pragma once
// Tables of another SQLite file copied into an open database with SQL alone
// (TraceSink::copyFromSqlite): the file is attached read-only and immutable like every
// profiler source (SqliteSource), so a vendor's database is never written, not even a
// journal, and files on read-only media open.

#include "base/expected.h"

#include <filesystem>
#include <string_view>

struct sqlite3;

namespace npu::profiler {

// The "file:" URI of `file` opened read-only and immutable (a profiler's finished output:
// no locking), with the characters URIs reserve escaped. The connection must be opened
// with SQLITE_OPEN_URI.
std::string readOnlyUri(const std::filesystem::path& file);

// Inside `db`'s open transaction: ATTACH `file` AS `alias` (a plain identifier), run
// `sql` (INSERT ... SELECT ... FROM alias.table statements), COMMIT, DETACH and BEGIN the
// next transaction. SQLite detaches a file only outside the transaction that read it;
// for a writer whose database is a private temporary file until it is renamed into
// place, the intermediate COMMIT changes nothing a reader could see, and it frees the
// alias for the next source (SQLite attaches at most 10 at once). The first error,
// naming the file, is returned.
Status copyFromAttached(sqlite3* db, const std::filesystem::path& file, std::string_view alias, std::string_view sql);

}  // namespace npu::profiler
